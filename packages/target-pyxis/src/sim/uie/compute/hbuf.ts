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
  /** Port-model check (tests, docs/timing-model.md "Pyxis weights path"); undefined in normal runs. */
  ports: HbufPorts | undefined;
}

/**
 * Debug check of the Hbuf port model (docs/spec-notes.md "Hbuf bank ports"): every 8-byte bank of a grid-row
 * has one read port and one write port, so a cycle may carry one word read and one word written per bank. The WDP
 * and GH note the words they touch (writes at the cycle the H-lane unload delay or the tbuf drain puts them in the
 * bank); `conflicts` counts (grid-row, bank, cycle) that would need a port twice. Off by default (`Hbuf.ports`
 * undefined): the hot loops pay one test per instruction.
 */
export class HbufPorts {
  private static readonly WINDOW = 16;
  /** Per (grid-row, bank, cycle mod WINDOW): the cycle the count belongs to, and the count; reads and writes apart. */
  private readonly tag = new Float64Array(GRID_ROWS * 2 * 2 * HbufPorts.WINDOW).fill(-1);
  private readonly n = new Uint8Array(GRID_ROWS * 2 * 2 * HbufPorts.WINDOW);
  reads = 0;
  writes = 0;
  conflicts = 0;

  /** Logical byte `a` (any byte of the word) of grid-row `row` read (`write` 0) or written (1) at cycle `at`. */
  note(row: number, a: number, at: number, write: number): void {
    const bank = (a >> 3) & 1;
    const i = (((row * 2 + bank) * 2 + write) * HbufPorts.WINDOW) + (at % HbufPorts.WINDOW);
    if (this.tag[i] !== at) {
      this.tag[i] = at;
      this.n[i] = 0;
    }
    if (++this.n[i]! > 1) this.conflicts++;
    if (write) this.writes++;
    else this.reads++;
  }
}
