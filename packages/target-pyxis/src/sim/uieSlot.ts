/**
 * Adapter between the trip manager and a UIE model (targets/pyxis/uie): the
 * trip manager only needs `startTrip` and `busy` (false once every valid
 * sequencer is done and the trip's writes are committed, chip §11.7.1). APM
 * throttling (§13) inserts bubbles by not ticking the UIE on denied cycles.
 * A trip with an all-zero valid mask and no ITFE is a no-op trip (§11.4.2).
 */
import { RunAheadWindow, type SimEngine } from '@pyxis/sim';
import type { Diagnostic } from '@pyxis/diagnostics';
import type { Amem } from './amem/index.js';
import type { Apm } from './apm.js';
import type { CfgSpace } from './cfgSpace.js';
import type { UieParams } from './config.js';
import { runtimeError, SimCodes, tripError } from './diagnostics.js';
import { BaseTripEngine } from './engines.js';
import type { Trip, TripDone } from './trip.js';
import type { UieTripParams } from './uie/index.js';
import { dbl, objs } from '@pyxis/sim';

/** The decoded `desc_uie` fields handed to the UIE (names as in grammars/pyxis/desc_uie.json): the datapath model's own type. */
export type { UieTripParams };

/** What the chip needs from a UIE model (the datapath model of targets/pyxis/uie implements it). */
export interface UieModel extends SimEngine {
  /** Queues a trip; false (or throwing) when it cannot be accepted now. */
  startTrip(trip: UieTripParams): boolean | void;
  /** Optional: whether a new trip can be accepted now (default: when not busy). */
  canStartTrip?(): boolean;
  /** Optional: rule-check warnings collected during the run. */
  readonly warnings?: readonly Diagnostic[];
  /**
   * Optional temporal decoupling (docs/simulator.md "Quantum"): simulate cycles `from` .. < `limit` alone, stop
   * after the first externally visible event, record progress per cycle in `did[c & mask]`, return the next cycle.
   */
  runAhead?(from: number, limit: number, did: Uint8Array, mask: number, stopOnPop: boolean): number;
  /** With `runAhead`: report the retirements it held back (their cycle is the last one it simulated). */
  flushDeferred?(): void;
  /**
   * Optional (uie/uie.ts `vpuSkipUntil`): after a lockstep `tick(now)` with progress, the end (exclusive) of the
   * following cycles the model replays without being ticked (kernel `attachSkip`) while no trip starts on it.
   */
  vpuSkipUntil?(now: number): number;
  /** With `vpuSkipUntil`: simulates its deferred cycles before `now` (called before a trip starts at `now`). */
  settleDeferred?(now: number): void;
}

/**
 * Run-ahead gate of the chip for one UIE at cycle `now`: 0 = tick in lockstep; 1 = may run ahead, no trip can ever be
 * started on it again; 2 = may run ahead until it can accept a trip again (it cannot now). A method of the chip, not a
 * closure per chip: the next partition a thread builds then keeps the call target V8 optimised `tick` for (a new
 * closure deoptimised it, "wrong call target"; host speed only).
 */
export interface RunAheadGate {
  runAheadGate(slot: UieSlot, now: number): 0 | 1 | 2;
}

export interface UieModelOptions {
  cluster: number;
  index: number;
  name: string;
  amem: Amem;
  cfg: CfgSpace;
  /** Byte offset of this UIE's block in the cfg space (memory_map.json uie_stride * index). */
  cfgBase: number;
  writeCommitLatency: number;
  /** This machine instance's UIE parameters (its SimConfig). */
  params: UieParams;
  /** The model calls this when a trip retires (sequencers done and writes committed, chip §11.7.1). */
  onTripDone: (tripId: number, cycle: number) => void;
  /** The model calls this for every partial (< 16 byte) partition write (chip §11.7 ordering check). */
  onPartialWrite: (byteAddr: number, tripId: number, cycle: number, rmw?: boolean) => void;
}

export type UieFactory = (o: UieModelOptions) => UieModel;

export function uieTripParams(trip: Trip): UieTripParams {
  const f = trip.fields;
  const n = (k: string) => Number(f[k] ?? 0);
  return {
    trip_id: trip.tripId,
    trip_valid_mask: n('trip_valid_mask'),
    start_pc: (f['start_pc'] as number[]).map(Number),
    amem_read_base_address: n('amem_read_base_address'),
    amem_weights_base_address: n('amem_weights_base_address'),
    amem_write_base_address: n('amem_write_base_address'),
    amem_read_bank_hash_dsbl: n('amem_read_bank_hash_dsbl'),
    amem_write_bank_hash_dsbl: n('amem_write_bank_hash_dsbl'),
    amem_weights_bank_hash_dsbl: n('amem_weights_bank_hash_dsbl'),
    amem_read_indirect_vld: n('amem_read_indirect_vld'),
    amem_read_indirect_cmd_index: n('amem_read_indirect_cmd_index'),
    amem_write_indirect_vld: n('amem_write_indirect_vld'),
    amem_write_indirect_cmd_index: n('amem_write_indirect_cmd_index'),
    trip_power: trip.trip_power,
  };
}

