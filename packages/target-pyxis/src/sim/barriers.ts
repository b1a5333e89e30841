/**
 * Hardware barrier table of one cluster (chip §11.6): 1024 barrier objects,
 * id 0 reserved as the no-op (§11.6.3). `setRefCounts`, `notify` and `wait`
 * follow the pseudocode of §11.6.2 line by line, so they commute: any order
 * of set-up, notifications and waits gives the same releases. Counts are the
 * 6-bit signed fields of `bt_barrier_t` (§11.6.1); leaving -32..31 is a
 * runtime error. Events are reported to an observer for tracing (§18).
 *
 * Interrupts (§11.6.5, §11.6.7) are kept as records (`interruptLog`: cycle, source, barrier id) that the host agent's
 * scripted actions wait on. Timeouts follow the two-pass marking walk of §11.6.7 exactly, evaluated lazily
 * (`syncTimeouts`): a walk at the end of every cycle k*N (k >= 1, N = `barrier_timeout_cycles`) marks every barrier
 * not in the reset state; freeing a barrier clears its mark; a barrier still marked at the next walk has timed out:
 * the timeout interrupt is raised and, for the first timeout since software last cleared it, the barrier id is saved
 * in the software-readable `barrier_timeout_status` register. A barrier first used at cycle t0 is thus marked by the
 * walk at W1 = max(N, ceil(t0/N)*N) and times out at the walk of W1 + N if it is not freed by then.
 */
import { loadTable } from '@pyxis/codec';
import { runtimeError, SimCodes } from './diagnostics.js';
import { dbl } from '@pyxis/sim';

export const BARRIERS_PER_CLUSTER = 1024;
/**
 * Range of a barrier's signed notify/wait counts: the width of `notify_count` and `wait_count` in a barrier-table
 * entry (grammars/pyxis/barrier_bt_barrier.json, two's complement).
 */
export const BARRIER_COUNT_RANGE: { readonly min: number; readonly max: number } = (() => {
  const t = loadTable('pyxis', 'barrier_bt_barrier');
  const w = t.byName.get('notify_count')?.width;
  if (w === undefined || t.byName.get('wait_count')?.width !== w) throw new Error('grammars/pyxis/barrier_bt_barrier.json: notify_count and wait_count must exist with one width');
  return { min: -(2 ** (w - 1)), max: 2 ** (w - 1) - 1 };
})();
const COUNT_MIN = BARRIER_COUNT_RANGE.min;
const COUNT_MAX = BARRIER_COUNT_RANGE.max;

/** A thread waiting on a barrier (a trip at the head of a trip manager queue). */
export interface BarrierConsumer {
  /** Called when the barrier releases the consumer (possibly inside `wait`). */
  go(barrierId: number, now: number): void;
  /** For wait-graph reports. */
  readonly label: string;
}

export type BarrierEventKind = 'setup' | 'notify' | 'wait' | 'release' | 'free' | 'interrupt' | 'sw_decrement' | 'timeout' | 'reinit' | 'bt_mem_write';

/** One interrupt raised to the CPUs by a cluster's barrier table: entry 0..7 of barrier_interrupt_config (§11.6.5) or the timeout (§11.6.7). */
export interface InterruptRecord {
  cycle: number;
  source: 'barrier_interrupt_config' | 'barrier_timeout';
  /** barrier_interrupt_config entry (-1 for the timeout interrupt). */
  entry: number;
  barrierId: number;
}

/** A barrier timeout (§11.6.7): detected by the walk at the end of cycle `at`; pending since `since`; freed at `freedAt` (-1: not yet). */
export interface BarrierTimeout {
  id: number;
  since: number;
  at: number;
  freedAt: number;
}

export interface BarrierObserver {
  barrierEvent(cluster: number, kind: BarrierEventKind, id: number, notifyCount: number, waitCount: number, engine: string, tripId: number, now: number): void;
}

