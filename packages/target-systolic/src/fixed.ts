/**
 * Tensil's fixed-point data types (FP16BP8, FP32BP16, FP8BP4, FP18BP10) as the
 * hardware computes them (docs/spec-notes.md "systolic: fixed-point multiply-
 * accumulate"): values are two's complement integers with `bp` fraction bits;
 * every multiply-accumulate forms `x*y + (z << bp)` exactly, shifts right by
 * `bp` rounding to nearest-even, and saturates to the width; additions
 * saturate. Conversions from float round half up (Java Math.round) and
 * saturate, as the Tensil tools write `.tdata` and inputs.
 */
import { DATA_TYPES, type DataTypeName } from './arch.js';

export interface FixedType {
  name: DataTypeName;
  width: number;
  bp: number;
  bytes: number;
  min: number;
  max: number;
  one: number;
}

export function fixedType(name: DataTypeName): FixedType {
  const d = DATA_TYPES[name];
  return { name, width: d.width, bp: d.bp, bytes: d.bytes, min: -(2 ** (d.width - 1)), max: 2 ** (d.width - 1) - 1, one: 2 ** d.bp };
}

export function saturate(t: FixedType, v: number): number {
  return v > t.max ? t.max : v < t.min ? t.min : v;
}

/** Float to fixed: round half up (Java Math.round = floor(x + 0.5)), then saturate. */
export function fromFloat(t: FixedType, f: number): number {
  if (Number.isNaN(f)) return 0;
  return saturate(t, Math.floor(f * t.one + 0.5));
}

export function toFloat(t: FixedType, v: number): number {
  return v / t.one;
}

/**
 * mac(x, y, z) = sat(rne((x*y + z*2^bp) / 2^bp)). Exact in doubles while
 * |x*y| + |z|*2^bp < 2^53 (every type but FP32BP16, which takes BigInt).
 */
export function mac(t: FixedType, x: number, y: number, z: number): number {
  if (t.width > 24) return macBig(t, x, y, z);
  const one = t.one;
  const m = x * y + z * one;
  const q = Math.floor(m / one);
  const r = m - q * one; // 0 <= r < one
  const half = one / 2;
  // round-to-nearest-even: up when above half, or exactly half and q odd
  const adj = r > half || (r === half && (q & 1) !== 0) ? 1 : 0;
  return saturate(t, q + adj);
}

function macBig(t: FixedType, x: number, y: number, z: number): number {
  const bp = BigInt(t.bp);
  const m = BigInt(x) * BigInt(y) + (BigInt(z) << bp);
  const q = m >> bp; // floor
  const r = m - (q << bp);
  const half = 1n << (bp - 1n);
  const adj = r > half || (r === half && (q & 1n) !== 0n) ? 1n : 0n;
  return saturate(t, Number(q + adj));
}

export function satAdd(t: FixedType, a: number, b: number): number {
  return saturate(t, a + b);
}

/** Reads `count` little-endian values of the type from bytes (sign-extended from `width`). */
export function readFixed(t: FixedType, bytes: Uint8Array, offset: number, out: Int32Array, outOffset: number, count: number): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shift = 32 - t.width;
  for (let i = 0; i < count; i++) {
    const o = offset + i * t.bytes;
    let v: number;
    if (t.bytes === 1) v = dv.getUint8(o);
    else if (t.bytes === 2) v = dv.getUint16(o, true);
    else v = dv.getUint32(o, true);
    out[outOffset + i] = shift ? (v << shift) >> shift : v | 0;
  }
}

export function writeFixed(t: FixedType, values: Int32Array, from: number, count: number, out: Uint8Array, offset: number): void {
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const mask = t.width === 32 ? 0xffffffff : 2 ** t.width - 1;
  for (let i = 0; i < count; i++) {
    const v = (values[from + i]! & mask) >>> 0;
    const o = offset + i * t.bytes;
    if (t.bytes === 1) dv.setUint8(o, v);
    else if (t.bytes === 2) dv.setUint16(o, v, true);
    else dv.setUint32(o, v, true);
  }
}
