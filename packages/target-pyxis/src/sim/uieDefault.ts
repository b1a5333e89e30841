/** The UIE datapath model used by `pyxis-sim run`: targets/pyxis/uie's `Uie`. */
import { Uie } from './uie/index.js';
import type { ComputeStats } from './uie/compute/stats.js';
import type { ComputeUnit } from './uie/compute/unit.js';
import { H_SLOT } from './uie/compute/unit.js';
import type { UieFactory, UieModel, UieModelOptions } from './uieSlot.js';
import { BY_VI, VBUF_COUNTERS, vbufFigures, vpuFigures, vpuWorked } from './vpuStats.js';

/** Options of the default UIE model chosen on the command line. */
export interface DefaultUieOptions {
  /** `pyxis-sim run --timing-only`: skip the LLC arithmetic (compute/index.ts `timingOnly`). */
  timingOnly?: boolean;
}

/** Trip records kept per UIE for the stats JSON (the totals count every trip). */
const MAX_TRIP_RECORDS = 256;

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
const COUNTERS: ReadonlyArray<keyof ComputeStats> = ['macs', 'execValid', 'execBubble', 'execConfig', 'execNop', 'splits', 'writebacks', 'wbFlits', ...STALLS.map(([, k]) => k), ...BY_VI, ...VBUF_COUNTERS];

/**
 * Counters attributed to the trip whose instruction is at the head of the GX (grid work), GWB (writeback) or VI
 * (VPU programs, vpuStats.ts BY_VI) decoder FIFO when the model simulates a cycle (the instruction executing), rather
 * than to every trip open at the time: with trips overlapping on one UIE, tile n+1 computes while tile n writes back.
 */
const BY_GX: ReadonlyArray<keyof ComputeStats> = ['macs', 'execValid', 'execBubble', 'execConfig', 'execNop', 'splits'];
const BY_GWB: ReadonlyArray<keyof ComputeStats> = ['writebacks', 'wbFlits'];
const ATTRIBUTED: ReadonlyArray<keyof ComputeStats> = [...BY_GX, ...BY_GWB, ...BY_VI];
/** `ComputeTrips.mark` / `attribute` read the ATTRIBUTED counters as fields in this order. */
const ATTRIBUTED_ORDER = 'macs execValid execBubble execConfig execNop splits writebacks wbFlits vpuBusy vpuInstructions vpuLaneOps vpuPrograms';
if (ATTRIBUTED.join(' ') !== ATTRIBUTED_ORDER) throw new Error(`uieDefault: ATTRIBUTED is not in the order of ComputeTrips.mark (${ATTRIBUTED.join(' ')})`);

interface TripRecord {
  trip_id: number;
  start_cycle: number;
  end_cycle: number;
  counters: Record<string, number>;
  /** AMEM bytes the UIE read and wrote while the trip was open (overlapping trips each count the shared traffic). */
  amem_bytes: number;
}

/** Per-UIE bookkeeping of the compute statistics by trip (trip start/retire wrap the model's hooks). */
class ComputeTrips {
  readonly open = new Map<number, { start: number; snap: number[]; bytes: number }>();
  /** Trips accepted whose programs have not started yet: [trip id, trip slot]. */
  pending: Array<[number, number]> = [];
  /** Per open trip: the ATTRIBUTED counters (BY_GX, BY_GWB, BY_VI) attributed to it. */
  readonly own = new Map<number, Float64Array>();
  readonly done: TripRecord[] = [];
  tripsDone = 0;
  /** Cycles with at least one trip in flight (union of the trip intervals). */
  activeCycles = 0;
  private inflight = 0;
  private since = 0;
  constructor(readonly timingOnly: boolean) {}

