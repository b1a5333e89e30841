/**
 * The kernel accounts engines that cannot act lazily (lazyEngines.ts: passive engines asleep, `timedWake` engines
 * asleep until their wake cycle, engines replaying promised progress after `attachSkip`, and whole stretches of
 * steps in which nothing is ticked). This file checks that against an eager reference kernel written here from the
 * documented rules (docs/timing-model.md "Kernel semantics"): every cycle ticks every engine in phase order, a
 * passive engine is skipped while asleep (counted idle), a skipping engine is counted busy without a tick, a
 * `timedWake` engine is an ordinary engine ticked every cycle, and a step in which nothing moved jumps to the
 * earliest `nextWake`. On random engine schedules (drivers handing jobs to passive workers directly or through
 * commits, power-like timed engines, run-ahead-like skippers, stuck jobs that deadlock, --max-cycles stops and a
 * resumed run) both must give the same stop reason, cycles, kernel steps, per-engine busy / stall / idle (with stall
 * reasons) and the same engine state.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runPartitioned, Simulator, TimedLink, type Committer, type SimEngine } from '@pyxis/sim';

interface Kernel {
  now: number;
  requestCommit(c: Committer): void;
}

/** Deterministic per-cycle "can it move" pattern of a worker (about 2 cycles in 3 move). */
const moves = (now: number, salt: number) => ((Math.imul(now + 1, 0x9e3779b1) ^ salt) >>> 0) % 3 !== 0;

/**
 * Works through jobs (busy cycles); stalls on some cycles; a stuck job never moves (deadlock). `sleepy`: stuck with no
 * job, it promises to do nothing until given work (`stallSleep`; the kernel counts its stall cycles lazily).
 */
class Worker implements SimEngine {
  readonly stallReasons = ['pattern', 'stuck'];
  jobs: number[] = [];
  stuck = false;
  done = 0;
  ticksWhileIdle = 0;
  private wake?: () => void;
  constructor(
    readonly name: string,
    readonly phase: number,
    readonly passive: boolean,
    private readonly salt: number,
    private readonly sleepy = false,
  ) {}
  attachWake(w: () => void) {
    this.wake = w;
  }
  stallSleep() {
    const r = this.sleepy && this.stuck && this.jobs.length === 0;
    if (r) stallSleeps++;
    return r;
  }
  give(len: number, stuck: boolean) {
    if (stuck) this.stuck = true;
    else this.jobs.push(len);
    this.wake?.();
  }
  get busy() {
    return this.jobs.length > 0 || this.stuck;
  }
  tick(now: number): boolean {
    if (!this.busy) {
      this.ticksWhileIdle++;
      return false;
    }
    if (this.jobs.length === 0 || !moves(now, this.salt)) return false;
    if (--this.jobs[0]! === 0) {
      this.jobs.shift();
      this.done++;
    }
    return true;
  }
  nextWake(now: number) {
    return this.jobs.length > 0 ? now : Infinity;
  }
  stallCode() {
    return this.jobs.length === 0 && this.stuck ? 1 : 0;
  }
  blockedReason() {
    return this.busy ? 'working' : undefined;
  }
}

/** GrantedPower-like: steps `level` toward `target` at most once per `period` cycles; never busy (apm.ts's shape). */
class Stepper implements SimEngine {
  readonly passive = true;
  readonly timedWake = true;
  level = 0;
  target = 0;
  steps = 0;
  private nextAt = 0;
  private wake?: () => void;
  constructor(
    readonly name: string,
    readonly phase: number,
    private readonly period: number,
  ) {}
  attachWake(w: () => void) {
    this.wake = w;
  }
  request(d: number, now: number) {
    this.target += d;
    if (this.nextAt <= now) this.nextAt = now + this.period;
    this.wake?.();
  }
  get busy() {
    return false;
  }
  tick(now: number): boolean {
    if (now < this.nextAt || this.level === this.target) return false;
    this.level += this.target > this.level ? 1 : -1;
    this.nextAt = now + this.period;
    this.steps++;
    return true;
  }
  nextWake(now: number) {
    return this.level === this.target ? Infinity : Math.max(now, this.nextAt);
  }
  blockedReason() {
    return undefined;
  }
}

