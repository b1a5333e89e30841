/**
 * Collectives at chip counts the other collective tests do not use (docs/collectives.md): rings of 3 and 5 chips (no
 * power of two, so ring positions wrap unevenly), with chunks of several pages, checked against the float64
 * reference computed in collective-check.ts from the generator's inputs (never from the simulator); exact data must
 * match bit for bit, random data within the documented RFP16 rounding bound; and the run on 2 threads gives the
 * same bits and cycles as on 1.
 */
import { describe, expect, it } from 'vitest';
import { buildCollective, runCollective } from './collective-run.js';
import { mismatches } from './collective-check.js';

const T = 60_000;

describe('ring collectives on 3 and 5 chips', () => {
  it('ring-allreduce on 3 chips, 130-row chunks (260 words: pages of 125 + 125 + 10): exact, same on 2 threads', async () => {
    const b = await buildCollective({ chips: 3, algorithm: 'ring-allreduce', rows: 130 });
    const r = await runCollective(b, ['--threads', '1'], 't1');
    expect(r.code, r.err).toBe(0);
    expect(mismatches(r, true)).toEqual([]);
    const r2 = await runCollective(b, ['--threads', '2'], 't2');
    expect(r2.code, r2.err).toBe(0);
    expect(r2.cycles).toBe(r.cycles);
    expect(r2.outputs).toEqual(r.outputs);
  }, T);

  it('ring-reducescatter on 5 chips (random data: within the rounding bound) and ring-allgather on 5 chips (exact)', async () => {
    const rs = await runCollective(await buildCollective({ chips: 5, algorithm: 'ring-reducescatter', rows: 3, data: 'random', seed: 7 }));
    expect(rs.code, rs.err).toBe(0);
    expect(mismatches(rs, false)).toEqual([]);
    const ag = await runCollective(await buildCollective({ chips: 5, algorithm: 'ring-allgather', rows: 2, pageSizeWords: 32 }));
    expect(ag.code, ag.err).toBe(0);
    expect(mismatches(ag, true)).toEqual([]);
  }, T);
});
