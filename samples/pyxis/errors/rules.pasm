# Hardware rules of seq-fspec §1, §2.1, §6.1, §9.1.2, §10.2, §11.1 (see rules.err)
.program loops amem_read {
  loop i1 4 {
    loop i0 2 {
      Read_SRAM
    }
  }
  loop i0 2 final 1 {
    Read_SRAM
  }
  loop i0 3 {
    loop i1 4 final 2 when [i2] {
      Read_SRAM pad_row_iter_mask=[i3]
    }
  }
}
.program no_pf wdp {
  loop i0 2 {
    loop i1 4 final 2 post_final {
      WR_HBUF
    }
  }
}
.program align16 amem_read {
  Read_SRAM data_type=Recogni_FP16 amem_addr_offset=3 iter_stride[i0]=5
}
.program compressed amem_weights_read {
  Read_SRAM wdc_type=3 amem_addr_offset=4
}
.program cols amem_write {
  Write logical_col_offset=8 num_logical_cols=128
}
.program trans wdp {
  WR_HBUF hbuf_wr_control=LD_1ROW_16B_TRANS log2_ptns_per_hlane=0
}
.program mode gx {
  Exec_Valid conv3x3_mode=1
  Exec_Valid conv3x3_mode=0
}
.program wb gwb {
  loop i0 16 {
    Read_WBA wb_done_iter_mask=[i0]
    Read_WBA
  }
}
# AS0320 (warning): iterator-select fields naming a loop that does not enclose the instruction
.program sel amem_read {
  loop i0 4 {
    loop i1 2 {
      Read_SRAM rpsw_config_iter_id=i1
    }
    Read_SRAM rpsw_config_iter_id=i1 rcsw_switch_config_iter_id=3
  }
}
.program sel_gh gh {
  loop i0 4 {
    HBUF_RD_VLD hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i0
  }
}
