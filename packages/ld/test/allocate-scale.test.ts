/**
 * Issue 15: placement must be O(n log n). Wall-clock ratios are flaky on a shared machine, so the allocator
 * counts its work (`allocStats.steps`: tree nodes visited, fixed-item comparisons) and the test compares the
 * count for n and 4n items: n log n grows by about 4.6x, a quadratic pass by 16x.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticBag } from '@pyxis/diagnostics';
import { allocateFirstFit, allocStats, type AllocItem, type AllocRegion } from '@pyxis/ld';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n tensors of 128..640 bytes with mixed alignments (1 KiB among them: every leftover gap is misaligned for it), some fixed. */
function workload(n: number, fixedEvery = 0) {
  const r: AllocRegion = { name: 'hbm', origin: 0, length: 2 ** 36, items: [] };
  const rand = rng(n);
  const items: AllocItem[] = [];
  for (let i = 0; i < n; i++) {
    const size = 128 * (1 + Math.floor(rand() * 5));
    const align = [8, 128, 1024][Math.floor(rand() * 3)]!;
    const it: AllocItem = { name: `t${i}`, what: 'tensor', region: r, size, align, address: -1 };
    if (fixedEvery && i % fixedEvery === 0) it.fixed = 2 ** 30 + i * 4096;
    items.push(it);
  }
  return { r, items };
}

function steps(n: number, fixedEvery = 0): number {
  const { items } = workload(n, fixedEvery);
  const bag = new DiagnosticBag();
  allocateFirstFit(items, bag, { spec: () => 's' });
  expect(bag.items).toEqual([]);
  return allocStats.steps;
}

describe('allocateFirstFit scale', () => {
  it('work grows as n log n (5,000 vs 20,000 tensors), also with fixed items among them', () => {
    for (const fixedEvery of [0, 7]) {
      const a = steps(5_000, fixedEvery);
      const b = steps(20_000, fixedEvery);
      expect(b / a, `steps ${a} -> ${b}`).toBeLessThan(7);
      // and the constant is small: a few dozen nodes per item
      expect(b / 20_000).toBeLessThan(200);
    }
  });

  it('places exactly like a linear first-fit scan on random workloads with many items', () => {
    const linear = (origin: number, length: number, specs: Array<{ size: number; align: number }>) => {
      const used: Array<[number, number]> = [];
      return specs.map((s) => {
        used.sort((x, y) => x[0] - y[0]);
        let cand = Math.ceil(origin / s.align) * s.align;
        for (const [a, b] of used) {
          if (cand + s.size <= a) break;
          if (b > cand) cand = Math.ceil(b / s.align) * s.align;
        }
        if (cand + s.size > origin + length) return undefined;
        used.push([cand, cand + s.size]);
        return cand;
      });
    };
    const item = fc.record({ size: fc.integer({ min: 1, max: 300 }), align: fc.constantFrom(1, 8, 64, 128, 1024) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1000, max: 40_000 }), fc.array(item, { maxLength: 150 }), (origin, length, specs) => {
        const r: AllocRegion = { name: 'r', origin, length, items: [] };
        const items: AllocItem[] = specs.map((s, k) => ({ name: `i${k}`, what: 'item', region: r, size: s.size, align: s.align, address: -1 }));
        allocateFirstFit(items, new DiagnosticBag(), { spec: () => 's' });
        const want = linear(origin, length, specs);
        items.forEach((it, k) => expect(it.address).toBe(want[k] ?? -1));
        expect(r.items.map((x) => x.start)).toEqual([...r.items.map((x) => x.start)].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });
});
