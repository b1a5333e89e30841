/** Link-time model shared by the linker phases: tensors, blobs and trips resolved from the link script. */
import type { SourceSpan } from '@pyxis/diagnostics';
import type { ScriptBlock, ScriptRef } from '@pyxis/ld';
import type { QueueInfo } from './image.js';
import type { ElemBytes, TensorLayout } from './tensors.js';
import type { Placed } from './placement.js';
import type { ProgramDef } from './microcode.js';
import type { TensorView } from './slices.js';
import type { TensorQuantisation } from './quantReport.js';

export interface TensorDef {
  name: string;
  span: SourceSpan;
  format: string;
  elemBytes: ElemBytes;
  /** A 32-bit integer index format (int32 / uint32): never a grid or VPU operand (checks.ts). */
  int?: true;
  eb: number;
  shape: number[];
  layout: TensorLayout;
  role: string;
  placed: Placed;
  bytes?: Uint8Array;
  /** Float data converted to the element format: the error of the conversion (quantReport.ts). */
  quant?: TensorQuantisation;
}

export interface BlobDef {
  name: string;
  span: SourceSpan;
  bytes: Uint8Array;
  patches: number;
  placed: Placed;
}

export interface TripDef {
  name: string;
  span: SourceSpan;
  queue: QueueInfo;
  cluster: number;
  block: ScriptBlock;
  afters: ScriptRef[];
  /** UIE: seq -> program. */
  programs: Map<string, { prog: ProgramDef; span: SourceSpan }>;
  /** Tensors by key; `view` when the script names a slice (slices.ts). */
  tensors: Map<string, { t: TensorDef; span: SourceSpan; view?: TensorView }>;
  nums: Map<string, { v: number; span: SourceSpan }>;
  blob?: BlobDef;
  /** Generated (overlay patch) trips carry their own blob. */
  generated?: boolean;
  /** Declared grid operation (for the seq §1 size rules). */
  op?: { name: string; span: SourceSpan };
}
