/**
 * GEMM generator: C[M, N] = epilogue(A[M, K] x B[K, N]) (+ R), FP8 or FP16, tiled in 128 x 128 output tiles over a
 * set of UIEs and clusters, operands streamed from HBM with double buffering. The microcode of one tile is that of
 * samples/pyxis/matmul_fp8.pasm (row-shifted A, seq §9.3, §10.1.3), matmul_fp16.pasm (FP16, LnsI5F10 operands) or
 * matmul_transposed_fp8.pasm / matmul_transposed_fp16.pasm (A stored transposed, seq §9.4, §10.1.4; the weights-path
 * programs in gen/gemmTransposed.ts); the VPU epilogue is that of
 * matmul_bias_relu.pasm (chip §6.1.4) and the residual add is conv1x1_residual.pasm's RMW_Add (chip §7.4.1).
 *
 * Schedule (docs/generators.md "GEMM"): tile t = (mi, ni) goes to worker t mod W (workers = UIEs, cluster-minor).
 * Every worker owns two AMEM buffer sets (A, B, C) in its cluster; tile j of a worker uses set j mod 2:
 *   h2a:  load A_j, B_j (and R_j into C_j)      after mm_{j-2} (set free), R after store_{j-2}
 *   uie:  mm_j                                  after the loads of j (and store_{j-2}: C_j is free)
 *   a2h:  store C_j -> HBM                      after mm_j
 * so the H2A loads of tile j+1 overlap the compute of tile j. HBM layouts (all contiguous DMA views, LD0136), for any
 * legal size (M a multiple of 8, K of 8 FP8 / 4 FP16, N any; partial tiles padded, gen/gemmShape.ts):
 *   a_hbm [M, Kp] (row block mi = rows 128 mi.., Kp = K rounded up to a 128-byte Hbuf block), transposed:
 *   at_hbm [MB, K, 128] (block mi = A^T[:, 128 mi..], zero pad columns); b_hbm [NB, K, 128] (column block ni of B,
 *   zero pad columns); c_hbm and r_hbm [NB, M, 128] (column block ni of C; exactly M rows, pad columns in the last).
 */
import { GenError, requireName, chipLimits, requireInt, requireScale, requireMultiple, workers, MAX_TRIPS, type Worker } from './errors.js';
import { floatValues } from './inputs.js';
import type { GenKernel } from './kernel.js';
import { LUT_TABLE, identityWpsw, newParts, pushTrip, qkey, renderLd, type LdParts } from './ldparts.js';
import { errorOf, gelu64, matmul64 } from './reference.js';
import { transposedAPrograms } from './gemmTransposed.js';
import { loadSeq, planTiles, runOf, type Plan } from './gemmPlan.js';
import { TILE, gemmShape, blockRows, paddedColumnBlocks, padColumns, cFromBlocks, type GemmShape } from './gemmShape.js';

export type Epilogue = 'none' | 'bias' | 'relu' | 'bias_relu' | 'gelu' | 'bias_gelu';
export const EPILOGUES: readonly Epilogue[] = ['none', 'bias', 'relu', 'bias_relu', 'gelu', 'bias_gelu'];

export interface GemmParams {
  name?: string;
  m: number;
  k: number;
  n: number;
  dtype?: 'fp8' | 'fp16';
  /** A stored transposed (A^T [K, M]) and transposed by the weights path (FP8 or FP16). */
  transposed?: boolean;
  clusters?: number[];
  /** UIEs per cluster (the first `uies` of each cluster). */
  uies?: number;
  epilogue?: Epilogue;
  /** C = ... + R, by InMemAdd (RMW_Add, chip §7.4.1). */
  residual?: boolean;
  /** Independent GEMMs of the same shape (e.g. attention heads): A [batch*M, K], B [batch, K, N], C [batch, M, N]. */
  batch?: number;
  seed?: number;
  /** Part of a chained layer (gen/transformer.ts): FP8 row-shifted, batch 1, operands shared with other stages. */
  chain?: GemmChain;
  /**
   * AMEM bytes per cluster the kernel may use (default 64 MiB less 1 MiB for descriptor lists). A smaller budget
   * streams A and B through each UIE's double buffers where they would otherwise stay resident in the cluster's AMEM
   * (`--amem-budget`: the streamed flow at a size that simulates in seconds).
   */
  amemBudget?: number;
}

export { TILE } from './gemmShape.js';

/** Bytes of a [rows, cols] tensor: rows padded to 16-byte partitions, 32-byte for 16-bit data (docs/linker.md tensor strides). */
const bytesOf = (rows: number, cols: number, eb: number) => rows * Math.ceil((cols * eb) / (16 * eb)) * 16 * eb;

