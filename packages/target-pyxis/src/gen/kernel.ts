import type { SimReport } from '../sim/run.js';
import type { LdParts } from './ldparts.js';
import type { FlopGroup } from './precision.js';
/** What a generator returns: the files of one kernel (written by the CLI, or used in-process by tests). */
export interface GenTensorFile {
  /** File name (relative to the output directory). */
  file: string;
  shape: number[];
  data: Float32Array;
}

/** A VPU lookup table the kernel loads: scripts/make-vpu-lut.mjs --fn FN -o FILE (computed by the CLI). */
export interface GenLut {
  file: string;
  fn: 'gelu' | 'exp' | 'recip' | 'rsqrt';
}

export interface GenKernel {
  name: string;
  pasm: string;
  ld: string;
  /** The link script's pieces, for merging kernels into one image (gen/ldparts.ts; the chained transformer layer). */
  parts?: LdParts;
  /** Extra lines for the `--run` figures (e.g. the spans of a chained layer's stages), from the simulation report. */
  reportLines?: (r: SimReport) => string[];
  /**
   * The stages of a chained kernel (trip-name prefix and useful FLOPs each, in order): the FLOP split by precision
   * (gen/precision.ts) and the per-stage spans of `--run` (gen/stages.ts) use them. Without: one group, the whole kernel.
   */
  stages?: FlopGroup[];
  /** What the kernel is and is not, printed by the CLI. */
  notes?: string[];
  inputs: GenTensorFile[];
  luts: GenLut[];
  /** What the kernel computes, for the checker and the figures (FLOPs, bytes moved, shapes, layouts). */
  meta: Record<string, unknown> & { kind: string; flops: number; hbmBytes: number; outputs: string[]; dtype: 'fp8' | 'fp16' };
  /**
   * The CLI's `--run` check: error of the simulated outputs (read by symbol name, float32) against a float64
   * reference of the inputs (src/gen/reference.ts), and the documented bound (docs/generators.md "Error bounds").
   */
  /** Why a kernel has no `check` (printed by `--run` instead of the error figure). */
  uncheckedWhy?: string;
  /** `rmsBound`: a documented bound of the RMS relative error too (checked by `--run` like `bound`). */
  check?: (read: (symbol: string) => Float32Array) => { max: number; rms: number; bound: number; what: string; rmsBound?: number };
}