/**
 * The trip-manager side of a UIE. Several trips may be in flight (the UIE's
 * three tracking IDs, chip §11.7.1); they retire through `onTripDone` in the
 * order they were started.
 */
export class UieSlot extends BaseTripEngine {
  // object arrays from the start (kernel objs(): a fresh `[]` deoptimises `busy` at the next partition's slots)
  private readonly inflight: Trip[] = objs();
  private noopPending: Trip[] = objs();
  private bubble = false;
  model: UieModel | undefined;
  /** Temporal decoupling (kernel RunAheadWindow); used only with `gate`, a quantum > 1 and a model with `runAhead`. */
  window = new RunAheadWindow(1);
  gate: RunAheadGate | undefined;
  /** What the trip manager sees of `canAccept` while the model is ahead: its value when the window opened. */
  private frozenAccept = false;
  readonly stallReasons = ['uie stalled', 'APM bubble'] as const;
  private skip: ((until: number) => void) | undefined;
  private resume: (() => number) | undefined;
  /** A `vpuSkipUntil` deferral is running (ended early by a trip start or an APM utilisation below 1: `endDeferral`). */
  private deferring = false;
  attachSkip(skip: (until: number) => void, resume: () => number): void {
    this.skip = skip;
    this.resume = resume;
  }
  /**
   * Ends a `vpuSkipUntil` deferral early (an input of the UIE changes): the kernel ticks the slot again from the cycle
   * it returns, and the model simulates its deferred cycles before that one now.
   */
  private endDeferral(): void {
    if (!this.deferring) return;
    this.deferring = false;
    const at = this.resume?.() ?? -1;
    if (at >= 0) this.model?.settleDeferred?.(at);
  }
  constructor(
    cluster: number,
    readonly index: number,
    done: TripDone,
    apm?: Apm,
    apmSlot = 0,
  ) {
    super(`c${cluster}.uie${index}`, 'uie', cluster, done, apm, apmSlot);
    apm?.onDrop.push(() => this.endDeferral());
  }
  /** Trips started on the model and not yet retired (oldest first). */
  get inflightTrips(): readonly Trip[] {
    return this.inflight;
  }
  /** The in-flight trip with `tripId` (oldest first). */
  inflightTrip(tripId: number): Trip | undefined {
    for (const t of this.inflight) if (t.tripId === tripId) return t;
    return undefined;
  }
  /** Called by the model when the trip with `tripId` retires. */
  retire(tripId: number, cycle: number): void {
    const i = this.inflight.findIndex((t) => t.tripId === tripId);
    const t = this.inflight.splice(i < 0 ? 0 : i, 1)[0];
    if (t) this.complete(t, cycle);
  }
  private complete(t: Trip, now: number): void {
    this.tripsDone++;
    this.report(now);
    this.done(t, now);
  }
  /** The trip power this UIE reports to the APM (chip §13) and since when. */
  private reported = 0;
  private reportedSince = dbl(0);
  /**
   * A UIE reports one trip power (chip §13: "the configured trip power is reported by every UIE"), the full-rate
   * power of the trips it holds: the largest `trip_power` among its started, unretired trips (docs/spec-notes.md
   * "APM: a UIE reports one trip power"). Trips queued behind the running one do not add: one engine runs at most
   * at full rate. `powerCycles` integrates the reported value.
   */
  private report(now: number): void {
    let p = 0;
    for (const t of this.inflight) if (t.trip_power > p) p = t.trip_power;
    for (const t of this.noopPending) if (t.trip_power > p) p = t.trip_power;
    if (p === this.reported) return;
    this.powerCycles += this.reported * (now - this.reportedSince);
    this.apm?.request(p - this.reported, now);
    this.reported = p;
    this.reportedSince = now;
  }
  override canAccept(): boolean {
    // While the model is ahead of the global clock the trip manager sees its state as of the global cycle: it can
    // only have changed in the window's last cycle (run-ahead stops after a retirement / descriptor-FIFO pop).
    if (this.window.ahead) return this.frozenAccept;
    if (!this.model) return this.inflight.length === 0;
    return this.model.canStartTrip ? this.model.canStartTrip() : !this.model.busy;
  }
  override start(trip: Trip, now: number): void {
    // the model's deferred VPU-only cycles (all before `now`: the trip manager ticks before the engines) are
    // simulated before the trip changes its state
    this.endDeferral();
    this.wake?.();
    this.begin(trip, now);
    this.report(now);
  }
  protected begin(trip: Trip, now: number): void {
    // The run-ahead gate guarantees this never happens (docs/simulator.md "Quantum"); fail loudly rather than diverge.
    if (this.window.covers(now)) throw new Error(`${this.name}: trip ${trip.tripId} started at cycle ${now} while the UIE model runs ahead (cycle ${this.window.local})`);
    const p = uieTripParams(trip);
    if (p.trip_valid_mask === 0 && !p.amem_read_indirect_vld && !p.amem_write_indirect_vld) {
      this.noopPending.push(trip);
      return;
    }
    if (!this.model)
      throw runtimeError(SimCodes.noEngine, `${this.name} trip ${trip.tripId}: no UIE datapath model is available in this build`, '§11.4.2', now);
    if ((p.amem_read_indirect_vld && !(p.trip_valid_mask & 1)) || (p.amem_write_indirect_vld && !(p.trip_valid_mask & 2)))
      throw tripError(
        SimCodes.badDescriptor,
        `${this.name} trip ${trip.tripId}: an ITFE valid bit is set but the associated AMEM read/write sequencer is not valid`,
        '§11.4.2',
        now,
        trip,
      );
    this.inflight.push(trip);
    if (this.model.startTrip(p) === false) throw new Error(`${this.name}: UIE refused a trip it said it could accept`);
  }
  tick(now: number): boolean {
    let did = false;
    if (this.noopPending.length) {
      // A no-op trip retires after the trips started before it (trip order, §11.7.2).
      if (this.inflight.length === 0) {
        const noops = this.noopPending;
        this.noopPending = objs();
        for (const t of noops) this.complete(t, now);
        did = true;
      }
    }
    const w = this.window;
    if (w.covers(now)) {
      // Already simulated by run-ahead: replay its progress flag; held-back retirements are delivered at their cycle.
      return w.replay(now, this.model as Required<UieModel>) || did;
    }
    w.ahead = false;
    if (!this.model || !this.model.busy) return did;
    if (w.quantum > 1 && this.gate && this.model.runAhead) {
      const g = this.gate.runAheadGate(this, now);
      if (g !== 0) {
        this.frozenAccept = this.canAccept();
        this.bubble = false; // the gate guarantees APM admits every cycle (utilisation 1) in the window
        const r = w.open(now, this.model as Required<UieModel>, g === 2);
        // the window's cycles with progress need no tick (kernel `attachSkip`): they only replay `did` — the no-op
        // trips above cannot complete in them (a trip in flight retires at the window's last cycle at the earliest)
        if (w.ahead && this.skip && (this.inflight.length > 0 || this.noopPending.length === 0)) this.skip(w.progressRun(now));
        return r || did;
      }
    }
    if (this.apm && !this.apm.allow(this.apmSlot)) {
      this.bubble = true;
      return did;
    }
    this.bubble = false;
    this.deferring = false;
    if (!this.model.tick(now)) return did;
    // VPU-only cycles (uie/vpuBatch.ts): not ticked at all while they replay (the kernel counts them busy); only while
    // the APM admits every cycle (utilisation 1, which admits without state; a drop ends the deferral: apm.ts
    // `onDrop`) and without no-op trips waiting to complete
    if (this.skip && this.model.vpuSkipUntil && (this.apm === undefined || this.apm.utilization >= 1) && this.noopPending.length === 0) {
      let end = this.model.vpuSkipUntil(now);
      // the model simulates them at its next tick, which must come before the run (or its window) stops (the limit is
      // read only for a run worth deferring: the getter boxes a double, one allocation per full tick otherwise)
      if (end > now + 1) {
        const cap = this.window.runLimit - 1;
        if (end > cap) end = cap;
      }
      if (end > now + 1) {
        this.deferring = true;
        this.skip(end);
      } else this.model.settleDeferred?.(now + 1);
    }
    return true;
  }
  override get busy(): boolean {
    return this.inflight.length > 0 || this.noopPending.length > 0 || (this.model?.busy ?? false);
  }
  nextWake(now: number): number {
    if (this.noopPending.length && this.inflight.length === 0) return now;
    if (this.bubble) return now;
    if (!this.model) return Infinity;
    return this.window.covers(now) ? this.window.nextWake(now, this.model as Required<UieModel>) : this.model.nextWake(now);
  }
  stallCode(): number {
    return this.bubble ? 1 : 0;
  }
  blockedReason(): string | undefined {
    const ids = this.inflight.map((t) => t.tripId).join(', ');
    const r = this.model?.blockedReason();
    return ids ? `trip(s) ${ids}: ${r ?? 'running'}` : r;
  }
}
