/**
 * The state of one NeuronCore assembly (assemble.ts), shared by its stages: constants and loop variables (expr.ts),
 * declared tensors and their access patterns (tensors.ts), semaphores, and the instructions lowered so far with the
 * per-statement bookkeeping of operand columns, DMA queue cursors and PSUM accumulation groups (lower.ts).
 * One object passed to plain functions, so that each stage is a module of its own.
 */
import { CappedDiagnostics, didYouMean, type SourceSpan } from '@pyxis/diagnostics';
import { loadIsa, loadMachine } from './isa.js';
import type { AP, Insn, TensorDecl } from './ir.js';
import type { Stmt } from './parse.js';

/** A statement failed with an error already reported: the assembly goes on with the next statement. */
export class Stop extends Error {}
/** The unrolling limit was reached (NC0090): ends the assembly of every file. */
export class Overflow extends Error {}

/** Engine stream of each compute engine name (STREAMS of ir.ts; the DMA queues are DMA0 + queue). */
export const streamOf: Record<string, number> = { tensor: 0, vector: 1, scalar: 2, gpsimd: 3 };

export class AsmState {
  readonly isa = loadIsa();
  readonly machine = loadMachine();
  // capped like the shared front end (200 errors, the first saying how many more): garbage input stays cheap
  readonly diags = new CappedDiagnostics();
  readonly tensors: TensorDecl[] = [];
  readonly tensorByName = new Map<string, number>();
  /** Row-major element strides of each declared tensor's dimensions (computed on first access). */
  readonly tensorStrides: number[][] = [];
  readonly semaphores: string[] = [];
  readonly semByName = new Map<string, number>();
  /** Constants and loop variables in scope. */
  readonly env = new Map<string, number>();
  /** Instructions lowered so far, before auto-sync. */
  readonly pending: Insn[] = [];
  sync = 'auto' as 'auto' | 'explicit';
  /** Bytes allocated so far per partition (bump allocation of tensors declared without an offset). */
  readonly alloc = { sbuf: 0, psum: 0 };
  /** Next HBM tensor's base (for auto-sync's overlap checks) and each tensor's base. */
  hbmBase = 0;
  readonly hbmBases: number[] = [];
  /** Operand columns and caret lengths of the instruction being assembled (cleared per statement). */
  readonly apCols = new Map<AP, number>();
  readonly colLen = new Map<number, number>();
  /** Round-robin cursor of the DMA queues per queue range (`qrange=[first, last]`, default all 16). */
  readonly dmaNext = new Map<number, number>();
  lastStationary: AP | undefined;
  /**
   * PSUM accumulation groups (guide "PSUM"): a bank holds one group at a time; bank -> the region of the group started
   * last in it, and region -> the line that started it (docs/spec-notes.md "one accumulation group per bank").
   */
  readonly bankGroup = new Map<number, string>();
  readonly groupLine = new Map<string, number>();
  /** Statements expanded so far (unroll.ts), and the loops whose expansion was estimated before unrolling. */
  unrolled = 0;
  readonly estimated = new WeakSet<Stmt>();
  /** The file being assembled. */
  file = '';
  /** `.loc` (disassembly): the source position of the next tensor or instruction statement. */
  loc: { file: string; line: number; col: number } | undefined;

  constructor(readonly maxUnrolled: number) {}

  /** Did-you-mean only for diagnostics that will be kept (it is the costly part of an error on garbage input). */
  hint(word: string, candidates: readonly string[]): string[] {
    return this.diags.full ? [] : didYouMean(word, candidates);
  }

  /** A span in the file being assembled. */
  span(line: number, col: number, len = 1): SourceSpan {
    return { file: this.file, line, column: col, length: len };
  }
}
