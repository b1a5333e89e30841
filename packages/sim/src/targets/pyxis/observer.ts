/**
 * Tracing glue for the Pyxis target: trip slices (with trip_id) and barrier-
 * wait slices per engine track, barrier events (setup/notify/wait/..., §18)
 * as instants on a per-cluster `barriers` track, APM power and bytes-moved
 * counters; VCD signals sampled by a probe engine after every kernel step.
 */
import type { SimEngine } from '../../kernel/engine.js';
import type { TraceTrack, TraceWriter } from '../../kernel/trace.js';
import type { VcdWriter } from '../../kernel/vcd.js';
import type { BarrierEventKind, BarrierObserver } from './barriers.js';
import type { TripObserver } from './control.js';
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

  tripStarted(_engine: TripEngine, _trip: Trip, _now: number): void {}

  /** A generic instant on an engine's track (e.g. the DPE's Descriptor Queue Dequeue Event, chip §12.5). */
  instant(group: string, trackName: string, now: number, name: string, args: Record<string, string | number>, cat = 'queue'): void {
    if (this.trace) this.trace.instant(this.track(group, trackName), now, name, args, cat);
  }

  tripDone(engine: string, trip: Trip, now: number): void {
    if (!this.trace) return;
    const g = this.engineGroup.get(engine) ?? `cluster ${trip.cluster}`;
    if (trip.waitBarrierId !== 0 && trip.goAt > trip.waitAt)
      this.trace.slice(this.track(g, `${engine} wait`), trip.waitAt, trip.goAt, `wait barrier ${trip.waitBarrierId}`, { trip_id: trip.tripId, barrier_id: trip.waitBarrierId }, 'barrier');
    this.trace.slice(this.track(g, engine), trip.startAt, trip.doneAt, `${trip.kind} trip ${trip.tripId}`, {
      trip_id: trip.tripId,
      queue_id: trip.qid,
      descriptor: trip.table,
      wait_barrier_id: trip.waitBarrierId,
      notify_list: trip.notifyList.map((g2) => `${g2 >> 10}:${g2 & 1023}`).join(' '),
      trip_power: trip.trip_power,
      notified_at: now,
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
    if (sig && this.vcd) {
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

/**
 * Emits trace counters (bandwidth per port in GB/s, prefetch-queue occupancy
 * per cluster, trips in flight) at most every `period` cycles, from kernel
 * steps that happen anyway: it never schedules wakes of its own, so idle
 * skipping and deadlock detection are unaffected.
 */
export class TraceSampler implements SimEngine {
  readonly name = 'trace_sampler';
  readonly group = 'chip';
  private next = 0;
  private lastAt = 0;
  private readonly lastBytes: Float64Array;
  constructor(
    private readonly trace: TraceWriter,
    private readonly period: number,
    private readonly clockHz: number,
    private readonly ports: ReadonlyArray<{ name: string; bytes: number }>,
    private readonly clusters: ReadonlyArray<{ group: string; occupancy: () => number }>,
  ) {
    this.lastBytes = new Float64Array(ports.length);
  }
  get busy(): boolean {
    return false;
  }
  tick(now: number): boolean {
    if (now < this.next) return false;
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
      if (any) this.trace.counter('chip', this.lastAt, 'bandwidth GB/s', bw);
    }
    for (const c of this.clusters) this.trace.counter(c.group, now, 'prefetch occupancy', { descriptors: c.occupancy() });
    this.lastAt = now;
    this.next = now + this.period;
    return false;
  }
  nextWake(): number {
    return Infinity;
  }
  blockedReason(): string | undefined {
    return undefined;
  }
}

/**
 * One trace track per UIE sequencer: a slice per contiguous run of the
 * sequencer (start PC in the name), sampled after every kernel step.
 */
export class SequencerTracer implements SimEngine {
  readonly name = 'sequencer_tracer';
  readonly group = 'chip';
  private readonly items: Array<{ group: string; trackName: string; track?: TraceTrack; running: () => boolean; pc: () => number; since: number; startPc: number; label: string }> = [];
  constructor(private readonly trace: TraceWriter) {}
  add(group: string, trackName: string, label: string, running: () => boolean, pc: () => number): void {
    this.items.push({ group, trackName, running, pc, since: -1, startPc: 0, label });
  }
  get busy(): boolean {
    return false;
  }
  tick(now: number): boolean {
    for (const it of this.items) {
      const r = it.running();
      if (r && it.since < 0) {
        it.since = now;
        it.startPc = it.pc();
      } else if (!r && it.since >= 0) {
        this.emit(it, now);
      }
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
    for (const it of this.items)
      if (it.since >= 0) this.emit(it, now);
  }
  private emit(it: SequencerTracer['items'][number], now: number): void {
    it.track ??= this.trace.track(it.group, it.trackName);
    this.trace.slice(it.track, it.since, now, `${it.label} pc ${it.startPc}`, { start_pc: it.startPc }, 'sequencer');
    it.since = -1;
  }
}
