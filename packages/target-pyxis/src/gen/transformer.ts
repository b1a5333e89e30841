/**
 * Chip-scale sample: a transformer decoder layer chained end to end in ONE image (docs/generators.md "Transformer
 * layer"): one input x and one set of weights; every stage reads the previous stage's output from HBM.
 *
 * Layout: every activation is stored feature-major per block of 128 tokens, [S/128, F, 128] (token block, feature,
 * token) = the column blocks of X^T. A linear layer Y = X W is computed as Y^T = W^T X^T: A = W^T (the weights, row
 * major), B = X^T in exactly that layout ([N/128, K, 128] with N = S, K = F_in), and C = Y^T comes out in the same
 * layout ([N/128, M, 128], M = F_out), so the stages chain by addressing, with no host copy:
 *   ln1    LayerNorm over d_model (gen/colnorm.ts)            x (RFP16) -> h1 (RFP8)
 *   qkv    [Q|K|V]^T = W_qkv^T h1^T  -> qkv [3D/128, S/128, 128, 128] (feature block major; RFP8 by the write path's
 *          16b->8b converter, chip §6.2.2.2)
 *   attn   causal attention per head over all the tokens (gen/attnchain.ts): Q/K/V and head slices are H2A slices of
 *          qkv; the heads' O^T land in their rows of attn (the concat)      -> attn (RFP8)
 *   wo     y1^T = W_o^T attn^T + x^T (InMemAdd, chip §7.4.1)   -> y1 (RFP16 EB -15)
 *   ln2    LayerNorm                                          -> h2 (RFP8)
 *   ffn1   g^T = GELU([W_1^T | b_1] [h2^T; 1]) (the bias as one more K block; GELU by the LUT on the VPU)  -> g (RFP8)
 *   ffn2   out^T = W_2^T g^T + y1^T (InMemAdd)                  -> out (RFP16 EB -15)
 * Between two stages a no-op trip waits for every store of the earlier stage and every load of the later stage waits
 * for it (generated barriers, docs/linker.md "Dependencies"). The format conversions FP16 -> FP8 are done in the write
 * path (16b->8b converter, EB_Adj_FP8, §6.2.2.2); FP8 -> FP16 for the VPU in the read path (§6.2.1.4).
 */
import { GenError, chipLimits, requireInt, requireMultiple, workers } from './errors.js';
import { ATTN_MAX_BLOCKS, attnChain } from './attnchain.js';
import { ATTN_SEQ_MAX_DK } from './attnSeq.js';
import { colNorm, COLNORM_MAX_D } from './colnorm.js';
import { gemm } from './gemm.js';
import { LnsI4F3, RFP8, log2linFraction } from '@pyxis/formats';
import { floatValues, rng } from './inputs.js';
import type { GenKernel } from './kernel.js';
import { mergeParts, pushTrip, qkey, renderLd, type LdParts } from './ldparts.js';
import { errorOf, gelu64 } from './reference.js';

export interface TransformerParams {
  seq?: number;
  dModel?: number;
  heads?: number;
  ffn?: number;
  clusters?: number[];
  uies?: number;
  seed?: number;
}

/** The layer's weights in the "x W" convention (W [in, out] row-major), as float32 values exact in their formats. */
export interface LayerWeights {
  x: Float32Array; // [S, D]
  wq: Float32Array; wk: Float32Array; wv: Float32Array; wo: Float32Array; // [D, D]
  w1: Float32Array; // [D, F]
  b1: Float32Array; // [F]
  w2: Float32Array; // [F, D]
  /** LayerNorm affines [D]: ln1 (gamma1, beta1) before the QKV projection, ln2 (gamma2, beta2) before the FFN. */
  gamma1: Float32Array; beta1: Float32Array; gamma2: Float32Array; beta2: Float32Array;
}

/**
 * The value of B's second bias row: the bias's lo part is stored as lo / LO_ROW so that it stays inside LnsI4F3's range
 * (2^16 below the largest value the tensor's EB holds, operandEb: a rest of a few 1e-4 of a large bias would flush to
 * zero; at the former fixed EB -12 the range ended at 2^-11.875); 2^-6 is exact in RFP8 and in LnsI5F10,
 * so the grid's product lo' x 2^-6 only shifts the log.
 */
const LO_ROW = 2 ** -6;

