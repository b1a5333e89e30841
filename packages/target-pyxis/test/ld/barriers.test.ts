import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocateBarriers, BarrierError, reducedPredecessors, type BarrierInput, type BarrierPlan } from '../../src/ld/barriers.js';
import { mulberry, simulate } from './refmodel.js';

const QUEUES = [0, 1, 2, 0x10, 0x11, 0x15];

const dagArb = fc
  .record({
    n: fc.integer({ min: 1, max: 45 }),
    density: fc.double({ min: 0, max: 0.9, noNaN: true }),
    seed: fc.integer(),
    clusters: fc.integer({ min: 1, max: 2 }),
  })
  .map(({ n, density, seed, clusters }) => {
    const r = mulberry(seed);
    const trips = Array.from({ length: n }, (_, i) => {
      // Non-UIE queues get few edges so the allocator rarely needs no-ops there.
      const queue = QUEUES[Math.floor(r() * QUEUES.length)]!;
      return { name: `t${i}`, cluster: Math.floor(r() * clusters), queue, canNoop: queue < 12 };
    });
    const deps: Array<[number, number]> = [];
    for (let c = 0; c < n; c++) for (let p = 0; p < c; p++) if (r() < density) deps.push([c, p]);
    return { input: { trips, deps } as BarrierInput, seed };
  });

function ancestors(n: number, deps: Array<[number, number]>): Array<Set<number>> {
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (const [c, p] of deps) preds[c]!.push(p);
  const anc: Array<Set<number>> = [];
  for (let v = 0; v < n; v++) {
    const s = new Set<number>();
    for (const p of preds[v]!) {
      s.add(p);
      for (const a of anc[p]!) s.add(a);
    }
    anc.push(s);
  }
  return anc;
}

let reusedPlans = 0;
function checkPlan(input: BarrierInput, simSeed: number, maxBarrierId?: number): void {
  let plan: BarrierPlan;
  try {
    plan = allocateBarriers(input, maxBarrierId ? { maxBarrierId } : {});
  } catch (e) {
    // Only legal refusals: non-UIE engines needing no-ops, or no safely reusable id.
    expect(e).toBeInstanceOf(BarrierError);
    expect(maxBarrierId ? ['LD0402', 'LD0404', 'LD0403'] : ['LD0402', 'LD0404']).toContain((e as BarrierError).code);
    return;
  }
  if (plan.barriers.some((b) => b.config_wait)) reusedPlans++;
  for (const t of plan.trips) {
    expect(t.notify.length).toBeLessThanOrEqual(8);
    expect(t.wait).toBeGreaterThanOrEqual(0);
    expect(t.wait).toBeLessThanOrEqual(maxBarrierId ?? 1023);
  }
  for (const b of plan.barriers) {
    expect(b.id).toBeGreaterThanOrEqual(1);
    expect(b.id).toBeLessThanOrEqual(maxBarrierId ?? 1023);
    expect(b.notify_count).toBeGreaterThanOrEqual(1);
    expect(b.notify_count).toBeLessThanOrEqual(31);
    expect(b.wait_count).toBeGreaterThanOrEqual(1);
    expect(b.wait_count).toBeLessThanOrEqual(31);
  }
  // every input trip appears once
  const origins = plan.trips.filter((t) => t.origin >= 0).map((t) => t.origin).sort((a, b) => a - b);
  expect(origins).toEqual(input.trips.map((_, i) => i));
  for (let run = 0; run < 3; run++) {
    const sim = simulate(plan, mulberry(simSeed + run * 7919));
    // every trip (incl. no-ops) launched exactly once
    plan.trips.forEach((_, i) => expect(sim.launches.get(i)).toBe(1));
    // dependency order on the original trips
    const planned = new Map<number, number>();
    plan.trips.forEach((t, i) => t.origin >= 0 && planned.set(t.origin, i));
    const anc = ancestors(input.trips.length, input.deps);
    input.trips.forEach((_, c) => {
      for (const p of anc[c]!) expect(sim.completeTime.get(planned.get(p)!)!).toBeLessThan(sim.launchTime.get(planned.get(c)!)!);
    });
    // every barrier freed exactly once per use of its id, and back to zero
    for (const b of plan.barriers) {
      const rb = sim.tables.get(`${b.cluster}:${b.id}`)!;
      expect(rb.frees).toBe(plan.barriers.filter((x) => x.cluster === b.cluster && x.id === b.id).length);
      expect(rb.notify_count).toBe(0);
      expect(rb.wait_count).toBe(0);
      expect(rb.ref_counts_valid).toBe(false);
    }
  }
}

describe('allocateBarriers: reference model of chip §11.6.2', () => {
  it('releases every trip exactly once, after all its dependencies completed, for random DAGs', () => {
    fc.assert(fc.property(dagArb, fc.integer(), ({ input }, simSeed) => checkPlan(input, simSeed)), { numRuns: 150 });
  });
  it('with few barrier ids, reused ids (config descriptors waiting on an older barrier) stay correct', () => {
    fc.assert(fc.property(dagArb, fc.integer(), fc.integer({ min: 2, max: 6 }), ({ input }, simSeed, maxId) => checkPlan(input, simSeed, maxId)), { numRuns: 120 });
    // layered pipelines (each trip depends on one or two of the previous few): reuse must actually happen
    reusedPlans = 0;
    const pipeArb = fc.record({ n: fc.integer({ min: 8, max: 40 }), seed: fc.integer(), queues: fc.integer({ min: 1, max: 4 }) }).map(({ n, seed, queues }) => {
      const r = mulberry(seed);
      const trips = Array.from({ length: n }, (_, i) => ({ name: `t${i}`, cluster: 0, queue: i % queues, canNoop: true }));
      const deps: Array<[number, number]> = [];
      for (let c = 1; c < n; c++) {
        deps.push([c, c - 1]);
        if (c > 2 && r() < 0.5) deps.push([c, c - 1 - Math.floor(r() * 3)]);
      }
      return { trips, deps } as BarrierInput;
    });
    fc.assert(fc.property(pipeArb, fc.integer(), fc.integer({ min: 3, max: 6 }), (input, simSeed, maxId) => checkPlan(input, simSeed, maxId)), { numRuns: 120, seed: 20261122 });
    expect(reusedPlans).toBeGreaterThan(30);
  });
});

