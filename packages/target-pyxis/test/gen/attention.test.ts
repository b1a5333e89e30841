/**
 * pyxis-gen attention (packages/target-pyxis/src/gen/attention.ts): causal attention tiles (the attn_causal flow) with
 * d_k and the valid-token count as parameters, Q^T / K^T / V streamed from HBM over UIEs and clusters, assembled,
 * linked without warnings and simulated bit-exact; O^T against a float64 causal attention written here.
 * Bound (docs/generators.md "Attention"): per valid query i and feature c, |O - ref| <= 0.04 sum_j p_j |v_j|: each
 * p_j carries the FP16 rounding of its score at EB -15 (U |s_j - m| with |s_j - m| <= ~12 for these inputs), the exp
 * LUT's relative error (<= 0.4 %) and the FP16 roundings of e, 1/sum and P (3U); the normalisation doubles it:
 * 2 (12 U + 0.004 + 3 U) = 0.023, with margin for the MNS accumulation of P V.
 */
import { describe, expect, it } from 'vitest';
import { attention, GenError, type AttentionParams } from '../../src/gen/index.js';
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

  it('bad parameters: d_k not a multiple of 8, more than 128 tokens (the online-softmax flow is not generated)', () => {
    expect(() => attention({ tiles: 1, dk: 60 })).toThrow(/GEN0003: dk: must be a multiple of 8/);
    expect(() => attention({ tiles: 1, dk: 64, tokens: 256 })).toThrow(GenError);
    expect(() => attention({ tiles: 1, dk: 64, tokens: 256 })).toThrow(/GEN0007: tokens: .*online-softmax/);
  });
});
