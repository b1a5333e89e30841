# A VPU subroutine (this project's VPU model, grammars/pyxis/vpu_instr.json)
# issued by the VI sequencer (seq §12) once per row of a 16-row tile. The VI
# operand `vpv_pgm_start_addr=relu_scale` refers to the VPU program: the
# object carries a relocation, the linker (or --emit patch-blob) fills in its
# placed address in the 1K-word VPU instruction memory.
.vpu relu_scale {
  RELU rd=1 src1_sel=IN_FIFO in_fifo_pop=1 wr_gpr_en=1
  MUL rd=2 rs1=1 src2_sel=IMM imm=0x3c00 wr_gpr_en=1 out_fifo_push=1 cntr_ctrl=CNTR_CTRL_INCR
}

.program vi_rows vi {
  loop i0 16 {
    Generate_VPU_Program vpv_pgm_start_addr=relu_scale vpv_pgm_instr_count=2 counter_zero_iter_mask=[i0]
  }
}
