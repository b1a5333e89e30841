/**
 * pyxis-gen attention (packages/target-pyxis/src/gen/attention.ts): causal attention tiles (the attn_causal flow) with
 * d_k and the valid-token count as parameters, Q^T / K^T / V streamed from HBM over UIEs and clusters, assembled,
 * linked without warnings and simulated bit-exact; O^T against a float64 causal attention written here.
 * Bound (docs/generators.md "Attention"): per valid query i and feature c, |O - ref| <= 0.04 sum_j p_j |v_j|: each
 * p_j carries the FP16 rounding of its score at EB -15 (U |s_j - m| with |s_j - m| <= ~12 for these inputs), the exp
 * LUT's relative error (<= 0.4 %) and the FP16 roundings of e, 1/sum and P (3U); the normalisation doubles it:
 * 2 (12 U + 0.004 + 3 U) = 0.023, with margin for the MNS accumulation of P V.
 * `attention --seq S --heads H` (attnSeq.ts over the chained layer's key-block flow): the same per-block bound 0.04,
 * plus the RFP8 rounding of O (2^-4 |O| <= 2^-4 sum_j p_j |v_j|) and the combine's FP16 weights c_k (exp LUT of
 * m_k - M, 1/sum + Newton, products: <= 0.0075): |O - ref| <= 0.11 sum_j p_j |v_j| over all the keys j <= i;
 * RMS relative <= 0.05. The float64 reference runs the softmax over the whole causal prefix (no key blocks).
 */
import { describe, expect, it } from 'vitest';
import { attention, attentionSeq, GenError, type AttentionParams } from '../../src/gen/index.js';
import { causalAttentionRef, input, runKernel } from './gen.harness.js';


describe('pyxis-gen attention: causal attention tiles streamed from HBM', () => {
  const cases: Array<[string, AttentionParams, number]> = [
    ['d_k 64, 120 valid tokens (the attn_causal sample generalised), 1 UIE', { tiles: 1, dk: 64, tokens: 120 }, 1 / 8],
    ['d_k 16, 3 tiles on 2 clusters x 1 UIE (scale 1/4 exact)', { tiles: 3, dk: 16, clusters: [0, 1] }, 1 / 4],
    ['d_k 128, 2 tiles on 2 UIEs (scale 2^-4, the nearest power of two to 1/sqrt(128))', { tiles: 2, dk: 128, uies: 2 }, 1 / 16],
  ];
  for (const [title, p, scale] of cases)
    it(title, () => {
      const k = attention(p);
      expect(k.meta['scale']).toBe(scale);
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      const T = p.tokens ?? 128;
      const { o, w } = causalAttentionRef(input(k, 'attn_qt.npy'), input(k, 'attn_kt.npy'), input(k, 'attn_v.npy'), p.tiles, p.dk, T, scale);
      const got = r.tensor('ot_hbm');
      let worst = 0;
      for (let x = 0; x < o.length; x++) if (x % 128 < T) worst = Math.max(worst, Math.abs(got[x]! - o[x]!) / w[x]!);
      expect(worst).toBeLessThanOrEqual(0.04);
      expect(worst).toBeGreaterThan(0); // LUT softmax: an exact match would mean nothing was computed
    });

  it('--seq 384 --heads 2 on 2 clusters x 2 UIEs: causal over all 384 tokens (3 key blocks), against float64', () => {
    const S = 384;
    const H = 2;
    const k = attentionSeq({ seq: S, heads: H, clusters: [0, 1], uies: 2 });
    expect(k.meta['scale']).toBe(1 / 16);
    const r = runKernel(k);
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    // qkv [3H, S/128, 128 feature, 128 token]: Q^T of head h is feature block h, K^T block H + h, V^T block 2H + h
    const qkv = input(k, 'attn_qkv.npy');
    const at = (fb: number, f: number, tok: number) => qkv[((fb * (S / 128) + Math.floor(tok / 128)) * 128 + f) * 128 + (tok % 128)]!;
    const got = r.tensor('attn_hbm');
    let worst = 0;
    let num = 0;
    let den = 0;
    for (let h = 0; h < H; h++)
      for (let i = 0; i < S; i++) {
        const sc = Array.from({ length: i + 1 }, (_, j) => {
          let d = 0;
          for (let f = 0; f < 128; f++) d += at(h, f, i) * at(H + h, f, j);
          return d / 16;
        });
        const m = Math.max(...sc);
        const e = sc.map((x) => Math.exp(x - m));
        const sum = e.reduce((x, y) => x + y, 0);
        for (let f = 0; f < 128; f++) {
          let o = 0;
          let w = 0;
          for (let j = 0; j <= i; j++) {
            o += (e[j]! / sum) * at(2 * H + h, f, j);
            w += (e[j]! / sum) * Math.abs(at(2 * H + h, f, j));
          }
          // attn_hbm [S/128, 128 H, 128]: token block, feature 128 h + f, token
          const g = got[(Math.floor(i / 128) * 128 * H + 128 * h + f) * 128 + (i % 128)]!;
          worst = Math.max(worst, Math.abs(g - o) / w);
          num += (g - o) ** 2;
          den += o * o;
        }
      }
    expect(worst).toBeLessThanOrEqual(0.11);
    expect(worst).toBeGreaterThan(0);
    expect(Math.sqrt(num / den)).toBeLessThanOrEqual(0.05);
  });

  it('bad parameters: d_k not a multiple of 8, more than 128 tokens (a longer sequence is the key-block flow, attention --seq)', () => {
    expect(() => attention({ tiles: 1, dk: 60 })).toThrow(/GEN0003: dk: must be a multiple of 8/);
    expect(() => attention({ tiles: 1, dk: 64, tokens: 256 })).toThrow(GenError);
    expect(() => attention({ tiles: 1, dk: 64, tokens: 256 })).toThrow(/GEN0007: tokens: .*key-block flow: attention --seq/);
    expect(() => attentionSeq({ seq: 200, heads: 1, dk: 60 })).toThrow(/GEN0003: dk: must be a multiple of 8/);
    expect(() => attentionSeq({ seq: 896, heads: 1 })).toThrow(/GEN0011: seq: at most 768 tokens/);
    expect(() => attentionSeq({ seq: 256, heads: 0 })).toThrow(/GEN0002: heads: must be in 1..256/);
  });
});
