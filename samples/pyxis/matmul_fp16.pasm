# FP16 MatMul C[128,128] = A[128,K] x B[K,128] on one UIE, row-shifted A (chip §6.1.3.2; seq §9.3 "FP8 / FP16
# MatMul Row-shifted", §10.1.3 "the same as for FP8, except RD_1x1_MATMUL_FP16").
#
# Both operands are RFP16, converted to LnsI5F10 (weights path: WDP is_16bit; top: GV lin2log, all 10 fraction bits).
# FP16 values take two cycles per element over a byte lane, so per 8 cycles an LLC collects 4 rows of B (v_staging,
# padded to 8 entries with zero rows)
# and each VGR gets 4 values of A per cycle (GH reads 4 x 2 bytes): K/4 groups x 8 VGRs = 2K Exec_Valid cycles,
# half the FP8 rate (22 TFLOPS per UIE, chip §1).
# An AMEM word holds 64 FP16 values, so one Hbuf block (8 VGRs x 128 bytes per grid-row) covers 64 values of K.
# EBs: A and B eb = -12 -> EB_MNS = -8; C RFP16 eb = -8.
.const K = 256
.const KBLK = K / 64
.const ROW = K / 8               # partitions per row of A (2 bytes per value)

.program mm16_wr amem_weights_read {
  loop i0 KBLK {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          Read_SRAM is_16bit=1 wdc_type=Uncompressed iter_stride[i0]=8 iter_stride[i1]=ROW iter_stride[i2]=8*ROW iter_stride[i3]=16*ROW
        }
      }
    }
  }
}

.program mm16_wdp wdp {
  loop i0 KBLK {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          WR_HBUF is_16bit=1 hbuf_wr_control=LD_1ROW_16B log2_ptns_per_hlane=3 hlane_iter_id=i3 grip_iter_id=i2 \
                  dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \
                  hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3] \
                  hbuf_stride_dim1=16 hbuf_stride_iter_id_dim1=i1
        }
      }
    }
  }
}

# GH: i1 "octobyte" = 4 FP16 values (k = 64*i0 + 4*i1 ..), i2 VGR.
.program mm16_gh gh {
  loop i0 KBLK {
    loop i1 16 {
      loop i2 8 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP16 end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}

# AMEM Read: row k of B = 128 FP16 values = 16 partitions (two read-port cycles per row); the RPSW entry 0 of the
# link script de-interleaves the serialized FP16 partitions into natural column order (chip §7.3.1).
.program mm16_rd amem_read {
  loop i0 K {
    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Grid rpsw_config_vld=1 rpsw_config_idx_base=0 iter_stride[i0]=16
  }
}

# GV: 4 rows of B per staging, in the 8-entry pattern of chip §6.3.1 for 16-bit horizontal data: 3 zero rows,
# 4 data rows, 1 zero row (entries 3..6 feed the four 16-bit multipliers: docs/spec-notes.md "which v_staging
# entries feed the 16-bit multipliers"). Staging start on the first zero row.
.program mm16_gv gv {
  loop i0 K / 4 {
    loop i1 3 {
      Read_Zero conv3x3_mode=0 staging_start_iter_mask=[i1]
    }
    loop i1 4 {
      Read_AMEM_FIFO conv3x3_mode=0 dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
    Read_Zero conv3x3_mode=0
  }
}

# GX: K/4 groups of 8 VGRs.
.program mm16_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 K / 4 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

.program mm16_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# (FP16 rows: the WPSW entry 0 of the link script re-interleaves the natural-order grid columns into the serialized
# FP16 storage order of chip §7.3.1; wpsw_config_vld = 1 selects it.)
.program mm16_wr_c amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP16 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}
