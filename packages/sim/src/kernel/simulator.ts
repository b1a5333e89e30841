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
  /** Passive engines currently awake (ticked); non-passive engines are always ticked. */
  private awake = new Uint8Array(0);
  /** Per engine: cycles < skipUntil (after the one it was promised in) replay progress without a tick (`attachSkip`). */
  private skipUntil = new Float64Array(0);
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
    this.preparePhases();
    const n = this.engines.length;
    if (this.busyC.length === n) return;
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
    this.passive = new Uint8Array(n);
    this.awake = new Uint8Array(n).fill(1);
    this.skipUntil = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const e = this.engines[i]!;
      this.passive[i] = e.passive ? 1 : 0;
      const awake = this.awake;
      e.attachWake?.(() => {
        awake[i] = 1;
      });
      const skip = this.skipUntil;
      e.attachSkip?.((until) => {
        skip[i] = until;
      });
    }
    const old = this.reasonC;
    this.reasonC = new Float64Array(total);
    if (old.length <= total) this.reasonC.set(old);
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
  }

  /** `cycles` cycles in which nothing moved: busy engines stall, the others idle. */
  private accountSkipped(cycles: number): void {
    const n = this.engines.length;
    for (let i = 0; i < n; i++) {
      if (this.awake[i] === 0) {
        this.idleC[i] += cycles;
        continue;
      }
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
    let resumeAt = -1;
    for (;;) {
      if (now >= maxCycles) {
        this.now = now;
        return 'max-cycles';
      }
      if (now >= windowEnd) {
        this.now = now;
        this.pausedNext = resumeAt > now ? resumeAt : now;
        return 'window';
      }
      this.steps++;
      this.now = now; // live during the run (observers such as the uninitialised-read watch read it)
      let progressed = false;
      const passive = this.passive;
      const awake = this.awake;
      const skipUntil = this.skipUntil;
      for (let pi = 0; pi < nPhases; pi++) {
        const links = phaseLinks[pi]!;
        for (let l = 0; l < links.length; l++) if (links[l]!.nextAt <= now && links[l]!.deliverDue(now) > 0) progressed = true;
        const end = phaseEnd[pi]!;
        for (let k = phaseStart[pi]!; k < end; k++) {
          const i = order[k]!;
          if (awake[i] === 0) {
            idleC[i]++;
            continue;
          }
          if (skipUntil[i]! > now) {
            busyC[i]++;
            progressed = true;
            continue;
          }
          const e = engines[i]!;
          if (e.tick(now)) {
            busyC[i]++;
            progressed = true;
          } else if (e.busy) this.accountStall(i, e, 1);
          else {
            idleC[i]++;
            if (passive[i] === 1) awake[i] = 0;
          }
        }
        if (this.commitN > 0) {
          this.runCommits(now);
          progressed = true;
        }
      }
      if (opts.onProgress && ++sinceProgress >= every) {
        sinceProgress = 0;
        opts.onProgress(now);
      }
      if (progressed) {
        now++;
        continue;
      }
      // Nothing moved at `now`: the state cannot change before the earliest wake.
      let next = Infinity;
      let anyBusy = false;
      for (let i = 0; i < n; i++) {
        if (awake[i] === 0) continue;
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
        // engine's busy + stall + idle is exactly `cycles`. Undo that step's accounting (one idle or stall cycle).
        for (let i = 0; i < n; i++) {
          const e = engines[i]!;
          if (awake[i] !== 0 && e.busy) this.accountStall(i, e, -1);
          else this.idleC[i]--;
        }
        if (partitioned) {
          this.quiescent = true;
          return 'quiescent';
        }
        return anyBusy ? 'deadlock' : 'done';
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
          if (awake[i] === 0) {
            this.idleC[i] += skipped;
            continue;
          }
          const e = engines[i]!;
          if (e.busy) this.accountStall(i, e, skipped);
          else this.idleC[i] += skipped;
        }
      }
      now = next;
    }
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