export class BarrierTable {
  readonly notifyCount = new Int32Array(BARRIERS_PER_CLUSTER);
  readonly waitCount = new Int32Array(BARRIERS_PER_CLUSTER);
  readonly refCountsValid = new Uint8Array(BARRIERS_PER_CLUSTER);
  /** Cycle of the first operation since the barrier was last freed (-1: untouched/free). */
  readonly activeSince = new Float64Array(BARRIERS_PER_CLUSTER).fill(-1);
  private readonly waiting: BarrierConsumer[][] = Array.from({ length: BARRIERS_PER_CLUSTER }, () => []);
  /** barrier_interrupt_config (§11.6.5): 8 entries of {interrupt_valid, barrier_id}. */
  readonly interruptValid = new Uint8Array(8);
  readonly interruptBarrier = new Int32Array(8);
  readonly interruptCount = new Int32Array(8);
  /** Statistics. */
  setups = 0;
  notifies = 0;
  waits = 0;
  releases = 0;
  frees = 0;
  /** Called when a barrier is freed (§11.6.2 free()). */
  onFree?: (id: number) => void;
  /** Barrier timeouts detected by the marking walk (§11.6.7), in detection order once `syncTimeouts` ran. */
  readonly timeouts: BarrierTimeout[] = [];
  /** Interrupts raised so far (§11.6.5 entries and the §11.6.7 timeout interrupt). */
  readonly interruptLog: InterruptRecord[] = [];
  /** Timeout interrupts raised (one per timed-out barrier). */
  timeoutInterrupts = 0;
  /**
   * The software-readable register of §11.6.7: barrier id of the first timeout detected since software last cleared
   * it (-1 = none). Read/cleared through the `cluster.barrier_timeout_status` CSR (timeoutStatus / clearTimeoutStatus).
   */
  timeoutBarrierId = -1;
  private timeoutAt = Infinity;
  private timeoutClearedAt = -1;
  /** Per barrier: 1 once its current activation has timed out (recorded). */
  private readonly timedOut = new Uint8Array(BARRIERS_PER_CLUSTER);
  /** Walks up to the end of cycle `syncedTo - 1` have been evaluated for the barriers still active. */
  private syncedTo = dbl(0);

  constructor(
    readonly cluster: number,
    private readonly observer?: BarrierObserver,
    /** §11.6.7 timeout in cycles (0 = disabled). */
    readonly timeoutCycles = 0,
  ) {}

  private check(id: number, now: number): void {
    if (!(Number.isInteger(id) && id >= 1 && id < BARRIERS_PER_CLUSTER))
      throw runtimeError(SimCodes.badDescriptor, `barrier id ${id} out of range 1..1023 in cluster ${this.cluster}`, '§11.6.3', now);
  }

  private touch(id: number, now: number): void {
    if (this.activeSince[id]! < 0) this.activeSince[id] = now;
  }

  private range(id: number, now: number, what: string): void {
    const n = this.notifyCount[id]!;
    const w = this.waitCount[id]!;
    if (n < COUNT_MIN || n > COUNT_MAX || w < COUNT_MIN || w > COUNT_MAX)
      throw runtimeError(
        SimCodes.barrierOverflow,
        `barrier ${this.cluster}:${id} ${what} leaves notify_count=${n} wait_count=${w}, outside the 6-bit signed range -32..31`,
        '§11.6.1',
        now,
      );
  }

  private event(kind: BarrierEventKind, id: number, engine: string, tripId: number, now: number): void {
    this.observer?.barrierEvent(this.cluster, kind, id, this.notifyCount[id]!, this.waitCount[id]!, engine, tripId, now);
  }

