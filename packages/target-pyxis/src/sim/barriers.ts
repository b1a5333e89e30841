/**
 * Hardware barrier table of one cluster (chip §11.6): 1024 barrier objects,
 * id 0 reserved as the no-op (§11.6.3). `setRefCounts`, `notify` and `wait`
 * follow the pseudocode of §11.6.2 line by line, so they commute: any order
 * of set-up, notifications and waits gives the same releases. Counts are the
 * 6-bit signed fields of `bt_barrier_t` (§11.6.1); leaving -32..31 is a
 * runtime error. Events are reported to an observer for tracing (§18).
 */
import { runtimeError, SimCodes } from './diagnostics.js';

export const BARRIERS_PER_CLUSTER = 1024;
const COUNT_MIN = -32;
const COUNT_MAX = 31;

/** A thread waiting on a barrier (a trip at the head of a trip manager queue). */
export interface BarrierConsumer {
  /** Called when the barrier releases the consumer (possibly inside `wait`). */
  go(barrierId: number, now: number): void;
  /** For wait-graph reports. */
  readonly label: string;
}

export type BarrierEventKind = 'setup' | 'notify' | 'wait' | 'release' | 'free' | 'interrupt' | 'sw_decrement';

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
  /** Barriers that stayed incomplete longer than the timeout (§11.6.7). */
  readonly timeouts: Array<{ id: number; cycles: number; at: number }> = [];

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
        this.event('interrupt', id, `interrupt${e}`, 0, now);
      }
    }
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
    if (this.timeoutCycles > 0 && since >= 0 && now - since > this.timeoutCycles) this.timeouts.push({ id, cycles: now - since, at: now });
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

  /** Barriers still incomplete after the timeout at `now` (§11.6.7), besides those recorded at free time. */
  overdue(now: number): Array<{ id: number; cycles: number }> {
    if (this.timeoutCycles <= 0) return [];
    return this.pending(now)
      .filter((b) => b.age > this.timeoutCycles)
      .map((b) => ({ id: b.id, cycles: b.age }));
  }
}
