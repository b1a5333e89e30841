/**
 * The assembled program of the NeuronCore dialect: named tensors, semaphores and one
 * instruction list whose entries name their engine stream. Stored as JSON in the object's
 * `nc.program` section (the guide publishes no binary encoding of the Neuron ISA; see
 * docs/spec-notes.md "neuroncore: object encoding").
 */
import type { DType } from './numerics.js';

export type Mem = 'hbm' | 'sbuf' | 'psum';

export interface TensorDecl {
  name: string;
  mem: Mem;
  dtype: DType;
  /** Shape, outermost first. For SBUF/PSUM the first dimension is the partition dimension. */
  shape: number[];
  /** SBUF/PSUM: first partition. */
  partition: number;
  /** SBUF/PSUM: byte offset inside each partition; HBM: byte address assigned by the linker (0 in objects). */
  offset: number;
  /** Bytes: SBUF/PSUM per partition; HBM in total. */
  bytes: number;
  line: number;
}

/**
 * A tensor access pattern (Accessing SBUF/PSUM tensors: start partition, partition count,
 * up to four free dimensions of [size, stride] in elements). For HBM the "partition" dimension
 * is the outermost slice dimension with its element stride `pstride`.
 */
export interface AP {
  tensor: number;
  mem: Mem;
  dtype: DType;
  /** First partition (SBUF/PSUM) - absolute. */
  start: number;
  /** Partition count (HBM: size of the outermost dimension). */
  np: number;
  /** HBM only: element stride of the outermost dimension. */
  pstride: number;
  /** Byte offset: inside the partition (SBUF/PSUM) or from the tensor base (HBM). */
  offset: number;
  /** Free dimensions, outermost first: [size, stride in elements]. */
  dims: Array<[number, number]>;
}

export const STREAMS = ['tensor', 'vector', 'scalar', 'gpsimd', ...Array.from({ length: 16 }, (_, i) => `dma${i}`)] as const;
export const TENSOR = 0;
export const VECTOR = 1;
export const SCALAR = 2;
export const GPSIMD = 3;
export const DMA0 = 4;

export type AttrValue = number | string | number[] | AP;

export interface Insn {
  /** Mnemonic, e.g. `tensor.multiply_moving`. */
  op: string;
  /** Engine stream index in STREAMS. */
  stream: number;
  out?: AP;
  ins: AP[];
  attrs: Record<string, AttrValue>;
  /** Semaphore waits before issue: [semaphore index, value], satisfied when sem >= value. */
  waits: Array<[number, number]>;
  /** Explicit signal on completion: [semaphore index, increment]. */
  signal?: [number, number];
  /** Depends on the previous instruction of its own engine (the guide's static overhead case). */
  depPrev?: boolean;
  file: string;
  line: number;
  col: number;
}

export interface NcProgram {
  tensors: TensorDecl[];
  /** Semaphore names: user semaphores, then one `auto.<stream>` per stream (counts completions). */
  semaphores: string[];
  /** Index of the first automatic semaphore (`auto.<STREAMS[i]>` = autoBase + i). */
  autoBase: number;
  sync: 'auto' | 'explicit';
  insns: Insn[];
}

/** Elements per partition of an access pattern. */
export function freeSize(ap: AP): number {
  let n = 1;
  for (const [s] of ap.dims) n *= s;
  return n;
}

/** Innermost stride in bytes (for the access-pattern bandwidth rule). */
export function innerStrideBytes(ap: AP, bytes: number): number {
  const d = ap.dims[ap.dims.length - 1];
  return d && d[0] > 1 ? Math.abs(d[1]) * bytes : bytes;
}
