# Row gather (chip §7.6, seq §5.2.2, §8): the AMEM Read sequencer reads 8 rows
# of 128 bytes selected by a 1-D int32 index table (indirection mode 1); the
# AMEM Indirection Table Fetch Engine (command register 0, programmed by the
# MPE patch blob gather_itfe.blob) streams the indices into the X-index FIFO.
# Address = read base + x_index * iter_stride[i5] (iterator 5's stride is the
# X-index stride in indirect mode). The AMEM Write sequencer stores the rows
# contiguously at the write base.
.program gather_rd amem_read {
  loop i0 8 {
    Read_SRAM tgt_fifo=AMEM_write indir_vld=1 indir_mode=1 indir_fifo_pop_enbl=1 iter_stride[i5]=8
  }
}

.program gather_wr amem_write {
  loop i0 8 {
    Write src_fifo=AMEM_read iter_stride[i0]=8
  }
}

# Row scatter: the inverse, with the write ITFE (command register 0).
.program scatter_rd amem_read {
  loop i0 8 {
    Read_SRAM tgt_fifo=AMEM_write iter_stride[i0]=8
  }
}

.program scatter_wr amem_write {
  loop i0 8 {
    Write src_fifo=AMEM_read indir_vld=1 indir_mode=1 indir_fifo_pop_enbl=1 iter_stride[i5]=8
  }
}
