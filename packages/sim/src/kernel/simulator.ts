/**
 * The global cycle loop. Each cycle ticks every registered engine; when no
 * engine made progress in a cycle the loop jumps straight to the earliest
 * `nextWake` of any engine (idle-time skipping: all engines waiting on DMA
 * latency or barriers cost one step, not one per cycle). If nothing can ever
 * progress but some engine is still busy, the run stops as a deadlock and the
 * wait graph is reported from every busy engine's `blockedReason()` plus the
 * registered explainers (barrier tables, ...). `maxCycles` stops runaway runs
 * with the same explanation. Per-engine busy/stall/idle cycles (with stall
 * reasons) are accumulated in typed arrays; the loop allocates nothing.
 *
 * Engines that cannot act cost nothing per cycle (lazyEngines.ts, docs/timing-model.md "Lazy accounting"); when no
 * engine is ticked at all and every cycle is promised progress, the loop jumps to the next event, counting the cycles
 * as steps. A cycle runs the declared phases in ascending order: links, ticks, ordered commits (registry.ts,
 * docs/timing-model.md "Kernel semantics"), so results never depend on the order of `add` calls.
 *
 * The Simulator is one class built in layers, one concept a module, each extending the one before: registry.ts
 * (engines, links, tick order, commits), engineCounters.ts (busy / stall / idle counters, EngineStats),
 * lazyEngines.ts (the engine states and lazy accounting), and this module (the run loop, and the windowed
 * `advance` / `finishAt` of partitioned runs, partitioned.ts). One object: the loop reads every field directly and
 * its calls stay monomorphic (V8 inlines them).
 */
import { EngineState, LazyEngines, stallSleeps } from './lazyEngines.js';
import { smi } from './doubleField.js';
import type { EngineStats } from './engineCounters.js';

export type { EngineStats } from './engineCounters.js';

export type StopReason = 'done' | 'deadlock' | 'max-cycles';

export interface RunResult {
  reason: StopReason;
  /** Cycle at which the run ended (total simulated cycles). */
  cycles: number;
  /** Kernel steps actually executed (cycles minus the skipped idle ones). */
  steps: number;
  /** Wait graph lines for deadlock/max-cycles stops (empty when done). */
  waitGraph: string[];
}

export interface RunOptions {
  maxCycles?: number;
  /** Called every `progressEvery` kernel steps with the current cycle. */
  onProgress?: (cycle: number) => void;
  progressEvery?: number;
}

export class Simulator extends LazyEngines {
  steps = 0;
  /**
   * The cycle limit of the current run (`maxCycles`, Infinity when none): engines that run ahead of the global
   * clock (temporal decoupling, docs/simulator.md "Quantum") never simulate a cycle at or beyond it.
   */
  runLimit = Infinity;

  /** Runs until every engine is idle, a deadlock, or `maxCycles`. */
  run(opts: RunOptions = {}): RunResult {
    const maxCycles = opts.maxCycles ?? Infinity;
    const r = this.runLoop(maxCycles, Infinity, false, opts);
    if (r === 'max-cycles') return { reason: 'max-cycles', cycles: this.now, steps: this.steps, waitGraph: this.waitGraph() };
    if (r === 'deadlock') return { reason: 'deadlock', cycles: this.now, steps: this.steps, waitGraph: this.waitGraph() };
    return { reason: 'done', cycles: this.now, steps: this.steps, waitGraph: [] };
  }

  /**
   * Partitioned runs (partitioned.ts): true when this simulator ran out of work at `now` (its own done cycle) and
   * waits only for messages from other partitions; none of its cycles from `now` on is accounted yet.
   */
  quiescent = false;
  /** Partitioned runs: the earliest cycle this simulator may act at, as its last pause found it (links aside). */
  private pausedNext = 0;

  /** The earliest cycle at which this partition can change state (Infinity: none, unless a message comes). */
  nextEventAt(): number {
    let t = this.quiescent ? Infinity : Math.max(this.pausedNext, this.now);
    const links = this.links;
    for (let l = 0; l < links.length; l++) {
      const w = links[l]!.nextAt;
      if (w < t) t = w;
    }
    return t;
  }

  /** True when some engine is still busy (a quiescent partition with a busy engine is waiting for a message). */
  anyBusy(): boolean {
    for (const e of this.engines) if (e.busy) return true;
    return false;
  }

