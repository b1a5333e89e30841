/**
 * A unit that retires one decoder record per cycle with no datapath effect: the base of the compute units while
 * they are being built, and the behaviour of a compute sequencer whose datapath is not modelled (warning SIM0608).
 */
import { Fifo } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import type { Uie } from '../uie.js';
import { HDR_WORDS, retireHead, type ComputeUnit } from './unit.js';

export class SimpleUnit implements ComputeUnit {
  readonly dec: Fifo;
  constructor(
    readonly u: Uie,
    readonly seqId: number,
    words = HDR_WORDS,
    depth = 4,
  ) {
    this.dec = new Fifo(`${u.name}.${u.seqs[seqId]?.name ?? `seq${seqId}`}.dec`, depth, words);
  }
  decode(_s: SeqState, _rec: number): void {}
  startTrip(_s: SeqState): void {}
  tick(_now: number): boolean {
    if (this.dec.empty) return false;
    return retireHead(this.u, this);
  }
  nextEvent(_now: number): number {
    return Infinity;
  }
  get idle(): boolean {
    return this.dec.empty;
  }
}
