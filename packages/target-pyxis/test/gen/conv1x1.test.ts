/**
 * pyxis-gen conv1x1 (packages/target-pyxis/src/gen/conv1x1.ts): 1x1 convolutions with the linker's uncompressed
 * (linear8) and compressed (cin_per_cout, block size 8) databases, images streamed from HBM over UIEs, assembled,
 * linked without warnings and simulated bit-exact. Reference: float64 W x X (+ R) written here; for the compressed
 * database W is decompressed from the placed bytes by the independent chip §14.1 decoder of the samples' harness.
 * Bound: the FP8 bound of the conv1x1 samples (normwise <= 0.06, RMS <= 0.04). Cycles: Cin Exec_Valid per trip.
 * linear16 (LnsI5F10 weights ±2^(e + f/1024), chip §15.3): the weights reach the grid exactly, the activations as
 * LnsI5F10 (2^-11 octave), Cin/4 MNS 5.1.13 roundings and the RFP16 output: normwise <= 0.01, RMS <= 0.005 (the FP16
 * bound of docs/spec-notes.md "samples: error figures and bounds"); rounding the weights to LnsI4F3 (3 fraction bits)
 * would exceed it. Cycles: 8 Exec_Valid per 4 input channels (2 Cin per trip, the 16-bit half rate).
 * Stride 2: output pixel (q, c) = input pixel (2q, 2c), RFP8 at EB -8: the bound plus one RFP8 rounding of the output
 * (2^-4 |y| <= 2^-4 sum |w x|), as conv3x3 --stride 2: normwise <= 0.125 (linear8) / 0.0725 (linear16), RMS <= 0.05.
 * Three images on one UIE reuse a double buffer (the load of image 2 after every trip of image 0, LD0813).
 */
import { describe, expect, it } from 'vitest';
import { conv1x1, type Conv1x1Params } from '../../src/gen/index.js';
import { decompressCinPerCout8 } from '../samples-compute.harness.js';
import { computeTotal, errors, input, runKernel } from './gen.harness.js';

describe('pyxis-gen conv1x1: 1x1 weight databases, images streamed from HBM', () => {
  const cases: Array<[string, Conv1x1Params]> = [
    ['linear8, 3 images of 2 pixel rows, Cin 64, 2 UIEs, residual', { images: 3, cin: 64, rows: 2, uies: 2, residual: true }],
    ['compressed (cin_per_cout, block 8), 2 images, Cin 32, 2 clusters', { images: 2, cin: 32, rows: 1, weights: 'compressed', clusters: [0, 1] }],
    ['linear16 (LnsI5F10), 2 images of 2 pixel rows, Cin 36, 2 UIEs, residual', { images: 2, cin: 36, rows: 2, weights: 'linear16', uies: 2, residual: true }],
    ['linear8 stride 2, 3 images of 4 rows on 1 UIE (a buffer reused), Cin 32 -> [128, 2, 64] RFP8', { images: 3, cin: 32, rows: 4, stride: 2 }],
    ['linear16 stride 2, 2 images of 2 rows, Cin 16, 2 clusters', { images: 2, cin: 16, rows: 2, stride: 2, weights: 'linear16', clusters: [0, 1] }],
  ];
  for (const [title, p] of cases)
    it(title, () => {
      const k = conv1x1(p);
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      const x = input(k, `${k.name}_x.npy`);
      const w = p.weights === 'compressed' ? decompressCinPerCout8(r.raw('w0'), 128, p.cin, -12) : input(k, `${k.name}_w.npy`);
      const S = p.stride ?? 1;
      const PO = p.rows / S;
      const WO = 128 / S;
      const ref = new Float64Array(p.images * 128 * PO * WO);
      const abs = new Float64Array(ref.length);
      for (let n = 0; n < p.images; n++)
        for (let o = 0; o < 128; o++)
          for (let i = 0; i < p.cin; i++)
            for (let q = 0; q < PO; q++)
              for (let c = 0; c < WO; c++) {
                const v = w[o * p.cin + i]! * x[((n * p.cin + i) * p.rows + S * q) * 128 + S * c]!;
                ref[((n * 128 + o) * PO + q) * WO + c]! += v;
                abs[((n * 128 + o) * PO + q) * WO + c]! += Math.abs(v);
              }
      if (p.residual) {
        const rr = input(k, `${k.name}_r.npy`);
        for (let i = 0; i < ref.length; i++) ref[i]! += rr[i]!;
      }
      const e = errors(r.tensor('y_hbm'), ref, abs);
      expect(e.bad).toBe(0);
      const w16 = p.weights === 'linear16';
      expect(e.max).toBeLessThanOrEqual((w16 ? 0.01 : 0.06) + (S === 2 ? 2 ** -4 : 0));
      expect(e.rms).toBeLessThanOrEqual(S === 2 ? 0.05 : w16 ? 0.005 : 0.04);
      expect(computeTotal(r.report, 'exec_valid')).toBe(p.images * PO * p.cin * (w16 ? 2 : 1));
    });

  it('bad parameters: Cin not a multiple of 8 (seq §1.2 rule 2 / §1.4 rule 1), too many rows', () => {
    expect(() => conv1x1({ images: 1, cin: 20, rows: 1 })).toThrow(/GEN0003: cin: must be a multiple of 8 .*seq §1.2 rule 2/);
    expect(() => conv1x1({ images: 1, cin: 20, rows: 1, weights: 'compressed' })).toThrow(/seq §1.4 rule 1/);
    expect(() => conv1x1({ images: 1, cin: 16, rows: 32 })).toThrow(/GEN0002: rows: must be in 1..31/);
    expect(() => conv1x1({ images: 1, cin: 16, rows: 3, stride: 2 })).toThrow(/GEN0003: rows: must be a multiple of 2/);
    expect(() => conv1x1({ images: 1, cin: 16, rows: 2, stride: 3 })).toThrow(/GEN0002: stride: must be 1 or 2/);
    expect(() => conv1x1({ images: 1, cin: 16, rows: 2, stride: 2, residual: true })).toThrow(/GEN0007: residual: the stride-2 flow/);
    expect(() => conv1x1({ images: 1, cin: 18, rows: 1, weights: 'linear16' })).toThrow(/GEN0003: cin: must be a multiple of 4 .*16-bit weights/);
    expect(() => conv1x1({ images: 1, cin: 4, rows: 1, weights: 'linear16' })).toThrow(/GEN0003: rows: must be even .*1 KiB units/);
    // the double-buffered images of 12 UIEs do not fit a cluster's AMEM
    expect(() => conv1x1({ images: 12, cin: 4096, rows: 31, uies: 12 })).toThrow(/GEN0008: cin: 12 UIE\(s\) .* bytes of AMEM in cluster 0/);
  });
});
