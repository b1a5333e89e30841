/**
 * The compute half of a UIE (chip §6.1-§6.3, §6.2.2.1, §6.2.4; seq §7, §9-§11): weights decompressor -> WDP ->
 * Hbufs -> GH; switchbox -> GV -> staging; GX -> LLC grid -> accumulators; GWB -> MNS2FP and masks -> switchbox.
 *
 * Ownership of state: `hbuf` (WDP writes, GH reads), `acc` (GX writes, GWB reads), everything else inside its unit.
 * Tick order is downstream first (GWB, GX, GH, GV, WDP, decompressor), so a value produced in a cycle is consumed
 * the next cycle at the earliest, whatever order the units were created in.
 */
import type { Uie } from '../uie.js';
import { Accumulators } from './accum.js';
import { GhUnit } from './gh.js';
import { GvUnit } from './gv.js';
import { GwbUnit } from './gwb.js';
import { GxUnit } from './gx.js';
import { Hbuf } from './hbuf.js';
import { ComputeStats } from './stats.js';
import type { ComputeUnit } from './unit.js';
import { Wdc } from './wdc.js';
import { WdpUnit } from './wdp.js';

export interface ComputeOptions {
  /** Skip the LLC arithmetic (timing and data movement only, like SCALE-Sim); accumulators stay zero. */
  timingOnly?: boolean;
}

export class Compute {
  readonly hbuf = new Hbuf();
  readonly acc = new Accumulators();
  readonly stats = new ComputeStats();
  readonly timingOnly: boolean;
  readonly wdc: Wdc;
  readonly wdp: WdpUnit;
  readonly gh: GhUnit;
  readonly gv: GvUnit;
  readonly gx: GxUnit;
  readonly gwb: GwbUnit;
  /** Unit by sequencer id (undefined for sequencers that are not compute units). */
  readonly bySeq: Array<ComputeUnit | undefined> = [];
  /** Tick order: downstream first. */
  private readonly order: ComputeUnit[];

  constructor(
    readonly u: Uie,
    opts: ComputeOptions = {},
  ) {
    this.timingOnly = opts.timingOnly ?? false;
    this.wdc = new Wdc(u, this);
    this.wdp = new WdpUnit(u, this);
    this.gh = new GhUnit(u, this);
    this.gv = new GvUnit(u, this);
    this.gx = new GxUnit(u, this);
    this.gwb = new GwbUnit(u, this);
    this.order = [this.gwb, this.gx, this.gh, this.gv, this.wdp];
    for (const x of this.order) this.bySeq[x.seqId] = x;
  }

  tick(now: number): boolean {
    let did = false;
    const o = this.order;
    for (let i = 0; i < o.length; i++) if (o[i]!.tick(now)) did = true;
    if (this.wdc.tick(now)) did = true;
    return did;
  }

  nextEvent(now: number): number {
    let w = this.wdc.nextEvent(now);
    for (const x of this.order) w = Math.min(w, x.nextEvent(now));
    return w;
  }

  get idle(): boolean {
    if (!this.wdc.idle) return false;
    for (const x of this.order) if (!x.idle) return false;
    return true;
  }
}
