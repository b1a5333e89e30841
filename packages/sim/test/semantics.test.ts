/**
 * Kernel semantics that make results independent of the registration order (Simulator phases, ordered commits,
 * timed links) and the target-neutral run-ahead window. Each property compares against a reference computed in
 * the test from the rule the kernel documents.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RunAheadWindow, Simulator, TimedLink, type Committer, type RunAheadModel, type SimEngine } from '@pyxis/sim';

/** A register chain: stage i copies stage i-1's value of the same cycle if it is in a later phase, else of the previous cycle. */
class Stage implements SimEngine {
  value = 0;
  readonly name: string;
  constructor(
    readonly i: number,
    readonly phase: number,
    private readonly prev: Stage | undefined,
    private readonly cycles: number,
  ) {
    this.name = `s${i}`;
  }
  get busy() {
    return false;
  }
  tick(now: number): boolean {
    if (now >= this.cycles) return false;
    this.value = this.prev ? this.prev.value : now + 1;
    return true;
  }
  nextWake() {
    return Infinity;
  }
  blockedReason() {
    return undefined;
  }
}

function shuffle<T>(a: T[], seed: number): T[] {
  const out = [...a];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('phases', () => {
  it('a value crosses every phase boundary in the same cycle and costs a cycle otherwise, whatever the registration order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }), fc.nat(), (phases, seed) => {
        // engines of one phase must not read each other's same-cycle writes: neighbours are in different phases
        fc.pre(phases.every((p, i) => i === 0 || p !== phases[i - 1]));
        const cycles = 20;
        const stages: Stage[] = [];
        phases.forEach((p, i) => stages.push(new Stage(i, p, stages[i - 1], cycles)));
        const sim = new Simulator();
        for (const s of shuffle(stages, seed)) sim.add(s);
        sim.run();
        // reference: the head holds `cycles` after the last tick (cycle cycles-1); stage i lags stage i-1 by one
        // cycle when its phase is earlier than stage i-1's
        let lag = 0;
        stages.forEach((s, i) => {
          if (i > 0 && phases[i]! < phases[i - 1]!) lag++;
          expect(s.value).toBe(cycles - lag);
        });
      }),
    );
  });
});

describe('ordered commits', () => {
  it('commits requested in a phase run after its ticks, in commitKey order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 10 }), fc.nat(), (keys, seed) => {
        const log: number[] = [];
        const sim = new Simulator();
        const engines = keys.map((k): SimEngine & Committer => {
          let done = false;
          const e: SimEngine & Committer = {
            name: `e${k}`,
            commitKey: k,
            busy: false,
            tick: () => {
              if (done) return false;
              done = true;
              log.push(-1); // a tick
              sim.requestCommit(e);
              return true;
            },
            commit: () => void log.push(k),
            nextWake: () => Infinity,
            blockedReason: () => undefined,
          };
          return e;
        });
        for (const e of shuffle(engines, seed)) sim.add(e);
        sim.run();
        expect(log).toEqual([...keys.map(() => -1), ...[...keys].sort((a, b) => a - b)]);
      }),
    );
  });
});

