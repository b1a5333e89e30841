/**
 * The disassembler: assemble -> disassemble -> assemble gives the same object (the program
 * section byte for byte, the symbols, the metadata but the source file list), over random
 * programs and the samples; and the ISA form of access patterns is checked like slices are.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Container } from '@pyxis/container';
import { assembleNc, neuroncoreTarget, numText, sourceNc } from '../src/index.js';

const SAMPLES = new URL('../../../samples/neuroncore/', import.meta.url);

function roundTrip(text: string, file = 'p.ncasm'): { a: Container; b: Container; src: string } {
  const a = assembleNc([{ file, text }]);
  expect(a.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const src = neuroncoreTarget.assembler!.disassemble!(a.object, 'p.pobj');
  const b = assembleNc([{ file: 'dis.ncasm', text: src }]);
  expect(b.diagnostics.map((d) => `${JSON.stringify(d.span)} ${d.code} ${d.message}`)).toEqual([]);
  return { a: a.object, b: b.object, src };
}

function expectSameObject(a: Container, b: Container): void {
  expect(b.sections.length).toBe(a.sections.length);
  for (let i = 0; i < a.sections.length; i++) {
    expect({ ...b.sections[i]!, data: undefined }).toEqual({ ...a.sections[i]!, data: undefined });
    expect(Buffer.from(b.sections[i]!.data).equals(Buffer.from(a.sections[i]!.data))).toBe(true);
  }
  expect(b.symbols).toEqual(a.symbols);
  expect({ ...b.metadata, sources: [] }).toEqual({ ...a.metadata, sources: [] });
  expect([b.kind, b.version, b.target]).toEqual([a.kind, a.version, a.target]);
}

const ALU = ['add', 'subtract', 'mult', 'max', 'min', 'is_ge', 'divide'];
const FUNCS = ['identity', 'relu', 'exp', 'gelu', 'tanh', 'square'];
const num = fc.oneof(fc.double(), fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0.5, -0, Infinity, -Infinity, NaN, 1e-30));
const pow2 = fc.constantFrom(32, 64, 128);
const parts = fc.constantFrom<[number, number]>([0, 128], [0, 64], [64, 128], [0, 32], [32, 64], [96, 128]);

const OPS: Array<fc.Arbitrary<string>> = [
  fc.tuple(pow2, pow2, fc.integer({ min: 1, max: 512 }), fc.nat(3), fc.integer({ min: 0, max: 3 })).map(([k, m, n, bank, acc]) => `tensor.matmul ps[0:${m}, ${bank}, 0:${n}], a[0:${k}, 0:${m}], a[0:${k}, 0:${n}], accumulate=${acc}`),
  fc.tuple(pow2, pow2, fc.nat(3)).map(([k, m, bank]) => `tensor.transpose ps[0:${m}, ${bank}, 0:${k}], a[0:${k}, 0:${m}]`),
  fc.tuple(parts, parts, fc.integer({ min: 1, max: 300 }), fc.constantFrom(...ALU), num).filter(([p, q]) => p[1] - p[0] === q[1] - q[0]).map(([p, q, n, op, v]) => `vector.tensor_scalar f[${p[0]}:${p[1]}, 0:${n}], f[${q[0]}:${q[1]}, 0:${n}:1], op0=${op}, operand0=${numText(v)}`),
  fc.tuple(fc.integer({ min: 1, max: 200 }), fc.constantFrom(...ALU)).map(([n, op]) => `vector.tensor_tensor f[:, 0:${n}], f[:, 0:${n}], ps[:, 1, 0:${n}], op=${op}`),
  fc.tuple(fc.integer({ min: 1, max: 256 }), fc.constantFrom(...FUNCS), num).map(([n, fn, sc]) => `scalar.activation f[:, 0:${2 * n}:2], ps[:, 2, 0:${n}], func=${fn}, scale=${numText(sc)}, bias=f[:, 511]`),
  fc.tuple(fc.integer({ min: 1, max: 128 }), fc.integer({ min: -3, max: 3 }), fc.constantFrom('is_ge', 'is_lt', 'not_equal'), num).map(([n, cm, cmp, v]) => `gpsimd.affine_select f[:, 0:${n}], f[:, 0:${n}], channel_multiplier=${cm}, pattern=[-1, ${n}], cmp=${cmp}, value=${numText(v)}`),
  fc.tuple(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 128 }), fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 16 }).map((q) => `, queues=${q}`), fc.constant(', qrange=[3, 9]'), fc.integer({ min: 0, max: 15 }).map((q) => `, queue=${q}`))).map(([n, r, q]) => `dma.copy a[:, 0:${n}], H[${r}:${r + 128}, 0:${n}]${q}`),
  fc.tuple(fc.integer({ min: 1, max: 128 }), fc.integer({ min: 1, max: 4 })).map(([n, s]) => `dma.copy X[:, 0:${n}:${s}], f[:, 0:${n}:${s}]`),
  fc.tuple(fc.constantFrom('vector', 'scalar', 'tensor', 'gpsimd'), fc.constantFrom('sem_signal', 'sem_wait'), fc.nat(9)).map(([e, op, v]) => `${e}.${op} s${v % 2}, ${v}`),
  fc.tuple(fc.nat(15), fc.nat(5)).map(([q, v]) => `dma.sem_wait s1, ${v}, queue=${q}`),
  fc.tuple(fc.integer({ min: 1, max: 64 }), fc.integer({ min: -5, max: 5 })).map(([n, b]) => `gpsimd.iota f[0:64, 0:${n}], base=${b}, channel_multiplier=2, pattern=[1, ${n}]`),
];

const DECLS = `
.semaphore s0, s1
.tensor H hbm bf16 [300, 64]
.tensor X hbm fp32 [128, 512]
.tensor a sbuf bf16 [128, 512]
.tensor f sbuf fp32 [128, 512], partition=0
.tensor ps psum fp32 [128, 4, 512] bank=0
`;

describe('disassembler', () => {
  it('property: assemble -> disassemble -> assemble gives the same object, and the text is a fixpoint', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.oneof(...OPS), { minLength: 1, maxLength: 25 }), (explicit, ops) => {
        const { a, b, src } = roundTrip(`${explicit ? '.sync explicit' : ''}${DECLS}${ops.join('\n')}\n`);
        expectSameObject(a, b);
        expect(neuroncoreTarget.assembler!.disassemble!(b, 'q.pobj')).toBe(src);
      }),
      { numRuns: 60 },
    );
  });

  it('every sample round-trips', () => {
    for (const f of readdirSync(SAMPLES).filter((x) => x.endsWith('.ncasm') && x !== 'matmul_big.ncasm')) {
      const { a, b } = roundTrip(readFileSync(new URL(f, SAMPLES), 'utf8'), f);
      expectSameObject(a, b);
    }
  });

  it('numbers print back to the same doubles', () => {
    for (const v of [0, -0, 0.1, -1 / 3, 1e21, 5e-324, Number.MAX_VALUE, Infinity, -Infinity, NaN]) {
      const p = assembleNc([{ file: 'n.ncasm', text: `.tensor f sbuf fp32 [128, 8]\nvector.memset f, value=${numText(v)}` }]).program;
      expect(Object.is(p.insns[0]!.attrs['value'], v)).toBe(true);
    }
  });

  it('the listing names transposes, queues, positions and ISA-form access patterns', () => {
    const src = sourceNc(assembleNc([{ file: 'x.ncasm', text: '.tensor a sbuf bf16 [128, 64]\n.tensor ps psum fp32 [64, 128]\n.tensor H hbm bf16 [128, 64]\ndma.copy a, H, queue=5\ntensor.transpose ps, a' }]).program);
    expect(src.split('\n').filter((l) => !l.startsWith('#') && !l.startsWith('.tensor') && !l.startsWith('.loc "x.ncasm" 1') && !l.startsWith('.loc "x.ncasm" 2') && !l.startsWith('.loc "x.ncasm" 3'))).toEqual([
      '.sync auto',
      '.loc "x.ncasm" 4 1',
      'dma.copy a{0, 128, 0, 0, [64, 1]}, H{0, 128, 64, 0, [64, 1]}, queue=5',
      '.loc "x.ncasm" 5 1',
      'tensor.transpose ps{0, 64, 0, 0, [128, 1]}, a{0, 128, 0, 0, [64, 1]}',
      '',
    ]);
  });

  it('ISA-form access patterns outside their tensor are diagnostics with file:line:col', () => {
    const d = (line: string) => assembleNc([{ file: 'r.ncasm', text: `.tensor f sbuf fp32 [64, 8], partition=64\n.tensor H hbm fp32 [4, 8]\n${line}` }]).diagnostics.map((x) => {
      const sp = x.span as { line: number; column: number; length?: number };
      return [x.code, sp.line, sp.column, sp.length, x.message];
    });
    expect(d('vector.memset f{0, 64, 0, 0, [8, 1]}, value=0')).toEqual([['NC0033', 3, 15, 22, 'access pattern of `f` is outside the tensor: it spans partitions 0..63; the tensor occupies 64..127']]);
    expect(d('vector.memset f{64, 64, 0, 4, [8, 1]}, value=0')).toEqual([['NC0033', 3, 15, 23, 'access pattern of `f` is outside the tensor: it reaches bytes 4..35 of each partition; the tensor occupies 0..31']]);
    expect(d('dma.copy f{64, 4, 0, 0, [8, 1]}, H{0, 4, 9, 0, [8, 1]}')).toEqual([['NC0033', 3, 34, 21, 'access pattern of `H` is outside the tensor: it reaches bytes 0..139 of a 128-byte tensor']]);
    expect(d('vector.memset f{64, 64, 0, 0, [8, 1], value=0')[0]!.slice(0, 3)).toEqual(['NC0001', 3, 39]);
    expect(d('.loc "a.ncasm" 0 1')[0]!.slice(0, 3)).toEqual(['NC0001', 3, 16]);
  });
});
