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
 * Engines that cannot act cost nothing per cycle (docs/timing-model.md "Lazy accounting"): a passive engine asleep, a
 * `timedWake` engine asleep until its wake cycle, a passive engine stalled until woken (`stallSleep`), an engine
 * replaying promised progress (`attachSkip`, ended early by `resume`) are out of the set of ticked engines (a bitset
 * in tick order) and their idle / stall / busy cycles are added in one go when they come back (woken, wake cycle, end
 * of the skip) or when the loop returns: the same figures as counting them one by one.
 * When no engine is ticked at all and every cycle is promised progress, the loop jumps to the next event, counting
 * the cycles as steps.
 *
 * Results never depend on the order of `add` calls: a cycle runs the engines'
 * declared phases in ascending order (SimEngine.phase); inside a phase it
 * first delivers the due messages of the phase's timed links (link.ts), then
 * ticks the phase's engines, then runs the commits they requested in
 * `commitKey` order (engine.ts `Committer`). Registration order only decides
 * the tick order inside a phase, where engines must not see each other's
 * same-cycle writes (docs/timing-model.md "Kernel semantics").
 */
import type { Committer, SimEngine } from './engine.js';
import type { TimedLink } from './link.js';

export type StopReason = 'done' | 'deadlock' | 'max-cycles';

/** Engine states of the kernel (Simulator.state). */
const ACTIVE = 0;
const ASLEEP = 1;
const TIMED = 2;
const SKIP = 3;
const STALLED = 4;

export interface EngineStats {
  name: string;
  busy: number;
  stall: number;
  idle: number;
  /** Stall cycles per reason (only non-zero reasons). */
  stallReasons: Record<string, number>;
}

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

export class Simulator {
  readonly engines: SimEngine[] = [];
  /** The current cycle: the cycle being stepped during `run`, the final cycle after it. */
  now = 0;
  steps = 0;
  /**
   * The cycle limit of the current run (`maxCycles`, Infinity when none): engines that run ahead of the global
   * clock (temporal decoupling, docs/simulator.md "Quantum") never simulate a cycle at or beyond it.
   */
  runLimit = Infinity;
  private busyC = new Float64Array(0);
  private stallC = new Float64Array(0);
  private idleC = new Float64Array(0);
  /** Stall reason counters: engine i's codes start at reasonBase[i]. */
  private reasonBase = new Int32Array(0);
  private reasonC = new Float64Array(0);
  private readonly explainers: Array<() => string[]> = [];
  private passive = new Uint8Array(0);
  private timed = new Uint8Array(0);
  /**
   * Per engine: ACTIVE (ticked when its position comes), ASLEEP (passive, until woken), TIMED (passive timedWake,
   * until `wakeAt` or woken), SKIP (replays promised progress until `wakeAt`, `attachSkip`), STALLED (passive, busy and
   * stalled with code `sleepCode` until woken, `stallSleep`). For the last four the cycles from `acctFrom` on are not
   * accounted yet (idle for ASLEEP / TIMED, busy for SKIP, stalled for STALLED).
   */
  private state = new Uint8Array(0);
  private acctFrom = new Float64Array(0);
  private sleepCode = new Int32Array(0);
  /** Engines in state STALLED (busy: the run is not done while one sleeps). */
  private stalledN = 0;
  private wakeAt = new Float64Array(0);
  /** Engines in state ACTIVE, one bit per tick-order position. */
  private act = new Int32Array(0);
  /** Each engine's position in `order`. */
  private pos = new Int32Array(0);
  /** Min `wakeAt` over TIMED / SKIP engines (exact unless `timedStale`: a TIMED engine was woken early). */
  private nextTimed = Infinity;
  private timedStale = false;
  /** Engines in state SKIP (each promised progress in the current cycle). */
  private skipping = 0;
  /** Tick-order position being run in the current cycle (-1: none yet or outside the loop; n: all done). */
  private curPos = -1;
  private readonly links: Array<TimedLink<unknown>> = [];
  /** Engine indexes in tick order: by phase, then registration. */
  private order = new Int32Array(0);
  /** Per phase (ascending): its first and end position in `order`, and its links. */
  private phaseStart = new Int32Array(0);
  private phaseEnd = new Int32Array(0);
  private phaseLinks: Array<Array<TimedLink<unknown>>> = [];
  private prepared = -1;
  /** Commits requested in the current phase (reused array; `commitN` entries valid). */
  private readonly commitQ: Committer[] = [];
  private commitN = 0;

  /** Registers an engine; returns its index. Engines are ticked in registration order. */
  add(e: SimEngine): number {
    this.engines.push(e);
    return this.engines.length - 1;
  }

