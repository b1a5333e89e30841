/**
 * Tracing glue for the Pyxis target: trip slices (with trip_id) and barrier-
 * wait slices per engine track, barrier events (setup/notify/wait/..., §18)
 * as instants on a per-cluster `barriers` track, APM power and bytes-moved
 * counters; VCD signals sampled by a probe engine after every kernel step.
 */
import type { SimEngine } from '@pyxis/sim';
import type { TraceTrack, TraceWriter } from '@pyxis/sim';
import type { VcdWriter } from '@pyxis/sim';
import type { BarrierEventKind, BarrierObserver } from './barriers.js';
import type { TripObserver } from './tripManager.js';
import type { Trip, TripEngine } from './trip.js';

export class PyxisObserver implements BarrierObserver, TripObserver {
  private readonly tracks = new Map<string, TraceTrack>();
  /** Barrier event counts (stats), by kind. */
  readonly barrierEvents: Record<string, number> = {};
  private engineGroup = new Map<string, string>();
  constructor(
    readonly trace?: TraceWriter,
    readonly vcd?: VcdWriter,
  ) {}

  registerEngine(e: SimEngine): void {
    const g = e.group ?? e.name.split('.')[0]!;
    this.engineGroup.set(e.name, g);
  }

  private track(group: string, name: string): TraceTrack {
    let t = this.tracks.get(name);
    if (!t) {
      t = this.trace!.track(group, name);
      this.tracks.set(name, t);
    }
    return t;
  }

  /** The link script's name of a trip (image metadata), for slice names in the user's words. */
  tripName?: (tripId: number) => string | undefined;
  private tripLabel(trip: Trip): string {
    return this.tripName?.(trip.tripId) ?? `${trip.kind} trip ${trip.tripId}`;
  }

  /** Sequencer tracks of the UIEs (set when tracing with the UIE datapath model). */
  seqTracer?: SequencerTracer;

  /** Per engine track name: end cycle of the last slice on each lane (lane 0 = the engine's own track). */
  private readonly lanes = new Map<string, number[]>();

  /**
   * The track for a slice [start, end] of `name`: trace viewers need the slices of one track properly nested, but an
   * engine with several trips in flight (a UIE tracks up to three, chip §11.7.1) has overlapping trips, so an
   * overlapping slice goes to the first extra lane track (`c0.uie0 #2`, ...) that is free at `start`.
   */
  private laneTrack(group: string, name: string, start: number, end: number): TraceTrack {
    let ends = this.lanes.get(name);
    if (!ends) this.lanes.set(name, (ends = []));
    let k = 0;
    while (k < ends.length && ends[k]! > start) k++;
    ends[k] = end;
    return this.track(group, k === 0 ? name : `${name} #${k + 1}`);
  }

  tripStarted(engine: TripEngine, trip: Trip, _now: number): void {
    if (this.seqTracer && engine.kind === 'uie') this.seqTracer.tripStarted(engine.name, trip.tripId, Number(trip.fields['trip_valid_mask'] ?? 0));
  }

  /** A generic instant on an engine's track (e.g. the DPE's Descriptor Queue Dequeue Event, chip §12.5). */
  instant(group: string, trackName: string, now: number, name: string, args: Record<string, string | number>, cat = 'queue'): void {
    if (this.trace) this.trace.instant(this.track(group, trackName), now, name, args, cat);
  }

  /** A fabric adapter job (Tx or Rx, chip §10.7-10.8) as a slice on its cluster's job-manager track (lanes for overlaps). */
  fabricSlice(group: string, trackName: string, start: number, end: number, name: string, args: Record<string, string | number>): void {
    if (this.trace) this.trace.slice(this.laneTrack(group, trackName, start, end), start, end, name, args, 'fabric');
  }

  tripDone(engine: string, trip: Trip, now: number): void {
    if (!this.trace) return;
    const g = this.engineGroup.get(engine) ?? `cluster ${trip.cluster}`;
    if (trip.waitBarrierId !== 0 && trip.goAt > trip.waitAt)
      this.trace.slice(this.laneTrack(g, `${engine} wait`, trip.waitAt, trip.goAt), trip.waitAt, trip.goAt, `wait barrier ${trip.waitBarrierId}`, { trip_id: trip.tripId, barrier_id: trip.waitBarrierId }, 'barrier');
    this.trace.slice(this.laneTrack(g, engine, trip.startAt, trip.doneAt), trip.startAt, trip.doneAt, this.tripLabel(trip), {
      trip_id: trip.tripId,
      kind: trip.kind,
      queue_id: trip.qid,
      descriptor: trip.table,
      wait_barrier_id: trip.waitBarrierId,
      notify_list: trip.notifyList.map((g2) => `${g2 >> 10}:${g2 & 1023}`).join(' '),
      trip_power: trip.trip_power,
      notified_at: now,
    });
  }

  /** A trip discarded by the trip flush (chip §11.8): an instant on the engine's track. */
  tripFlushed(engine: string, trip: Trip, now: number): void {
    if (!this.trace) return;
    const g = this.engineGroup.get(engine) ?? `cluster ${trip.cluster}`;
    this.trace.instant(this.track(g, engine), now, `flushed ${this.tripLabel(trip)}`, { trip_id: trip.tripId, queue_id: trip.qid, wait_barrier_id: trip.waitBarrierId }, 'trip');
  }

