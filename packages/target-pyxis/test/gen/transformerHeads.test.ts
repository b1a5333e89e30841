/**
 * pyxis-gen transformer with head dimensions other than 128 (d_k = d-model / heads, a multiple of 8, <= 384): the
 * chained layer's attention (gen/attnchain.ts, model layout) shares the QKV output's 128-feature blocks between the
 * heads in them when d_k divides 128 (one H2A trip per block; rows sliced by the UIE views), and otherwise loads a
 * cluster's feature blocks in one H2A trip per Q, K, V and gathers each head's rows by UIE copy trips (one per
 * feature block the head touches; d_k 96 straddles two); the combine writes only the head's d_k rows. Small configurations, bit-exact; expected values from float64 written
 * here (never from the generator's folded operands):
 *   - d_k 64 (d-model 256, 4 heads): the layer output end to end against a float64 layer of the model with scaled
 *     dot-product attention 1/sqrt(64) = 2^-3 (exact in LnsI4F3): RMS relative <= 0.08, max <= 0.5 RMS(ref)
 *     (docs/generators.md "Transformer layer");
 *   - both: the attention stage against its own input as the chip computed it (qkv, Q already scaled): RMS relative
 *     <= 0.07 (the chained layer's attention bound, transformer.test.ts; measured 0.054 at d_k 64, 0.065 at d_k 96,
 *     as at d_k 128: 0.053 for d-model 256, 0.063 for 384). The normwise bound 0.11 of `attention --seq` does not
 *     apply: the layer's scores are larger than its inputs' (|s_j - m| <= ~12), the worst element 0.16-0.32 at any d_k;
 *   - d_k 256 (d-model 512, 2 heads): two P V trips per key block, one per 128-row tile of O^T;
 *   - d_k 96 (d-model 384, 4 heads): the folded score scale is 2^(-26/8), the LnsI4F3 value nearest 1/sqrt(96)
 *     (docs/spec-notes.d/attn.md).
 */
import { describe, expect, it } from 'vitest';
import { transformer } from '../../src/gen/index.js';
import { input, runKernel } from './gen.harness.js';
import { attention, decoderLayer, rel, splitQkv, tokens, tokensFromTiles } from './transformer.ref.js';
import { transpose } from './float64.ref.js';

const S = 128;
const F = 128;

