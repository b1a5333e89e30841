/**
 * Tensil's fixed-point data types (FP16BP8, FP32BP16, FP8BP4, FP18BP10) as the
 * target uses them: the formats themselves (rounding, saturation, the
 * multiply-accumulate step and the MatMul kernel) live in @pyxis/formats
 * (packages/formats/src/fixed.ts, docs/spec-notes.md "systolic: fixed-point
 * multiply-accumulate"); this module binds an architecture's data type to its
 * format and adds the little-endian `.tdata` packing. Values are held as
 * sign-extended integers (Int32Array).
 */
import { FP16BP8, FP18BP10, FP32BP16, FP8BP4, fixedMacRaw, fixedSaturate, type FixedPoint } from '@pyxis/formats';
import { DATA_TYPES, type DataTypeName } from './arch.js';

export interface FixedType {
  name: DataTypeName;
  width: number;
  bp: number;
  bytes: number;
  min: number;
  max: number;
  one: number;
  /** The @pyxis/formats descriptor. */
  fmt: FixedPoint;
}

const FORMATS: Record<DataTypeName, FixedPoint> = { FP16BP8, FP32BP16, FP8BP4, FP18BP10 };

export function fixedType(name: DataTypeName): FixedType {
  const fmt = FORMATS[name];
  return { name, width: fmt.bits, bp: fmt.fbits, bytes: DATA_TYPES[name].bytes, min: fmt.minInt, max: fmt.maxInt, one: fmt.scale, fmt };
}

export function saturate(t: FixedType, v: number): number {
  return fixedSaturate(t.fmt, v);
}

/** Float to fixed: nearest, ties up (Java Math.round), then saturate; NaN -> 0 (@pyxis/formats encodeWith). */
export function fromFloat(t: FixedType, f: number): number {
  return t.fmt.toSigned(t.fmt.encodeWith(f, 0, true, false));
}

export function toFloat(t: FixedType, v: number): number {
  return t.fmt.decodeSigned(v);
}

/** mac(x, y, z) = sat(rne((x*y + z*2^bp) / 2^bp)) (@pyxis/formats fixedMacRaw). */
export function mac(t: FixedType, x: number, y: number, z: number): number {
  return fixedMacRaw(t.fmt, x, y, z);
}

export function satAdd(t: FixedType, a: number, b: number): number {
  return fixedSaturate(t.fmt, a + b);
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