  /** Registers a timed link: the kernel delivers its messages in the link's phase. */
  addLink<T>(l: TimedLink<T>): TimedLink<T> {
    this.links.push(l as TimedLink<unknown>);
    this.prepared = -1;
    return l;
  }

  /**
   * Defers `c.commit(now)` to the end of the current phase, after every engine of the phase has ticked; the commits
   * of a phase run in `commitKey` order. Request at most once per cycle per committer.
   */
  requestCommit(c: Committer): void {
    this.commitQ[this.commitN++] = c;
  }

  private runCommits(now: number): void {
    const q = this.commitQ;
    while (this.commitN > 0) {
      const n = this.commitN;
      // Insertion sort by key: a handful of entries per cycle.
      for (let i = 1; i < n; i++) {
        const c = q[i]!;
        let j = i - 1;
        while (j >= 0 && q[j]!.commitKey > c.commitKey) {
          q[j + 1] = q[j]!;
          j--;
        }
        q[j + 1] = c;
      }
      for (let i = 0; i < n; i++) q[i]!.commit(now);
      // Commits requested by commits run next, in their own key order.
      const extra = this.commitN - n;
      for (let i = 0; i < extra; i++) q[i] = q[n + i]!;
      this.commitN = extra;
    }
  }

  /** Extra wait-graph lines for deadlock/max-cycles reports (e.g. barrier table state). */
  addExplainer(f: () => string[]): void {
    this.explainers.push(f);
  }

