/**
 * mnsRoundValue / mnsRoundWith (value-level MNS 5.1.fbits rounding, chip §4.6) against a reference written here from
 * the module's definition: the exact real s + err rounded to the grid 2^(e - fbits) of its binade e (= floor(log2 |x|)),
 * nearest, ties to an even mantissa; |x| < 1 and results <= 1 give 0; binades above 31 and results at or above
 * (2 - 2^-fbits) * 2^31 give ±Infinity; NaN gives NaN. Runs: FC_RUNS (default 2000).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mnsGrid, mnsRoundValue, mnsRoundWith } from '@pyxis/formats';

const RUNS = Number(process.env['FC_RUNS'] ?? 2000);

/** Reference: magnitude arithmetic in units of the grid step (every operation below is exact). */
function ref(s: number, err: number, fbits: number): number {
  if (Number.isNaN(s)) return NaN;
  const sign = s < 0 ? -1 : 1;
  const a = Math.abs(s);
  if (a < 1) return 0;
  let e = 0;
  while (e <= 40 && 2 ** (e + 1) <= a) e++;
  if (e > 31) return sign * Infinity;
  const q = 2 ** (e - fbits);
  const n = a / q; // exact: division by a power of two
  let r = Math.floor(n);
  const f = n - r; // exact
  const towards = err * sign; // > 0: the exact magnitude lies above a
  if (f > 0.5 || (f === 0.5 && (towards > 0 || (towards === 0 && r % 2 === 1)))) r++;
  const v = r * q;
  if (v <= 1) return 0;
  if (v >= (2 - 2 ** -fbits) * 2 ** 31) return sign * Infinity;
  return sign * v;
}

/** s on or next to a grid midpoint of binade e (the interesting cases) or anywhere in it, with a residual err. */
const arbCase = fc
  .record({
    fbits: fc.constantFrom(13, 18, 0, 1, 10, 30, 40), // (fbits <= 51: a grid point plus a residual is never a midpoint)
    e: fc.integer({ min: -2, max: 33 }),
    mant: fc.integer({ min: 0, max: 2 ** 20 - 1 }),
    kind: fc.constantFrom('mid', 'grid', 'any'),
    neg: fc.boolean(),
    errSign: fc.constantFrom(-1, 0, 1),
    errScale: fc.integer({ min: 1, max: 60 }),
  })
  .map(({ fbits, e, mant, kind, neg, errSign, errScale }) => {
    const q = 2 ** (e - fbits);
    let a: number;
    if (kind === 'any') a = 2 ** e * (1 + mant / 2 ** 20);
    else {
      const steps = mant % 2 ** Math.min(fbits, 20);
      a = 2 ** e + steps * q + (kind === 'mid' ? q / 2 : 0);
    }
    const s = neg ? -a : a;
    // |err| <= ulp(s) / 2, as a TwoSum residual
    const ulp = 2 ** (Math.floor(Math.log2(Math.abs(s) || 1)) - 52);
    return { s, err: errSign * ulp * 2 ** -errScale, fbits };
  });

describe('mnsRoundValue (MNS 5.1.fbits value rounding, chip §4.6)', () => {
  it('agrees with the reference on random values, midpoints and residuals', () => {
    fc.assert(
      fc.property(arbCase, ({ s, err, fbits }) => {
        const want = ref(s, err, fbits);
        expect(Object.is(mnsRoundValue(s, err, fbits), want)).toBe(true);
        const g = mnsGrid(fbits);
        expect(Object.is(mnsRoundWith(s, err, g.rc, g.max), want)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('worked values: ties to even, the residual breaks a tie, underflow, sticky overflow', () => {
    // MNS 5.1.13 at 2^0: step 2^-13; 1 + 2^-14 is a tie between 1 (even) and 1 + 2^-13 -> 1 -> the zero code
    expect(mnsRoundValue(1 + 2 ** -14, 0, 13)).toBe(0);
    expect(mnsRoundValue(2 + 2 ** -13, 0, 13)).toBe(2); // tie at step 2^-12 -> even 2
    expect(mnsRoundValue(2 + 3 * 2 ** -13, 0, 13)).toBe(2 + 2 ** -11); // tie -> even (2 + 2 * 2^-12)
    expect(mnsRoundValue(2 + 2 ** -13, 2 ** -60, 13)).toBe(2 + 2 ** -12); // residual above the tie
    expect(mnsRoundValue(-(2 + 2 ** -13), -(2 ** -60), 13)).toBe(-(2 + 2 ** -12)); // magnitude above the tie
    expect(mnsRoundValue(-(2 + 2 ** -13), 2 ** -60, 13)).toBe(-2);
    expect(mnsRoundValue(0.75, 0, 13)).toBe(0);
    expect(mnsRoundValue(-0.75, 0, 13)).toBe(0);
    expect(mnsRoundValue(2 ** 32, 0, 13)).toBe(Infinity);
    expect(mnsRoundValue(-(2 ** 31) * (2 - 2 ** -14), 0, 13)).toBe(-Infinity); // rounds up to the max pattern
    expect(mnsRoundValue(2 ** 31 * (2 - 2 ** -12), 0, 13)).toBe(2 ** 31 * (2 - 2 ** -12));
    expect(mnsRoundValue(NaN, 0, 13)).toBeNaN();
    expect(mnsRoundValue(-Infinity, 0, 18)).toBe(-Infinity);
  });
});
