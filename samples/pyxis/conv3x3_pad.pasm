# 3x3 convolution, stride 1, padding 1: Y[16, 8, 128] = conv3x3(X[16, 8, 128], W[16, 16, 3, 3]) (chip §6.1.1).
#
# One row-group: 8 output rows need 10 input rows per input channel (seq §1.2 rule 1: 8N + 2 rows including the
# padding); the padded rows -1 and 8 are Read_Const(0) rows from the AMEM Read sequencer. Width 128 = the grid: the
# west/east neighbours of columns 0 and 127 are outside the filter's partitions (log2_ptns_per_filter = 3) = zero
# padding. Grid-row q computes output channel q (1 filter per grid-row, the 3x3 database's grid-row mapping,
# docs/spec-notes.md), its accumulator slot s = output row s.
#   W: the linker's 3x3 database (kind = conv3x3, chip §15.1): per grid-row the kernels of Cin 0..15, 9 bytes each
#      (taps NW NC NE CW CC CE SW SC SE), chunk-major in 8-byte chunks: 144 bytes per grid-row = 18 AMEM words, each
#      giving 8 bytes to every grid-row -> WDP LD_2ROWS_8B at consecutive 8-byte Hbuf addresses; GH RD_3X3 reads the 9
#      bytes of Cin i at byte 9i (docs/spec-notes.md "Hbuf layout of a 3x3 kernel"). One Hbuf block of 144 bytes
#      (9 x 16) for the whole trip.
#   X: AMEM Read row by row, 10 rows per input channel -> GV in 3x3 mode (v_staging front buffer, 3-cycle pipe).
#   GX: per input channel 2 Exec_Bubble (fill the 3-row window) + 8 Exec_Valid (output rows 0..7 = slots): the
#      10-cycle group of chip §6.1.1 step 8; the h front buffer (kernel) is done after the 8th row.
# EBs: X eb -12, W eb -12 (LnsI4F3, mapping correction off in the WDP), Y RFP16 eb -8.
.const CIN = 16
.const CHUNKS = CIN * 9 / 8      # 8-byte chunks per grid-row (18)

.program c3_wr amem_weights_read {
  loop i0 CHUNKS {
    Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8
  }
}

.program c3_wdp wdp {
  loop i0 CHUNKS {
    WR_HBUF hbuf_wr_control=LD_2ROWS_8B log2_ptns_per_hlane=0 dsbl_mapping_corr=1 eb_adj=0 lin2log_config_vld=1 \
            hbuf_block_size=CHUNKS/2 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i0] \
            hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i0
  }
}

# GH: kernel of input channel i0 (byte 9*i0); i1 = the filter of the grid-row (1 filter: counts to 1).
.program c3_gh gh {
  loop i0 CIN {
    loop i1 1 {
      HBUF_RD_VLD hbuf_rd_cmd=RD_3X3 end_grid_row_idx=15 log2_filters_per_row=0 h_staging_filter_iter_id=i1 h_staging_done_en=1 \
                  hbuf_block_size=CHUNKS/2 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i0, i1] \
                  hbuf_stride_dim1=9 hbuf_stride_iter_id_dim1=i0
    }
  }
}

# AMEM Read: per input channel, pad row, rows 0..7 (8 partitions each, channel stride 64), pad row.
.program c3_rd amem_read {
  loop i0 CIN {
    Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0
    loop i1 8 {
      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=64 iter_stride[i1]=8
    }
    Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0
  }
}

.program c3_gv gv {
  loop i0 CIN {
    loop i1 10 {
      Read_AMEM_FIFO conv3x3_mode=1 dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}

.program c3_gx gx {
  Exec_Config conv3x3_mode=1 end_grid_row_idx=15 log2_active_ptns=3 log2_ptns_per_filter=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 CIN {
    loop i1 2 {
      Exec_Bubble conv3x3_mode=1
    }
    loop i1 8 {
      Exec_Valid conv3x3_mode=1 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

# GWB: grid-row q = output channel q, slot s = output row s -> Y[q, s, :] at partition 16 * (8q + s).
.program c3_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# (FP16 rows: the WPSW entry 0 of the link script re-interleaves the natural-order grid columns into the serialized
# FP16 storage order of chip §7.3.1; wpsw_config_vld = 1 selects it.)
.program c3_wr_y amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP16 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}