/**
 * Run-ahead-like: each tick with work promises progress for the next `window - 1` cycles (`attachSkip`); with
 * `lateStart` the promising tick itself makes no progress (a window whose first cycle stalls, runAhead.ts `open`).
 * `resumable`: new work ends a running promise (`resume`, as a trip start ends a UIE's deferred VPU-only cycles):
 * the promised units from the cycle the kernel ticks it again are given back.
 */
class Skipper implements SimEngine {
  left = 0;
  replayed = 0;
  ticks = 0;
  private skip?: (until: number) => void;
  private resume?: () => number;
  private wake?: () => void;
  private promisedTo = 0;
  resumed = 0;
  constructor(
    readonly name: string,
    readonly phase: number,
    readonly passive: boolean,
    private readonly window: number,
    private readonly lateStart = false,
    private readonly resumable = false,
  ) {}
  attachSkip(s: (until: number) => void, r: () => number) {
    this.skip = s;
    this.resume = r;
  }
  attachWake(w: () => void) {
    this.wake = w;
  }
  give(len: number) {
    this.left += len;
    if (this.resumable) {
      const at = this.resume?.() ?? -1;
      if (at >= 0 && at < this.promisedTo) {
        const back = this.promisedTo - at;
        this.left += back;
        this.replayed -= back;
        this.promisedTo = at;
        this.resumed++;
        resumedTotal++;
      }
    }
    this.wake?.();
  }
  /** Busy while it holds work or replays a promise (as a UIE slot holds its trip until the window's last cycle). */
  get busy() {
    return this.left > 0 || this.promising;
  }
  private promising = false;
  tick(now: number): boolean {
    if (now < this.promisedTo) throw new Error(`${this.name} ticked at ${now} inside its promise (to ${this.promisedTo})`);
    this.ticks++;
    this.promising = false;
    if (this.left === 0) return false;
    // this cycle (unless lateStart) and the promised ones do one unit each; the promise never outlives the work
    const late = this.lateStart && this.left > 1 ? 1 : 0;
    const w = Math.min(this.window, this.left + late);
    this.left -= w - late;
    this.replayed += w - 1;
    if (w > 1) {
      this.promisedTo = now + w;
      this.promising = true;
      this.skip?.(now + w);
    }
    return late === 0;
  }
  nextWake(now: number) {
    return now < this.promisedTo || this.left > 0 ? now : Infinity;
  }
  blockedReason() {
    return this.busy ? 'skipping' : undefined;
  }
}

/** Promises ended early by `resume`, and stalled sleeps (`stallSleep`), over all runs (the property is not vacuous). */
let resumedTotal = 0;
let stallSleeps = 0;

interface Give {
  at: number;
  to: number;
  len: number;
  stuck: boolean;
  viaCommit: boolean;
  /** 0: handed directly; else sent through the driver's timed link with this latency. */
  viaLink: number;
}

