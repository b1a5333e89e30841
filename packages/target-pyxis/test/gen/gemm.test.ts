/**
 * pyxis-gen gemm (packages/target-pyxis/src/gen/gemm.ts): generated kernels assembled, linked without warnings and
 * simulated bit-exact; C against a float64 product of the same inputs computed here. Bounds (docs/generators.md
 * "Error bounds", the samples' bounds of docs/spec-notes.md): normwise max |c - ref| / sum|a b| <= 0.06 (FP8, the
 * horizontal operand in LnsI5F3), 0.01 (FP16, LnsI5F10); the FP16 output rounding adds <= 2^-11 relative.
 */
import { describe, expect, it } from 'vitest';
import { gemm, GenError, type GemmParams } from '../../src/gen/index.js';
import { errors, fromColumnBlocks, input, matmul64, runKernel } from './gen.harness.js';

const BOUND = { fp8: { max: 0.06, rms: 0.04 }, fp16: { max: 0.01, rms: 0.005 } };

function check(p: GemmParams) {
  const k = gemm(p);
  const r = runKernel(k);
  expect(r.report.stop).toBe('done');
  expect(r.warnings.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const a = input(k, `${k.name}_ref_a.npy`);
  const b = input(k, `${k.name}_ref_b.npy`);
  const { c, abs } = matmul64(a, b, p.m, p.k, p.n);
  const c64 = fromColumnBlocks(r.tensor('c_hbm'), p.m, p.n);
  return { k, r, c64, c, abs };
}

describe('pyxis-gen gemm: tiled over UIEs and clusters, operands streamed from HBM (double-buffered)', () => {
  it('FP8 row-shifted 256 x 256 x 256 on 2 UIEs: C within the FP8 bound; every tile computed; HBM traffic', () => {
    const { k, r, c64, c, abs } = check({ m: 256, k: 256, n: 256, uies: 2 });
    const e = errors(c64, c, abs);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(BOUND.fp8.max);
    expect(e.rms).toBeLessThanOrEqual(BOUND.fp8.rms);
    // each UIE ran 2 tiles of K = 256 Exec_Valid cycles (chip §6.1.3: one 8-wide dot product per LLC per cycle)
    for (const u of [0, 1]) {
      const cs = r.report.engines.find((x) => x.name === `c0.uie${u}`)?.uie?.['compute'] as { exec_valid: number; macs: number };
      expect(cs.exec_valid).toBe(2 * 256);
      expect(cs.macs).toBe(2 * 128 * 128 * 256);
    }
    expect(k.meta.flops).toBe(2 * 256 ** 3);
  });
});
