/**
 * Partitioned runs (kernel/partitioned.ts): a system of nodes that pass tokens over timed links gives the same
 * cycles and the same per-engine busy / stall / idle figures whether all nodes share one Simulator or each node is a
 * partition of its own, for any lookahead up to the smallest link latency and any partition order.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runPartitioned, Simulator, TimedLink, type SimEngine } from '@pyxis/sim';

interface Token { hops: number; work: number }

/** A node: works `work` cycles on each token it holds (FIFO), then forwards it to `next` with latency `lat`. */
class Node implements SimEngine {
  readonly name: string;
  readonly queue: Token[] = [];
  left = 0;
  out: TimedLink<Token> | null = null;
  finished = 0;
  /** A local timer: the node also wakes at `timer` and works one cycle (an event with no message). */
  constructor(readonly id: number, readonly lat: number, public timer: number) {
    this.name = `n${id}`;
  }
  get busy() {
    return this.queue.length > 0 || this.timer >= 0;
  }
  tick(now: number): boolean {
    if (this.timer >= 0 && now >= this.timer) {
      this.timer = -1;
      return true;
    }
    const t = this.queue[0];
    if (!t) return false;
    if (this.left === 0) this.left = t.work;
    if (--this.left > 0) return true;
    this.queue.shift();
    if (t.hops > 0) this.out!.send(now, now + this.lat + (t.work % 3), this.id, { hops: t.hops - 1, work: t.work });
    else this.finished++;
    return true;
  }
  nextWake(now: number): number {
    if (this.queue.length > 0) return now;
    return this.timer >= 0 ? Math.max(now, this.timer) : Infinity;
  }
  blockedReason() {
    return this.timer >= 0 ? `timer ${this.timer}` : undefined;
  }
}

interface Case { lats: number[]; timers: number[]; tokens: Array<{ at: number; hops: number; work: number }> }

function build(c: Case, partitioned: boolean) {
  const n = c.lats.length;
  const sims = partitioned ? c.lats.map(() => new Simulator()) : [new Simulator()];
  const nodes = c.lats.map((lat, i) => new Node(i, lat, c.timers[i]!));
  const links: Array<TimedLink<Token>> = [];
  nodes.forEach((node, i) => {
    const sim = sims[partitioned ? i : 0]!;
    sim.add(node);
    const link = new TimedLink<Token>(`to n${i}`, Math.min(...c.lats), 0, (t) => node.queue.push(t));
    link.crossPartition = partitioned;
    sim.addLink(link);
    links.push(link);
  });
  nodes.forEach((node, i) => (node.out = links[(i + 1) % n]!));
  // Initial tokens: sent by a (virtual) sender key n + k at cycle at - minLatency.
  c.tokens.forEach((t, k) => links[k % n]!.send(0, t.at + Math.min(...c.lats), n + k, { hops: t.hops, work: t.work }));
  for (const l of links) l.flushOutbox();
  return { sims, nodes, links };
}

function statsOf(sims: Simulator[]) {
  return sims.flatMap((s) => s.engineStats()).sort((a, b) => a.name.localeCompare(b.name));
}

const caseArb = fc
  .integer({ min: 2, max: 5 })
  .chain((n) =>
    fc.record({
      lats: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: n, maxLength: n }),
      timers: fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 400 })), { minLength: n, maxLength: n }),
      tokens: fc.array(fc.record({ at: fc.integer({ min: 0, max: 100 }), hops: fc.integer({ min: 0, max: 12 }), work: fc.integer({ min: 1, max: 9 }) }), { minLength: 0, maxLength: 6 }),
    }),
  );

describe('runPartitioned', () => {
  it('gives the single-simulator cycles and statistics for any lookahead and partition order', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 40 }), fc.integer(), (c, la, seed) => {
        const ref = build(c, false);
        const r = ref.sims[0]!.run();
        const lookahead = Math.min(la, ...c.lats);
        const part = build(c, true);
        // Partition order: a rotation drawn from the seed (results must not depend on it).
        const k = Math.abs(seed) % part.sims.length;
        const order = [...part.sims.slice(k), ...part.sims.slice(0, k)];
        const p = runPartitioned(order, part.links as Array<TimedLink<unknown>>, { lookahead });
        expect(p.reason).toBe(r.reason);
        expect(p.cycles).toBe(r.cycles);
        expect(statsOf(part.sims)).toEqual(statsOf(ref.sims));
        expect(part.nodes.map((x) => x.finished)).toEqual(ref.nodes.map((x) => x.finished));
      }),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 150) },
    );
  });

  it('stops at maxCycles like a single simulator and reports a deadlock when work remains with nothing in flight', () => {
    const c: Case = { lats: [5, 5], timers: [-1, -1], tokens: [{ at: 0, hops: 100, work: 4 }] };
    const ref = build(c, false);
    const r = ref.sims[0]!.run({ maxCycles: 50 });
    const part = build(c, true);
    const p = runPartitioned(part.sims, part.links as Array<TimedLink<unknown>>, { lookahead: 5, maxCycles: 50 });
    expect([p.reason, p.cycles]).toEqual([r.reason, r.cycles]);
    expect(p.reason).toBe('max-cycles');
    expect(statsOf(part.sims)).toEqual(statsOf(ref.sims));
    // A node holding a token it can never work on (it waits on others): busy with nothing in flight.
    const d = build({ lats: [3, 3], timers: [-1, -1], tokens: [] }, true);
    d.nodes[1]!.queue.push({ hops: 0, work: 0 });
    d.nodes[1]!.left = 0;
    d.nodes[1]!.tick = () => false;
    d.nodes[1]!.nextWake = () => Infinity;
    const q = runPartitioned(d.sims, d.links as Array<TimedLink<unknown>>, { lookahead: 3 });
    expect(q.reason).toBe('deadlock');
  });

  it('refuses a lookahead above a cross link latency', () => {
    const part = build({ lats: [4, 9], timers: [-1, -1], tokens: [] }, true);
    expect(() => runPartitioned(part.sims, part.links as Array<TimedLink<unknown>>, { lookahead: 5 })).toThrow(/below the lookahead/);
  });
});
