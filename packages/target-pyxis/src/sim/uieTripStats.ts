/**
 * Per-trip compute statistics of a `Uie` (docs/timing-model.md "Pyxis compute statistics"): the UIE's observer
 * (uie/observer.ts) that keeps, per trip, the compute counters between its start and its retirement, and attributes
 * the grid / writeback / VPU work of each cycle to the trip whose instruction executed it.
 */
import type { Uie } from './uie/index.js';
import type { UieObserver } from './uie/observer.js';
import type { ComputeStats } from './uie/compute/stats.js';
import type { ComputeUnit } from './uie/compute/unit.js';
import { H_SLOT } from './uie/compute/unit.js';
import { BY_VI, VBUF_COUNTERS } from './vpuStats.js';
import { dbl } from '@pyxis/sim';

/** Trip records kept per UIE for the stats JSON (the totals count every trip). */
export const MAX_TRIP_RECORDS = 256;

/** Stall counters of `ComputeStats` by the name the report gives them (docs/timing-model.md "Pyxis compute statistics"). */
export const STALLS: ReadonlyArray<readonly [string, keyof ComputeStats]> = [
  ['hbuf_write_credits', 'stallHbufWrCredits'],
  ['hbuf_read_credits', 'stallHbufRdCredits'],
  ['wdc_empty', 'stallWdcEmpty'],
  ['wdc_full', 'stallWdcFull'],
  ['hlane_busy', 'stallHlaneBusy'],
  ['staging', 'stallStaging'],
  ['h_data', 'stallHData'],
  ['v_data', 'stallVData'],
  ['writeback_credits', 'stallWbCredits'],
  ['writeback_pending', 'stallWbPending'],
  ['writeback_kick', 'stallWbKick'],
  ['switchbox_full', 'stallSwitchboxFull'],
  ['amem_port', 'stallAmemPort'],
  ['vbuffer', 'vbufStalls'],
  ['vpu_in_fifo', 'stallVpuIn'],
  ['vpu_out_fifo', 'stallVpuOut'],
];

/** Counters copied at trip start and subtracted at retirement. */
export const COUNTERS: ReadonlyArray<keyof ComputeStats> = ['macs', 'execValid', 'execBubble', 'execConfig', 'execNop', 'splits', 'writebacks', 'wbFlits', ...STALLS.map(([, k]) => k), ...BY_VI, ...VBUF_COUNTERS];

/**
 * Counters attributed to the trip whose instruction is at the head of the GX (grid work), GWB (writeback) or VI
 * (VPU programs, vpuStats.ts BY_VI) decoder FIFO when the model simulates a cycle (the instruction executing), rather
 * than to every trip open at the time: with trips overlapping on one UIE, tile n+1 computes while tile n writes back.
 */
const BY_GX: ReadonlyArray<keyof ComputeStats> = ['macs', 'execValid', 'execBubble', 'execConfig', 'execNop', 'splits'];
const BY_GWB: ReadonlyArray<keyof ComputeStats> = ['writebacks', 'wbFlits'];
const ATTRIBUTED: ReadonlyArray<keyof ComputeStats> = [...BY_GX, ...BY_GWB, ...BY_VI];
/** `loadAttributed` reads the ATTRIBUTED counters as fields in this order. */
const ATTRIBUTED_ORDER = 'macs execValid execBubble execConfig execNop splits writebacks wbFlits vpuBusy vpuInstructions vpuLaneOps vpuPrograms';
if (ATTRIBUTED.join(' ') !== ATTRIBUTED_ORDER) throw new Error(`uieTripStats: ATTRIBUTED is not in the order of loadAttributed (${ATTRIBUTED.join(' ')})`);
/** Index of `splits` in ATTRIBUTED (the last GX counter): attributed to the trip that began the split. */
const SPLITS = BY_GX.length - 1;

