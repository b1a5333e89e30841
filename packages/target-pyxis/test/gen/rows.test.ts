/**
 * pyxis-gen rows (packages/target-pyxis/src/gen/rows.ts): softmax, RMSNorm and LayerNorm of 128-value rows streamed
 * from HBM over several UIEs and clusters, assembled, linked without warnings and simulated bit-exact; outputs
 * against float64 references written here. Bounds (docs/generators.md "Error bounds"; derived in
 * samples/pyxis/vpu_softmax.pasm, vpu_rmsnorm.pasm, vpu_layernorm.pasm and samples-vpu-norm.test.ts):
 *   softmax: |p - ref| <= ref (U d + (d/16)^2/8 e^(d/16) + 4U + S + 4.5U) + 2^-15 (the smallest RFP16 step at EB -15), d = max - x, S the row's weighted sum;
 *   RMSNorm / LayerNorm: |y - ref| <= 16 U max(1, |ref|) and the RMS relative error <= 1.5 U, U = 2^-11.
 */
import { describe, expect, it } from 'vitest';
import { GenError, rows, type RowOp } from '../../src/gen/index.js';
import { U, normRef, runKernel, softmaxWorst } from './gen.harness.js';

describe('pyxis-gen rows: VPU rows streamed from HBM over UIEs and clusters', () => {
  it('softmax, 256 rows on 2 clusters x 2 UIEs: within the sample-derived bound; rows sum to 1', () => {
    const r = runKernel(rows({ op: 'softmax', rows: 256, clusters: [0, 1], uies: 2 }));
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    const x = r.tensor('x_hbm');
    const p = r.tensor('y_hbm');
    expect(softmaxWorst(x, p)).toBeLessThanOrEqual(1);
    for (let i = 0; i < 256; i++) expect(Math.abs(p.subarray(i * 128, (i + 1) * 128).reduce((a, b) => a + b, 0) - 1)).toBeLessThan(0.01);
  });

  for (const op of ['rmsnorm', 'layernorm'] as const)
    it(`${op}, 192 rows on 3 UIEs: |y - ref| <= 16 U max(1, |ref|), RMS <= 1.5 U`, () => {
      const r = runKernel(rows({ op, rows: 192, uies: 3 }));
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      const x = r.tensor('x_hbm');
      const y = r.tensor('y_hbm');
      const ref = normRef(op, x, r.tensor('prm0'));
      let worst = 0;
      let se = 0;
      let sr = 0;
      for (let i = 0; i < ref.length; i++) {
        worst = Math.max(worst, Math.abs(y[i]! - ref[i]!) / (16 * U * Math.max(1, Math.abs(ref[i]!))));
        se += (y[i]! - ref[i]!) ** 2;
        sr += ref[i]! ** 2;
      }
      expect(worst).toBeLessThanOrEqual(1);
      expect(Math.sqrt(se / sr)).toBeLessThanOrEqual(1.5 * U);
      expect(Math.sqrt(se / sr)).toBeGreaterThan(U / 8); // FP16 rounding is there: the test computes something
    });

  it('bad parameters: rows not a multiple of 64 (GEN0003), unknown op (GEN0006, usage)', () => {
    expect(() => rows({ op: 'softmax', rows: 100 })).toThrow(/GEN0003: rows: must be a multiple of 64/);
    expect(() => rows({ op: 'gelu' as RowOp, rows: 64 })).toThrow(GenError);
  });
});
