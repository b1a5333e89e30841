/**
 * A system's chips as partitions on worker threads (sim/parallel/): the same stop, cycles, per-chip reports, wire
 * stats and explainer lines as the in-process system runner (fabric/systemRun.ts) at 1, 2 and 4 threads, chips with
 * different images (so they finish at different cycles) included; a deadlocked chip is reported alike. The workers
 * load the built package (npm ci / tsc -b): Node 20 runs no TypeScript in a worker.
 */
import { describe, expect, it } from 'vitest';
import { writeContainer } from '@pyxis/container';
import { ImageBuilder, bytesOf, gid } from '../pyxisImage.js';
import { parseSystem } from '../../../src/sim/fabric/system.js';
import { runSystem, type ChipBuildInput } from '../../../src/sim/fabric/systemRun.js';
import { makeUieFactory } from '../../../src/sim/uieDefault.js';
import { runSystemThreaded } from '../../../src/sim/parallel/threadedSystem.js';

const desc = ImageBuilder.desc;

/** HBM -> AMEM -> HBM through barrier 3 of cluster 0, `rows` KiB; `notify` = 2 deadlocks it (a count never reached). */
function copyImage(rows: number, notify = 1): Uint8Array {
  const b = new ImageBuilder();
  b.tensor('x', 'hbm', 0x8000, bytesOf(1024 * rows, (i) => (i * 7) & 255), [8 * rows, 128], 'RFP8', 0);
  b.data('amem', 0x40000, new Uint8Array(1024 * rows), 0, '.tensor.y');
  b.symbols.push({ name: 'y', kind: 'tensor', section: b.sections.length - 1, offset: 0, size: 1024 * rows, global: true, tensor: { shape: [8 * rows, 128], format: 'RFP8', eb: 0 } });
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: notify, wait_count: 1 })]);
  b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x8000 >> 10, length: rows, notify_list: [gid(0, 3)], trip_id: 1 })]);
  b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x100000 >> 10, length: rows, wait_barrier_id: 3, trip_id: 2 })]);
  b.metadata = { barriers: [{ cluster: 0, id: 3 }] };
  return writeContainer(b.build());
}

function system(images: Uint8Array[]) {
  const { system: sys, diagnostics } = parseSystem('sys.json', JSON.stringify({ chips: images.length, images: images.map((_, k) => `c${k}.pimg`), voq_map: [{ group: 0, chip: '+1' }] }));
  expect(diagnostics).toEqual([]);
  const inputs: ChipBuildInput[] = images.map((image, k) => ({ chip: k, image, imageFile: `c${k}.pimg`, voqToVpfe: sys!.voqToVpfe[k]! }));
  return { sys: sys!, inputs };
}

const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('runSystemThreaded', () => {
  it('gives the in-process system result at 1, 2 and 4 threads', async () => {
    for (const images of [[copyImage(1), copyImage(3), copyImage(2), copyImage(5)], [copyImage(2), copyImage(1, 2), copyImage(1)]]) {
      const { sys, inputs } = system(images);
      const ref = runSystem(inputs, { fabric: sys.fabric, clusterVpfe: sys.clusterVpfe, uieFactory: makeUieFactory({}) });
      for (const threads of [1, 2, 4]) {
        const r = await runSystemThreaded(inputs, { fabric: sys.fabric, clusterVpfe: sys.clusterVpfe, faults: null, timingOnly: false, threads });
        expect([r.stop, r.cycles]).toEqual([ref.stop, ref.cycles]);
        expect(plain(r.chips.map((c) => c.report))).toEqual(plain(ref.chips.map((c) => c.report)));
        expect(plain(r.wire)).toEqual(plain(ref.wire));
        expect(plain(r.links)).toEqual(plain(ref.links));
        expect(r.waitGraph).toEqual(ref.waitGraph);
        expect(r.parallel.threads).toBe(Math.min(threads, images.length));
        expect(r.parallel.lookahead).toBe(ref.params.oneWayCycles);
      }
      expect(ref.stop).toBe(images.length === 4 ? 'done' : 'deadlock');
    }
  });
});