/**
 * A = W'^T with the LayerNorm affine and a per-output scale folded in, and the bias as one more K block:
 * A[j, D] = hi_j, A[j, D + 1] = lo_j / LO_ROW, where hi + lo = s_j (bias[j] + sum_d beta[d] W[d, j]) split into two
 * LnsI4F3 values (hi the nearest code, lo the nearest code of the rest): B carries the rows 1 and LO_ROW after its D
 * features, so the grid adds hi + lo. W [D, n] ("x W" convention); returns [n, D + 128].
 * gamma, s and W are powers 2^(k/8) here, so their products are exact LnsI4F3 codes (a log addition); lo is the rest
 * after hi as the LLC antilogs it (hi x 1.0 keeps hi's log fraction F, which leaves the grid as 1 + F + delta(F), chip
 * §4.7: up to 0.32% off 2^F), so hi + lo is within ~2^-8 relative of the folded bias (lo's own 3-bit log rounding,
 * <= 2^(1/16) - 1 = 4.4% of a rest that is <= 4.4% of the bias).
 */
function foldAffine(W: Float32Array, D: number, n: number, gamma: Float32Array, beta: Float32Array, bias: Float32Array | undefined, scale: (j: number) => number): Float32Array {
  const K = D + 128;
  const a = new Float32Array(n * K);
  // the nearest LnsI4F3 value in the log domain, at an EB that puts v mid-range (the code's EB is chosen afterwards
  // from max |A|, operandEb: the rounding of a value in range does not depend on it)
  const near = (v: number) => {
    if (v === 0) return 0;
    const eb = Math.floor(Math.log2(Math.abs(v))) - 8;
    return LnsI4F3.decode(LnsI4F3.encode(v, { eb }), eb);
  };
  // the linear value the grid accumulates for an LnsI4F3 value times 1.0: 2^I (1 + F + delta(F)) (chip §4.7)
  const antilog = (v: number) => {
    if (v === 0) return 0;
    const l = Math.round(Math.log2(Math.abs(v)) * 8);
    const i = Math.floor(l / 8);
    return Math.sign(v) * 2 ** i * (1 + log2linFraction((l - 8 * i) * 128) / 1024);
  };
  for (let j = 0; j < n; j++) {
    const sj = scale(j);
    let b = bias ? bias[j]! : 0;
    for (let d = 0; d < D; d++) {
      const w = W[d * n + j]!;
      a[j * K + d] = sj * gamma[d]! * w;
      b += beta[d]! * w;
    }
    b *= sj;
    const hi = near(b);
    a[j * K + D] = hi;
    a[j * K + D + 1] = near((b - antilog(hi)) / LO_ROW);
  }
  return a;
}

/**
 * EB of a weight operand: the smallest integer EB at which `fmt` holds max |a| (the linker's rule for weight databases,
 * `fittedEb`, docs/spec-notes.md). The grid accumulates at EB_MNS = EB_A + EB_B + 16 and MNS flushes a sum below
 * 2^EB_MNS to zero (chip §4.6), so EB_A must be as low as the largest weight allows: at a fixed EB -12 (EB_MNS -8) the
 * per-cycle sums of small weights (the Q rows, scaled by 1/sqrt(d_k)) flushed (docs/generators.md "Transformer layer").
 */
export function operandEb(fmt: { decode(code: number, eb?: number): number }, a: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]!));
  if (!(max > 0)) return -12;
  const top = fmt.decode(0x7f, 0); // the largest magnitude code of an 8-bit sign-magnitude format (S + 7 bits)
  let eb = Math.ceil(Math.log2(max / top));
  if (top * 2 ** (eb - 1) >= max) eb--;
  else if (top * 2 ** eb < max) eb++;
  return eb;
}

/** LayerNorm gains 2^(k/8), k in -4..4: exact LnsI4F3 factors of the folded weights. */
function gammas(n: number, seed: number): Float32Array {
  const r = rng(seed);
  return Float32Array.from({ length: n }, () => 2 ** ((Math.floor(r() * 9) - 4) / 8));
}

