/**
 * Lazy accounting (docs/timing-model.md "Lazy accounting"): engines that cannot act cost nothing per cycle. A passive
 * engine asleep, a `timedWake` engine asleep until its wake cycle, a passive engine stalled until woken
 * (`stallSleep`), an engine replaying promised progress (`attachSkip`, ended early by `resume`) are out of the set of
 * ticked engines (a bitset in tick order) and their idle / stall / busy cycles are added in one go when they come back
 * (woken, wake cycle, end of the skip) or when the loop returns: the same figures as counting them one by one.
 *
 * This module keeps each engine's state and the bitset, and moves engines between the states; the run loop
 * (simulator.ts) calls `sleep` / `sleepStalled` after a tick and `reactivate` when a wake cycle comes. Part of the
 * Simulator class chain (registry.ts), so these are methods of the same object the loop runs on.
 */
import type { SimEngine } from './engine.js';
import { EngineCounters, stallCodeOf } from './engineCounters.js';

/** Engine states of the kernel (`LazyEngines.state`). */
export const enum EngineState {
  /** Ticked when its position in the tick order comes. */
  Active = 0,
  /** Passive, not busy: until woken (its cycles from `acctFrom` on are idle). */
  Asleep = 1,
  /** Passive `timedWake`, not busy: until `wakeAt` or woken (idle). */
  Timed = 2,
  /** Replays promised progress until `wakeAt` (`attachSkip`; busy). */
  Skip = 3,
  /** Passive, busy and stalled with code `sleepCode` until woken (`stallSleep`; stalled). */
  Stalled = 4,
}

/**
 * Whether a passive engine stalled at this tick promises to sleep (`stallSleep`, a query). `prepare` asks one passive
 * engine of each class first (V8 keeps feedback only from a function's ~8th call on): a class first asked after the
 * loop was optimised (the trip manager at a trip's end) deoptimised it ("wrong map"). Host speed only.
 */
export function stallSleeps(e: SimEngine): boolean {
  return e.stallSleep !== undefined && e.stallSleep();
}

export class LazyEngines extends EngineCounters {
  /** The current cycle: the cycle being stepped during `run`, the final cycle after it. */
  now = 0;
  protected passive = new Uint8Array(0);
  protected timed = new Uint8Array(0);
  /** Per engine: its EngineState. For all but Active the cycles from `acctFrom` on are not accounted yet. */
  protected state = new Uint8Array(0);
  protected acctFrom = new Float64Array(0);
  protected sleepCode = new Int32Array(0);
  /** Engines in state Stalled (busy: the run is not done while one sleeps). */
  protected stalledN = 0;
  protected wakeAt = new Float64Array(0);
  /** Engines in state Active, one bit per tick-order position. */
  protected act = new Int32Array(0);
  /** Each engine's position in `order`. */
  protected pos = new Int32Array(0);
  /** Min `wakeAt` over Timed / Skip engines (exact unless `timedStale`: a Timed engine was woken early). */
  protected nextTimed = Infinity;
  protected timedStale = false;
  /** Engines in state Skip (each promised progress in the current cycle). */
  protected skipping = 0;
  /** Tick-order position being run in the current cycle (-1: none yet or outside the loop; n: all done). */
  protected curPos = -1;