  /** §11.6.2 set_ref_counts(): increments the counts; may release waiters and free the barrier. */
  setRefCounts(id: number, notifyCount: number, waitCount: number, now: number, engine = 'barrier_config', tripId = 0): void {
    this.check(id, now);
    if (this.refCountsValid[id])
      throw runtimeError(
        SimCodes.barrierReuse,
        `barrier ${this.cluster}:${id} set up again before it was freed (notify_count=${this.notifyCount[id]}, wait_count=${this.waitCount[id]})`,
        '§11.6.2',
        now,
        ['a barrier must be freed (all notifications and waits done) before it is re-used'],
      );
    this.touch(id, now);
    this.setups++;
    this.refCountsValid[id] = 1;
    this.notifyCount[id] += notifyCount;
    this.waitCount[id] += waitCount;
    this.range(id, now, 'set_ref_counts');
    this.event('setup', id, engine, tripId, now);
    if (this.notifyCount[id] === 0) this.releaseWaitingConsumers(id, now);
    if (this.notifyCount[id] === 0 && this.waitCount[id] === 0) this.free(id, now);
  }

  /** §11.6.2 notify(). */
  notify(id: number, now: number, engine = '', tripId = 0): void {
    if (id === 0) return;
    this.check(id, now);
    this.touch(id, now);
    this.notifies++;
    this.notifyCount[id] -= 1;
    this.range(id, now, 'notify');
    this.event('notify', id, engine, tripId, now);
    if (this.notifyCount[id] === 0) this.interrupts(id, now);
    if (this.notifyCount[id] === 0 && this.refCountsValid[id]) {
      this.releaseWaitingConsumers(id, now);
      if (this.waitCount[id] === 0) this.free(id, now);
    }
  }

  /** §11.6.2 wait(consumer): true when the consumer may go at once (it is also told through `go`). */
  wait(id: number, consumer: BarrierConsumer, now: number, engine = '', tripId = 0): boolean {
    if (id === 0) {
      consumer.go(0, now);
      return true;
    }
    this.check(id, now);
    this.touch(id, now);
    this.waits++;
    this.waitCount[id] -= 1;
    this.range(id, now, 'wait');
    this.event('wait', id, engine, tripId, now);
    if (this.notifyCount[id] === 0 && this.refCountsValid[id]) {
      consumer.go(id, now);
      if (this.waitCount[id] === 0) this.free(id, now);
      return true;
    }
    this.waiting[id]!.push(consumer);
    return false;
  }

  /**
   * Software `bt_mem_decrement[id]` write (§11.6.6): exactly one of
   * `wait_decr` / `notif_decr` must be set. A notify decrement behaves as
   * notify(); a wait decrement is a consumer (the CPU) that has already
   * been released, so it decrements wait_count and may free the barrier.
   */
  softwareDecrement(id: number, waitDecr: number, notifDecr: number, tripId: number, now: number): void {
    if (waitDecr && notifDecr)
      throw runtimeError(SimCodes.badDescriptor, `bt_mem_decrement[${id}] with both wait_decr and notif_decr set`, '§11.6.6', now);
    if (notifDecr) {
      this.notify(id, now, 'software', tripId);
      return;
    }
    if (!waitDecr) return;
    this.check(id, now);
    this.touch(id, now);
    this.waitCount[id] -= 1;
    this.range(id, now, 'bt_mem_decrement wait_decr');
    this.event('sw_decrement', id, 'software', tripId, now);
    if (this.notifyCount[id] === 0 && this.waitCount[id] === 0 && this.refCountsValid[id]) this.free(id, now);
  }

  /** Writes one barrier_interrupt_config entry (§11.6.5). */
  configureInterrupt(entry: number, valid: boolean, barrierId: number): void {
    this.interruptValid[entry] = valid ? 1 : 0;
    this.interruptBarrier[entry] = barrierId;
  }

  private interrupts(id: number, now: number): void {
    for (let e = 0; e < 8; e++) {
      if (this.interruptValid[e] && this.interruptBarrier[e] === id) {
        this.interruptCount[e]++;
        this.interruptLog.push({ cycle: now, source: 'barrier_interrupt_config', entry: e, barrierId: id });
        this.event('interrupt', id, `interrupt${e}`, 0, now);
      }
    }
  }

