/**
 * The WDP datapath of one WR_HBUF (seq §9.1.1-§9.1.4, §9.1.6, §9.6; chip §6.2.4.2-§6.2.4.6): weights switch
 * (partition -> H-lane, unload delay, ptn_rot), zero masks, lin2log + EB adjustment, and the Hbuf writes of the four
 * hbuf_wr_control modes, the transposing ones through the per-grid-row ping-pong tbufs. All state is preallocated.
 *
 * Interface with GH (compute/hbuf.ts): Hbuf logical byte address = addr_in_bank << 4 | bank << 3 | byte (seq §9.1.4).
 * H-lane h feeds grid-rows 2h (grid_row_in_pair 0) and 2h+1. With A = hbuf_addr (9 bits, 8-byte units) and k the
 * partition's index within its H-lane (= its unload delay, Table 9-6):
 *  - LD_1ROW_16B: partition bytes 0..15 -> logical bytes ((A >> 1) + k) << 4 .. +15 of one grid-row (bank 0 gets
 *    bytes 0-7, bank 1 bytes 8-15); grid_row_in_pair = iter[grip_iter_id][0].
 *  - LD_2ROWS_8B: bytes 0-7 -> grid-row 2h, bytes 8-15 -> grid-row 2h+1, both at logical byte ((A + k) mod 512) * 8.
 *  - LD_2ROWS_8B_TRANS (FP8, Table 9-7): bytes 0-7 / 8-15 -> tbuf slot tbuf_col_idx of grid-rows 2h / 2h+1; a full
 *    tbuf (4 slots A..D) is written as 4 Hbuf words at addr_in_bank (A >> 1 & ~3) + w, bank A & 1:
 *    word w byte b = slot (b & 3) byte 2w + (b >> 2), i.e. [A_2w B_2w C_2w D_2w A_2w+1 B_2w+1 C_2w+1 D_2w+1].
 *  - LD_1ROW_16B_TRANS (FP16, Table 9-9): partition k of an H-lane (8 values of one tensor row) -> slots
 *    tbuf_col_idx, +1 of grid-row 2h + k; a full tbuf (rows R0 in slots 0-1, R1 in slots 2-3) is written as word w =
 *    16-bit values [R0_w, R1_w, R0_w+4, R1_w+4].
 * Logical bytes hold LnsI5F3 codes (8-bit data) or the low / high byte of an LnsI5F10 value (16-bit data, low byte
 * at the even address).
 */
import { fp8ToLnsI5F3Raw, linToLogRaw } from '@pyxis/formats';
import { SEQ_SPEC } from '../records.js';
import type { Uie } from '../uie.js';
import { GRID_ROWS, HBUF_BYTES, type Hbuf } from './hbuf.js';
import type { ComputeStats } from './stats.js';
import { WeightsCodes } from './wdc.js';
import type { ZeroMasks } from './zeroMask.js';

/** hbuf_wr_control codepoints (docs/spec-notes.md: listed order; checked against wdp_op.json in wdp.ts). */
export const LD_1ROW_16B = 0;
export const LD_2ROWS_8B = 1;
export const LD_1ROW_16B_TRANS = 2;
export const LD_2ROWS_8B_TRANS = 3;

/** Per-instruction inputs of `WdpDatapath.write` (set by the WDP unit, no allocation per call). */
export class WdpOp {
  is16 = 0;
  log2 = 0;
  /** Value of the iterator selected by hlane_iter_id. */
  hlaneIter = 0;
  wrCtl = 0;
  grip = 0;
  tbufIdx = 0;
  tbufCol = 0;
  /** hbuf_addr[11:3] of seq §9.1.4 (9 bits, 8-byte units). */
  addr9 = 0;
  zmEn = 0;
  zmA = 0;
  zmB = 0;
  dsblCorr = 0;
  ebAdj = 0;
  /** Logical partition 0 is physical lane `rot` (ptn_rot when wsw_ptn_rot_en, else 0). */
  rot = 0;
  pc = 0;
  /** Cycle of the WR_HBUF (only read by the Hbuf port check, `Hbuf.ports`). */
  now = 0;
}

