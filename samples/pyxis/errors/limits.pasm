# Loop hardware limits and the remaining static rules (see limits.err):
# seq-fspec §1.1, §2.1 / Table 2-1, §11.1, §12.1, the tables' field ranges,
# and field aliases (the spec's pseudo-code names) counted as their field.
.program deep amem_read {
  loop 2 { loop 2 { loop 2 { loop 2 { loop 2 { loop 2 {
    loop 2 { Read_SRAM }
  } } } } } }
}
.program counts amem_read {
  loop i0 0 { Read_SRAM }
  loop i0 5000 { Read_SRAM }
  loop i0 3 { }
  Read_SRAM pad_row_iter_mask=[i0]
  loop i0 2 { Read_SRAM pad_row_iter_mask=0b11 }
}
.program long gv {
  Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero
  Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero
  Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero
  Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero; Read_Zero
  Read_Zero
}
.program late gv at 30 {
  Read_Zero; Read_Zero; Read_Zero
}
.program ranges amem_read {
  Read_SRAM eb_adj=-100 amem_addr_offset=-1
}
.program strides amem_weights_read {
  Read_SRAM wdc_type=Codebook amem_addr_offset=16 iter_stride=[8, 4]
}
.program write16 amem_write {
  loop i0 2 { Write data_type=IEEE_FP16 amem_addr_offset=5 iter_stride[i0]=3 }
}
.program wb_never gwb {
  loop i0 4 { Read_WBA }
}
.program wb_twice gwb {
  loop i0 4 {
    Read_WBA wb_done_iter_mask=[i0]
    Read_WBA wb_done_iter_mask=[i0]
  }
}
.program alias_dup wdp {
  WR_HBUF hbuf_write_ctl=LD_2ROWS_8B hbuf_wr_control=LD_1ROW_16B hbuf_write_ctrl=0
}
.vpu two { RELU; RELU }
.program vi_past vi {
  Generate_VPU_Program vpv_pgm_start_addr=two vpv_pgm_instr_count=3
}
.program raw_fwd amem_read {
  ctrl { iter0.is_eol=1 iter0.sol_pc=1 iter0.numloops=2 } Read_SRAM
  Read_SRAM
}
