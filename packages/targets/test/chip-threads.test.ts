/**
 * `pyxis-sim run IMAGE --threads N` for a single-chip image (issue 22): independent clusters run as partitions and
 * give the same summary, stats (but the `parallel` block and host time) and dumps on 1, 2 and 3 threads; an image
 * whose clusters notify each other's barriers stays in one partition and the `parallel` block says which trip.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainerFile } from '@pyxis/container';
import { runSim } from '@pyxis/targets';
import { ImageBuilder, bytesOf, gid } from '../../target-pyxis/test/sim/pyxisImage.js';
import { call } from './cli-call.js';

const desc = ImageBuilder.desc;

/** Per cluster c: HBM -> AMEM (H2A, `rows` KiB) -> barrier 3 -> A2H to its own HBM output; `cross`: cluster 0 also notifies cluster 1. */
function chipImage(rows: number[], cross = false) {
  const b = new ImageBuilder();
  rows.forEach((n, c) => {
    b.tensor(`x${c}`, 'hbm', 0x10_0000 * (c + 1), bytesOf(1024 * n, (i) => (i * 5 + c) & 255), [8 * n, 128], 'RFP8', 0);
    b.tensor(`y${c}`, 'hbm', 0x100_0000 + 0x10_0000 * c, new Uint8Array(1024 * n), [8 * n, 128], 'RFP8', 0);
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: 1, wait_count: 1 }), ...(c === 1 && cross ? [desc('desc_barrier_config', { barrier_id: 4, notify_count: 1, wait_count: 0 })] : [])], c);
    b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: (0x10_0000 * (c + 1)) >> 10, length: n, notify_list: [gid(c, 3), ...(c === 0 && cross ? [gid(1, 4)] : [])], trip_id: 10 + c })], c);
    b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: (0x100_0000 + 0x10_0000 * c) >> 10, length: n, wait_barrier_id: 3, trip_id: 20 + c })], c);
  });
  b.metadata = { clusters: rows.length, uies: 0 };
  return b.build();
}

describe('pyxis-sim run IMAGE --threads (clusters as partitions)', () => {
  it('gives the same summary, stats and dumps on 1, 2 and 3 threads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-chip-threads-'));
    writeContainerFile(join(dir, 'c.pimg'), chipImage([2, 5, 1]));
    const runs = [];
    for (const threads of [1, 2, 3]) {
      const r = await call(runSim, ['run', join(dir, 'c.pimg'), '--threads', String(threads), '--stats', join(dir, `s${threads}.json`), '--dump', `y1=${join(dir, `y${threads}.npy`)}`]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const stats = JSON.parse(readFileSync(join(dir, `s${threads}.json`), 'utf8')) as Record<string, unknown>;
      const parallel = stats['parallel'] as Record<string, unknown>;
      expect(parallel['threads_used']).toBe(threads);
      expect(parallel['partitions']).toBe(3);
      expect(parallel['cross_messages']).toBe(0);
      expect(parallel['windows']).toBe(1);
      // a work queue: every partition names the thread that ran it (0: the calling thread, which simulates too)
      expect(parallel['schedule']).toBe('queue');
      const perPart = parallel['per_partition'] as Array<{ name: string; thread: number; busy_ms: number }>;
      expect(perPart.map((p) => p.name)).toEqual(['cluster0', 'cluster1', 'cluster2']);
      for (const p of perPart) expect(p.thread >= 0 && p.thread < threads).toBe(true);
      const perThread = parallel['per_thread'] as Array<{ thread: number; busy_ms: number; first_partition_ms: number }>;
      expect(perThread.map((t) => t.thread)).toEqual(Array.from({ length: threads }, (_, i) => i));
      expect(perThread.reduce((a, t) => a + t.busy_ms, 0)).toBeCloseTo(perPart.reduce((a, p) => a + p.busy_ms, 0), 2);
      expect(r.out).toMatch(/^parallel: 3 partitions on \d threads?, no cross link \(work queue: each partition runs to its end on the next free thread\), efficiency \d+%/m);
      delete stats['parallel'];
      delete stats['host_seconds'];
      runs.push({ out: r.out.replace(/^parallel: .*\n/m, ''), stats, y: readFileSync(join(dir, `y${threads}.npy`)) });
    }
    expect(runs[0]!.out).toMatch(/completed after \d+ cycles/);
    for (const r of runs.slice(1)) {
      expect(r.out).toBe(runs[0]!.out);
      expect(r.stats).toEqual(runs[0]!.stats);
      expect(r.y.equals(runs[0]!.y)).toBe(true);
    }
    // cluster 1's output: its input, copied through its AMEM
    expect(Array.from(runs[0]!.y.subarray(-5 * 1024, -5 * 1024 + 4))).toEqual([1, 6, 11, 16]);
  });

  it('an image whose clusters notify each other stays in one partition and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-chip-threads-'));
    writeContainerFile(join(dir, 'x.pimg'), chipImage([1, 1], true));
    const r = await call(runSim, ['run', join(dir, 'x.pimg'), '--threads', '2', '--stats', join(dir, 's.json')]);
    expect(r.code).toBe(0);
    const parallel = (JSON.parse(readFileSync(join(dir, 's.json'), 'utf8')) as { parallel: Record<string, unknown> }).parallel;
    expect(parallel['threads_used']).toBe(1);
    expect(parallel['note']).toBe(
      "clusters are not independent: trip 10 (h2a, cluster 0) notifies barrier 1:4 of cluster 1: the barrier link's latency (trip_manager.notify_latency_cycles = 2) is below a useful lookahead: the single-thread path",
    );
  });

  it('through the launcher and its bundle: the bundled partition worker gives the same run', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    // `npm run build` makes the bundle with its one-file partition worker (scripts/bundle.mjs)
    expect(existsSync(join(root, 'packages/targets/bundle/partitionWorker.js')), 'run `npm run build`').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-chip-threads-'));
    writeContainerFile(join(dir, 'c.pimg'), chipImage([3, 1, 2]));
    const stats = (f: string) => {
      const s = JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;
      const p = s['parallel'] as Record<string, unknown>;
      delete s['parallel'];
      delete s['host_seconds'];
      return { s, used: p['threads_used'] };
    };
    const ref = await call(runSim, ['run', join(dir, 'c.pimg'), '--threads', '1', '--stats', join(dir, 'ref.json')]);
    expect(ref.code).toBe(0);
    for (const env of [{}, { PYXIS_NO_BUNDLE: '1' }]) {
      const out = join(dir, `b${Object.keys(env).length}.json`);
      const r = spawnSync(process.execPath, [join(root, 'bin/pyxis-sim'), 'run', join(dir, 'c.pimg'), '--threads', '2', '--stats', out], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.replace(/^parallel: .*\n/m, '')).toBe(ref.out.replace(/^parallel: .*\n/m, ''));
      const got = stats(out);
      expect(got.used).toBe(2);
      expect(got.s).toEqual(stats(join(dir, 'ref.json')).s);
    }
  });
});
