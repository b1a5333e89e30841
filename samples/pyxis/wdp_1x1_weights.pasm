# seq-fspec §9.2.1, Figure 9-2: WDP 1x1 weights loading with fine-grained
# channel packing. Each HBUF block (64 B per grid-row) holds 8 output channels;
# every cycle writes 16 B to every H-lane = 8 B to each of its two grid-rows.
# (The figure's pseudo-code names `hbuf_write_ctl` / `hbuf_stride_dim1_iter_id`
# are the table fields `hbuf_wr_control` / `hbuf_stride_iter_id_dim1`, §9.1.)
.const HBUF_BLOCKS = 4
.const IS_16BIT_WEIGHTS = 0

.program weights_1x1 wdp {
  loop i0 HBUF_BLOCKS {                     # hblock_iter
    loop i1 8 {                             # cout_iter: 8 output channels per grid-row
      WR_HBUF is_16bit=IS_16BIT_WEIGHTS hbuf_wr_control=LD_2ROWS_8B \
              hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1] \
              hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1 log2_ptns_per_hlane=0
    }
  }
}