export class WdpDatapath {
  /** tbuf[(row * 2 + idx) * 32 + slot * 8 + byte] (logical bytes, 16 bits each). */
  readonly tbuf = new Uint16Array(GRID_ROWS * 2 * 32);
  /** Filled-slot bits per (row, idx). */
  readonly tbufFill = new Uint8Array(GRID_ROWS * 2);
  /** One partition after switch, mask and lin2log: 16 logical bytes. */
  private readonly lb = new Uint16Array(16);
  /** FP8 / LnsI4F3 -> LnsI5F3 lookup for the current (eb_adj, mapping correction). */
  private readonly lut8 = new Uint16Array(256);
  private lutKey = -1;

  constructor(
    readonly u: Uie,
    readonly hbuf: Hbuf,
    readonly stats: ComputeStats,
    readonly zm: ZeroMasks,
    /** `--timing-only`: no Lin2Log and no Hbuf bytes (GH's reads feed GX's arithmetic only); counts, port checks and tbuf rules stay. */
    readonly timingOnly = false,
  ) {}

  /** H-lane of logical partition L (seq §9.6). */
  static hlane(log2: number, it: number, L: number): number {
    return log2 === 0 ? L : log2 === 1 ? ((it & 1) << 2) | (L >> 1) : log2 === 2 ? ((it & 3) << 1) | (L >> 2) : it & 7;
  }

  /** Writes one 128-byte wdc_fifo word (`src` at `off`) to the Hbufs. */
  write(op: WdpOp, src: Uint8Array, off: number, s: Parameters<Uie['ruleError']>[3]): void {
    const log2 = op.log2;
    const kMask = (1 << log2) - 1;
    const is16 = op.is16;
    const key = (op.ebAdj & 63) * 2 + (op.dsblCorr ? 1 : 0);
    const dataOn = !this.timingOnly;
    if (dataOn && !is16 && key !== this.lutKey) {
      for (let c = 0; c < 256; c++) this.lut8[c] = fp8ToLnsI5F3Raw(c, op.ebAdj, !op.dsblCorr);
      this.lutKey = key;
    }
    const data = this.hbuf.data;
    const lb = this.lb;
    const wr = op.wrCtl;
    const ports = this.hbuf.ports;
    // --timing-only without the port probe: the direct loads leave nothing but the byte count (8 partitions x 16)
    if (!dataOn && ports === undefined && (wr === LD_1ROW_16B || wr === LD_2ROWS_8B)) {
      this.stats.hbufBytesWritten += 128;
      return;
    }
    for (let L = 0; L < 8; L++) {
      const lane = (L + op.rot) & 7;
      const h = WdpDatapath.hlane(log2, op.hlaneIter, L);
      const k = L & kMask; // index within the H-lane = unload delay (seq §9.6 dly[ptn])
      // grid_row_in_pair of this partition (Table 9-4); -1 = both grid-rows of the H-lane
      const g = wr === LD_1ROW_16B ? op.grip & 1 : wr === LD_1ROW_16B_TRANS ? k & 1 : -1;
      // zero mask (seq §9.1.6): entry B only for LD_1ROW_16B_TRANS partitions to grid_row_in_pair 1
      const mask = op.zmEn ? this.zm.masks[(wr === LD_1ROW_16B_TRANS && g === 1 ? op.zmB : op.zmA) * 8 + h]! : 0;
      const p = off + lane * 16;
      if (!dataOn) {
        // (timing only: no values)
      } else if (is16) {
        for (let i = 0; i < 8; i++) {
          // VGR of value i: 8 * grid_row_in_pair + index among the values that grid-row receives
          const bit = g >= 0 ? 8 * g + i : 8 * (i >> 2) + (i & 3);
          let v = src[p + 2 * i]! | (src[p + 2 * i + 1]! << 8);
          v = (mask >> bit) & 1 ? 0 : linToLogRaw(v, op.ebAdj, !op.dsblCorr, 0);
          lb[2 * i] = v & 0xff;
          lb[2 * i + 1] = v >>> 8;
        }
      } else for (let b = 0; b < 16; b++) lb[b] = (mask >> b) & 1 ? 0 : this.lut8[src[p + b]!]!;
      if (wr === LD_1ROW_16B) {
        const row = 2 * h + g;
        const d = row * HBUF_BYTES + ((((op.addr9 >> 1) + k) & 255) << 4);
        if (dataOn) for (let b = 0; b < 16; b++) data[d + b] = lb[b]!;
        this.stats.hbufBytesWritten += 16;
        // one word in each bank of one grid-row, k cycles after the instruction (the H-lane unload delay)
        if (ports) for (let bank = 0; bank < 2; bank++) ports.note(row, d - row * HBUF_BYTES + 8 * bank, op.now + k, 1);
      } else if (wr === LD_2ROWS_8B) {
        const a = ((op.addr9 + k) & 511) << 3;
        const d0 = 2 * h * HBUF_BYTES + a;
        const d1 = d0 + HBUF_BYTES;
        for (let b = 0; b < 8 && dataOn; b++) {
          data[d0 + b] = lb[b]!;
          data[d1 + b] = lb[8 + b]!;
        }
        this.stats.hbufBytesWritten += 16;
        if (ports) for (let gg = 0; gg < 2; gg++) ports.note(2 * h + gg, a, op.now + k, 1);
      } else if (wr === LD_2ROWS_8B_TRANS) {
        for (let gg = 0; gg < 2; gg++) this.loadTbuf(2 * h + gg, op, op.tbufCol & 3, 1, lb, 8 * gg, s, k);
      } else this.loadTbuf(2 * h + g, op, op.tbufCol & 2, 2, lb, 0, s, k);
    }
  }