  // ------------------------------------------------------------------ §11.6.7 timeouts

  /** Cycle of the walk that detects a timeout of an activation that started at `since` (the walk of W1 + N). */
  timeoutWalk(since: number): number {
    const n = this.timeoutCycles;
    const w1 = Math.max(n, Math.ceil(since / n) * n);
    return w1 + n;
  }

  private recordTimeout(id: number, since: number, at: number, freedAt: number): void {
    this.timedOut[id] = 1;
    this.timeouts.push({ id, since, at, freedAt });
    this.timeoutInterrupts++;
    this.interruptLog.push({ cycle: at, source: 'barrier_timeout', entry: -1, barrierId: id });
    // The first timeout detected (the earliest walk; within a walk the table is walked in id order) since the
    // register was last cleared by software.
    if (at > this.timeoutClearedAt && (at < this.timeoutAt || (at === this.timeoutAt && id < this.timeoutBarrierId))) {
      this.timeoutAt = at;
      this.timeoutBarrierId = id;
    }
    this.observer?.barrierEvent(this.cluster, 'timeout', id, this.notifyCount[id]!, this.waitCount[id]!, 'timeout_walk', 0, at);
  }

  /** Evaluates every timeout walk that ended before cycle `now` (walks at the end of cycles <= now - 1). */
  syncTimeouts(now: number): void {
    if (this.timeoutCycles <= 0 || now <= this.syncedTo) return;
    this.syncedTo = now;
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      const since = this.activeSince[id]!;
      if (since < 0 || this.timedOut[id]) continue;
      const at = this.timeoutWalk(since);
      if (at < now) this.recordTimeout(id, since, at, -1);
    }
  }

  /** The earliest walk cycle at which a barrier active now would time out (Infinity: none). */
  nextTimeoutWalk(): number {
    if (this.timeoutCycles <= 0) return Infinity;
    let w = Infinity;
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      const since = this.activeSince[id]!;
      if (since < 0 || this.timedOut[id]) continue;
      const at = this.timeoutWalk(since);
      if (at < w) w = at;
    }
    return w;
  }

  /** Timeout interrupts raised before cycle `now` (the walks up to the end of cycle now - 1). */
  timeoutInterruptsBefore(now: number): number {
    this.syncTimeouts(now);
    let n = 0;
    for (const t of this.timeouts) if (t.at < now) n++;
    return n;
  }

  /** `barrier_timeout_status` at cycle `now`: {valid, barrier id} of the first timeout since the last clear. */
  timeoutStatus(now: number): { valid: boolean; barrierId: number } {
    this.syncTimeouts(now);
    // a timeout recorded at free time after `now` cannot be earlier than `now` (it was pending when synced)
    return this.timeoutBarrierId >= 0 && this.timeoutAt < now ? { valid: true, barrierId: this.timeoutBarrierId } : { valid: false, barrierId: 0 };
  }

  /** Software clears the saved timeout register (write 1 to timeout_valid): the next timeout detected is saved. */
  clearTimeoutStatus(now: number): void {
    this.syncTimeouts(now);
    this.timeoutBarrierId = -1;
    this.timeoutAt = Infinity;
    this.timeoutClearedAt = now - 1;
  }

  /**
   * Trip flush (chip §11.8): "The Barrier Table is also cleared and re-initialized by hardware as part of the
   * trip-flush process": every barrier back to the reset state (counts 0, ref_counts_valid 0, no waiters, no timeout
   * mark). barrier_interrupt_config and the saved timeout register are not part of the table and are kept.
   */
  reinitialize(now: number): void {
    this.syncTimeouts(now);
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      if (this.activeSince[id]! < 0 && this.waiting[id]!.length === 0) continue;
      if (this.timedOut[id])
        for (const t of this.timeouts) if (t.id === id && t.freedAt < 0) t.freedAt = now;
      this.notifyCount[id] = 0;
      this.waitCount[id] = 0;
      this.refCountsValid[id] = 0;
      this.activeSince[id] = -1;
      this.timedOut[id] = 0;
      this.waiting[id] = [];
      this.onFree?.(id);
      this.event('reinit', id, 'trip_flush', 0, now);
    }
  }

  /**
   * A software write of `bt_mem[id]` (chip §11.6.6): the entry takes the written counts and ref_counts_valid, and
   * "Writing a barrier does *not* trigger hardware operations (such as enabling trips or relaxing barriers)": no
   * release, no free event, no interrupt; waiting trips keep waiting until a later notify / decrement / set-up acts.
   * An all-zero, invalid entry is back in the reset state (no longer active for the §11.6.7 timeout walk).
   */
  writeDirect(id: number, notifyCount: number, waitCount: number, refCountsValid: number, now: number): void {
    this.check(id, now);
    this.syncTimeouts(now);
    this.notifyCount[id] = notifyCount;
    this.waitCount[id] = waitCount;
    this.refCountsValid[id] = refCountsValid ? 1 : 0;
    if (notifyCount === 0 && waitCount === 0 && !refCountsValid && this.waiting[id]!.length === 0) {
      this.activeSince[id] = -1;
      this.timedOut[id] = 0;
    } else this.touch(id, now);
    this.event('bt_mem_write', id, 'software', 0, now);
  }

  /** A trip waiting on `id` is discarded by the trip flush (chip §11.8): its wait is cancelled. */
  cancelWait(id: number, consumer: BarrierConsumer): void {
    const list = this.waiting[id];
    if (!list) return;
    const i = list.indexOf(consumer);
    if (i >= 0) list.splice(i, 1);
  }

  private releaseWaitingConsumers(id: number, now: number): void {
    const list = this.waiting[id]!;
    if (list.length === 0) return;
    this.waiting[id] = [];
    this.releases += list.length;
    this.event('release', id, '', 0, now);
    for (const c of list) c.go(id, now);
  }

  private free(id: number, now: number): void {
    this.refCountsValid[id] = 0;
    this.frees++;
    const since = this.activeSince[id]!;
    // §11.6.7: freed after the walk that found it still marked (the walk at the end of cycle `at` < now) = timed out.
    if (this.timeoutCycles > 0 && since >= 0) {
      if (this.timedOut[id]) {
        for (let i = this.timeouts.length - 1; i >= 0; i--)
          if (this.timeouts[i]!.id === id && this.timeouts[i]!.freedAt < 0) {
            this.timeouts[i]!.freedAt = now;
            break;
          }
      } else {
        const at = this.timeoutWalk(since);
        if (at < now) this.recordTimeout(id, since, at, now);
      }
    }
    this.timedOut[id] = 0;
    this.activeSince[id] = -1;
    this.onFree?.(id);
    this.event('free', id, '', 0, now);
  }

  /** Consumers currently blocked on `id`. */
  waiters(id: number): readonly BarrierConsumer[] {
    return this.waiting[id]!;
  }

  /** Barriers not in the reset state (touched and not freed), for reports. */
  pending(now: number): Array<{ id: number; notifyCount: number; waitCount: number; refCountsValid: boolean; waiters: string[]; age: number }> {
    const out = [];
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      if (this.activeSince[id]! < 0) continue;
      out.push({
        id,
        notifyCount: this.notifyCount[id]!,
        waitCount: this.waitCount[id]!,
        refCountsValid: this.refCountsValid[id] === 1,
        waiters: this.waiting[id]!.map((c) => c.label),
        age: now - this.activeSince[id]!,
      });
    }
    return out;
  }

  /** All timeouts detected by the walks up to the end of cycle `end` (inclusive), ordered by walk cycle then id. */
  timeoutsUpTo(end: number): BarrierTimeout[] {
    this.syncTimeouts(end + 1);
    return this.timeouts.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id);
  }
}
