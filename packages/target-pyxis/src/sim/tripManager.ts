/**
 * The Trip Manager of one cluster (chip §11.3): per trip queue, wait(barrier) for the trip at the head of the DPE's
 * prefetch queue (dpe.ts), launch it on its engine when released (after `launch_latency_cycles`, when the engine
 * accepts it), and notify the trip's notify_list when the engine reports completion, which engines only do once their
 * writes are committed (§11.7). Also the Trip Flush mode (§11.8) and the per-UIE `csr.trip_start` launches.
 */
import type { SimEngine } from '@pyxis/sim';
import type { BarrierConsumer, BarrierTable } from './barriers.js';
import type { SimConfig } from './config.js';
import type { DescriptorPrefetchEngine } from './dpe.js';
import { TRIP_QUEUES } from './queues.js';
import type { Trip, TripEngine } from './trip.js';
import { engineKey, PHASE } from './engines.js';
import { dbl, objs } from '@pyxis/sim';

const enum SlotState {
  Idle = 0,
  Waiting = 1,
  Ready = 2,
}

/** Per-queue trip manager state: the trip at the head, waiting on its barrier or ready to launch. */
class TripSlot implements BarrierConsumer {
  state = SlotState.Idle;
  trip: Trip | undefined;
  readyAt = dbl(0);
  label: string;
  constructor(
    readonly tm: TripManager,
    readonly qid: number,
    readonly engine: TripEngine | undefined,
  ) {
    this.label = engine ? engine.name : `queue 0x${qid.toString(16)}`;
  }
  go(barrierId: number, now: number): void {
    if (this.state !== SlotState.Waiting || !this.trip) return;
    this.state = SlotState.Ready;
    this.tm.released();
    this.trip.goAt = now;
    this.tm.onRelease?.(this.trip, this.qid, barrierId);
    this.readyAt = now + this.tm.launchLatency;
  }
}

interface PendingNotify {
  at: number;
  /** engineKey of the trip's engine: same-cycle completions are reported in this order. */
  key: number;
  trip: Trip;
  engine: string;
}

/** Sends notify() of global barrier id `g` (§11.6.4) over the barrier link of its cluster, delivered at `at`. */
export type NotifySender = (g: number, now: number, at: number, engine: string, trip: Trip) => void;

/** Observer hooks for tracing. */
export interface TripObserver {
  tripStarted?(engine: TripEngine, trip: Trip, now: number): void;
  tripDone(engine: string, trip: Trip, now: number): void;
  /** A trip discarded by the trip flush (chip §11.8) before its barrier wait completed. */
  tripFlushed?(engine: string, trip: Trip, now: number): void;
  /** Trip flush of `cluster` started (mode set) or completed (queues empty, engines idle, barrier table re-initialised). */
  flushEvent?(cluster: number, what: 'start' | 'done' | 'end', now: number, discarded: number): void;
}

/** The Trip Manager of one cluster (chip §11.3). */
export class TripManager implements SimEngine {
  readonly name: string;
  readonly group: string;
  /** After the DPE (takes the trips it delivered in the same cycle), before the engines (which start them at once). */
  readonly phase = PHASE.tripManager;
  /**
   * Passive (kernel skips it while asleep): a tick that is not busy only does work when the DPE has trips or lists
   * (prefetched trips to take; in flush mode, lists to discard), so the DPE wakes it on enqueue and on each delivered
   * trip (`onWork`); completions, CSR launches and the flush CSR wake it too. Not busy: `nextWake` is Infinity.
   */
  readonly passive = true;
  private wake: () => void = () => {};
  readonly slots: TripSlot[] = [];
  readonly launchLatency: number;
  private readonly notifyLatency: number;
  // object arrays from the start (kernel objs(): `stallSleep` reads their length before and after the first entry)
  private readonly pending: PendingNotify[] = objs();
  private pendingHead = 0;
  readonly stallReasons = ['waiting barrier', 'engine busy', 'launch latency'] as const;
  tripsLaunched = 0;
  tripsCompleted = 0;
  /** Cycles each queue's trips spent between wait() and release (stats), by queue id. */
  readonly barrierWait = new Float64Array(TRIP_QUEUES);
  /** Waits per barrier id of this cluster's table (stats): count, total and longest wait() -> release cycles. */
  readonly waitsByBarrier = new Map<number, { waits: number; cycles: number; max: number }>();
  /** Called when a trip of queue `qid` is released from barrier `barrierId` (0 = no wait). */
  onRelease?: (trip: Trip, qid: number, barrierId: number) => void;
  /** Optional trip-name lookup (image metadata) for reports. */
  tripName: (tripId: number) => string | undefined = () => undefined;
  /** Slots not idle (waiting on a barrier or released). */
  private active = 0;
  /** Of them, slots released (SlotState.Ready): with none and no prefetched trip a tick has no slot to visit. */
  readyN = 0;
  /**
   * Trip Flush mode (chip §11.8), set and cleared by software through the `cluster.trip_flush` CSR. While set, every
   * trip that has not passed its barrier wait is discarded (prefetched trips and trips waiting on a barrier, whose
   * wait is cancelled), neither waiting nor notifying; released trips and running trips complete normally.
   */
  flushMode = false;
  /** The flush reached the quiescent state (queues empty, no outstanding trip, barrier table re-initialised). */
  flushDone = false;
  /** Trips discarded by trip flushes (stats), and the cycles at which flushes completed. */
  tripsFlushed = 0;
  readonly flushDoneAt: number[] = [];
  /** Called once the flush is quiescent, before `flushDone` is set: re-initialises the barrier table (chip.ts). */
  onFlushQuiescent?: (now: number) => void;
  /** UIE trips launched through the per-UIE `csr.trip_start` CSR (bring-up path), waiting for their UIE to accept them. */
  private readonly csrLaunches: Array<{ qid: number; trip: Trip }> = objs();

