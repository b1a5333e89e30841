# Expected diagnostics: see typos.err
.const ROWS = 22
.program bad_names amem_read {
  loop i0 3 {
    Read_SRM amem_addr_offset=0
    Read_SRAM amem_adr_offset=4 data_type=Recogni_FP7
    Read_SRAM iter_stride[i1]=2 num_logical_ptns=9
  }
}
.program bad_seq amem_reed {
  Nop
}
.program syntax gh {
  HBUF_RD_VLD hbuf_block_size = = 4
  HBUF_RD_VLD hbuf_block_size=ROWZ
}
