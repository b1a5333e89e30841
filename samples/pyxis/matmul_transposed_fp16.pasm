# Transposed FP16 MatMul C[128,128] = A[128,K] x B[K,128] with A stored transposed (A^T, RFP16 [K, 128]) and
# transposed on the fly by the weights path (chip §6.1.3.1, §6.2.4.2; seq §9.4.2 Figure 9-4, Tables 9-9 / 9-10,
# §10.1.4 Figure 10-3).
#
# Row k of A^T is column k of A: 128 FP16 values = 256 bytes = two AMEM words ("A 63:0", "A 127:64" of Table 9-10).
# With 2 partitions per H-lane (log2_ptns_per_hlane = 1, the only setting Table 9-3 allows for LD_1ROW_16B_TRANS),
# the first word goes to H-lanes 0-3 and the second to H-lanes 4-7 (hlane group iterator); partition 2h+g of a word
# = 8 values m = 8(2h+g).. = the 8 VGRs of grid-row 2h+g, the grid-row-in-pair g set by hardware (Table 9-4).
# The WDP collects 4 rows (k = 4b .. 4b+3, "A..D" of Table 9-9): rows A, B in tbuf 0 (Hbuf bank 0), C, D in tbuf 1
# (bank 1); one Hbuf block of 64 bytes per grid-row = 8 AMEM words. GH reads, for each VGR v, A_v B_v from bank 0
# and C_v D_v from bank 1 (RD_TRANS_1X1_MATMUL_FP16: 4 x 2-byte values, the same 4 consecutive k as the row-shifted
# RD_1X1_MATMUL_FP16), so GV, GX, GWB and AMEM Write are those of matmul_fp16.pasm.
# K need only be a multiple of 4 (seq §1.2 rule 3, FP16 horizontal operand): here K = 260, not a multiple of 8.
# EBs: A^T and B eb = -12 -> EB_MNS = -8; C RFP16 eb = -8.
.const K = 260

# AMEM Weights Read: the two words of row k of A^T per 2 cycles; 8 words (4 rows) per Hbuf block.
.program mmt16_wr amem_weights_read {
  loop i0 K / 4 {
    loop i1 8 {
      Read_SRAM is_16bit=1 wdc_type=Uncompressed iter_stride[i0]=64 iter_stride[i1]=8
    }
  }
}

# WDP, Figure 9-4: i1 tbuf (2; bank stride 1), i2 tbuf column pair (2: rows A/B or C/D), i3 H-lane group (2: the two
# words of one row). Block = 64 B = 4 x 16 B.
.program mmt16_wdp wdp {
  loop i0 K / 4 {
    loop i1 2 {
      loop i2 2 {
        loop i3 2 {
          WR_HBUF is_16bit=1 hbuf_wr_control=LD_1ROW_16B_TRANS log2_ptns_per_hlane=1 hlane_iter_id=i3 \
                  tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \
                  hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \
                  hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3]
        }
      }
    }
  }
}

# GH, Figure 10-3: i1 quad-byte (2, stride 4 B), i2 word in bank (4, stride 16 B): VGR = 4*i1 + i2 (Table 9-9: word w
# holds VGRs w and w + 4).
.program mmt16_gh gh {
  loop i0 K / 4 {
    loop i1 2 {
      loop i2 4 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP16 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}

# AMEM Read: row k of B = 16 partitions (two read-port cycles); RPSW entry 0 de-interleaves (chip §7.3.1).
.program mmt16_rd amem_read {
  loop i0 K {
    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Grid rpsw_config_vld=1 rpsw_config_idx_base=0 iter_stride[i0]=16
  }
}

# GV: 4 rows of B per staging in the 3-4-1 pattern of matmul_fp16.pasm.
.program mmt16_gv gv {
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

# GX: K/4 groups of 8 VGRs, in GH's VGR order (accumulator slot = i1).
.program mmt16_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 K / 4 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

.program mmt16_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# AMEM Write: 128 RFP16 rows; WPSW entry 0 re-interleaves into the chip §7.3.1 storage order.
.program mmt16_wr_c amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP16 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}