export function gemm(p: GemmParams): GenKernel {
  const lim = chipLimits();
  const name = p.name ?? 'gemm';
  requireName(name);
  const dtype = p.dtype ?? 'fp8';
  if (dtype !== 'fp8' && dtype !== 'fp16') throw new GenError('GEN0006', 'dtype', `must be fp8 or fp16 (got ${String(dtype)})`, 2);
  const fp16 = dtype === 'fp16';
  const tr = p.transposed ?? false;
  const epi = p.epilogue ?? 'none';
  if (!EPILOGUES.includes(epi)) throw new GenError('GEN0006', 'epilogue', `must be one of ${EPILOGUES.join(', ')} (got ${String(epi)})`, 2);
  // at most MAX_TRIPS tiles (GEN0020): the ranges say so before the size rules
  const M = requireInt('m', p.m, 1, TILE * MAX_TRIPS);
  const N = requireInt('n', p.n, 1, TILE * MAX_TRIPS);
  // the grid's rules, which no padding of ours changes (docs/generators.md "Limits"): output rows in multiples of the 8
  // virtual grid-rows of a grid-row (seq §1.3 rule 4), the inner dimension in multiples of 8 FP8 / 4 FP16 values
  // (seq §1.2 rule 3). Partial 128 x 128 tiles are padded (gen/gemmShape.ts); N is free.
  requireMultiple('m', M, 8, 'seq §1.3 rule 4: a MatMul output has a multiple of 8 data-rows (the 8 virtual grid-rows of an LLC grid-row)');
  const kMul = fp16 ? 4 : 8;
  // loop counts (12 bits, seq §2.1): GX runs K/8 (FP8) or K/4 (FP16) groups; the B read runs K/8 x 8
  const kMax = fp16 ? 4 * lim.maxLoop : 8 * lim.maxLoop;
  const K = requireInt('k', p.k, 1);
  requireMultiple('k', K, kMul, `seq §1.2 rule 3: the inner dimension of a MatMul with an ${fp16 ? 'FP16' : 'FP8'} horizontal operand`);
  requireInt('k', K, kMul, kMax);
  const ws = workers(p.clusters ?? [0], p.uies ?? 1);
  const BT = requireInt('batch', p.batch ?? 1, 1, 4096);
  const sh = gemmShape(BT, M, K, N, fp16, tr);
  const { MB, NB } = sh;
  // input values as written (the padded layouts of gen/gemmShape.ts; = M K + K N (+ M N) for whole tiles)
  if (!p.chain) requireScale('m, n, batch', BT * MB * NB, `${BT} x ${MB} x ${NB} tiles of 128 x 128`, BT * ((tr ? MB * TILE * K : M * sh.Kp) + NB * TILE * K + (p.residual ? NB * TILE * M : 0)));
  const eb = fp16 ? 2 : 1;
  const vpu = epi !== 'none';
  const ch = p.chain;
  if (ch && (fp16 || tr || BT !== 1 || M % TILE || N % TILE || sh.Kp !== K || (ch.biasRows && epi !== 'bias_gelu') || (!ch.biasRows && vpu && epi !== 'gelu'))) throw new GenError('GEN0010', 'chain', 'a chained GEMM is FP8, row-shifted, whole 128 x 128 tiles (K a multiple of 128), batch 1, with no epilogue, GELU, or a per-row bias + GELU');
  const biasBytes = ch?.biasRows ? bytesOf(M, TILE, 2) : vpu ? bytesOf(1, N, 2) : 0;
  // A^T [K, 128] when transposed (rows of 128 values), else A [128, Kp] (rows of whole 128-byte Hbuf blocks)
  const aBytes = tr ? bytesOf(K, TILE, eb) : bytesOf(TILE, sh.Kp, eb);
  const budget = ch?.amemBudget ?? (p.amemBudget === undefined ? undefined : requireInt('amem-budget', p.amemBudget, 1, lim.amemBytes - 1024 * 1024));
  // a resident run of row-shifted A blocks ends after a short last row block (its rows are packed in HBM)
  const plan = planTiles(BT, MB, NB, ws, aBytes, bytesOf(K, TILE, eb), bytesOf(TILE, TILE, ch?.cFp8 ? 1 : 2), biasBytes, budget, (g) => !tr && blockRows(sh, g) < TILE);
  const seed = p.seed ?? 1;
  const fb = fp16 ? 10 : 3;
  // batch x [M, K] and batch x [K, N]; C = batch x [M, N] (batch 1: one GEMM)
  if (ch && ch.a.length !== M * K) throw new GenError('GEN0010', 'chain', `A has ${ch.a.length} values, not M x K = ${M * K}`);
  const a = ch ? ch.a : floatValues(BT * M * K, seed, fb);
  const b = ch ? new Float32Array(0) : floatValues(BT * K * N, seed + 1, fb);
  const inputs: GenKernel['inputs'] = [];
  // A^T [K, M] in column blocks = [MB, K, 128] (the last block's columns past M zero); A itself [M, Kp] (columns past K zero)
  if (tr) {
    const t = new Float32Array(BT * K * M);
    for (let z = 0; z < BT; z++) for (let i = 0; i < M; i++) for (let q = 0; q < K; q++) t[(z * K + q) * M + i] = a[z * M * K + i * K + q]!;
    inputs.push({ file: `${name}_at.npy`, shape: [BT * MB, K, TILE], data: paddedColumnBlocks(t, BT, K, M) });
  } else inputs.push({ file: `${name}_a.npy`, shape: [BT * M, sh.Kp], data: padColumns(a, BT * M, K, sh.Kp) });
  if (!ch) inputs.push({ file: `${name}_b.npy`, shape: [BT * NB, K, TILE], data: paddedColumnBlocks(b, BT, K, N) });
  // reference-layout copies (not linked): the checker's float64 product reads these
  if (!ch) inputs.push({ file: `${name}_ref_a.npy`, shape: BT > 1 ? [BT, M, K] : [M, K], data: a });
  if (!ch) inputs.push({ file: `${name}_ref_b.npy`, shape: BT > 1 ? [BT, K, N] : [K, N], data: b });
  const hasBias = epi.startsWith('bias');
  if (ch?.biasRows) {
    // each output row's bias replicated over the 128 lanes: the VPU adds it row by row from the scratchpad
    const rep = new Float32Array(M * TILE);
    for (let m = 0; m < M; m++) rep.fill(ch.biasRows[m]!, m * TILE, (m + 1) * TILE);
    inputs.push({ file: `${name}_biasrep.npy`, shape: [M, TILE], data: rep });
  } else if (hasBias) inputs.push({ file: `${name}_bias.npy`, shape: [1, N], data: floatValues(N, seed + 2, 10, -2, 2) });
  if (p.residual && !ch) {
    const r = floatValues(BT * M * N, seed + 3, 10, -2, 2);
    inputs.push({ file: `${name}_r.npy`, shape: [BT * NB, M, TILE], data: paddedColumnBlocks(r, BT, M, N) });
    inputs.push({ file: `${name}_ref_r.npy`, shape: BT > 1 ? [BT, M, N] : [M, N], data: r });
  }
  const luts: GenKernel['luts'] = epi.endsWith('gelu') ? [{ file: `${name}_gelu_lut.npy`, fn: 'gelu' }] : [];

  const pasm = gemmPasm(name, sh, fp16, tr, epi, !!p.residual, ch);
  const parts = gemmLd(name, sh, fp16, tr, epi, !!p.residual, ws, plan, luts[0]?.file, ch);
  const tiles = BT * MB * NB;
  const ragged = sh.Mt < TILE || sh.Nt < TILE || sh.Kp !== K ? `\n * partial tiles padded (docs/generators.md "GEMM": ${sh.Mt < TILE ? `last row block ${sh.Mt} rows, pad rows discarded by AMEM Write; ` : ''}${sh.Nt < TILE ? `last column block ${sh.Nt} columns, zero pad columns; ` : ''}${sh.Kp !== K ? `A rows padded to ${sh.Kp} values, GH reads ${K}` : ''}).` : '';
  const header = `/*\n * Generated by pyxis-gen gemm (docs/generators.md): C[${M}, ${N}] = A[${M}, ${K}] x B[${K}, ${N}], ${fp16 ? 'FP16' : 'FP8'}${tr ? ' (A transposed)' : ''}, epilogue ${epi}${p.residual ? ' + R' : ''},\n * ${tiles} tiles of 128 x 128 on ${ws.length} UIE(s); operands in HBM, double-buffered in AMEM.${ragged}\n */`;
  const ld = renderLd(header, parts);
  // bytes the H2A / A2H trips move: A and B loads (reused while a worker's consecutive tiles share them), C stores, R loads
  // (a short last row block moves only its rows: every DMA length here is whole KiB, chip §11.4.3 / §11.4.4)
  const aLoad = (g: number) => (tr ? aBytes : blockRows(sh, g) * sh.Kp * eb);
  const bLoad = bytesOf(K, TILE, eb);
  let hbmBytes = 0;
  plan.jobs.forEach((jobs, i) => {
    const ms = jobs.map((t) => t.mi);
    if (!plan.residentA.has(ws[i]!.cluster)) loadSeq(ms).forEach((x, j) => (hbmBytes += x.first === j ? aLoad(ms[j]!) : 0));
    if (!plan.residentB.has(ws[i]!.cluster)) loadSeq(jobs.map((t) => t.ni)).forEach((x, j) => (hbmBytes += x.first === j ? bLoad : 0));
    for (const t of jobs) hbmBytes += blockRows(sh, t.mi) * TILE * ((ch?.cFp8 ? 1 : 2) + (p.residual ? 2 : 0));
  });
  for (const v of plan.residentA.values()) for (const r of v) for (let g = r.start; g < r.start + r.len; g++) hbmBytes += aLoad(g);
  for (const v of plan.residentB.values()) for (const r of v) hbmBytes += r.len * bLoad;
  const bias = inputs.find((f) => f.file === `${name}_bias.npy`)?.data;
  const resid = inputs.find((f) => f.file === `${name}_ref_r.npy`)?.data;
  const check = (read: (s: string) => Float32Array) => {
    const c = new Float64Array(BT * M * N);
    const abs = new Float64Array(BT * M * N);
    const got = cFromBlocks(read('c_hbm'), sh);
    for (let z = 0; z < BT; z++) {
      const r = matmul64(a.subarray(z * M * K, (z + 1) * M * K), b.subarray(z * K * N, (z + 1) * K * N), M, K, N);
      c.set(r.c, z * M * N);
      abs.set(r.abs, z * M * N);
    }
    for (let i = 0; i < c.length; i++) {
      const bi = bias ? bias[i % N]! : 0;
      let x = c[i]! + bi;
      if (epi.endsWith('relu')) x = Math.max(0, x);
      if (epi.endsWith('gelu')) x = gelu64(x);
      c[i] = x + (resid ? resid[i]! : 0);
      abs[i]! += Math.abs(bi);
    }
    const e = errorOf(got, c, abs);
    // the grid's bound on sum|a b| plus C's flush to zero below its smallest normal 2^(EB + 1) (RFP16 has no
    // subnormals, chip §4.2), which only small K makes visible (docs/generators.md "Error bounds")
    let minAbs = Infinity;
    for (let i = 0; i < abs.length; i++) if (abs[i]! < minAbs) minAbs = abs[i]!;
    const flush = 2 ** ((vpu ? -15 : -8) + 1) / minAbs;
    const bound = Math.ceil(((fp16 ? 0.01 : 0.06) + flush) * 1000) / 1000;
    return { ...e, bound, what: 'max |c - ref| / sum|a b| (normwise, per element)' };
  };
  return {
    name,
    pasm,
    ld,
    parts,
    inputs,
    luts,
    check: ch ? undefined : check,
    meta: {
      kind: 'gemm',
      batch: BT, m: M, k: K, n: N, dtype, transposed: tr, epilogue: epi, residual: !!p.residual,
      workers: ws.map((w) => `c${w.cluster}.uie${w.uie}`),
      tiles,
      flops: 2 * BT * M * N * K,
      hbmBytes,
      outputs: ['c_hbm'],
      layout: { c_hbm: sh.Nt < TILE ? `[${BT > 1 ? 'batch x ' : ''}ceil(N/128), M, 128] column blocks of C (RFP16, eb ${vpu ? -15 : -8}); the last block's columns ${sh.Nt}..127 are pad` : `[N/128, M, 128] column blocks of C (RFP16, eb ${vpu ? -15 : -8})` },
    },
  };
}