/** An activation [S/128, D + 128, 128] whose rows D and D + 1 are 1 and LO_ROW (the bias rows of the next GEMM's B; the LayerNorm writes rows 0..D-1). */
function onesRows(NB: number, D: number): Float32Array {
  const t = new Float32Array(NB * (D + 128) * 128);
  for (let b = 0; b < NB; b++) {
    t.fill(1, (b * (D + 128) + D) * 128, (b * (D + 128) + D + 1) * 128);
    t.fill(LO_ROW, (b * (D + 128) + D + 1) * 128, (b * (D + 128) + D + 2) * 128);
  }
  return t;
}

/** [rows, cols] -> its transpose. */
function transpose(a: Float32Array, rows: number, cols: number): Float32Array {
  const t = new Float32Array(a.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c]!;
  return t;
}

/**
 * fan_in E[w^2] of every generated weight matrix: the gain of a linear layer on unit-variance inputs (var(out) = gain x
 * var(in)). 1.75 = 4 x 0.4375 is what ±2^e, e uniform in [hi - 2, hi], gives at 2^hi = 2/sqrt(fan_in) (E[w^2] =
 * 0.4375 x 4^hi), i.e. at fan-ins 256, 1024, 4096, where that is a power of two.
 */
export const WEIGHT_GAIN = 1.75;

/**
 * Weights ±2^e, e uniform in [hi - 2, hi] or (with probability 1 - t) one lower, with hi and t chosen so that fan_in
 * E[w^2] = WEIGHT_GAIN at every fan-in (activations of the same order at every size: the scores' spread, which scales
 * with the gain (q and k each with its square root), sets how much the softmax amplifies the FP8 rounding of q and k, docs/generators.md
 * "Transformer layer"). Rounding 2/sqrt(fan_in) to a power of two instead made the gain 0.5..1.5 x the default's
 * (d-model 384: 2^-3 = 1.22 x 2/sqrt(384), scores 1.5 x sharper). Powers of two are exact in RFP8 and in the LnsI5F3
 * the horizontal (A) path converts them to (chip §6.2.4.4), so the float64 reference multiplies exactly what the grid
 * multiplies. At fan-ins 256, 1024, 4096 t = 1 and the values are those of the plain draw.
 */
function weights(n: number, fanIn: number, seed: number): Float32Array {
  const ratio = WEIGHT_GAIN / fanIn / 0.4375; // = 4^hi t + 4^(hi - 1) (1 - t)
  const hi = Math.ceil(Math.log2(ratio) / 2);
  const t = Math.min(1, (ratio / 4 ** hi - 0.25) / 0.75);
  const v = floatValues(n, seed, 0, hi - 2, hi);
  if (t < 1) {
    const r = rng(seed ^ 0x5bd1e995); // a stream of its own: at t = 1 the draw above is unchanged
    for (let i = 0; i < n; i++) if (r() >= t) v[i]! /= 2;
  }
  return v;
}