  private preparePhases(): void {
    const n = this.engines.length;
    if (this.prepared === n) return;
    this.prepared = n;
    const phaseOf = (i: number) => this.engines[i]!.phase ?? 0;
    const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => phaseOf(a) - phaseOf(b) || a - b);
    this.order = Int32Array.from(idx);
    const phases = [...new Set([...idx.map(phaseOf), ...this.links.map((l) => l.phase)])].sort((a, b) => a - b);
    this.phaseStart = new Int32Array(phases.length);
    this.phaseEnd = new Int32Array(phases.length);
    this.phaseLinks = phases.map((p) => this.links.filter((l) => l.phase === p));
    let k = 0;
    phases.forEach((p, pi) => {
      this.phaseStart[pi] = k;
      while (k < n && phaseOf(idx[k]!) === p) k++;
      this.phaseEnd[pi] = k;
    });
  }

  private prepare(): void {
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
        if (this.state[i] === ACTIVE) this.act[k >>> 5]! |= 1 << (k & 31);
      }
      return;
    }
    const grow = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a.subarray(0, Math.min(a.length, n)));
      return b;
    };
    this.busyC = grow(this.busyC);
    this.stallC = grow(this.stallC);
    this.idleC = grow(this.idleC);
    this.reasonBase = new Int32Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      this.reasonBase[i] = total;
      total += Math.max(1, this.engines[i]!.stallReasons?.length ?? 0);
    }
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
    const old = this.reasonC;
    this.reasonC = new Float64Array(total);
    if (old.length <= total) this.reasonC.set(old);
  }

  /**
   * A passive engine became busy (its wake function). Asleep since `acctFrom`: idle up to the current cycle, and the
   * current cycle too when its tick position has passed (it is ticked from the next cycle, as an engine found asleep
   * at its position is counted idle).
   */
  private wake(i: number): void {
    const st = this.state[i]!;
    if (st !== ASLEEP && st !== TIMED && st !== STALLED) return;
    const now = this.now;
    const k = this.pos[i]!;
    const to = k > this.curPos ? now : now + 1;
    if (st === STALLED) {
      this.stallLazy(i, to - this.acctFrom[i]!);
      this.stalledN--;
    } else this.idleC[i] += to - this.acctFrom[i]!;
    if (st === TIMED) this.timedStale = true;
    this.state[i] = ACTIVE;
    this.act[k >>> 5]! |= 1 << (k & 31);
  }

  /** `attachSkip`: from inside engine i's tick at `now`, the cycles now < c < until replay progress. */
  private skip(i: number, until: number): void {
    const now = this.now;
    if (until <= now + 1 || this.state[i] !== ACTIVE) return;
    this.state[i] = SKIP;
    this.acctFrom[i] = now + 1;
    this.wakeAt[i] = until;
    if (until < this.nextTimed) this.nextTimed = until;
    this.skipping++;
    const k = this.pos[i]!;
    this.act[k >>> 5]! &= ~(1 << (k & 31));
  }

  /**
   * `attachSkip`'s `resume`: engine i's promise ends early (an input changed under it). Its promised cycles before the
   * first one it is ticked at are busy: the current cycle too when its tick position has passed (as `wake`). Returns
   * that first cycle, -1 when no promise was running.
   */
  private resume(i: number): number {
    if (this.state[i] !== SKIP) return -1;
    const k = this.pos[i]!;
    const to = k > this.curPos ? this.now : this.now + 1;
    this.busyC[i] += to - this.acctFrom[i]!;
    this.skipping--;
    this.timedStale = true;
    this.state[i] = ACTIVE;
    this.act[k >>> 5]! |= 1 << (k & 31);
    return to;
  }

  /** `cycles` stall cycles of a STALLED engine, with the code it had when it went to sleep. */
  private stallLazy(i: number, cycles: number): void {
    this.stallC[i] += cycles;
    this.reasonC[this.reasonBase[i]! + this.sleepCode[i]!] += cycles;
  }

  /**
   * Engine i (passive, busy, stalled at `now`) promised by `stallSleep` to do nothing with the same stall code until
   * woken: not ticked from now + 1 on, its stall cycles counted when it is woken or the run returns.
   */
  private sleepStalled(i: number, e: SimEngine, now: number): void {
    let code = 0;
    if (e.stallCode && e.stallReasons) {
      code = e.stallCode();
      if (!(code >= 0 && code < e.stallReasons.length)) code = 0;
    }
    this.sleepCode[i] = code;
    this.state[i] = STALLED;
    this.stalledN++;
    this.acctFrom[i] = now + 1;
    const k = this.pos[i]!;
    this.act[k >>> 5]! &= ~(1 << (k & 31));
  }

  /** Engine i goes to sleep after its tick at `now` (not busy, no progress; counted idle at `now`). */
  private sleep(i: number, e: SimEngine, now: number): void {
    let st = ASLEEP;
    if (this.timed[i] === 1) {
      const w = e.nextWake(now + 1);
      if (w !== Infinity) {
        st = TIMED;
        const at = w > now + 1 ? w : now + 1;
        this.wakeAt[i] = at;
        if (at < this.nextTimed) this.nextTimed = at;
      }
    }
    if (this.state[i] === SKIP) {
      // a skip promised by a tick after which the engine is not busy: sleep wins (the promise is dropped)
      this.skipping--;
      this.timedStale = true;
    }
    this.state[i] = st;
    this.acctFrom[i] = now + 1;
    const k = this.pos[i]!;
    this.act[k >>> 5]! &= ~(1 << (k & 31));
  }

  /** Brings back the TIMED / SKIP engines due at `now` (accounting their cycles before it); recomputes `nextTimed`. */
  private reactivate(now: number): void {
    const n = this.state.length;
    let next = Infinity;
    for (let i = 0; i < n; i++) {
      const st = this.state[i]!;
      if (st !== TIMED && st !== SKIP) continue;
      const w = this.wakeAt[i]!;
      if (w > now) {
        if (w < next) next = w;
        continue;
      }
      const c = now - this.acctFrom[i]!;
      if (st === SKIP) {
        this.busyC[i] += c;
        this.skipping--;
      } else this.idleC[i] += c;
      this.state[i] = ACTIVE;
      const k = this.pos[i]!;
      this.act[k >>> 5]! |= 1 << (k & 31);
    }
    this.nextTimed = next;
    this.timedStale = false;
  }

  /** The exact `nextTimed` (after early wakes of TIMED engines). */
  private timedNext(): number {
    if (this.timedStale) {
      let next = Infinity;
      for (let i = 0; i < this.state.length; i++) {
        const st = this.state[i]!;
        if ((st === TIMED || st === SKIP) && this.wakeAt[i]! < next) next = this.wakeAt[i]!;
      }
      this.nextTimed = next;
      this.timedStale = false;
    }
    return this.nextTimed;
  }

  /** Accounts every lazy engine's cycles before `to` (the loop's return; stats read outside a run). */
  private settle(to: number): void {
    const n = this.state.length;
    for (let i = 0; i < n; i++) {
      const st = this.state[i]!;
      if (st === ACTIVE) continue;
      const from = this.acctFrom[i]!;
      const end = st === SKIP && this.wakeAt[i]! < to ? this.wakeAt[i]! : to;
      // end < from: an engine that went to sleep in the step the run ends with gives back that step's idle cycle
      if (end === from) continue;
      if (st === SKIP) this.busyC[i] += end - from;
      else if (st === STALLED) this.stallLazy(i, end - from);
      else this.idleC[i] += end - from;
      this.acctFrom[i] = end;
    }
  }

  private accountStall(i: number, e: SimEngine, cycles: number): void {
    this.stallC[i] += cycles;
    let code = 0;
    if (e.stallCode && e.stallReasons) {
      code = e.stallCode();
      if (!(code >= 0 && code < e.stallReasons.length)) code = 0;
    }
    this.reasonC[this.reasonBase[i]! + code] += cycles;
  }

  /** Runs until every engine is idle, a deadlock, or `maxCycles`. */
  run(opts: RunOptions = {}): RunResult {
    const maxCycles = opts.maxCycles ?? Infinity;
    const r = this.loop(maxCycles, Infinity, false, opts);
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
    const r = this.loop(opts.maxCycles ?? Infinity, limit, true, opts);
    return r === 'quiescent' ? 'quiescent' : 'window';
  }

  /** Partitioned runs: accounts the cycles from `now` to `end` (the run's end) as skipped ones. */
  finishAt(end: number): void {
    this.prepare();
    if (end > this.now) this.accountSkipped(end - this.now);
    this.now = end;
    this.settle(end);
  }

  /** `cycles` cycles in which nothing moved: busy engines stall, the others idle (lazy engines: when settled). */
  private accountSkipped(cycles: number): void {
    const n = this.engines.length;
    for (let i = 0; i < n; i++) {
      if (this.state[i] !== ACTIVE) continue;
      const e = this.engines[i]!;
      if (e.busy) this.accountStall(i, e, cycles);
      else this.idleC[i] += cycles;
    }
  }

  /**
   * The cycle loop, from `this.now`: stops at `maxCycles`, at `windowEnd` (partitioned runs: 'window'), or when
   * nothing can move any more ('done' / 'deadlock'; partitioned: 'quiescent', the undecided case).
   */
  private loop(maxCycles: number, windowEnd: number, partitioned: boolean, opts: RunOptions): StopReason | 'window' | 'quiescent' {
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
    let result: StopReason | 'window' | 'quiescent';
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
            if (passive[i] === 1 && e.stallSleep !== undefined && e.stallSleep()) this.sleepStalled(i, e, now);
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
      // (an engine asleep in STALLED is busy and waits for others: nextWake Infinity)
      let anyBusy = this.stalledN > 0;
      for (let i = 0; i < n; i++) {
        if (this.state[i] !== ACTIVE) continue;
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
      if (next === Infinity) {
        this.now = now;
        // The run ends at `now`: the step just made at `now` (nothing moved) is not one of its cycles, so each
        // engine's busy + stall + idle is exactly `cycles`. Undo that step's accounting (one idle or stall cycle);
        // the lazy engines are accounted up to `now` below.
        for (let i = 0; i < n; i++) {
          if (this.state[i] !== ACTIVE) continue;
          const e = engines[i]!;
          if (e.busy) this.accountStall(i, e, -1);
          else this.idleC[i]--;
        }
        if (partitioned) {
          this.quiescent = true;
          result = 'quiescent';
        } else result = anyBusy ? 'deadlock' : 'done';
        break;
      }
      if (next > maxCycles) next = maxCycles;
      if (next > windowEnd) {
        // Paused inside a skip: remember where the work resumes (no step is spent at the window boundary).
        resumeAt = next;
        next = windowEnd;
      }
      const skipped = next - now - 1;
      if (skipped > 0) {
        for (let i = 0; i < n; i++) {
          if (this.state[i] !== ACTIVE) continue;
          const e = engines[i]!;
          if (e.busy) this.accountStall(i, e, skipped);
          else this.idleC[i] += skipped;
        }
      }
      now = next;
    }
    this.curPos = -1;
    this.settle(this.now);
    return result;
  }

  /** One line per busy engine with its blocked reason, then the explainers' lines. */
  waitGraph(): string[] {
    const lines: string[] = [];
    for (const e of this.engines) {
      if (!e.busy) continue;
      lines.push(`${e.name}: ${e.blockedReason() ?? 'busy (no reason given)'}`);
    }
    for (const f of this.explainers) lines.push(...f());
    return lines;
  }

  engineStats(): EngineStats[] {
    this.prepare();
    this.settle(this.now);
    return this.engines.map((e, i) => {
      const reasons: Record<string, number> = {};
      const names = e.stallReasons ?? ['stalled'];
      for (let k = 0; k < Math.max(1, names.length); k++) {
        const c = this.reasonC[this.reasonBase[i]! + k]!;
        if (c > 0) reasons[names[k] ?? 'stalled'] = c;
      }
      return { name: e.name, busy: this.busyC[i]!, stall: this.stallC[i]!, idle: this.idleC[i]!, stallReasons: reasons };
    });
  }
}
