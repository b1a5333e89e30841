# GELU through a VPU lookup table (this project's VPU model, grammars/pyxis/vpu_lut_entry.json): one LUT
# instruction per row, 64 rows of 128 FP16 values, AMEM -> Vbuffer -> VPU -> Vbuffer -> AMEM (chip §6.1.4).
# LUT 0 holds 256 (base, slope) segments of erf-GELU built by scripts/make-vpu-lut.mjs --fn gelu and loaded by the
# link script (`config vpu.lut { data = "gelu_lut.npy"; }`); the VPU interpolates linearly inside a segment.
.vpu gelu_row {
  LUT rd=r1 src1_sel=IN_FIFO lut_idx=0 in_fifo_pop=1 out_fifo_push=1
}

.program gelu_vi vi {
  loop i0 64 {
    Generate_VPU_Program vpv_pgm_start_addr=gelu_row
  }
}
# one FP16 row = 16 partitions; FP16 read and write with identity switches round-trip the AMEM swizzle of
# chip §7.3.1 (an elementwise program does not need de-interleaved columns)
.program gelu_rd amem_read {
  loop i0 64 {
    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer iter_stride[i0]=16
  }
}
.program gelu_in sb2vb {
  loop i0 64 {
    WR_VLD wr_tile_idx=0 src_select=AMEM_FIFO
  }
}
.program gelu_feed vb2vpu {
  loop i0 64 {
    RD_VLD rd_tile_idx=0
  }
}
.program gelu_out vpu2vb {
  loop i0 64 {
    WR_VLD wr_tile_idx=2
  }
}
.program gelu_drain vb2sb {
  loop i0 64 {
    RD_VLD rd_tile_idx=2 tgt_select=AMEM_FIFO
  }
}
.program gelu_wr amem_write {
  loop i0 64 {
    Write data_type=Recogni_FP16 src_fifo=Vbuffer iter_stride[i0]=16
  }
}
