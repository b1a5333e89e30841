/**
 * The system sections of the HTML report (systemReport.ts): the chip x time heatmap averages a chip's engine tracks
 * (not its fabric pipe tracks) per column, links are listed with their stats figures, failed jobs are named.
 */
import { describe, expect, it } from 'vitest';
import type { Chart, TraceModel, TraceTrack } from '@pyxis/report';
import { isSystemStats, systemSections, SYSTEM_TIME_COLUMNS } from '../src/systemReport.js';

const track = (process: string, name: string, busy: number[], binWidth: number): TraceTrack => ({ pid: 0, tid: 0, process, name, slices: [], total: 0, busy: Float64Array.from(busy), binWidth });

describe('system report sections', () => {
  it('heatmap = busy time of the chip engine tracks / (tracks x column width); links and failures listed', () => {
    const n = SYSTEM_TIME_COLUMNS;
    // chip0: one engine track busy all of column 0 and half of column 1 (bins of 1 µs = the columns, run of n µs)
    const c0 = new Array(n).fill(0);
    c0[0] = 1;
    c0[1] = 0.5;
    // chip1: two engine tracks with bins of 2 µs: the first busy 2 µs in its bin 0 (columns 0 and 1), the second idle;
    // a fabric pipe track busy throughout (excluded)
    const c1 = new Array(n / 2).fill(0);
    c1[0] = 2;
    const trace: TraceModel = { tracks: [track('chip0', 'cluster 0: c0.h2a', c0, 1), track('chip1', 'cluster 0: c0.rdma_rx0', c1, 2), track('chip1', 'cluster 0: c0.a2h', new Array(n / 2).fill(0), 2), track('chip1', 'fabric FI pipe 0', new Array(n).fill(1), 1)], counters: [] } as unknown as TraceModel;
    const stats = {
      cycles: 1000,
      chips: [
        { trips_total: 2, fabric: { fo_utilization: [0.5, 0, 0, 0], fi_utilization: [0, 0, 0, 0] }, fabric_adapter: { clusters: [{ cluster: 0, tx_jobs_completed: 3, tx_jobs_failed: 1, tx_retries: 2, tx_pages: 9, rx_jobs_completed: 4, rx_jobs_failed: 0, rx_pages: 8, rx_nacks_sent: 1, rx_cts_retries: 0, rx_drops: { crc: 1, stale: 2 }, qpages_max: 5, xoff_cycles: 0 }] } },
        { trips_total: 1, fabric: { fo_utilization: [0, 0, 0, 0], fi_utilization: [0.25, 0.25, 0, 0] } },
      ],
      links: [{ src: 0, dst: 1, pages: 4, bytes: 6304, cells: 38, busyCycles: 200, utilization: 0.05, grant_wait_cycles: 7 }],
      fabric: { pages: 4, bytes: 6304, cells: 38 },
      failed_jobs: [{ chip: 0, cluster: 0, side: 'tx', tjid: 12, rjid: 34, cycle: 900, reason: 'NACK received on the retried job', recovered: false }],
    };
    expect(isSystemStats(stats)).toBe(true);
    expect(isSystemStats({ cycles: 1, chips: [] })).toBe(false);
    const secs = systemSections({ stats, trace });
    const charts = secs.flatMap((s) => s.charts);
    const hm = charts.find((c) => c.kind === 'heatmap') as Extract<Chart, { kind: 'heatmap' }>;
    expect(hm.rows).toEqual(['chip0', 'chip1']);
    expect(hm.values[0]!.slice(0, 3)).toEqual([1, 0.5, 0]);
    expect(hm.values[1]!.slice(0, 3)).toEqual([0.5, 0.5, 0]);
    const fo = charts.find((c) => c.kind === 'bars' && /FO/.test(c.title)) as Extract<Chart, { kind: 'bars' }>;
    expect(fo.series[0]!.values).toEqual([0.125, 0]);
    expect(fo.series[1]!.values).toEqual([0, 0.125]);
    const links = charts.find((c) => c.kind === 'table' && c.title === 'Links') as Extract<Chart, { kind: 'table' }>;
    expect(links.rows).toEqual([['chip0 → chip1', 4, 6304, 38, 200, '0.0500', 7]]);
    // the adapter counters: one row per cluster that reports them (chip1 has none), Rx drops summed over reasons
    const adapter = charts.find((c) => c.kind === 'table' && c.title === 'Fabric adapter per cluster') as Extract<Chart, { kind: 'table' }>;
    expect(adapter.rows).toEqual([['chip0.c0', 3, 1, 2, 9, 4, 0, 8, 1, 0, 3, 5, 0]]);
    const failed = charts.find((c) => c.kind === 'table' && /Failed RDMA/.test(c.title)) as Extract<Chart, { kind: 'table' }>;
    expect(failed.rows[0]).toEqual([0, 0, 'tx', 12, 34, 900, 'NACK received on the retried job', 'no']);
  });
});