/** The ATTRIBUTED counters into `a`: plain field reads (a keyed read per counter costs more, once per cycle). */
function loadAttributed(s: ComputeStats, a: Float64Array): void {
  a[0] = s.macs;
  a[1] = s.execValid;
  a[2] = s.execBubble;
  a[3] = s.execConfig;
  a[4] = s.execNop;
  a[5] = s.splits;
  a[6] = s.writebacks;
  a[7] = s.wbFlits;
  a[8] = s.vpuBusy;
  a[9] = s.vpuInstructions;
  a[10] = s.vpuLaneOps;
  a[11] = s.vpuPrograms;
}

export interface TripRecord {
  trip_id: number;
  start_cycle: number;
  end_cycle: number;
  counters: Record<string, number>;
  /** AMEM bytes the UIE read and wrote while the trip was open (overlapping trips each count the shared traffic). */
  amem_bytes: number;
}

/** Per-UIE bookkeeping of the compute statistics by trip (trip start/retire wrap the model's hooks). */
export class ComputeTrips {
  readonly open = new Map<number, { start: number; snap: number[]; bytes: number }>();
  /** Trips accepted whose programs have not started yet: [trip id, trip slot]. */
  pending: Array<[number, number]> = [];
  /** Per open trip: the ATTRIBUTED counters (BY_GX, BY_GWB, BY_VI) attributed to it. */
  readonly own = new Map<number, Float64Array>();
  readonly done: TripRecord[] = [];
  tripsDone = 0;
  /** Cycles with at least one trip in flight (union of the trip intervals). */
  activeCycles = dbl(0);
  private inflight = 0;
  private since = 0;
  constructor(readonly timingOnly: boolean) {}