  /**
   * Partitioned runs: simulates every cycle < `limit` that this partition has to (a quiescent partition stays so
   * unless a message is due before `limit`); returns 'quiescent' or 'window'. `maxCycles` bounds run-ahead.
   */
  advance(limit: number, opts: RunOptions = {}): 'quiescent' | 'window' {
    this.prepare();
    const target = Math.min(this.nextEventAt(), limit);
    if (this.quiescent) {
      if (target >= limit) return 'quiescent';
      this.quiescent = false;
    }
    if (target > this.now) {
      this.accountSkipped(target - this.now);
      this.now = target;
      if (target >= limit) return 'window';
    }
    const r = this.runLoop(opts.maxCycles ?? Infinity, limit, true, opts);
    return r === 'quiescent' ? 'quiescent' : 'window';
  }

  /** Partitioned runs: accounts the cycles from `now` to `end` (the run's end) as skipped ones. */
  finishAt(end: number): void {
    this.prepare();
    if (end > this.now) this.accountSkipped(end - this.now);
    this.now = end;
    this.settle(end);
  }

  /**
   * The cycle loop, from `this.now`: stops at `maxCycles`, at `windowEnd` (partitioned runs: 'window'), or when
   * nothing can move any more ('done' / 'deadlock'; partitioned: 'quiescent', the undecided case).
   */
  private loop(maxCycles: number, windowEnd: number, partitioned: boolean, opts: RunOptions): StopReason | 'window' | 'quiescent' | 'ended' {
    this.prepare();
    this.runLimit = Math.min(maxCycles, windowEnd);
    const engines = this.engines;
    const n = engines.length;
    const every = opts.progressEvery ?? 1 << 14;
    const onProgress = opts.onProgress;
    let sinceProgress = 0;
    let now = this.now;
    // Fixed for the run (prepare() built them): locals keep the per-cycle loop free of property look-ups.
    const order = this.order;
    const nPhases = this.phaseStart.length;
    const phaseStart = this.phaseStart;
    const phaseEnd = this.phaseEnd;
    const phaseLinks = this.phaseLinks;
    const links = this.links;
    const busyC = this.busyC;
    const idleC = this.idleC;
    const passive = this.passive;
    const act = this.act;
    const nWords = act.length;
    let resumeAt = -1;
    let result: StopReason | 'window' | 'quiescent' | 'ended';
    for (;;) {
      if (now >= maxCycles) {
        this.now = now;
        result = 'max-cycles';
        break;
      }
      if (now >= windowEnd) {
        this.now = now;
        this.pausedNext = resumeAt > now ? resumeAt : now;
        result = 'window';
        break;
      }
      if (now >= this.nextTimed) this.reactivate(now);
      // Every engine in SKIP promised progress at `now`.
      let progressed = this.skipping > 0;
      if (progressed) {
        // Nothing to tick and nothing due: every cycle up to the next event is a step with progress and no work.
        let idle = true;
        for (let w = 0; w < nWords; w++)
          if (act[w] !== 0) {
            idle = false;
            break;
          }
        if (idle) {
          let to = this.nextTimed; // exact: no TIMED engine woke since the last reactivate (nothing ran)
          for (let l = 0; l < links.length; l++) if (links[l]!.nextAt < to) to = links[l]!.nextAt;
          if (to > maxCycles) to = maxCycles;
          if (to > windowEnd) to = windowEnd;
          if (to > now + 1) {
            to = smi(to); // a Smi again after a wake read from a double field (doubleField.ts): `steps`, `now`
            let left = to - now;
            this.steps += left;
            if (onProgress) {
              // the progress calls the skipped steps would have made, at the same steps
              let c = now;
              while (left > 0) {
                const k = every - sinceProgress <= left ? every - sinceProgress : left;
                c += k;
                left -= k;
                sinceProgress += k;
                if (sinceProgress >= every) {
                  sinceProgress = 0;
                  this.now = c - 1;
                  onProgress(c - 1);
                }
              }
            }
            now = to;
            continue;
          }
        }
      }
      this.steps++;
      this.now = now; // live during the run (observers such as the uninitialised-read watch read it)
      for (let pi = 0; pi < nPhases; pi++) {
        const links = phaseLinks[pi]!;
        const start = phaseStart[pi]!;
        const end = phaseEnd[pi]!;
        this.curPos = start - 1;
        for (let l = 0; l < links.length; l++) if (links[l]!.nextAt <= now && links[l]!.deliverDue(now) > 0) progressed = true;
        // the active engines of the phase in tick order; the bitset is re-read after each tick (wakes, skips)
        let k = start;
        while (k < end) {
          let w = k >>> 5;
          let bits = act[w]! & (-1 << (k & 31));
          while (bits === 0 && ++w < nWords && w << 5 < end) bits = act[w]!;
          if (bits === 0) break;
          const p = (w << 5) + 31 - Math.clz32(bits & -bits);
          if (p >= end) break;
          this.curPos = p;
          const i = order[p]!;
          const e = engines[i]!;
          if (e.tick(now)) {
            busyC[i]++;
            progressed = true;
          } else if (e.busy) {
            this.accountStall(i, e, 1);
            if (passive[i] === 1 && stallSleeps(e)) this.sleepStalled(i, e, now);
          } else {
            idleC[i]++;
            if (passive[i] === 1) this.sleep(i, e, now);
          }
          k = p + 1;
        }
        this.curPos = end - 1;
        if (this.commitN > 0) {
          this.runCommits(now);
          progressed = true;
        }
      }
      this.curPos = n;
      if (onProgress && ++sinceProgress >= every) {
        sinceProgress = 0;
        onProgress(now);
      }
      if (progressed) {
        now++;
        continue;
      }
      // Nothing moved at `now`: the state cannot change before the earliest wake.
      // an engine that promised progress from now + 1 on (`attachSkip` in this step's tick) is due then
      let next = this.skipping > 0 ? now + 1 : this.timedNext();
      if (next <= now) next = now + 1;
      next = this.wakeScan(now, next);
      if (next === Infinity) {
        // the run ends at `now` (= this.now, stored at the step's start): `endRun`, out of this function, which V8
        // optimises long before a partition's last step; code first run there deoptimised it for the next partition
        result = 'ended';
        break;
      }
      if (next > maxCycles) next = maxCycles;
      if (next > windowEnd) {
        // Paused inside a skip: remember where the work resumes (no step is spent at the window boundary).
        resumeAt = next;
        next = windowEnd;
      }
      next = smi(next);
      const skipped = next - now - 1;
      if (skipped > 0) {
        for (let i = 0; i < n; i++) {
          if (this.state[i] !== EngineState.Active) continue;
          const e = engines[i]!;
          if (e.busy) this.accountStall(i, e, skipped);
          else this.idleC[i] += skipped;
        }
      }
      now = next;
    }
    return result;
  }

