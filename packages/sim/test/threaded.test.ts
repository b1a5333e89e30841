/**
 * Threaded partitioned runs (kernel/threaded.ts): the token-passing system of partitioned.test.ts with its nodes
 * spread over random partitions gives the single-Simulator cycles, per-engine statistics and per-node results for
 * any thread count 1..4 (the partitions are fixed by the model; only their mapping to threads changes). A partition
 * that throws, or whose worker thread exits, ends the run with the partition named, never a hang.
 *
 * The worker threads load the built package (packages/sim/dist, made by `npm ci` / `tsc -b`): Node 20 runs no
 * TypeScript in a worker.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultThreads, PartitionFailure, prestartWorkers, runThreaded, type PartitionSpec } from '@pyxis/sim';
// @ts-expect-error -- a plain JavaScript fixture (worker threads load it as it is)
import { buildTokenPartition } from './fixtures/tokenRing.mjs';

interface Case { lats: number[]; timers: number[]; tokens: Array<{ at: number; hops: number; work: number }> }
type Fault = { node: number; at: number; kind: 'throw' | 'exit' | 'diag' };
const MODULE = new URL('./fixtures/tokenRing.mjs', import.meta.url).href;

const specsOf = (c: Case, part: number[], fault?: Fault): PartitionSpec[] =>
  Array.from({ length: Math.max(...part) + 1 }, (_, me) => ({ name: `part${me}`, module: MODULE, builder: 'buildTokenPartition', args: { c, part, me, fault } }));

/** The reference: every node in one Simulator (no cross links). */
function reference(c: Case) {
  const b = buildTokenPartition({ c, part: c.lats.map(() => 0), me: 0 }) as { sim: import('@pyxis/sim').Simulator; collect: () => Array<[number, number]> };
  const r = b.sim.run();
  return { reason: r.reason, cycles: r.cycles, stats: byName(b.sim.engineStats()), finished: b.collect() };
}

const byName = <T extends { name: string }>(s: T[]) => [...s].sort((a, b) => a.name.localeCompare(b.name));

const caseArb = fc.integer({ min: 2, max: 7 }).chain((n) =>
  fc.record({
    c: fc.record({
      lats: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: n, maxLength: n }),
      timers: fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 400 })), { minLength: n, maxLength: n }),
      tokens: fc.array(fc.record({ at: fc.integer({ min: 0, max: 100 }), hops: fc.integer({ min: 0, max: 12 }), work: fc.integer({ min: 1, max: 9 }) }), { maxLength: 6 }),
    }),
    // Node -> partition, renumbered densely in first-use order (every partition owns a node).
    part: fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: n, maxLength: n }).map((p) => {
      const ids = new Map<number, number>();
      return p.map((x) => (ids.has(x) ? ids.get(x)! : (ids.set(x, ids.size), ids.size - 1)));
    }),
    threads: fc.integer({ min: 1, max: 4 }),
    /** Host 0 on the calling thread; workers started ahead (prestartWorkers). */
    main: fc.boolean(),
    pre: fc.boolean(),
  }),
);

