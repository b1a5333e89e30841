/**
 * Two's complement fixed-point arithmetic (systolic-fpga-hardware.md §1; docs/spec-notes.md
 * "formats: fixed point ..." and "systolic: fixed-point multiply-accumulate"), the one
 * implementation of the Tensil data types FP8BP4, FP16BP8, FP18BP10 and FP32BP16:
 *
 * - saturate(v) = clamp(v, -2^(W-1), 2^(W-1) - 1)
 * - mac(x, y, z) = saturate(round_half_even((x*y + z*2^B) / 2^B)), exact (BigInt when W > 26)
 * - float -> fixed: `fmt.encodeWith` (half up for the Tensil types, then saturate).
 *
 * The `*Raw`/signed functions work on sign-extended integers (what a simulator keeps in an
 * Int32Array) and check nothing; `fixedMac` works on codes (unsigned W-bit) and checks them.
 */
import { FormatErrorCode, fail } from './errors.js';
import type { FixedPoint } from './formats.js';

/** Clamp a signed integer to the format's range. */
export function fixedSaturate(fmt: FixedPoint, v: number): number {
  return v > fmt.maxInt ? fmt.maxInt : v < fmt.minInt ? fmt.minInt : v;
}

/**
 * One multiply-accumulate step on signed integers: saturate(rne((x*y + z*2^B) / 2^B)).
 * Exact in doubles while |x*y| + |z|*2^B < 2^53 (W <= 26); wider formats take BigInt.
 */
export function fixedMacRaw(fmt: FixedPoint, x: number, y: number, z: number): number {
  if (fmt.bits > 26) return macBig(fmt, x, y, z);
  const one = fmt.scale;
  const m = x * y + z * one;
  const q = Math.floor(m / one);
  const r = m - q * one; // 0 <= r < one
  const half = one / 2; // 0.5 when B = 0: r is 0 then, never rounds
  // nearest, ties to even: up when above half, or exactly half and q odd
  const adj = r > half || (r === half && q % 2 !== 0) ? 1 : 0;
  return fixedSaturate(fmt, q + adj);
}

function macBig(fmt: FixedPoint, x: number, y: number, z: number): number {
  const bp = BigInt(fmt.fbits);
  const m = BigInt(x) * BigInt(y) + (BigInt(z) << bp);
  const q = m >> bp; // floor
  if (bp === 0n) return fixedSaturate(fmt, Number(q));
  const r = m - (q << bp);
  const half = 1n << (bp - 1n);
  const adj = r > half || (r === half && (q & 1n) !== 0n) ? 1n : 0n;
  return fixedSaturate(fmt, Number(q + adj));
}

function signedCode(fmt: FixedPoint, code: number, what: string): number {
  if (!(code >= 0 && code <= fmt.maxInt - fmt.minInt && Number.isInteger(code))) {
    fail(FormatErrorCode.codeRange, `${what} ${code} does not fit ${fmt.name}`, fmt.spec);
  }
  return fmt.toSigned(code);
}

/** Scalar multiply-accumulate on codes: a*b + c with the rounding and saturation of `fixedMacRaw`. */
export function fixedMac(fmt: FixedPoint, a: number, b: number, c: number): number {
  return fmt.fromSigned(fixedMacRaw(fmt, signedCode(fmt, a, 'code'), signedCode(fmt, b, 'code'), signedCode(fmt, c, 'accumulator code')));
}

/**
 * Specialised kernel for formats of at most 16 bits (products below 2^31, int32 arithmetic):
 * y[j] = the chain s = wt[j*(N+1)]; s = mac(x[k-1], wt[j*(N+1)+k], s) for k = 1..N.
 * With p = x*w, (p + s*2^B) >> B is s + (p >> B) and the rounding bits are p's own low
 * bits, so the accumulator is never shifted. Branch-free rounding: the half bit, and a
 * non-zero bit below it (sticky) or an odd quotient. Requires 1 <= bp <= 15.
 * Equal to `fixedMacRaw` step by step (tested).
 */
export function fixedMatVec16(x: Int32Array, wt: Int32Array, y: Int32Array, N: number, bp: number, max: number, min: number): void {
  const hb = bp - 1;
  const low = (1 << hb) - 1;
  const N1 = N + 1;
  for (let j = 0; j < N; j++) {
    const col = j * N1;
    let s = wt[col]!;
    for (let k = 1; k <= N; k++) {
      const p = x[k - 1]! * wt[col + k]!;
      let q = s + (p >> bp);
      q += ((p >> hb) & 1) & ((((p & low) + low) >> hb) | (q & 1));
      s = q > max ? max : q < min ? min : q;
    }
    y[j] = s;
  }
}

/**
 * y = the N multiply-accumulate chains of a weight matrix `wt` ((N+1) x N, column j at
 * j*(N+1): its bias then the N row weights) over the input vector x (signed integers).
 * Picks `fixedMatVec16` for formats of at most 16 bits with a binary point, else `fixedMacRaw`.
 */
export function fixedMatVec(fmt: FixedPoint, x: Int32Array, wt: Int32Array, y: Int32Array, N: number): void {
  if (fmt.bits <= 16 && fmt.fbits >= 1) {
    fixedMatVec16(x, wt, y, N, fmt.fbits, fmt.maxInt, fmt.minInt);
    return;
  }
  for (let j = 0; j < N; j++) {
    const col = j * (N + 1);
    let s = wt[col]!;
    for (let k = 1; k <= N; k++) s = fixedMacRaw(fmt, x[k - 1]!, wt[col + k]!, s);
    y[j] = s;
  }
}

/** Floats to signed integers of the format (its `encodeWith`: rounding, saturation, NaN -> 0). */
export function encodeFixedInt32(
  fmt: FixedPoint,
  values: ArrayLike<number>,
  out: Int32Array = new Int32Array(values.length),
  outOffset = 0,
): Int32Array {
  const n = values.length;
  for (let i = 0; i < n; i++) out[outOffset + i] = fmt.toSigned(fmt.encodeWith(values[i]!, 0, true, false));
  return out;
}

/** Signed integers of the format to floats (q / 2^B). */
export function decodeFixedInt32<T extends Float32Array | Float64Array = Float64Array>(
  fmt: FixedPoint,
  values: Int32Array,
  out?: T,
  outOffset = 0,
): T {
  const o = out ?? (new Float64Array(values.length) as T);
  const sc = fmt.scale;
  for (let i = 0; i < values.length; i++) o[outOffset + i] = values[i]! / sc;
  return o;
}