/** Hands out the scripted jobs at their cycles (directly in its tick, in a commit at the end of its phase, or by link). */
class Driver implements SimEngine, Committer {
  readonly commitKey: number;
  readonly passive: boolean;
  readonly timedWake: boolean;
  private k = 0;
  private pending: Give[] = [];
  kernel!: Kernel;
  /** Delivers in `linkPhase` (the kernel's link delivery at the start of that phase). */
  readonly link: TimedLink<Give>;
  constructor(
    readonly name: string,
    readonly phase: number,
    private readonly script: Give[],
    private readonly targets: Array<Worker | Stepper | Skipper>,
    key: number,
    readonly busyWhileWaiting: boolean,
    linkPhase: number,
    /** Sleeps between its script's cycles (a timedWake engine; only when not busy while waiting, as passive requires). */
    timed: boolean,
  ) {
    this.commitKey = key;
    this.passive = timed && !busyWhileWaiting;
    this.timedWake = this.passive;
    this.link = new TimedLink<Give>(`${name}.link`, 1, linkPhase, (g, now) => this.hand(g, now));
  }
  get busy() {
    return this.busyWhileWaiting && this.k < this.script.length;
  }
  private hand(g: Give, now: number) {
    const t = this.targets[g.to % this.targets.length]!;
    if (t instanceof Worker) t.give(g.len, g.stuck);
    else if (t instanceof Skipper) t.give(g.len);
    else t.request(g.len % 4 === 0 ? g.len : g.len % 2 === 0 ? 1 : -1, now);
  }
  tick(now: number): boolean {
    let did = false;
    while (this.k < this.script.length && this.script[this.k]!.at <= now) {
      const g = this.script[this.k++]!;
      if (g.viaLink > 0) this.link.send(now, now + g.viaLink, this.commitKey, g);
      else if (g.viaCommit) {
        if (this.pending.length === 0) this.kernel.requestCommit(this);
        this.pending.push(g);
      } else this.hand(g, now);
      did = true;
    }
    return did;
  }
  commit(now: number) {
    for (const g of this.pending) this.hand(g, now);
    this.pending = [];
  }
  nextWake(now: number) {
    return this.k < this.script.length ? Math.max(now, this.script[this.k]!.at) : Infinity;
  }
  blockedReason() {
    return this.busy ? 'waiting for its next cycle' : undefined;
  }
}

interface Acc {
  busy: number;
  stall: number;
  idle: number;
  reasons: number[];
}

/** The eager reference: every engine every cycle, in phase order (see the file comment). */
class EagerKernel implements Kernel {
  now = 0;
  steps = 0;
  private readonly acc: Acc[];
  private readonly awake: boolean[];
  private readonly skipUntil: number[];
  /** The cycle each engine's position was last passed (its tick, skip or idle count). */
  private readonly seen: number[];
  private readonly order: number[];
  private commits: Committer[] = [];
  constructor(
    private readonly engines: SimEngine[],
    private readonly links: Array<TimedLink<unknown>>,
  ) {
    this.acc = engines.map((e) => ({ busy: 0, stall: 0, idle: 0, reasons: new Array(Math.max(1, e.stallReasons?.length ?? 0)).fill(0) }));
    this.awake = engines.map(() => true);
    this.skipUntil = engines.map(() => 0);
    this.seen = engines.map(() => -1);
    this.order = engines.map((_, i) => i).sort((a, b) => (engines[a]!.phase ?? 0) - (engines[b]!.phase ?? 0) || a - b);
    engines.forEach((e, i) => {
      e.attachWake?.(() => {
        this.awake[i] = true;
      });
      e.attachSkip?.(
        (until) => {
          this.skipUntil[i] = until;
        },
        () => {
          // a running promise ends: ticked this cycle when its position has not come yet, else from the next
          if (this.skipUntil[i]! <= this.now) return -1;
          const at = this.seen[i] === this.now ? this.now + 1 : this.now;
          this.skipUntil[i] = at;
          return at;
        },
      );
    });
  }
  /** A timedWake engine is ticked every cycle here (its sleep is the optimisation under test). */
  private sleeps(i: number) {
    const e = this.engines[i]!;
    return e.passive === true && !e.timedWake;
  }
  requestCommit(c: Committer) {
    this.commits.push(c);
  }
  private stall(i: number, n: number) {
    const e = this.engines[i]!;
    this.acc[i]!.stall += n;
    const code = e.stallCode?.() ?? 0;
    this.acc[i]!.reasons[code]! += n;
  }
  /** Counts `n` cycles of every engine as the skipped cycles of an idle jump (or -1: the undone last step). */
  private accountFlat(n: number) {
    this.engines.forEach((e, i) => {
      if (this.awake[i] && e.busy) this.stall(i, n);
      else this.acc[i]!.idle += n;
    });
  }
  run(maxCycles = Infinity): { reason: string; cycles: number; steps: number } {
    const phases = [...new Set([...this.engines.map((e) => e.phase ?? 0), ...this.links.map((l) => l.phase)])].sort((a, b) => a - b);
    for (;;) {
      const now = this.now;
      if (now >= maxCycles) return { reason: 'max-cycles', cycles: now, steps: this.steps };
      this.steps++;
      let progressed = false;
      for (const ph of phases) {
        for (const l of this.links) if (l.phase === ph && l.deliverDue(now) > 0) progressed = true;
        for (const i of this.order) {
          const e = this.engines[i]!;
          if ((e.phase ?? 0) !== ph) continue;
          this.seen[i] = now;
          if (!this.awake[i]) {
            this.acc[i]!.idle++;
            continue;
          }
          if (this.skipUntil[i]! > now) {
            this.acc[i]!.busy++;
            progressed = true;
            continue;
          }
          if (e.tick(now)) {
            this.acc[i]!.busy++;
            progressed = true;
          } else if (e.busy) this.stall(i, 1);
          else {
            this.acc[i]!.idle++;
            if (this.sleeps(i)) this.awake[i] = false;
          }
        }
        while (this.commits.length > 0) {
          const q = this.commits.sort((a, b) => a.commitKey - b.commitKey);
          this.commits = [];
          for (const c of q) c.commit(now);
          progressed = true;
        }
      }
      if (progressed) {
        this.now = now + 1;
        continue;
      }
      let next = Infinity;
      let anyBusy = false;
      this.engines.forEach((e, i) => {
        if (!this.awake[i]) return;
        if (e.busy) anyBusy = true;
        else if (this.sleeps(i)) return;
        const w = Math.max(e.nextWake(now + 1), now + 1);
        if (w < next) next = w;
      });
      for (const l of this.links) if (l.nextAt < next) next = Math.max(l.nextAt, now + 1);
      if (next === Infinity) {
        this.accountFlat(-1);
        return { reason: anyBusy ? 'deadlock' : 'done', cycles: now, steps: this.steps };
      }
      if (next > maxCycles) next = maxCycles;
      if (next - now - 1 > 0) this.accountFlat(next - now - 1);
      this.now = next;
    }
  }
  stats() {
    return this.engines.map((e, i) => {
      const a = this.acc[i]!;
      const names = e.stallReasons ?? ['stalled'];
      const reasons: Record<string, number> = {};
      a.reasons.forEach((c, k) => {
        if (c > 0) reasons[names[k] ?? 'stalled'] = c;
      });
      return { name: e.name, busy: a.busy, stall: a.stall, idle: a.idle, stallReasons: reasons };
    });
  }
}

