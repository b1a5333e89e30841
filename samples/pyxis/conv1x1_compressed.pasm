# 1x1 convolution with compressed 4-bit weights: Y = W x X (chip §6.1.2, §6.2.4.1, §14; seq §7, §9.1.1).
#
#   W: Cout = 128 x Cin = 64, the linker's compressed database (kind = compressed, organisation cin_per_cout,
#      block_size 8; chip §15.4, docs/weights.md): the codebook word (16 LnsI4F3 entries, EB -15), then one superblock
#      per group k of 8 input channels = 1 scaling-factor word (128 blocks) + 4 words of 4-bit indices (128 blocks x 8
#      nibbles). Block j of superblock k holds Cout (j>>4) + 8*(j&15), Cin 8k..8k+7, so the 8 decompressed words
#      of a superblock (128 blocks x 8 weights; "decode 128 weight values per cycle", chip §6.2.4.1) give 8 bytes to
#      each of the 16 grid-rows, word w = Cout 8q + w of grid-row q: the layout of the uncompressed 1x1 database
#      (Table 9-1, "compressed weights with a compression-block size of 4 or 8"), so WDP, GH and the rest of the trip
#      are those of conv1x1_residual.pasm.
#   AMEM Weights Read: wdc_type selects Codebook / Scaling_Factors / Compressed_Data (seq §7.1); every access is
#      128-byte aligned (seq §1.1 rule 2). One compressed word (256 indices) -> two 128-byte WDC output words.
#   X: [64, 1, 128] RFP8 eb -12; weights eb -12 (scaling factors and decompressed weights) -> Y RFP16 eb -8.
.const CIN = 64
.const SB = 40                   # superblock = 128 + 64 * 8 bytes = 40 partitions

.program cz_wr amem_weights_read {
  Read_SRAM wdc_type=Codebook amem_addr_offset=0
  loop i0 CIN / 8 {
    Read_SRAM wdc_type=Scaling_Factors amem_addr_offset=8 iter_stride[i0]=SB
    loop i1 4 {
      Read_SRAM wdc_type=Compressed_Data wdc_block_size=Blocksize_8 amem_addr_offset=16 iter_stride[i0]=SB iter_stride[i1]=8
    }
  }
}

# WDP, seq §9.2.1 Figure 9-2: i1 = output channel in grid-row (8-byte stride over {addr_in_bank, bank}).
.program cz_wdp wdp {
  loop i0 CIN / 8 {
    loop i1 8 {
      WR_HBUF hbuf_wr_control=LD_2ROWS_8B log2_ptns_per_hlane=0 dsbl_mapping_corr=1 eb_adj=0 lin2log_config_vld=1 \
              hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1] \
              hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1
    }
  }
}

# GH: the 8 weights of output channel r (byte 8r of the 64-byte block) per cycle.
.program cz_gh gh {
  loop i0 CIN / 8 {
    loop i1 8 {
      HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                  hbuf_block_iter_mask=[i1] hbuf_stride_dim1=8 hbuf_stride_iter_id_dim1=i1
    }
  }
}

# AMEM Read: input channel c (one row of 128 pixels) per cycle.
.program cz_rd amem_read {
  loop i0 CIN {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8
  }
}

.program cz_gv gv {
  loop i0 CIN / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}

.program cz_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 CIN / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

.program cz_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# AMEM Write: output channel c (128 FP16 pixels = 16 partitions) per flit.
# (FP16 rows: the WPSW entry 0 of the link script re-interleaves the natural-order grid columns into the serialized
# FP16 storage order of chip §7.3.1; wpsw_config_vld = 1 selects it.)
.program cz_wr_y amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP16 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}
