/**
 * pyxis-gen transformer at d-model 384 (one token block, FFN 128, bit-exact): the two causes of the layer's error at
 * sizes other than the defaults (docs/generators.md "Transformer layer", "Error bound"):
 *   - the accumulators' range: the grid sums at EB_MNS = EB_A + EB_B + 16 and MNS flushes a sum below 2^EB_MNS to zero
 *     (chip §4.6). The Q rows of the QKV weights carry 1/sqrt(d_k) (2^-4.25 at d_k 384), so at a fixed A EB of -12
 *     (EB_MNS -8) their per-cycle sums flushed and q came out ~10% off (RMS) while k and v were at FP8's 3.8%; the
 *     generator now stores every A operand at the lowest EB that holds its largest value (the linker's rule for
 *     weight databases) and the GWB's EB adjustment brings C back to FP16 EB -15. Checked here: the EB of each A
 *     tensor against max |A| (recomputed here from the input files), eb_adj = EB_MNS + 15, and the Q rows alone
 *     against float64 of the chip's own h1 (a whole-qkv figure hides them: q is ~10x smaller than k and v);
 *   - the weights' gain fan_in E[w^2]: it sets the spread of the scores, and the softmax amplifies the FP8 rounding of
 *     q and k by it. Rounding 2/sqrt(fan_in) to a power of two gave d-model 384 1.5x the default's gain (scores RMS 3.1
 *     instead of 2.0) and the layer failed its max bound (0.51-0.54); the generated weights now have the same gain
 *     1.75 at every fan-in. Checked here: the gain of every weight matrix.
 * Bounds (docs/generators.md "Transformer layer", "Error bound"): RMS relative <= 0.08, max |out - ref| <=
 * 0.5 sqrt(max(1, d_k / 128)) RMS(ref) to 2 decimals rounded down (0.86 at d_k 384).
 * Expected values come from a float64 layer written here from the model (`k.weights`: x, W, gamma, beta, b_1), with
 * scaled dot-product attention 1/sqrt(d_k) rounded to the LnsI4F3 grid as the generator folds it (2^(-34/8) for 384,
 * 2^-3.5 for 128) and the LayerNorm affine applied explicitly.
 */
import { describe, expect, it } from 'vitest';
import { transformer } from '../../src/gen/index.js';
import { erf, input, runKernel } from './gen.harness.js';

const S = 128;
const D = 384;
const F = 128;

/** [1, rows, 128] -> [S, cols] token-major (the first `cols` rows). */
const tokens = (t: ArrayLike<number>, rows: number, cols = rows) => Float64Array.from({ length: S * cols }, (_, i) => t[(i % cols) * 128 + Math.floor(i / cols)]!);
/** [rows/128, 1, 128, 128] feature-block tiles -> [S, rows] token-major. */
const fromTiles = (t: ArrayLike<number>, rows: number) => Float64Array.from({ length: S * rows }, (_, i) => t[(i % rows) * 128 + Math.floor(i / rows)]!);
/** y [S, n] = x [S, k] W [k, n] ("x W" convention, W row-major). */
function linear(x: ArrayLike<number>, w: ArrayLike<number>, k: number, n: number): Float64Array {
  const y = new Float64Array(S * n);
  for (let i = 0; i < S; i++) for (let q = 0; q < k; q++) { const a = x[i * k + q]!; for (let j = 0; j < n; j++) y[i * n + j]! += a * w[q * n + j]!; }
  return y;
}
function layerNorm(x: ArrayLike<number>, gamma?: ArrayLike<number>, beta?: ArrayLike<number>): Float64Array {
  const y = new Float64Array(S * D);
  for (let i = 0; i < S; i++) {
    let m = 0;
    for (let d = 0; d < D; d++) m += x[i * D + d]! / D;
    let v = 0;
    for (let d = 0; d < D; d++) v += (x[i * D + d]! - m) ** 2 / D;
    for (let d = 0; d < D; d++) y[i * D + d] = ((x[i * D + d]! - m) / Math.sqrt(v + 2 ** -14)) * (gamma ? gamma[d]! : 1) + (beta ? beta[d]! : 0);
  }
  return y;
}
/** causal attention, H heads of dk features; q, k, v [S, D] token-major */
function attention(q: ArrayLike<number>, k: ArrayLike<number>, v: ArrayLike<number>, dk: number, scale: number): Float64Array {
  const o = new Float64Array(S * D);
  for (let h = 0; h < D / dk; h++)
    for (let i = 0; i < S; i++) {
      const sc: number[] = [];
      for (let j = 0; j <= i; j++) { let d = 0; for (let c = 0; c < dk; c++) d += q[i * D + h * dk + c]! * k[j * D + h * dk + c]!; sc.push(d * scale); }
      const mx = Math.max(...sc);
      const z = sc.reduce((a, x) => a + Math.exp(x - mx), 0);
      sc.forEach((x, j) => { const p = Math.exp(x - mx) / z; for (let c = 0; c < dk; c++) o[i * D + h * dk + c]! += p * v[j * D + h * dk + c]!; });
    }
  return o;
}
function rel(got: ArrayLike<number>, ref: ArrayLike<number>) {
  let num = 0, den = 0, mx = 0;
  for (let i = 0; i < ref.length; i++) { num += (got[i]! - ref[i]!) ** 2; den += ref[i]! ** 2; mx = Math.max(mx, Math.abs(got[i]! - ref[i]!)); }
  return { rms: Math.sqrt(num / den), maxOverRms: mx / Math.sqrt(den / ref.length) };
}
/** the smallest integer EB at which the largest magnitude of an 8-bit format (top x 2^EB) holds max |a|. */
function fittedEb(a: ArrayLike<number>, top: number): number {
  let mx = 0;
  for (let i = 0; i < a.length; i++) mx = Math.max(mx, Math.abs(a[i]!));
  let eb = -40;
  while (top * 2 ** eb < mx) eb++;
  return eb;
}
const LNS_TOP = 2 ** (15 + 7 / 8); // LnsI4F3 I = 15, F = 7 (chip §4.3)
const RFP8_TOP = 1.875 * 2 ** 15; // RFP8 E = 15, F = 7 (chip §4.1)
/** columns of [S, 3D] -> part p (0 q, 1 k, 2 v) [S, D] */
const part = (t: Float64Array, p: number) => Float64Array.from({ length: S * D }, (_, i) => t[Math.floor(i / D) * 3 * D + p * D + (i % D)]!);