  /** Trip flush mode set / completed / cleared in a cluster (chip §11.8): an instant on the cluster's trip-manager track. */
  flushEvent(cluster: number, what: 'start' | 'done' | 'end', now: number, discarded: number): void {
    if (this.trace) this.trace.instant(this.track(`cluster ${cluster}`, `c${cluster}.trip_manager`), now, `trip flush ${what}`, { cluster, discarded_trips: discarded }, 'flush');
  }

  /**
   * At a deadlock / --max-cycles stop: slices up to `end` for the trips still running (`unfinished: 1`) and the
   * barrier waits never released, so the trace shows what was pending when the run stopped.
   */
  unfinished(engine: string, cluster: number, trip: Trip, end: number, what: 'running' | 'waiting'): void {
    if (!this.trace) return;
    const g = this.engineGroup.get(engine) ?? `cluster ${cluster}`;
    if (what === 'waiting')
      this.trace.slice(this.laneTrack(g, `${engine} wait`, trip.waitAt, end), trip.waitAt, end, `wait barrier ${trip.waitBarrierId} (not released)`, { trip_id: trip.tripId, barrier_id: trip.waitBarrierId, unfinished: 1 }, 'barrier');
    else
      this.trace.slice(this.laneTrack(g, engine, trip.startAt, end), trip.startAt, end, `${this.tripLabel(trip)} (unfinished)`, {
        trip_id: trip.tripId,
        kind: trip.kind,
        queue_id: trip.qid,
        descriptor: trip.table,
        wait_barrier_id: trip.waitBarrierId,
        unfinished: 1,
      });
  }

  barrierEvent(cluster: number, kind: BarrierEventKind, id: number, notifyCount: number, waitCount: number, engine: string, tripId: number, now: number): void {
    this.barrierEvents[kind] = (this.barrierEvents[kind] ?? 0) + 1;
    if (this.trace)
      this.trace.instant(this.track(`cluster ${cluster}`, `c${cluster}.barriers`), now, `${kind} b${id}`, {
        event: kind,
        barrier_id: id,
        notify_count: notifyCount,
        wait_count: waitCount,
        engine,
        trip_id: tripId,
      });
    const sig = this.barrierSignals.get(cluster * 1024 + id);
    // (a timeout is evaluated lazily and may be reported after its walk cycle: it changes no count, and VCD time only moves forward)
    if (sig && this.vcd && kind !== 'timeout') {
      this.vcd.set(sig[0], notifyCount, now);
      this.vcd.set(sig[1], waitCount, now);
    }
  }

  /** VCD signal handles for barrier counts, keyed cluster*1024+id. */
  readonly barrierSignals = new Map<number, [number, number]>();
}

/** Samples registered VCD probes after every kernel step (registered last). */
export class VcdProbe implements SimEngine {
  readonly name = 'vcd_probe';
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  readonly phase = 5;
  readonly group = 'chip';
  private readonly ids: number[] = [];
  private readonly getters: Array<() => number> = [];
  constructor(private readonly vcd: VcdWriter) {}
  add(id: number, get: () => number): void {
    this.ids.push(id);
    this.getters.push(get);
  }
  get busy(): boolean {
    return false;
  }
  tick(now: number): boolean {
    for (let i = 0; i < this.ids.length; i++) this.vcd.set(this.ids[i]!, this.getters[i]!(), now);
    return false;
  }
  nextWake(): number {
    return Infinity;
  }
  blockedReason(): string | undefined {
    return undefined;
  }
}

/** A trace counter sampled by `TraceSampler`: values of counter `name` on the process of `group` (undefined: no event). */
export interface CounterSource {
  group: string;
  name: string;
  sample: (now: number) => Record<string, number> | undefined;
  /** A rate over the period since the previous sample: placed at the period's start, like the bandwidth counter. */
  rate?: boolean;
}

/**
 * Emits trace counters at most every `period` cycles, from kernel steps that
 * happen anyway: bandwidth per port in GB/s (bytes moved since the previous
 * sample) and the registered counter sources (prefetch-queue occupancy per
 * cluster, UIE FIFO occupancies, ...). It never schedules wakes of its own, so
 * idle skipping and deadlock detection are unaffected; `finish` takes a last
 * sample at the end of the run (short runs get at least two samples).
 */
