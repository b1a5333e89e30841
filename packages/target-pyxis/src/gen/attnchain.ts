/**
 * Causal attention inside the chained layer (gen/transformer.ts), in its feature-major layout: the QKV projection
 * writes qkv [3D/128, S/128, 128, 128] (RFP8, EB -12; feature block, token block, feature, token), so at dh = 128 for
 * head h and token block b  Q_h^T = qkv[h, b], K_h^T = qkv[D/128 + h, b], V_h^T = qkv[2D/128 + h, b], and the K^T
 * (V^T) blocks of key blocks 0..b are one contiguous slice qkv[D/128 + h, 0:b+1]: the Q/K/V split and the head
 * split are addressing only (one H2A slice each; another dh: one slice per token block and feature block, headLoads),
 * and the heads' outputs O_h^T [dh, 128] land in attn[b, h dh ..], so the concat before the output projection is
 * addressing too. `attention --seq` (gen/attnSeq.ts) uses the 'heads' layout [3H, S/128, dh, 128] instead.
 * Head dimensions dh = 8..384 (multiples of 8): O^T in 128-row tiles, one P V trip each (docs/spec-notes.d/attn.md). The flow is that of samples/pyxis/attn_causal.pasm (gen/attention.ts): trip `sc` computes S^T = K Q^T (K^T
 * through the transposed weights path), scales it in the writeback (eb_adj 7 - s), masks the future keys
 * (Col_LT_Row, chip §6.2.2.1.3) and runs the softmax down the columns on the VPU; trip `pv` computes O^T = V^T P^T,
 * here with V^T as a row-shifted A operand (seq §9.3; attention.ts uses V through the transposed path), and writes
 * O^T as RFP8 through the write path's 16b->8b converter (chip §6.2.2.2).
 * A tile is a (head, query block b) pair with b + 1 key blocks (the causal ones). Per key block k, trip `sc` computes
 * S_k^T, masks the future keys on the diagonal block only, and runs the block's softmax (max by SB2VB snooping, exp
 * LUT, sum, 1/sum); besides P_k^T for the grid it writes the block's max row m_k and sum row l_k to AMEM; trip `pv`
 * writes O_k^T = V_k^T P_k^T (FP16). Trip `cb` then combines the blocks on the VPU, lane = query:
 *   M = max_k m_k,  c_k = l_k e^(m_k - M) / sum_j l_j e^(m_j - M),  O^T = sum_k c_k O_k^T
 * (the softmax over all the keys, the split form of the online softmax), written as RFP8. Vbuffer banks follow seq
 * §13.3 (one writer and one reader per bank and trip). At most ATTN_MAX_BLOCKS key blocks (GEN0011, transformer.ts).
 */
import type { Worker } from './errors.js';
import type { GenKernel } from './kernel.js';
import { LUT_TABLE, identityRpsw, identityWpsw, newParts, pushTrip, qkey, renderLd } from './ldparts.js';

/** Key blocks a query block can see: the combine trip keeps one weight per key block in a VPU register (r1..r6; r7, r12..r15 are its accumulator and temporaries; 16 GPRs, chip §6.4). */
export const ATTN_MAX_BLOCKS = 6;

/**
 * Vbuffer tiles of the copies of P^T, one per 128-row half of O^T (one P V trip each): tile 2 (bank 1) and tiles 4, 5
 * (bank 2, no other reader or writer in these trips), so d_k <= 128 x 3 (seq §13.3: one writer and one reader per bank).
 */
const PT_TILES = [2, 4, 5];
export const ATTN_MAX_DK = 128 * PT_TILES.length;

export interface AttnChainParams {
  name: string;
  prefix: string;
  s: number;
  d: number;
  heads: number;
  /**
   * Layout 'model' (default, the chained layer): qkv [3D/128, S/128, 128, 128] RFP8 EB -12 (feature block, token
   * block, feature, token), declared by the QKV stage; head h of Q (K, V) is features h d_k.. (D + h d_k.., 2D + h d_k..).
   * Layout 'heads' (attention --seq): qkv [3H, S/128, d_k, 128]: Q^T of head h is block h, K^T H + h, V^T 2H + h.
   */
  qkvTensor: string;
  layout?: 'model' | 'heads';
  /** Output (declared here): [S/128, D, 128] RFP8 EB -12. */
  outTensor: string;
  ws: Worker[];
  /**
   * The power of two 2^-s the score writeback scales S by (eb_adj 7 - s). Default round(log2(d_k) / 2); 0 when the
   * caller folded 1/sqrt(d_k) into the Q projection (gen/transformer.ts: exact in the LnsI4F3 weights).
   */
  scaleLog2?: number;
}

