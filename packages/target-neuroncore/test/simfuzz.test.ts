/** Programs the assembler accepts never crash the machine: random instruction mixes run (numbers and timing-only) to completion or to a reported deadlock. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assemble, run } from './harness.js';

const num = fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: -9, max: 9 }), fc.constantFrom(-0, Infinity, -Infinity, NaN));
const ALU = ['add', 'subtract', 'mult', 'divide', 'max', 'min', 'pow', 'is_ge', 'abs_max', 'bypass'];
const FUNCS = ['identity', 'copy', 'relu', 'gelu', 'gelu_apprx_tanh', 'sigmoid', 'tanh', 'exp', 'log', 'sqrt', 'rsqrt', 'reciprocal', 'square', 'silu'];
const n = fc.integer({ min: 1, max: 96 });
const OPS: Array<fc.Arbitrary<string>> = [
  fc.tuple(fc.constantFrom(32, 64, 128), fc.constantFrom(32, 64, 128), n, fc.nat(1)).map(([k, m, w, acc]) => `tensor.matmul ps[0:${m}, 0:${w}], a[0:${k}, 0:${m}], b[0:${k}, 0:${w}], accumulate=${acc}`),
  fc.tuple(fc.constantFrom(32, 64, 128), fc.constantFrom(32, 64, 128)).map(([k, m]) => `tensor.transpose ps[0:${m}, 0:${k}], a[0:${k}, 0:${m}]`),
  fc.tuple(n, fc.constantFrom(...ALU), num, fc.constantFrom('vector', 'gpsimd')).map(([w, op, v, e]) => `${e}.tensor_scalar f[:, 0:${w}], f[:, 0:${w}], op0=${op}, operand0=${String(v).replace('Infinity', 'inf').replace('NaN', 'nan')}`),
  fc.tuple(n, fc.constantFrom(...ALU)).map(([w, op]) => `vector.tensor_tensor f[:, 0:${w}], f[:, 0:${w}], ps[:, 0:${w}], op=${op}`),
  fc.tuple(n, fc.constantFrom(...FUNCS)).map(([w, fn]) => `scalar.activation f[:, 0:${w}], ps[:, 0:${w}], func=${fn}, scale=f[:, 100], bias=f[:, 101]`),
  fc.tuple(n, fc.constantFrom('add', 'max', 'min', 'mult')).map(([w, op]) => `vector.tensor_reduce f[:, 110:111], f[:, 0:${w}], op=${op}`),
  fc.integer({ min: 1, max: 64 }).map((w) => `vector.bn_stats f[:, 120:126], f[:, 0:${w}]\nvector.bn_aggr f[:, 126:128], f[:, 120:126]`),
  fc.constant('vector.transpose f[:, 0:32], f[:, 32:64]'),
  fc.constant(`vector.shuffle f[0:32, 0:8], f[0:32, 8:16], mask=[${Array.from({ length: 32 }, (_, i) => (i * 7) % 32).join(', ')}]`),
  fc.tuple(n, fc.integer({ min: -3, max: 3 })).map(([w, cm]) => `gpsimd.affine_select f[:, 0:${w}], f[:, 0:${w}], channel_multiplier=${cm}, pattern=[-1, ${w}], cmp=is_ge, value=-inf`),
  fc.tuple(n, fc.integer({ min: -5, max: 5 })).map(([w, b]) => `gpsimd.iota i[:, 0:${w}], base=${b}, channel_multiplier=3, pattern=[2, ${w}]\nvector.tensor_copy f[:, 0:${w}], i[:, 0:${w}]`),
  fc.tuple(n, fc.nat(3)).map(([w, r]) => `dma.copy a[:, 0:${w}], H[${r * 8}:${r * 8 + 128}, 0:${w}]`),
  fc.tuple(n).map(([w]) => `vector.tensor_copy g[:, 0:${w}], f[:, 0:${w}]\ndma.copy O[:, 0:${w}], g[:, 0:${w}]`),
  fc.constantFrom('vector.memset f, value=1.5', 'gpsimd.memset b, value=-2', 'vector.memset ps, value=0'),
];
const DECLS = '.tensor H hbm bf16 [160, 128]\n.tensor O hbm bf16 [128, 128]\n.tensor a sbuf bf16 [128, 128]\n.tensor b sbuf bf16 [128, 128]\n.tensor f sbuf fp32 [128, 128]\n.tensor g sbuf bf16 [128, 128]\n.tensor i sbuf int32 [128, 128]\n.tensor ps psum fp32 [128, 512]\n';

describe('machine robustness', () => {
  it('property: accepted programs run to completion, with numbers and timing-only, without exceptions', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(...OPS), { minLength: 1, maxLength: 12 }), fc.boolean(), (ops, timingOnly) => {
        const src = DECLS + ops.join('\n');
        expect(assemble(src).diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([]);
        const r = run(src, {}, { timingOnly, warnUninit: true });
        expect(r.run.report.stop).toBe('done');
      }),
      { numRuns: 25 },
    );
  });
});
