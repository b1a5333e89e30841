/**
 * Issue 14's dialect: named tensors declared once, NKI-style access patterns `t[0:128, 0:512]`
 * carrying the declared dtype, float immediates; bad input gives file:line:col diagnostics whose
 * carets cover the offending text. Expected values are written here by hand.
 */
import { describe, expect, it } from 'vitest';
import { renderHuman, SourceMap } from '@pyxis/diagnostics';
import { assembleNc, type AP } from '../src/index.js';

const asm = (text: string) => {
  const sources = new SourceMap();
  const r = assembleNc([{ file: 'd.ncasm', text }], sources);
  return { ...r, shown: r.diagnostics.map((d) => renderHuman(d, { sources })) };
};

describe('float immediates', () => {
  it('read as the doubles JavaScript reads them: 1., .5, 1.e3, 1_000.25, 0x1F, 2.5e-1, constants, -inf, nan', () => {
    const vals = ['1.', '.5', '1.e3', '1_000.25', '0x1F', '2.5e-1', 'EPS', '-HALF * 3', '-inf', 'nan', '1e-45'];
    const r = asm(`.const EPS = 1e-5\n.const HALF = 1 / 2\n.tensor x sbuf fp32 [128, 64]\n${vals.map((v) => `vector.memset x, value=${v}`).join('\n')}`);
    expect(r.diagnostics).toEqual([]);
    expect(r.program.insns.map((i) => i.attrs['value'])).toEqual([1, 0.5, 1000, 1000.25, 31, 0.25, 1e-5, -1.5, -Infinity, NaN, 1e-45]);
  });

  it('a float where an integer is needed is a diagnostic at the expression', () => {
    const r = asm('.tensor x sbuf fp32 [128, 64]\nvector.memset x[:, 0:1.5], value=0');
    expect(r.shown).toEqual(['d.ncasm:2:22: error[NC0012]: a slice bound must be an integer, got 1.5\n2 | vector.memset x[:, 0:1.5], value=0\n  |                      ^']);
  });
});

describe('named tensors and access patterns', () => {
  it('slices resolve to (memory, start partition, partitions, byte offset, [size, stride]..., dtype)', () => {
    const r = asm('.tensor b sbuf bf16 [128, 4, 512], partition=0, offset=1024\n.tensor B hbm bf16 [1024, 512]\nvector.tensor_copy b[64:128, 2, 0:512:2], b[0:64, 1, 256:512]\ndma.copy b[:, 3, :], B[256:384, :], queue=1');
    expect(r.diagnostics).toEqual([]);
    const [cp, dma] = r.program.insns as unknown as [{ out: AP; ins: AP[] }, { out: AP; ins: AP[] }];
    expect(cp.out).toEqual({ tensor: 0, mem: 'sbuf', dtype: 'bf16', start: 64, np: 64, pstride: 0, offset: 1024 + 2 * 512 * 2, dims: [[256, 2]] });
    expect(cp.ins[0]).toEqual({ tensor: 0, mem: 'sbuf', dtype: 'bf16', start: 0, np: 64, pstride: 0, offset: 1024 + (512 + 256) * 2, dims: [[256, 1]] });
    expect(dma.ins[0]).toEqual({ tensor: 1, mem: 'hbm', dtype: 'bf16', start: 0, np: 128, pstride: 512, offset: 256 * 512 * 2, dims: [[512, 1]] });
    expect(dma.out.dims).toEqual([[512, 1]]);
  });

  it('a tensor is declared once; unknown names get a suggestion; carets cover the name', () => {
    const r = asm('.tensor xs sbuf fp32 [128, 64]\n.tensor xs sbuf fp32 [128, 64]\nvector.memset xz[:, 0:8], value=0');
    expect(r.shown).toEqual([
      'd.ncasm:2:9: error[NC0020]: tensor `xs` is declared twice\n2 | .tensor xs sbuf fp32 [128, 64]\n  |         ^^',
      'd.ncasm:3:15: error[NC0030]: unknown tensor `xz`\n3 | vector.memset xz[:, 0:8], value=0\n  |               ^^\n= help: did you mean `xs`?',
    ]);
  });

  it('carets cover the whole access pattern or slice a rule is about', () => {
    expect(asm('.tensor x sbuf fp32 [128, 64]\nvector.memset x[:, 0:65], value=0').shown).toEqual([
      'd.ncasm:2:20: error[NC0032]: slice 0:65 is outside dimension 1 of `x` (size 64)\n2 | vector.memset x[:, 0:65], value=0\n  |                    ^^^^\n= spec: neuroncore-v2-architecture.md §Accessing SBUF/PSUM tensors using compute engines',
    ]);
    expect(asm('.tensor a sbuf bf16 [128, 512]\n.tensor ps psum fp32 [128, 1024]\ntensor.matmul ps[:, 256:768], a[:, 0:128], a').shown).toEqual([
      'd.ncasm:3:15: error[NC0204]: the output spans PSUM bytes 1024..3071, crossing a 2 KiB bank boundary; a matmul writes one PSUM bank\n3 | tensor.matmul ps[:, 256:768], a[:, 0:128], a\n  |               ^^^^^^^^^^^^^^\n= spec: neuroncore-v2-architecture.md §Near-memory accumulation in PSUM',
    ]);
  });

  it('semaphore instructions exist on engines only: `sem.signal` is an unknown instruction, not a crash', () => {
    const r = asm('.semaphore s\nsem.signal s, 1\nvector.sem_signal s, 1');
    expect(r.diagnostics.map((d) => [d.code, (d.span as { line: number }).line, (d.span as { length: number }).length, d.message])).toEqual([['NC0040', 2, 10, 'unknown instruction `sem.signal`']]);
  });

  it('syntax errors: one diagnostic per line at the offending token, never an exception', () => {
    const r = asm('.tensor x sbuf fp32 [128, 64]\nvector.memset x[0:128 0:8], value=1\nvector.memset x, value=$\n.loc "a.ncasm" 1\nvector.memset x, value="s\n.tensor q sbuf bf17 [1]');
    expect(r.diagnostics.map((d) => [d.code, (d.span as { line: number }).line, (d.span as { column: number }).column, d.message])).toEqual([
      ['NC0001', 2, 23, 'expected `]` or `,`, found `0`'],
      ['NC0001', 3, 24, 'unexpected character `$`'],
      ['NC0001', 4, 16, 'expected `.loc "FILE" LINE COLUMN` (positive integers)'],
      ['NC0001', 5, 24, 'unterminated string'],
      ['NC0022', 6, 16, 'unknown dtype `bf17`'],
    ]);
  });
});
