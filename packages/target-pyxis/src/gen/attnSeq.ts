/**
 * `pyxis-gen attention --seq S --heads H [--dk D]`: causal attention over a whole sequence of S tokens (1..128 x
 * ATTN_MAX_BLOCKS) for H heads of d_k D (a multiple of 8, at most ATTN_MAX_DK = 384) on its own: the key-block flow of the chained
 * transformer layer (gen/attnchain.ts: per query block b and key block k <= b a scores trip and a P V trip, then a
 * combine trip on the VPU, the softmax over all the keys in its split form), fed from one input tensor
 * qkv_hbm [3H, NB, D, 128] (NB = ceil(S / 128) token blocks; RFP8, EB -12; head block, token block, feature, token:
 * Q^T of head h is block h, K^T block H + h, V^T block 2H + h), output attn_hbm [NB, D H, 128] (RFP8, EB -12; token
 * block, feature, token; head h at rows D h ..). A sequence that is not a multiple of 128 is padded to whole token
 * blocks: the padding tokens (columns >= S mod 128 of the last block) are keys no valid query sees (they lie after
 * every valid query, so the causal mask Col_LT_Row removes them, chip §6.2.2.1.3) and queries whose outputs are
 * don't-care. The score scale is 2^-round(log2(D) / 2), the power of two nearest 1/sqrt(D) (the single-tile
 * `attention` kernel's rule). docs/generators.md "Causal attention over a sequence".
 */
import { GenError, requireInt, requireMultiple, requireName, requireScale, workers } from './errors.js';
import { ATTN_MAX_BLOCKS, ATTN_MAX_DK, attnChain } from './attnchain.js';
import { floatValues } from './inputs.js';
import type { GenKernel } from './kernel.js';
import { renderLd } from './ldparts.js';
import { errorOf } from './reference.js';

export interface AttentionSeqParams {
  name?: string;
  seq: number;
  heads: number;
  /** Head dimension d_k (default 128). */
  dk?: number;
  clusters?: number[];
  uies?: number;
  seed?: number;
}

/** Normwise bound per element of |O - ref| / sum_j p_j |v_j| (docs/generators.md "Causal attention"). */
export const ATTN_SEQ_BOUND = 0.11;

/** The largest head dimension of the key-block flow (GEN0060): three 128-row tiles of O^T, three copies of P^T. */
export const ATTN_SEQ_MAX_DK = ATTN_MAX_DK;

export function attentionSeq(p: AttentionSeqParams): GenKernel {
  const nm = p.name ?? 'attn';
  requireName(nm);
  if (Number.isInteger(p.seq) && p.seq > 128 * ATTN_MAX_BLOCKS) throw new GenError('GEN0011', 'seq', `at most ${128 * ATTN_MAX_BLOCKS} tokens (got ${p.seq}): a query block attends to at most ${ATTN_MAX_BLOCKS} key blocks of 128 tokens: the combine trip holds one weight per key block in a VPU register (16 GPRs, chip §6.4)`);
  const S = requireInt('seq', p.seq, 1, 128 * ATTN_MAX_BLOCKS);
  const H = requireInt('heads', p.heads, 1, 256);
  const dk = p.dk ?? 128;
  if (Number.isInteger(dk) && dk > ATTN_SEQ_MAX_DK) throw new GenError('GEN0060', 'dk', `at most ${ATTN_SEQ_MAX_DK} (got ${dk}): a P V trip computes one 128-row grid tile of O^T = V^T P^T (seq §9.3) from its own copy of P^T in a Vbuffer FIFO tile (seq §13.1), and the scores trip's VPU writes at most ${ATTN_SEQ_MAX_DK / 128} copies (tiles 2, 4, 5: one writer and one reader per bank, seq §13.3); split the head into heads of at most ${ATTN_SEQ_MAX_DK}`);
  const DK = requireInt('dk', dk, 8, ATTN_SEQ_MAX_DK);
  requireMultiple('dk', DK, 8, 'seq §1.2 rule 3: the inner dimension of an FP8 MatMul (the scores trip contracts over d_k through the transposed K^T path)');
  const NB = Math.ceil(S / 128);
  const ws = workers(p.clusters ?? [0], p.uies ?? 1);
  requireScale('seq, heads', H * (NB * (NB + 1) + NB), `${H} head(s) x (${NB} query blocks: ${NB * (NB + 1)} scores / P V trips + ${NB} combines)`, 3 * H * NB * DK * 128);
  // AMEM of a cluster (heads round-robin over the clusters, attnchain.ts): per head Q^T, K^T [NB, d_k, 128], V^T
  // [NB, RP, 128] (RP = d_k rounded up to the row-shifted operand's 128-row tiles), per query block b its RFP8 output
  // [d_k, 128] and its b + 1 FP16 partial results of RP + 2 rows (O^T, max, sum)
  const RP = 128 * Math.ceil(DK / 128);
  const perHead = 3 * NB * DK * 128 + NB * RP * 128 + (((RP + 2) * 128 * 2 * NB * (NB + 1)) / 2);
  const nC = new Set(ws.map((w) => w.cluster)).size;
  const need = Math.ceil(H / nC) * perHead;
  const budget = 63 * 1024 * 1024;
  if (need > budget) throw new GenError('GEN0008', 'heads', `${Math.ceil(H / nC)} head(s) per cluster need ${need} bytes of AMEM (limit ${budget}: 64 MiB less 1 MiB for descriptor lists); use fewer heads or more clusters`);
  const seed = p.seed ?? 1;
  // the single-tile kernel's values (attention.ts): Q^T with 3 fraction bits, K^T and V powers of two (exact in the
  // weights paths' LnsI5F3); padding tokens zero
  const n = H * NB * DK * 128;
  const qkv = new Float32Array(3 * n);
  qkv.set(floatValues(n, seed, 3, -1, 1), 0);
  qkv.set(floatValues(n, seed + 1, 0, -1, 1), n);
  qkv.set(floatValues(n, seed + 2, 0, -2, 1), 2 * n);
  for (let r = 0; r < qkv.length / 128; r++) if (r % (NB * DK) >= (NB - 1) * DK) qkv.fill(0, r * 128 + (S - 128 * (NB - 1)), (r + 1) * 128);
  const a = attnChain({ name: nm, prefix: '', s: 128 * NB, d: DK * H, heads: H, qkvTensor: 'qkv_hbm', layout: 'heads', outTensor: 'attn_hbm', ws });
  const parts = a.parts!;
  parts.decls.push(`tensor qkv_hbm { format = RFP8; shape = [${3 * H}, ${NB}, ${DK}, 128]; eb = -12; region = hbm; data = "${nm}_qkv.npy"; }`);
  const what = `causal attention over ${S} tokens${S % 128 ? ` (padded to ${128 * NB})` : ''}, ${H} head(s) of d_k ${DK}`;
  const ld = renderLd(`/* Generated by pyxis-gen attention --seq (docs/generators.md): ${what}, scale ${a.scale}. */`, parts);
  return {
    name: nm,
    pasm: `# Generated by pyxis-gen attention --seq (packages/target-pyxis/src/gen/attnSeq.ts over gen/attnchain.ts; docs/generators.md):\n# ${what}, scores scaled by ${a.scale}.\n${a.pasm}`,
    ld,
    inputs: [{ file: `${nm}_qkv.npy`, shape: [3 * H, NB, DK, 128], data: qkv }],
    luts: a.luts,
    check: seqCheck(qkv, H, S, DK, a.scale),
    meta: {
      ...a.meta,
      kind: 'attention', seq: S, heads: H, dk: DK, scale: a.scale,
      layout: {
        qkv_hbm: `[3H, ceil(S/128), d_k, 128] RFP8 eb -12: Q^T, K^T, V^T per head (feature, token; tokens >= S are padding)`,
        attn_hbm: `[ceil(S/128), d_k H, 128] RFP8 eb -12: O^T per token block (head h at rows d_k h ..; columns of tokens >= S are don't-care)`,
      },
    },
  };
}

