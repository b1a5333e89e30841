/** Bad input never crashes the assembler: random token soup and mutated samples give diagnostics, not exceptions. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { assembleNc, neuroncoreTarget } from '../src/index.js';

const TOKENS = ['.tensor', '.const', '.sync', '.semaphore', 'loop', 'i', '{', '}', 'x', 'sbuf', 'psum', 'hbm', 'bf16', 'fp32', '[', ']', ':', ',', '=', '0', '128', '-1', '1e9', '0.5', '/', '*', 'tensor.matmul', 'vector.tensor_copy', 'dma.copy', 'scalar.activation', 'func', 'exp', 'accumulate', 'gpsimd.iota', 'pattern', 'inf', '\n', '#c', '.loc', '"a.ncasm"', '"\\q"', '"', 'nan', '1.', '.5', 'x{0, 128, 0, 0, [64, 1]}', 'x{', 'p{0, 1, 0, 0}', '-0'];
// Every mnemonic of the instruction set, and the semaphore forms on every engine (and a few that do not exist).
const ISA = JSON.parse(readFileSync(fileURLToPath(new URL('../../../grammars/neuroncore/instructions.json', import.meta.url)), 'utf8')) as { instructions: Record<string, unknown> };
TOKENS.push(...Object.keys(ISA.instructions), 'vector.sem_signal', 'dma.sem_wait', 'sem.signal', 'sem.wait', 'foo.sem_wait', 'queue', 's', '.semaphore s', 'value');
const SAMPLE = readFileSync(fileURLToPath(new URL('../../../samples/neuroncore/attention.ncasm', import.meta.url)), 'utf8');

describe('assembler robustness', () => {
  it('property: token soup gives diagnostics, never an exception', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }), (toks) => {
        const text = '.tensor x sbuf fp32 [128, 64]\n.tensor p psum fp32 [128, 64]\n' + toks.join(' ');
        const r = assembleNc([{ file: 'f.ncasm', text }]);
        for (const d of r.diagnostics) expect(d.code).toMatch(/^NC\d{4}$/);
      }),
      { numRuns: 300 },
    );
  });

  it('property: a disassembly with a deleted or duplicated character never throws', () => {
    const src = neuroncoreTarget.assembler!.disassemble!(assembleNc([{ file: 'a.ncasm', text: SAMPLE }]).object, 'a.pobj');
    fc.assert(
      fc.property(fc.nat(src.length - 1), fc.boolean(), (i, dup) => {
        const text = dup ? src.slice(0, i) + src[i] + src.slice(i) : src.slice(0, i) + src.slice(i + 1);
        for (const d of assembleNc([{ file: 'f.ncasm', text }]).diagnostics) expect(d.code).toMatch(/^NC\d{4}$/);
      }),
      { numRuns: 300 },
    );
  });

  it('property: a sample with a deleted or duplicated character never throws', () => {
    fc.assert(
      fc.property(fc.nat(SAMPLE.length - 1), fc.boolean(), (i, dup) => {
        const text = dup ? SAMPLE.slice(0, i) + SAMPLE[i] + SAMPLE.slice(i) : SAMPLE.slice(0, i) + SAMPLE.slice(i + 1);
        assembleNc([{ file: 'f.ncasm', text }]);
      }),
      { numRuns: 300 },
    );
  });
});