  constructor(
    readonly cluster: number,
    cfg: SimConfig,
    private readonly dpe: DescriptorPrefetchEngine,
    private readonly barriers: BarrierTable,
    engines: ReadonlyMap<number, TripEngine>,
    /** Sends a global notify id {cluster, local} to the right barrier table (over that cluster's barrier link). */
    private readonly sendNotify: NotifySender,
    private readonly observer?: TripObserver,
  ) {
    this.name = `c${cluster}.trip_manager`;
    this.group = `cluster ${cluster}`;
    this.launchLatency = cfg.trip_manager.launch_latency_cycles;
    this.notifyLatency = cfg.trip_manager.notify_latency_cycles;
    for (let q = 0; q < TRIP_QUEUES; q++) this.slots.push(new TripSlot(this, q, engines.get(q)));
    dpe.onWork = () => this.wake();
    // a variable field from the start (two stores; as TripTable.oldest): first changed at a trip's end, it dropped the
    // kernel loop that had inlined `stallSleep` assuming a constant (V8 "code dependencies")
    this.pendingHead = 1;
    this.pendingHead = 0;
  }

  attachWake(wake: () => void): void {
    this.wake = wake;
  }

  /** A slot's trip passed its barrier wait (TripSlot.go): it launches when its engine accepts it. */
  released(): void {
    this.readyN++;
    this.wake();
  }

  /**
   * Kernel `stallSleep`: busy with slots that only wait on barriers (no released trip, no prefetched trip, no
   * completion, CSR launch or flush to process), a tick does nothing and the stall code stays 'waiting barrier' until
   * a barrier releases a slot (`released`) or the DPE, a completion, a CSR launch or the flush CSR wakes it.
   */
  stallSleep(): boolean {
    // every test on every call (V8: the kernel asks at `prepare`, before the loop is optimised; the later tests of
    // a short-circuit chain first ran at a trip's end and deoptimised the loop)
    const ready = this.readyN === 0;
    const fetched = this.dpe.queued === 0;
    const done = this.pendingHead === this.pending.length;
    const launches = this.csrLaunches.length === 0;
    return ready && fetched && done && launches && !this.flushMode;
  }

  get busy(): boolean {
    return this.active > 0 || this.pendingHead < this.pending.length || this.csrLaunches.length > 0 || (this.flushMode && !this.flushDone);
  }

  /** The `cluster.trip_flush` CSR (chip §11.8): software sets or clears Trip Flush mode. */
  setFlushMode(on: boolean, now: number): void {
    if (on === this.flushMode) return;
    this.flushMode = on;
    this.flushDone = false;
    this.flushDiscarded = 0;
    this.wake();
    this.observer?.flushEvent?.(this.cluster, on ? 'start' : 'end', now, 0);
  }
  private flushDiscarded = 0;

  /** Outstanding trips of this cluster: in the trip manager (waiting or released) or running on an engine (status CSR). */
  outstandingTrips(): number {
    let n = this.active + this.csrLaunches.length;
    for (const s of this.slots) if (s.engine?.busy) n++;
    return n;
  }