/** The microcode of one 128 x 128 x K tile (shared by every trip of the kernel). */
function gemmPasm(nm: string, sh: GemmShape, fp16: boolean, tr: boolean, epi: Epilogue, residual: boolean, ch?: GemmChain): string {
  const K = sh.K;
  const vpu = epi !== 'none';
  const rowBias = !!ch?.biasRows;
  const L: string[] = [];
  const e = (s: string) => L.push(s);
  e(`# Generated by pyxis-gen gemm (packages/target-pyxis/src/gen/gemm.ts; docs/generators.md): one 128 x 128 x ${K} tile,`);
  e(`# ${fp16 ? 'FP16' : 'FP8'} ${tr ? `transposed A (seq §9.4.${fp16 ? 2 : 1}, §10.1.4; samples/pyxis/matmul_transposed_${fp16 ? 'fp16' : 'fp8'}.pasm)` : `row-shifted A (seq §9.3, §10.1.3; samples/pyxis/matmul_${fp16 ? 'fp16' : 'fp8'}.pasm)`},`);
  const aEb = ch?.aEb ?? -12;
  e(`# epilogue ${epi}${residual ? ', residual add by RMW_Add (chip §7.4.1)' : ''}. EBs: ${aEb === -12 ? 'A, B eb -12 -> EB_MNS -8' : `A eb ${aEb}, B eb -12 -> EB_MNS ${aEb + 4}`}${vpu ? `; GWB eb_adj ${gwbEbAdj(aEb)} -> VPU EB -15` : ''}.`);
  e(`.const ${nm}_K = ${K}`);
  const w = fp16 ? 2 : 1;
  if (tr) for (const t of transposedAPrograms(nm, fp16)) e(t);
  else {
    const blk = fp16 ? 64 : 128;
    if (sh.Kp === K) {
      e(`.const ${nm}_KBLK = ${nm}_K / ${blk}            # Hbuf blocks: 128 bytes of each of the 128 rows of A`);
      e(`.const ${nm}_ROW = ${nm}_K / ${16 / w}              # partitions per row of A`);
    } else {
      // K short of a whole Hbuf block: A's rows are stored padded to Kp values; GH reads the last block's K-groups only
      e(`.const ${nm}_KBLK = ${sh.kBlocks}            # Hbuf blocks: 128 bytes of each of the 128 rows of A (rows padded to ${sh.Kp} values)`);
      e(`.const ${nm}_ROW = ${(sh.Kp * w) / 16}              # partitions per stored row of A`);
    }
    e(`# AMEM Weights Read (seq §9.3 table): i0 Hbuf block, i1 VGR in grid-row, i2 grid-row in h-lane pair, i3 h-lane`);
    e(`.program ${nm}_wr amem_weights_read {\n  loop i0 ${nm}_KBLK {\n    loop i1 8 {\n      loop i2 2 {\n        loop i3 8 {\n          Read_SRAM ${fp16 ? 'is_16bit=1 ' : ''}wdc_type=Uncompressed iter_stride[i0]=8 iter_stride[i1]=${nm}_ROW iter_stride[i2]=8*${nm}_ROW iter_stride[i3]=16*${nm}_ROW\n        }\n      }\n    }\n  }\n}`);
    e(`# WDP (seq §9.3): LD_1ROW_16B, 8 partitions per h-lane, ${ch?.aLns ? 'A in LnsI4F3: Lin2Log bypassed (dsbl_mapping_corr=1, chip §6.2.1.5 Table 6-2)' : 'lin2log'}; block = 1024 B`);
    e(`.program ${nm}_wdp wdp {\n  loop i0 ${nm}_KBLK {\n    loop i1 8 {\n      loop i2 2 {\n        loop i3 8 {\n          WR_HBUF ${fp16 ? 'is_16bit=1 ' : ''}hbuf_wr_control=LD_1ROW_16B log2_ptns_per_hlane=3 hlane_iter_id=i3 grip_iter_id=i2 \\\n                  dsbl_mapping_corr=${ch?.aLns ? 1 : 0} eb_adj=0 lin2log_config_vld=1 \\\n                  hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3] \\\n                  hbuf_stride_dim1=16 hbuf_stride_iter_id_dim1=i1\n        }\n      }\n    }\n  }\n}`);
    e(`# GH (seq §10.1.3): i1 octobyte of the 128-byte row, i2 VGR${sh.kLast < 16 ? `; the last block holds ${sh.kLast} octobytes of K (numloops_final, seq §2.1.1)` : ''}`);
    e(`.program ${nm}_gh gh {\n  loop i0 ${nm}_KBLK {\n    loop i1 16${sh.kLast < 16 ? ` final ${sh.kLast} when [i0]` : ''} {\n      loop i2 8 {\n        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_${fp16 ? 'FP16' : 'FP8'} end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \\\n                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \\\n                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2\n      }\n    }\n  }\n}`);
  }
  // B: one row per cycle; FP16 rows are de-interleaved by RPSW entry 0 (chip §7.3.1)
  const g = fp16 ? 4 : 8;
  const sw = fp16 ? ' rpsw_config_vld=1 rpsw_config_idx_base=0' : vpu || ch ? ' rpsw_config_vld=1 rpsw_config_idx_base=1' : '';
  e(`# AMEM Read: row k of B per cycle to the grid (K/${g} x ${g}: 12-bit loop counts)`);
  e(`.program ${nm}_rd amem_read {\n  loop i0 ${nm}_K / ${g} {\n    loop i1 ${g} {\n      Read_SRAM data_type=Recogni_${fp16 ? 'FP16' : 'FP8'} tgt_fifo=Grid${sw} iter_stride[i0]=${g * 8 * w} iter_stride[i1]=${8 * w}\n    }\n  }\n}`);
  if (fp16) {
    e(`# GV (FP16): 4 rows of B per staging, padded with zero rows as in matmul_fp16.pasm`);
    e(`.program ${nm}_gv gv {\n  loop i0 ${nm}_K / 4 {\n    loop i1 3 {\n      Read_Zero conv3x3_mode=0 staging_start_iter_mask=[i1]\n    }\n    loop i1 4 {\n      Read_AMEM_FIFO conv3x3_mode=0 dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0\n    }\n    Read_Zero conv3x3_mode=0\n  }\n}`);
  } else {
    e(`# GV: 8 rows of B per staging`);
    e(`.program ${nm}_gv gv {\n  loop i0 ${nm}_K / 8 {\n    loop i1 8 {\n      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0\n    }\n  }\n}`);
  }
  e(`# GX: K/${g} groups x 8 VGRs; zero on the first group, split + writeback kick after the last (seq §10.3)`);
  e(`.program ${nm}_gx gx {\n  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1\n  loop i0 ${nm}_K / ${g} {\n    loop i1 8 {\n      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \\\n                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]\n    }\n  }\n}`);
  e(`# GWB (seq §11): 16 grid-rows x 8 slots${vpu ? ` to the VPU (EB ${aEb + 4} + ${gwbEbAdj(aEb)} = -15)` : ''}`);
  e(`.program ${nm}_gwb gwb {\n  loop i0 16 {\n    Read_WBA tgt_fifo=${vpu ? 'VPU' : 'AMEM'} diagonal_mask_mode=Disabled eb_adj=${vpu || ch ? gwbEbAdj(aEb) : 0} grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]\n  }\n}`);
  const hasBias = epi.startsWith('bias');
  if (vpu) {
    if (rowBias) {
      e(`# per-row bias (RFP16, row m replicated over the 128 lanes) -> Vbuffer tile 1, scratchpad rows 0..127 (one per output row)`);
      e(`.program ${nm}_bl_rd amem_read {\n  loop i0 128 {\n    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer iter_stride[i0]=16 rpsw_config_vld=1 rpsw_config_idx_base=0\n  }\n}`);
      e(`.program ${nm}_bl_in sb2vb {\n  loop i0 128 {\n    WR_VLD wr_tile_idx=1 src_select=AMEM_FIFO scratchpad_mode=1 scratchpad_count_incr_amt=0 wr_addr_base=0 wr_addr_iter_id=i0 wr_addr_iter_vld=1\n  }\n}`);
    } else if (hasBias) {
      e(`# bias row (FP16, 128 columns) -> Vbuffer tile 1, scratchpad row 0 (matmul_bias_relu.pasm)`);
      e(`.program ${nm}_bl_rd amem_read {\n  Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer rpsw_config_vld=1 rpsw_config_idx_base=0\n}`);
      // the last column block's ${sh.Nt} bias values: the partitions holding them; the lanes past them read as zero (seq §5.1 num_logical_ptns)
      if (sh.Nt < TILE) e(`.program ${nm}_bl_rd_t amem_read {\n  Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer num_logical_ptns=${Math.ceil(sh.Nt / 16)} rpsw_config_vld=1 rpsw_config_idx_base=0\n}`);
      e(`.program ${nm}_bl_in sb2vb {\n  WR_VLD wr_tile_idx=1 src_select=AMEM_FIFO scratchpad_mode=1 scratchpad_count_incr_amt=0 wr_addr_base=0\n}`);
      e(`.vpu ${nm}_load_bias {\n  MOV rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1\n}`);
    }
    const body: string[] = [];
    let src = 'src1_sel=IN_FIFO';
    let pop = ' in_fifo_pop=1';
    if (rowBias) body.push(`MOV rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1`);
    if (hasBias) {
      body.push(`ADD rd=r1 src1_sel=IN_FIFO rs2=r15 src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1`);
      src = 'rs1=r1 src1_sel=GPR';
      pop = '';
    }
    if (epi.endsWith('relu')) body.push(`RELU rd=r2 ${src}${pop} out_fifo_push=1`);
    else if (epi.endsWith('gelu')) body.push(`LUT rd=r2 ${src} lut_idx=${LUT_TABLE.gelu}${pop} out_fifo_push=1`);
    else body.push(`MOV rd=r2 rs1=r1 src1_sel=GPR out_fifo_push=1`);
    e(`# VPU epilogue (one 128-lane row per program run, chip §6.1.4)`);
    e(`.vpu ${nm}_row {\n${body.map((s) => '  ' + s).join('\n')}\n}`);
    e(`.program ${nm}_in sb2vb {\n  loop i0 128 {\n    WR_VLD wr_tile_idx=0 src_select=Grid_FIFO\n  }\n}`);
    if (rowBias) e(`.program ${nm}_feed vb2vpu {\n  loop i0 128 {\n    RD_VLD rd_tile_idx=1 scratchpad_mode=1 scratchpad_count_decr=0 rd_addr_base=0 rd_addr_iter_id=i0 rd_addr_iter_vld=1\n    RD_VLD rd_tile_idx=0\n  }\n}`);
    else e(`.program ${nm}_feed vb2vpu {\n${hasBias ? '  RD_VLD rd_tile_idx=1 scratchpad_mode=1 scratchpad_count_decr=0 rd_addr_base=0\n' : ''}  loop i0 128 {\n    RD_VLD rd_tile_idx=0\n  }\n}`);
    e(`.program ${nm}_vi vi {\n${hasBias && !rowBias ? `  Generate_VPU_Program vpv_pgm_start_addr=${nm}_load_bias\n` : ''}  loop i0 128 {\n    Generate_VPU_Program vpv_pgm_start_addr=${nm}_row\n  }\n}`);
    e(`.program ${nm}_out vpu2vb {\n  loop i0 128 {\n    WR_VLD wr_tile_idx=2\n  }\n}`);
    e(`.program ${nm}_drain vb2sb {\n  loop i0 128 {\n    RD_VLD rd_tile_idx=2 tgt_select=AMEM_FIFO\n  }\n}`);
  }
  const op = residual ? 'RMW_Add' : 'Write';
  e(`# AMEM Write: 128 RFP16 rows of C (WPSW entry 0 re-interleaves into the chip §7.3.1 storage order)${residual ? '; RMW_Add: C = R + product (chip §7.4.1)' : ''}`);
  if (ch?.cFp8) {
    // 16b->8b converter of the write path (chip §6.2.2.2): FP16 at EB -15 -> RFP8 at EB -12 (EB_Adj_FP8 = -15 - -12)
    e(`.program ${nm}_wr_c amem_write {\n  loop i0 128 {\n    Write src_fifo=${vpu ? 'Vbuffer' : 'Grid'} data_type=Recogni_FP8 eb_adj=-3 wpsw_config_vld=1 wpsw_config_idx_base=1 iter_stride[i0]=8\n  }\n}`);
    return L.join('\n') + '\n';
  }
  const wr = `${op} src_fifo=${vpu ? 'Vbuffer' : 'Grid'} data_type=Recogni_FP16${residual ? ' rmw_rd_addr_offset=0' : ''} wpsw_config_vld=1 wpsw_config_idx_base=0`;
  e(`.program ${nm}_wr_c amem_write {\n  loop i0 128 {\n    ${wr} iter_stride[i0]=16\n  }\n}`);
  if (sh.Mt < TILE) {
    // the last row block: rows ${sh.Mt}..127 are pad (seq §1.3 rule 4): post-final Writes are Discards (seq §2.1.2, §6.3)
    e(`# the last row block (${sh.Mt} rows): the grid's 128 - ${sh.Mt} pad rows discarded (post-final, seq §6.3)`);
    e(`.program ${wrName(nm, sh.Mt)} amem_write {\n  loop i0 1 {\n    loop i1 128 final ${sh.Mt} when [i0] post_final {\n      ${wr} iter_stride[i1]=16\n    }\n  }\n}`);
  }
  return L.join('\n') + '\n';
}

