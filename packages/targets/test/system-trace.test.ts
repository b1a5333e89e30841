/**
 * System traces (docs/system.md "Traces"): one Perfetto process per chip with the chip's own engine tracks (trips,
 * DMA, the fabric adapter's RDMA Tx/Rx tracks) beside its fabric wire tracks, deterministic pids/tids, and a file
 * byte-identical whichever order the chips are built in. The system: chip 0 H2A + RDMA Tx -> chip 1 RDMA Rx.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContainerFile } from '@pyxis/container';
import { StringSink } from '@pyxis/sim';
import { linkPair } from './system-pair.js';
import { readSystemContainer } from '../../target-pyxis/src/sim/fabric/systemImage.js';
import { runSystem } from '../../target-pyxis/src/sim/fabric/systemRun.js';

interface Ev {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  args?: { name?: string };
}

describe('system traces', () => {
  it('one process per chip with its engine and fabric tracks; byte-identical for any chip build order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-systrace-'));
    const psys = await linkPair(dir);
    const sys = readSystemContainer(readContainerFile(psys), 'pair.psys');
    const m = sys.manifest;
    const run = (buildOrder: number[]) => {
      const sink = new StringSink();
      const inputs = m.image_of_chip.map((i, k) => ({ chip: k, image: sys.images[i]!.bytes, imageFile: sys.images[i]!.file, voqToVpfe: sys.voqToVpfe[k]! }));
      const r = runSystem(inputs, { fabric: m.fabric, clusterVpfe: m.cluster_vpfe, trace: sink, buildOrder });
      expect(r.stop).toBe('done');
      return sink.text;
    };
    const a = run([0, 1]);
    const b = run([1, 0]);
    expect(b).toBe(a);
    const ev = (JSON.parse(a) as { traceEvents: Ev[] }).traceEvents;
    const procs = ev.filter((e) => e.name === 'process_name').map((e) => [e.pid, e.args!.name]);
    expect(procs).toEqual([
      [1, 'chip0'],
      [2, 'chip1'],
    ]);
    const threads = (pid: number) => ev.filter((e) => e.name === 'thread_name' && e.pid === pid).map((e) => e.args!.name!);
    // chip 0: its H2A trip engine, its RDMA Tx job track and its fabric output pipe tracks; chip 1: RDMA Rx and input pipes
    expect(threads(1)).toContain('cluster 0: c0.h2a');
    expect(threads(1)).toContain('cluster 0: c0.fabric_tx_jobs');
    expect(threads(1)).toContain('cluster 0: c0.rdma_tx0');
    expect(threads(1)).toContain('fabric FO pipe 0');
    expect(threads(2)).toContain('cluster 0: c0.fabric_rx_jobs');
    expect(threads(2).some((n) => /^fabric /.test(n))).toBe(true);
    // tids are fixed per chip: pid * 65536 + the chip's n-th track
    for (const e of ev.filter((x) => x.name === 'thread_name')) expect(Math.floor(e.tid / 65536)).toBe(e.pid);
    // every slice sits on a declared track of its own chip
    const declared = new Set(ev.filter((e) => e.name === 'thread_name').map((e) => `${e.pid}/${e.tid}`));
    for (const e of ev.filter((x) => x.ph === 'X')) expect(declared.has(`${e.pid}/${e.tid}`)).toBe(true);
    // per-page events name the page's job and sequence number (§18 fabric page tracing): the pair's TJID 12 / RJID 34,
    // two pages 0 and 1, on chip 0's FO pipes and chip 1's FI pipes
    const pageArgs = (pid: number, re: RegExp) => ev.filter((e) => e.ph === 'X' && e.pid === pid && re.test(String(e.name))).map((e) => e.args as Record<string, unknown>);
    for (const [pid, re] of [[1, /^rdma_data ->chip1$/], [2, /^rdma_data chip0->c0$/]] as const)
      expect(pageArgs(pid, re).map((a) => [a['tjid'], a['rjid'], a['seq']])).toEqual([[12, 34, 0], [12, 34, 1]]);
    // the Tx CLIST's artificial cell pointers (§10.7.5): {page number on its FO pipe, cell index}; the pages are 32
    // and 16 words (48 rows of 128 B), 16 + 128 w bytes = 257 and 129 chunks = 24 and 12 cells (§10.1)
    const cells = [32, 16].map((w) => Math.ceil(Math.ceil((16 + 128 * w) / 16) / 11));
    const cptrs = pageArgs(1, /^rdma_data ->chip1$/).map((a) => String(a['cptrs']).split('..').map((x) => Number(x)));
    expect(cptrs.map(([a, b]) => [a! % 256, b! - a! + 1])).toEqual(cells.map((n) => [0, n]));
  });
});
