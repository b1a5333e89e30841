/**
 * rfp16Encode (the lane-loop RFP16 encoder) against RFP16.encodeWith (nearest-even, saturating) and against
 * worked codes of chip §4.2 at EB -15: every sum and product of two RFP16 values, random doubles of every binade,
 * midpoints, the range edges and the specials. Runs: FC_RUNS (default 3000).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RFP16, rfp16Encode } from '@pyxis/formats';

const RUNS = Number(process.env['FC_RUNS'] ?? 3000);
const enc = (x: number, eb: number): number => rfp16Encode(x, eb);

describe('rfp16Encode (RFP16 encode for lane loops, chip §4.2)', () => {
  it('worked codes at EB -15', () => {
    expect(enc(1, -15)).toBe(0x3c00); // E = 15, F = 0
    expect(enc(-1.5, -15)).toBe(0x8000 | 0x3e00);
    expect(enc(1 + 2 ** -11, -15)).toBe(0x3c00); // tie -> even F = 0
    expect(enc(1 + 3 * 2 ** -11, -15)).toBe(0x3c02); // tie -> even F = 2
    expect(enc(2 ** -15, -15)).toBe(0); // E = 0 F = 0 is the zero code
    expect(enc(2 ** -15 * (1 + 2 ** -10), -15)).toBe(0x0001);
    expect(enc(2 ** -16, -15)).toBe(0); // rounds up to 2^-15 = zero code
    expect(enc(2 ** -17, -15)).toBe(0);
    expect(enc(2 ** 16 * (2 - 2 ** -10), -15)).toBe(0x7fff); // the max value
    expect(enc(2 ** 17, -15)).toBe(0x7fff); // saturates
    expect(enc(-(2 ** 40), -15)).toBe(0xffff);
    expect(enc(Infinity, -15)).toBe(0x7fff);
    expect(enc(-Infinity, -15)).toBe(0xffff);
    expect(enc(NaN, -15)).toBe(0x8000);
    expect(enc(-0, -15)).toBe(0);
    expect(enc(5e-324, -15)).toBe(0); // subnormal double
    expect(enc(-(2 ** -1074), 31)).toBe(0);
    expect(enc(2 ** 1023, -32)).toBe(0x7fff);
  });

  it('agrees with RFP16.encodeWith on sums and products of RFP16 values at any EB', () => {
    const code = fc.integer({ min: 0, max: 0xffff }).filter((c) => c !== 0x8000);
    fc.assert(
      fc.property(code, code, fc.integer({ min: -32, max: 31 }), (x, y, eb) => {
        const u = RFP16.decode(x, eb);
        const v = RFP16.decode(y, eb);
        expect(enc(u + v, eb)).toBe(RFP16.encodeWith(u + v, eb, true, false));
        expect(enc(u - v, eb)).toBe(RFP16.encodeWith(u - v, eb, true, false));
        // a product at EB eb of two values at EB eb: (u * v) scaled back by 2^-eb
        const p = u * v * 2 ** -eb;
        expect(enc(p, eb)).toBe(RFP16.encodeWith(p, eb, true, false));
      }),
      { numRuns: RUNS },
    );
  });

  it('agrees with RFP16.encodeWith on random doubles and midpoints', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), fc.integer({ min: -32, max: 31 }), (x, eb) => {
        expect(enc(x, eb)).toBe(RFP16.encodeWith(x, eb, true, false));
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1024, max: 2047 }), fc.integer({ min: -20, max: 40 }), fc.boolean(), fc.constantFrom(-1, 0, 1), (m, e, neg, nudge) => {
        const x = (neg ? -1 : 1) * (m + 0.5 + nudge * 2 ** -20) * 2 ** (e - 10);
        expect(enc(x, -15)).toBe(RFP16.encodeWith(x, -15, true, false));
      }),
      { numRuns: RUNS },
    );
  });
});
