/**
 * RFP16 encoding on the hot path of a simulator's lane loops (chip §4.2: S E5 F10, no subnormals, +0 code = zero,
 * -0 code = NaN, all-ones magnitude = saturating max): `rfp16Encode(x, eb)` is exactly
 * `RFP16.encodeWith(x, eb, true, false)` (nearest-even, saturating) for every double x.
 *
 * Integer arithmetic on the double's bits, without a branch on the sign or on the rounding direction (a mispredicted
 * branch per lane cost more than the rest of a VPU lane operation): the truncated magnitude code is
 * (exponent - 1023 - eb) << 10 | the top 10 fraction bits; the round-up bit (nearest, ties to even) is the carry of
 * rest + sticky-or-odd + 0x1ff out of 10 bits, and adding it to the code carries into the exponent field as the
 * hardware's mantissa overflow does. Codes <= 0 (below 2^eb, ±0, subnormals) are zero; codes >= 0x8000 (beyond the
 * maximum, ±Infinity) saturate; NaN is the NaN code.
 */
const f64 = new Float64Array(1);
const i32 = new Int32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LO = 1 - HI;

/** RFP16 code of x at exponent bias eb (see the module doc). */
export function rfp16Encode(x: number, eb: number): number {
  f64[0] = x;
  const hi = i32[HI]!;
  const lo = i32[LO]!;
  const mag = ((((hi >>> 20) & 0x7ff) - 1023 - eb) << 10) | ((hi >>> 10) & 0x3ff);
  // round up when the rest (10 bits of hi, then lo) exceeds half, or equals half with a sticky bit or an odd code
  const t = mag + (((hi & 0x3ff) + (((lo | -lo) >>> 31) | (mag & 1)) + 0x1ff) >>> 10);
  if (t <= 0) return 0;
  if (t >= 0x8000) return x !== x ? 0x8000 : ((hi >>> 16) & 0x8000) | 0x7fff;
  return t | ((hi >>> 16) & 0x8000);
}