describe('TimedLink', () => {
  it('delivers in (cycle, sender key, send order) order at the start of its phase, and the kernel sleeps until then', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 50 }), lat: fc.integer({ min: 3, max: 40 }), key: fc.nat(5) }), { minLength: 1, maxLength: 30 }),
        (msgs) => {
          const got: Array<[number, number, number]> = [];
          const sim = new Simulator();
          const link = sim.addLink(new TimedLink<number>('l', 3, 1, (m, now) => got.push([now, msgs[m]!.key, m])));
          // a phase-1 engine that sees what the link delivered in the same cycle
          let seen = 0;
          sim.add({ name: 'rx', phase: 1, busy: false, tick: () => ((seen = got.length), false), nextWake: () => Infinity, blockedReason: () => undefined });
          // the sender (phase 0) sends message m at cycle msgs[m].at
          const order = msgs.map((_, i) => i).sort((a, b) => msgs[a]!.at - msgs[b]!.at);
          let next = 0;
          sim.add({
            name: 'tx',
            busy: false,
            tick: (now) => {
              let did = false;
              while (next < order.length && msgs[order[next]!]!.at === now) {
                const m = order[next++]!;
                link.send(now, now + msgs[m]!.lat, msgs[m]!.key, m);
                did = true;
              }
              return did;
            },
            nextWake: (now) => (next < order.length ? Math.max(now, msgs[order[next]!]!.at) : Infinity),
            blockedReason: () => undefined,
          });
          const r = sim.run();
          const want = order
            .map((m, seq) => ({ m, seq, t: msgs[m]!.at + msgs[m]!.lat, key: msgs[m]!.key }))
            .sort((a, b) => a.t - b.t || a.key - b.key || a.seq - b.seq)
            .map((x): [number, number, number] => [x.t, x.key, x.m]);
          expect(got).toEqual(want);
          expect(seen).toBe(got.length);
          expect(r.cycles).toBe(Math.max(...want.map((w) => w[0])) + 1);
          // idle skipping: a step per send or delivery cycle and the one after it, nothing in between
          expect(r.steps).toBeLessThanOrEqual(2 * new Set([...msgs.map((m) => m.at), ...want.map((w) => w[0])]).size + 1);
        },
      ),
    );
  });

  it('rejects a latency below its minimum, and a minimum below one cycle', () => {
    const l = new TimedLink<number>('l', 2, 0, () => {});
    expect(() => l.send(10, 11, 0, 1)).toThrow(/minimum latency/);
    expect(() => new TimedLink<number>('z', 0, 0, () => {})).toThrow(/>= 1/);
  });
});

describe('RunAheadWindow', () => {
  /** A model that makes progress on cycles where `busyAt(c)`, with one held-back event at cycle `eventAt`. */
  class Model implements RunAheadModel, SimEngine {
    readonly name = 'm';
    now = 0;
    flushed: number[] = [];
    private pending = -1;
    constructor(
      private readonly busyAt: (c: number) => boolean,
      private readonly end: number,
      private readonly eventAt: number,
    ) {}
    get busy() {
      return this.now < this.end;
    }
    step(c: number): boolean {
      this.now = c + 1;
      return this.busyAt(c);
    }
    tick(c: number): boolean {
      const r = this.step(c);
      if (c === this.eventAt && r) this.flushed.push(c);
      return r;
    }
    runAhead(from: number, limit: number, did: Uint8Array, mask: number): number {
      let c = from;
      for (; c < limit && c < this.end; c++) {
        did[c & mask] = this.step(c) ? 1 : 0;
        // an externally visible event is progress (a cycle without progress may be skipped by the kernel)
        if (c === this.eventAt && did[c & mask] === 1) {
          this.pending = c;
          return c + 1;
        }
      }
      return c;
    }
    flushDeferred(): void {
      if (this.pending >= 0) this.flushed.push(this.pending);
      this.pending = -1;
    }
    nextWake(now: number) {
      for (let c = now; c < this.end; c++) if (this.busyAt(c)) return c;
      return Infinity;
    }
    blockedReason() {
      return undefined;
    }
  }

  /** The engine a target would write: replay inside a window, open one when allowed. */
  function driven(m: Model, quantum: number, sim: Simulator): SimEngine {
    const w = new RunAheadWindow(quantum, sim);
    return {
      name: 'slot',
      // busy as of the global clock: after cycle now, the model is busy if it still has cycles to simulate from now+1
      get busy() {
        return w.covers(sim.now + 1) || m.busy;
      },
      tick: (now) => (w.covers(now) ? w.replay(now, m) : !m.busy ? false : quantum > 1 ? w.open(now, m, false) : m.tick(now)),
      nextWake: (now) => (w.covers(now) ? w.nextWake(now, m) : m.nextWake(now)),
      blockedReason: () => undefined,
    };
  }

  it('gives the lockstep statistics, end cycle and event cycles for every quantum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 2, max: 100 }), fc.nat(), (end, ev, q, salt) => {
        const busyAt = (c: number) => ((c * 2654435761 + salt) >>> 0) % 3 !== 0;
        const out = [1, q].map((quantum) => {
          const m = new Model(busyAt, end, ev);
          const sim = new Simulator();
          sim.add(driven(m, quantum, sim));
          const r = sim.run();
          return { cycles: r.cycles, stats: sim.engineStats(), flushed: m.flushed };
        });
        expect(out[1]!.cycles).toBe(out[0]!.cycles);
        expect(out[1]!.flushed).toEqual(out[0]!.flushed);
        expect(out[1]!.stats).toEqual(out[0]!.stats);
      }),
    );
  });
});
