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

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** Per fbits (0..52) and binade e (0..31): 1.5 * 2^(52 + e - fbits); (a + C) - C rounds a in [2^e, 2^(e+1)) to the MNS grid. */
const RC: Float64Array[] = [];
function rcTable(fbits: number): Float64Array {
  let t = RC[fbits];
  if (!t) {
    t = new Float64Array(32);
    for (let e = 0; e < 32; e++) t[e] = 1.5 * pow2(52 + e - fbits);
    RC[fbits] = t;
  }
  return t;
}
const MAXV: number[] = [];

/** Rounds s + err (exact) to MNS 5.1.fbits (EB 0) and returns the value of the result (see module doc). */
export function mnsRoundValue(s: number, err: number, fbits: number): number {
  if (s !== s) return NaN;
  const neg = s < 0;
  const a = neg ? -s : s;
  f64[0] = a;
  const e = ((u32[HI]! >>> 20) & 0x7ff) - 1023; // floor(log2 a) for normal a; 0 and subnormals give e < 0
  // a < 1: the result is at most 1.0 * 2^0, which is the zero code (positive) or underflows (negative: -2.0 * 2^-1)
  if (e < 0) return 0;
  if (e > 31) return neg ? -Infinity : Infinity; // also +-Infinity
  // The MNS grid of a's binade has step 2^(e - fbits) for both signs (a negative binade (2^e, 2^(e+1)] only differs
  // at a = 2^e, which is on both grids): IEEE round-to-nearest-even of a + C does the rounding, ties to an even
  // mantissa (= an even two's complement code).
  const C = (RC[fbits] ?? rcTable(fbits))[e]!;
  let v = a + C - C;
  if (err !== 0) {
    // the exact value is a + r: it only matters when a is exactly halfway between two grid points
    const d = a - v;
    const half = (C / 3) * 2 ** -52; // 2^(e - fbits - 1), exact
    if ((d === half || d === -half) && d > 0 === (neg ? -err : err) > 0) v = a + d;
  }
  const max = MAXV[fbits] ?? (MAXV[fbits] = (2 - pow2(-fbits)) * pow2(31));
  if (v <= 1) return 0; // +1.0 * 2^0 = the zero code; -1.0 * 2^0 underflows (chip §4.6)
  if (v >= max) return neg ? -Infinity : Infinity; // the sticky codes, -2.0 * 2^31 (NaN pattern) and overflow
  return neg ? -v : v;
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