  /** CSR-launched trips not started yet (they can still start a trip on a UIE: no run-ahead, docs/simulator.md "Quantum"). */
  get csrLaunchesPending(): boolean {
    return this.csrLaunches.length > 0;
  }

  /** `csr.trip_start` of UIE queue `qid` (a per-UIE CSR, project-defined): the trip starts when the UIE accepts it. */
  launchFromCsr(qid: number, trip: Trip): void {
    this.csrLaunches.push({ qid, trip });
    this.wake();
  }

  private discard(s: TripSlot | undefined, trip: Trip, now: number): void {
    this.tripsFlushed++;
    this.flushDiscarded++;
    this.observer?.tripFlushed?.(s?.label ?? `c${this.cluster}.q${trip.qid}`, trip, now);
  }

  /**
   * One cycle of Trip Flush mode (chip §11.8): discard the trips waiting on a barrier and everything the DPE delivers
   * (it keeps fetching until the descriptor queues are empty); once nothing is outstanding, the barrier table is
   * re-initialised and the flush is done (visible in `cluster.trip_flush_status`).
   */
  private flushTick(now: number): boolean {
    let did = false;
    for (let q = 0; q < TRIP_QUEUES; q++) {
      const s = this.slots[q]!;
      if (s.state === SlotState.Waiting && s.trip) {
        this.barriers.cancelWait(s.trip.waitBarrierId, s);
        this.discard(s, s.trip, now);
        s.trip = undefined;
        s.state = SlotState.Idle;
        this.active--;
        did = true;
      }
      if (s.state !== SlotState.Idle) continue;
      for (let t = this.dpe.take(q); t; t = this.dpe.take(q)) {
        this.discard(s, t, now);
        did = true;
      }
    }
    if (!this.flushDone && this.active === 0 && this.dpe.queued === 0 && !this.dpe.busy && this.pendingHead === this.pending.length && this.csrLaunches.length === 0) {
      let idle = true;
      for (const s of this.slots) if (s.engine?.busy) idle = false;
      if (idle) {
        this.onFlushQuiescent?.(now);
        this.flushDone = true;
        this.flushDoneAt.push(now);
        this.observer?.flushEvent?.(this.cluster, 'done', now, this.flushDiscarded);
        did = true;
      }
    }
    return did;
  }

  /** Engines call this (through their TripDone callback) when a trip is complete and its writes committed. */
  complete(trip: Trip, now: number, engine: string): void {
    trip.doneAt = now;
    const at = now + this.notifyLatency;
    // The notifications travel over the barrier links (delivered at `at`, before the trip managers tick); the
    // completion is reported here at the same cycle, in engine-key order whatever order the engines ticked in.
    for (const g of trip.notifyList) this.sendNotify(g, now, at, engine, trip);
    const key = engineKey(trip.cluster, trip.qid);
    const p = this.pending;
    let i = p.length;
    p.push({ at, key, trip, engine });
    while (i > this.pendingHead && (p[i - 1]!.at > at || (p[i - 1]!.at === at && p[i - 1]!.key > key))) {
      p[i] = p[i - 1]!;
      i--;
    }
    p[i] = { at, key, trip, engine };
    this.wake();
  }

