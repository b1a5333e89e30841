# Transposed FP8 MatMul C[128,128] = A[128,K] x B[K,128] with A stored transposed (A^T, row-major [K, 128]) and
# transposed on the fly by the weights path (chip §6.1.3.1; seq §9.4.1 Figure 9-3, §10.1.4 Figure 10-2).
#
# Each 128-byte row k of A^T is column k of A: byte m goes to virtual grid-row m (grid-row m/8, slot m%8). The WDP
# loads 8 consecutive rows (k = 8b .. 8b+7, "A..H" of Table 9-7) through the ping-pong tbufs into one 64-byte Hbuf
# block per grid-row; GH reads, for each VGR, 4 bytes from each bank = its 8 k-values (RD_TRANS_1X1_MATMUL_FP8).
# Unlike the row-shifted flow there is no 128-row block to buffer: the fill is one 8-word block, so K need not be
# a multiple of 128 (only of 8, seq §1.2 rule 3).
# B, GV, GX, GWB and AMEM Write are those of matmul_fp8.pasm. EBs: A^T and B eb = -12, C RFP16 eb = -8.
.const K = 512
.const OUT16 = 1                 # 1: C in RFP16 (data_type 4 = Recogni_FP16, 16 partitions per row); 0: RFP8 (Recogni_FP8, 16b->8b on the write path)

# AMEM Weights Read: row k of A^T per cycle.
.program mmt_wr amem_weights_read {
  loop i0 K {
    Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8
  }
}

# WDP, Figure 9-3: i1 tbuf (2; bank stride 1 over {addr_in_bank, bank}), i2 tbuf column (4); one partition per
# h-lane (Table 9-3), both grid-rows of the h-lane get 8 bytes (LD_2ROWS_8B_TRANS). Block = 64 B = 4 x 16 B.
.program mmt_wdp wdp {
  loop i0 K / 8 {
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

# GH, Figure 10-2: i1 word in bank (4, stride 16 B), i2 quad-byte (2, stride 4 B): VGR = 2*i1 + i2.
.program mmt_gh gh {
  loop i0 K / 8 {
    loop i1 4 {
      loop i2 2 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \
                    hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i1
      }
    }
  }
}

# AMEM Read: row k of B per cycle to the grid.
.program mmt_rd amem_read {
  loop i0 K {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8
  }
}

.program mmt_gv gv {
  loop i0 K / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}

# GX: the VGR order of GH (2*i1 + i2 = 0..7) is the accumulator slot, one Exec_Valid per VGR (i1 = slot).
.program mmt_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 K / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

.program mmt_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# AMEM Write: RFP16 rows (16 partitions, 2 port cycles) or, with OUT16 = 0, RFP8 rows (8 partitions, 1 cycle;
# FP16 eb -8 -> FP8 eb -4: eb_adj -4, chip §6.2.2.2).
# (FP16 rows: the WPSW entry 0 of the link script re-interleaves the natural-order grid columns into the serialized
# FP16 storage order of chip §7.3.1; wpsw_config_vld = 1 selects it.)
.program mmt_wr_c amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=4*OUT16 eb_adj=4*OUT16-4 wpsw_config_vld=OUT16 wpsw_config_idx_base=0 iter_stride[i0]=8+8*OUT16
  }
}
