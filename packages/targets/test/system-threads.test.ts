/**
 * `pyxis-sim run SYSTEM --threads N` (issue 22): a system's chips on 1, 2 and 3 worker threads give the same summary,
 * stats (but the `parallel` block and host time) and dumps; the `parallel` block says what ran where.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainerFile } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';
import { ImageBuilder, bytesOf, gid } from '../../target-pyxis/test/sim/pyxisImage.js';
import { call } from './cli-call.js';

const desc = ImageBuilder.desc;

function copyImage(rows: number) {
  const b = new ImageBuilder();
  b.tensor('x', 'hbm', 0x8000, bytesOf(1024 * rows, (i) => (i * 5) & 255), [8 * rows, 128], 'RFP8', 0);
  b.data('amem', 0x40000, new Uint8Array(1024 * rows), 0, '.tensor.y');
  b.symbols.push({ name: 'y', kind: 'tensor', section: b.sections.length - 1, offset: 0, size: 1024 * rows, global: true, tensor: { shape: [8 * rows, 128], format: 'RFP8', eb: 0 } });
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: 1, wait_count: 1 })]);
  b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x8000 >> 10, length: rows, notify_list: [gid(0, 3)], trip_id: 1 })]);
  b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x100000 >> 10, length: rows, wait_barrier_id: 3, trip_id: 2 })]);
  b.metadata = { barriers: [{ cluster: 0, id: 3 }] };
  return b.build();
}

describe('pyxis-sim run SYSTEM --threads', () => {
  it('gives the same summary, stats and dumps on 1, 2 and 3 threads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-sys-threads-'));
    [1, 4, 2].forEach((rows, k) => writeContainerFile(join(dir, `c${k}.pimg`), copyImage(rows)));
    writeFileSync(join(dir, 'sys.json'), JSON.stringify({ chips: 3, images: ['c0.pimg', 'c1.pimg', 'c2.pimg'], voq_map: [{ group: 0, chip: '+1' }] }));
    expect((await call(runLd, [join(dir, 'sys.json'), '-o', join(dir, 'sys.psys')])).code).toBe(0);
    const runs = [];
    for (const threads of [1, 2, 3]) {
      const r = await call(runSim, ['run', join(dir, 'sys.psys'), '--threads', String(threads), '--stats', join(dir, `s${threads}.json`), '--dump', `chip1:y=${join(dir, `y${threads}.npy`)}`]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const { parallel, host_seconds: _, ...stats } = JSON.parse(readFileSync(join(dir, `s${threads}.json`), 'utf8'));
      expect(parallel.threads_asked).toBe(threads);
      expect(parallel.threads_used).toBe(threads);
      expect(parallel.partitions).toBe(3);
      runs.push({ out: r.out.replace(/\nparallel: .*$/s, ''), stats, y: readFileSync(join(dir, `y${threads}.npy`)) });
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    // machine parameters reach the chips built inside the workers
    const slow = [];
    for (const threads of [1, 2]) {
      const r = await call(runSim, ['run', join(dir, 'sys.psys'), '--threads', String(threads), '--set', 'hbm.read_latency_cycles=900', '--stats', join(dir, `p${threads}.json`)]);
      expect(r.code).toBe(0);
      slow.push(JSON.parse(readFileSync(join(dir, `p${threads}.json`), 'utf8')).cycles);
    }
    expect(slow[1]).toBe(slow[0]);
    expect(slow[0]).toBeGreaterThan(runs[0]!.stats.cycles);
    // the launcher, from the CLI bundle and from dist: the workers find their script and the chip builder either way
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    for (const env of [{}, { PYXIS_NO_BUNDLE: '1' }]) {
      const r = spawnSync(process.execPath, [`${root}bin/pyxis-sim`, 'run', join(dir, 'sys.psys'), '--threads', '2', '--stats', '-'], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
      expect(r.status, r.stderr).toBe(0);
      const st = JSON.parse(r.stdout);
      expect([st.cycles, st.parallel.threads_used]).toEqual([runs[0]!.stats.cycles, 2]);
    }
  });
});
