/**
 * Tensors into DRAM vectors for the linker and the `.tmodel` loader: a `.npy`
 * is quantised to the architecture's data type (floats: nearest, ties up,
 * saturated, fixed.ts `fromFloat`; integer arrays: taken as raw fixed point,
 * range-checked), a `.tdata` is taken as raw little-endian fixed point of the
 * exact size. Elements fill the lanes of consecutive vectors in C order; a
 * last dimension smaller than array_size fills the first lanes of each vector
 * (docs/spec-notes.md "systolic: .tmodel inputs and outputs"). Each float
 * tensor reports its quantisation error: the largest |x - q(x)| and the RMS
 * over its elements. Problems are diagnostics naming the file (and the element).
 */
import { basename } from 'node:path';
import { DiagnosticError } from '@pyxis/diagnostics';
import { readNpy, type Tensor } from '@pyxis/container';
import type { Arch } from './arch.js';
import { fixedType, fromFloat, toFloat, writeFixed } from './fixed.js';

export interface Packed {
  /** Raw little-endian fixed point, `vectors` x array_size values. */
  bytes: Uint8Array;
  vectors: number;
  /** Elements of the source tensor (zero padding lanes excluded). */
  elements: number;
  /** Largest |float - quantised| (0 for raw data). */
  maxAbsError: number;
  /** sqrt(mean((float - quantised)^2)) over the elements (0 for raw data). */
  rmsError: number;
  /** Elements that were clamped to the type's range. */
  saturated: number;
  /** `npy-float`, `npy-raw` (integer array taken as fixed point) or `tdata`. */
  source: 'npy-float' | 'npy-raw' | 'tdata';
}

function fail(file: string, code: string, message: string, offset = 0): never {
  throw new DiagnosticError({ severity: 'error', code, message, span: { file, offset } });
}

/** A tensor as `size` vectors (see the module comment). `what` names it in messages (`input x:0`, `consts[0]`). */
export function packTensor(t: Tensor, size: number, arch: Arch, file: string, what: string): Packed {
  const N = arch.array_size;
  const ft = fixedType(arch.data_type);
  const total = t.data.length;
  let lanes = N;
  if (total !== size * N) {
    const last = t.shape[t.shape.length - 1] ?? 1;
    if (last < N && total === size * last) lanes = last;
    else fail(file, 'SYS0302', `${what}: ${total} elements (shape [${t.shape.join(', ')}]) do not fill ${size} vectors of ${N} lanes (give ${size * N} elements, or ${size} rows of at most ${N})`);
  }
  if (t.dtype === 'float16' || t.dtype === 'bfloat16') fail(file, 'SYS0304', `${what}: ${t.dtype} .npy files are not read here; save the tensor as float32 or float64`);
  const isFloat = t.dtype === 'float32' || t.dtype === 'float64';
  const values = new Int32Array(size * N);
  let maxAbs = 0;
  let sq = 0;
  let saturated = 0;
  for (let i = 0; i < total; i++) {
    const x = Number(t.data[i]);
    const at = Math.floor(i / lanes) * N + (i % lanes);
    if (isFloat) {
      if (!Number.isFinite(x)) fail(file, 'SYS0304', `${what}: element ${i} is ${x}; only finite values can be quantised to ${arch.data_type}`);
      const q = fromFloat(ft, x);
      if (q === ft.max || q === ft.min) if (Math.abs(x - toFloat(ft, q)) > 2 ** -ft.bp) saturated++;
      const e = Math.abs(x - toFloat(ft, q));
      if (e > maxAbs) maxAbs = e;
      sq += e * e;
      values[at] = q;
    } else {
      if (x < ft.min || x > ft.max) fail(file, 'SYS0304', `${what}: element ${i} = ${x} is outside the raw ${arch.data_type} range ${ft.min}..${ft.max} (integer .npy arrays are taken as raw fixed point)`);
      values[at] = x;
    }
  }
  const bytes = new Uint8Array(values.length * ft.bytes);
  writeFixed(ft, values, 0, values.length, bytes, 0);
  return { bytes, vectors: size, elements: total, maxAbsError: maxAbs, rmsError: total && isFloat ? Math.sqrt(sq / total) : 0, saturated, source: isFloat ? 'npy-float' : 'npy-raw' };
}

/** Raw `.tdata` bytes for `size` vectors: the length must be exact. */
export function packTData(bytes: Uint8Array, size: number, arch: Arch, file: string, what: string): Packed {
  const vbytes = arch.array_size * fixedType(arch.data_type).bytes;
  if (bytes.length !== size * vbytes) fail(file, 'SYS0202', `${what}: ${basename(file)} holds ${bytes.length} bytes, the manifest says ${size} vectors of ${vbytes} bytes (${size * vbytes})`, Math.min(bytes.length, size * vbytes));
  return { bytes, vectors: size, elements: size * arch.array_size, maxAbsError: 0, rmsError: 0, saturated: 0, source: 'tdata' };
}

/** A file by its extension: `.npy` quantised, anything else raw `.tdata`. */
export function packFile(bytes: Uint8Array, size: number, arch: Arch, file: string, what: string): Packed {
  return file.toLowerCase().endsWith('.npy') ? packTensor(readNpy(bytes, file), size, arch, file, what) : packTData(bytes, size, arch, file, what);
}
