# a Latin-1 comment: café
.program p amem_read { Read_SRAM }
