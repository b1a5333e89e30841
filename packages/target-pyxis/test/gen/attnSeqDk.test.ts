/**
 * pyxis-gen attention --seq S --heads H --dk D (gen/attnSeq.ts over gen/attnchain.ts): the key-block causal attention
 * with head dimensions other than 128 (8 .. 384; above 128 one P V trip per 128-row tile of O^T) and sequences that are not a multiple of 128 (padded to whole token blocks),
 * assembled, linked with no diagnostics and simulated bit-exact; O^T against a float64 causal softmax attention written
 * here (over the whole causal prefix of each query, no key blocks).
 * Bound (docs/generators.md "Causal attention over a sequence", derived in attention.test.ts): per valid query i and
 * feature f, |O - ref| <= 0.11 sum_j p_ij |v_jf|; RMS relative <= 0.05. The derivation does not depend on d_k beyond
 * the score magnitudes (|s_j - m| <= ~12: Q^T in [-2, 2] with 3 fraction bits, K^T powers of two <= 2, scale
 * 2^-round(log2(d_k) / 2)), which these d_k keep.
 */
import { describe, expect, it } from 'vitest';
import { attentionSeq, type AttentionSeqParams } from '../../src/gen/index.js';
import { input, runKernel } from './gen.harness.js';

/** float64 causal attention from qkv [3H, NB, D, 128] (head block, token block, feature, token); worst normwise error and RMS relative over tokens < S. */
function compare(qkv: Float64Array, got: Float32Array, H: number, S: number, D: number, scale: number) {
  const NB = Math.ceil(S / 128);
  const x = (blk: number, f: number, tok: number) => qkv[((blk * NB + Math.floor(tok / 128)) * D + f) * 128 + (tok % 128)]!;
  let worst = 0;
  let num = 0;
  let den = 0;
  for (let h = 0; h < H; h++)
    for (let i = 0; i < S; i++) {
      const sc: number[] = [];
      for (let j = 0; j <= i; j++) {
        let d = 0;
        for (let f = 0; f < D; f++) d += x(h, f, i) * x(H + h, f, j);
        sc.push(d * scale);
      }
      const m = Math.max(...sc);
      const e = sc.map((s) => Math.exp(s - m));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let f = 0; f < D; f++) {
        let o = 0;
        let w = 0;
        for (let j = 0; j <= i; j++) {
          const v = x(2 * H + h, f, j);
          o += (e[j]! / sum) * v;
          w += (e[j]! / sum) * Math.abs(v);
        }
        // attn_hbm [NB, D H, 128]: token block, feature D h + f, token
        const g = got[(Math.floor(i / 128) * D * H + D * h + f) * 128 + (i % 128)]!;
        worst = Math.max(worst, Math.abs(g - o) / w);
        num += (g - o) ** 2;
        den += o * o;
      }
    }
  return { worst, rms: Math.sqrt(num / den) };
}

describe('pyxis-gen attention --seq with d_k other than 128 and padded sequences', () => {
  const cases: Array<[string, AttentionSeqParams, number]> = [
    // scale 2^-round(log2(D) / 2): D 8 -> 2^-2 (1/sqrt(8) = 0.354), 64 -> 2^-3 exact, 96 -> 2^-3 (0.102)
    ['S 256, d_k 8, 1 head', { seq: 256, heads: 1, dk: 8 }, 1 / 4],
    ['S 256, d_k 64, 2 heads on 2 clusters', { seq: 256, heads: 2, dk: 64, clusters: [0, 1] }, 1 / 8],
    ['S 256, d_k 96, 1 head on 2 UIEs', { seq: 256, heads: 1, dk: 96, uies: 2 }, 1 / 8],
    ['S 200 (padded to 256), d_k 32, 2 heads (log2(32) / 2 = 2.5 rounds up: 2^-3)', { seq: 200, heads: 2, dk: 32 }, 1 / 8],
    ['S 300 (padded to 384), d_k 24, 1 head', { seq: 300, heads: 1, dk: 24, seed: 5 }, 1 / 4],
    ['S 77 (one padded block), d_k 128', { seq: 77, heads: 1 }, 1 / 16],
    // d_k > 128: two / three P V trips per key block (128-row tiles of O^T), each from its own copy of P^T
    ['S 256, d_k 256 (two 128-row tiles of O^T)', { seq: 256, heads: 1, dk: 256 }, 1 / 16],
    ['S 140 (padded to 256), d_k 136, 2 heads on 2 UIEs', { seq: 140, heads: 2, dk: 136, uies: 2 }, 1 / 16],
  ];
  for (const [title, p, scale] of cases)
    it(title, () => {
      const k = attentionSeq(p);
      expect(k.meta['scale']).toBe(scale);
      const D = p.dk ?? 128;
      const NB = Math.ceil(p.seq / 128);
      expect(k.inputs[0]!.shape).toEqual([3 * p.heads, NB, D, 128]);
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      const qkv = input(k, 'attn_qkv.npy');
      const got = r.tensor('attn_hbm');
      expect(got.length).toBe(NB * D * p.heads * 128);
      const { worst, rms } = compare(qkv, got, p.heads, p.seq, D, scale);
      expect(worst).toBeLessThanOrEqual(0.11);
      expect(worst).toBeGreaterThan(0); // LUT softmax: an exact match would mean nothing was computed
      expect(rms).toBeLessThanOrEqual(0.05);
    });

  it('padding tokens do not reach valid queries: garbage in the padding columns leaves O of the valid tokens as it was', () => {
    const p = { seq: 130, heads: 1, dk: 16 };
    const k = attentionSeq(p);
    const ref = runKernel(k).tensor('attn_hbm');
    const qkv = k.inputs[0]!.data;
    // columns 2..127 of the second token block (tokens 130..255) of Q^T, K^T and V^T
    for (let r = 0; r < qkv.length / 128; r++) if (r % (2 * 16) >= 16) qkv.fill(r % 3 === 0 ? 2 : -1.5, r * 128 + 2, (r + 1) * 128);
    const got = runKernel(k).tensor('attn_hbm');
    for (let x = 0; x < got.length; x++) if (x < 16 * 128 || x % 128 < 2) expect(got[x], `element ${x}`).toBe(ref[x]);
  });

  it('bad parameters name the parameter and the limit', () => {
    expect(() => attentionSeq({ seq: 256, heads: 1, dk: 60 })).toThrow(/GEN0003: dk: must be a multiple of 8 .*seq §1.2 rule 3/);
    expect(() => attentionSeq({ seq: 256, heads: 1, dk: 392 })).toThrow(/GEN0060: dk: at most 384 \(got 392\).*seq §9.3.*seq §13.3/);
    expect(() => attentionSeq({ seq: 0, heads: 1, dk: 64 })).toThrow(/GEN0002: seq: must be in 1\.\./);
    expect(() => attentionSeq({ seq: 769, heads: 1, dk: 64 })).toThrow(/GEN0011: seq: at most 768 tokens/);
  });
});