describe('allocateBarriers: golden fork/join graphs (chip Figure 11-6 patterns)', () => {
  const T = (name: string, queue = 0, cluster = 0) => ({ name, cluster, queue, canNoop: queue < 12 });
  it('fork: one producer, three consumers -> one barrier, notify 1, wait 3', () => {
    const plan = allocateBarriers({ trips: [T('a', 0), T('b', 1), T('c', 2), T('d', 3)], deps: [[1, 0], [2, 0], [3, 0]] });
    expect(plan.barriers).toEqual([{ cluster: 0, id: 1, notify_count: 1, wait_count: 3, producers: [0], consumers: [1, 2, 3], config_wait: 0 }]);
    expect(plan.trips.map((t) => [t.wait, t.notify])).toEqual([[0, [1]], [1, []], [1, []], [1, []]]);
  });
  it('join: three producers, one consumer -> one barrier, notify 3, wait 1', () => {
    const plan = allocateBarriers({ trips: [T('a', 0), T('b', 1), T('c', 0x10), T('d', 3)], deps: [[3, 0], [3, 1], [3, 2]] });
    expect(plan.barriers).toEqual([{ cluster: 0, id: 1, notify_count: 3, wait_count: 1, producers: [0, 1, 2], consumers: [3], config_wait: 0 }]);
    expect(plan.trips[3]!.wait).toBe(1);
  });
  it('diamond: a -> {b, c} -> d, plus redundant a -> d removed by transitive reduction', () => {
    const plan = allocateBarriers({ trips: [T('a', 0), T('b', 1), T('c', 2), T('d', 3)], deps: [[1, 0], [2, 0], [3, 1], [3, 2], [3, 0]] });
    expect(plan.barriers.map((b) => [b.id, b.notify_count, b.wait_count])).toEqual([[1, 1, 2], [2, 2, 1]]);
    expect(plan.trips.map((t) => t.wait)).toEqual([0, 1, 1, 2]);
    expect(plan.trips.map((t) => t.notify)).toEqual([[1], [2], [2], []]);
  });
  it('cross-cluster: the barrier lives in the consumer cluster, notify uses {cluster, id}', () => {
    const plan = allocateBarriers({ trips: [T('a', 0, 0), T('b', 0, 2)], deps: [[1, 0]] });
    expect(plan.barriers[0]).toMatchObject({ cluster: 2, id: 1 });
    expect(plan.trips[0]!.notify).toEqual([(2 << 10) | 1]);
  });
  it('a producer with 10 distinct consumer groups gets a no-op trip after it (chip §11.4.2)', () => {
    const trips = [T('p', 0)];
    const deps: Array<[number, number]> = [];
    // 10 consumers on UIE 1 each also waiting on a private producer on UIE 2 -> 10 distinct barriers
    for (let i = 0; i < 10; i++) {
      trips.push(T(`x${i}`, 2));
      trips.push(T(`c${i}`, 1));
      deps.push([trips.length - 1, 0], [trips.length - 1, trips.length - 2]);
    }
    const plan = allocateBarriers({ trips, deps });
    expect(plan.trips[0]!.notify).toHaveLength(8);
    expect(plan.trips[1]).toMatchObject({ name: 'p.notify0', queue: 0, origin: -1, wait: 0 });
    expect(plan.trips[1]!.notify).toHaveLength(2);
  });
  it('rejects > 8 notifies on a DMA producer and a deadlocking queue order', () => {
    const trips = [T('p', 0x10)];
    const deps: Array<[number, number]> = [];
    for (let i = 0; i < 9; i++) {
      trips.push(T(`x${i}`, 2), T(`c${i}`, 1));
      deps.push([trips.length - 1, 0], [trips.length - 1, trips.length - 2]);
    }
    expect(() => allocateBarriers({ trips, deps })).toThrow(/notify 9 barriers/);
    expect(() => allocateBarriers({ trips: [T('b', 0), T('a', 0)], deps: [[0, 1]] })).toThrow(/deadlock/);
  });
  it('a join of 40 producers is split with a no-op (counts <= 31)', () => {
    const trips = Array.from({ length: 40 }, (_, i) => T(`p${i}`, 1 + (i % 3)));
    trips.push(T('c', 0));
    const deps = trips.slice(0, 40).map((_, i) => [40, i] as [number, number]);
    const plan = allocateBarriers({ trips, deps });
    expect(plan.barriers.map((b) => b.notify_count).sort()).toEqual([31, 9]);
    const c = plan.trips.findIndex((t) => t.name === 'c');
    expect(plan.trips[c - 1]).toMatchObject({ name: 'c.join0', origin: -1 });
  });
  it('transitive reduction keeps only direct predecessors', () => {
    expect(reducedPredecessors(4, [[1, 0], [2, 1], [2, 0], [3, 2], [3, 0]])).toEqual([[], [0], [1], [2]]);
  });
});
