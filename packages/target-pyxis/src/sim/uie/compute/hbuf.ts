/**
 * The per-grid-row horizontal buffers (Hbufs, chip §6.2.4.6; seq §9.1.4-§9.1.5, §10.1.1-§10.1.2) and their
 * block-credit registers, shared by the WDP (writer) and GH (reader) units.
 *
 * Each of the 16 grid-rows has 4 KiB = 2 banks x 256 words x 8 bytes. Addresses are "logical bytes" (seq §10.1.1
 * note): byte address = addr_in_bank << 4 | bank << 3 | byte_offset. A logical byte holds an LnsI5F3 code (9 bits,
 * 8-bit weights / FP8 MatMul data after lin2log) or one half of a 16-bit LnsI5F10 value (low byte at the even
 * address), so the storage is 16 bits per logical byte.
 */
export const GRID_ROWS = 16;
export const HBUF_BYTES = 4096;

export class Hbuf {
  /** Grid-row r, logical byte a: data[r * HBUF_BYTES + a]. */
  readonly data = new Uint16Array(GRID_ROWS * HBUF_BYTES);
  /** hbuf_wr_credits (bytes per grid-row, seq §9.1.5); initialised to the full Hbuf size by hardware. */
  wrCredits = HBUF_BYTES;
  /** hbuf_rd_credits (bytes per grid-row, seq §10.1.2): blocks written and not yet consumed. */
  rdCredits = 0;
  /** hbuf_base of the writer (WDP) and of the reader (GH), bytes, wrapping modulo HBUF_BYTES. */
  wrBase = 0;
  rdBase = 0;
}
