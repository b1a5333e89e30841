/**
 * RFP16 encoding on the hot path of a simulator's lane loops (chip §4.2: S E5 F10, no subnormals, +0 code = zero,
 * -0 code = NaN, all-ones magnitude = saturating max): `rfp16EncodeScaled(x * rfp16Scale(eb))` is exactly
 * `RFP16.encodeWith(x, eb, true, false)` (nearest-even, saturating) for every double x, without `ilogb`'s bit aliasing
 * or a call per format: the caller scales x once by 2^(1 - eb) (exact: a power of two), which maps the representable
 * range [2^(eb - 1), 2^(eb + 32)) onto [1, 2^33), where Math.clz32 gives the binade.
 */
import { pow2 } from './bits.js';

const TWO32 = 4294967296;
const TWO33 = 8589934592;
/** (m + 2^52) - 2^52 rounds a non-negative m < 2^52 to an integer, ties to even. */
const RI = 4503599627370496;
/** 2^(10 - k) for the binade k (0..32) of the scaled magnitude: the mantissa with 10 fraction bits. */
const PK = new Float64Array(33);
for (let k = 0; k <= 32; k++) PK[k] = pow2(10 - k);

/** 2^(1 - eb): the factor `rfp16EncodeScaled` expects its argument multiplied by. */
export function rfp16Scale(eb: number): number {
  return pow2(1 - eb);
}

/** RFP16 code of y / rfp16Scale(eb) at EB eb (see the module doc). NaN -> the NaN code; ±0 and underflow -> 0. */
export function rfp16EncodeScaled(y: number): number {
  const a = Math.abs(y);
  if (!(a >= 1)) return a === a ? 0 : 0x8000; // below 2^(eb - 1) (and ±0): zero; NaN: the NaN code
  if (a >= TWO33) return y < 0 ? 0xffff : 0x7fff; // binade above eb + 31 (and ±Infinity): saturating max
  // binade k = e - eb + 1 (0..32); the rounded mantissa r (1024..2048) may carry into the next binade
  const k = a >= TWO32 ? 32 : 31 - Math.clz32(a);
  const r = a * PK[k]! + RI - RI;
  // magnitude code (E = e - eb, F = r - 1024): E > 31 saturates, E < 0 and E = 0 F = 0 are zero (chip §4.1)
  const t = k * 1024 + r - 2048;
  if (t >= 0x8000) return y < 0 ? 0xffff : 0x7fff;
  if (t <= 0) return 0;
  return y < 0 ? t | 0x8000 : t;
}
