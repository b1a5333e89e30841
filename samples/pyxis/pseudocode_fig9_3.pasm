# seq-fspec §9.4.1 Figure 9-3 (WDP, FP8 transposed MatMul) written line for line
# from the spec's pseudo-code, using the pseudo-code's own field names
# (`hbuf_write_ctl`, `hbuf_stride_dim1_iter_id`: aliases of the table fields
# `hbuf_wr_control`, `hbuf_stride_iter_id_dim1`, grammars/pyxis/wdp_op.json).
# Same words as mm_trans_fp8_wdp in matmul_transposed.pasm (checked by
# packages/asm/test/ergonomics.test.ts). `MASK(a, b)` is the mask list [a, b].
.const hbuf_blocks = 4

.program fig9_3_wdp wdp {
  loop i0 hbuf_blocks {                 # for hblock_iter in range (hbuf_blocks):
    loop i1 2 {                         #   for tbuf_idx_iter in range (2):
      loop i2 4 {                       #     for tbuf_col_idx_iter in range (4):
        WR_HBUF hbuf_write_ctl = LD_2ROWS_8B_TRANS, \
                log2_ptns_per_hlane = 0, \
                tbuf_idx_iter_id = i1, \
                tbuf_col_idx_iter_id = i2, \
                hbuf_stride_dim1 = 1, \
                hbuf_stride_dim1_iter_id = i1, \
                hbuf_block_size = 4, \
                hbuf_block_start_en = 1, \
                hbuf_block_end_en = 1, \
                hbuf_block_iter_mask = MASK(i1, i2)
      }
    }
  }
}