  snapshot(s: ComputeStats): number[] {
    return COUNTERS.map((k) => s[k] as number);
  }
  start(tripId: number, slot: number, s: ComputeStats, bytes: number): void {
    this.open.set(tripId, { start: -1, snap: this.snapshot(s), bytes });
    this.own.set(tripId, new Float64Array(ATTRIBUTED.length));
    this.pending.push([tripId, slot]);
  }
  private readonly before = new Float64Array(ATTRIBUTED.length);
  /** Before the model simulates a cycle: remember the attributed counters (once per cycle: plain loads, no allocation). */
  mark(s: ComputeStats): void {
    const b = this.before;
    b[0] = s.macs;
    b[1] = s.execValid;
    b[2] = s.execBubble;
    b[3] = s.execConfig;
    b[4] = s.execNop;
    b[5] = s.splits;
    b[6] = s.writebacks;
    b[7] = s.wbFlits;
    b[8] = s.vpuBusy;
    b[9] = s.vpuInstructions;
    b[10] = s.vpuLaneOps;
    b[11] = s.vpuPrograms;
  }
  /** Whether any attributed counter moved since `mark`. */
  changed(s: ComputeStats): boolean {
    const b = this.before;
    return s.macs !== b[0] || s.execValid !== b[1] || s.execBubble !== b[2] || s.execConfig !== b[3] || s.execNop !== b[4] || s.splits !== b[5] || s.writebacks !== b[6] || s.wbFlits !== b[7] || s.vpuBusy !== b[8] || s.vpuInstructions !== b[9] || s.vpuLaneOps !== b[10] || s.vpuPrograms !== b[11];
  }
  /** Trip whose GX instruction began the running split (-1 none): the split is its work, whenever it completes. */
  splitTrip = -1;
  /**
   * After it: what changed goes to the trips whose instructions GX, GWB and VI executed (-1 = none). Plain field
   * reads in `mark`'s order (ATTRIBUTED): a keyed read per counter and a map look-up per unit cost more per cycle
   * than the rest of the bookkeeping; a unit's trip is looked up only when one of its counters moved.
   */
  attribute(s: ComputeStats, gxTrip: number, gwbTrip: number, viTrip: number): void {
    const b = this.before;
    const dMacs = s.macs - b[0]!;
    const dValid = s.execValid - b[1]!;
    const dBubble = s.execBubble - b[2]!;
    const dConfig = s.execConfig - b[3]!;
    const dNop = s.execNop - b[4]!;
    const dSplits = s.splits - b[5]!;
    if (dMacs !== 0 || dValid !== 0 || dBubble !== 0 || dConfig !== 0 || dNop !== 0) {
      const g = this.own.get(gxTrip);
      if (g) {
        g[0]! += dMacs;
        g[1]! += dValid;
        g[2]! += dBubble;
        g[3]! += dConfig;
        g[4]! += dNop;
      }
    }
    if (dSplits !== 0) {
      // a split (AA -> WBA, 8 slot steps) is the work of the trip whose GX instruction began it: GX may already
      // issue the next trip's Exec_Valid while it runs (tile n+1 overlapping tile n)
      const sp = this.own.get(this.splitTrip >= 0 ? this.splitTrip : gxTrip);
      if (sp) sp[5]! += dSplits;
    }
    const dWb = s.writebacks - b[6]!;
    const dFlits = s.wbFlits - b[7]!;
    if (dWb !== 0 || dFlits !== 0) {
      const w = this.own.get(gwbTrip);
      if (w) {
        w[6]! += dWb;
        w[7]! += dFlits;
      }
    }
    const dBusy = s.vpuBusy - b[8]!;
    const dInstr = s.vpuInstructions - b[9]!;
    const dLanes = s.vpuLaneOps - b[10]!;
    const dProg = s.vpuPrograms - b[11]!;
    if (dBusy !== 0 || dInstr !== 0 || dLanes !== 0 || dProg !== 0) {
      const v = this.own.get(viTrip);
      if (v) {
        v[8]! += dBusy;
        v[9]! += dInstr;
        v[10]! += dLanes;
        v[11]! += dProg;
      }
    }
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

const trips = new WeakMap<Uie, ComputeTrips>();

/** The default factory with command-line options (`--timing-only`). */
export function makeUieFactory(opts: DefaultUieOptions = {}): UieFactory {
  return (o: UieModelOptions) => {
    const book = new ComputeTrips(opts.timingOnly ?? false);
    let u: Uie | undefined;
    const onTripDone = (tripId: number, cycle: number) => {
      if (u) book.retire(tripId, cycle, u.cmp.stats, u.stats.bytesRead + u.stats.bytesWritten);
      o.onTripDone(tripId, cycle);
    };
    const model = new Uie({
      cluster: o.cluster, index: o.index, amem: o.amem, cfg: o.cfg, cfgBase: o.cfgBase, writeCommitLatency: o.writeCommitLatency, params: o.params, onTripDone, onPartialWrite: o.onPartialWrite,
      ...(opts.timingOnly ? { timingOnly: true } : {}),
    });
    u = model;
    const start = model.startTrip.bind(model);
    model.startTrip = (t) => {
      const ok = start(t);
      if (ok) book.start(t.trip_id, model.slots.findIndex((x) => x.active && x.tripId === t.trip_id), model.cmp.stats, model.stats.bytesRead + model.stats.bytesWritten);
      return ok;
    };
    // the trip of the instruction at the head of a unit's decoder FIFO (what it executes next), else -1
    const tripOf = (x: ComputeUnit) => {
      const at = x.dec.peekSlot();
      if (at < 0) return -1;
      const sl = model.slots[x.dec.data[at + H_SLOT]!];
      return sl?.active ? sl.tripId : -1;
    };
    const { gx, gwb, vi } = model.cmp;
    let lastGx = -1;
    let lastGwb = -1;
    let lastVi = -1;
    const tick = model.tick.bind(model);
    const running = (slot: number) => {
      for (const q of model.seqs) if (q.slot === slot && q.core.running) return true;
      return false;
    };
    const st = model.cmp.stats;
    model.tick = (now) => {
      let g = tripOf(gx);
      let w = tripOf(gwb);
      let v = tripOf(vi);
      if (g >= 0) lastGx = g;
      if (w >= 0) lastGwb = w;
      if (v >= 0) lastVi = v;
      book.mark(st);
      const splitBefore = gx.splitRunning;
      const r = tick(now);
      if (!splitBefore && gx.splitRunning) book.splitTrip = g >= 0 ? g : lastGx;
      if (book.changed(st)) {
        // an instruction decoded and executed within this cycle (FIFO empty before): the trip now at the head, else the last
        if (g < 0) g = tripOf(gx) >= 0 ? tripOf(gx) : lastGx;
        if (w < 0) w = tripOf(gwb) >= 0 ? tripOf(gwb) : lastGwb;
        if (v < 0) v = tripOf(vi) >= 0 ? tripOf(vi) : lastVi;
        book.attribute(st, g, w, v);
      }
      if (book.pending.length) book.resolve(now, running);
      return r;
    };
    // run-ahead windows (Uie.runAhead) simulate through model.tick, i.e. the wrapper above; their batched steady-state
    // cycles (steadyBatch) only move data with the compute half quiet
    trips.set(model, book);
    return model;
  };
}

export const defaultUieFactory: UieFactory = makeUieFactory();

/** Current PC per sequencer of a `Uie` (VCD probes), or undefined for other models. */
export function sequencerPcs(m: UieModel | undefined): Array<() => number> | undefined {
  if (!(m instanceof Uie)) return undefined;
  return m.seqs.map((s) => () => s.core.pc);
}

/** VCD/trace probes of a `Uie`: decoder and switchbox FIFO occupancies. */
export function uieFifos(m: UieModel | undefined): Array<[string, () => number]> | undefined {
  if (!(m instanceof Uie)) return undefined;
  const u = m;
  return [
    ['amem_read_decoder_fifo', () => u.readDec.occupancy],
    ['amem_write_decoder_fifo', () => u.writeDec.occupancy],
    ['sb_amem_read_to_write', () => u.sbReadToWrite.occupancy],
  ];
}

/** Per-sequencer probes of a `Uie` for the sequencer trace tracks: name, running flag, PC, trip slot. */
export function sequencerRunning(m: UieModel | undefined): Array<{ name: string; running: () => boolean; pc: () => number; slot: () => number }> | undefined {
  if (!(m instanceof Uie)) return undefined;
  return m.seqs.map((s) => ({ name: s.name, running: () => s.core.running, pc: () => s.core.pc, slot: () => s.slot }));
}

/** FLOPs per MAC (multiply + add), as in chip §1's 44 TFLOPS = 2048 LLC x 8 MAC x 2 x 1.33 GHz. */
const FLOPS_PER_MAC = 2;

function figures(c: Record<string, number>, cycles: number, clockHz: number) {
  const stalls: Record<string, number> = {};
  for (const [name, k] of STALLS) if (c[k]) stalls[name] = c[k]!;
  const seconds = cycles / clockHz;
  const vpu = vpuFigures(c, cycles);
  const vbuffer = vbufFigures(c);
  return {
    cycles,
    macs: c['macs'] ?? 0,
    tflops: seconds > 0 ? ((c['macs'] ?? 0) * FLOPS_PER_MAC) / seconds / 1e12 : 0,
    grid_utilisation: cycles > 0 ? (c['execValid'] ?? 0) / cycles : 0,
    exec_valid: c['execValid'] ?? 0,
    exec_bubble: c['execBubble'] ?? 0,
    exec_config: c['execConfig'] ?? 0,
    exec_nop: c['execNop'] ?? 0,
    splits: c['splits'] ?? 0,
    writebacks: c['writebacks'] ?? 0,
    wb_flits: c['wbFlits'] ?? 0,
    stall_cycles: stalls,
    ...(vpu ? { vpu } : {}),
    ...(vbuffer ? { vbuffer } : {}),
  };
}

/** Compute statistics of a `Uie` (docs/timing-model.md "Pyxis compute statistics"); undefined when the grid never ran. */
function computeStats(u: Uie, clockHz: number): Record<string, unknown> | undefined {
  const s = u.cmp.stats;
  const book = trips.get(u);
  const all: Record<string, number> = {};
  for (const k of COUNTERS) all[k] = s[k] as number;
  const used = COUNTERS.some((k) => (s[k] as number) > 0) || s.wdcWords + s.wdpWords + s.hbufReads > 0;
  if (!used && !u.cmp.timingOnly) return undefined;
  const active = book ? book.active(u.now) : u.now;
  return {
    timing_only: u.cmp.timingOnly,
    clock_hz: clockHz,
    ...figures(all, active, clockHz),
    wdc_words: s.wdcWords,
    wdp_words: s.wdpWords,
    hbuf_bytes_written: s.hbufBytesWritten,
    hbuf_reads: s.hbufReads,
    trips: (book?.done ?? [])
      .filter((t) => (t.counters['execValid'] ?? 0) + (t.counters['macs'] ?? 0) + (t.counters['wbFlits'] ?? 0) > 0 || vpuWorked(t.counters))
      .map((t) => ({ trip_id: t.trip_id, start_cycle: t.start_cycle, end_cycle: t.end_cycle, ...figures(t.counters, t.end_cycle + 1 - t.start_cycle, clockHz), amem_bytes: t.amem_bytes })),
    ...(book && book.tripsDone > MAX_TRIP_RECORDS ? { trips_truncated: book.tripsDone - MAX_TRIP_RECORDS } : {}),
  };
}

/** Datapath statistics of a `Uie` for the stats JSON (`compute` only when the compute half did something). */
export function uieStats(m: UieModel | undefined, clockHz = 1.33e9): Record<string, unknown> | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.stats;
  const compute = computeStats(m, clockHz);
  return {
    instructions: Object.fromEntries(m.seqs.map((s) => [s.name, st.instructions[s.id]])),
    bytes_read: st.bytesRead,
    bytes_written: st.bytesWritten,
    pads_inserted: st.padsInserted,
    discards: st.discards,
    rmw_adds: st.rmwAdds,
    partial_writes: st.partialWrites,
    indirect_reads: st.indirectReads,
    indirect_writes: st.indirectWrites,
    flits_dropped: st.flitsDropped,
    ...(compute ? { compute } : {}),
  };
}
