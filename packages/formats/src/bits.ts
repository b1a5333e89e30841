/** Exact power-of-two and rounding helpers on doubles (no allocation). */

const POW2_OFF = 1100;
const POW2 = new Float64Array(2 * POW2_OFF + 1);
{
  POW2[POW2_OFF] = 1;
  for (let k = 1; k <= POW2_OFF; k++) {
    POW2[POW2_OFF + k] = POW2[POW2_OFF + k - 1]! * 2;
    POW2[POW2_OFF - k] = POW2[POW2_OFF - k + 1]! / 2; // exact down to 2^-1074, then 0
  }
}

/** 2^k exactly (Infinity / 0 outside the double range). */
export function pow2(k: number): number {
  if (k >= -POW2_OFF && k <= POW2_OFF) return POW2[k + POW2_OFF]!;
  return k > 0 ? Infinity : 0;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** floor(log2(a)) for finite a > 0, exact (reads the double's exponent field). */
export function ilogb(a: number): number {
  f64[0] = a;
  const be = (u32[HI]! >>> 20) & 0x7ff;
  if (be !== 0) return be - 1023;
  f64[0] = a * 18446744073709551616; // 2^64: double subnormal
  return ((u32[HI]! >>> 20) & 0x7ff) - 1023 - 64;
}

/** Round a double to an integer, ties to even (exact for |s| < 2^53). */
export function rne(s: number): number {
  const r = Math.floor(s);
  const d = s - r;
  if (d > 0.5 || (d === 0.5 && r % 2 !== 0)) return r + 1;
  return r;
}

/** Round-to-nearest-even of v / 2^sh for a non-negative integer v < 2^31 and 0 <= sh <= 30. */
export function rneShift(v: number, sh: number): number {
  if (sh <= 0) return v * pow2(-sh);
  const q = v >>> sh;
  const rem = v & ((1 << sh) - 1);
  const half = 1 << (sh - 1);
  return rem > half || (rem === half && (q & 1) === 1) ? q + 1 : q;
}

/** Round-to-nearest-even of the rational n / d (integers, d > 0, |n| < 2^53). */
export function rneDiv(n: number, d: number): number {
  const q = Math.floor(n / d);
  const r = n - q * d;
  if (2 * r > d || (2 * r === d && q % 2 !== 0)) return q + 1;
  return q;
}

export type Rounding = 'rne' | 'rtz';