  /** `loop`, then what follows it once per run (unoptimised code: see `endRun`). */
  private runLoop(maxCycles: number, windowEnd: number, partitioned: boolean, opts: RunOptions): StopReason | 'window' | 'quiescent' {
    let r = this.loop(maxCycles, windowEnd, partitioned, opts);
    if (r === 'ended') r = this.endRun(partitioned);
    this.curPos = -1;
    this.settle(this.now);
    return r;
  }

  /**
   * The run ends at `now`: the step just made at `now` (nothing moved) is not one of its cycles, so each engine's
   * busy + stall + idle is exactly `cycles`. Undo that step's accounting (one idle or stall cycle); the lazy engines
   * are accounted up to `now` by the caller.
   */
  private endRun(partitioned: boolean): StopReason | 'quiescent' {
    const engines = this.engines;
    for (let i = 0; i < engines.length; i++) {
      if (this.state[i] !== EngineState.Active) continue;
      const e = engines[i]!;
      if (e.busy) this.accountStall(i, e, -1);
      else this.idleC[i]--;
    }
    if (partitioned) {
      this.quiescent = true;
      return 'quiescent';
    }
    return this.scanBusy ? 'deadlock' : 'done';
  }

  /** Whether an engine was busy at the last `wakeScan`. */
  private scanBusy = false;

  /**
   * After a step in which nothing moved: the earliest wake (from `next`, the lazy engines' and skips') over the active
   * engines and the links; whether any engine is busy in `scanBusy`. A method of its own, not inlined in `loop`: an
   * engine class first seen here (in the last step of a partition) deoptimises this small function, not the whole
   * loop, which a thread's next partition then compiled again (V8 "wrong map"; host speed only).
   */
  private wakeScan(now: number, next: number): number {
    const engines = this.engines;
    const n = engines.length;
    const passive = this.passive;
    const links = this.links;
    // (an engine asleep in state Stalled is busy and waits for others: nextWake Infinity)
    let anyBusy = this.stalledN > 0;
    for (let i = 0; i < n; i++) {
      if (this.state[i] !== EngineState.Active) continue;
      const e = engines[i]!;
      if (e.busy) anyBusy = true;
      else if (passive[i] === 1) continue;
      let w = e.nextWake(now + 1);
      if (w <= now) w = now + 1;
      if (w < next) next = w;
    }
    for (let l = 0; l < links.length; l++) {
      const w = links[l]!.nextAt;
      if (w < next) next = w <= now ? now + 1 : w;
    }
    this.scanBusy = anyBusy;
    return next;
  }

  engineStats(): EngineStats[] {
    this.prepare();
    this.settle(this.now);
    return this.countersReport();
  }
}
