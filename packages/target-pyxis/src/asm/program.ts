/**
 * The assembler's middle representation: a program is a list of
 * instructions, each a set of sequencing-control values and op values by
 * table field name (user-visible numbers: N not N-1, enum codepoints).
 * Both the .pasm front end and the IR reader produce it; encode.ts turns it
 * into words; object.ts into a container.
 */
import type { SourceSpan } from '@pyxis/diagnostics';
import type { Assign } from '@pyxis/asm';
import type { FieldValues } from '@pyxis/codec';
import type { SequencerInfo, VpuInfo } from './isa.js';

/** An op field holding the address of a VPU program (relocated by the linker). */
export interface SymbolRef {
  field: string;
  symbol: string;
}

export interface ProgramInsn {
  ctrl: FieldValues;
  op: FieldValues;
  /** Where it came from (for listings and diagnostics). */
  span?: SourceSpan;
  /** Where each op field was set (for rule diagnostics). */
  fieldSpans?: Record<string, SourceSpan>;
  /** Op fields that refer to VPU programs. */
  refs?: SymbolRef[];
  /** The source operands (`.pasm` input), to point a diagnostic at one element of an array field. */
  operands?: Assign[];
}

/** A VPU instruction-memory program (`.vpu NAME { ... }`): op words only, no sequencing control. */
export interface VpuProgram {
  name: string;
  vpu: VpuInfo;
  /** Fixed placement in the VPU instruction memory (`.vpu NAME at ADDR`). */
  startAddr?: number;
  insns: ProgramInsn[];
  span?: SourceSpan;
}

export interface EncodedVpuProgram {
  name: string;
  vpu: VpuInfo;
  startAddr?: number;
  count: number;
  words: Uint8Array;
  stride: number;
  spans: (SourceSpan | undefined)[];
}

/** Symbol name of a VPU program. */
export function vpuSymbol(name: string): string {
  return `vpu.${name}`;
}

export interface Program {
  name: string;
  seq: SequencerInfo;
  /** Fixed placement (`.program ... at PC`), program-relative PCs otherwise. */
  startPc?: number;
  insns: ProgramInsn[];
  span?: SourceSpan;
}

/** A program after encoding: words at the table's stride (bytes rounded up to 8). */
export interface EncodedProgram {
  name: string;
  seq: SequencerInfo;
  startPc?: number;
  count: number;
  ctrl: Uint8Array;
  op: Uint8Array;
  ctrlStride: number;
  opStride: number;
  spans: (SourceSpan | undefined)[];
  /** VPU-program references in op words. */
  refs: { pc: number; field: string; symbol: string }[];
}
