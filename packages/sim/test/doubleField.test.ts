/**
 * kernel/doubleField.ts: `dbl` and `smi` change V8's representation of a number, never the number (host speed only,
 * docs/dev/performance.md "Deopt sites of busy48"). Every double, integers around the 31- and 32-bit limits,
 * Infinity and NaN come back as the same value (`Object.is`, -0 aside: smi may give +0 for it, equal as a cycle).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dbl, objs, smi } from '../src/kernel/doubleField.js';

const same = (a: number, b: number): boolean => Object.is(a, b) || (a === 0 && b === 0);

describe('doubleField', () => {
  it('smi and dbl return the number they are given', () => {
    const edge = [0, 1, -1, 0.5, -0.5, 2 ** 30 - 1, 2 ** 30, -(2 ** 30), -(2 ** 30) - 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 3, 2 ** 53, -(2 ** 53), Infinity, -Infinity, NaN, 1e300, 299478];
    for (const x of edge) {
      expect(same(smi(x), x), `smi(${x})`).toBe(true);
      expect(same(dbl(x), x), `dbl(${x})`).toBe(true);
      expect(same(smi(dbl(x)), x), `smi(dbl(${x}))`).toBe(true);
    }
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), fc.maxSafeInteger()), (x) => same(smi(x), x) && same(smi(dbl(x)), x)),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 200) },
    );
  });
  it('smi gives -0 back as a zero and a fraction unchanged', () => {
    expect(smi(-0)).toBe(0);
    expect(smi(2.5)).toBe(2.5);
    expect(smi(-(2 ** 30) - 0.5)).toBe(-(2 ** 30) - 0.5);
  });
  it('objs gives a new empty array each call, which then behaves as any array', () => {
    const a = objs<{ v: number }>();
    const b = objs<{ v: number }>();
    expect(a).not.toBe(b);
    expect(a).toEqual([]);
    expect(Object.keys(a)).toEqual([]);
    a.push({ v: 1 }, { v: 2 });
    expect(a.map((x) => x.v)).toEqual([1, 2]);
    expect(b.length).toBe(0);
    expect(a.shift()?.v).toBe(1);
    expect(a.length).toBe(1);
  });
});