  tick(now: number): boolean {
    let did = false;
    // Completions due (their notifications were delivered by the barrier links at the start of this phase).
    while (this.pendingHead < this.pending.length && this.pending[this.pendingHead]!.at <= now) {
      const p = this.pending[this.pendingHead++]!;
      this.tripsCompleted++;
      this.observer?.tripDone(p.engine, p.trip, now);
      did = true;
    }
    if (this.pendingHead === this.pending.length && this.pendingHead > 0) {
      this.pending.length = 0;
      this.pendingHead = 0;
    }
    if (this.csrLaunches.length > 0) did = this.csrLaunch(now) || did;
    if (this.flushMode) {
      if (this.flushDone && (this.dpe.queued > 0 || this.dpe.busy)) this.flushDone = false; // new lists during flush mode
      if (!this.flushDone && this.flushTick(now)) did = true;
    }
    // slots waiting on a barrier need no tick (the barrier table releases them: TripSlot.go)
    if (this.readyN === 0 && this.dpe.queued === 0) return did;
    for (let q = 0; q < TRIP_QUEUES; q++) {
      const s = this.slots[q]!;
      if (s.state === SlotState.Idle) {
        if (this.dpe.prefetch[q]!.empty) continue;
        const trip = this.dpe.take(q)!;
        s.trip = trip;
        s.state = SlotState.Waiting;
        this.active++;
        trip.waitAt = now;
        this.barriers.wait(trip.waitBarrierId, s, now, s.label, trip.tripId);
        did = true;
      }
      if (s.state === SlotState.Ready && now >= s.readyAt && s.engine && s.engine.canAccept()) {
        const trip = s.trip!;
        s.trip = undefined;
        s.state = SlotState.Idle;
        this.active--;
        this.readyN--;
        this.barrierWait[q] += trip.goAt - trip.waitAt;
        if (trip.waitBarrierId !== 0) {
          const w = this.waitsByBarrier.get(trip.waitBarrierId);
          if (w) {
            w.waits++;
            w.cycles += trip.goAt - trip.waitAt;
            if (trip.goAt - trip.waitAt > w.max) w.max = trip.goAt - trip.waitAt;
          } else this.waitsByBarrier.set(trip.waitBarrierId, { waits: 1, cycles: trip.goAt - trip.waitAt, max: trip.goAt - trip.waitAt });
        }
        trip.startAt = now;
        this.tripsLaunched++;
        s.engine.start(trip, now);
        this.observer?.tripStarted?.(s.engine, trip, now);
        did = true;
      }
    }
    return did;
  }

  /** Starts the CSR-launched UIE trips whose UIE accepts a trip now (in order per UIE). */
  private csrLaunch(now: number): boolean {
    let did = false;
    let keep = 0;
    let seen = 0; // UIE queues (ids 0..11) with an earlier launch still waiting: keep per-UIE order
    for (const l of this.csrLaunches) {
      const e = this.slots[l.qid]!.engine;
      if (!((seen >>> l.qid) & 1) && e && e.canAccept()) {
        l.trip.waitAt = l.trip.goAt = l.trip.startAt = now;
        this.tripsLaunched++;
        e.start(l.trip, now);
        this.observer?.tripStarted?.(e, l.trip, now);
        did = true;
      } else {
        seen |= 1 << l.qid;
        this.csrLaunches[keep++] = l;
      }
    }
    this.csrLaunches.length = keep;
    return did;
  }

  nextWake(now: number): number {
    let w = Infinity;
    if (this.pendingHead < this.pending.length) w = this.pending[this.pendingHead]!.at;
    if (this.readyN > 0) for (const s of this.slots) if (s.state === SlotState.Ready && s.readyAt < w && s.engine?.canAccept()) w = s.readyAt;
    return Math.max(now, w);
  }

  /** 0 waiting barrier, 1 released trip blocked by a busy engine, 2 launch latency (first released slot decides). */
  stallCode(): number {
    if (this.readyN === 0) return 0;
    for (const s of this.slots) if (s.state === SlotState.Ready) return s.engine && !s.engine.canAccept() ? 1 : 2;
    return 0;
  }

  private named(id: number): string {
    const n = this.tripName(id);
    return n ? ` (${n})` : '';
  }

  blockedReason(): string | undefined {
    const parts: string[] = [];
    for (const s of this.slots) {
      if (s.state === SlotState.Waiting && s.trip) {
        const b = s.trip.waitBarrierId;
        parts.push(
          `${s.label} trip ${s.trip.tripId}${this.named(s.trip.tripId)} waits on barrier ${this.cluster}:${b} (notify_count=${this.barriers.notifyCount[b]}, wait_count=${this.barriers.waitCount[b]}, ref_counts_valid=${this.barriers.refCountsValid[b]})`,
        );
      } else if (s.state === SlotState.Ready && s.trip) parts.push(`${s.label} trip ${s.trip.tripId}${this.named(s.trip.tripId)} released, waiting for its engine to accept it`);
    }
    if (this.pendingHead < this.pending.length) parts.push(`${this.pending.length - this.pendingHead} notification(s) in flight`);
    for (const l of this.csrLaunches) parts.push(`csr.trip_start trip of ${this.slots[l.qid]!.label} waits for the UIE to accept it`);
    if (this.flushMode && !this.flushDone) parts.push(`trip flush in progress (${this.outstandingTrips()} outstanding trip(s), descriptor queues ${this.dpe.queued === 0 && !this.dpe.busy ? 'empty' : 'not empty'})`);
    return parts.length ? parts.join('; ') : undefined;
  }
}