  /**
   * Brings the tick order, the counters and the engine states up to date with the registered engines and links
   * (a no-op unless some were added since the last call).
   */
  protected prepare(): void {
    const n = this.engines.length;
    if (this.busyC.length === n && this.prepared === n) return;
    // engines or links were added: account the lazy engines up to now, then rebuild the tick order
    this.settle(this.now);
    this.preparePhases();
    if (this.busyC.length === n) {
      // links only: the engines keep their states; positions may have moved
      this.act.fill(0);
      for (let k = 0; k < n; k++) {
        const i = this.order[k]!;
        this.pos[i] = k;
        if (this.state[i] === EngineState.Active) this.act[k >>> 5]! |= 1 << (k & 31);
      }
      return;
    }
    this.growCounters(n);
    // every engine starts active (a passive one goes to sleep after its first idle tick)
    this.passive = new Uint8Array(n);
    this.timed = new Uint8Array(n);
    this.state = new Uint8Array(n);
    this.acctFrom = new Float64Array(n);
    this.sleepCode = new Int32Array(n);
    this.stalledN = 0;
    this.wakeAt = new Float64Array(n);
    this.act = new Int32Array((n + 31) >>> 5);
    this.pos = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      this.pos[this.order[k]!] = k;
      this.act[k >>> 5]! |= 1 << (k & 31);
    }
    this.nextTimed = Infinity;
    this.timedStale = false;
    this.skipping = 0;
    for (let i = 0; i < n; i++) {
      const e = this.engines[i]!;
      this.passive[i] = e.passive ? 1 : 0;
      this.timed[i] = e.passive && e.timedWake ? 1 : 0;
      e.attachWake?.(() => this.wake(i));
      e.attachSkip?.((until) => this.skip(i, until), () => this.resume(i));
    }
    const reps = new Map<unknown, SimEngine>();
    for (const e of this.engines) if (e.passive && !reps.has(Object.getPrototypeOf(e))) reps.set(Object.getPrototypeOf(e), e);
    for (let r = 0; r < 10; r++) for (const e of reps.values()) stallSleeps(e);
  }

  /**
   * A passive engine became busy (its wake function). Asleep since `acctFrom`: idle up to the current cycle, and the
   * current cycle too when its tick position has passed (it is ticked from the next cycle, as an engine found asleep
   * at its position is counted idle).
   */
  private wake(i: number): void {
    const st = this.state[i]!;
    if (st !== EngineState.Asleep && st !== EngineState.Timed && st !== EngineState.Stalled) return;
    const k = this.pos[i]!;
    const to = k > this.curPos ? this.now : this.now + 1;
    if (st === EngineState.Stalled) {
      this.stallLazy(i, to - this.acctFrom[i]!);
      this.stalledN--;
    } else this.idleC[i] += to - this.acctFrom[i]!;
    if (st === EngineState.Timed) this.timedStale = true;
    this.state[i] = EngineState.Active;
    this.act[k >>> 5]! |= 1 << (k & 31);
  }

  /** `attachSkip`: from inside engine i's tick at `now`, the cycles now < c < until replay progress. */
  private skip(i: number, until: number): void {
    const now = this.now;
    if (until <= now + 1 || this.state[i] !== EngineState.Active) return;
    this.wakeAt[i] = until;
    if (until < this.nextTimed) this.nextTimed = until;
    this.skipping++;
    this.state[i] = EngineState.Skip;
    this.acctFrom[i] = now + 1;
    const k = this.pos[i]!;
    this.act[k >>> 5]! &= ~(1 << (k & 31));
  }

  /**
   * `attachSkip`'s `resume`: engine i's promise ends early (an input changed under it). Its promised cycles before the
   * first one it is ticked at are busy: the current cycle too when its tick position has passed (as `wake`). Returns
   * that first cycle, -1 when no promise was running.
   */
  private resume(i: number): number {
    if (this.state[i] !== EngineState.Skip) return -1;
    const k = this.pos[i]!;
    const to = k > this.curPos ? this.now : this.now + 1;
    this.busyC[i] += to - this.acctFrom[i]!;
    this.skipping--;
    this.timedStale = true;
    this.state[i] = EngineState.Active;
    this.act[k >>> 5]! |= 1 << (k & 31);
    return to;
  }

  /** `cycles` stall cycles of a Stalled engine, with the code it had when it went to sleep. */
  private stallLazy(i: number, cycles: number): void {
    this.stallC[i] += cycles;
    this.reasonC[this.reasonBase[i]! + this.sleepCode[i]!] += cycles;
  }

  /**
   * Engine i (passive, busy, stalled at `now`) promised by `stallSleep` to do nothing with the same stall code until
   * woken: not ticked from now + 1 on, its stall cycles counted when it is woken or the run returns.
   */
  protected sleepStalled(i: number, e: SimEngine, now: number): void {
    this.sleepCode[i] = stallCodeOf(e);
    this.stalledN++;
    this.state[i] = EngineState.Stalled;
    this.acctFrom[i] = now + 1;
    const k = this.pos[i]!;
    this.act[k >>> 5]! &= ~(1 << (k & 31));
  }

  /** Engine i goes to sleep after its tick at `now` (not busy, no progress; counted idle at `now`). */
  protected sleep(i: number, e: SimEngine, now: number): void {
    let st = EngineState.Asleep;
    if (this.timed[i] === 1) {
      const w = e.nextWake(now + 1);
      if (w !== Infinity) {
        st = EngineState.Timed;
        const at = w > now + 1 ? w : now + 1;
        this.wakeAt[i] = at;
        if (at < this.nextTimed) this.nextTimed = at;
      }
    }
    if (this.state[i] === EngineState.Skip) {
      // a skip promised by a tick after which the engine is not busy: sleep wins (the promise is dropped)
      this.skipping--;
      this.timedStale = true;
    }
    this.state[i] = st;
    this.acctFrom[i] = now + 1;
    const k = this.pos[i]!;
    this.act[k >>> 5]! &= ~(1 << (k & 31));
  }

  /** Brings back the Timed / Skip engines due at `now` (accounting their cycles before it); recomputes `nextTimed`. */
  protected reactivate(now: number): void {
    const n = this.state.length;
    let next = Infinity;
    for (let i = 0; i < n; i++) {
      const st = this.state[i]!;
      if (st !== EngineState.Timed && st !== EngineState.Skip) continue;
      const w = this.wakeAt[i]!;
      if (w > now) {
        if (w < next) next = w;
        continue;
      }
      const c = now - this.acctFrom[i]!;
      if (st === EngineState.Skip) {
        this.busyC[i] += c;
        this.skipping--;
      } else this.idleC[i] += c;
      this.state[i] = EngineState.Active;
      const k = this.pos[i]!;
      this.act[k >>> 5]! |= 1 << (k & 31);
    }
    this.nextTimed = next;
    this.timedStale = false;
  }

  /** The exact `nextTimed` (after early wakes of Timed engines). */
  protected timedNext(): number {
    if (this.timedStale) {
      let next = Infinity;
      for (let i = 0; i < this.state.length; i++) {
        const st = this.state[i]!;
        if ((st === EngineState.Timed || st === EngineState.Skip) && this.wakeAt[i]! < next) next = this.wakeAt[i]!;
      }
      this.nextTimed = next;
      this.timedStale = false;
    }
    return this.nextTimed;
  }

  /** Accounts every lazy engine's cycles before `to` (the loop's return; stats read outside a run). */
  protected settle(to: number): void {
    const n = this.state.length;
    for (let i = 0; i < n; i++) {
      const st = this.state[i]!;
      if (st === EngineState.Active) continue;
      const from = this.acctFrom[i]!;
      const end = st === EngineState.Skip && this.wakeAt[i]! < to ? this.wakeAt[i]! : to;
      // end < from: an engine that went to sleep in the step the run ends with gives back that step's idle cycle
      if (end === from) continue;
      if (st === EngineState.Skip) this.busyC[i] += end - from;
      else if (st === EngineState.Stalled) this.stallLazy(i, end - from);
      else this.idleC[i] += end - from;
      this.acctFrom[i] = end;
    }
  }

  /** `cycles` cycles in which nothing moved: busy engines stall, the others idle (lazy engines: when settled). */
  protected accountSkipped(cycles: number): void {
    const n = this.engines.length;
    for (let i = 0; i < n; i++) {
      if (this.state[i] !== EngineState.Active) continue;
      const e = this.engines[i]!;
      if (e.busy) this.accountStall(i, e, cycles);
      else this.idleC[i] += cycles;
    }
  }
}
