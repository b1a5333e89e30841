/** First-fit allocation of @pyxis/ld against a reference written here (a byte-occupancy scan). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticBag } from '@pyxis/diagnostics';
import { allocateFirstFit, type AllocItem, type AllocRegion } from '@pyxis/ld';

const region = (origin: number, length: number): AllocRegion => ({ name: 'r', origin, length, items: [] });
const rules = { spec: () => 'spec §1' };

/** Reference: fixed items occupy their bytes; each other item takes the lowest aligned start whose bytes are all free. */
function reference(origin: number, length: number, items: Array<{ size: number; align: number; fixed?: number }>): Array<number | undefined> {
  const used = new Uint8Array(length);
  const take = (s: number, n: number) => used.fill(1, s - origin, s - origin + n);
  const free = (s: number, n: number) => s >= origin && s + n <= origin + length && used.subarray(s - origin, s - origin + n).every((x) => x === 0);
  const out: Array<number | undefined> = items.map(() => undefined);
  items.forEach((it, k) => {
    if (it.fixed !== undefined && free(it.fixed, it.size)) {
      take(it.fixed, it.size);
      out[k] = it.fixed;
    }
  });
  items.forEach((it, k) => {
    if (it.fixed !== undefined) return;
    for (let s = Math.ceil(origin / it.align) * it.align; s + it.size <= origin + length; s += it.align)
      if (free(s, it.size)) {
        take(s, it.size);
        out[k] = s;
        return;
      }
  });
  return out;
}

describe('allocateFirstFit', () => {
  it('matches the byte-scan reference for random items (fixed first, then first fit in order)', () => {
    const item = fc.record({ size: fc.integer({ min: 1, max: 64 }), align: fc.constantFrom(1, 2, 8, 16, 32), fixed: fc.option(fc.integer({ min: 0, max: 40 }).map((x) => x * 8), { nil: undefined }) });
    fc.assert(fc.property(fc.integer({ min: 0, max: 4 }).map((x) => x * 8), fc.integer({ min: 64, max: 400 }), fc.array(item, { maxLength: 12 }), (origin, length, specs) => {
      const r = region(origin, length);
      const items: AllocItem[] = specs.map((s, k) => ({ name: `i${k}`, what: 'item', region: r, size: s.size, align: s.fixed !== undefined ? 8 : s.align, address: -1, ...(s.fixed !== undefined ? { fixed: s.fixed } : {}) }));
      const bag = new DiagnosticBag();
      allocateFirstFit(items, bag, rules);
      const want = reference(origin, length, items);
      items.forEach((it, k) => {
        if (want[k] === undefined) expect(it.address).toBe(-1);
        else expect(it.address).toBe(want[k]);
      });
      // every unplaced item has exactly one diagnostic
      expect(bag.items.length).toBe(want.filter((x) => x === undefined).length);
      expect(r.items.reduce((n, x) => n + x.end - x.start, 0)).toBe(items.filter((_, k) => want[k] !== undefined).reduce((n, x) => n + x.size, 0));
    }));
  });
  it('diagnostics: misaligned, outside, overlapping, overflow; aliasing allowed by the rule', () => {
    const r = region(0x100, 0x100);
    const mk = (name: string, size: number, fixed?: number, align = 16): AllocItem => ({ name, what: 'tensor', region: r, size, align, address: -1, ...(fixed !== undefined ? { fixed } : {}) });
    const bag = new DiagnosticBag();
    const items = [mk('a', 0x20, 0x108), mk('b', 0x20, 0x300), mk('c', 0x20, 0x110), mk('d', 0x100)];
    allocateFirstFit(items, bag, rules);
    expect(bag.items.map((d) => d.code)).toEqual(['LD0303', 'LD0304', 'LD0305', 'LD0306']);
    expect(bag.items.every((d) => d.spec === 'spec §1')).toBe(true);
    const bag2 = new DiagnosticBag();
    const r2 = region(0, 0x100);
    const x = { ...mk('x', 0x20, 0), region: r2 };
    const y = { ...mk('y', 0x20, 0x10), region: r2 };
    allocateFirstFit([x, y], bag2, { ...rules, mayAlias: () => true });
    expect(bag2.items).toEqual([]);
    expect([x.address, y.address]).toEqual([0, 0x10]);
  });
});
