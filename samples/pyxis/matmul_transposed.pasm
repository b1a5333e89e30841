# seq-fspec §9.4 (WDP) and §10.1.4 (GH): transposed MatMul, FP8 and FP16.
# HBUF block = 64 B per grid-row (8 AMEM words).
.const HBUF_BLOCKS = 4

# §9.4.1 Figure 9-3: FP8, i1 tbuf (2), i2 tbuf column (4); LD_2ROWS_8B_TRANS needs log2_ptns_per_hlane=0 (Table 9-3).
.program mm_trans_fp8_wdp wdp {
  loop i0 HBUF_BLOCKS {
    loop i1 2 {
      loop i2 4 {
        WR_HBUF hbuf_wr_control=LD_2ROWS_8B_TRANS log2_ptns_per_hlane=0 tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 \
                hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \
                hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2]
      }
    }
  }
}

# §10.1.4 Figure 10-2: FP8, i1 word-in-bank (4), i2 quad-byte (2).
.program mm_trans_fp8_gh gh {
  loop i0 HBUF_BLOCKS {
    loop i1 4 {
      loop i2 2 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP8 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \
                    hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i1
      }
    }
  }
}

# §9.4.2 Figure 9-4: FP16, i1 tbuf (2), i2 tbuf column pair (2), i3 h-lane group (2);
# LD_1ROW_16B_TRANS needs log2_ptns_per_hlane=1 (Table 9-3).
.program mm_trans_fp16_wdp wdp {
  loop i0 HBUF_BLOCKS {
    loop i1 2 {
      loop i2 2 {
        loop i3 2 {
          WR_HBUF is_16bit=1 hbuf_wr_control=LD_1ROW_16B_TRANS log2_ptns_per_hlane=1 hlane_iter_id=i3 \
                  tbuf_idx_iter_id=i1 tbuf_col_idx_iter_id=i2 hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 \
                  hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3]
        }
      }
    }
  }
}

# §10.1.4 Figure 10-3: FP16, i1 quad-byte (2), i2 word-in-bank (4).
.program mm_trans_fp16_gh gh {
  loop i0 HBUF_BLOCKS {
    loop i1 2 {
      loop i2 4 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_TRANS_1X1_MATMUL_FP16 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i2, i1] hbuf_stride_dim1=4 hbuf_stride_dim2=16 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}
