/**
 * The weights decompressor input (chip §6.2.4.1, §14; seq §7.1 wdc_type / wdc_block_size): the FIFO from the AMEM
 * Weights Read port to the decompressor, and the decompressor feeding the post-decompression FIFO (wdc_fifo) that
 * WDP WR_HBUF pops (seq §9.1). Placeholder: accepts and drops words (owner: weights path).
 */
import type { Uie } from '../uie.js';
import type { Compute } from './index.js';

export class Wdc {
  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {}
  /** True when the Weights Read port may issue a word this cycle (room in the FIFO to the decompressor). */
  canAccept(): boolean {
    return true;
  }
  /** Decompressor step, once per cycle. */
  tick(_now: number): boolean {
    return false;
  }
  nextEvent(_now: number): number {
    return Infinity;
  }
  get idle(): boolean {
    return true;
  }
}
