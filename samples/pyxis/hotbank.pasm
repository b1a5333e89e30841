# Hot-bank sample (used by samples/pyxis/hotbank_unhashed.ld and hotbank_hashed.ld; chip §7.5): the AMEM Read
# sequencer walks 64 rows of a tensor whose rows are 16 KiB apart (row_stride = 1024 partitions, a power of two),
# one 128-byte word per row, and sends them to the AMEM Write sequencer, which writes them as a contiguous tensor.
# In the unhashed view every row of such a tensor is in the same bank (address bits [13:7] never change), so two
# UIEs walking two such tensors fight for one bank every cycle; in the hashed view bits [20:14] (the row number
# here) are XORed into the bank index and the two walks never meet.
.program walk_rd amem_read {
  loop i0 64 {
    Read_SRAM tgt_fifo=AMEM_write iter_stride[i0]=1024
  }
}

.program walk_wr amem_write {
  loop i0 64 {
    Write src_fifo=AMEM_read iter_stride[i0]=8
  }
}
