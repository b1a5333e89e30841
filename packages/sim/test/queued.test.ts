/**
 * Work-queue runs of independent partitions (kernel/queued.ts): random sets of independent token rings (one ring per
 * partition, fixtures/independentRings.mjs) give, for any thread count 1..4 and with or without a maxCycles stop,
 * exactly the cycles, stop, per-partition statistics and results of runPartitioned over the same partitions (the
 * in-process reference, itself proven equal to one Simulator, partitioned.test.ts), in partition order; every
 * partition runs once, on a thread the result names. A partition that throws, on a worker or on the calling thread,
 * or whose worker exits, ends the run with that partition named, never a hang.
 *
 * The worker threads load the built package (packages/sim/dist, made by `npm ci` / `tsc -b`).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EARLY_WORKERS, PartitionFailure, partitionWorkerUrl, prestartWorkers, registerPartitionModule, releaseWorkers, runPartitioned, runQueued, type PartitionSpec, type Simulator } from '@pyxis/sim';
// @ts-expect-error -- a plain JavaScript fixture (worker threads load it as it is)
import { buildRingPartition } from './fixtures/independentRings.mjs';

interface Ring { lats: number[]; timers: number[]; tokens: Array<{ at: number; hops: number; work: number }> }
type Fault = { rings: number[]; on?: 'main' | 'worker'; node: number; at: number; kind: 'throw' | 'exit' | 'diag' };
const MODULE = new URL('./fixtures/independentRings.mjs', import.meta.url).href;

const specsOf = (rings: Ring[], fault?: Fault, gate?: Int32Array): PartitionSpec[] => rings.map((_, me) => ({ name: `ring${me}`, module: MODULE, builder: 'buildRingPartition', args: { rings, me, fault, gate } }));

const byName = <T extends { name: string }>(s: T[]) => [...s].sort((a, b) => a.name.localeCompare(b.name));

function reference(rings: Ring[], maxCycles?: number) {
  const builds = rings.map((_, me) => buildRingPartition({ rings, me }) as { sim: Simulator; collect: () => unknown });
  const r = runPartitioned(builds.map((b) => b.sim), [], { lookahead: 1_000_000, ...(maxCycles !== undefined ? { maxCycles } : {}) });
  return { reason: r.reason, cycles: r.cycles, stats: builds.map((b) => byName(b.sim.engineStats())), collected: builds.map((b) => b.collect()) };
}

const ringArb = fc.integer({ min: 1, max: 4 }).chain((n) =>
  fc.record({
    lats: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: n, maxLength: n }),
    timers: fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 400 })), { minLength: n, maxLength: n }),
    tokens: fc.array(fc.record({ at: fc.integer({ min: 0, max: 100 }), hops: fc.integer({ min: 0, max: 30 }), work: fc.integer({ min: 1, max: 9 }) }), { maxLength: 5 }),
  }),
);

describe('runQueued', () => {
  it('gives the reference cycles, statistics and results for random independent partitions on 1..4 threads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ringArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.option(fc.integer({ min: 1, max: 300 }), { freq: 3 }), fc.array(fc.nat(), { minLength: 5, maxLength: 5 }), fc.boolean(), async (rings, threads, pre, max, keys, shuffle) => {
        const ref = reference(rings, max ?? undefined);
        const H = Math.min(threads, rings.length);
        const workers = pre ? prestartWorkers(H - 1, [MODULE]) : undefined;
        // the queue's order (largest first in a chip run): any permutation gives the same results, in partition order
        const order = rings.map((_, i) => i).sort((x, y) => keys[x]! - keys[y]! || x - y);
        const r = await runQueued(specsOf(rings), { threads, ...(max !== null ? { maxCycles: max } : {}), ...(workers ? { workers } : {}), ...(shuffle ? { order } : {}) });
        expect([r.reason, r.cycles]).toEqual([ref.reason, ref.cycles]);
        expect(r.parts.map((p) => p.index)).toEqual(rings.map((_, i) => i));
        expect(r.parts.map((p) => byName(p.stats))).toEqual(ref.stats);
        expect(r.parts.map((p) => p.collected)).toEqual(ref.collected);
        // the honest parallel figures: threads used, each partition's thread, per-thread times
        expect(r.threads).toBe(H);
        expect(r.schedule).toBe('queue');
        for (const p of r.parts) expect(p.thread! >= 0 && p.thread! < H).toBe(true);
        expect(r.hostBusyMs.length).toBe(H);
        expect(r.hostStartMs!.length).toBe(H);
        expect(r.note).toBe(threads > rings.length ? `${threads} threads asked, ${rings.length} partition${rings.length === 1 ? '' : 's'} to run: ${H} thread${H === 1 ? '' : 's'} used` : null);
      }),
      { numRuns: Number(process.env['PYXIS_PROPERTY_RUNS'] ?? 10) },
    );
  }, 60_000);

  it('a progress display hears rising cycles and the partitions done; the same results', async () => {
    const ring: Ring = { lats: [7, 9], timers: [-1, 150], tokens: [{ at: 0, hops: 30, work: 4 }] };
    const rings = [ring, { ...ring, lats: [3, 5] }, ring];
    const ref = reference(rings);
    const seen: Array<[number, number, number]> = [];
    const r = await runQueued(specsOf(rings), { threads: 2, onProgress: (c, d, t) => void seen.push([c, d, t]), progressChunk: 10 });
    expect([r.reason, r.cycles]).toEqual([ref.reason, ref.cycles]);
    expect(r.parts.map((p) => byName(p.stats))).toEqual(ref.stats);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.map((s) => s[0])).toEqual(seen.map((s) => s[0]).sort((a, b) => a - b));
    expect(seen.every((s) => s[2] === 3 && s[1] <= 3)).toBe(true);
  });

  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no answer within ${ms} ms (a hang)`)), ms))]);
  const failureOf = (p: Promise<unknown>) => within(p.then(() => null, (x: unknown) => x), 10_000) as Promise<PartitionFailure>;

  it('a partition that throws, on a worker or on the calling thread, or whose worker exits: named, never a hang', async () => {
    const long: Ring = { lats: [10, 10], timers: [-1, -1], tokens: [{ at: 0, hops: 400, work: 3 }] };
    const rings = [long, long, long];
    const gate = () => new Int32Array(new SharedArrayBuffer(4));
    // rings 0 and 1 run on different threads (the gate); the fault fires in whichever of them the named thread runs
    for (const [on, kind] of [['worker', 'throw'], ['main', 'throw'], ['worker', 'exit']] as const) {
      const f = await failureOf(runQueued(specsOf(rings, { rings: [0, 1], on, node: 1, at: 50, kind }, gate()), { threads: 2 }));
      expect(f, `${kind} on the ${on} thread`).toBeInstanceOf(PartitionFailure);
      expect(f.partition).toMatch(/^ring[01]$/);
      if (kind === 'throw') expect([f.index, f.detail]).toEqual([Number(f.partition.slice(4)), expect.stringMatching(/^node n1 fails at cycle \d+$/)]);
      else expect(f.detail).toBe('its worker thread exited (code 7) during the run');
    }
    // on one thread: the same failure, the same name
    const one = await failureOf(runQueued(specsOf(rings, { rings: [2], node: 1, at: 50, kind: 'throw' }), { threads: 1 }));
    expect([one.partition, one.index]).toEqual(['ring2', 2]);
    // bad input inside a partition keeps its diagnostics across the thread
    const d = await failureOf(runQueued(specsOf(rings, { rings: [2], node: 0, at: 0, kind: 'diag' }), { threads: 2 }));
    expect(d.diagnostics).toEqual([{ severity: 'error', code: 'SIM0001', message: 'node n0: bad input' }]);
    // a builder that throws, and a builder module that does not load (a prestarted worker): the partition named
    const b = await failureOf(runQueued(specsOf(rings).map((s, i) => (i === 2 ? { ...s, args: { ...(s.args as object), buildFails: true } } : s)), { threads: 2 }));
    expect([b.partition, b.detail]).toEqual(['ring2', 'ring 2 cannot be built']);
    const missing = new URL('./fixtures/missing.mjs', import.meta.url).href;
    const m = await failureOf(runQueued(specsOf(rings).map((s, i) => (i >= 1 ? { ...s, module: missing } : s)), { threads: 2, workers: prestartWorkers(1, [missing]) }));
    expect(m.partition).toMatch(/^ring[12]$/);
  });

  it('hands the partitions out in the given order: the calling thread takes the first of it', async () => {
    const rings: Ring[] = [0, 1, 2].map((k) => ({ lats: [5 + k], timers: [-1], tokens: [{ at: 0, hops: 3, work: 1 }] }));
    // the calling thread builds with a registered module: this one records the order of the builds
    const built: number[] = [];
    const recording = 'test:recording-rings';
    registerPartitionModule(recording, { build: (args: { me: number }) => (built.push(args.me), buildRingPartition(args)) });
    const specs = specsOf(rings).map((s) => ({ ...s, module: recording, builder: 'build' }));
    const r = await runQueued(specs, { threads: 1, order: [2, 0, 1] });
    expect(built).toEqual([2, 0, 1]);
    expect(r.parts.map((p) => p.index)).toEqual([0, 1, 2]);
    expect(r.parts.map((p) => p.collected)).toEqual(reference(rings).collected);
  });

  it('claims the workers a launcher started early for the same entry, once each (kernel EARLY_WORKERS)', async () => {
    const early = prestartWorkers(1, [MODULE]);
    const other = prestartWorkers(1, [MODULE]);
    const entry = partitionWorkerUrl();
    const g = globalThis as Record<symbol, unknown[]>;
    g[EARLY_WORKERS] = [{ ...other[0]!, href: 'file:///elsewhere/partitionWorker.js' }, { ...early[0]!, href: entry.href }];
    try {
      const got = prestartWorkers(2, [MODULE], entry);
      expect(got.length).toBe(2);
      expect(got[0]!.worker).toBe(early[0]!.worker); // the early one first; a new one for the rest
      expect(got[1]!.worker).not.toBe(other[0]!.worker);
      expect((g[EARLY_WORKERS] as Array<{ href: string }>).map((w) => w.href)).toEqual(['file:///elsewhere/partitionWorker.js']);
      // and it runs partitions as any prestarted worker
      const rings: Ring[] = [0, 1].map((k) => ({ lats: [3 + k], timers: [-1], tokens: [{ at: 0, hops: 2, work: 1 }] }));
      const r = await runQueued(specsOf(rings), { threads: 3, workers: got });
      expect(r.parts.map((p) => p.collected)).toEqual(reference(rings).collected);
      // a run given no workers claims the early ones too (a system run's runThreaded as well)
      const more = prestartWorkers(1, [MODULE]);
      g[EARLY_WORKERS]!.push({ ...more[0]!, href: entry.href });
      const q = await runQueued(specsOf(rings), { threads: 2 });
      expect(q.parts.map((p) => p.collected)).toEqual(reference(rings).collected);
      expect((g[EARLY_WORKERS] as Array<{ href: string }>).map((w) => w.href)).toEqual(['file:///elsewhere/partitionWorker.js']);
    } finally {
      delete g[EARLY_WORKERS];
      await releaseWorkers(other);
    }
  });

  it('refuses bad thread counts and a partition with cross links', async () => {
    const ring: Ring = { lats: [10], timers: [-1], tokens: [] };
    await expect(runQueued(specsOf([ring]), { threads: 0 })).rejects.toThrow(/threads must be an integer >= 1/);
    for (const order of [[0, 0], [1], [0, 2], [0, 1.5]])
      await expect(runQueued(specsOf([ring, ring]), { threads: 1, order })).rejects.toThrow(`order must be a permutation of the partition indexes 0..1, got [${order.join(', ')}]`);
    const tokenRing = new URL('./fixtures/tokenRing.mjs', import.meta.url).href;
    const c = { lats: [10, 10], timers: [-1, -1], tokens: [] };
    const coupled = [0, 1].map((me) => ({ name: `part${me}`, module: tokenRing, builder: 'buildTokenPartition', args: { c, part: [0, 1], me } }));
    await expect(runQueued(coupled, { threads: 1 })).rejects.toThrow(/partition part0 \(#0\) failed: has cross-partition links \(to n0, to n1\): it is not independent/);
  });
});