/** The AMEM Write program of a tile of `rows` valid rows. */
const wrName = (nm: string, rows: number) => (rows < TILE ? `${nm}_wr_c_r${rows}` : `${nm}_wr_c`);

/** How a GEMM is used inside a chained layer (gen/transformer.ts): names, formats and operands shared with other stages. */
export interface GemmChain {
  /** Prefix of every tensor and trip name (unique per stage). */
  prefix: string;
  /** A values ([M, K] row-major; the layer's transposed weights W^T). */
  a: Float32Array;
  /** B: an HBM tensor [N/128, K, 128] RFP8 EB -12 declared by another stage. */
  bTensor: string;
  /** Residual R: an HBM tensor [N/128, M, 128] RFP16 EB -15 declared by another stage (InMemAdd). */
  rTensor?: string;
  /** Output tensor (declared here): [N/128, M, 128], RFP8 EB -12 (`cFp8`) or RFP16 EB -15. */
  cTensor: string;
  cFp8: boolean;
  /** C stored as [M/128, N/128, 128, 128] (tile (mi, ni) at C[mi, ni]): a row block's tiles of every column block are contiguous. */
  cBlocks?: boolean;
  /** Per-row bias (length M) before GELU on the VPU (the row is an output feature in the layer's orientation). */
  biasRows?: Float32Array;
  /**
   * A stored as LnsI4F3 codes (EB -12) and passed to the grid without linear-to-log mapping (dsbl_mapping_corr=1: the
   * "weights received in LNS format already" row of chip §6.2.1.5 Table 6-2): the generator folds scales (the attention
   * scale 2^-3.5, LayerNorm gammas) into the weights' logarithms, exact in 3 fraction bits where RFP8 is not.
   */
  aLns?: boolean;
  /** AMEM bytes per cluster this stage may use (the stages of a layer share the 64 MiB). */
  amemBudget: number;
  /**
   * EB of the A tensors (default -12). The accumulators' EB is EB_MNS = EB_A + EB_B + 16 (chip §4.6) and MNS flushes
   * sums below 2^EB_MNS to zero, so small weights want the lowest EB that still holds max |A| (gen/transformer.ts
   * `operandEb`); the GWB's EB adjustment brings C back to FP16 EB -15 whatever EB_A (`gwbEbAdj`).
   */
  aEb?: number;
}

