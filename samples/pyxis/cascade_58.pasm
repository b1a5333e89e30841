# seq-fspec §2.1.1.1 / §2.1.2.1: three nested loops of 4 iterations that count
# 58 iterations instead of 4x4x4 = 64. `final N` without `when` means "when
# every enclosing loop is in its final iteration", which is exactly the cascade:
# i1 ends at 3 when i0 is final; i2 ends at 2 when i0 and i1 are both final.
.program cascade58 amem_read {
  loop i0 4 {
    loop i1 4 final 3 {
      loop i2 4 final 2 {
        Read_SRAM amem_addr_offset=0 iter_stride[i0]=64 iter_stride[i1]=16 iter_stride[i2]=1
      }
    }
  }
}

# Cascaded post-final (§2.1.2.1): all 64 iterations run, the last 6 are
# converted to Read_Const(0) by the AMEM Read decoder.
.program cascade58_pf amem_read {
  loop i0 4 {
    loop i1 4 final 3 when [i0] post_final {
      loop i2 4 final 2 when [i0, i1] post_final {
        Read_SRAM amem_addr_offset=0 iter_stride[i0]=64 iter_stride[i1]=16 iter_stride[i2]=1
      }
    }
  }
}
