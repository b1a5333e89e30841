/**
 * pyxis-gen transformer (packages/target-pyxis/src/gen/transformer.ts) at a small bit-exact configuration (seq 128,
 * d_model 128, 1 head, FFN 128, on 2 clusters x 1 UIE): every stage assembled, linked without warnings, simulated
 * bit-exact and checked against a float64 reference written here (bounds of gemm.test.ts and rows.test.ts). The
 * default size (seq 512, d_model 1024, 8 heads, FFN 4096, 48 UIEs) is the documented command of docs/generators.md.
 */
import { describe, expect, it } from 'vitest';
import { transformer } from '../../src/gen/index.js';
import { U, causalAttentionRef, erf, errors, fromColumnBlocks, input, matmul64, normRef, runKernel, softmaxWorst } from './gen.harness.js';



describe('pyxis-gen transformer: the stages of a decoder layer, small bit-exact configuration', () => {
  const c = transformer({ seq: 128, dModel: 128, heads: 1, ffn: 128, clusters: [0, 1], uies: 1 });
  it('has the nine stages of the layer', () => {
    expect(c.stages.map((s) => s.kernel.name)).toEqual(['ln1', 'qkv', 'attn', 'wo', 'ln2', 'ffn1', 'ffn2']);
  });
  it('above 128 tokens the attention stays scores / softmax rows / pv (no online-softmax flow)', () => {
    const big = transformer({ seq: 256, dModel: 128, heads: 1, ffn: 128, clusters: [0], uies: 1 });
    expect(big.stages.map((s) => s.kernel.name)).toEqual(['ln1', 'qkv', 'scores', 'smax', 'pv', 'wo', 'ln2', 'ffn1', 'ffn2']);
    expect(big.notes.join(' ')).toMatch(/without the causal mask/);
  });
  for (const s of c.stages)
    it(`stage ${s.label}`, () => {
      const k = s.kernel;
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      if (k.meta.kind === 'attention') {
        // causal softmax over the whole 128-token row; bound of attention.test.ts (docs/generators.md "Attention")
        const dk = k.meta['dk'] as number;
        const scale = k.meta['scale'] as number;
        expect(scale).toBe(1 / 16);
        const { o, w } = causalAttentionRef(input(k, 'attn_qt.npy'), input(k, 'attn_kt.npy'), input(k, 'attn_v.npy'), k.meta['tiles'] as number, dk, 128, scale);
        const got = r.tensor('ot_hbm');
        let worst = 0;
        for (let x = 0; x < o.length; x++) worst = Math.max(worst, Math.abs(got[x]! - o[x]!) / w[x]!);
        expect(worst).toBeLessThanOrEqual(0.04);
        expect(worst).toBeGreaterThan(0);
        return;
      }
      if (k.meta.kind === 'rows') {
        const x = r.tensor('x_hbm');
        const y = r.tensor('y_hbm');
        if (k.meta['op'] === 'softmax') expect(softmaxWorst(x, y)).toBeLessThanOrEqual(1);
        else {
          const ref = normRef('layernorm', x, r.tensor('prm0'));
          for (let i = 0; i < ref.length; i++) expect(Math.abs(y[i]! - ref[i]!)).toBeLessThanOrEqual(16 * U * Math.max(1, Math.abs(ref[i]!)));
        }
        return;
      }
      const { batch, m, k: K, n, epilogue, residual } = k.meta as unknown as { batch: number; m: number; k: number; n: number; epilogue: string; residual: boolean };
      const a = input(k, `${k.name}_ref_a.npy`);
      const b = input(k, `${k.name}_ref_b.npy`);
      const bias = epilogue === 'bias_gelu' ? input(k, `${k.name}_bias.npy`) : undefined;
      const rr = residual ? input(k, `${k.name}_ref_r.npy`) : undefined;
      const cAll = r.tensor('c_hbm');
      for (let z = 0; z < batch; z++) {
        const { c: ref, abs } = matmul64(a.subarray(z * m * K), b.subarray(z * K * n), m, K, n);
        const got = fromColumnBlocks(cAll.subarray(z * m * n, (z + 1) * m * n), m, n);
        for (let i = 0; i < m * n; i++) {
          if (bias) {
            const x = ref[i]! + bias[i % n]!;
            ref[i] = 0.5 * x * (1 + erf(x / Math.SQRT2));
            abs[i] = 1.13 * (abs[i]! + Math.abs(bias[i % n]!)) + 0.0034 / 0.06 + (3 * U * Math.abs(ref[i]!)) / 0.06;
          }
          if (rr) ref[i]! += rr[z * m * n + i]!;
        }
        const e = errors(got, ref, abs);
        expect(e.bad).toBe(0);
        expect(e.max).toBeLessThanOrEqual(0.06);
      }
    });
});
