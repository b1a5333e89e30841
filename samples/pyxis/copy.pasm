# Copy trip microcode (used by samples/pyxis/copy.ld): the AMEM Read sequencer
# reads 8 rows of 128 bytes (8 partitions each) from the trip's read base
# address and sends them to the AMEM Write sequencer, which writes them at the
# trip's write base address. Addresses are partition offsets from the base
# addresses in the UIE trip descriptor (chip §11.4.2).
.program copy_rd amem_read {
  loop i0 8 {
    Read_SRAM tgt_fifo=AMEM_write iter_stride[i0]=8
  }
}

.program copy_wr amem_write {
  loop i0 8 {
    Write src_fifo=AMEM_read iter_stride[i0]=8
  }
}
