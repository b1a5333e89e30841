/**
 * Tensor layout in AMEM/HBM (chip §7.2, §7.3): a tensor of shape
 * [..., C, H, W] is stored channels-first, each row of W elements in
 * contiguous bytes (little-endian 16-bit elements, chip §7.1.1, §7.3), rows
 * `row_stride` partitions apart and channels `chan_stride` partitions apart;
 * leading dimensions fold into C. Rows are padded to 16 bytes (8-bit and
 * 32-bit formats) or 32 bytes (16-bit formats, "granularity of 16 logical
 * columns"). 32-bit integer index tables (int32 / uint32, chip §7.6, seq §8.1)
 * are stored as contiguous little-endian words, the way the ITFE reads them.
 */
import { alignUp } from '@pyxis/container';
import * as formats from '@pyxis/formats';
import { AMEM_PARTITION_BYTES } from '../common/amem.js';

/** Bytes of one AMEM partition (chip §7.1); the one definition is common/amem.ts. */
export const PARTITION = AMEM_PARTITION_BYTES;

/** Bytes per stored element: 8-bit and 16-bit data, 32-bit integer index tables. */
export type ElemBytes = 1 | 2 | 4;

/**
 * An element format the linker accepts. `int`: a 32-bit integer index format (chip §7.6): stored and moved as
 * bytes, read by the ITFEs, never fed to the grid or the VPU (checks.ts `checkIntegerTensors`).
 */
export interface ElementFormat {
  name: string;
  bytes: ElemBytes;
  int?: true;
}

/** Element formats the linker accepts (script spelling -> @pyxis/formats name). */
export const ELEMENT_FORMATS: Record<string, ElementFormat> = {
  RFP8: { name: 'RFP8', bytes: 1 },
  RFP16: { name: 'RFP16', bytes: 2 },
  LnsI4F3: { name: 'LnsI4F3', bytes: 1 },
  LnsI5F10: { name: 'LnsI5F10', bytes: 2 },
  Int16: { name: 'Int16', bytes: 2 },
  OCP_E4M3: { name: 'OCP_E4M3', bytes: 1 },
  OCP_E5M2: { name: 'OCP_E5M2', bytes: 1 },
  OFP8_E4M3: { name: 'OCP_E4M3', bytes: 1 },
  OFP8_E5M2: { name: 'OCP_E5M2', bytes: 1 },
  IEEE_FP16: { name: 'IEEE_FP16', bytes: 2 },
  FP16: { name: 'IEEE_FP16', bytes: 2 },
  Int32: { name: 'Int32', bytes: 4, int: true },
  int32: { name: 'Int32', bytes: 4, int: true },
  UInt32: { name: 'UInt32', bytes: 4, int: true },
  uint32: { name: 'UInt32', bytes: 4, int: true },
};

export interface TensorLayout {
  /** Folded dims. */
  C: number;
  H: number;
  W: number;
  elemBytes: ElemBytes;
  rowBytes: number;
  /** Strides in partitions. */
  rowStride: number;
  chanStride: number;
  /** Bytes occupied from the base address. */
  size: number;
}

/** Layout for `shape` with optional strides [chan_stride, row_stride] in partitions. */
export function tensorLayout(shape: number[], elemBytes: ElemBytes, strides?: { chan?: number; row?: number }): TensorLayout {
  const W = shape.length ? shape[shape.length - 1]! : 1;
  const H = shape.length >= 2 ? shape[shape.length - 2]! : 1;
  let C = 1;
  for (let i = 0; i < shape.length - 2; i++) C *= shape[i]!;
  const rowBytes = W * elemBytes;
  const gran = elemBytes === 2 ? 2 : 1; // 16-bit tensors: even partitions (chip §7.3)
  const minRow = Math.ceil(Math.ceil(rowBytes / PARTITION) / gran) * gran;
  const rowStride = strides?.row ?? minRow;
  const chanStride = strides?.chan ?? H * rowStride;
  const lastRowBytes = minRow * PARTITION;
  const size = C === 0 || H === 0 || W === 0 ? 0 : (C - 1) * chanStride * PARTITION + (H - 1) * rowStride * PARTITION + lastRowBytes;
  return { C, H, W, elemBytes, rowBytes, rowStride, chanStride, size };
}