  /** Loads `n` 8-byte tbuf slots from `lb[from..]` into grid-row `row`'s tbuf; pushes a full tbuf into the Hbuf. */
  private loadTbuf(row: number, op: WdpOp, slot: number, n: number, lb: Uint16Array, from: number, s: Parameters<Uie['ruleError']>[3], k: number): void {
    const t = row * 2 + (op.tbufIdx & 1);
    const bits = ((1 << n) - 1) << slot;
    if (this.tbufFill[t]! & bits)
      this.u.ruleError(WeightsCodes.tbufOverwrite, `tbuf ${op.tbufIdx & 1} slot ${slot} of grid-row ${row} written again before the tbuf was full`, `${SEQ_SPEC} §9.1.2, §9.4`, s, op.pc);
    const tb = this.tbuf;
    const base = t * 32 + slot * 8;
    if (!this.timingOnly) for (let b = 0; b < 8 * n; b++) tb[base + b] = lb[from + b]!;
    this.tbufFill[t] = this.tbufFill[t]! | bits;
    if (this.tbufFill[t] !== 15) return;
    this.tbufFill[t] = 0;
    // the tbuf is full: 4 Hbuf words on a 4-word boundary (seq §9.1.4 note), bank = hbuf_addr[3]
    const aib = (op.addr9 >> 1) & ~3;
    const bank = op.addr9 & 1;
    const data = this.hbuf.data;
    const t0 = t * 32;
    const ports = this.hbuf.ports;
    for (let w = 0; w < 4; w++) {
      const d = row * HBUF_BYTES + ((((aib + w) & 255) << 4) | (bank << 3));
      // the full tbuf drains one word per cycle from the next cycle on while its ping-pong twin fills (seq §9.1.2)
      if (ports) ports.note(row, d - row * HBUF_BYTES, op.now + k + 1 + w, 1);
      if (this.timingOnly) continue;
      if (op.wrCtl === LD_2ROWS_8B_TRANS)
        // Table 9-7: word w byte b = slot (b & 3), element 2w + (b >> 2)
        for (let b = 0; b < 8; b++) data[d + b] = tb[t0 + (b & 3) * 8 + 2 * w + (b >> 2)]!;
      else
        // Table 9-9: word w = [R0_w, R1_w, R0_w+4, R1_w+4]; row R occupies slots 2R, 2R+1 (16 logical bytes)
        for (let q = 0; q < 4; q++) {
          const src = t0 + (q & 1) * 16 + 2 * (w + 4 * (q >> 1));
          data[d + 2 * q] = tb[src]!;
          data[d + 2 * q + 1] = tb[src + 1]!;
        }
    }
    this.stats.hbufBytesWritten += 32;
    this.stats.tbufFlushes++;
  }
}
