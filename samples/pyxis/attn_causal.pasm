# Causal attention tile on one UIE: O = softmax(Q K^T / sqrt(d_k) + causal mask) V for 128 tokens, d_k = 64,
# d_v = 128 (chip §6.1.4: AMEM -> Grid -> Vbuffer -> VPU -> Vbuffer -> Grid -> AMEM, no AMEM round trip for P).
#
# Orientation (docs/spec-notes.md): the grid computes the transposed score tile S^T = K Q^T (grid row =
# key j, column = query i), so that the probabilities leave the VPU as rows of P^T (row j, lane i) - exactly the
# vertical operand B[k = j][col = i] the grid needs for O^T = V^T P^T. The softmax runs down the columns: the
# per-query max is the SB2VB max-value snooping register (seq §14.1), the sums are lane-wise VPU adds.
#
#   trip scores: K^T [64, 128] (FP8, transposed weights path, as matmul_transposed_fp8.pasm) x Q^T [64, 128]
#                (FP8, AMEM Read -> GV) = S^T on the grid (64 Exec_Valid cycles);
#                GWB: eb_adj = 7 - 3 (EB_MNS -8 -> the VPU's EB -15, times 2^-3 = 1/sqrt(64)), diagonal mask
#                Col_LT_Row (key j > query i is the future, chip §6.2.2.1.3) -> -max, column mask 0 (query columns
#                >= 120 are padding: forced to zero, precedence over the diagonal mask, chip §6.2.2.1.4) ->
#                VPU-facing FIFO -> SB2VB: tile 0 (snooping the signed column max), then the snoop register ->
#                tile 1 (m_i);
#                VPU pass A (128 rows): e = LUT_exp(S^T[j] - m) -> tile 6, sum_i += e; recip = LUT_recip(sum) and
#                one Newton step; VPU pass B (128 rows from tile 6): P^T[j] = e * recip, pushed twice -> VPU2VB ->
#                tile 2 (FIFO, for the grid) and tile 4 (FIFO, the copy for checking).
#   trip pv:     V [128, 128] (FP8, transposed weights path: A^T = V, so A = V^T) x P^T (VB2SB tile 2 ->
#                Vbuffer-to-grid switchbox FIFO -> GV Read_VPU_FIFO, chip Table 6-3) = O^T -> AMEM Write ot (FP16);
#                it starts with scores (the sequencers run their trips in order, the Vbuffer FIFO is the hand-off), so
#                the grid multiplies each P^T row as the VPU produces it.
#   trip pdump:  tile 4 -> VB2SB -> AMEM Write pt (FP16): the probabilities, for checking only.
# EBs: Q^T, K^T, V eb -12 (RFP8); S^T and P^T FP16 at EB -15. GV eb_adj +8 carries P^T into the grid at EB -23, so
# EB_MNS = -12 - 23 + 16 = -19 and products down to 2^-19 survive (at EB -15 products below 2^-11 would vanish);
# the pv writeback eb_adj -4 gives O^T at EB -15.
.const DK = 64

# ================================================================ trip scores
.program sc_wr amem_weights_read {
  loop i0 DK {
    Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8
  }
}
.program sc_wdp wdp {
  loop i0 DK / 8 {
    loop i1 2 {
      loop i2 4 {
        WR_HBUF hbuf_wr_control=LD_2ROWS_8B_TRANS log2_ptns_per_hlane=0 tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 \
                dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \
                hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \
                hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2]
      }
    }
  }
}
.program sc_gh gh {
  loop i0 DK / 8 {
    loop i1 4 {
      loop i2 2 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \
                    hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i1
      }
    }
  }
}
.program sc_rd amem_read {
  loop i0 DK {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8
  }
}
.program sc_gv gv {
  loop i0 DK / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}
.program sc_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 DK / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}
# S^T row j = 8 * grid-row + slot: Col_LT_Row masks query i < key j (chip §6.2.2.1.3 mode 2) with -max
.program sc_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=VPU diagonal_mask_mode=Col_LT_Row diagonal_mask_override_sel=Max_Negative col_mask_idx=0 \
             eb_adj=7-3 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}
