# Fused linear layer: C = ReLU(A x B + bias) on one UIE, the bias add and ReLU on the VPU with no AMEM round
# trip between the grid and the VPU (chip §6.1.4: AMEM -> Grid -> (Vbuffer) -> VPU -> (Vbuffer) -> AMEM).
#
#   trip bias_load: bias row (FP16, EB -15) -> AMEM Read -> SB2VB -> Vbuffer tile 1, scratchpad entry 0
#   trip mm:        A (weights path) x B (AMEM Read -> GV) on the grid, as matmul_fp8.pasm with K = 256;
#                   GWB -> grid-facing switchbox FIFO (tgt_fifo=VPU, eb_adj +7: EB_MNS -8 -> the VPU's EB -15)
#                   -> SB2VB -> tile 0 (FIFO) -> VB2VPU -> VPU: r15 = bias (once), then per row
#                   r1 = row + r15, push ReLU(r1) -> VPU2VB -> tile 2 (FIFO) -> VB2SB -> AMEM Write (FP16, WPSW
#                   re-interleave, chip §7.3.1)
#
# Row r of C = virtual grid-row r (slot r%8 of grid-row r/8); column c = grid column c = VPU lane c.
.const K = 256
.const KBLK = K / 128
.const ROW = K / 16

# ---- trip bias_load: one FP16 row (256 bytes) into Vbuffer tile 1, scratchpad entry 0 (no count: the reader
# of the next trip reads it without a RAW dependency, seq §14.4 "scratchpad_count_decr" not set, so that trip
# must not start before this one completed: `after = [bias_load]` in matmul_bias_relu.ld). RPSW entry 0
# de-interleaves the AMEM FP16 swizzle (chip §7.3.1) so lane c holds column c.
.program bl_rd amem_read {
  Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer rpsw_config_vld=1 rpsw_config_idx_base=0
}
.program bl_in sb2vb {
  WR_VLD wr_tile_idx=1 src_select=AMEM_FIFO scratchpad_mode=1 scratchpad_count_incr_amt=0 wr_addr_base=0
}

# ---- trip mm: the grid (see matmul_fp8.pasm for the derivation of every field)
.program mbr_wr amem_weights_read {
  loop i0 KBLK {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8 iter_stride[i1]=ROW iter_stride[i2]=8*ROW iter_stride[i3]=16*ROW
        }
      }
    }
  }
}
.program mbr_wdp wdp {
  loop i0 KBLK {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          WR_HBUF hbuf_wr_control=LD_1ROW_16B log2_ptns_per_hlane=3 hlane_iter_id=i3 grip_iter_id=i2 \
                  dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \
                  hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3] \
                  hbuf_stride_dim1=16 hbuf_stride_iter_id_dim1=i1
        }
      }
    }
  }
}
.program mbr_gh gh {
  loop i0 KBLK {
    loop i1 16 {
      loop i2 8 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}
# the RPSW configuration is held across trips (seq §5.4): B (FP8, no swizzle) selects the identity entry 1
.program mbr_rd amem_read {
  loop i0 K {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8 rpsw_config_vld=1 rpsw_config_idx_base=1
  }
}
.program mbr_gv gv {
  loop i0 K / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}
.program mbr_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 K / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}
# writeback to the VPU-facing FIFO; eb_adj +7 re-biases the MNS results (EB -8) to the VPU's FP16 (EB -15)
.program mbr_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=VPU diagonal_mask_mode=Disabled eb_adj=7 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# ---- the VPU side of trip mm
.program mbr_in sb2vb {
  loop i0 128 {
    WR_VLD wr_tile_idx=0 src_select=Grid_FIFO
  }
}
# the bias row first (scratchpad read of tile 1, entry 0), then the 128 rows of C in FIFO order
.program mbr_feed vb2vpu {
  RD_VLD rd_tile_idx=1 scratchpad_mode=1 scratchpad_count_decr=0 rd_addr_base=0
  loop i0 128 {
    RD_VLD rd_tile_idx=0
  }
}
.vpu load_bias {
  MOV rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1
}
.vpu bias_relu {
  ADD rd=r1 src1_sel=IN_FIFO rs2=r15 src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1
  RELU rd=r2 rs1=r1 src1_sel=GPR out_fifo_push=1
}
.program mbr_vi vi {
  Generate_VPU_Program vpv_pgm_start_addr=load_bias
  loop i0 128 {
    Generate_VPU_Program vpv_pgm_start_addr=bias_relu
  }
}
.program mbr_out vpu2vb {
  loop i0 128 {
    WR_VLD wr_tile_idx=2
  }
}
.program mbr_drain vb2sb {
  loop i0 128 {
    RD_VLD rd_tile_idx=2 tgt_select=AMEM_FIFO
  }
}
# 128 rows of C, FP16 (16 partitions each); WPSW entry 0 re-interleaves for the AMEM FP16 swizzle (chip §7.3.1)
.program mbr_wr_c amem_write {
  loop i0 128 {
    Write src_fifo=Vbuffer data_type=Recogni_FP16 iter_stride[i0]=16 wpsw_config_vld=1 wpsw_config_idx_base=0
  }
}