describe('pyxis-gen transformer at d-model 384: accumulator EB and weight gain (bit-exact, one token block)', () => {
  // max bound 0.5 sqrt(max(1, d_k / 128)) (docs/generators.md "Error bound": an ill-conditioned softmax row puts its
  // error on all d_k features of its head); measured 0.28-0.31 (3 heads of 128, seeds 1-3), 0.32-0.57 (1 head of 384, seeds 1-5)
  for (const [H, maxBound] of [[3, 0.5], [1, 0.86]] as const) {
    const dk = D / H;
    it(`${H} head(s) of d_k ${dk}: A operand EBs, the Q rows, the layer against float64`, () => {
      const k = transformer({ seq: S, dModel: D, heads: H, ffn: F, clusters: [0, 1], uies: 2 });
      const m = k.weights;
      // the gain fan_in E[w^2] of every weight matrix: 1.75 (the default size's), within the sampling spread
      for (const [w, fanIn] of [[m.wq, D], [m.wk, D], [m.wv, D], [m.wo, D], [m.w1, D], [m.w2, F]] as const) {
        const g = (fanIn * w.reduce((a, x) => a + x * x, 0)) / w.length;
        expect(g).toBeGreaterThan(1.75 * 0.95);
        expect(g).toBeLessThan(1.75 * 1.05);
        expect(w.every((x) => Number.isInteger(Math.log2(Math.abs(x))))).toBe(true); // powers of two: exact in RFP8 and LnsI5F3
      }
      // every A tensor at the smallest EB that holds its largest value; the GWB moves EB_MNS = EB_A - 12 + 16 to FP16 EB -15
      for (const [t, f, top, prog] of [['qkv_a_hbm', 'qkv_a.npy', LNS_TOP, 'qkv'], ['wo_a_hbm', 'wo_a.npy', RFP8_TOP, 'wo'], ['f1_a_hbm', 'ffn1_a.npy', LNS_TOP, 'ffn1'], ['f2_a_hbm', 'ffn2_a.npy', RFP8_TOP, 'ffn2']] as const) {
        const eb = fittedEb(input(k, f), top);
        expect(eb).toBeLessThan(-12);
        expect(k.ld).toMatch(new RegExp(`tensor ${t} \\{ format = \\w+; shape = \\[[^\\]]*\\]; eb = ${eb};`));
        expect(k.pasm).toMatch(new RegExp(`\\.program ${prog}_gwb gwb \\{\\n  loop i0 16 \\{\\n    Read_WBA [^\\n]*eb_adj=${eb - 12 + 16 + 15} `));
      }
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      const x = tokens(input(k, 'x.npy'), D);
      const scale = 2 ** (-Math.round(4 * Math.log2(dk)) / 8);
      // the Q rows alone against float64 of the chip's h1 (gamma1, beta1 and the scale applied here): one FP8 rounding
      const h1 = tokens(r.tensor('h1_hbm'), D + 128, D);
      const qChip = part(fromTiles(r.tensor('qkv_hbm'), 3 * D), 0);
      const h1a = h1.map((v, i) => v * m.gamma1[i % D]! + m.beta1[i % D]!);
      const qLocal = linear(h1a, m.wq, D, D).map((v) => v * scale);
      const eq = rel(qChip, qLocal);
      expect(eq.rms).toBeLessThanOrEqual(0.04);
      // the layer against float64
      const hh = layerNorm(x, m.gamma1, m.beta1);
      const q = linear(hh, m.wq, D, D);
      const kk = linear(hh, m.wk, D, D);
      const v = linear(hh, m.wv, D, D);
      const y1 = linear(attention(q, kk, v, dk, scale), m.wo, D, D).map((t, i) => t + x[i]!);
      const g = linear(layerNorm(y1, m.gamma2, m.beta2), m.w1, D, F).map((t, i) => { const z = t + m.b1[i % F]!; return 0.5 * z * (1 + erf(z / Math.SQRT2)); });
      const out = linear(g, m.w2, F, D).map((t, i) => t + y1[i]!);
      const e = rel(tokens(r.tensor('out_hbm'), D), out);
      expect(e.rms).toBeLessThanOrEqual(0.08);
      expect(e.maxOverRms).toBeLessThanOrEqual(maxBound);
      expect(e.rms).toBeGreaterThan(0);
    }, 60_000);
  }
});
