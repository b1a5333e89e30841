/**
 * The compute half of a UIE (chip §6.1-§6.3, §6.2.2.1, §6.2.4; seq §7, §9-§11): weights decompressor -> WDP ->
 * Hbufs -> GH; switchbox -> GV -> staging; GX -> LLC grid -> accumulators; GWB -> MNS2FP and masks -> switchbox.
 *
 * Ownership of state: `hbuf` (WDP writes, GH reads), `acc` (GX writes, GWB reads), everything else inside its unit.
 * The VPU side: switchbox -> SB2VB -> Vbuffer tiles -> VB2VPU -> VPU (VI) -> VPU2VB -> tiles -> VB2SB -> switchbox.
 * Tick order is downstream first (VB2SB, VPU2VB, VI, VB2VPU, SB2VB, GWB, GX, GH, GV, WDP, decompressor), so a value
 * produced in a cycle is consumed the next cycle at the earliest, whatever order the units were created in.
 */
import { NUM_SEQUENCERS, SEQ_AMEM_READ, SEQ_AMEM_WRITE, SEQ_SPEC } from '../records.js';
import type { Uie } from '../uie.js';
import { Accumulators } from './accum.js';
import { GhUnit } from './gh.js';
import { GvUnit } from './gv.js';
import { GwbUnit } from './gwb.js';
import { GxUnit } from './gx.js';
import { Hbuf } from './hbuf.js';
import { ComputeStats } from './stats.js';
import type { ComputeUnit } from './unit.js';
import { Vbuffer } from './vbuffer.js';
import { VbufCodes, VbufUnit } from './vbufferUnits.js';
import { ViUnit } from './vi.js';
import { Vpu } from './vpu.js';
import { Wdc } from './wdc.js';
import { WdpUnit } from './wdp.js';

/** The first VPU_SIDE units of `Compute.order` are the VPU side's (VB2SB, VPU2VB, VI, VB2VPU, SB2VB). */
const VPU_SIDE = 5;

export interface ComputeOptions {
  /** Skip the LLC arithmetic (timing and data movement only, like SCALE-Sim); accumulators stay zero. */
  timingOnly?: boolean;
}

export class Compute {
  readonly hbuf = new Hbuf();
  readonly acc = new Accumulators();
  readonly stats = new ComputeStats();
  readonly vbuffer = new Vbuffer();
  readonly vpu: Vpu;
  readonly timingOnly: boolean;
  readonly wdc: Wdc;
  readonly wdp: WdpUnit;
  readonly gh: GhUnit;
  readonly gv: GvUnit;
  readonly gx: GxUnit;
  readonly gwb: GwbUnit;
  readonly sb2vb: VbufUnit;
  readonly vb2sb: VbufUnit;
  readonly vb2vpu: VbufUnit;
  readonly vpu2vb: VbufUnit;
  readonly vi: ViUnit;
  /** Unit by sequencer id (undefined for sequencers that are not compute units). */
  readonly bySeq: Array<ComputeUnit | undefined> = [];
  /** Tick order: downstream first; the VPU side (`VPU_SIDE` units) before the grid side. */
  private readonly order: ComputeUnit[];
  /** `Uie.seqActive` bits of the grid side's sequencers (every sequencer but AMEM Read / Write and the VPU side's). */
  private readonly gridSeqs: number;

  constructor(
    readonly u: Uie,
    opts: ComputeOptions = {},
  ) {
    this.timingOnly = opts.timingOnly ?? false;
    this.vpu = new Vpu(u.params.uie.vpu_fifo_depth, u.fastPaths);
    this.wdc = new Wdc(u, this);
    this.wdp = new WdpUnit(u, this);
    this.gh = new GhUnit(u, this);
    this.gv = new GvUnit(u, this);
    this.gx = new GxUnit(u, this);
    this.gwb = new GwbUnit(u, this);
    this.sb2vb = new VbufUnit(u, this, 'sb2vb');
    this.vb2sb = new VbufUnit(u, this, 'vb2sb');
    this.vb2vpu = new VbufUnit(u, this, 'vb2vpu');
    this.vpu2vb = new VbufUnit(u, this, 'vpu2vb');
    this.vi = new ViUnit(u, this);
    // Vbuffer -> switchbox, VPU -> Vbuffer, VPU, Vbuffer -> VPU, switchbox -> Vbuffer, then the grid from GWB up
    this.order = [this.vb2sb, this.vpu2vb, this.vi, this.vb2vpu, this.sb2vb, this.gwb, this.gx, this.gh, this.gv, this.wdp];
    for (const x of this.order) this.bySeq[x.seqId] = x;
    let grid = ((1 << NUM_SEQUENCERS) - 1) & ~((1 << SEQ_AMEM_READ) | (1 << SEQ_AMEM_WRITE));
    for (let i = 0; i < VPU_SIDE; i++) grid &= ~(1 << this.order[i]!.seqId);
    this.gridSeqs = grid;
  }

