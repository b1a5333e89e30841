/**
 * Ring collectives end to end (docs/collectives.md, chip §10, §7.4 InMemAdd): scripts/gen-collective.mjs ->
 * pyxis-as -> pyxis-ld (per chip, system) -> pyxis-sim run, outputs compared with float64 sums computed here.
 * `--data exact` must equal the sum bit for bit; `--data random` must stay within the RFP16 rounding bound of
 * collective-check.ts and agree bitwise on every chip.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCollective, runCollective } from './collective-run.js';
import { disagreements, mismatches } from './collective-check.js';

const T = 60_000;

describe('ring and halving-doubling collectives compute the float64 sums', () => {
  for (const algorithm of ['ring-allreduce', 'ring-reducescatter', 'ring-allgather'] as const)
    for (const chips of [2, 4, 8])
      it(`${algorithm} on ${chips} chips (exact data)`, async () => {
        const r = await runCollective(await buildCollective({ chips, algorithm, rows: 1 }));
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(mismatches(r, true)).toEqual([]);
        expect(disagreements(r)).toEqual([]);
      }, T);

  for (const chips of [4, 8])
    it(`hd-allreduce on ${chips} chips (exact data)`, async () => {
      const r = await runCollective(await buildCollective({ chips, algorithm: 'hd-allreduce', rows: 1 }));
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(mismatches(r, true)).toEqual([]);
      expect(disagreements(r)).toEqual([]);
    }, T);

  it('multi-page chunks (40 rows = 80 words in pages of 32: 32 + 32 + 16) on 4 chips, ring and halving-doubling', async () => {
    for (const algorithm of ['ring-allreduce', 'hd-allreduce'] as const) {
      const r = await runCollective(await buildCollective({ chips: 4, algorithm, rows: 40, pageSizeWords: 32, seed: 3 }));
      expect(r.code).toBe(0);
      expect(mismatches(r, true)).toEqual([]);
      expect(disagreements(r)).toEqual([]);
    }
  }, T);

  it('ring-allreduce on 4 chips with random data: within the RFP16 rounding bound, identical on every chip', async () => {
    const r = await runCollective(await buildCollective({ chips: 4, algorithm: 'ring-allreduce', rows: 2, data: 'random', seed: 7 }));
    expect(r.code).toBe(0);
    expect(mismatches(r, false)).toEqual([]);
    expect(disagreements(r)).toEqual([]);
    // rounding does happen (the check is not vacuous): some element differs from the float64 sum
    expect(mismatches(r, true).length).toBeGreaterThan(0);
  }, T);
});

describe('jobs of many pages (the wire spreads a job over the FO pipes and keeps a chip pair in order)', () => {
  // A job of 5+ pages: its pages go out on all four FO pipes (pipes chosen by the work granted to them, §10.7 [5a]),
  // and the fabric delivers a chip pair's pages in order (FI reorder, §10.8.3-10.8.4): the Rx job sees sequence
  // numbers 0, 1, 2, ... (chip §10.3.1) and the job completes without a NACK.
  it('ring-reducescatter on 2 chips with 5-page chunks (312 rows = 624 words: 4 x 125 + 124) is exact', async () => {
    const r = await runCollective(await buildCollective({ chips: 2, algorithm: 'ring-reducescatter', rows: 312 }));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(mismatches(r, true)).toEqual([]);
  }, T);
});

describe('samples/pyxis/collectives', () => {
  const sample = fileURLToPath(new URL('../../../samples/pyxis/collectives/ring_allreduce4/', import.meta.url));
  it('ring_allreduce4 is what the generator writes (README command) and computes the float64 sums', async () => {
    const built = await buildCollective({ chips: 4, algorithm: 'ring-allreduce', rows: 2 });
    for (const f of readdirSync(sample).filter((x) => /\.(ld|pasm|npy|json)$/.test(x) && !x.startsWith('out') && x !== 'stats.json'))
      expect(readFileSync(join(built.dir, f)), f).toEqual(readFileSync(join(sample, f)));
    expect(readdirSync(built.dir).filter((x) => /\.(ld|npy|json)$/.test(x)).length).toBe(readdirSync(sample).filter((x) => /\.(ld|npy|json)$/.test(x) && !x.startsWith('out') && x !== 'stats.json').length);
    const r = await runCollective(built);
    expect(r.code).toBe(0);
    expect(mismatches(r, true)).toEqual([]);
  }, T);
});
