/**
 * pyxis-gen transformer with a sequence that is not a multiple of 128 (seq 200 -> two token blocks, 56 pad tokens
 * after the real ones; d-model 128, one head, FFN 128, bit-exact). The pad tokens are zero inputs; the causal mask keeps
 * them out of every real token's attention, and what the norms and the MLP make of them is not compared. Expected
 * values: a float64 layer of the 200 real tokens written here from the model (`k.weights`), bounds of
 * docs/generators.md "Transformer layer" (RMS relative <= 0.08, max <= 0.5 RMS(ref)); the FLOPs of the real tokens only.
 */
import { describe, expect, it } from 'vitest';
import { transformer } from '../../src/gen/index.js';
import { erf, runKernel } from './gen.harness.js';

const S = 200;
const D = 128;
const F = 128;

function linear(x: ArrayLike<number>, w: ArrayLike<number>, k: number, n: number): Float64Array {
  const y = new Float64Array(S * n);
  for (let i = 0; i < S; i++) for (let q = 0; q < k; q++) { const a = x[i * k + q]!; for (let j = 0; j < n; j++) y[i * n + j]! += a * w[q * n + j]!; }
  return y;
}
function layerNorm(x: ArrayLike<number>, gamma: ArrayLike<number>, beta: ArrayLike<number>): Float64Array {
  const y = new Float64Array(S * D);
  for (let i = 0; i < S; i++) {
    let m = 0;
    for (let d = 0; d < D; d++) m += x[i * D + d]! / D;
    let v = 0;
    for (let d = 0; d < D; d++) v += (x[i * D + d]! - m) ** 2 / D;
    for (let d = 0; d < D; d++) y[i * D + d] = ((x[i * D + d]! - m) / Math.sqrt(v + 2 ** -14)) * gamma[d]! + beta[d]!;
  }
  return y;
}

describe('pyxis-gen transformer: seq 200, padded to two token blocks', () => {
  it('the 200 real tokens against float64; FLOPs of the real tokens only', () => {
    const k = transformer({ seq: S, dModel: D, heads: 1, ffn: F, clusters: [0, 1], uies: 2 });
    // x.npy holds [2, D, 128] with tokens 200..255 zero
    const xIn = k.inputs.find((f) => f.file === 'x.npy')!;
    expect(xIn.shape).toEqual([2, D, 128]);
    for (let d = 0; d < D; d++) for (let t = 72; t < 128; t++) expect(xIn.data[(D + d) * 128 + t]).toBe(0);
    // FLOPs: the four GEMMs over 200 columns; attention per query block b: (b + 1) key blocks of 2 x 128 x 128 x (128 + 128), for its real rows
    const gemmFlops = 2 * S * (3 * D * (D + 128) + D * D + F * (D + 128) + D * F);
    const attnFlops = 2 * 128 * 128 * 256 * (1 * 128 + 2 * 72) / 128;
    expect(k.meta.flops).toBe(gemmFlops + attnFlops);
    const r = runKernel(k);
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    const m = k.weights;
    const x = Float64Array.from(m.x);
    expect(x.length).toBe(S * D);
    const h = layerNorm(x, m.gamma1, m.beta1);
    const q = linear(h, m.wq, D, D);
    const kk = linear(h, m.wk, D, D);
    const v = linear(h, m.wv, D, D);
    const at = new Float64Array(S * D);
    for (let i = 0; i < S; i++) {
      const sc: number[] = [];
      for (let j = 0; j <= i; j++) { let d = 0; for (let c = 0; c < D; c++) d += q[i * D + c]! * kk[j * D + c]!; sc.push(d / Math.sqrt(D)); }
      const mx = Math.max(...sc);
      const z = sc.reduce((a, s) => a + Math.exp(s - mx), 0);
      sc.forEach((s, j) => { const p = Math.exp(s - mx) / z; for (let c = 0; c < D; c++) at[i * D + c]! += p * v[j * D + c]!; });
    }
    const y1 = linear(at, m.wo, D, D).map((t, i) => t + x[i]!);
    const g = linear(layerNorm(y1, m.gamma2, m.beta2), m.w1, D, F).map((t, i) => { const z = t + m.b1[i % F]!; return 0.5 * z * (1 + erf(z / Math.SQRT2)); });
    const ref = linear(g, m.w2, F, D).map((t, i) => t + y1[i]!);
    const o = r.tensor('out_hbm'); // [2, D, 128]
    let num = 0, den = 0, mx = 0;
    for (let i = 0; i < S; i++) for (let d = 0; d < D; d++) {
      const got = o[(Math.floor(i / 128) * D + d) * 128 + (i % 128)]!;
      const e = got - ref[i * D + d]!;
      num += e * e; den += ref[i * D + d]! ** 2; mx = Math.max(mx, Math.abs(e));
    }
    expect(Math.sqrt(num / den)).toBeLessThanOrEqual(0.08);
    expect(mx / Math.sqrt(den / (S * D))).toBeLessThanOrEqual(0.5);
    expect(num).toBeGreaterThan(0);
  }, 60_000);
});
