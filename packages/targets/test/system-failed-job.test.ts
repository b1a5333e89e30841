/**
 * A failed RDMA job never ends a system run as "completed" (chip §10.7.1.2, §10.8.1.2; issue 21 "Faults"): two
 * losses of one job (the first attempt's and the retry's first data page, --fabric-faults) fail it on both chips;
 * the summary names chip, cluster, TJID/RJID and reason, the stats list the failed jobs, the run exits 1 with
 * SIM0720 and writes no dump. One loss is recovered by the job's retry and the run completes.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContainerFile, writeContainerFile } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';
import { linkPair } from './system-pair.js';

describe('system runs with a failed RDMA job', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-sysfail-'));
  it('two losses of one job: FAILED, named, listed in the stats, exit 1 with SIM0720, no dump; one loss completes', async () => {
    await linkPair(dir);
    // 48 rows of 128 B at 32 words a page: 2 pages an attempt; pages 0 and 2 are the first of each attempt
    const bad = await call(runSim, ['run', join(dir, 'pair.psys'), '--fabric-faults', 'drop:data:nth=0,drop:data:nth=2', '--stats', join(dir, 'bad.json'), '--dump', `chip1:y=${join(dir, 'y.npy')}`]);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/system of 2 chip\(s\) FAILED \(RDMA job failed\)/);
    expect(bad.out).not.toMatch(/completed/);
    expect(bad.out).toMatch(/FAILED: chip 0 cluster 0 Tx job TJID=12 RJID=34 .* failed at cycle \d+: /);
    expect(bad.out).toMatch(/FAILED: chip 1 cluster 0 Rx job TJID=12 RJID=34 /);
    expect(bad.out).toMatch(/fabric Rx drops: \d+/);
    expect(bad.err).toMatch(/error\[SIM0720\]: 2 RDMA job\(s\) failed .*\n  chip 0 cluster 0 Tx job TJID=12 RJID=34/);
    expect(existsSync(join(dir, 'y.npy'))).toBe(false);
    const s = JSON.parse(readFileSync(join(dir, 'bad.json'), 'utf8'));
    expect(s.failed_jobs.map((f: { chip: number; side: string; tjid: number; rjid: number; recovered: boolean }) => [f.chip, f.side, f.tjid, f.rjid, f.recovered])).toEqual([
      [0, 'tx', 12, 34, false],
      [1, 'rx', 12, 34, false],
    ]);
    expect(s.fabric.faults_dropped).toBe(2);
    // one loss: the retry delivers; completed, exit 0, nothing failed
    const one = await call(runSim, ['run', join(dir, 'pair.psys'), '--fabric-faults', 'drop:data:nth=0', '--stats', join(dir, 'one.json')]);
    expect(one.err).toBe('');
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/completed/);
    expect(JSON.parse(readFileSync(join(dir, 'one.json'), 'utf8')).failed_jobs).toEqual([]);
  });

  it('a host action waiting on the Job Failed interrupt on both chips: reported as recovered, exit 0', async () => {
    // the software of each chip waits for its cluster's Job Failed interrupt, then writes a scratch CSR word
    for (const k of [0, 1]) {
      const c = readContainerFile(join(dir, `chip${k}.pimg`));
      (c.metadata as { pyxis: Record<string, unknown> }).pyxis['host_actions'] = [{ cluster: 0, address: '0x40000100', value: '0x55', after_interrupt: { entry: 'fabric_job_failed', count: 1 } }];
      writeContainerFile(join(dir, `rec${k}.pimg`), c);
    }
    writeFileSync(join(dir, 'rec.json'), JSON.stringify({ chips: 2, images: ['rec0.pimg', 'rec1.pimg'], voq_map: [{ group: 1, chip: '+1' }] }));
    const rl = await call(runLd, [join(dir, 'rec.json'), '-o', join(dir, 'rec.psys')]);
    expect(rl.err).not.toMatch(/error/);
    expect(rl.code).toBe(0);
    const r = await call(runSim, ['run', join(dir, 'rec.psys'), '--fabric-faults', 'drop:data:nth=0,drop:data:nth=2', '--stats', join(dir, 'rec.json.out')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/system of 2 chip\(s\) completed/);
    expect(r.out).toMatch(/recovered \(a host action waited on the Job Failed interrupt\): chip 0 cluster 0 Tx job TJID=12 RJID=34/);
    expect(r.out).toMatch(/recovered \(a host action waited on the Job Failed interrupt\): chip 1 cluster 0 Rx job TJID=12 RJID=34/);
    const s = JSON.parse(readFileSync(join(dir, 'rec.json.out'), 'utf8'));
    expect(s.failed_jobs.map((f: { recovered: boolean }) => f.recovered)).toEqual([true, true]);
  });
});
