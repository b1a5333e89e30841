/**
 * The A side of the transposed GEMM flows (A stored as A^T and transposed on the fly by the weights path, chip §6.1.3.1,
 * §6.2.4.2): the AMEM Weights Read, WDP and GH programs of one 128 x 128 x K tile. B, GV, GX, GWB and AMEM Write are
 * those of the row-shifted flow of the same precision (gen/gemm.ts), because both transposed reads hand GX the same
 * k-groups as the row-shifted reads: 8 consecutive k per VGR in FP8, 4 in FP16.
 *
 * - FP8 (samples/pyxis/matmul_transposed_fp8.pasm; seq §9.4.1 Figure 9-3, Table 9-7, §10.1.4 Figure 10-2): a row of
 *   A^T is one 128-byte AMEM word; LD_2ROWS_8B_TRANS with 1 partition per H-lane; an Hbuf block (64 B per grid-row)
 *   is 8 rows, GH reads VGR 2w + q from word w, quad-byte q of both banks.
 * - FP16 (samples/pyxis/matmul_transposed_fp16.pasm; seq §9.4.2 Figure 9-4, Tables 9-9 / 9-10, §10.1.4 Figure 10-3): a
 *   row of A^T is 128 FP16 values = two AMEM words; LD_1ROW_16B_TRANS with 2 partitions per H-lane (the only
 *   setting of Table 9-3), the H-lane group iterator taking the two words of a row (H-lanes 0-3, then 4-7) and the
 *   hardware routing partition 2h + g to grid_row_in_pair g (Table 9-4); an Hbuf block is 4 rows (8 words), rows
 *   A, B in tbuf 0 (bank 0), C, D in tbuf 1 (bank 1); GH reads VGR 4q + w from quad-byte q of word w (Table 9-9).
 *
 * K rule (seq §1.2 rule 3, checked in gen/gemm.ts for every flow): a multiple of 8 (FP8) / 4 (FP16) horizontal values =
 * one Hbuf block of rows of A^T, so the transposed flows need no K padding (gen/gemmShape.ts).
 */

/** Rows of A^T per Hbuf block (64 bytes per grid-row). */
const rowsPerBlock = (fp16: boolean) => (fp16 ? 4 : 8);

/** The `.program` texts of the weights path (amem_weights_read `NM_wr`, wdp `NM_wdp`, gh `NM_gh`); K is `.const NM_K`. */
export function transposedAPrograms(nm: string, fp16: boolean): string[] {
  const L: string[] = [];
  const e = (s: string) => L.push(s);
  const rb = rowsPerBlock(fp16);
  if (!fp16) {
    e(`# AMEM Weights Read: row k of A^T (128 bytes) per cycle; K/8 x 8 so that the loop counts stay 12-bit (seq §2.1)`);
    e(`.program ${nm}_wr amem_weights_read {\n  loop i0 ${nm}_K / 8 {\n    loop i1 8 {\n      Read_SRAM wdc_type=Uncompressed iter_stride[i0]=64 iter_stride[i1]=8\n    }\n  }\n}`);
    e(`# WDP, Figure 9-3: i1 tbuf, i2 tbuf column; LD_2ROWS_8B_TRANS, 64-byte blocks`);
    e(`.program ${nm}_wdp wdp {\n  loop i0 ${nm}_K / 8 {\n    loop i1 2 {\n      loop i2 4 {\n        WR_HBUF hbuf_wr_control=LD_2ROWS_8B_TRANS log2_ptns_per_hlane=0 tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 \\\n                dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \\\n                hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \\\n                hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2]\n      }\n    }\n  }\n}`);
    e(`# GH, Figure 10-2: VGR = 2*i1 + i2`);
    e(`.program ${nm}_gh gh {\n  loop i0 ${nm}_K / 8 {\n    loop i1 4 {\n      loop i2 2 {\n        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \\\n                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \\\n                    hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i1\n      }\n    }\n  }\n}`);
    return L;
  }
  e(`# AMEM Weights Read: row k of A^T = 2 words (256 bytes, natural FP16 storage order, chip §7.3); 8 words per block`);
  e(`.program ${nm}_wr amem_weights_read {\n  loop i0 ${nm}_K / ${rb} {\n    loop i1 8 {\n      Read_SRAM is_16bit=1 wdc_type=Uncompressed iter_stride[i0]=64 iter_stride[i1]=8\n    }\n  }\n}`);
  e(`# WDP, Figure 9-4: i1 tbuf (bank), i2 tbuf column pair (row A/B, C/D), i3 H-lane group (the two words of a row);`);
  e(`# LD_1ROW_16B_TRANS, 2 partitions per H-lane (Table 9-3), grid_row_in_pair by hardware (Table 9-4); 64-byte blocks`);
  e(`.program ${nm}_wdp wdp {\n  loop i0 ${nm}_K / ${rb} {\n    loop i1 2 {\n      loop i2 2 {\n        loop i3 2 {\n          WR_HBUF is_16bit=1 hbuf_wr_control=LD_1ROW_16B_TRANS log2_ptns_per_hlane=1 hlane_iter_id=i3 \\\n                  tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \\\n                  hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \\\n                  hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3]\n        }\n      }\n    }\n  }\n}`);
  e(`# GH, Figure 10-3: i1 quad-byte, i2 word in bank: VGR = 4*i1 + i2 (Table 9-9: word w holds VGRs w and w + 4)`);
  e(`.program ${nm}_gh gh {\n  loop i0 ${nm}_K / ${rb} {\n    loop i1 2 {\n      loop i2 4 {\n        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP16 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \\\n                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \\\n                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2\n      }\n    }\n  }\n}`);
  return L;
}
