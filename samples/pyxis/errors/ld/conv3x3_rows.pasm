# AMEM Read programs of 3x3 trips over an [16, 8, 128] input (samples/pyxis/conv3x3_pad.pasm reads it with a
# Read_Const(0) row before and after each channel's 8 rows: 10 rows = 8N + 2, seq §1.2). Used by conv3x3_rows.ld.

# One pad row per channel (start_row_pad on the first of 9 reads): 8 + 1 = 9 rows, not 8N + 2.
.program rd_one_pad amem_read {
  loop i0 16 {
    Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0
    loop i1 8 {
      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=64 iter_stride[i1]=8
    }
  }
}

# A padded row instead of the second Read_Const: 9 reads per channel, the last one padded (seq §5.1 end_row_pad on
# iterator i1): 1 Read_Const + 8 data rows + 1 padded row = 10.
.program rd_row_pad amem_read {
  loop i0 16 {
    Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0
    loop i1 9 {
      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=64 iter_stride[i1]=8 end_row_pad=1 pad_row_iter_mask=[i1]
    }
  }
}

# Stride 2: 16N + 1 rows. 8 data rows + 9 Read_Const rows = 17 = 16 + 1.
.program rd_s2 amem_read {
  loop i0 16 {
    loop i1 8 {
      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=64 iter_stride[i1]=8
    }
    loop i1 9 {
      Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0
    }
  }
}
