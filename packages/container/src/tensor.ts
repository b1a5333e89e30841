/**
 * In-memory tensors as read from / written to `.npy` and `.safetensors`
 * files (docs/tensor-files.md). Data is a typed array in C (row-major) order;
 * 16-bit floats (float16, bfloat16) are kept as raw Uint16 bit patterns.
 */
import { DiagnosticError, error } from '@pyxis/diagnostics';
import { TensorCodes } from './codes.js';

export type TensorDType = 'uint8' | 'int8' | 'uint16' | 'int16' | 'int32' | 'uint32' | 'float16' | 'bfloat16' | 'float32' | 'float64';

export type TensorData = Uint8Array | Int8Array | Uint16Array | Int16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export interface Tensor {
  dtype: TensorDType;
  /** Dimensions, outermost first; `[]` is a scalar (one element). */
  shape: number[];
  /** Elements in C order; length = product of shape. */
  data: TensorData;
}

interface DTypeInfo {
  size: number;
  /** NumPy descr (little-endian), or undefined when NumPy has no such dtype. */
  npy?: string;
  safetensors: string;
  make: (buf: ArrayBuffer, count: number) => TensorData;
  ctor: new (n: number) => TensorData;
}

export const DTYPES: Record<TensorDType, DTypeInfo> = {
  uint8: { size: 1, npy: '|u1', safetensors: 'U8', make: (b, n) => new Uint8Array(b, 0, n), ctor: Uint8Array },
  int8: { size: 1, npy: '|i1', safetensors: 'I8', make: (b, n) => new Int8Array(b, 0, n), ctor: Int8Array },
  uint16: { size: 2, npy: '<u2', safetensors: 'U16', make: (b, n) => new Uint16Array(b, 0, n), ctor: Uint16Array },
  int16: { size: 2, npy: '<i2', safetensors: 'I16', make: (b, n) => new Int16Array(b, 0, n), ctor: Int16Array },
  int32: { size: 4, npy: '<i4', safetensors: 'I32', make: (b, n) => new Int32Array(b, 0, n), ctor: Int32Array },
  uint32: { size: 4, npy: '<u4', safetensors: 'U32', make: (b, n) => new Uint32Array(b, 0, n), ctor: Uint32Array },
  float16: { size: 2, npy: '<f2', safetensors: 'F16', make: (b, n) => new Uint16Array(b, 0, n), ctor: Uint16Array },
  bfloat16: { size: 2, safetensors: 'BF16', make: (b, n) => new Uint16Array(b, 0, n), ctor: Uint16Array },
  float32: { size: 4, npy: '<f4', safetensors: 'F32', make: (b, n) => new Float32Array(b, 0, n), ctor: Float32Array },
  float64: { size: 8, npy: '<f8', safetensors: 'F64', make: (b, n) => new Float64Array(b, 0, n), ctor: Float64Array },
};

/** Element count of a shape (1 for a scalar). */
export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** Copies `len` bytes at `off` into a fresh, aligned buffer and views them as `dtype`. */
export function typedFromBytes(dtype: TensorDType, bytes: Uint8Array, off: number, count: number): TensorData {
  const info = DTYPES[dtype];
  const buf = new ArrayBuffer(count * info.size);
  new Uint8Array(buf).set(bytes.subarray(off, off + count * info.size));
  return info.make(buf, count);
}

/** The raw little-endian bytes of a tensor's data (a view, no copy). */
export function tensorBytes(t: Tensor): Uint8Array {
  return new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
}

/** Checks an in-memory tensor before writing (dtype known, shape legal, data type and length match). */
export function checkTensor(t: Tensor, what: string): void {
  const bad = (m: string): never => {
    throw new DiagnosticError(error(TensorCodes.badTensor, `cannot write ${what}: ${m}`));
  };
  const info = DTYPES[t.dtype];
  if (!info) bad(`unknown dtype ${String(t.dtype)}`);
  if (!Array.isArray(t.shape) || t.shape.some((d) => !Number.isSafeInteger(d) || d < 0)) bad(`shape must be a list of non-negative integers, got ${JSON.stringify(t.shape)}`);
  if (!(t.data instanceof info.ctor)) bad(`${t.dtype} data must be a ${info.ctor.name}, got ${t.data?.constructor?.name ?? typeof t.data}`);
  if (t.data.length !== elementCount(t.shape)) bad(`shape [${t.shape.join(', ')}] has ${elementCount(t.shape)} elements, data has ${t.data.length}`);
}

/** Convenience constructor. */
export function makeTensor(dtype: TensorDType, shape: number[], data?: TensorData): Tensor {
  return { dtype, shape, data: data ?? new DTYPES[dtype].ctor(elementCount(shape)) };
}
