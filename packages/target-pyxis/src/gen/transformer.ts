/**
 * Chip-scale sample: the stages of a transformer decoder layer (docs/generators.md "Transformer layer"), each a
 * generated kernel on all 48 UIEs with its operands in HBM, run one after the other:
 *   ln1      LayerNorm rows                     S x D / 128 rows of 128
 *   qkv      X W_qkv                            S x D x 3D GEMM
 *   scores   Q_h K_h^T per head                 H x (S x dh x S), --batch
 *   softmax  softmax rows                       H x S x S / 128 rows of 128
 *   pv       P_h V_h per head                   H x (S x S x dh)
 *   out      attn W_o + X (residual, InMemAdd)  S x D x D
 *   ln2      LayerNorm rows
 *   ffn1     GELU(h W_1 + b_1)                  S x D x F, VPU epilogue bias_gelu
 *   ffn2     g W_2 + h (residual)               S x F x D
 * What this is NOT (stated in the output): the stages take their own seeded inputs (the output of one stage is not
 * fed to the next: the GEMM writes C in column blocks and RFP16, the next GEMM reads row-major RFP8); the VPU row
 * programs normalise 128-value rows (the lane width), not whole d_model rows, and the softmax is over 128-key groups
 * without the causal mask, except at seq 128 where one causal attention stage per head (the attn_causal flow) replaces
 * scores / softmax / pv. The figures are those of the layer's work at its shapes on the whole chip.
 */
import { GenError, requireInt, requireMultiple } from './errors.js';
import { attention } from './attention.js';
import { gemm } from './gemm.js';
import type { GenKernel } from './kernel.js';
import { rows } from './rows.js';

export interface TransformerParams {
  seq?: number;
  dModel?: number;
  heads?: number;
  ffn?: number;
  clusters?: number[];
  uies?: number;
  seed?: number;
}

export interface Composite {
  name: string;
  stages: Array<{ label: string; kernel: GenKernel }>;
  notes: string[];
}

export function transformer(p: TransformerParams): Composite {
  const S = requireInt('seq', p.seq ?? 512, 128, 8192);
  const D = requireInt('d-model', p.dModel ?? 1024, 128, 16384);
  const H = requireInt('heads', p.heads ?? 8, 1, 128);
  const F = requireInt('ffn', p.ffn ?? 4096, 128, 32768);
  requireMultiple('seq', S, 128, 'the GEMM tiles are 128 rows');
  requireMultiple('d-model', D, 128, 'the GEMM tiles are 128 wide');
  requireMultiple('ffn', F, 128, 'the GEMM tiles are 128 wide');
  if (D % H !== 0 || (D / H) % 128 !== 0) throw new GenError('GEN0003', 'heads', `d-model / heads must be a multiple of 128 (got ${D} / ${H}): the head dimension is one 128-row Hbuf block of K (seq §9.3) and one 128-column tile`);
  const dh = D / H;
  const cl = p.clusters ?? [0, 1, 2, 3];
  const u = p.uies ?? 12;
  const seed = p.seed ?? 1;
  const common = { clusters: cl, uies: u };
  // seq 128: one causal attention tile per head (the attn_causal flow: the softmax over the whole 128-token row with
  // the causal mask, chip §6.2.2.1.4). Longer sequences need the online-softmax flow across key blocks (not generated):
  // there the stages stay the batched scores GEMM, 128-value softmax rows without the mask and the P V GEMM.
  const causal = S === 128;
  const attentionStages: Composite['stages'] = causal
    ? [{ label: `attn: ${H} causal head(s) (${S} tokens, d_k ${dh})`, kernel: attention({ name: 'attn', tiles: H, dk: dh, tokens: S, seed: seed + 2, ...common }) }]
    : [
        { label: `scores: ${H} x (${S} x ${dh} x ${S})`, kernel: gemm({ name: 'scores', batch: H, m: S, k: dh, n: S, seed: seed + 2, ...common }) },
        { label: `softmax rows (${(H * S * S) / 128} x 128)`, kernel: rows({ name: 'smax', op: 'softmax', rows: (H * S * S) / 128, seed: seed + 3, ...common }) },
        { label: `pv: ${H} x (${S} x ${S} x ${dh})`, kernel: gemm({ name: 'pv', batch: H, m: S, k: S, n: dh, seed: seed + 4, ...common }) },
      ];
  const stages: Composite['stages'] = [
    { label: `ln1: LayerNorm rows (${(S * D) / 128} x 128)`, kernel: rows({ name: 'ln1', op: 'layernorm', rows: (S * D) / 128, seed, ...common }) },
    { label: `qkv: ${S} x ${D} x ${3 * D}`, kernel: gemm({ name: 'qkv', m: S, k: D, n: 3 * D, seed: seed + 1, ...common }) },
    ...attentionStages,
    { label: `out: ${S} x ${D} x ${D} + residual`, kernel: gemm({ name: 'wo', m: S, k: D, n: D, residual: true, seed: seed + 5, ...common }) },
    { label: `ln2: LayerNorm rows`, kernel: rows({ name: 'ln2', op: 'layernorm', rows: (S * D) / 128, seed: seed + 6, ...common }) },
    { label: `ffn1: GELU(${S} x ${D} x ${F} + b)`, kernel: gemm({ name: 'ffn1', m: S, k: D, n: F, epilogue: 'bias_gelu', seed: seed + 7, ...common }) },
    { label: `ffn2: ${S} x ${F} x ${D} + residual`, kernel: gemm({ name: 'ffn2', m: S, k: F, n: D, residual: true, seed: seed + 8, ...common }) },
  ];
  for (const s of stages) if ((s.kernel.meta.rows as number | undefined) !== undefined && (s.kernel.meta.rows as number) % 64 !== 0) throw new GenError('GEN0003', 'seq', 'row stages need a multiple of 64 rows');
  return {
    name: 'transformer',
    stages,
    notes: [
      `transformer layer stages: seq ${S}, d_model ${D}, ${H} heads (dh ${dh}), FFN ${F}, FP8 GEMMs, on ${cl.length} cluster(s) x ${u} UIE(s); stages run one after the other`,
      `NOT a chained layer: each stage takes its own seeded inputs; norms work on 128-value rows (the VPU lane width); ${causal ? 'attention is causal over the whole 128-token sequence (the attn_causal flow, one tile per head)' : 'the softmax works on 128-key groups without the causal mask (a sequence above 128 tokens needs the online-softmax flow, not generated)'} (docs/generators.md "Transformer layer")`,
    ],
  };
}