  snapshot(s: ComputeStats): number[] {
    return COUNTERS.map((k) => s[k] as number);
  }
  /** The last `ownOf` look-up (a Map look-up per simulated cycle was ~1/4 of the observer's time in a VPU-bound run). */
  private ownTrip = -2;
  private ownArr: Float64Array | undefined;
  /** `own.get(trip)`, remembered for the next call. */
  ownOf(trip: number): Float64Array | undefined {
    if (trip !== this.ownTrip) {
      this.ownTrip = trip;
      this.ownArr = this.own.get(trip);
    }
    return this.ownArr;
  }
  start(tripId: number, slot: number, s: ComputeStats, bytes: number): void {
    this.open.set(tripId, { start: -1, snap: this.snapshot(s), bytes });
    this.own.set(tripId, new Float64Array(ATTRIBUTED.length));
    this.ownTrip = -2;
    this.pending.push([tripId, slot]);
  }
  private readonly before = new Float64Array(ATTRIBUTED.length);
  /** The attributed counters' change over the cycle (`changed`), in ATTRIBUTED order. */
  private readonly delta = new Float64Array(ATTRIBUTED.length);
  /** Before the model simulates a cycle: remember the attributed counters (once per cycle: plain loads, no allocation). */
  mark(s: ComputeStats): void {
    loadAttributed(s, this.before);
  }
  /** Whether any attributed counter moved since `mark` (the changes are kept for `attribute`). */
  changed(s: ComputeStats): boolean {
    const b = this.before;
    const d = this.delta;
    loadAttributed(s, d);
    let moved = false;
    for (let i = 0; i < d.length; i++) if ((d[i]! -= b[i]!) !== 0) moved = true;
    return moved;
  }
  /** Trip whose GX instruction began the running split (-1 none): the split is its work, whenever it completes. */
  splitTrip = -1;
  /**
   * After `changed`: what changed goes to the trips whose instructions GX, GWB and VI executed (-1 = none); a unit's
   * trip is looked up only when one of its counters moved (a map look-up per unit and cycle costs more than the rest
   * of the bookkeeping).
   */
  attribute(gxTrip: number, gwbTrip: number, viTrip: number): void {
    this.add(gxTrip, 0, SPLITS);
    const dSplits = this.delta[SPLITS]!;
    if (dSplits !== 0) {
      // a split (AA -> WBA, 8 slot steps) is the work of the trip whose GX instruction began it: GX may already
      // issue the next trip's Exec_Valid while it runs (tile n+1 overlapping tile n)
      const sp = this.ownOf(this.splitTrip >= 0 ? this.splitTrip : gxTrip);
      if (sp) sp[SPLITS]! += dSplits;
    }
    this.add(gwbTrip, BY_GX.length, BY_GX.length + BY_GWB.length);
    this.add(viTrip, BY_GX.length + BY_GWB.length, ATTRIBUTED.length);
  }
  /** Adds the changes of the attributed counters [from, to) to `trip`'s own counters, if any of them moved. */
  private add(trip: number, from: number, to: number): void {
    const d = this.delta;
    let i = from;
    while (i < to && d[i] === 0) i++;
    if (i === to) return;
    const o = this.ownOf(trip);
    if (o) for (let k = from; k < to; k++) o[k]! += d[k]!;
  }
  /**
   * After the model simulated cycle `now`: a pending trip starts at the first cycle one of its sequencers runs its
   * program (trips queued behind a running trip, chip §11.7.1 tracking IDs, are not counted while they wait).
   */
  resolve(now: number, running: (slot: number) => boolean): void {
    let n = 0;
    for (const p of this.pending) {
      if (!running(p[1])) {
        this.pending[n++] = p;
        continue;
      }
      const o = this.open.get(p[0]);
      if (o) o.start = now;
      if (this.inflight++ === 0) this.since = now;
    }
    this.pending.length = n;
  }
  /** A trip that retires without having been seen running (no program, or retired within a run-ahead window). */
  private settle(tripId: number, cycle: number): void {
    const i = this.pending.findIndex((p) => p[0] === tripId);
    if (i < 0) return;
    this.pending.splice(i, 1);
    const o = this.open.get(tripId);
    if (o) o.start = cycle;
    if (this.inflight++ === 0) this.since = cycle;
  }
  retire(tripId: number, cycle: number, s: ComputeStats, bytes: number): void {
    this.settle(tripId, cycle);
    if (this.inflight > 0 && --this.inflight === 0) this.activeCycles += cycle + 1 - this.since;
    const o = this.open.get(tripId);
    const own = this.own.get(tripId);
    this.open.delete(tripId);
    this.own.delete(tripId);
    this.ownTrip = -2;
    this.tripsDone++;
    if (!o || this.done.length >= MAX_TRIP_RECORDS) return;
    const now = this.snapshot(s);
    const counters: Record<string, number> = {};
    COUNTERS.forEach((k, i) => (counters[k] = now[i]! - o.snap[i]!));
    if (own) ATTRIBUTED.forEach((k, i) => (counters[k] = own[i]!));
    this.done.push({ trip_id: tripId, start_cycle: o.start, end_cycle: cycle, counters, amem_bytes: bytes - o.bytes });
  }
  /** Active cycles including a trip still in flight at `now`. */
  active(now: number): number {
    return this.activeCycles + (this.inflight > 0 ? now + 1 - this.since : 0);
  }
}

/** The trip of the instruction at the head of a compute unit's decoder FIFO (what it executes next), else -1. */
function tripOf(u: Uie, x: ComputeUnit): number {
  const at = x.dec.peekSlot();
  if (at < 0) return -1;
  const sl = u.trips.slots[x.dec.data[at + H_SLOT]!];
  return sl?.active ? sl.tripId : -1;
}

