/**
 * pyxis-gen transformer: the decoder layer chained end to end in one image (packages/target-pyxis/src/gen/transformer.ts),
 * small configuration (seq 256 = two token blocks, d_model 256, 2 heads, FFN 512, 4 clusters x 2 UIEs), bit-exact.
 * Expected values come from a float64 layer written here from the model (x, the weights, the LayerNorm gamma / beta,
 * as a user's model would state them: `k.weights`) with scaled dot-product attention (1/sqrt(d_head)) and the
 * LayerNorm affine applied explicitly — never from the generator's folded operands (the generator folds gamma, beta
 * and 1/sqrt(d_head) into the QKV / FFN1 weights, docs/generators.md). Checked:
 *   - the layer output against float64 end to end (docs/generators.md "Transformer layer": RMS relative <= 0.08,
 *     max |out - ref| <= 0.5 RMS(ref); the error is that of the FP8 activations, 2^-4 relative per rounding);
 *   - every stage against its own input as the chip computed it (the chaining: layouts, Q/K/V split, head concat,
 *     residual adds), with the per-stage bounds of one FP8 (2^-4) or FP16 (2^-11) rounding.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { GenError, colNormParts, transformer } from '../../src/gen/index.js';
import { input, runKernel, type GenRun } from './gen.harness.js';
import { attention, decoderLayer, gelu, layerNorm, linear, rel, splitQkv, tokens as tokensOf, tokensFromTiles } from './transformer.ref.js';
import { transpose } from './float64.ref.js';

const S = 256;
const D = 256;
const H = 2;
const F = 512;
const NB = S / 128;

/** [NB, rows, 128] feature-major blocks -> [S, rows] token-major. */
const tokens = (t: ArrayLike<number>, rows: number) => tokensOf(t, S, rows);

