/**
 * Faults on a collective (issue 21 "Faults"; --fabric-faults, docs/system.md): a 4-chip ring all-reduce with one
 * data page lost still computes the exact float64 sums (the job's retry, chip §10.3.1, visible in the link stats as
 * a re-sent page); when every data page of a chip is lost the jobs fail after their one retry, each
 * failure reported (SIM0754, both chips' jobs), the run ends non-zero and writes no dump; nothing is lost silently.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildCollective, runCollective, type CollectiveRun } from './collective-run.js';
import { mismatches } from './collective-check.js';

const T = 60_000;
type Link = { src: number; dst: number; pages: number; byType: Record<string, number> };
const count = (r: CollectiveRun, type: string) => (r.stats.links as unknown as Link[]).reduce((a, l) => a + (l.byType[type] ?? 0), 0);

describe('a ring all-reduce under fabric faults', () => {
  it('one dropped data page: exact sums, the retry visible (the page sent again, later), the loss counted', async () => {
    const b = await buildCollective({ chips: 4, algorithm: 'ring-allreduce', rows: 2 });
    const clean = await runCollective(b, [], 'clean');
    const r = await runCollective(b, ['--fabric-faults', 'seed=1,drop:data:chip=2:nth=0'], 'drop1');
    expect(r.code).toBe(0);
    expect(mismatches(r, true)).toEqual([]);
    expect(r.out).toMatch(/faults injected: 1 dropped, 0 corrupted/);
    expect((r.stats as unknown as { fabric: { faults_dropped: number } }).fabric.faults_dropped).toBe(1);
    // a lone lost page (no later page shows the gap, so no NACK) is retried when the Tx side's ACK-wait timer
    // expires (chip §10.3.1): the page once more on the wire, no extra CTS, one ACK per job as before
    expect(count(r, 'nack')).toBe(0);
    expect(count(r, 'cts')).toBe(count(clean, 'cts'));
    expect(count(r, 'ack')).toBe(count(clean, 'ack'));
    expect(count(r, 'rdma_data')).toBe(count(clean, 'rdma_data') + 1);
    expect(r.cycles).toBeGreaterThan(clean.cycles);
  }, T);

  it('every data page of chip 2 lost: the jobs fail after their retry, reported on both chips, no dump written', async () => {
    const b = await buildCollective({ chips: 4, algorithm: 'ring-allreduce', rows: 2 });
    const r = await runCollective(b, ['--fabric-faults', 'drop:data:chip=2'], 'lost');
    expect(r.code).toBe(1);
    const text = r.out + r.err;
    expect(text).toMatch(/DEADLOCK/);
    expect(text).toMatch(/chip2: SIM0754: chip 2 cluster 0 Tx job TJID=0 RJID=0 .* failed at cycle \d+: .*on the retried job/);
    expect(text).toMatch(/chip3: SIM0754: chip 3 cluster 0 Rx job TJID=0 RJID=0 .* failed at cycle \d+: second Rx data-wait timeout after the retried CTS/);
    expect(existsSync(join(b.dir, 'lost_o0_0.npy'))).toBe(false);
  }, T);

  // The adapter sets the FabricPage's tjid / rjid / seq (port.ts, an fsys addition) so job-targeted rules match.
  it('drop:data:tjid=0:seq=0:nth=0 hits the first page of job 0 (and the retry delivers it: exact)', async () => {
    const b = await buildCollective({ chips: 2, algorithm: 'ring-reducescatter', rows: 1 });
    const r = await runCollective(b, ['--fabric-faults', 'drop:data:chip=0:tjid=0:seq=0:nth=0'], 'tjid');
    expect(r.out).toMatch(/faults injected: 1 dropped/);
    expect(r.code).toBe(0);
    expect(mismatches(r, true)).toEqual([]);
  }, T);

  it('drop:data:tjid=0:seq=0 without nth also hits the retried page: job 0 fails on both chips (second loss)', async () => {
    const b = await buildCollective({ chips: 2, algorithm: 'ring-reducescatter', rows: 1 });
    const r = await runCollective(b, ['--fabric-faults', 'drop:data:chip=0:tjid=0:seq=0'], 'tjid2');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/faults injected: 2 dropped/);
    expect(r.out + r.err).toMatch(/chip0: SIM0754: chip 0 cluster 0 Tx job TJID=0 RJID=0 .*on the retried job/);
    expect(r.out + r.err).toMatch(/chip1: SIM0754: chip 1 cluster 0 Rx job TJID=0 RJID=0 .*failed/);
  }, T);
});
