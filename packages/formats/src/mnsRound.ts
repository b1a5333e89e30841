/**
 * Fast MNS normalisation on values (chip §4.6, §6.3.3, §6.3.4): the value-level counterpart of
 * `MnsFormat.encodeWith` + `decode`, for simulators that hold accumulators as the exact double value of their
 * MNS code (±Infinity = sticky max, NaN = NaN). No allocation, no option objects.
 *
 * `mnsRoundValue(s, err, fbits)` rounds the exact real s + err (a double s plus the exact residual err of an
 * error-free summation, |err| <= ulp(s)/2, e.g. from TwoSum) to MNS 5.1.fbits at EB 0, ties to even on the
 * two's complement mantissa, exactly as `MNS13.encode(s + err)` would if s + err were representable: the
 * residual only matters when s lies exactly on a rounding midpoint (it then breaks the tie) — elsewhere
 * |err| <= ulp(s)/2 cannot move the result because the MNS grid is at least 2^(52 - fbits) ulps wide.
 * Underflow (nominal E < 0, and the +1.0 / -1.0 * 2^0 patterns) gives 0; overflow and the E = 31 all-ones
 * patterns (the sticky codes, and -2.0 * 2^31 = the NaN codepoint) give ±Infinity (docs/spec-notes.md "MNS").
 */
import { pow2 } from './bits.js';

/** Per fbits (0..52) and binade e (0..31): 1.5 * 2^(52 + e - fbits); (a + C) - C rounds a in [2^e, 2^(e+1)) to the MNS grid. */
const RC: Float64Array[] = [];
const MAXV: number[] = [];
const TWO32 = 4294967296;

/**
 * The rounding constants of MNS 5.1.fbits for `mnsRoundWith`: per binade e (0..31) 1.5 * 2^(52 + e - fbits), and
 * the first value that overflows, (2 - 2^-fbits) * 2^31. A hot loop fetches them once (module constants).
 */
export function mnsGrid(fbits: number): { rc: Float64Array; max: number } {
  let t = RC[fbits];
  if (!t) {
    t = new Float64Array(32);
    for (let e = 0; e < 32; e++) t[e] = 1.5 * pow2(52 + e - fbits);
    RC[fbits] = t;
    MAXV[fbits] = (2 - pow2(-fbits)) * pow2(31);
  }
  return { rc: t, max: MAXV[fbits]! };
}

/** Rounds s + err (exact) to MNS 5.1.fbits (EB 0) and returns the value of the result (see module doc). */
export function mnsRoundValue(s: number, err: number, fbits: number): number {
  const rc = RC[fbits];
  if (rc) return mnsRoundWith(s, err, rc, MAXV[fbits]!);
  const g = mnsGrid(fbits);
  return mnsRoundWith(s, err, g.rc, g.max);
}

/**
 * `mnsRoundValue` with the constants of `mnsGrid(fbits)`. Branch-free on the sign (a mispredicted branch per value
 * dominated the LLC grid's host time): the MNS grid of a binade is the same for both signs (a negative binade
 * (2^e, 2^(e+1)] only differs at 2^e, which is on both grids), and s + C - C with C = 1.5 * 2^(52 + e - fbits) rounds
 * s itself to it, ties to even: C is an even multiple of the grid step, so the parity of the rounded s + C is the
 * parity of the rounded magnitude (= an even two's complement code).
 */
export function mnsRoundWith(s: number, err: number, rc: Float64Array, max: number): number {
  const a = Math.abs(s);
  // a < 1: the result is at most 1.0 * 2^0, which is the zero code (positive) or underflows (negative: -2.0 * 2^-1)
  if (!(a >= 1)) return s !== s ? NaN : 0;
  if (a >= TWO32) return s < 0 ? -Infinity : Infinity; // binade above 31, also +-Infinity
  // floor(log2 a) for 1 <= a < 2^32: ToUint32 truncates a to an integer of the same binade (no bit aliasing)
  const C = rc[31 - Math.clz32(a)]!;
  let v = s + C - C;
  if (err !== 0) {
    // the exact value is s + err: it only matters when s is exactly halfway between two grid points
    const d = s - v;
    const half = (C / 3) * 2 ** -52; // 2^(e - fbits - 1), exact
    if ((d === half || d === -half) && d > 0 === err > 0) v = s + d;
  }
  const m = Math.abs(v);
  if (m <= 1) return 0; // +1.0 * 2^0 = the zero code; -1.0 * 2^0 underflows (chip §4.6)
  if (m >= max) return s < 0 ? -Infinity : Infinity; // the sticky codes, -2.0 * 2^31 (NaN pattern) and overflow
  return v;
}

/**
 * Sum of two doubles with its exact residual (Knuth's TwoSum): returns fl(a + b) and stores a + b - fl(a + b)
 * in `out[0]`. Exact for any finite a, b.
 */
export function twoSum(a: number, b: number, out: Float64Array): number {
  const s = a + b;
  const bv = s - a;
  const av = s - bv;
  out[0] = (a - av) + (b - bv);
  return s;
}