export class TraceSampler implements SimEngine {
  readonly name = 'trace_sampler';
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  readonly phase = 5;
  readonly group = 'chip';
  private next = 0;
  private lastAt = 0;
  private readonly lastBytes: Float64Array;
  constructor(
    private readonly trace: TraceWriter,
    private readonly period: number,
    private readonly clockHz: number,
    private readonly ports: ReadonlyArray<{ name: string; bytes: number }>,
    private readonly counters: readonly CounterSource[],
  ) {
    this.lastBytes = new Float64Array(ports.length);
  }
  get busy(): boolean {
    return false;
  }
  tick(now: number): boolean {
    if (now >= this.next) this.sample(now);
    return false;
  }
  /** Final sample at the end of the run; the bandwidth counters then drop to zero (nothing moves after the end). */
  finish(now: number): void {
    if (now > this.lastAt || this.next === 0) this.sample(now);
    const zero: Record<string, number> = {};
    this.ports.forEach((p) => {
      if (p.bytes > 0) zero[p.name] = 0;
    });
    if (Object.keys(zero).length) this.trace.counter('chip', now, 'bandwidth GB/s', zero);
  }
  private sample(now: number): void {
    const dt = now - this.lastAt;
    if (dt > 0) {
      const bw: Record<string, number> = {};
      let any = false;
      this.ports.forEach((p, i) => {
        const d = p.bytes - this.lastBytes[i]!;
        this.lastBytes[i] = p.bytes;
        if (d > 0 || this.lastBytes[i]! > 0) {
          bw[p.name] = Math.round(((d / dt) * this.clockHz) / 1e6) / 1e3;
          any = true;
        }
      });
      // The rate holds over [lastAt, now): the sample is placed at its start.
      if (any) this.trace.counter('chip', this.lastAt, 'bandwidth GB/s', bw);
    }
    for (const c of this.counters) {
      const v = c.sample(now);
      if (v) this.trace.counter(c.group, c.rate ? this.lastAt : now, c.name, v);
    }
    this.lastAt = now;
    this.next = now + this.period;
  }
  nextWake(): number {
    return Infinity;
  }
  blockedReason(): string | undefined {
    return undefined;
  }
}

interface SeqItem {
  group: string;
  trackName: string;
  label: string;
  track?: TraceTrack;
  running: () => boolean;
  pc: () => number;
  /** The model's trip slot of the sequencer (a change while running = the next trip started). */
  slot: () => number;
  /** trip_ids of the trips this sequencer is valid in, in start order (fed by `tripStarted`). */
  readonly trips: number[];
  since: number;
  startPc: number;
  lastSlot: number;
  tripId: number;
  /** The linked program at a PC (image metadata `programs`), for slice names. */
  programAt?: (pc: number) => string | undefined;
}

/**
 * One trace track per UIE sequencer: a slice per trip the sequencer ran
 * (name = the linked program at its start PC, else `<sequencer> pc N`; args `trip_id`, `start_pc`), sampled after every kernel
 * step. A sequencer runs its trips in the order they were started, so the
 * k-th run of sequencer s belongs to the k-th started trip whose
 * `trip_valid_mask` has bit s (seq §3).
 */
export class SequencerTracer implements SimEngine {
  readonly name = 'sequencer_tracer';
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  readonly phase = 5;
  readonly group = 'chip';
  private readonly items: SeqItem[] = [];
  private readonly byUie = new Map<string, SeqItem[]>();
  constructor(private readonly trace: TraceWriter) {}
  /** Registers sequencer `seq` (bit `seq` of trip_valid_mask) of the UIE `uie`. */
  add(uie: string, seq: number, group: string, trackName: string, label: string, running: () => boolean, pc: () => number, slot: () => number, programAt?: (pc: number) => string | undefined): void {
    const it: SeqItem = { group, trackName, label, running, pc, slot, trips: [], since: -1, startPc: 0, lastSlot: -1, tripId: -1, ...(programAt ? { programAt } : {}) };
    this.items.push(it);
    let list = this.byUie.get(uie);
    if (!list) this.byUie.set(uie, (list = []));
    list[seq] = it;
  }
  /** A trip was handed to the UIE `uie`: queue its id on every valid sequencer. */
  tripStarted(uie: string, tripId: number, validMask: number): void {
    const list = this.byUie.get(uie);
    if (!list) return;
    for (let s = 0; s < list.length; s++) if ((validMask >> s) & 1 && list[s]) list[s]!.trips.push(tripId);
  }
  get busy(): boolean {
    return false;
  }
  tick(now: number): boolean {
    for (const it of this.items) {
      const r = it.running();
      if (r && it.since >= 0 && it.slot() !== it.lastSlot) this.emit(it, now);
      if (r && it.since < 0) {
        it.since = now;
        it.startPc = it.pc();
        it.lastSlot = it.slot();
        it.tripId = it.trips.shift() ?? -1;
      } else if (!r && it.since >= 0) this.emit(it, now);
    }
    return false;
  }
  nextWake(): number {
    return Infinity;
  }
  blockedReason(): string | undefined {
    return undefined;
  }
  finish(now: number): void {
    for (const it of this.items) if (it.since >= 0) this.emit(it, now);
  }
  private emit(it: SeqItem, now: number): void {
    it.track ??= this.trace.track(it.group, it.trackName);
    const args: Record<string, number | string> = { start_pc: it.startPc };
    if (it.tripId >= 0) args['trip_id'] = it.tripId;
    const program = it.programAt?.(it.startPc);
    if (program !== undefined) args['sequencer'] = it.label;
    this.trace.slice(it.track, it.since, now, program ?? `${it.label} pc ${it.startPc}`, args, 'sequencer');
    it.since = -1;
  }
}