/** Byte strides per dimension of `shape` (outermost first) for TensorInfo. */
export function byteStrides(shape: number[], l: TensorLayout): number[] {
  const n = shape.length;
  const out = new Array<number>(n).fill(0);
  if (n === 0) return out;
  out[n - 1] = l.elemBytes;
  if (n >= 2) out[n - 2] = l.rowStride * PARTITION;
  if (n >= 3) {
    out[n - 3] = l.chanStride * PARTITION;
    for (let i = n - 4; i >= 0; i--) out[i] = out[i + 1]! * shape[i + 1]!;
  }
  return out;
}

/** Row intervals [start, end) (bytes, partition-rounded) relative to the base address, merged and sorted. */
export function rowIntervals(l: TensorLayout): Array<[number, number]> {
  const rowLen = alignUp(l.rowBytes, PARTITION);
  const out: Array<[number, number]> = [];
  if (l.rowStride * PARTITION === rowLen && l.chanStride === l.H * l.rowStride) return l.size ? [[0, l.size]] : [];
  for (let c = 0; c < l.C; c++)
    for (let h = 0; h < l.H; h++) {
      const s = (c * l.chanStride + h * l.rowStride) * PARTITION;
      out.push([s, s + rowLen]);
    }
  out.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const iv of out) {
    const last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([iv[0], iv[1]]);
  }
  return merged;
}

/** Do two interval lists (absolute) intersect? */
export function intervalsIntersect(a: Array<[number, number]>, b: Array<[number, number]>): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [s1, e1] = a[i]!;
    const [s2, e2] = b[j]!;
    if (s1 < e2 && s2 < e1) return true;
    if (e1 <= e2) i++;
    else j++;
  }
  return false;
}

/**
 * Scatters element codes (C order over the folded [C, H, W]) into the AMEM
 * byte image of the layout. `codes` holds one code per element.
 */
export function packTensor(l: TensorLayout, codes: ArrayLike<number>, out?: Uint8Array): Uint8Array {
  const buf = out ?? new Uint8Array(l.size);
  let k = 0;
  for (let c = 0; c < l.C; c++)
    for (let h = 0; h < l.H; h++) {
      let p = (c * l.chanStride + h * l.rowStride) * PARTITION;
      if (l.elemBytes === 1 && codes instanceof Uint8Array) {
        buf.set(codes.subarray(k, k + l.W), p);
        k += l.W;
      } else if (l.elemBytes === 1) for (let w = 0; w < l.W; w++) buf[p++] = codes[k++]! & 0xff;
      else
        for (let w = 0; w < l.W; w++) {
          // little-endian (chip §7.1.1, §7.3; 32-bit indices: seq §8.1, the ITFE reads bytes in address order)
          const v = codes[k++]!;
          for (let b = 0; b < l.elemBytes; b++) buf[p++] = (v >>> (8 * b)) & 0xff;
        }
    }
  return buf;
}

/** Element codes of raw little-endian file bytes (`raw = "file"`): one code per `elemBytes` bytes. */
export function codesFromBytes(bytes: Uint8Array, elemBytes: ElemBytes): ArrayLike<number> {
  if (elemBytes === 1) return bytes;
  const n = Math.floor(bytes.length / elemBytes);
  const out = elemBytes === 2 ? new Uint16Array(n) : new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let b = elemBytes - 1; b >= 0; b--) v = v * 256 + bytes[i * elemBytes + b]!;
    out[i] = v;
  }
  return out;
}

export interface EncodeResult {
  codes: Uint16Array | Uint8Array;
  error?: string;
}

/** Float values -> codes via @pyxis/formats (getFormat / encodeArray). */
export function encodeFloats(format: string, values: Float32Array | Float64Array, eb: number, saturate: boolean): EncodeResult {
  const f = formats as unknown as {
    getFormat?: (n: string) => unknown;
    encodeArray?: (fmt: unknown, v: ArrayLike<number>, o: { eb?: number; saturate?: boolean }) => ArrayLike<number>;
  };
  if (typeof f.getFormat !== 'function' || typeof f.encodeArray !== 'function') return { codes: new Uint8Array(0), error: 'the number-formats library (@pyxis/formats) is not available' };
  const fmt = f.getFormat(format);
  const hasEb = (fmt as { hasEb?: boolean }).hasEb;
  const codes = f.encodeArray(fmt, values, hasEb ? { eb, saturate } : { saturate });
  const out = new Uint16Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = codes[i]!;
  return { codes: out };
}
