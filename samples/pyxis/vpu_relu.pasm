# ReLU on the VPU (this project's VPU model, grammars/pyxis/vpu_instr.json):
# AMEM -> Vbuffer -> VPU -> Vbuffer -> AMEM (chip §6.1.4), 16 rows of 128 FP16.
#
#   AMEM Read (FP16 rows) -> SB2VB (tile 0, FIFO) -> VB2VPU -> VPU -> VPU2VB (tile 2, FIFO) -> VB2SB -> AMEM Write
#
# The VI sequencer (seq §12) issues the VPU program `relu_scale` once per row.
# Its operand `vpv_pgm_start_addr=relu_scale` refers to the VPU program: the
# object carries a relocation, the linker (or --emit patch-blob) fills in its
# placed address in the 1K-word VPU instruction memory. FP16 lanes are Pyxis
# FP16 at EB -15, so 0x3c00 is 1.0. Registers are named r0..r15 (numbers work too).
.vpu relu_scale {
  RELU rd=r1 src1_sel=IN_FIFO in_fifo_pop=1 wr_gpr_en=1
  MUL rd=r2 rs1=r1 src2_sel=IMM imm=0x3c00 wr_gpr_en=1 out_fifo_push=1 cntr_ctrl=CNTR_CTRL_INCR
}

.program vi_rows vi {
  loop i0 16 {
    Generate_VPU_Program vpv_pgm_start_addr=relu_scale vpv_pgm_instr_count=2 counter_zero_iter_mask=[i0]
  }
}

# one FP16 row = 256 bytes = 16 partitions
.program relu_rd amem_read {
  loop i0 16 {
    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer iter_stride[i0]=16
  }
}

.program relu_in sb2vb {
  loop i0 16 {
    WR_VLD wr_tile_idx=0 src_select=AMEM_FIFO
  }
}

.program relu_feed vb2vpu {
  loop i0 16 {
    RD_VLD rd_tile_idx=0
  }
}

.program relu_out vpu2vb {
  loop i0 16 {
    WR_VLD wr_tile_idx=2
  }
}

.program relu_drain vb2sb {
  loop i0 16 {
    RD_VLD rd_tile_idx=2 tgt_select=AMEM_FIFO
  }
}

.program relu_wr amem_write {
  loop i0 16 {
    Write data_type=Recogni_FP16 src_fifo=Vbuffer iter_stride[i0]=16
  }
}
