/**
 * The simulator's view of grammars/pyxis/noc_map.json (chip §12.7, Table 11-1,
 * Table 12-1) equals the file itself: the JSON is read here with plain
 * fs + JSON.parse, independently of noc.ts / queues.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  defaultWindows,
  icdmaDestination,
  NOC_ADDR_W,
  NOC_AMEM,
  NOC_AMEM_STRIDE,
  NOC_AMEM_WIDTH,
  NOC_CFG,
  NOC_CFG_STRIDE,
  NOC_HBM,
  queueKind,
  TRIP_QUEUES,
} from '@pyxis/target-pyxis/sim';

const FILE = join(dirname(fileURLToPath(import.meta.url)), '../../../../grammars/pyxis/noc_map.json');
const J = JSON.parse(readFileSync(FILE, 'utf8')) as {
  noc_addr_w: number;
  regions: Array<{ name: string; base: string; stride: string; width?: number; per_cluster: boolean }>;
  remap_windows: { windows: Array<{ window: number; region: string; offset: string; mask: string }> };
  icdma_destinations: { by_source: Array<{ cluster: number; targets: number[] }> };
  queues: { table: Array<{ kind: string; name: string; first: number; count: number; trip: boolean }> };
};
const region = (n: string) => J.regions.find((r) => r.name === n)!;

describe('simulator view of grammars/pyxis/noc_map.json', () => {
  it('NOC_* equal the regions', () => {
    expect([NOC_ADDR_W, NOC_HBM, NOC_AMEM, NOC_AMEM_STRIDE, NOC_AMEM_WIDTH, NOC_CFG, NOC_CFG_STRIDE]).toEqual([
      J.noc_addr_w,
      Number(BigInt(region('hbm').base)),
      Number(BigInt(region('amem').base)),
      Number(BigInt(region('amem').stride)),
      region('amem').width,
      Number(BigInt(region('cfg').base)),
      Number(BigInt(region('cfg').stride)),
    ]);
    // docs/image-layout.md, by hand
    expect([NOC_ADDR_W, NOC_HBM, NOC_AMEM, NOC_AMEM_STRIDE, NOC_AMEM_WIDTH, NOC_CFG, NOC_CFG_STRIDE]).toEqual([39, 0, 0x10_0000_0000, 0x1000_0000, 27, 0x20_0000_0000, 0x4000_0000]);
  });

  it('defaultWindows(c) equals remap_windows (bigint) for every cluster', () => {
    for (let c = 0; c < 4; c++) {
      const want = [...J.remap_windows.windows]
        .sort((a, b) => a.window - b.window)
        .map((w) => {
          const r = region(w.region);
          return { base: BigInt(r.base) + (r.per_cluster ? BigInt(c) * BigInt(r.stride) : 0n) + BigInt(w.offset), mask: BigInt(w.mask) };
        });
      expect(defaultWindows(c)).toEqual(want);
    }
    expect(defaultWindows(3)).toEqual([
      { base: 0x10_3000_0000n, mask: 0x07ff_ffffn },
      { base: 0x20_c000_0000n, mask: 0x3fff_ffffn },
      { base: 0n, mask: 0x3fff_ffffn },
      { base: 0x4000_0000n, mask: 0x3fff_ffffn },
    ]);
  });

  it('queueKind equals the trip rows of the queue table; datagram and unknown ids are undefined', () => {
    const want = new Map<number, { kind: string; index: number }>();
    for (const g of J.queues.table) if (g.trip) for (let i = 0; i < g.count; i++) want.set(g.first + i, { kind: g.kind, index: i });
    for (let q = -2; q < 0x40; q++) expect(queueKind(q)).toEqual(want.get(q));
    expect(TRIP_QUEUES).toBe(Math.max(...want.keys()) + 1);
    expect(TRIP_QUEUES).toBe(0x23);
  });

  it('icdmaDestination equals icdma_destinations; anything else throws', () => {
    for (const r of J.icdma_destinations.by_source) r.targets.forEach((t, i) => expect(icdmaDestination(r.cluster, i)).toBe(t));
    expect(() => icdmaDestination(0, 3)).toThrow(/Table 12-1/);
    expect(() => icdmaDestination(3, 3)).toThrow(RangeError);
    expect(() => icdmaDestination(4, 0)).toThrow(RangeError);
    expect(() => icdmaDestination(0, -1)).toThrow(RangeError);
  });
});
