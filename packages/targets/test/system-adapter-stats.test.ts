/**
 * The fabric adapter's statistics and debug counters in `--stats` (`chips[k].fabric_adapter`, docs/system.md; chip
 * §10.9 is TBD, the set is fabric/stats.ts's): they were counted but never written. Expected values are derived from
 * the collective's shape, not from the simulator: a ring all-reduce of N chips runs 2(N - 1) Tx and 2(N - 1) Rx jobs
 * per chip, each one whole chunk of R rows = 2R AMEM words of 128 bytes in ceil(2R / 125) pages; a dropped page is
 * one retry on the chip that sent it (chip §10.3.1) and nowhere else. The counters are identical for any --threads.
 */
import { describe, expect, it } from 'vitest';
import { buildCollective, runCollective } from './collective-run.js';

const T = 60_000;
type Cluster = Record<string, number> & { tx_messages: Record<string, number>; rx_drops: Record<string, number> };

type Adapter = { clusters: Cluster[]; qpages_in_use: number };
const adapters = (stats: { chips: Array<Record<string, unknown>> }) => stats.chips.map((c) => c['fabric_adapter'] as Adapter);

describe('chips[k].fabric_adapter: the adapter counters per cluster', () => {
  it('a 4-chip ring all-reduce with one dropped page: jobs, pages, bytes, the one retry; same for 1 and 2 threads', async () => {
    const N = 4;
    const R = 2;
    const b = await buildCollective({ chips: N, algorithm: 'ring-allreduce', rows: R });
    const r = await runCollective(b, ['--threads', '1', '--fabric-faults', 'seed=1,drop:data:chip=2:nth=0'], 't1');
    expect(r.code).toBe(0);
    const jobs = 2 * (N - 1);
    const words = 2 * R;
    const pagesPerJob = Math.ceil(words / 125);
    adapters(r.stats).forEach((a, chip) => {
      expect(a.clusters.map((c) => c['cluster'])).toEqual([0]); // the generated collective runs on cluster 0 only
      const c = a.clusters[0]!;
      const retried = chip === 2 ? 1 : 0;
      expect(c['tx_jobs_started'], `chip ${chip}`).toBe(jobs);
      expect(c['tx_jobs_completed'], `chip ${chip}`).toBe(jobs);
      expect(c['tx_jobs_failed']).toBe(0);
      expect(c['rx_jobs_completed'], `chip ${chip}`).toBe(jobs);
      expect(c['tx_retries'], `chip ${chip}`).toBe(retried);
      expect(c['tx_pages'], `chip ${chip}`).toBe(jobs * pagesPerJob + retried);
      expect(c['rx_data_bytes'], `chip ${chip}`).toBe(jobs * words * 128);
      // messages leave through the Tx side: one CTS per Rx job (when it is set up), one ACK per completed Rx job
      expect(c.tx_messages, `chip ${chip}`).toEqual({ cts: jobs, ack: jobs, nack: 0 });
      expect(c.rx_drops['crc'] + c.rx_drops['stale']).toBe(0);
      expect(a.qpages_in_use).toBe(0);
    });
    const r2 = await runCollective(b, ['--threads', '2', '--fabric-faults', 'seed=1,drop:data:chip=2:nth=0'], 't2');
    expect(r2.code).toBe(0);
    expect(adapters(r2.stats)).toEqual(adapters(r.stats));
  }, T);
});
