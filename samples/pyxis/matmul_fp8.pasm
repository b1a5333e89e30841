# FP8 MatMul C[128,128] = A[128,K] x B[K,128] on one UIE (chip §6.1.3), "row-shifted" A (seq §9.3).
#
#   A (RFP8, row-major [128, K], the trip's `weights` tensor) -> AMEM Weights Read -> WDC (pass-through)
#     -> WDP: weights switch, lin2log -> Hbufs (LD_1ROW_16B, 8 partitions per h-lane)      seq §7, §9.3
#     -> GH: 8 bytes per grid-row per cycle (RD_1X1_MATMUL_FP8)                            seq §10.1.3
#   B (RFP8, row-major [K, 128], the trip's `read` tensor) -> AMEM Read -> switchbox FIFO to the grid
#     -> GV: one row of B per cycle into the v_staging back buffer, 8 rows per staging     seq §10.2
#   GX: per group of 8 rows of B (8 cycles), one Exec_Valid per virtual grid-row = accumulator slot;
#       zero the accumulators on the first group, split + writeback kick after the last   seq §10.3
#   GWB: 16 grid-rows x 8 WBA slots -> MNS2FP (FP16) -> AMEM Write -> C (RFP16 [128,128]) seq §11, §6
#
# Row r of C = virtual grid-row r = slot r%8 of grid-row r/8 (seq §9.3 table); column c = grid column c.
# Cycles: K Exec_Valid cycles (one 8-wide dot product per LLC per cycle = 2048 LLCs x 8 MACs), plus the
# pipeline fill (first Hbuf block and staging) and the writeback (128 flits; 256 AMEM write cycles in FP16).
# EBs (link script): A and B eb = -12, so EB_MNS = -12 + -12 + 16 = -8 (docs/spec-notes.md "LLC product in
# the log domain"); C is RFP16 with eb = -8 and every eb_adj is 0.
.const K = 1024
.const KBLK = K / 128            # Hbuf blocks: 128 bytes of each of the 128 rows of A = 1024 B per grid-row
.const ROW = K / 16              # partitions per row of A

# AMEM Weights Read: one 128-byte word per cycle in the order the WDP writes them (seq §9.3 table):
# i0 Hbuf block (k = 128*i0 ..), i1 VGR in grid-row, i2 grid-row in h-lane pair, i3 h-lane.
# Row of A = VGR = 8 * (2*hlane + grip) + vgr.
.program mm8_wr amem_weights_read {
  loop i0 KBLK {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8 iter_stride[i1]=ROW iter_stride[i2]=8*ROW iter_stride[i3]=16*ROW
        }
      }
    }
  }
}

# WDP (seq §9.3): all 8 partitions of a word to one h-lane (log2 = 3, unload delay = partition), one grid-row
# of the pair (grip), VGR vgr at addr_in_bank vgr*8 (+ partition, by hardware; docs/spec-notes.md
# "WDP row-shifted hbuf address"). lin2log with mapping correction, eb_adj 0. Block = 1024 B = 64 x 16 B.
.program mm8_wdp wdp {
  loop i0 KBLK {
    loop i1 8 {
      loop i2 2 {
        loop i3 8 {
          WR_HBUF hbuf_wr_control=LD_1ROW_16B log2_ptns_per_hlane=3 hlane_iter_id=i3 grip_iter_id=i2 \
                  dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \
                  hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3] \
                  hbuf_stride_dim1=16 hbuf_stride_iter_id_dim1=i1
        }
      }
    }
  }
}

# GH (seq §10.1.3 Figure 10-1): i1 octobyte of the 128-byte row (k = 128*i0 + 8*i1 ..), i2 VGR (row stride 128 B).
.program mm8_gh gh {
  loop i0 KBLK {
    loop i1 16 {
      loop i2 8 {
        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \
                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \
                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2
      }
    }
  }
}

# AMEM Read: row k of B (8 partitions) per cycle, in k order, to the grid.
.program mm8_rd amem_read {
  loop i0 K {
    Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=8
  }
}

# GV: 8 rows of B per staging (staging start when i1 = 0), FP8 -> LnsI5F10 with mapping correction, all 10
# fraction bits kept.
.program mm8_gv gv {
  loop i0 K / 8 {
    loop i1 8 {
      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0
    }
  }
}

# GX: configuration (all 16 grid-rows, all 8 partitions, both column parities), then K/8 groups x 8 VGRs.
# The accumulator slot is the VGR (i1); the front v_staging is done after the 8th VGR; the first group
# reads zeros from the active accumulators; the last Exec_Valid splits AA -> WBA and kicks the writeback.
.program mm8_gx gx {
  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1
  loop i0 K / 8 {
    loop i1 8 {
      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \
                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]
    }
  }
}

# GWB (seq §11): one Read_WBA = the 8 slots of one grid-row (8 flits), grid-rows 0..15, no masks, eb_adj 0.
.program mm8_gwb gwb {
  loop i0 16 {
    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]
  }
}

# AMEM Write: 128 rows of C, 128 FP16 values = 16 partitions each (2 write-port cycles per flit, chip §6.2.2).
# (FP16 rows: the WPSW entry 0 of the link script re-interleaves the natural-order grid columns into the serialized
# FP16 storage order of chip §7.3.1; wpsw_config_vld = 1 selects it.)
.program mm8_wr_c amem_write {
  loop i0 128 {
    Write src_fifo=Grid data_type=Recogni_FP16 wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=16
  }
}
