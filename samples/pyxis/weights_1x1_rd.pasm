# AMEM Weights Read for samples/pyxis/weights_1x1.ld (seq §7): feeds the WDP program of wdp_1x1_weights.pasm
# (Figure 9-2, 4 Hbuf blocks x 8 output-channel contexts) one 128-byte word per WR_HBUF, uncompressed (WDC
# pass-through). The fc8 database holds 8 such words (16 x 64 weights, chip §15.2 Table 15-3); each block re-reads
# them (iter_stride[i0] = 0), so the 4 blocks carry the same weights. Without it the WDP trip would wait for words
# forever, as the hardware would.
.program weights_1x1_rd amem_weights_read {
  loop i0 4 {
    loop i1 8 {
      Read_SRAM wdc_type=Uncompressed iter_stride[i1]=8 iter_stride[i0]=0
    }
  }
}
