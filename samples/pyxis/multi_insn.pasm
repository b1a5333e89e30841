# Loops beginning and ending on any instruction, no wasted instructions (§2.1):
# a GX tile: Exec_Config once, then 4 channel groups x 8 accumulators where the
# first instruction of the group loop zeroes the accumulators and the last one
# triggers split accumulation + writeback kick.
.program gx_tile gx at 4 {
  Exec_Config end_grid_row_idx=15 log2_active_ptns=3
  loop i0 2 {                                   # tiles
    loop i1 4 {                                 # input-channel groups
      loop i2 8 {                               # accumulator slots
        Exec_Valid accum_idx_iter_id=i2 zero_accum_iter_mask=[i1] front_staging_done_iter_mask=[i2]
      }
      Exec_Bubble split_accum_iter_mask=[i1] wb_kick_iter_mask=[i1]
    }
  }
}

# GWB: 16 grid-rows x 8 slots per tile; the last (only) instruction sets wb_done_iter_mask (§11.1).
.program gwb_tile gwb {
  loop i0 2 {
    loop i1 16 {
      Read_WBA grid_row_iter_id=i1 wb_done_iter_mask=[i1]
    }
  }
}

# Raw form: every control field by hand (same loop as conv3x3_rows_short).
.program raw_rows amem_read {
  ctrl { iter0.is_eol=1 iter0.sol_pc=0 iter0.numloops=3 iter1.is_eol=1 iter1.sol_pc=0 iter1.numloops=10 iter1.numloops_final=6 iter1.final_iter_mask=1 eopgm=1 } Read_SRAM iter_stride[i0]=8 iter_stride[i1]=1
}
