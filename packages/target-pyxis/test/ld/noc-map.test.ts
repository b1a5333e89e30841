/**
 * The linker's view of grammars/pyxis/noc_map.json (chip §12.7, Table 11-1,
 * Table 12-1) equals the file itself: the JSON is read here with plain
 * fs + JSON.parse, independently of image.ts, and every derived value is
 * recomputed from it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { icdmaDestination, NOC, QUEUE_NAMES, queueByName, queueName, remapWindows } from '../../src/ld/image.js';

const FILE = join(dirname(fileURLToPath(import.meta.url)), '../../../../grammars/pyxis/noc_map.json');
const J = JSON.parse(readFileSync(FILE, 'utf8')) as {
  regions: Array<{ name: string; base: string; stride: string; per_cluster: boolean }>;
  remap_windows: { windows: Array<{ window: number; region: string; offset: string; mask: string }> };
  icdma_destinations: { by_source: Array<{ cluster: number; targets: number[] }> };
  queues: { table: Array<{ kind: string; name: string; first: number; count: number; trip: boolean }> };
};
const region = (n: string) => J.regions.find((r) => r.name === n)!;

describe('linker view of grammars/pyxis/noc_map.json', () => {
  it('NOC equals the regions', () => {
    expect(NOC).toEqual({
      hbm: parseInt(region('hbm').base, 16),
      amem: parseInt(region('amem').base, 16),
      amemStride: parseInt(region('amem').stride, 16),
      cfg: parseInt(region('cfg').base, 16),
      cfgStride: parseInt(region('cfg').stride, 16),
    });
    // docs/image-layout.md, by hand
    expect(NOC).toEqual({ hbm: 0, amem: 0x10_0000_0000, amemStride: 0x1000_0000, cfg: 0x20_0000_0000, cfgStride: 0x4000_0000 });
  });

  it('remapWindows(c) equals remap_windows for every cluster', () => {
    for (let c = 0; c < 4; c++) {
      const want = J.remap_windows.windows
        .sort((a, b) => a.window - b.window)
        .map((w) => {
          const r = region(w.region);
          return { base: parseInt(r.base, 16) + (r.per_cluster ? c * parseInt(r.stride, 16) : 0) + parseInt(w.offset, 16), mask: parseInt(w.mask, 16) };
        });
      expect(remapWindows(c)).toEqual(want);
    }
    // docs/image-layout.md table, by hand, cluster 2
    expect(remapWindows(2)).toEqual([
      { base: 0x10_2000_0000, mask: 0x07ff_ffff },
      { base: 0x20_8000_0000, mask: 0x3fff_ffff },
      { base: 0, mask: 0x3fff_ffff },
      { base: 0x4000_0000, mask: 0x3fff_ffff },
    ]);
  });

  it('queueByName / queueName cover exactly the trip queues of the table', () => {
    let n = 0;
    for (const g of J.queues.table) {
      for (let i = 0; i < g.count; i++) {
        const name = g.count > 1 ? `${g.name}${i}` : g.name;
        if (!g.trip) {
          expect(queueByName(name)).toBeUndefined();
          expect(queueName(g.first + i)).toBe(`q${g.first + i}`);
          continue;
        }
        n++;
        expect(queueByName(name)).toEqual({ id: g.first + i, kind: g.name, index: i, name });
        expect(queueName(g.first + i)).toBe(name);
      }
    }
    expect(n).toBe(0x23);
    expect(queueName(0x27)).toBe('q39');
    expect(QUEUE_NAMES).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `uie${i}`),
      'h2a', 'a2h', 'icdma0', 'icdma1', 'icdma2',
      ...Array.from({ length: 13 }, (_, i) => `mpe${i}`),
    ]);
  });

  it('icdmaDestination equals icdma_destinations; anything else throws', () => {
    for (const r of J.icdma_destinations.by_source) r.targets.forEach((t, i) => expect(icdmaDestination(r.cluster, i)).toBe(t));
    expect(() => icdmaDestination(0, 3)).toThrow(/Table 12-1/);
    expect(() => icdmaDestination(4, 0)).toThrow(RangeError);
    expect(() => icdmaDestination(-1, 0)).toThrow(RangeError);
    expect(() => icdmaDestination(1, -1)).toThrow(RangeError);
    expect(() => icdmaDestination(1, 0.5)).toThrow(RangeError);
  });
});
