/**
 * The float64 transformer-layer reference shared by test/gen/transformer*.test.ts: layouts (the generator's
 * feature-major token blocks and feature-block tiles -> token-major), linear, LayerNorm, causal attention, GELU, the
 * whole decoder layer of the model (`k.weights`, "x W" convention) and the relative error figures of
 * docs/generators.md "Transformer layer". An independent reference: nothing here comes from packages/<name>/src (the
 * only import is erf from float64.ref.ts, which imports nothing).
 */
import { erf } from './float64.ref.js';

/** [ceil(seq/128), rows, 128] feature-major token blocks -> [seq, cols] token-major (the first `cols` feature rows). */
export function tokens(t: ArrayLike<number>, seq: number, rows: number, cols = rows): Float64Array {
  const g = new Float64Array(seq * cols);
  for (let i = 0; i < seq; i++) for (let d = 0; d < cols; d++) g[i * cols + d] = t[(Math.floor(i / 128) * rows + d) * 128 + (i % 128)]!;
  return g;
}

/** [rows/128, ceil(seq/128), 128, 128] feature-block-major tiles -> [seq, rows] token-major. */
export function tokensFromTiles(t: ArrayLike<number>, seq: number, rows: number): Float64Array {
  const nb = Math.ceil(seq / 128);
  const g = new Float64Array(seq * rows);
  for (let i = 0; i < seq; i++)
    for (let f = 0; f < rows; f++) g[i * rows + f] = t[((Math.floor(f / 128) * nb + Math.floor(i / 128)) * 128 + (f % 128)) * 128 + (i % 128)]!;
  return g;
}

/**
 * y [m, n] = x [m, k] W, summed over k in order: `w` is W [k, n] row-major ('W', the model's "x W" convention) or the
 * stored W^T [n, k] ('WT', the generator's A operand layout).
 */
export function linear(x: ArrayLike<number>, w: ArrayLike<number>, m: number, k: number, n: number, layout: 'W' | 'WT'): Float64Array {
  const sq = layout === 'W' ? n : 1; // stride of W's k index in `w`
  const sj = layout === 'W' ? 1 : k; // stride of W's n index
  const y = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let q = 0; q < k; q++) s += x[i * k + q]! * w[j * sj + q * sq]!;
      y[i * n + j] = s;
    }
  return y;
}

/** LayerNorm of each of `rows` rows of `cols` values, eps 2^-14; without gamma / beta the bare (x - mean) rstd. */
export function layerNorm(x: ArrayLike<number>, rows: number, cols: number, gamma?: ArrayLike<number>, beta?: ArrayLike<number>): Float64Array {
  const y = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    let m = 0;
    for (let d = 0; d < cols; d++) m += x[i * cols + d]! / cols;
    let v = 0;
    for (let d = 0; d < cols; d++) v += (x[i * cols + d]! - m) ** 2 / cols;
    for (let d = 0; d < cols; d++) y[i * cols + d] = ((x[i * cols + d]! - m) / Math.sqrt(v + 2 ** -14)) * (gamma ? gamma[d]! : 1) + (beta ? beta[d]! : 0);
  }
  return y;
}

/** columns of a token-major [seq, 3 dModel] QKV -> q, k, v [seq, dModel]. */
export function splitQkv(qkv: ArrayLike<number>, seq: number, dModel: number): { q: Float64Array; k: Float64Array; v: Float64Array } {
  const part = (p: number) => Float64Array.from({ length: seq * dModel }, (_, i) => qkv[Math.floor(i / dModel) * 3 * dModel + p * dModel + (i % dModel)]!);
  return { q: part(0), k: part(1), v: part(2) };
}

/** causal attention, dModel / dk heads of dk features; q, k, v and the output [seq, dModel] token-major; scores x scale. */
export function attention(q: ArrayLike<number>, k: ArrayLike<number>, v: ArrayLike<number>, seq: number, dModel: number, dk: number, scale: number): Float64Array {
  const D = dModel;
  const o = new Float64Array(seq * D);
  for (let h = 0; h < D / dk; h++)
    for (let i = 0; i < seq; i++) {
      const sc: number[] = [];
      for (let j = 0; j <= i; j++) {
        let d = 0;
        for (let c = 0; c < dk; c++) d += q[i * D + h * dk + c]! * k[j * D + h * dk + c]!;
        sc.push(d * scale);
      }
      const mx = Math.max(...sc);
      const z = sc.reduce((a, s) => a + Math.exp(s - mx), 0);
      sc.forEach((s, j) => {
        const p = Math.exp(s - mx) / z;
        for (let c = 0; c < dk; c++) o[i * D + h * dk + c]! += p * v[j * D + h * dk + c]!;
      });
    }
  return o;
}

/** the exact GELU, 0.5 x (1 + erf(x / sqrt 2)). */
export const gelu = (x: number): number => 0.5 * x * (1 + erf(x / Math.SQRT2));

/** A decoder layer's model as the generator states it (`k.weights`): W [in, out] row-major ("x W"). */
export interface LayerModel {
  wq: ArrayLike<number>;
  wk: ArrayLike<number>;
  wv: ArrayLike<number>;
  wo: ArrayLike<number>;
  w1: ArrayLike<number>;
  w2: ArrayLike<number>;
  b1: ArrayLike<number>;
  gamma1: ArrayLike<number>;
  beta1: ArrayLike<number>;
  gamma2: ArrayLike<number>;
  beta2: ArrayLike<number>;
}

/**
 * The pre-LayerNorm decoder layer in float64, x [seq, dModel] token-major -> [seq, dModel]:
 * y1 = x + attn(LN1(x)) W_o; out = y1 + GELU(LN2(y1) W_1 + b_1) W_2, attention scores x `scale` (the generator folds
 * 1/sqrt(d_k) rounded to LnsI4F3; the tests state which).
 */
export function decoderLayer(x: ArrayLike<number>, m: LayerModel, o: { seq: number; dModel: number; ffn: number; dk: number; scale: number }): Float64Array {
  const { seq: S, dModel: D, ffn: F } = o;
  const h = layerNorm(x, S, D, m.gamma1, m.beta1);
  const at = attention(linear(h, m.wq, S, D, D, 'W'), linear(h, m.wk, S, D, D, 'W'), linear(h, m.wv, S, D, D, 'W'), S, D, o.dk, o.scale);
  const y1 = linear(at, m.wo, S, D, D, 'W').map((t, i) => t + x[i]!);
  const g = linear(layerNorm(y1, S, D, m.gamma2, m.beta2), m.w1, S, D, F, 'W').map((t, i) => gelu(t + m.b1[i % F]!));
  return linear(g, m.w2, S, F, D, 'W').map((t, i) => t + y1[i]!);
}

/** RMS relative error sqrt(sum (got - ref)^2 / sum ref^2) and max |got - ref| / RMS(ref). */
export function rel(got: ArrayLike<number>, ref: ArrayLike<number>): { rms: number; maxOverRms: number } {
  let num = 0;
  let den = 0;
  let mx = 0;
  for (let i = 0; i < ref.length; i++) {
    num += (got[i]! - ref[i]!) ** 2;
    den += ref[i]! ** 2;
    mx = Math.max(mx, Math.abs(got[i]! - ref[i]!));
  }
  return { rms: Math.sqrt(num / den), maxOverRms: mx / Math.sqrt(den / ref.length) };
}