# row j -> tile 0 (FIFO), snooping the signed column max (restarted at j = 0); then the snoop register (m_i per
# lane) -> tile 1 (FIFO). FIFO occupancy is the only flow control needed: every row is read once, in order.
.program sc_in sb2vb {
  loop i0 128 {
    WR_VLD wr_tile_idx=0 src_select=Grid_FIFO snoop_vld=1 snoop_signed=1 snoop_start_iter_mask=[i0]
  }
  WR_VLD wr_tile_idx=1 src_select=Snoop_Register
}
# m first (it is written after the last score row, so pass A starts only when the column maxima are final), then the
# 128 score rows (pass A), then the 128 exp rows that pass A stored in tile 6 (pass B)
.program sc_feed vb2vpu {
  RD_VLD rd_tile_idx=1
  loop i0 128 {
    RD_VLD rd_tile_idx=0
  }
  loop i0 128 {
    RD_VLD rd_tile_idx=6
  }
}
# ---- VPU (project model ISA, grammars/pyxis/vpu_instr.json); LUT 0 = exp, LUT 1 = 1/x (scripts/make-vpu-lut.mjs)
.vpu sm_init {
  MOV rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1
  MOV rd=r14 src1_sel=IMM imm=0 wr_gpr_en=1
}
# pass A: e = exp(s - m) (pushed: -> tile 6), sum += e
.vpu sm_sum {
  SUB rd=r1 src1_sel=IN_FIFO rs2=r15 src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1
  LUT rd=r2 rs1=r1 lut_idx=0 wr_gpr_en=1 out_fifo_push=1
  ADD rd=r14 rs1=r14 rs2=r2 wr_gpr_en=1
}
# r13 = y0 = LUT_recip(sum); one Newton step y1 = y0 * (2 - sum * y0) (0x4000 = 2.0 at EB -15)
.vpu sm_recip {
  LUT rd=r13 rs1=r14 lut_idx=1 wr_gpr_en=1
  MUL rd=r3 rs1=r14 rs2=r13 wr_gpr_en=1
  SUB rd=r3 src1_sel=IMM imm=0x4000 rs2=r3 wr_gpr_en=1
  MUL rd=r13 rs1=r13 rs2=r3 wr_gpr_en=1
}
# pass B: P^T row = e * (1 / sum), pushed twice (the grid's copy, the checking copy)
.vpu sm_out {
  MUL rd=r2 src1_sel=IN_FIFO rs2=r13 src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1 out_fifo_push=1
  MOV rd=r2 rs1=r2 out_fifo_push=1
}
.program sc_vi vi {
  Generate_VPU_Program vpv_pgm_start_addr=sm_init
  loop i0 128 {
    Generate_VPU_Program vpv_pgm_start_addr=sm_sum
  }
  Generate_VPU_Program vpv_pgm_start_addr=sm_recip
  loop i0 128 {
    Generate_VPU_Program vpv_pgm_start_addr=sm_out
  }
}
# the exp rows of pass A -> tile 6 (bank 3, read back by VB2VPU); each P^T row twice: tile 2 (bank 1) for the grid in
# trip pv, tile 4 (bank 2) for the AMEM copy. One reading sequencer per bank (seq §13.3): VB2VPU banks 0 and 3, VB2SB
# banks 1 and 2.
.program sc_out vpu2vb {
  loop i0 128 {
    WR_VLD wr_tile_idx=6
  }
  loop i0 128 {
    WR_VLD wr_tile_idx=2
    WR_VLD wr_tile_idx=4
  }
}
# ================================================================ trip pv
.program pv_wr amem_weights_read {
  loop i0 128 {
    Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8
  }
}
.program pv_wdp wdp {
  loop i0 128 / 8 {
    loop i1 2 {
      loop i2 4 {
        WR_HBUF hbuf_wr_control=LD_2ROWS_8B_TRANS log2_ptns_per_hlane=0 tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 \
                dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \
                hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \
                hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2]
      }
    }
  }
}
.program pv_gh gh {
  loop i0 128 / 8 {
    loop i1 4 {
      loop i2 2 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \
                    hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i1
      }
    }
  }
}
# P^T rows from Vbuffer tile 2 (FIFO) to the Vbuffer-to-grid switchbox FIFO (chip Table 6-3)
.program pv_feed vb2sb {
  loop i0 128 {
    RD_VLD rd_tile_idx=2 tgt_select=Grid_FIFO
  }
}
.program pv_gv gv {
  loop i0 128 / 8 {
    loop i1 8 {
      Read_VPU_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=8
    }
  }
}
.program pv_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 128 / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}
.program pv_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled col_mask_idx=0 eb_adj=-4 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}
.program pv_wr_o amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP16 eb_adj=0 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}

# ================================================================ trip pdump
# the probabilities for checking: tile 4 -> AMEM. A trip of its own, queued after pv: VB2SB runs its trips in order,
# so a P^T drain in trip scores would hold back pv's feed of the grid until all 128 rows had gone to AMEM.
.program pd_drain vb2sb {
  loop i0 128 {
    RD_VLD rd_tile_idx=4 tgt_select=AMEM_FIFO
  }
}
# P^T rows, FP16 (16 partitions each); WPSW entry 0 re-interleaves for the AMEM FP16 swizzle (chip §7.3.1)
.program pd_wr_p amem_write {
  loop i0 128 {
    Write src_fifo=Vbuffer data_type=Recogni_FP16 iter_stride[i0]=16 wpsw_config_vld=1 wpsw_config_idx_base=0
  }
}

