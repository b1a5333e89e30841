# seq-fspec §9.3 (WDP) and §10.1.3 (GH): row-shifted FP8 MatMul.
# One HBUF block = 8 virtual grid-rows x 128 B = 1024 B per grid-row.
.const HBUF_BLOCKS = 4

# WDP, §9.3: i0 hbuf block, i1 virtual grid-row in grid-row, i2 grid-row in
# h-lane pair, i3 h-lane. All 8 partitions go to one h-lane (log2 = 3).
# hbuf_addr_in_bank = hbuf_base + vgr*8 (+ptn, by hardware); write addresses
# are 8-byte granular {addr_in_bank, bank}, so vgr*8 words = vgr*16 units.
.program mm_rowshift_wdp wdp {
  loop i0 HBUF_BLOCKS {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          WR_HBUF hbuf_wr_control=LD_1ROW_16B log2_ptns_per_hlane=3 hlane_iter_id=i3 grip_iter_id=i2 \
                  hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3] \
                  hbuf_stride_dim1=16 hbuf_stride_iter_id_dim1=i1
        }
      }
    }
  }
}

# GH, §10.1.3 Figure 10-1: i1 octobyte in word (16), i2 virtual grid-row (8).
.program mm_rowshift_gh gh {
  loop i0 HBUF_BLOCKS {
    loop i1 16 {
      loop i2 8 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}