/** The `--run` check (a function outside the generator's scope: the closure keeps only what it names). */
function seqCheck(qkv: Float32Array, H: number, S: number, DK: number, scale: number): NonNullable<GenKernel['check']> {
  return (read) => {
    const { o, scale: sc } = attentionSeqReference(qkv, H, S, DK, scale);
    // padding tokens' outputs are don't-care: compared as exact
    const got = Float64Array.from(read('attn_hbm'));
    for (let k = 0; k < got.length; k++) if (Number.isNaN(o[k]!)) got[k] = o[k] = sc[k] = 0;
    return { ...errorOf(got, o, sc), bound: ATTN_SEQ_BOUND, what: 'max |O - ref| / sum_j p_j |v_j| over the valid tokens (normwise, per element)' };
  };
}

/**
 * float64 causal attention over S tokens per head in the kernel's layouts: O[b, DK h + f, t] = sum_{j <= i} p_ij V[j, f],
 * p = softmax over keys j <= i (i = 128 b + t < S) of scale * q_i . k_j; also sum_j p_ij |V[j, f]| (the normwise
 * scale). Padding tokens (i >= S) are NaN in both.
 */
export function attentionSeqReference(qkv: ArrayLike<number>, H: number, S: number, DK: number, scale: number): { o: Float64Array; scale: Float64Array } {
  const NB = Math.ceil(S / 128);
  const at = (hb: number, f: number, tok: number) => qkv[((hb * NB + Math.floor(tok / 128)) * DK + f) * 128 + (tok % 128)]!;
  const o = new Float64Array(NB * DK * H * 128).fill(NaN);
  const sc = new Float64Array(o.length).fill(NaN);
  const s = new Float64Array(S);
  for (let h = 0; h < H; h++)
    for (let i = 0; i < S; i++) {
      let m = -Infinity;
      for (let j = 0; j <= i; j++) {
        let d = 0;
        for (let f = 0; f < DK; f++) d += at(h, f, i) * at(H + h, f, j);
        s[j] = d * scale;
        m = Math.max(m, s[j]!);
      }
      let sum = 0;
      for (let j = 0; j <= i; j++) sum += Math.exp(s[j]! - m);
      const row = (f: number) => (Math.floor(i / 128) * H * DK + h * DK + f) * 128 + (i % 128);
      for (let f = 0; f < DK; f++) o[row(f)] = sc[row(f)] = 0;
      for (let j = 0; j <= i; j++) {
        const pj = Math.exp(s[j]! - m) / sum;
        for (let f = 0; f < DK; f++) {
          const v = at(2 * H + h, f, j);
          o[row(f)]! += pj * v;
          sc[row(f)]! += pj * Math.abs(v);
        }
      }
    }
  return { o, scale: sc };
}
