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

/** Rounds s + err (exact) to MNS 5.1.fbits (EB 0) and returns the value of the result (see module doc). */
export function mnsRoundValue(s: number, err: number, fbits: number): number {
  if (s !== s) return NaN;
  if (s === 0) return 0; // |err| <= ulp(0)/2 = 0
  const neg = s < 0;
  if (s === Infinity || s === -Infinity) return s;
  const a = neg ? -s : s;
  const r = neg ? -err : err; // residual of the magnitude
  f64[0] = a;
  let e = ((u32[HI]! >>> 20) & 0x7ff) - 1023; // floor(log2 a); a >= 2^-1022 here (smaller values underflow below)
  if (e < -1) return 0; // below 0.5: underflows whatever the rounding (covers double subnormals)
  if (e > 34) return neg ? -Infinity : Infinity;
  // negative binades are (2^e, 2^(e+1)]: -2^e is -2.0 * 2^(e-1) (chip §4.6)
  if (neg && a === pow2(e) && r <= 0) e -= 1;
  const N = fbits;
  const sc = a * pow2(N - e); // in [2^N, 2^(N+1)], exact (power-of-two scaling)
  let m = Math.floor(sc);
  const d = sc - m;
  if (d > 0.5 || (d === 0.5 && (r > 0 || (r === 0 && (m & 1) === 1)))) m += 1;
  if (!neg) {
    if (m === 2 << N) {
      m >>= 1;
      e += 1;
    }
    if (e < 0) return 0; // exponent underflow
    if (e > 31) return Infinity;
    if (e === 0 && m === 1 << N) return 0; // +1.0 * 2^0 collides with the zero code
    if (e === 31 && m === (2 << N) - 1) return Infinity; // the sticky +max code
    return m * pow2(e - N);
  }
  // negative: magnitude m * 2^(e-N) with m in (2^N, 2^(N+1)]; m = 2^N means -1.0 * 2^e = -2.0 * 2^(e-1)
  if (m === 1 << N) {
    m = 2 << N;
    e -= 1;
  }
  if (e < 0) return 0;
  if (e > 31) return -Infinity;
  if (e === 31 && (m === 2 << N || m === (2 << N) - 1)) return -Infinity; // NaN pattern -> over; sticky -max code
  return -m * pow2(e - N);
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