const give = fc.record({
  at: fc.integer({ min: 0, max: 400 }),
  to: fc.nat(20),
  len: fc.integer({ min: 1, max: 40 }),
  stuck: fc.constantFrom(false, false, false, false, false, false, false, false, false, true),
  viaCommit: fc.boolean(),
  viaLink: fc.constantFrom(0, 0, 1, 3, 17),
});
const world = fc.record({
  workers: fc.array(fc.record({ phase: fc.nat(2), passive: fc.constantFrom(true, true, true, false), salt: fc.nat(1000), sleepy: fc.boolean() }), { minLength: 1, maxLength: 5 }),
  steppers: fc.array(fc.record({ phase: fc.nat(2), period: fc.integer({ min: 1, max: 70 }) }), { maxLength: 2 }),
  skippers: fc.array(fc.record({ phase: fc.nat(2), passive: fc.boolean(), window: fc.integer({ min: 1, max: 90 }), late: fc.boolean(), resumable: fc.boolean() }), { maxLength: 4 }),
  drivers: fc.array(fc.record({ phase: fc.nat(2), busy: fc.boolean(), timed: fc.boolean(), linkPhase: fc.nat(3), script: fc.array(give, { maxLength: 12 }) }), { minLength: 1, maxLength: 3 }),
  window: fc.integer({ min: 1, max: 64 }),
  stops: fc.array(fc.integer({ min: 1, max: 600 }), { maxLength: 2 }),
  seed: fc.nat(),
});
type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