export function attnChain(p: AttnChainParams): GenKernel & { scale: number } {
  const nm = p.name;
  const P = p.prefix;
  const DK = p.d / p.heads;
  // d_k: a multiple of 8 (seq §1.2 rule 3; the H2A slices of a head start on 1 KiB in HBM). One P V trip is one
  // 128-row grid tile of O^T (seq §9.3) fed by P^T through a Vbuffer FIFO tile (seq §13.1), which it consumes: a head
  // of NC = ceil(d_k / 128) row tiles runs NC P V trips per key block, and the scores trip's VPU pushes NC copies of P^T
  if (!Number.isInteger(DK) || DK % 8 !== 0 || DK < 8 || DK > ATTN_MAX_DK) throw new Error(`attnChain: d_k ${DK} (callers check GEN0003 / GEN0060)`);
  const NC = Math.ceil(DK / 128);
  const RP = 128 * NC; // rows of V^T and of O_k^T (the row-shifted operand's whole 128-row tiles; rows >= d_k zero)
  const layout = p.layout ?? 'model';
  const NB = p.s / 128;
  /**
   * Shared feature blocks (model layout, d_k dividing 128): the 128 / d_k heads of a 128-feature block of the QKV
   * output share one AMEM copy of it per Q, K, V (one H2A trip of all the token blocks each, as at d_k 128: a cluster
   * runs its DMA trips one after the other, ~300 cycles each, so one trip per head and token block made the loads the
   * critical path). Head h reads rows r0 = h d_k mod 128 .. of its block (UIE views may start on any row); the P V
   * trip takes the whole block as V^T (128 rows: rows outside the head give finite products nobody reads) and the
   * combine reads O^T rows r0 ... Heads of d_k < 128 go to the clusters in contiguous ranges (balanced head counts,
   * few blocks per cluster; a block whose heads span two clusters is loaded into both), d_k 128 round-robin.
   */
  const shared = layout === 'model' && 128 % DK === 0;
  const groupOf = (h: number) => (shared ? Math.floor((h * DK) / 128) : h);
  const r0Of = (h: number) => (shared ? (h * DK) % 128 : 0);
  /**
   * Regrouped heads (model layout, a d_k that does not divide 128 and is not 128: a head across feature blocks): a
   * cluster loads the feature blocks its heads touch in one H2A trip per Q, K, V (consecutive blocks of qkv are one
   * contiguous range) and UIE copy trips (AMEM Read -> AMEM Write, samples/pyxis/copy.pasm) gather each head's rows
   * into its [NB, rows, 128] tensors, one copy per feature block the head touches. One H2A slice per head, token
   * block and feature block instead (~300 cycles each, one after the other per cluster) made the loads the critical
   * path.
   */
  const regroup = layout === 'model' && !shared;
  const clusterOf = (h: number) => clusters[layout === 'model' && DK !== 128 ? Math.floor((h * clusters.length) / p.heads) : h % clusters.length]!;
  // every scores (P V) trip of a head waits for its block's Q, K (V) loads: a barrier takes <= 31 waits and an H2A
  // descriptor <= 8 notifies (docs/linker.md "Dependencies"), so at most SHARE heads share one load of a block
  const SHARE = Math.max(1, Math.floor((7 * 31) / ((NB * (NB + 1)) / 2)));
  const subOf = (h: number) => Math.floor(Array.from({ length: h }, (_, i) => i).filter((i) => groupOf(i) === groupOf(h) && clusterOf(i) === clusterOf(h)).length / SHARE);
  const tagOf = (h: number) => (shared && DK < 128 ? `f${groupOf(h)}c${clusterOf(h)}${subOf(h) ? `s${subOf(h)}` : ''}` : `h${h}`);
  const r0s = [...new Set(Array.from({ length: p.heads }, (_, h) => r0Of(h)))].sort((a, b) => a - b);
  const s = p.scaleLog2 ?? Math.round(Math.log2(DK) / 2);
  const trW = (pre: string, n: number) => `.program ${pre}_wr amem_weights_read {\n  loop i0 ${n} {\n    Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8\n  }\n}
.program ${pre}_wdp wdp {\n  loop i0 ${n / 8} {\n    loop i1 2 {\n      loop i2 4 {\n        WR_HBUF hbuf_wr_control=LD_2ROWS_8B_TRANS log2_ptns_per_hlane=0 tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 \\\n                dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \\\n                hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \\\n                hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2]\n      }\n    }\n  }\n}
.program ${pre}_gh gh {\n  loop i0 ${n / 8} {\n    loop i1 4 {\n      loop i2 2 {\n        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \\\n                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \\\n                    hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i1\n      }\n    }\n  }\n}`;
  const gx = (pre: string, n: number) => `.program ${pre}_gx gx {\n  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1\n  loop i0 ${n / 8} {\n    loop i1 8 {\n      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \\\n                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]\n    }\n  }\n}`;
  // row-shifted A = V^T [128 features, 128 keys]: one Hbuf block, 8 partitions per row (gemm.ts with K = 128)
  const rsW = (pre: string, nk: number) => `.program ${pre}_wr amem_weights_read {\n  loop i0 ${nk} {\n    loop i1 8 {\n      loop i2 2 {\n        loop i3 8 {\n          Read_SRAM wdc_type=Uncompressed iter_stride[i0]=1024 iter_stride[i1]=8 iter_stride[i2]=64 iter_stride[i3]=128\n        }\n      }\n    }\n  }\n}
.program ${pre}_wdp wdp {\n  loop i0 ${nk} {\n    loop i1 8 {\n      loop i2 2 {\n        loop i3 8 {\n          WR_HBUF hbuf_wr_control=LD_1ROW_16B log2_ptns_per_hlane=3 hlane_iter_id=i3 grip_iter_id=i2 \\\n                  dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \\\n                  hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3] \\\n                  hbuf_stride_dim1=16 hbuf_stride_iter_id_dim1=i1\n        }\n      }\n    }\n  }\n}
.program ${pre}_gh gh {\n  loop i0 ${nk} {\n    loop i1 16 {\n      loop i2 8 {\n        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \\\n                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \\\n                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2\n      }\n    }\n  }\n}`;
  const sc = `${nm}_sc`;
  const pv = `${nm}_pv`;
  const cb = `${nm}_cb`;
  const OB = RP + 2; // rows of one key block's partial result: O^T (RP rows), its max row and its sum row (FP16)
  /**
   * The combine trip of a query block with nk key blocks: c_k = sum_k e^(m_k - M) / sum_l sum_l e^(m_l - M), O = sum_k c_k O_k,
   * over the d_k rows of O^T that hold the head's features (a P V trip writes 128 rows; rows >= d_k are V^T's zero padding).
   */
  const combine = (nk: number, r0s: number[]) => {
    const r = (k: number) => `r${k + 1}`;
    const ks = Array.from({ length: nk }, (_, k) => k);
    const m = [
      ...ks.map((k) => `  MOV rd=${r(k)} src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1`),
      `  MOV rd=r15 rs1=r1 wr_gpr_en=1`,
      ...ks.slice(1).map((k) => `  MAX rd=r15 rs1=r15 rs2=${r(k)} wr_gpr_en=1`),
      ...ks.flatMap((k) => [`  SUB rd=${r(k)} rs1=${r(k)} rs2=r15 wr_gpr_en=1`, `  LUT rd=${r(k)} rs1=${r(k)} lut_idx=${LUT_TABLE.exp} wr_gpr_en=1`, `  MUL rd=${r(k)} src1_sel=IN_FIFO rs2=${r(k)} src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1`]),
      `  MOV rd=r14 rs1=r1 wr_gpr_en=1`,
      ...ks.slice(1).map((k) => `  ADD rd=r14 rs1=r14 rs2=${r(k)} wr_gpr_en=1`),
      `  LUT rd=r13 rs1=r14 lut_idx=${LUT_TABLE.recip} wr_gpr_en=1`,
      `  MUL rd=r12 rs1=r14 rs2=r13 wr_gpr_en=1`,
      `  SUB rd=r12 src1_sel=IMM imm=0x4000 rs2=r12 wr_gpr_en=1`,
      `  MUL rd=r13 rs1=r13 rs2=r12 wr_gpr_en=1`,
      ...ks.map((k) => `  MUL rd=${r(k)} rs1=${r(k)} rs2=r13 wr_gpr_en=1`),
    ];
    const row = ks.map((k) => `  ${k === 0 ? 'MUL' : 'MAC'} rd=r7 src1_sel=IN_FIFO rs2=${r(k)} src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1${k === nk - 1 ? ' out_fifo_push=1' : ''}`);
    const n = nk * (DK + 2);
    return `.vpu ${cb}${nk}_w {\n${m.join('\n')}\n}
.vpu ${cb}${nk}_row {\n${row.join('\n')}\n}
${r0s.map((r0) => `.program ${cb}${nk}_rd${r0 ? `_o${r0}` : ''} amem_read {\n  loop i0 ${nk} {\n    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer amem_addr_offset=${RP * 16} iter_stride[i0]=${OB * 16} rpsw_config_vld=1 rpsw_config_idx_base=0\n  }\n  loop i0 ${nk} {\n    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer amem_addr_offset=${(RP + 1) * 16} iter_stride[i0]=${OB * 16} rpsw_config_vld=1 rpsw_config_idx_base=0\n  }\n  loop i0 ${DK} {\n    loop i1 ${nk} {\n      Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer ${r0 ? `amem_addr_offset=${r0 * 16} ` : ''}iter_stride[i0]=16 iter_stride[i1]=${OB * 16} rpsw_config_vld=1 rpsw_config_idx_base=0\n    }\n  }\n}`).join('\n')}
.program ${cb}${nk}_in sb2vb {\n  loop i0 ${n} {\n    WR_VLD wr_tile_idx=0 src_select=AMEM_FIFO\n  }\n}
.program ${cb}${nk}_feed vb2vpu {\n  loop i0 ${n} {\n    RD_VLD rd_tile_idx=0\n  }\n}
.program ${cb}${nk}_vi vi {\n  Generate_VPU_Program vpv_pgm_start_addr=${cb}${nk}_w\n  loop i0 ${DK} {\n    Generate_VPU_Program vpv_pgm_start_addr=${cb}${nk}_row\n  }\n}`;
  };
  const pasm = `# Generated by pyxis-gen transformer (packages/target-pyxis/src/gen/attnchain.ts): causal attention, d_k ${DK},
# scale ${p.scaleLog2 === 0 ? '1 (1/sqrt(d_k) folded into the Q projection weights)' : `2^-${s}${DK === 4 ** s ? ' = 1/sqrt(d_k)' : ` (nearest power of two to 1/sqrt(${DK}))`}`}; per key block the flow of samples/pyxis/attn_causal.pasm,
# the key blocks of a query block combined by their max and sum rows (a combine trip on the VPU).
# ---- trip sc (one key block): S^T = K Q^T, softmax down the columns; the block's max and sum rows to AMEM
${trW(sc, DK)}
${gx(sc, DK)}
.program ${sc}_rd amem_read {\n  loop i0 ${DK} {\n    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid rpsw_config_vld=1 rpsw_config_idx_base=1 iter_stride[i0]=8\n  }\n}
.program ${sc}_gv gv {\n  loop i0 ${DK / 8} {\n    loop i1 8 {\n      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0\n    }\n  }\n}
# the diagonal key block masks the future keys (Col_LT_Row, chip §6.2.2.1.3); an earlier key block is not masked
.program ${sc}_gwb_d gwb {\n  loop i0 16 {\n    Read_WBA tgt_fifo=VPU diagonal_mask_mode=Col_LT_Row diagonal_mask_override_sel=Max_Negative col_mask_idx=0 \\\n             eb_adj=7-${s} grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]\n  }\n}
.program ${sc}_gwb_f gwb {\n  loop i0 16 {\n    Read_WBA tgt_fifo=VPU diagonal_mask_mode=Disabled col_mask_idx=0 eb_adj=7-${s} grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]\n  }\n}
.program ${sc}_in sb2vb {\n  loop i0 128 {\n    WR_VLD wr_tile_idx=0 src_select=Grid_FIFO snoop_vld=1 snoop_signed=1 snoop_start_iter_mask=[i0]\n  }\n  WR_VLD wr_tile_idx=1 src_select=Snoop_Register\n}
.program ${sc}_feed vb2vpu {\n  RD_VLD rd_tile_idx=1\n  loop i0 128 {\n    RD_VLD rd_tile_idx=0\n  }\n  loop i0 128 {\n    RD_VLD rd_tile_idx=6\n  }\n}
.vpu ${nm}_init {\n  MOV rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1\n  MOV rd=r14 src1_sel=IMM imm=0 wr_gpr_en=1\n}
.vpu ${nm}_sum {\n  SUB rd=r1 src1_sel=IN_FIFO rs2=r15 src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1\n  LUT rd=r2 rs1=r1 lut_idx=${LUT_TABLE.exp} wr_gpr_en=1 out_fifo_push=1\n  ADD rd=r14 rs1=r14 rs2=r2 wr_gpr_en=1\n}
# 1/sum; then the max and sum rows out (to AMEM, for the combine trip)
.vpu ${nm}_recip {\n  LUT rd=r13 rs1=r14 lut_idx=${LUT_TABLE.recip} wr_gpr_en=1\n  MUL rd=r3 rs1=r14 rs2=r13 wr_gpr_en=1\n  SUB rd=r3 src1_sel=IMM imm=0x4000 rs2=r3 wr_gpr_en=1\n  MUL rd=r13 rs1=r13 rs2=r3 wr_gpr_en=1\n  MOV rd=r4 rs1=r15 out_fifo_push=1\n  MOV rd=r4 rs1=r14 out_fifo_push=1\n}
.vpu ${nm}_out {\n  MUL rd=r2 src1_sel=IN_FIFO rs2=r13 src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1 out_fifo_push=1${'\n  MOV rd=r2 rs1=r2 out_fifo_push=1'.repeat(NC - 1)}\n}
.program ${sc}_vi vi {\n  Generate_VPU_Program vpv_pgm_start_addr=${nm}_init\n  loop i0 128 {\n    Generate_VPU_Program vpv_pgm_start_addr=${nm}_sum\n  }\n  Generate_VPU_Program vpv_pgm_start_addr=${nm}_recip\n  loop i0 128 {\n    Generate_VPU_Program vpv_pgm_start_addr=${nm}_out\n  }\n}
# Vbuffer banks (seq §13.3: one writer and one reader per bank): SB2VB writes tiles 0, 1 (bank 0); VPU2VB tiles 6 (bank 3), 3, 2 (bank 1)
.program ${sc}_out vpu2vb {\n  loop i0 128 {\n    WR_VLD wr_tile_idx=6\n  }\n  loop i0 2 {\n    WR_VLD wr_tile_idx=3\n  }\n  loop i0 128 {\n${PT_TILES.slice(0, NC).map((t) => `    WR_VLD wr_tile_idx=${t}\n`).join('')}  }\n}
.program ${sc}_drain vb2sb {\n  loop i0 2 {\n    RD_VLD rd_tile_idx=3 tgt_select=AMEM_FIFO\n  }\n}
.program ${sc}_wo amem_write {\n  loop i0 2 {\n    Write data_type=Recogni_FP16 src_fifo=Vbuffer wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16\n  }\n}
# ---- trip pv (one key block, one 128-row tile r of O^T): O_k^T = V_k^T P_k^T (V^T row-shifted, P^T from the VPU), FP16 to AMEM
${rsW(pv, 1)}
${gx(pv, 128)}
${PT_TILES.slice(0, NC).map((t, r) => `.program ${pv}_feed${r} vb2sb {\n  loop i0 128 {\n    RD_VLD rd_tile_idx=${t} tgt_select=Grid_FIFO\n  }\n}`).join('\n')}
.program ${pv}_gv gv {\n  loop i0 128 / 8 {\n    loop i1 8 {\n      Read_VPU_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=8\n    }\n  }\n}
.program ${pv}_gwb gwb {\n  loop i0 16 {\n    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled col_mask_idx=0 eb_adj=-4 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]\n  }\n}
.program ${pv}_wo amem_write {\n  loop i0 128 {\n    Write src_fifo=Grid data_type=Recogni_FP16 eb_adj=0 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16\n  }\n}
# ---- trip cb (per query block): the key blocks' O_k combined on the VPU, written as RFP8 (16b->8b converter, chip §6.2.2.2)
.program ${cb}_out vpu2vb {\n  loop i0 ${DK} {\n    WR_VLD wr_tile_idx=2\n  }\n}
.program ${cb}_drain vb2sb {\n  loop i0 ${DK} {\n    RD_VLD rd_tile_idx=2 tgt_select=AMEM_FIFO\n  }\n}
.program ${cb}_wr amem_write {\n  loop i0 ${DK} {\n    Write src_fifo=Vbuffer data_type=Recogni_FP8 eb_adj=-3 wpsw_config_vld=1 wpsw_config_idx_base=1 iter_stride[i0]=8\n  }\n}
${Array.from({ length: NB }, (_, b) => combine(b + 1, r0s)).join('\n')}
`;
  const NT = p.heads * NB;
  const ws = p.ws;
  const D = p.d;
  // tiles t = blk * heads + h (blk + 1 key blocks). A head's Q^T, K^T, V^T of every token block are loaded once (one
  // H2A trip each: DMA trips run one after the other in a cluster's queue, so few large ones) into the AMEM of the
  // cluster of the head (heads round-robin over the clusters), shared by its UIEs; a tile's (sc, pv) pair of each key
  // block to the least loaded UIE of its cluster (the key blocks of a query block run on several UIEs at once), and
  // its combine trip, after every pair of every UIE queue (a combine waits for pairs on other UIEs; pairs wait for
  // nothing but their loads, so no queue can hold a trip that another queue's trip waits for), likewise
  const nkOf = (t: number) => Math.floor(t / p.heads) + 1;
  const clusters = [...new Set(ws.map((w) => w.cluster))].sort((a, b) => a - b);
  const uiesOf = new Map(clusters.map((c) => [c, ws.filter((w) => w.cluster === c)]));
  const clLoad = new Map(clusters.map((c) => [c, 0]));
  const uieLoad = new Map(ws.map((w) => [`${w.cluster}.${w.uie}`, 0]));
  const least = <T,>(xs: T[], f: (x: T) => number) => xs.reduce((m, x) => (f(x) < f(m) ? x : m));
  const tiles = Array.from({ length: NT }, (_, i) => NT - 1 - i).map((t) => {
    const c = clusterOf(t % p.heads);
    clLoad.set(c, clLoad.get(c)! + nkOf(t) + 0.7);
    const pairs = Array.from({ length: nkOf(t) }, () => {
      const w = least(uiesOf.get(c)!, (x) => uieLoad.get(`${x.cluster}.${x.uie}`)!);
      uieLoad.set(`${w.cluster}.${w.uie}`, uieLoad.get(`${w.cluster}.${w.uie}`)! + 1);
      return w;
    });
    return { t, c, pairs, cbw: undefined as Worker | undefined };
  });
  for (const x of tiles) {
    const w = least(uiesOf.get(x.c)!, (y) => uieLoad.get(`${y.cluster}.${y.uie}`)!);
    uieLoad.set(`${w.cluster}.${w.uie}`, uieLoad.get(`${w.cluster}.${w.uie}`)! + 0.7);
    x.cbw = w;
  }
  const busy = ws.filter((w) => tiles.some((x) => x.cbw === w || x.pairs.includes(w)));
  const used = [...new Set(tiles.map((x) => x.c))].sort((a, b) => a - b);
  const out = newParts();
  for (const c of used) out.decls.push(`memory amem${c} { space = amem; cluster = ${c}; view = hashed; origin = 0; length = 64M; }`);
  out.decls.push(`memory hbm { space = hbm; origin = 0; length = 16G; }`);
  out.decls.push(`tensor ${p.outTensor} { format = RFP8; shape = [${NB}, ${D}, 128]; eb = -12; region = hbm; zero = true; }`);
  const luts: GenKernel['luts'] = [
    { file: `${nm}_exp_lut.npy`, fn: 'exp' },
    { file: `${nm}_recip_lut.npy`, fn: 'recip' },
  ];
  for (const w of busy) {
    for (const l of luts) out.decls.push(`config vpu.lut { cluster = ${w.cluster}; uie = ${w.uie}; index = ${256 * LUT_TABLE[l.fn]}; data = "${l.file}"; }`);
    out.decls.push(identityRpsw(w), identityWpsw(w));
    out.decls.push(`config rpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 0; entry { src_ptn = [0, 2, 4, 6, 1, 3, 5, 7]; } }`);
    out.decls.push(`config wpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 0; entry { src_ptn = [0, 4, 1, 5, 2, 6, 3, 7]; } }`);
    out.decls.push(`config gwb.col_mask { cluster = ${w.cluster}; uie = ${w.uie}; index = 0; entry { col_override = [${Array(128).fill(0).join(', ')}]; } }`);
  }
  /**
   * The H2A slice [src, dst] that loads x (0 Q, 1 K, 2 V) of head h for every token block (heads layout, or the
   * model layout at d_k 128: one contiguous range, chip §11.4.3, LD0136) into its AMEM tensor.
   */
  const headLoads = (x: number, h: number, rows: number): Array<[string, string]> =>
    layout === 'heads' ? [[`[${x * p.heads + h}, 0:${NB}]`, rows === DK ? '' : `[0:${NB * DK}]`]] : [[`[${(x * D) / 128 + h}, 0:${NB}]`, '']];
  /** Pieces of head h's features of x within 128-feature blocks: [feature block, first row, end row, head row]. */
  const pieces = (x: number, h: number) => {
    const f0 = x * D + h * DK;
    const res: Array<[number, number, number, number]> = [];
    for (let f = f0; f < f0 + DK; ) {
      const end = Math.min(f0 + DK, (Math.floor(f / 128) + 1) * 128);
      res.push([Math.floor(f / 128), f % 128, ((end - 1) % 128) + 1, f - f0]);
      f = end;
    }
    return res;
  };
  const loadNames = (x: 'q' | 'k' | 'v', h: number) => {
    if (shared) return [`${P}l${x}_${tagOf(h)}`];
    if (regroup) return pieces(['q', 'k', 'v'].indexOf(x), h).map((_, n) => `${P}cp${x}_h${h}_${n}`);
    const n = headLoads(['q', 'k', 'v'].indexOf(x), h, x === 'v' ? RP : DK).length;
    return n === 1 ? [`${P}l${x}_h${h}`] : Array.from({ length: n }, (_, i) => `${P}l${x}_h${h}_${i}`);
  };
  let flops = 0;
  const loaded = new Set<string>();
  const copyProgs = new Set<string>();
  if (regroup)
    for (const c of clusters) {
      const hs = Array.from({ length: p.heads }, (_, h) => h).filter((h) => clusterOf(h) === c);
      if (hs.length === 0) continue;
      const qs = uiesOf.get(c)!;
      let next = 0;
      for (const [x, xi] of [['q', 0], ['k', 1], ['v', 2]] as const) {
        const lo = Math.floor((xi * D + hs[0]! * DK) / 128);
        const hi = Math.floor((xi * D + (hs[hs.length - 1]! + 1) * DK - 1) / 128);
        const big = `${P}${x}b_c${c}`;
        out.decls.push(`tensor ${big} { format = RFP8; shape = [${hi - lo + 1}, ${NB}, 128, 128]; eb = -12; region = amem${c}; zero = true; }`);
        pushTrip(out, qkey('h2a', c), `  trip ${P}l${x}_c${c} { src = ${p.qkvTensor}[${lo}:${hi + 1}, 0:${NB}]; dst = ${big}; trip_power = 4; }`);
        const rows = x === 'v' ? RP : DK;
        for (const h of hs) {
          // V^T is the row-shifted A operand of the P V trips: RP rows (seq §9.3), rows >= d_k stay zero
          out.decls.push(`tensor ${P}${x}t_h${h} { format = RFP8; shape = [${NB}, ${rows}, 128]; eb = -12; region = amem${c}; zero = true; }`);
          pieces(xi, h).forEach(([fb, r0, r1, off], n) => {
            const len = r1 - r0;
            copyProgs.add(`${len}:${rows}`);
            const w = qs[next++ % qs.length]!;
            const name = `${P}cp${x}_h${h}_${n}`;
            out.deps.push(`${name} after ${P}l${x}_c${c};`);
            pushTrip(out, qkey('uie', w.cluster, w.uie), `  trip ${name} { amem_read = ${nm}_cp${len}_rd; amem_write = ${nm}_cp${len}_w${rows}; read = ${big}[${fb - lo}, 0:${NB}, ${r0}:${r1}]; write = ${P}${x}t_h${h}[0:${NB}, ${off}:${off + len}]; trip_power = 8; }`);
          });
        }
      }
    }
  for (const { t, c, pairs } of tiles) {
    const h = t % p.heads;
    const blk = Math.floor(t / p.heads);
    const nk = blk + 1;
    flops += 2 * 128 * 128 * (DK + RP) * nk;
    // one set of buffers per tile (no reuse, no write-after-read ordering between tiles)
    const id = `${t}`;
    out.decls.push(`tensor ${P}ot${id} { format = RFP8; shape = [${DK}, 128]; eb = -12; region = amem${c}; zero = true; }`);
    out.decls.push(`tensor ${P}ob${id} { format = RFP16; shape = [${nk * OB}, 128]; eb = -15; region = amem${c}; zero = true; }`);
    const g = groupOf(h);
    const tag = tagOf(h);
    const r0 = r0Of(h);
    const rows = shared && DK < 128 ? `, ${r0}:${r0 + DK}` : '';
    if (!regroup && !loaded.has(tag)) {
      loaded.add(tag);
      if (shared)
        for (const [x, xi] of [['q', 0], ['k', 1], ['v', 2]] as const) {
          out.decls.push(`tensor ${P}${x}t_${tag} { format = RFP8; shape = [${NB}, 128, 128]; eb = -12; region = amem${c}; zero = true; }`);
          pushTrip(out, qkey('h2a', c), `  trip ${P}l${x}_${tag} { src = ${p.qkvTensor}[${(xi * D) / 128 + g}, 0:${NB}]; dst = ${P}${x}t_${tag}; trip_power = 4; }`);
        }
      else for (const [x, xi] of [['q', 0], ['k', 1], ['v', 2]] as const) {
        // V^T is the row-shifted A operand of the P V trips: RP rows (seq §9.3). Model layout: [NB, RP, 128], rows >=
        // d_k stay zero. Heads layout: the key blocks' d_k rows back to back ([NB d_k + RP - d_k, 128], one H2A trip);
        // the view of key block k is rows k d_k .. k d_k + RP, whose rows >= d_k (the next block's V^T, or zeros)
        // give O^T rows the combine does not read
        const vHeads = x === 'v' && layout === 'heads' && RP !== DK;
        out.decls.push(`tensor ${P}${x}t_h${h} { format = RFP8; shape = [${vHeads ? `${NB * DK + RP - DK}` : `${NB}, ${x === 'v' ? RP : DK}`}, 128]; eb = -12; region = amem${c}; zero = true; }`);
        headLoads(xi, h, x === 'v' ? RP : DK).forEach(([src, dst], n, all) =>
          pushTrip(out, qkey('h2a', c), `  trip ${P}l${x}_h${h}${all.length > 1 ? `_${n}` : ''} { src = ${p.qkvTensor}${src}; dst = ${P}${x}t_h${h}${dst}; trip_power = 4; }`));
      }
    }
    pushTrip(out, qkey('a2h', c), `  trip ${P}st${id} { src = ${P}ot${id}; dst = ${p.outTensor}[${blk}, ${h * DK}:${(h + 1) * DK}]; trip_power = 4; }`);
    const o = `${P}ob${id}`;
    const names: string[] = [];
    pairs.forEach((w, k) => {
      const q = qkey('uie', w.cluster, w.uie);
      const scn = `${P}sc${id}_${k}`;
      const pvn = Array.from({ length: NC }, (_, r) => `${P}pv${id}_${k}${NC > 1 ? `_${r}` : ''}`);
      names.push(scn, ...pvn);
      out.deps.push(`${scn} after ${loadNames('q', h).join(', ')}, ${loadNames('k', h).join(', ')};`, ...pvn.map((n) => `${n} after ${loadNames('v', h).join(', ')};`));
      pushTrip(out, q, `  trip ${scn} { amem_weights_read = ${sc}_wr; wdp = ${sc}_wdp; gh = ${sc}_gh; amem_read = ${sc}_rd; gv = ${sc}_gv; gx = ${sc}_gx; gwb = ${sc}_gwb_${k === blk ? 'd' : 'f'}; sb2vb = ${sc}_in; vb2vpu = ${sc}_feed; vi = ${sc}_vi; vpu2vb = ${sc}_out; vb2sb = ${sc}_drain; amem_write = ${sc}_wo; weights = ${P}kt_${tag}[${k}${rows}]; read = ${P}qt_${tag}[${blk}${rows}]; write = ${o}[${k * OB + RP}:${k * OB + RP + 2}]; op = matmul; trip_power = 16; }`);
      pvn.forEach((n, r) => pushTrip(out, q, `  trip ${n} { amem_weights_read = ${pv}_wr; wdp = ${pv}_wdp; gh = ${pv}_gh; vb2sb = ${pv}_feed${r}; gv = ${pv}_gv; gx = ${pv}_gx; gwb = ${pv}_gwb; amem_write = ${pv}_wo; weights = ${P}vt_${tag}[${layout === 'heads' && RP !== DK ? `${k * DK + 128 * r}:${k * DK + 128 * (r + 1)}` : `${k}${NC > 1 ? `, ${128 * r}:${128 * (r + 1)}` : ''}`}]; write = ${o}[${k * OB + 128 * r}:${k * OB + 128 * (r + 1)}]; op = matmul; trip_power = 16; }`));
    });
    out.deps.push(`${P}cb${id} after ${names.join(', ')};`, `${P}st${id} after ${P}cb${id};`);
  }
  for (const { t, cbw } of tiles) {
    const nk = nkOf(t);
    const r0 = r0Of(t % p.heads);
    pushTrip(out, qkey('uie', cbw!.cluster, cbw!.uie), `  trip ${P}cb${t} { amem_read = ${cb}${nk}_rd${r0 ? `_o${r0}` : ''}; sb2vb = ${cb}${nk}_in; vb2vpu = ${cb}${nk}_feed; vi = ${cb}${nk}_vi; vpu2vb = ${cb}_out; vb2sb = ${cb}_drain; amem_write = ${cb}_wr; read = ${P}ob${t}; write = ${P}ot${t}; trip_power = 8; }`);
  }
  // the regrouping copies: NB blocks of len rows from the [.., NB, 128, 128] load (a block = 128 rows of 8 16-byte
  // units) to a head's [NB, rows, 128] tensor
  const copies = [...copyProgs].map((k) => k.split(':').map(Number) as [number, number]).map(([len, rows]) =>
    `.program ${nm}_cp${len}_rd amem_read {\n  loop i0 ${NB} {\n    loop i1 ${len} {\n      Read_SRAM tgt_fifo=AMEM_write iter_stride[i0]=${128 * 8} iter_stride[i1]=8\n    }\n  }\n}\n` +
    `.program ${nm}_cp${len}_w${rows} amem_write {\n  loop i0 ${NB} {\n    loop i1 ${len} {\n      Write src_fifo=AMEM_read iter_stride[i0]=${rows * 8} iter_stride[i1]=8\n    }\n  }\n}`);
  return {
    name: nm,
    pasm: copies.length ? `${pasm}# ---- regrouping copies (heads across 128-feature blocks)\n${[...new Set(copies.flatMap((c) => c.split(/(?=\.program )/)))].join('\n')}\n` : pasm,
    ld: renderLd(`/* causal attention (gen/attnchain.ts) */`, out),
    parts: out,
    inputs: [],
    luts,
    scale: 2 ** -s,
    meta: { kind: 'attention', tiles: NT, dk: DK, dtype: 'fp8', flops, hbmBytes: p.heads * 3 * NB * DK * 128 + NT * DK * 128, outputs: [p.outTensor], workers: busy.map((w) => `c${w.cluster}.uie${w.uie}`) },
  };
}