/** The statistics observer of one UIE (`UieOptions.observer`): trip records and per-trip attribution (`ComputeTrips`). */
export class UieTripStats implements UieObserver {
  readonly book: ComputeTrips;
  private u!: Uie;
  private st!: ComputeStats;
  // the units whose decoder FIFO heads name the trip of their work (fixed at attach: no look-up per cycle)
  private gx!: Uie['cmp']['gx'];
  private gwb!: ComputeUnit;
  private vi!: ComputeUnit;
  private lastGx = -1;
  private lastGwb = -1;
  private lastVi = -1;
  // this cycle's trips at the heads of GX, GWB, VI (beforeCycle) and whether a split was running then
  private g = -1;
  private w = -1;
  private v = -1;
  private splitBefore = false;
  private readonly running = (slot: number): boolean => {
    for (const q of this.u.seqs) if (q.slot === slot && q.core.running) return true;
    return false;
  };
  constructor(timingOnly: boolean) {
    this.book = new ComputeTrips(timingOnly);
  }
  attach(u: Uie): void {
    this.u = u;
    this.st = u.cmp.stats;
    this.gx = u.cmp.gx;
    this.gwb = u.cmp.gwb;
    this.vi = u.cmp.vi;
  }
  private bytes(): number {
    return this.u.stats.bytesRead + this.u.stats.bytesWritten;
  }
  tripAccepted(tripId: number, slot: number): void {
    this.book.start(tripId, slot, this.st, this.bytes());
  }
  beforeCycle(_now: number): void {
    const u = this.u;
    const g = (this.g = tripOf(u, this.gx));
    const w = (this.w = tripOf(u, this.gwb));
    const v = (this.v = tripOf(u, this.vi));
    if (g >= 0) this.lastGx = g;
    if (w >= 0) this.lastGwb = w;
    if (v >= 0) this.lastVi = v;
    this.book.mark(this.st);
    this.splitBefore = this.gx.splitRunning;
  }
  afterCycle(now: number): void {
    const book = this.book;
    const u = this.u;
    const gx = this.gx;
    const gwb = this.gwb;
    const vi = this.vi;
    let g = this.g;
    let w = this.w;
    let v = this.v;
    if (!this.splitBefore && gx.splitRunning) book.splitTrip = g >= 0 ? g : this.lastGx;
    if (book.changed(this.st)) {
      // an instruction decoded and executed within this cycle (FIFO empty before): the trip now at the head, else the last
      if (g < 0) g = tripOf(u, gx) >= 0 ? tripOf(u, gx) : this.lastGx;
      if (w < 0) w = tripOf(u, gwb) >= 0 ? tripOf(u, gwb) : this.lastGwb;
      if (v < 0) v = tripOf(u, vi) >= 0 ? tripOf(u, vi) : this.lastVi;
      book.attribute(g, w, v);
    }
    if (book.pending.length) book.resolve(now, this.running);
  }
  vpuCycle(now: number, laneOps: number): void {
    // what beforeCycle + afterCycle would do: only VI's counters moved (busy, instructions, lane-ops), for the trip of
    // the record at VI's head (else the last one VI executed)
    let v = tripOf(this.u, this.vi);
    if (v >= 0) this.lastVi = v;
    else v = this.lastVi;
    const o = this.book.ownOf(v);
    if (o) {
      o[8]! += 1;
      o[9]! += 1;
      o[10]! += laneOps;
    }
    if (this.book.pending.length) this.book.resolve(now, this.running);
  }
  vpuCycles(from: number, n: number, laneOps: number): void {
    // vpuCycle for each cycle: the same VI head in all; a pending trip that does not start at `from` (no sequencer of
    // it running) does not start later in the run either (nothing but VI moves)
    let v = tripOf(this.u, this.vi);
    if (v >= 0) this.lastVi = v;
    else v = this.lastVi;
    const o = this.book.ownOf(v);
    if (o) {
      o[8]! += n;
      o[9]! += n;
      o[10]! += laneOps;
    }
    if (this.book.pending.length) this.book.resolve(from, this.running);
  }
  tripRetired(tripId: number, cycle: number): void {
    this.book.retire(tripId, cycle, this.st, this.bytes());
  }
}