function build(w: World) {
  const workers = w.workers.map((x, i) => new Worker(`w${i}`, x.phase, x.passive, x.salt, x.sleepy));
  const steppers = w.steppers.map((x, i) => new Stepper(`p${i}`, x.phase, x.period));
  const skippers = w.skippers.map((x, i) => new Skipper(`k${i}`, x.phase, x.passive, x.window, x.late, x.resumable));
  const targets = [...workers, ...steppers, ...skippers];
  const drivers = w.drivers.map((x, i) => new Driver(`d${i}`, x.phase, [...x.script].sort((a, b) => a.at - b.at), targets, i, x.busy, x.linkPhase, x.timed));
  const all: SimEngine[] = [...targets, ...drivers];
  // a registration order drawn from the seed (the same for both kernels)
  let s = w.seed | 1;
  for (let i = all.length - 1; i > 0; i--) {
    s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) >>> 0;
    const j = s % (i + 1);
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return {
    all,
    drivers,
    links: drivers.map((d) => d.link as TimedLink<unknown>),
    attach(k: Kernel) {
      for (const d of drivers) d.kernel = k;
    },
    state: () => ({
      workers: workers.map((x) => [x.done, x.jobs.length, x.stuck]),
      steppers: steppers.map((x) => [x.level, x.target, x.steps]),
      skippers: skippers.map((x) => [x.left, x.replayed, x.resumed]),
    }),
  };
}

describe('lazy accounting in the kernel', () => {
  it('gives the eager reference kernel’s cycles, steps, per-engine statistics and engine state on random schedules', () => {
    fc.assert(
      fc.property(world, (w) => {
        const stops = [...w.stops].sort((a, b) => a - b);
        // lazy: the kernel under test
        const a = build(w);
        const sim = new Simulator();
        a.attach(sim);
        for (const e of a.all) sim.add(e);
        for (const l of a.links) sim.addLink(l);
        const lazyRuns = [...stops.map((m) => sim.run({ maxCycles: m })), sim.run({ maxCycles: 5000 })].map((r) => ({ reason: r.reason, cycles: r.cycles, steps: r.steps }));
        const lazyStats = sim.engineStats();
        // eager reference on a fresh copy of the same world
        const b = build(w);
        const ref = new EagerKernel(b.all, b.links);
        b.attach(ref);
        const refRuns = [...stops.map((m) => ref.run(m)), ref.run(5000)];
        expect(lazyRuns).toEqual(refRuns);
        expect(lazyStats).toEqual(ref.stats());
        expect(a.state()).toEqual(b.state());
        for (const st of lazyStats) expect(st.busy + st.stall + st.idle, st.name).toBe(lazyRuns.at(-1)!.cycles);
        // the same world in windows of `w.window` cycles (Simulator.advance / finishAt, as partitioned runs use them)
        const c = build(w);
        const part = new Simulator();
        c.attach(part);
        for (const e of c.all) part.add(e);
        for (const l of c.links) part.addLink(l);
        const pr = runPartitioned([part], [], { lookahead: w.window, maxCycles: 5000 });
        expect({ reason: pr.reason, cycles: pr.cycles }).toEqual({ reason: refRuns.at(-1)!.reason, cycles: refRuns.at(-1)!.cycles });
        if (stops.length === 0) {
          expect(part.engineStats()).toEqual(lazyStats);
          expect(c.state()).toEqual(b.state());
        }
      }),
      { numRuns: Number(process.env['PYXIS_PROPERTY_RUNS'] ?? 300) },
    );
    expect(resumedTotal).toBeGreaterThan(0);
    expect(stallSleeps).toBeGreaterThan(0);
  });

  it('jumps over steps in which only promised progress happens: the skipper is ticked once per window', () => {
    const sim = new Simulator();
    const k = new Skipper('k', 0, false, 100);
    sim.add(k);
    k.give(1000);
    const r = sim.run();
    // 1000 steps with progress (990 of them jumped over) and the final step that finds nothing to do
    expect(r).toMatchObject({ reason: 'done', cycles: 1000, steps: 1001 });
    expect(k.replayed).toBe(990);
    expect(k.ticks).toBe(11);
    expect(sim.engineStats()[0]).toMatchObject({ busy: 1000, stall: 0, idle: 0 });
  });
});