/** GWB `eb_adj` from EB_MNS = EB_A + (-12) + 16 to FP16 EB -15 (chip §6.2.2.1.2: FP16 exponent = MNS exponent + EB_Adj_MNS_FP16): 7 at EB_A -12. */
export const gwbEbAdj = (aEb: number) => aEb + 4 + 15;

function gemmLd(nm: string, sh: GemmShape, fp16: boolean, tr: boolean, epi: Epilogue, residual: boolean, ws: Worker[], plan: Plan, lut?: string, ch?: GemmChain): LdParts {
  const { BT, M, K, N, MB, NB, Kp } = sh;
  const vpu = epi !== 'none';
  const rowBias = !!ch?.biasRows;
  const hasBias = epi.startsWith('bias');
  const fmt = fp16 ? 'RFP16' : 'RFP8';
  const aFmt = ch?.aLns ? 'LnsI4F3' : fmt;
  // C in AMEM: RFP16 at EB_MNS -8, -15 after the GWB eb_adj 7 (VPU epilogue, or every chained stage), or RFP8 EB -12
  const ceb = vpu || ch ? -15 : -8;
  const cDecl = ch?.cFp8 ? `format = RFP8; shape = [128, 128]; eb = -12;` : `format = RFP16; shape = [128, 128]; eb = ${ceb};`;
  const P = ch?.prefix ?? '';
  const A = `${P}a_hbm`;
  const B = ch ? ch.bTensor : 'b_hbm';
  const C = ch ? ch.cTensor : 'c_hbm';
  const R = ch?.rTensor ?? 'r_hbm';
  const out = newParts();
  const e = (s: string) => out.decls.push(s);
  const clusters = [...new Set(ws.map((w) => w.cluster))].sort((x, y) => x - y);
  for (const c of clusters) e(`memory amem${c} { space = amem; cluster = ${c}; view = hashed; origin = 0; length = 64M; }`);
  e(`memory hbm { space = hbm; origin = 0; length = 16G; }`);
  e(tr ? `tensor at_hbm { format = ${fmt}; shape = [${BT * MB}, ${K}, 128]; eb = -12; region = hbm; data = "${nm}_at.npy"; }` : `tensor ${A} { format = ${aFmt}; shape = [${BT * M}, ${Kp}]; eb = ${ch?.aEb ?? -12}; region = hbm; data = "${nm}_a.npy"; }`);
  if (!ch) e(`tensor b_hbm { format = ${fmt}; shape = [${BT * NB}, ${K}, 128]; eb = -12; region = hbm; data = "${nm}_b.npy"; }`);
  e(`tensor ${C} { ${ch?.cFp8 ? 'format = RFP8' : 'format = RFP16'}; shape = ${ch?.cBlocks ? `[${MB}, ${NB}, 128, 128]` : `[${BT * NB}, ${M}, 128]`}; eb = ${ch?.cFp8 ? -12 : ceb}; region = hbm; zero = true; }`);
  if (residual && !ch) e(`tensor r_hbm { format = RFP16; shape = [${BT * NB}, ${M}, 128]; eb = ${ceb}; region = hbm; data = "${nm}_r.npy"; }`);
  for (const c of clusters)
    if (rowBias) e(`tensor ${P}bias${c} { format = RFP16; shape = [${M}, 128]; eb = -15; region = amem${c}; data = "${nm}_biasrep.npy"; }`);
    else if (hasBias) e(`tensor bias${c} { format = RFP16; shape = [1, ${N}]; eb = -15; region = amem${c}; data = "${nm}_bias.npy"; }`);
  // global row block g: rows r0 .. r0 + rows of A (batch z = g / MB), rows 128 (g mod MB) .. of its C block
  const rowOf = (g: number) => Math.floor(g / MB) * M + (g % MB) * TILE;
  const cRows = (g: number) => `${(g % MB) * TILE}:${(g % MB) * TILE + blockRows(sh, g)}`;
  const aSrc = (mi: number) => (tr ? `at_hbm[${mi}]` : `${A}[${rowOf(mi)}:${rowOf(mi) + blockRows(sh, mi)}]`);
  const aShape = tr ? `[${K}, 128]` : `[128, ${Kp}]`;
  // a short tile's part of a 128-row AMEM buffer (DMA views of equal length, docs/linker.md "Slices")
  const head = (t: string, g: number) => (tr || blockRows(sh, g) === TILE ? t : `${t}[0:${blockRows(sh, g)}]`);
  const cHead = (t: string, g: number) => (blockRows(sh, g) === TILE ? t : `${t}[0:${blockRows(sh, g)}]`);
  // cluster-resident runs of blocks: A rows [len*128, Kp] (transposed: [len, K, 128]), B [len, K, 128]
  for (const c of clusters) {
    (plan.residentA.get(c) ?? []).forEach((r, q) => e(`tensor ${P}acl${c}_${q} { format = ${aFmt}; shape = ${tr ? `[${r.len}, ${K}, 128]` : `[${r.len * TILE}, ${Kp}]`}; eb = ${ch?.aEb ?? -12}; region = amem${c}; zero = true; }`));
    (plan.residentB.get(c) ?? []).forEach((r, q) => e(`tensor ${P}bcl${c}_${q} { format = ${fmt}; shape = [${r.len}, ${K}, 128]; eb = -12; region = amem${c}; zero = true; }`));
  }
  ws.forEach((w, i) => {
    if (plan.jobs[i]!.length === 0) return;
    for (const s of [0, 1]) {
      if (!plan.residentA.has(w.cluster)) e(`tensor ${P}a${i}_${s} { format = ${aFmt}; shape = ${aShape}; eb = ${ch?.aEb ?? -12}; region = amem${w.cluster}; zero = true; }`);
      if (!plan.residentB.has(w.cluster)) e(`tensor ${P}b${i}_${s} { format = ${fmt}; shape = [${K}, 128]; eb = -12; region = amem${w.cluster}; zero = true; }`);
      e(`tensor ${P}c${i}_${s} { ${cDecl} region = amem${w.cluster}; zero = true; }`);
    }
  });
  // switch tables per UIE (chip §7.3.1): WPSW 0 re-interleaves FP16 writes; RPSW 0 de-interleaves FP16 reads, RPSW 1 is
  // the identity the FP8 B read selects after a bias read (the switch configuration is held across trips)
  for (const w of ws) {
    e(`config wpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 0; entry { src_ptn = [0, 4, 1, 5, 2, 6, 3, 7]; } }`);
    if (fp16 || hasBias) e(`config rpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 0; entry { src_ptn = [0, 2, 4, 6, 1, 3, 5, 7]; } }`);
    if ((vpu || ch) && !fp16) e(`config rpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 1; entry { src_ptn = [0, 1, 2, 3, 4, 5, 6, 7]; } }`);
    if (ch) e(identityWpsw(w));
    if (lut) e(`config vpu.lut { cluster = ${w.cluster}; uie = ${w.uie}; index = ${256 * LUT_TABLE.gelu}; data = "${lut}"; }`);
  }
  const deps = out.deps;
  const h2a = (c: number, t: string) => pushTrip(out, qkey('h2a', c), t);
  const a2h = (c: number, t: string) => pushTrip(out, qkey('a2h', c), t);
  // cluster-resident runs: loaded once, first in the cluster's H2A queue (one trip per run of contiguous blocks)
  const resLoads = new Map<number, string[]>(clusters.map((c) => [c, []]));
  for (const c of clusters) {
    (plan.residentA.get(c) ?? []).forEach((r, q) => {
      const last = r.start + r.len - 1;
      const rows = (r.len - 1) * TILE + blockRows(sh, last);
      h2a(c, `  trip ${P}lda_c${c}_${q} { src = ${tr ? `at_hbm[${r.start}:${r.start + r.len}]` : `${A}[${rowOf(r.start)}:${rowOf(last) + blockRows(sh, last)}]`}; dst = ${P}acl${c}_${q}${tr || rows === r.len * TILE ? '' : `[0:${rows}]`}; trip_power = 4; }`);
      resLoads.get(c)!.push(`${P}lda_c${c}_${q}`);
    });
    (plan.residentB.get(c) ?? []).forEach((r, q) => {
      h2a(c, `  trip ${P}ldb_c${c}_${q} { src = ${B}[${r.start}:${r.start + r.len}]; dst = ${P}bcl${c}_${q}; trip_power = 4; }`);
      resLoads.get(c)!.push(`${P}ldb_c${c}_${q}`);
    });
  }
  const resident = (c: number) => resLoads.get(c)!.length > 0;
  const rounds = Math.max(...plan.jobs.map((j) => j.length));
  // per worker and operand: the load feeding each tile (-1: reuse the previous one) and the last tile using each load
  const loads = plan.jobs.map((jobs, i) => ({
    a: plan.residentA.has(ws[i]!.cluster) ? [] : loadSeq(jobs.map((t) => t.mi)),
    b: plan.residentB.has(ws[i]!.cluster) ? [] : loadSeq(jobs.map((t) => t.ni)),
  }));
  for (let j = 0; j < rounds; j++)
    ws.forEach((w, i) => {
      const jobs = plan.jobs[i]!;
      if (j >= jobs.length) return;
      const { mi, ni } = jobs[j]!;
      const id = `${i}_${j}`;
      const pre: string[] = [];
      for (const [op, seq] of [['a', loads[i]!.a], ['b', loads[i]!.b]] as const) {
        const ld = seq[j];
        if (ld === undefined) continue; // resident A
        if (ld.first === j) {
          const buf = `${P}${op}${i}_${ld.index % 2}`;
          h2a(w.cluster, `  trip ${P}ld${op}${id} { src = ${op === 'a' ? aSrc(mi) : `${B}[${ni}]`}; dst = ${op === 'a' ? head(buf, mi) : buf}; trip_power = 4; }`);
          // the buffer is free once every tile using the load two back has run: all of them, as the linker orders a
          // queue's trips by their start only (tiles overlap on a UIE; depending on the last alone is LD0813)
          const prev = seq.find((x) => x.index === ld.index - 2);
          if (prev) deps.push(`${P}ld${op}${id} after ${Array.from({ length: prev.last - prev.first + 1 }, (_, t) => `${P}mm${i}_${prev.first + t}`).join(', ')};`);
        }
        pre.push(`${P}ld${op}${i}_${ld.first}`);
      }
      if (resident(w.cluster)) pre.push(`${P}ra${i}`); // same queue: ordering, no barrier
      const s = j % 2;
      if (residual) {
        h2a(w.cluster, `  trip ${P}ldr${id} { src = ${R}[${ni}, ${cRows(mi)}]; dst = ${cHead(`${P}c${i}_${s}`, mi)}; trip_power = 4; }`);
        if (j >= 2) deps.push(`${P}ldr${id} after ${P}st${i}_${j - 2};`);
        pre.push(`${P}ldr${id}`);
      } else if (j >= 2) pre.push(`${P}st${i}_${j - 2}`);
      a2h(w.cluster, `  trip ${P}st${id} { src = ${cHead(`${P}c${i}_${s}`, mi)}; dst = ${ch?.cBlocks ? `${C}[${mi}, ${ni}]` : `${C}[${ni}, ${cRows(mi)}]`}; trip_power = 4; }`);
      deps.push(`${P}mm${id} after ${[...new Set(pre)].join(', ')};`);
      deps.push(`${P}st${id} after ${P}mm${id};`);
    });
  const progs = (g: number) => `amem_weights_read = ${nm}_wr; wdp = ${nm}_wdp; gh = ${nm}_gh; amem_read = ${nm}_rd; gv = ${nm}_gv; gx = ${nm}_gx; gwb = ${nm}_gwb; amem_write = ${wrName(nm, blockRows(sh, g))};` +
    (vpu ? ` sb2vb = ${nm}_in; vb2vpu = ${nm}_feed; vi = ${nm}_vi; vpu2vb = ${nm}_out; vb2sb = ${nm}_drain;` : '');
  ws.forEach((w, i) => {
    const q = qkey('uie', w.cluster, w.uie);
    // a no-op trip waits for the cluster's resident A blocks (one barrier for all the cluster's UIEs: a DMA descriptor
    // notifies at most 8 barriers, docs/linker.md "Dependencies"); the UIE queue starts its tiles after it
    if (resident(w.cluster) && plan.jobs[i]!.length > 0) pushTrip(out, q, `  trip ${P}ra${i} { after = [${resLoads.get(w.cluster)!.join(', ')}]; }`);
    plan.jobs[i]!.forEach(({ mi, ni }, j) => {
      const s = j % 2;
      const id = `${i}_${j}`;
      const ra = plan.residentA.get(w.cluster);
      const rb = plan.residentB.get(w.cluster);
      const ar = ra ? runOf(ra, mi) : undefined;
      const br = rb ? runOf(rb, ni) : undefined;
      const aBuf = ar ? (tr ? `${P}acl${w.cluster}_${ar.run}[${ar.at}]` : `${P}acl${w.cluster}_${ar.run}[${ar.at * TILE}:${(ar.at + 1) * TILE}]`) : `${P}a${i}_${loads[i]!.a[j]!.index % 2}`;
      const bBuf = br ? `${P}bcl${w.cluster}_${br.run}[${br.at}]` : `${P}b${i}_${loads[i]!.b[j]!.index % 2}`;
      if (hasBias) {
        // the bias rows sit in the scratchpad without a count: the next tile's bias waits for this tile (sample rule)
        const tail = !rowBias && ni % NB === NB - 1 && sh.Nt < TILE;
        const slice = rowBias ? `${P}bias${w.cluster}[${(mi % MB) * TILE}:${((mi % MB) + 1) * TILE}]` : `bias${w.cluster}[:, ${(ni % NB) * TILE}:${(ni % NB) * TILE + (tail ? sh.Nt : TILE)}]`;
        pushTrip(out, q, `  trip ${P}bl${id} { amem_read = ${nm}_bl_rd${tail ? '_t' : ''}; sb2vb = ${nm}_bl_in; read = ${slice}; trip_power = 4;${j > 0 ? ` after = [${P}mm${i}_${j - 1}];` : ''} }`);
      }
      pushTrip(out, q, `  trip ${P}mm${id} { ${progs(mi)} weights = ${aBuf}; read = ${bBuf}; write = ${P}c${i}_${s};${residual ? ` rmw_source = ${P}c${i}_${s};` : ''} op = matmul; trip_power = 32;${hasBias ? ` after = [${P}bl${id}];` : ''} }`);
    });
  });
  return out;
}
