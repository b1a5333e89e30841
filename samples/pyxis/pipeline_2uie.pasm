# Two-UIE pipeline synchronised by barriers: D = (A x B) x B2 for A [256, 256] in two 128-row tiles.
#
#   UIE 0, stage 1 (programs pl1_*): C1_t = A_t x B, 128 x 256 x 128 FP8 MatMul per tile t (row-shifted A, as
#          matmul_fp8.pasm with K = 256), C1_t written back in RFP8 (eb -6) for the next stage.
#   UIE 1, stage 2 (programs pl2_*): D_t = C1_t x B2, 128 x 128 x 128, C1_t is the horizontal operand (weights path)
#          and B2 the vertical one; D_t in RFP16 (eb -2 = EB_MNS of eb -6 x eb -12).
# The link script makes stage 2 of tile t wait for stage 1 of tile t (`after`): the linker allocates one barrier
# per dependency, UIE 0's trip notifies it when its writes are committed (chip §11.6, §11.7.1), UIE 1's trip waits
# on it. Tile 1 of stage 1 overlaps tile 0 of stage 2 (two UIEs working at once).
.const K_pl1 = 256
.const KBLK_pl1 = K_pl1 / 128
.const ROW_pl1 = K_pl1 / 16
.const K_pl2 = 128
.const KBLK_pl2 = K_pl2 / 128
.const ROW_pl2 = K_pl2 / 16

# ---------------------------------------------------------------- stage 1 (UIE 0)
# AMEM Weights Read: one 128-byte word per cycle in the order the WDP writes them (seq §9.3 table):
# i0 Hbuf block (k = 128*i0 ..), i1 VGR in grid-row, i2 grid-row in h-lane pair, i3 h-lane.
# Row of A = VGR = 8 * (2*hlane + grip) + vgr.
.program pl1_wr amem_weights_read {
  loop i0 KBLK_pl1 {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8 iter_stride[i1]=ROW_pl1 iter_stride[i2]=8*ROW_pl1 iter_stride[i3]=16*ROW_pl1
        }
      }
    }
  }
}

# WDP (seq §9.3): all 8 partitions of a word to one h-lane (log2 = 3, unload delay = partition), one grid-row
# of the pair (grip), VGR vgr at addr_in_bank vgr*8 (+ partition, by hardware; docs/spec-notes.md
# "WDP row-shifted hbuf address"). lin2log with mapping correction, eb_adj 0. Block = 1024 B = 64 x 16 B.
.program pl1_wdp wdp {
  loop i0 KBLK_pl1 {
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

# GH (seq §10.1.3 Figure 10-1): i1 octobyte of the 128-byte row (k = 128*i0 + 8*i1 ..), i2 VGR (row stride 128 B).
.program pl1_gh gh {
  loop i0 KBLK_pl1 {
    loop i1 16 {
      loop i2 8 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}

# AMEM Read: row k of B (8 partitions) per cycle, in k order, to the grid.
.program pl1_rd amem_read {
  loop i0 K_pl1 {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8
  }
}

# GV: 8 rows of B per staging (staging start when i1 = 0), FP8 -> LnsI5F10 with mapping correction, all 10
# fraction bits kept.
.program pl1_gv gv {
  loop i0 K_pl1 / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}

# GX: configuration (all 16 grid-rows, all 8 partitions, both column parities), then K/8 groups x 8 VGRs.
# The accumulator slot is the VGR (i1); the front v_staging is done after the 8th VGR; the first group
# reads zeros from the active accumulators; the last Exec_Valid splits AA -> WBA and kicks the writeback.
.program pl1_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 K_pl1 / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

# GWB (seq §11): one Read_WBA = the 8 slots of one grid-row (8 flits), grid-rows 0..15, no masks, eb_adj 0.
.program pl1_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# AMEM Write: C1 in RFP8 eb -6 (16b->8b, chip §6.2.2.2: E4 = E5 - 2 for FP16 eb -8), 8 partitions per row.
.program pl1_wr_c amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP8 eb_adj=-2 iter_stride[i0]=8
  }
}

# ---------------------------------------------------------------- stage 2 (UIE 1)
# AMEM Weights Read: one 128-byte word per cycle in the order the WDP writes them (seq §9.3 table):
# i0 Hbuf block (k = 128*i0 ..), i1 VGR in grid-row, i2 grid-row in h-lane pair, i3 h-lane.
# Row of A = VGR = 8 * (2*hlane + grip) + vgr.
.program pl2_wr amem_weights_read {
  loop i0 KBLK_pl2 {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8 iter_stride[i1]=ROW_pl2 iter_stride[i2]=8*ROW_pl2 iter_stride[i3]=16*ROW_pl2
        }
      }
    }
  }
}

# WDP (seq §9.3): all 8 partitions of a word to one h-lane (log2 = 3, unload delay = partition), one grid-row
# of the pair (grip), VGR vgr at addr_in_bank vgr*8 (+ partition, by hardware; docs/spec-notes.md
# "WDP row-shifted hbuf address"). lin2log with mapping correction, eb_adj 0. Block = 1024 B = 64 x 16 B.
.program pl2_wdp wdp {
  loop i0 KBLK_pl2 {
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

# GH (seq §10.1.3 Figure 10-1): i1 octobyte of the 128-byte row (k = 128*i0 + 8*i1 ..), i2 VGR (row stride 128 B).
.program pl2_gh gh {
  loop i0 KBLK_pl2 {
    loop i1 16 {
      loop i2 8 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}

# AMEM Read: row k of B (8 partitions) per cycle, in k order, to the grid.
.program pl2_rd amem_read {
  loop i0 K_pl2 {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8
  }
}

# GV: 8 rows of B per staging (staging start when i1 = 0), FP8 -> LnsI5F10 with mapping correction, all 10
# fraction bits kept.
.program pl2_gv gv {
  loop i0 K_pl2 / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}

# GX: configuration (all 16 grid-rows, all 8 partitions, both column parities), then K/8 groups x 8 VGRs.
# The accumulator slot is the VGR (i1); the front v_staging is done after the 8th VGR; the first group
# reads zeros from the active accumulators; the last Exec_Valid splits AA -> WBA and kicks the writeback.
.program pl2_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 K_pl2 / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

# GWB (seq §11): one Read_WBA = the 8 slots of one grid-row (8 flits), grid-rows 0..15, no masks, eb_adj 0.
.program pl2_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# AMEM Write: 128 rows of C, 128 FP16 values = 16 partitions each (2 write-port cycles per flit, chip §6.2.2).
# (FP16 rows: the WPSW entry 0 of the link script re-interleaves the natural-order grid columns into the serialized
# FP16 storage order of chip §7.3.1; wpsw_config_vld = 1 selects it.)
.program pl2_wr_c amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP16 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}
