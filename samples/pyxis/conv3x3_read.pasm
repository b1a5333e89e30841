# seq-fspec §2.1.1 / §2.1.2: 3x3 stride-1 convolution input read.
# 22 input rows in groups of 10 rows (2-row overlap, each group advances 8 rows):
# 3 groups, the last one only 6 valid rows; with post_final the AMEM Read
# sequencer pads the last group with 4 rows of Read_Const(0) (§5.3).
.const H_IN      = 22
.const GROUPS    = (H_IN - 2 + 7) / 8          # 3
.const LAST_ROWS = H_IN - (GROUPS - 1) * 8     # 6
.const ROW       = 1                           # partitions per row (one 128-column row)

.program conv3x3_rows amem_read {
  loop i0 GROUPS {
    loop i1 10 final LAST_ROWS when [i0] post_final {
      Read_SRAM data_type=Recogni_FP8 amem_addr_offset=0 iter_stride[i0]=8*ROW iter_stride[i1]=ROW
    }
  }
}

# The same without post_final: the last group stops after 6 rows (§2.1.1, Figure 2-3).
.program conv3x3_rows_short amem_read {
  loop i0 GROUPS {
    loop i1 10 final LAST_ROWS when [i0] {
      Read_SRAM data_type=Recogni_FP8 iter_stride[i0]=8 iter_stride[i1]=1
    }
  }
}
