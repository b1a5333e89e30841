/**
 * Int32 / UInt32: the 32-bit integer entries of AMEM index tables (indirection mode 1, chip §7.6,
 * seq §5.2.2, §8.1). The code is the integer (two's complement for Int32); encode rounds to nearest,
 * ties to even, and saturates (or wraps modulo 2^32). Reference: exact integer arithmetic in the test.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Int32, UInt32, decodeArray, encodeArray, getFormat } from '../src/index.js';

/** Nearest integer, ties to even, written from the definition. */
const nearestEven = (x: number) => {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
};

describe('Int32 / UInt32 (index tables)', () => {
  it('golden codes: identity on integers, two\'s complement, saturation, NaN -> 0, ties to even', () => {
    expect([Int32.encode(5), Int32.encode(-1), Int32.encode(-(2 ** 31)), Int32.encode(2 ** 31), Int32.encode(-(2 ** 40))]).toEqual([5, 0xffffffff, 0x80000000, 0x7fffffff, 0x80000000]);
    expect([UInt32.encode(0xffffffff), UInt32.encode(2 ** 33), UInt32.encode(-1), UInt32.encode(NaN), UInt32.encode(2.5), UInt32.encode(3.5)]).toEqual([0xffffffff, 0xffffffff, 0, 0, 2, 4]);
    expect([Int32.decode(0xffffffff), Int32.decode(0x80000000), UInt32.decode(0xffffffff)]).toEqual([-1, -(2 ** 31), 2 ** 32 - 1]);
    expect(Int32.encode(2 ** 32 + 7, { saturate: false })).toBe(7);
    expect(UInt32.encode(-1, { saturate: false })).toBe(0xffffffff);
    expect([Int32.bits, UInt32.bits, Int32.hasEb, getFormat('UInt32')]).toEqual([32, 32, false, UInt32]);
  });

  it('out-of-range codes are diagnostics (FMT0003)', () => {
    expect(() => Int32.decode(2 ** 32)).toThrow(/FMT0003|does not fit|code/);
    expect(() => UInt32.decode(-1)).toThrow();
  });

  it('property: encode = clamp(nearest-even(x)) as an unsigned 32-bit code; decode inverts it on integers', () => {
    fc.assert(
      fc.property(fc.double({ min: -(2 ** 34), max: 2 ** 34, noNaN: true }), (x) => {
        const q = nearestEven(x);
        const s = Math.min(2 ** 31 - 1, Math.max(-(2 ** 31), q));
        expect(Int32.encode(x)).toBe((s < 0 ? s + 2 ** 32 : s) + 0); // + 0: a code is never -0
        expect(UInt32.encode(x)).toBe(Math.min(2 ** 32 - 1, Math.max(0, q)));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 50 }), (v) => {
        const codes = encodeArray(Int32, v);
        expect(codes).toBeInstanceOf(Uint32Array);
        expect([...codes]).toEqual(v.map((x) => x >>> 0));
        expect([...decodeArray(Int32, codes)]).toEqual(v);
      }),
    );
  });
});
