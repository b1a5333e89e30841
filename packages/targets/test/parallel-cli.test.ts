/**
 * A parallel run that fails on a worker thread, as the tools report it (packages/cli/src/tool.ts): a partition whose
 * model throws ends the run with SIM0800 naming the partition, exit 3; a partition whose model reports bad input
 * (diagnostics) exits 1 with those diagnostics; never a hang. The run is a real threaded run (the token system of
 * packages/sim/test/fixtures/tokenRing.mjs on 2 worker threads) inside a tool's action. The same for the clusters of a
 * chip, which run from a work queue on the calling thread and a worker (sim/parallel/threadedChip.ts): a cluster
 * partition whose model throws, on the worker or on the calling thread, ends the run with SIM0800 naming it, exit 3.
 */
import { describe, expect, it } from 'vitest';
import { runTool } from '@pyxis/cli';
import { runThreaded } from '@pyxis/sim';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChipThreaded } from '../../target-pyxis/src/sim/parallel/threadedChip.js';
import { loadSimConfig, defaultUieFactory } from '@pyxis/target-pyxis/sim';
import { ImageBuilder, bytesOf, gid } from '../../target-pyxis/test/sim/pyxisImage.js';

const MODULE = new URL('../../sim/test/fixtures/tokenRing.mjs', import.meta.url).href;
const c = { lats: [10, 10, 10, 10], timers: [-1, -1, -1, -1], tokens: [{ at: 0, hops: 40, work: 3 }] };
const specs = (kind: string) => [0, 1, 2, 3].map((me) => ({ name: `chip${me}`, module: MODULE, builder: 'buildTokenPartition', args: { c, part: [0, 1, 2, 3], me, fault: { node: 2, at: 30, kind } } }));

async function tool(kind: string, action: () => Promise<unknown> = () => runThreaded(specs(kind), { threads: 2 })) {
  let err = '';
  const code = await runTool(
    'pyxis-test',
    'a tool whose action is a threaded run',
    (program) => {
      program.command('run').action(async () => {
        await action();
      });
    },
    ['--no-color', 'run'],
    { stdout: () => undefined, stderr: (s) => void (err += s) },
  );
  return { code, err };
}

describe('a failing partition at the command line', () => {
  it('a model error: SIM0800 naming the partition, exit 3', async () => {
    const r = await tool('throw');
    expect(r.code).toBe(3);
    expect(r.err).toContain('SIM0800');
    expect(r.err).toContain('partition chip2 (#2) failed: node n2 fails at cycle 34');
    expect(r.err).not.toContain('    at ');
  });
  it('a worker that exits: SIM0800 naming the partitions of its thread, exit 3', async () => {
    const r = await tool('exit');
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/SIM0800.*partition chip2, chip3 failed: its worker thread exited \(code 7\)/);
  });
  it('bad input inside a partition: its diagnostics, exit 1', async () => {
    const r = await tool('diag');
    expect(r.code).toBe(1);
    expect(r.err).toContain('SIM0001');
    expect(r.err).toContain('node n2: bad input');
  });

  it('a cluster of a chip whose model throws, on the worker or on the calling thread: SIM0800 naming it, exit 3', async () => {
    // two independent clusters: HBM -> AMEM -> barrier -> HBM each
    const b = new ImageBuilder();
    for (const c of [0, 1]) {
      b.tensor(`x${c}`, 'hbm', 0x10_0000 * (c + 1), bytesOf(1024, (i) => i & 255), [8, 128], 'RFP8', 0);
      b.list(0x22, 0x1000, [ImageBuilder.desc('desc_barrier_config', { barrier_id: 3, notify_count: 1, wait_count: 1 })], c);
      b.list(0x10, 0x1100, [ImageBuilder.desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: (0x10_0000 * (c + 1)) >> 10, length: 1, notify_list: [gid(c, 3)], trip_id: 10 + c })], c);
      b.list(0x11, 0x1200, [ImageBuilder.desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: (0x100_0000 + 0x10_0000 * c) >> 10, length: 1, wait_barrier_id: 3, trip_id: 20 + c })], c);
    }
    b.metadata = { clusters: 2, uies: 0 };
    const img = b.build();
    const config = loadSimConfig();
    const module = new URL('../../target-pyxis/test/sim/parallel/fixtures/failingCluster.mjs', import.meta.url).href;
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-fail-'));
    try {
      for (const on of ['worker', 'main']) {
        process.env['PYXIS_TEST_FAIL_ON'] = on;
        process.env['PYXIS_TEST_MARK'] = join(dir, `built-${on}`);
        const r = await tool('', () => runChipThreaded(img, 'x.pimg', { config, uieFactory: defaultUieFactory, threads: 2, module }));
        expect(r.code, r.err).toBe(3);
        expect(r.err).toContain('SIM0800');
        expect(r.err).toMatch(/partition cluster[01] \(#[01]\) failed: model fault in cluster [01]/);
        expect(r.err).not.toContain('    at ');
      }
    } finally {
      delete process.env['PYXIS_TEST_FAIL_ON'];
      delete process.env['PYXIS_TEST_MARK'];
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