describe('pyxis-gen transformer: heads of d_k other than 128 (small configurations, bit-exact)', () => {
  for (const [D, H, endToEnd] of [[256, 4, true], [384, 4, false], [512, 2, false]] as const) {
    const dk = D / H;
    it(`d-model ${D}, ${H} heads (d_k ${dk})${endToEnd ? ': the layer against float64' : ''}, the attention stage against its own input`, () => {
      const k = transformer({ seq: S, dModel: D, heads: H, ffn: F, clusters: [0, 1], uies: 2 });
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      // d_k 64: heads 0 and 1 share K's first feature block (qkv block D/128 = 2), loaded once into cluster 0; head 1's
      // scores read its rows 64..127, its P V trip the whole block as V^T, its combine O^T rows 64.. (attnchain.ts)
      if (dk === 64) {
        expect(k.ld).toMatch(/trip at_lk_f0c0 \{ src = qkv_hbm\[2, 0:1\]; dst = at_kt_f0c0;/);
        expect(k.ld).toMatch(/trip at_sc1_0 \{[^}]*weights = at_kt_f0c0\[0, 64:128\]; read = at_qt_f0c0\[0, 64:128\];/);
        expect(k.ld).toMatch(/trip at_pv1_0 \{[^}]*weights = at_vt_f0c0\[0\]; write = at_ob1\[0:128\];/);
        expect(k.ld).toMatch(/trip at_cb1 \{ amem_read = attn_cb1_rd_o64;/);
        expect(k.ld.match(/trip at_l[qkv]_/g)).toHaveLength(6); // 2 blocks x Q, K, V
      }
      // d_k 96: head 1's K^T (features D + 96 .. D + 192) straddles two feature blocks: its cluster loads K's blocks in
      // one H2A trip and two UIE copies gather the head's rows (32 from the first block, 64 from the second)
      if (dk === 96) {
        expect(k.ld).toMatch(/trip at_lk_c0 \{ src = qkv_hbm\[3:5, 0:1\]; dst = at_kb_c0;/);
        expect(k.ld).toMatch(/trip at_cpk_h1_0 \{ amem_read = attn_cp32_rd; amem_write = attn_cp32_w96; read = at_kb_c0\[0, 0:1, 96:128\]; write = at_kt_h1\[0:1, 0:32\];/);
        expect(k.ld).toMatch(/trip at_cpk_h1_1 \{ amem_read = attn_cp64_rd; amem_write = attn_cp64_w96; read = at_kb_c0\[1, 0:1, 0:64\]; write = at_kt_h1\[0:1, 32:96\];/);
      }
      const m = k.weights;
      // the folded Q rows: gamma1[d] W_q[d, j] 2^(-round(4 log2 d_k) / 8) (1/8 for d_k 64; 2^(-26/8) for 96)
      const scale = 2 ** (-Math.round(4 * Math.log2(dk)) / 8);
      if (dk === 64) expect(scale).toBe(1 / 8);
      if (dk === 96) expect(scale).toBe(2 ** (-26 / 8));
      const qa = input(k, 'qkv_a.npy');
      for (const [j, d] of [[0, 0], [5, 17], [D - 1, D - 1]]) expect(qa[j * (D + 128) + d]! / (m.gamma1[d]! * m.wq[d * D + j]! * scale)).toBeCloseTo(1, 6);
      // the attention stage: Q^T already scaled in qkv, so scale 1
      const { q, k: kk, v } = splitQkv(tokensFromTiles(r.tensor('qkv_hbm'), S, 3 * D), S, D);
      const at = tokens(r.tensor('attn_hbm'), S, D);
      const o = attention(q, kk, v, S, D, dk, 1);
      const ea = rel(at, o);
      expect(ea.rms).toBeLessThanOrEqual(0.07);
      expect(ea.rms).toBeGreaterThan(0); // LUT softmax: an exact match would mean nothing was computed
      if (!endToEnd) return;
      // wo_a.npy and ffn2_a.npy are exactly the model's W_o^T and W_2^T: the layer of the model itself
      expect(Array.from(input(k, 'wo_a.npy'))).toEqual(Array.from(transpose(m.wo, D, D)));
      expect(Array.from(input(k, 'ffn2_a.npy'))).toEqual(Array.from(transpose(m.w2, F, D)));
      const out = decoderLayer(tokens(input(k, 'x.npy'), S, D), m, { seq: S, dModel: D, ffn: F, dk, scale: 1 / Math.sqrt(dk) });
      const e = rel(tokens(r.tensor('out_hbm'), S, D), out);
      expect(e.rms).toBeLessThanOrEqual(0.08);
      expect(e.maxOverRms).toBeLessThanOrEqual(0.5);
    }, 60_000);
  }

  it('16 heads of d_k 8 in one feature block over 768 tokens: the block is loaded twice (the shared loads stay within the barrier limits), links with no diagnostics', () => {
    // each of the 21 (query, key) block pairs of a head waits for its block's loads: 16 heads x 21 = 336 waits would
    // need 11 barriers of <= 31 waits, and an H2A descriptor notifies <= 8 (docs/linker.md "Dependencies")
    const k = transformer({ seq: 768, dModel: 128, heads: 16, ffn: 128, clusters: [0], uies: 1 });
    expect(k.ld.match(/trip at_lq_f0c0(s1)? \{/g)?.sort()).toEqual(['trip at_lq_f0c0 {', 'trip at_lq_f0c0s1 {']);
    // linked (the linker throws on an error) and started: the first 1,000 cycles, timing-only
    expect(runKernel(k, { timingOnly: true, maxCycles: 1000 }).warnings).toEqual([]);
  }, 60_000);
});