describe('pyxis-gen transformer: a decoder layer chained in one image (small configuration, bit-exact)', () => {
  const k = transformer({ seq: S, dModel: D, heads: H, ffn: F, clusters: [0, 1, 2, 3], uies: 2 });
  let r: GenRun;
  beforeAll(() => {
    r = runKernel(k);
  }, 120_000);
  const x = tokens(input(k, 'x.npy'), D);
  // the model, "x W" convention (W [in, out]); the per-stage checks below take W^T
  const m = k.weights;
  const wqkvT = new Float64Array(3 * D * D);
  wqkvT.set(transpose(m.wq, D, D), 0);
  wqkvT.set(transpose(m.wk, D, D), D * D);
  wqkvT.set(transpose(m.wv, D, D), 2 * D * D);
  const w1T = transpose(m.w1, D, F);
  const b1 = m.b1;
  // wo and ffn2 have no LayerNorm before them: their A operands are the model's W^T as given
  const woT = input(k, 'wo_a.npy');
  const w2T = input(k, 'ffn2_a.npy');
  const scale = 1 / Math.sqrt(128); // scaled dot-product attention, d_head = 128

  it('one image: links without warnings, runs to completion, barriers between the stages', () => {
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    for (let s = 1; s <= 6; s++) expect(k.ld).toMatch(new RegExp(`trip join${s} \\{ after = \\[`));
    // the Q/K/V and head slices are H2A slices of the QKV output (no host copy): head 1's K^T of all the token blocks
    expect(k.ld).toMatch(/trip at_lk_h1 \{ src = qkv_hbm\[3, 0:2\]; dst = at_kt_h1;/);
    expect(k.inputs.map((f) => f.file).sort()).toEqual(['ffn1_a.npy', 'ffn2_a.npy', 'ones.npy', 'qkv_a.npy', 'wo_a.npy', 'x.npy']);
    // the two rows after h1's and h2's features (1 and 2^-6) carry the folded biases (hi + lo) through the grid
    const ones = input(k, 'ones.npy');
    expect(ones.reduce((a, v) => a + v, 0)).toBe(NB * (1 + 2 ** -6) * 128);
    for (let t = 0; t < 128; t++) expect([ones[(1 * (D + 128) + D) * 128 + t], ones[(1 * (D + 128) + D + 1) * 128 + t]]).toEqual([1, 2 ** -6]);
    // the folded A operands are LnsI4F3 with the Lin2Log bypassed (chip §6.2.1.5 Table 6-2)
    expect(k.ld).toMatch(/tensor qkv_a_hbm \{ format = LnsI4F3;/);
    expect(k.ld).toMatch(/tensor f1_a_hbm \{ format = LnsI4F3;/);
    expect(k.pasm).toMatch(/\.program qkv_wdp wdp \{[^}]*dsbl_mapping_corr=1/);
    for (const [f, n] of [['qkv_a.npy', 3 * D], ['ffn1_a.npy', F]] as const) {
      const a = input(k, f);
      expect(a.length).toBe(n * (D + 128));
      for (let j = 0; j < n; j++) for (let c = D + 2; c < D + 128; c++) expect(a[j * (D + 128) + c]).toBe(0);
    }
    // Q rows: gamma1[d] W_q[d, j] / sqrt(128) (float32 of an exact LnsI4F3 value); K rows: gamma1[d] W_k[d, j]
    const qa = input(k, 'qkv_a.npy');
    for (const [j, d] of [[0, 0], [5, 17], [D - 1, D - 1]]) {
      expect(qa[j * (D + 128) + d]! / ((m.gamma1[d]! * m.wq[d * D + j]!) / Math.sqrt(128))).toBeCloseTo(1, 6);
      expect(qa[(D + j) * (D + 128) + d]! / (m.gamma1[d]! * m.wk[d * D + j]!)).toBeCloseTo(1, 6);
    }
  });

  it('the folded biases: hi + lo = s_j (b_j + sum_d beta[d] W[d, j]) within the chip antilog of hi (<= 0.32%) and lo rounding', () => {
    // chip §4.7: an LNS product with log fraction F leaves the grid as 1 + F + delta(F), at most 0.32% off 2^F; lo is
    // rounded to 3 log fraction bits (<= 4.4%) of a rest that is itself <= 4.4% of the bias: bound 0.5% of |bias|
    const check = (file: string, W: ArrayLike<number>, n: number, beta: ArrayLike<number>, bias: ((j: number) => number) | undefined, sj: (j: number) => number) => {
      const a = input(k, file);
      const ones = input(k, 'ones.npy');
      let worst = 0;
      for (let j = 0; j < n; j++) {
        let b = bias ? bias(j) : 0;
        for (let d = 0; d < D; d++) b += beta[d]! * W[d * n + j]!;
        b *= sj(j);
        const got = a[j * (D + 128) + D]! * ones[D * 128]! + a[j * (D + 128) + D + 1]! * ones[(D + 1) * 128]!;
        worst = Math.max(worst, got === b ? 0 : Math.abs(got - b) / Math.abs(b)); // b = 0 exactly is possible (dyadic sums)
      }
      return worst;
    };
    const wqkv = Float64Array.from({ length: D * 3 * D }, (_, i) => {
      const d = Math.floor(i / (3 * D));
      const j = i % (3 * D);
      return j < D ? m.wq[d * D + j]! : j < 2 * D ? m.wk[d * D + j - D]! : m.wv[d * D + j - 2 * D]!;
    });
    const wq = check('qkv_a.npy', wqkv, 3 * D, m.beta1, undefined, (j) => (j < D ? scale : 1));
    const w1 = check('ffn1_a.npy', m.w1, F, m.beta2, (j) => b1[j]!, () => 1);
    expect(wq).toBeLessThanOrEqual(0.005);
    expect(w1).toBeLessThanOrEqual(0.005);
    expect(wq + w1).toBeGreaterThan(0);
  });

  it('the layer output against float64 end to end', () => {
    // wo_a.npy and ffn2_a.npy (woT, w2T) are exactly the model's W_o^T and W_2^T: the layer of the model itself
    expect(Array.from(woT)).toEqual(Array.from(transpose(m.wo, D, D)));
    expect(Array.from(w2T)).toEqual(Array.from(transpose(m.w2, F, D)));
    const out = decoderLayer(x, m, { seq: S, dModel: D, ffn: F, dk: 128, scale });
    const e = rel(tokens(r.tensor('out_hbm'), D), out);
    expect(e.rms).toBeLessThanOrEqual(0.08);
    expect(e.maxOverRms).toBeLessThanOrEqual(0.5);
    expect(e.rms).toBeGreaterThan(0);
  });

  it('every stage against its own input as the chip computed it (the chaining)', () => {
    const h1 = tokensOf(r.tensor('h1_hbm'), S, D + 128, D); // the first D of the D + 128 rows (the rest: the ones rows)
    const qkv = tokensFromTiles(r.tensor('qkv_hbm'), S, 3 * D);
    const at = tokens(r.tensor('attn_hbm'), D);
    const y1 = tokens(r.tensor('y1_hbm'), D);
    const h2 = tokensOf(r.tensor('h2_hbm'), S, D + 128, D);
    const g = tokens(r.tensor('g_hbm'), F);
    const out = tokens(r.tensor('out_hbm'), D);
    // the chip's LayerNorm writes (x - mean) rstd; gamma, beta and 1/sqrt(d_head) are in the next GEMM (the folding)
    const affine = (h: Float64Array, g: ArrayLike<number>, b: ArrayLike<number>) => h.map((v, i) => v * g[i % D]! + b[i % D]!);
    const qScaled = (y: Float64Array) => y.map((v, i) => (i % (3 * D) < D ? v * scale : v));
    // FP8 outputs: one rounding to 3 fraction bits (<= 2^-4 relative) on top of the FP16 work: RMS <= 0.04
    expect(rel(h1, layerNorm(x, S, D)).rms).toBeLessThanOrEqual(0.04);
    expect(rel(qkv, qScaled(linear(affine(h1, m.gamma1, m.beta1), wqkvT, S, D, 3 * D, 'WT'))).rms).toBeLessThanOrEqual(0.04);
    expect(rel(h2, layerNorm(y1, S, D)).rms).toBeLessThanOrEqual(0.04);
    expect(rel(g, linear(affine(h2, m.gamma2, m.beta2), w1T, S, D, F, 'WT').map((v, i) => gelu(v + b1[i % F]!))).rms).toBeLessThanOrEqual(0.04);
    // attention (Q already scaled by 1/sqrt(d_head)): the exp / 1/x LUTs and FP16 roundings of P (attention.test.ts
    // bound) plus the FP8 output rounding
    const { q, k: kk, v } = splitQkv(qkv, S, D);
    expect(rel(at, attention(q, kk, v, S, D, 128, 1)).rms).toBeLessThanOrEqual(0.07);
    // FP16 outputs with the residual added in memory: a few FP16 roundings
    expect(rel(y1, linear(at, woT, S, D, D, 'WT').map((v, i) => v + x[i]!)).rms).toBeLessThanOrEqual(4 * 2 ** -11 * 8);
    expect(rel(out, linear(g, w2T, S, F, D, 'WT').map((v, i) => v + y1[i]!)).rms).toBeLessThanOrEqual(4 * 2 ** -11 * 8);
  });

  it('LayerNorm parts: the largest divisor of D/32 whose parts fit the UIEs of a cluster, at most 16', () => {
    expect(colNormParts(1024, 1, 12)).toBe(8);
    expect(colNormParts(1024, 2, 12)).toBe(4);
    expect(colNormParts(384, 1, 12)).toBe(12);
    expect(colNormParts(256, 1, 2)).toBe(2);
    expect(colNormParts(4096, 1, 12)).toBe(8);
    expect(colNormParts(128, 4, 1)).toBe(1);
  });

  it('parameters the hardware cannot run are named with their limit', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(GenError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(err(() => transformer({ seq: 128, dModel: 1024, heads: 2, ffn: 128, clusters: [0], uies: 1 }))).toMatch(/GEN0060: heads: d-model \/ heads \(d_k\) must be at most 384 \(got 1024 \/ 2 = 512\)/);
    expect(err(() => transformer({ seq: 128, dModel: 128, heads: 32, ffn: 128, clusters: [0], uies: 1 }))).toMatch(/GEN0003: heads: d-model \/ heads \(d_k\) must be an integer multiple of 8 \(got 128 \/ 32 = 4\)/);
    expect(err(() => transformer({ seq: 128, dModel: 8192, heads: 64, ffn: 128, clusters: [0], uies: 1 }))).toMatch(/GEN0002: d-model: must be in 128\.\.4096/);
    expect(err(() => transformer({ seq: 0, dModel: 128, heads: 1, ffn: 128, clusters: [0], uies: 1 }))).toMatch(/GEN0002: seq: must be in 1\.\.4096/);
    expect(err(() => transformer({ seq: 896, dModel: 128, heads: 1, ffn: 128, clusters: [0], uies: 1 }))).toMatch(/GEN0011: seq: at most 768 tokens/);
    expect(err(() => transformer({ seq: 128, dModel: 4096, heads: 32, ffn: 32768, clusters: [0], uies: 12 }))).toMatch(/GEN0008: d-model, ffn, uies: .* bytes of AMEM/);
  });
});
