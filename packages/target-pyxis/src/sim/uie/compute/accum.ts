/**
 * The LLC accumulators (chip §6.3.4) and the GX <-> GWB handshake state (seq §10.3.1-§10.3.2, §11.4), shared by
 * the GX unit (writes AA, split-accumulates into WBA, kicks writebacks) and the GWB unit (reads WBA).
 *
 * Storage is one double per (grid-row, slot, column) holding the exact value of the MNS code (AA: MNS 5.1.13,
 * WBA: MNS 5.1.18), in units of 2^EB_MNS (the convention of `llcProduct` in @pyxis/formats): every value stored
 * is already rounded to its format. NaN is NaN; the sticky +max / -max codes are +Infinity / -Infinity (the GWB
 * converts them as the max value they encode, chip §6.2.2.1.1). Index: (row * 8 + slot) * 128 + column.
 */
import { GRID_ROWS } from './hbuf.js';

export const SLOTS = 8;
export const COLS = 128;
export const ACC_WORDS = GRID_ROWS * SLOTS * COLS;

export class Accumulators {
  /** Active accumulator (AA), MNS 5.1.13 values. */
  readonly aa = new Float64Array(ACC_WORDS);
  /** Writeback accumulator (WBA), MNS 5.1.18 values. */
  readonly wba = new Float64Array(ACC_WORDS);
  /**
   * Writebacks kicked by GX (a split with wb_kick) and not yet completed by GWB (wb_done). GX may not kick again,
   * nor run a split that writes the WBA, while one is pending, except through the writeback credits (seq §10.3.2).
   */
  wbPending = 0;
  /** Writeback credits GWB -> GX (seq §10.3.2): GX starts with 8; one per WBA slot a writeback-initiating split writes. */
  wbCredits = SLOTS;
  /** The next split is the first after a writeback: it reads the WBA as zero (seq §10.3.2, hardware-managed). */
  wbaReadsZero = true;
  /**
   * GX's view (docs/spec-notes.md "first split after a writeback"): the next split is the first after a
   * writeback kick (or the first ever), so it reads the WBA as zero and needs one writeback credit per slot it writes.
   * Set when a kicking split completes, cleared by the next split. GX uses this flag, not `wbaReadsZero`, because
   * the first split may overlap the tail of the offload (seq §10.3.2) and later splits must read the WBA.
   */
  firstSplit = true;
}