describe('runThreaded', () => {
  it('gives the single-simulator cycles, statistics and results for random partitions on 1..4 threads', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ c, part, threads, main, pre }) => {
        const ref = reference(c);
        const P = Math.max(...part) + 1;
        const workers = pre ? prestartWorkers(Math.max(0, Math.min(threads, P) - (main ? 1 : 0)), [MODULE]) : undefined;
        const r = await runThreaded(specsOf(c, part), { threads, minUsefulLookahead: 1, mainThreadHost: main, ...(workers ? { workers } : {}) });
        expect(r.reason).toBe(ref.reason);
        expect(r.cycles).toBe(ref.cycles);
        expect(byName(r.parts.flatMap((p) => p.stats))).toEqual(ref.stats);
        expect((r.parts.flatMap((p) => p.collected) as Array<[number, number]>).sort((a, b) => a[0] - b[0])).toEqual(ref.finished);
        expect(r.parts.map((p) => p.index)).toEqual(r.parts.map((_, i) => i));
        expect(r.threads).toBe(Math.min(threads, Math.max(...part) + 1));
      }),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 12) },
    );
  });

  it('stays on one thread, and says so, when the links allow no useful lookahead', async () => {
    const c: Case = { lats: [2, 3, 2], timers: [-1, -1, -1], tokens: [{ at: 0, hops: 9, work: 2 }] };
    const ref = reference(c);
    const r = await runThreaded(specsOf(c, [0, 1, 2]), { threads: 3 });
    expect(r.threads).toBe(1);
    expect(r.note).toMatch(/lookahead of 2 cycles, below the 8/);
    expect([r.reason, r.cycles]).toEqual([ref.reason, ref.cycles]);
  });

  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no answer within ${ms} ms (a hang)`)), ms))]);

  it('ends the run naming the partition when a worker throws or exits, never hanging', async () => {
    const c: Case = { lats: [10, 10, 10, 10], timers: [-1, -1, -1, -1], tokens: [{ at: 0, hops: 40, work: 3 }] };
    for (const kind of ['throw', 'exit'] as const) {
      const run = runThreaded(specsOf(c, [0, 1, 2, 3], { node: 2, at: 30, kind }), { threads: 2 });
      const e = await within(run.then(() => null, (x: unknown) => x), 10_000);
      expect(e).toBeInstanceOf(PartitionFailure);
      const f = e as PartitionFailure;
      // a throw names the partition itself; an exit names the partitions of the thread that died
      expect(f.partition).toContain('part2');
      // n2 first ticks when the token reaches it: injected for cycle 10 at n0, 3 cycles of work each (done at 12, 24),
      // 10 cycles per hop (work % 3 = 0 extra): at n1 at 22, at n2 at 34, past the fault's cycle 30
      if (kind === 'throw') expect([f.partition, f.index, f.detail]).toEqual(['part2', 2, 'node n2 fails at cycle 34']);
    }
    // a model error carrying diagnostics (input errors) keeps them across the thread
    const d = await runThreaded(specsOf(c, [0, 1, 2, 3], { node: 3, at: 0, kind: 'diag' }), { threads: 2 }).then(() => null, (x: unknown) => x);
    expect((d as PartitionFailure).diagnostics).toEqual([{ severity: 'error', code: 'SIM0001', message: 'node n3: bad input' }]);
    // a worker started ahead whose builder module does not load: the partition named, no hang
    const bad: PartitionSpec[] = specsOf(c, [0, 1, 2, 3]).map((x, i) => (i >= 2 ? { ...x, module: new URL('./fixtures/missing.mjs', import.meta.url).href } : x));
    const m = await within(runThreaded(bad, { threads: 2, mainThreadHost: true, workers: prestartWorkers(1, [bad[2]!.module]) }).then(() => null, (x: unknown) => x), 10_000);
    expect(m).toBeInstanceOf(PartitionFailure);
    expect((m as PartitionFailure).partition).toBe('part2');
    // in-process (1 thread): the same failure, the same name
    const one = await runThreaded(specsOf(c, [0, 1, 2, 3], { node: 1, at: 5, kind: 'throw' }), { threads: 1 }).then(() => null, (x: unknown) => x);
    expect(one).toBeInstanceOf(PartitionFailure);
    expect((one as PartitionFailure).partition).toBe('part1');
  });

  it('defaults to one thread per partition, at most the free cores (cores minus the load average)', () => {
    // [partitions, cores, load] -> threads
    const cases: Array<[number, number, number, number]> = [[1, 8, 0, 1], [8, 2, 0, 2], [3, 8, 0, 3], [8, 8, 2.4, 6], [8, 2, 5, 1], [8, 2, 0.6, 1], [8, 2, 0.4, 2], [0, 4, 0, 1]];
    for (const [p, cores, load, want] of cases) expect(defaultThreads(p, cores, load), `${p} partitions, ${cores} cores, load ${load}`).toBe(want);
  });

  it('refuses bad thread counts and a link nobody receives on', async () => {
    const c: Case = { lats: [10, 10], timers: [-1, -1], tokens: [] };
    await expect(runThreaded(specsOf(c, [0, 1]), { threads: 0 })).rejects.toThrow(/threads must be an integer >= 1/);
    await expect(runThreaded(specsOf(c, [0, 1]).slice(0, 1), { threads: 1 })).rejects.toThrow(/sends on link to n1, which no partition receives on/);
  });
});