export function transformer(p: TransformerParams): GenKernel & { weights: LayerWeights; notes: string[]; scale: number } {
  const S = requireInt('seq', p.seq ?? 512, 1, 4096);
  if (S > 128 * ATTN_MAX_BLOCKS) throw new GenError('GEN0011', 'seq', `at most ${128 * ATTN_MAX_BLOCKS} tokens (got ${S}): a query block attends to at most ${ATTN_MAX_BLOCKS} key blocks of 128 tokens: the combine trip holds one weight per key block in a VPU register (16 GPRs, chip §6.4)`);
  const D = requireInt('d-model', p.dModel ?? 1024, 128, COLNORM_MAX_D);
  const H = requireInt('heads', p.heads ?? 8, 1, 128);
  const F = requireInt('ffn', p.ffn ?? 4096, 128, 32768);
  requireMultiple('d-model', D, 128, 'the GEMM tiles are 128 wide');
  requireMultiple('ffn', F, 128, 'the GEMM tiles are 128 wide');
  // d_k = d-model / heads: the key-block flow's limits (gen/attnSeq.ts, GEN0060)
  if (D % H !== 0 || (D / H) % 8 !== 0) throw new GenError('GEN0003', 'heads', `d-model / heads (d_k) must be an integer multiple of 8 (got ${D} / ${H} = ${+(D / H).toFixed(2)}): seq §1.2 rule 3, the inner dimension of the scores MatMul`);
  const DK = D / H;
  const RP = 128 * Math.ceil(DK / 128); // V^T rows: whole 128-row tiles of the row-shifted operand
  if (DK > ATTN_SEQ_MAX_DK) throw new GenError('GEN0060', 'heads', `d-model / heads (d_k) must be at most ${ATTN_SEQ_MAX_DK} (got ${D} / ${H} = ${DK}): a P V trip computes one 128-row grid tile of O^T (seq §9.3) from its own copy of P^T in a Vbuffer FIFO tile (seq §13.1), and the scores trip writes at most ${ATTN_SEQ_MAX_DK / 128} copies (seq §13.3); use more heads`);
  const cl = p.clusters ?? [0, 1, 2, 3];
  const ws = workers(cl, p.uies ?? 12);
  const seed = p.seed ?? 1;
  // a token block is the 128 lanes of the VPU and the 128 grid columns: a sequence that is not a multiple of 128 is
  // padded with zero tokens after the real ones (the causal mask keeps them out of every real token's attention; the
  // norms and the MLP on pad tokens are don't-care, left out of the check and the FLOPs)
  const NB = Math.ceil(S / 128);
  const SP = NB * 128;
  const lim = chipLimits();

  // AMEM per cluster: the small buffers of the norm and attention stages and the bias rows first, the rest shared by
  // the four GEMMs in proportion to what their double buffers need (a GEMM keeps operands resident when they fit)
  const perCluster = ws.filter((x) => x.cluster === cl[0]).length;
  const gemmNeed = (K: number, c8: boolean) => perCluster * 2 * (128 * K + K * 128 + 128 * 128 * (c8 ? 1 : 2));
  const needs = [gemmNeed(D + 128, true), gemmNeed(D, false), gemmNeed(D + 128, true), gemmNeed(F, false)];
  const fixed = 2 * Math.ceil(NB / cl.length) * ((D + 512) * 256 + D * 128) + Math.ceil(H / cl.length) * NB * (3 * 128 * DK + NB * ((RP + 2) * 256 + 128 * DK) + 128 * (RP - DK)) + (128 % DK ? 3 * (Math.ceil(D / 128 / cl.length) + 2) * NB * 16384 : 0) + F * 256 + 2 * 1024 * 1024;
  const total = lim.amemBytes - fixed;
  const sumNeed = needs.reduce((a, b) => a + b, 0);
  if (sumNeed > total) throw new GenError('GEN0008', 'd-model, ffn, uies', `the double-buffered GEMM tiles of the layer (${perCluster} UIE(s) per cluster, K up to ${Math.max(D + 128, F)}) need ${sumNeed} bytes of AMEM per cluster next to ${fixed} for the other stages (limit ${lim.amemBytes}, chip §7); use a smaller d-model / ffn or fewer UIEs per cluster`);
  const budget = needs.map((n) => n + Math.floor(((total - sumNeed) * n) / sumNeed));

  // one set of inputs: x (FP16-exact, EB -15) and the weights (FP8-exact, EB -12), b1 (FP16-exact)
  const x = floatValues(S * D, seed, 10, -3, 1);
  const w: LayerWeights = {
    x,
    wq: weights(D * D, D, seed + 1), wk: weights(D * D, D, seed + 2), wv: weights(D * D, D, seed + 3), wo: weights(D * D, D, seed + 4),
    w1: weights(D * F, D, seed + 5), b1: floatValues(F, seed + 6, 0, -5, -3), w2: weights(F * D, F, seed + 7),
    // gamma = 2^(k/8), k in -4..4 ([0.71, 1.41], exact LnsI4F3 factors), beta = ±2^e, e in -4..-2
    gamma1: gammas(D, seed + 8), beta1: floatValues(D, seed + 9, 0, -4, -2),
    gamma2: gammas(D, seed + 10), beta2: floatValues(D, seed + 11, 0, -4, -2),
  };
  // x^T per token block: [S/128, D, 128]
  const xT = new Float32Array(SP * D);
  for (let b = 0; b < NB; b++) for (let d = 0; d < D; d++) for (let t = 0; t < 128 && b * 128 + t < S; t++) xT[(b * D + d) * 128 + t] = x[(b * 128 + t) * D + d]!;
  // W_qkv [D, 3D] = [W_q W_k W_v]; A = W'_qkv^T [3D, D + 128] with gamma1, beta1 folded and the attention scale
  // 1/sqrt(d_k) (2^-3.5 at d_k 128) folded into the Q rows: exact in LnsI4F3 (a log shift of 28/8; RFP8 cannot hold
  // 2^-3.5 and an FP16 multiply on the VPU would round the constant and every score), free of VPU cycles (the
  // attention is VPU-bound); a d_k that is not a power of two gets the nearest LnsI4F3 value (attnScale)
  const wqkv = new Float32Array(D * 3 * D);
  for (let d = 0; d < D; d++) {
    wqkv.set(w.wq.subarray(d * D, (d + 1) * D), d * 3 * D);
    wqkv.set(w.wk.subarray(d * D, (d + 1) * D), d * 3 * D + D);
    wqkv.set(w.wv.subarray(d * D, (d + 1) * D), d * 3 * D + 2 * D);
  }
  const qScale = attnScale(DK);
  const wqkvA = foldAffine(wqkv, D, 3 * D, w.gamma1, w.beta1, undefined, (j) => (j < D ? qScale : 1));

  // the FFN bias (b_1 + beta2 W_1, gamma2 folded into W_1) as one more K block: A = [diag(gamma2) W_1 | hi lo 0..]^T
  // [F, D + 128], B = h2 with rows of ones at D, D + 1 (preset in HBM; ln2 writes rows 0..D-1): the grid adds the
  // bias and the VPU epilogue is the GELU alone, with no bias trips serialising the tiles
  const w1Aug = foldAffine(w.w1, D, F, w.gamma2, w.beta2, w.b1, () => 1);
  const woT = transpose(w.wo, D, D);
  const w2T = transpose(w.w2, F, D);
  const ebs = { qkv: operandEb(LnsI4F3, wqkvA), wo: operandEb(RFP8, woT), ffn1: operandEb(LnsI4F3, w1Aug), ffn2: operandEb(RFP8, w2T) };
  const common = { clusters: cl, uies: p.uies ?? 12 };
  const stages: Array<{ label: string; kernel: GenKernel }> = [
    { label: `ln1: LayerNorm over ${D} (${NB} token blocks)`, kernel: colNorm({ name: 'ln1', d: D, s: SP, prefix: 'ln1_', xTensor: 'x_hbm', yTensor: 'h1_hbm', yRows: D + 128, ws }) },
    { label: `qkv: ${3 * D} x ${D}+128 x ${S} -> FP8`, kernel: gemm({ name: 'qkv', m: 3 * D, k: D + 128, n: SP, ...common, chain: { prefix: 'qkv_', a: wqkvA, aLns: true, aEb: ebs.qkv, bTensor: 'h1_hbm', cTensor: 'qkv_hbm', cFp8: true, cBlocks: true, amemBudget: budget[0]! } }) },
  ];
  const attn = attnChain({ name: 'attn', prefix: 'at_', s: SP, d: D, heads: H, qkvTensor: 'qkv_hbm', outTensor: 'attn_hbm', ws, scaleLog2: 0 });
  stages.push(
    { label: `attn: ${H} head(s) x ${NB} query block(s), causal over ${S} tokens`, kernel: attn },
    { label: `wo: ${D} x ${D} x ${S} + x (InMemAdd)`, kernel: gemm({ name: 'wo', m: D, k: D, n: SP, residual: true, ...common, chain: { prefix: 'wo_', a: woT, aEb: ebs.wo, bTensor: 'attn_hbm', rTensor: 'x_hbm', cTensor: 'y1_hbm', cFp8: false, amemBudget: budget[1]! } }) },
    { label: `ln2: LayerNorm over ${D}`, kernel: colNorm({ name: 'ln2', d: D, s: SP, prefix: 'ln2_', xTensor: 'y1_hbm', yTensor: 'h2_hbm', yRows: D + 128, ws }) },
    { label: `ffn1: GELU(${F} x ${D}+128 x ${S}) -> FP8`, kernel: gemm({ name: 'ffn1', m: F, k: D + 128, n: SP, epilogue: 'gelu', ...common, chain: { prefix: 'f1_', a: w1Aug, aLns: true, aEb: ebs.ffn1, bTensor: 'h2_hbm', cTensor: 'g_hbm', cFp8: true, amemBudget: budget[2]! } }) },
    { label: `ffn2: ${D} x ${F} x ${S} + y1 (InMemAdd)`, kernel: gemm({ name: 'ffn2', m: D, k: F, n: SP, residual: true, ...common, chain: { prefix: 'f2_', a: w2T, aEb: ebs.ffn2, bTensor: 'g_hbm', rTensor: 'y1_hbm', cTensor: 'out_hbm', cFp8: false, amemBudget: budget[3]! } }) },
  );

  // inter-stage barriers: a no-op trip on the first UIE's queue waits for every store of stage s-1; every H2A trip of
  // stage s that reads an activation waits for it (the linker merges and splits the barriers: counts <= 31, <= 8 notifies, docs/linker.md)
  const joinQ = qkey('uie', ws[0]!.cluster, ws[0]!.uie);
  const partsList: LdParts[] = [];
  stages.forEach((st, s) => {
    const parts = st.kernel.parts!;
    const joined: LdParts = { decls: parts.decls, queues: new Map(), deps: [...parts.deps] };
    if (s > 0) {
      const prev = stages[s - 1]!.kernel.parts!;
      const stores = [...prev.queues].filter(([k]) => k.startsWith('a2h')).flatMap(([, t]) => t.map((x) => /trip (\S+)/.exec(x)![1]!));
      pushTrip(joined, joinQ, `  trip join${s} { after = [${stores.join(', ')}]; }`);
      // the weights (A operands, static) load early: only the loads of earlier stages' outputs wait for the join
      for (const [k, trips] of parts.queues) if (k.startsWith('h2a')) for (const t of trips) if (!/src = \S*_a_hbm\[/.test(t)) joined.deps.push(`${/trip (\S+)/.exec(t)![1]} after join${s};`);
    }
    for (const [k, trips] of parts.queues) for (const t of trips) pushTrip(joined, k, t);
    partsList.push(joined);
  });
  const merged = mergeParts(partsList);
  // H2A order per cluster: the cluster-resident weight loads of stage s (no dependencies, buffers of their own) go
  // before the loads of stage s-1 (after them for the first stage), so that they stream in while stages s-2 and s-1
  // compute instead of waiting behind the join of stage s-1: L0 W1 W2 L1 W3 L2 ... (L = activation loads, W = weights)
  const stageOf = (t: string) => PREFIXES.findIndex((x) => t.startsWith(`  trip ${x}`));
  for (const [k, trips] of merged.queues)
    if (k.startsWith('h2a')) {
      const w = (t: string) => /trip \S+_lda_c\d/.test(t);
      const L = PREFIXES.map((_, i) => trips.filter((t) => stageOf(t) === i && !w(t)));
      const W = PREFIXES.map((_, i) => trips.filter((t) => stageOf(t) === i && w(t)));
      const order = [...L[0]!, ...W[0]!, ...W[1]!];
      for (let i = 1; i < PREFIXES.length; i++) order.push(...(W[i + 1] ?? []), ...L[i]!);
      if (order.length !== trips.length) throw new Error('transformer: an H2A trip of no stage');
      merged.queues.set(k, order);
    }
  merged.decls.push(`tensor x_hbm { format = RFP16; shape = [${NB}, ${D}, 128]; eb = -15; region = hbm; data = "x.npy"; }`);
  merged.decls.push(`tensor h1_hbm { format = RFP8; shape = [${NB}, ${D + 128}, 128]; eb = -12; region = hbm; data = "ones.npy"; }`);
  merged.decls.push(`tensor h2_hbm { format = RFP8; shape = [${NB}, ${D + 128}, 128]; eb = -12; region = hbm; data = "ones.npy"; }`);
  const notes = [
    `transformer layer, chained in one image: seq ${S}${SP !== S ? ` (padded to ${SP}: zero tokens after the real ones, outside the check and the FLOPs)` : ''}, d_model ${D}, ${H} head(s) (d_k ${DK}), FFN ${F}; FP8 GEMM operands, FP16 residual stream; ${cl.length} cluster(s) x ${p.uies ?? 12} UIE(s)`,
    `LayerNorm gamma and beta folded into the next linear layer (W' = diag(gamma) W, bias' = beta W + bias, LnsI4F3 weights); attention scale ${DK & (DK - 1) ? `2^(${Math.round(-4 * Math.log2(DK))}/8), the LnsI4F3 value nearest 1/sqrt(${DK}),` : `1/sqrt(${DK})`} folded into W_q (exact in LnsI4F3); causal attention over all ${S} tokens (a query block against its ${NB > 1 ? `1..${NB}` : 'one'} key block(s), softmax over all of them) (docs/generators.md "Transformer layer")`,
  ];
  const pasm = stages.map((s) => s.kernel.pasm).join('\n');
  const ld = renderLd(`/*\n * Generated by pyxis-gen transformer (docs/generators.md "Transformer layer"): ${notes[0]}.\n * Stages: ${stages.map((s) => s.label).join('; ')}.\n */`, merged);
  const luts = [...new Map(stages.flatMap((s) => s.kernel.luts).map((l) => [l.file, l])).values()];
  const inputs: GenKernel['inputs'] = [{ file: 'x.npy', shape: [NB, D, 128], data: xT }, { file: 'ones.npy', shape: [NB, D + 128, 128], data: onesRows(NB, D) }, ...stages.flatMap((s) => s.kernel.inputs)];
  // FLOPs of the real tokens only: the GEMMs' columns S of SP; the attention's query rows S of SP in the last query
  // block, which meets all NB key blocks (2 x 128 x 128 x (d_k + V^T rows) per key block and head, attnchain.ts)
  const realFlops = stages.map((st, i) => {
    const f = st.kernel.meta.flops;
    if (SP === S || f === 0) return f;
    if (PREFIXES[i] !== 'at_') return (f * S) / SP;
    return f - (H * NB * 2 * 128 * 128 * (DK + RP) * (SP - S)) / 128;
  });
  const flops = realFlops.reduce((a, f) => a + f, 0);
  // the closures are made outside this function: a closure made here would hold this scope's context, with the
  // stages' input arrays (~20 bytes per weight), through the whole simulation (measured: docs/generators.md)
  const check = layerCheck(w, S, D, H, F);
  // the stage table (the FLOP split by precision, gen/precision.ts, and the --run stage spans, gen/stages.ts)
  const stageTable = stages.map((st, i) => ({ name: st.label.split(':')[0]!, label: st.label, prefix: PREFIXES[i]!, flops: realFlops[i]! }));
  return {
    name: 'transformer',
    stages: stageTable,
    pasm,
    ld,
    parts: merged,
    inputs,
    luts,
    check,
    notes,
    weights: w,
    scale: qScale,
    meta: {
      kind: 'transformer', seq: S, dModel: D, heads: H, ffn: F, dtype: 'fp8', flops,
      hbmBytes: stages.reduce((a, s) => a + s.kernel.meta.hbmBytes, 0),
      outputs: ['out_hbm'],
      stages: stages.map((s) => s.label),
      layout: { out_hbm: `[${NB}, ${D}, 128] RFP16 EB -15: token block, feature, token (out^T per block)` },
      workers: ws.map((x) => `c${x.cluster}.uie${x.uie}`),
    },
  };
}

/** The `--run` check: the layer output against a float64 layer of the model (holds the model weights only). */
function layerCheck(w: LayerWeights, S: number, D: number, H: number, F: number): NonNullable<GenKernel['check']> {
  const NB = Math.ceil(S / 128);
  return (read) => {
    const ref = layerReference(w, S, D, H, F);
    const got = read('out_hbm');
    // out_hbm is [ceil(S/128), D, 128] (pad tokens after the S real ones: not compared); the reference is [S, D]
    const g = new Float64Array(S * D);
    for (let b = 0; b < NB; b++) for (let d = 0; d < D; d++) for (let t = 0; t < 128 && b * 128 + t < S; t++) g[(b * 128 + t) * D + d] = got[(b * D + d) * 128 + t]!;
    let ss = 0;
    for (const v of ref) ss += v * v;
    const rms = Math.sqrt(ss / ref.length);
    const e = errorOf(g, ref, new Float64Array(ref.length).fill(rms));
    return { ...e, bound: transformerMaxBound(D / H), rmsBound: TRANSFORMER_BOUND.rms, what: 'max |out - ref| / RMS(ref) over the layer output (float64 reference of the same x and weights)' };
  };
}

/**
 * The attention score scale of the layer: 1/sqrt(d_k) rounded to the nearest power of 2^(1/8) (the LnsI4F3 weights'
 * log step, 3 fraction bits), so that folding it into W_q is exact; = 1/sqrt(d_k) when d_k is a power of two, within
 * 2^(1/16) (4.4 %) otherwise (docs/spec-notes.d/attn.md).
 */
export function attnScale(dk: number): number {
  return 2 ** (Math.round(-4 * Math.log2(dk)) / 8);
}

/** Trip and tensor name prefixes of the stages, in order. */
const PREFIXES = ['ln1_', 'qkv_', 'at_', 'wo_', 'ln2_', 'f1_', 'f2_'];

/** Documented end-to-end bounds (docs/generators.md "Transformer layer"): max |out - ref| / RMS(ref) and the RMS relative error. */
export const TRANSFORMER_BOUND = { max: 0.5, rms: 0.08 };

/**
 * The max bound at head dimension d_k: 0.5 up to 128, 0.5 sqrt(d_k / 128) above (to 2 decimals, rounded down). The tail of the layer's error is an
 * ill-conditioned softmax row (keys of near-equal scores and different values) whose error lands on all d_k
 * features of its head at once; through W_o the output error of that token grows with the norm of that error vector,
 * sqrt(d_k) (docs/generators.md "Transformer layer", "Error bound").
 */
export function transformerMaxBound(dk: number): number {
  return Math.floor(100 * TRANSFORMER_BOUND.max * Math.sqrt(Math.max(1, dk / 128))) / 100; // 2 decimals, rounded down: 0.86 at 384
}

/** float64 layer (token-major) for the CLI's --run check; the test carries its own. */
export function layerReference(w: LayerWeights, S: number, D: number, H: number, F: number): Float64Array {
  const scale = attnScale(D / H);
  const mm = (a: ArrayLike<number>, b: ArrayLike<number>, m: number, k: number, n: number) => {
    const c = new Float64Array(m * n);
    for (let i = 0; i < m; i++) for (let q = 0; q < k; q++) {
      const x = a[i * k + q]!;
      if (x === 0) continue;
      for (let j = 0; j < n; j++) c[i * n + j]! += x * b[q * n + j]!;
    }
    return c;
  };
  const ln = (x: Float64Array, gamma: Float32Array, beta: Float32Array) => {
    const y = new Float64Array(x.length);
    for (let i = 0; i < S; i++) {
      let m = 0;
      for (let d = 0; d < D; d++) m += x[i * D + d]!;
      m /= D;
      let v = 0;
      for (let d = 0; d < D; d++) v += (x[i * D + d]! - m) ** 2;
      const r = 1 / Math.sqrt(v / D + 2 ** -14);
      for (let d = 0; d < D; d++) y[i * D + d] = (x[i * D + d]! - m) * r * gamma[d]! + beta[d]!;
    }
    return y;
  };
  const x = Float64Array.from(w.x);
  const h1 = ln(x, w.gamma1, w.beta1);
  const q = mm(h1, w.wq, S, D, D);
  const k = mm(h1, w.wk, S, D, D);
  const v = mm(h1, w.wv, S, D, D);
  const attn = new Float64Array(S * D);
  const dk = D / H;
  for (let h = 0; h < H; h++)
    for (let i = 0; i < S; i++) {
      const j0 = 0;
      const s: number[] = [];
      for (let j = j0; j <= i; j++) {
        let dot = 0;
        for (let c = 0; c < dk; c++) dot += q[i * D + h * dk + c]! * k[j * D + h * dk + c]!;
        s.push(dot * scale);
      }
      const m = Math.max(...s);
      const z = s.reduce((a, b) => a + Math.exp(b - m), 0);
      s.forEach((sv, jj) => {
        const pj = Math.exp(sv - m) / z;
        for (let c = 0; c < dk; c++) attn[i * D + h * dk + c]! += pj * v[(j0 + jj) * D + h * dk + c]!;
      });
    }
  const y1 = mm(attn, w.wo, S, D, D);
  for (let i = 0; i < y1.length; i++) y1[i]! += x[i]!;
  const h2 = ln(y1, w.gamma2, w.beta2);
  const g = mm(h2, w.w1, S, D, F);
  for (let i = 0; i < g.length; i++) g[i] = gelu64(g[i]! + w.b1[i % F]!);
  const out = mm(g, w.w2, S, F, D);
  for (let i = 0; i < out.length; i++) out[i]! += y1[i]!;
  return out;
}
