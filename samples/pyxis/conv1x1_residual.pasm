# 1x1 convolution + residual add by InMemAdd: Y = W x X + R for one data row (chip §6.1.2, §7.4.1; seq §9.2.1).
#
#   W: Cout = 128 x Cin = 64 LnsI4F3 weights, the linker's uncompressed 1x1 database (kind = linear8, chip §15.2,
#      Table 15-3): per group g of 8 input channels, 8 AMEM words; word r gives grid-row q the 8 weights of
#      Cout 8q + r (docs/weights.md). AMEM Weights Read -> WDC (pass-through) -> WDP LD_2ROWS_8B (Figure 9-2: one
#      partition per h-lane = 8 bytes to each of its two grid-rows) -> Hbuf: grid-row q, byte 8r = Cout 8q + r.
#   X: [Cin, 1, 128] RFP8 (one 128-byte AMEM row per input channel) -> AMEM Read -> GV: 8 input channels per staging.
#   GX: per group of 8 input channels, one Exec_Valid per output channel of the grid-row (accumulator slot r).
#   GWB: 16 grid-rows x 8 slots = output channels 8q + r -> FP16 -> AMEM Write RMW_Add: Y[c] = R[c] + (W x X)[c]
#      (the output tensor y holds R before the trip; chip §7.4.1 InMemAdd, the add in RFP16).
# EBs: weights eb -12 (LNS, mapping correction off in the WDP: "already in LNS format", seq §9.1), X eb -12,
# so EB_MNS = -8 = the eb of y (RFP16).
.const CIN = 64

.program c1_wr amem_weights_read {
  loop i0 CIN / 8 {
    loop i1 8 {
      Read_SRAM wdc_type=Uncompressed iter_stride[i0]=64 iter_stride[i1]=8
    }
  }
}

# WDP, seq §9.2.1 Figure 9-2: i1 = output channel in grid-row (8-byte stride over {addr_in_bank, bank}).
.program c1_wdp wdp {
  loop i0 CIN / 8 {
    loop i1 8 {
      WR_HBUF hbuf_wr_control=LD_2ROWS_8B log2_ptns_per_hlane=0 dsbl_mapping_corr=1 eb_adj=0 lin2log_config_vld=1 \
              hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1] \
              hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1
    }
  }
}

# GH: the 8 weights of output channel r (byte 8r of the 64-byte block) per cycle.
.program c1_gh gh {
  loop i0 CIN / 8 {
    loop i1 8 {
      HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                  hbuf_block_iter_mask=[i1] hbuf_stride_dim1=8 hbuf_stride_iter_id_dim1=i1
    }
  }
}

# AMEM Read: input channel c (one row of 128 pixels) per cycle.
.program c1_rd amem_read {
  loop i0 CIN {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8
  }
}

.program c1_gv gv {
  loop i0 CIN / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}

.program c1_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 CIN / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

.program c1_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# AMEM Write, InMemAdd (chip §7.4.1): read Y[c] at the write address (rmw_rd_addr_offset 0), add, write back.
# (FP16 rows: the WPSW entry 0 of the link script re-interleaves the natural-order grid columns into the serialized
# FP16 storage order of chip §7.3.1; wpsw_config_vld = 1 selects it.)
.program c1_wr_y amem_write {
  loop i0 128 {
    RMW_Add src_fifo=Grid data_type=Recogni_FP16 rmw_rd_addr_offset=0 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}