  /**
   * A trip retired from trip slot `slot`: every Vbuffer tile it used in scratchpad mode must have its
   * scratchpad_count back at zero (seq §13.2 "At the end of a trip, the count must always return to zero"). The
   * diagnostic points at the last instruction that incremented the count and names the last one that decremented it.
   */
  tripRetired(slot: number): void {
    const vb = this.vbuffer;
    const k = slot & 3;
    let m = vb.spTilesBySlot[k]!;
    vb.spTilesBySlot[k] = 0;
    while (m !== 0) {
      const t = 31 - Math.clz32(m);
      m ^= 1 << t;
      const inc = vb.spIncSeq[t]!;
      const dec = vb.spDecSeq[t]!;
      vb.spIncSeq[t] = vb.spDecSeq[t] = -1;
      if (vb.spCount[t] !== 0) {
        const name = (id: number) => this.u.seqs[id]?.name ?? `seq${id}`;
        const by = inc >= 0 ? `; last incremented by ${name(inc)} pc ${vb.spIncPc[t]}` : '';
        const rd = dec >= 0 ? `, last decremented by ${name(dec)} pc ${vb.spDecPc[t]}` : ', never decremented (no scratchpad read with scratchpad_count_decr enabled)';
        const count = vb.spCount[t];
        vb.spCount[t] = 0;
        this.u.ruleError(VbufCodes.scratchpadNonZero, `trip ${this.u.slots[slot]?.tripId ?? '?'} ended with scratchpad_count ${count} on Vbuffer tile ${t} (must return to zero)${by}${rd}`, `${SEQ_SPEC} §13.2`, inc >= 0 ? this.u.seqs[inc] : undefined, inc >= 0 ? vb.spIncPc[t]! : 0);
      }
    }
  }

  /** True when no unit holds work (set by `tick`); the UIE skips the compute half while it is quiet and no compute sequencer runs. */
  quiet = true;

  /** Set by `tick`: VI was the only unit that made progress (vpuBatch.ts). */
  viOnly = false;

  /**
   * Set when the grid side (GWB .. WDP and the decompressor) was idle after a tick in which none of its sequencers
   * was active: it then stays idle (only its sequencers' decoder records and the weights port they drive give it
   * work, and an idle grid unit's tick is a no-op), and `tick` skips its units until one of them is active again
   * (issue 23: six calls per cycle of a VPU-bound UIE, whose grid never runs).
   */
  private gridQuiet = false;
  /** Process-wide switch of that skip (tests compare with and without; UieOptions.fastPaths off also turns it off). */
  static skipIdleGrid = true;

  tick(now: number): boolean {
    let did = false;
    let others = false;
    const o = this.order;
    const vi = this.vi;
    const gridOff = (this.u.seqActive & this.gridSeqs) === 0;
    const n = gridOff && this.gridQuiet && Compute.skipIdleGrid && this.u.fastPaths ? VPU_SIDE : o.length;
    for (let i = 0; i < n; i++) {
      const x = o[i]!;
      if (x.tick(now)) {
        did = true;
        if (x !== vi) others = true;
      }
    }
    if (n === VPU_SIDE) this.quiet = this.vpuSideIdle();
    else {
      if (this.wdc.tick(now)) did = others = true;
      this.quiet = this.idle;
      this.gridQuiet = gridOff && this.gridIdle();
    }
    this.viOnly = did && !others;
    return did;
  }

  private vpuSideIdle(): boolean {
    const o = this.order;
    for (let i = 0; i < VPU_SIDE; i++) if (!o[i]!.idle) return false;
    return true;
  }

  private gridIdle(): boolean {
    if (!this.wdc.idle) return false;
    const o = this.order;
    for (let i = VPU_SIDE; i < o.length; i++) if (!o[i]!.idle) return false;
    return true;
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
