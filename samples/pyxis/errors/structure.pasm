# Structural limits of the statement language (docs/assembler.md "Flat instruction streams", "Limits").
# Pyxis programs name their sequencer: instructions outside a .program block are AS0221 (seq §3).
.const ROWS = 4
Read_SRAM amem_addr_offset=ROWS
.program ok amem_read {
  Read_SRAM
}
