/**
 * Flat instruction streams: an ISA whose program is a straight list of
 * instructions of ONE op table whose opcode enum names are the mnemonics —
 * no loops, no control word, no sequencer (the systolic Tensil ISA, the
 * Pyxis VPU instruction memory). `compileFlatProgram` binds and encodes the
 * instructions (one word of `table.bytes` bytes each, little-endian as every
 * codec word); `flatListing` prints PC, words in hex and the source line.
 *
 * Instructions written at top level, outside any `.program` block, form the
 * file's implicit program (`implicitProgram`, docs/assembler.md "Flat
 * instruction streams"); a target with several instruction memories (Pyxis)
 * rejects them.
 */
import { encode, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { error, type SourceMap, type SourceSpan } from '@pyxis/diagnostics';
import type { Instruction, ProgramDecl, Stmt } from './ast.js';
import { evalExpr, type EvalCtx } from './expr.js';
import { compileInstruction, type OperandHooks, type OpSpace } from './operands.js';

export interface FlatInsn {
  /** Bound field values (what `encode` took). */
  values: FieldValues;
  /** Span of the mnemonic. */
  span: SourceSpan;
  /** Span of each field's operand (for later diagnostics). */
  fieldSpans: Record<string, SourceSpan>;
  ast: Instruction;
}

export interface FlatProgram {
  name: string;
  space: OpSpace;
  /** `at ADDR`: a fixed start address in words, when given. */
  startAddr?: number;
  insns: FlatInsn[];
  /** The encoded words, `stride` bytes each. */
  words: Uint8Array;
  stride: number;
  span: SourceSpan;
}

export interface FlatOptions<C extends EvalCtx> {
  hooks?: OperandHooks<C>;
  /** Words of the instruction memory: `at` and the program's length are checked against it. */
  memoryWords?: number;
  /** Spec section cited by the memory and structure diagnostics. */
  spec?: string;
  /** What the program is called in messages (default "program"). */
  kind?: string;
  /** Why loops or control words are not available (a note on AS0317 / AS0318). */
  structureNote?: string;
  /** Bytes per stored word (default: the table's bytes). */
  stride?: number;
  /** Encode the words (default true; a back end that encodes later passes false and gets empty `words`). */
  encode?: boolean;
  /** Called with each instruction as soon as it is bound, in order (a back end converting as it goes). */
  each?: (ins: FlatInsn, k: number) => void;
  /**
   * Keep each instruction's bound `values` and `fieldSpans` in the result (default true). False keeps only
   * `ast` and `span` (the listing's needs): with `each`, a large program's bindings die young instead of
   * living until the end (the memory, and on a loaded machine the time, of a 50,000-line listing).
   */
  keepValues?: boolean;
}

const NO_VALUES: FieldValues = Object.freeze({}) as FieldValues;
const NO_SPANS: Record<string, SourceSpan> = Object.freeze({}) as Record<string, SourceSpan>;

/** An instruction whose span is read from its AST when asked (no span or closure made per instruction). */
class LeanInsn implements FlatInsn {
  constructor(
    readonly values: FieldValues,
    readonly fieldSpans: Record<string, SourceSpan>,
    readonly ast: Instruction,
  ) {}
  get span(): SourceSpan {
    return this.ast.mnemonicSpan;
  }
}

/** Statements written at top level, outside any `.program`: the file's implicit program. */
export const IMPLICIT_PROGRAM = 'main';

/** A ProgramDecl for statements written at top level (named IMPLICIT_PROGRAM, no sequencer). */
export function implicitProgram(body: Stmt[], file: string): ProgramDecl {
  const first = body[0];
  const span: SourceSpan = first?.span ?? { file, line: 1, column: 1 };
  return { kind: 'program', implicit: true, name: IMPLICIT_PROGRAM, nameSpan: span, seq: '', seqSpan: span, body, span };
}

/**
 * Compiles a flat program: `at ADDR` (checked against `memoryWords`), each
 * instruction bound against `space` and encoded. Loops (AS0317) and `ctrl`
 * blocks (AS0318) are errors: a flat ISA has neither.
 */
export function compileFlatProgram<C extends EvalCtx>(p: ProgramDecl, space: OpSpace, ctx: C, opts: FlatOptions<C> = {}): FlatProgram | undefined {
  const kind = opts.kind ?? 'program';
  const firstDiag = ctx.diags.length;
  const spec = opts.spec ? { spec: opts.spec } : {};
  const words = opts.memoryWords;
  let startAddr: number | undefined;
  if (p.at) {
    const v = evalExpr(p.at, ctx);
    if (v !== undefined) {
      if (v < 0n || (words !== undefined && v >= BigInt(words))) ctx.diags.push(error('AS0314', `start address ${v} outside the ${words}-word ${space.title} instruction memory`, { span: p.at.span, ...spec }));
      else startAddr = Number(v);
    }
  }
  const insns: FlatInsn[] = [];
  const note = opts.structureNote ? { notes: [opts.structureNote] } : {};
  const t = space.op;
  const stride = opts.stride ?? t.bytes;
  const wanted = opts.encode !== false;
  const keep = opts.keepValues !== false;
  const bindOpts = { spans: {} as Record<string, SourceSpan>, ...(opts.hooks ? { hooks: opts.hooks } : {}) };
  // without kept values the words are encoded as the instructions are bound (kept only if no error follows)
  let early: Uint8Array | undefined;
  let encodedEarly = 0;
  for (const s of p.body ?? []) {
    if (!s) continue;
    if (s.kind === 'loop') {
      ctx.diags.push(error('AS0317', `${space.title} ${kind}s are straight-line code: no loops`, { span: s.span, ...note, ...spec }));
      continue;
    }
    if (s.ctrl) ctx.diags.push(error('AS0318', `${space.title} instructions have no sequencing-control word`, { span: s.ctrlSpan ?? s.span, ...note }));
    const fieldSpans: Record<string, SourceSpan> = {};
    bindOpts.spans = fieldSpans;
    const before = ctx.diags.length;
    const values = compileInstruction(s, space, ctx, bindOpts);
    const ins: FlatInsn = keep ? { values, span: s.mnemonicSpan, fieldSpans, ast: s } : new LeanInsn(values, fieldSpans, s);
    const k = insns.length;
    opts.each?.(ins, k);
    if (keep) insns.push(ins);
    else {
      insns.push(new LeanInsn(NO_VALUES, NO_SPANS, s));
      let bad = false;
      for (let i = before; i < ctx.diags.length; i++) if (ctx.diags[i]!.severity === 'error') bad = true;
      if (wanted && !bad) {
        if (!early || early.length < (k + 1) * stride) {
          const grown = new Uint8Array(Math.max(1024, (k + 1) * stride * 2));
          if (early) grown.set(early);
          early = grown;
        }
        encode(t, values, early, k * stride);
        encodedEarly++;
      }
    }
  }
  if (insns.length === 0) {
    ctx.diags.push(error('AS0315', `${kind} \`${p.name}\` has no instructions`, { span: p.nameSpan }));
    return undefined;
  }
  if (words !== undefined && (startAddr ?? 0) + insns.length > words) {
    ctx.diags.push(error('AS0316', `${kind} \`${p.name}\` does not fit the ${words}-word ${space.title} instruction memory`, { span: p.nameSpan, ...spec }));
  }
  const out = new Uint8Array(wanted ? insns.length * stride : 0);
  // values are range-checked by the binder, so encoding cannot fail; after errors nothing is encoded
  let clean = true;
  for (let i = firstDiag; i < ctx.diags.length; i++) if (ctx.diags[i]!.severity === 'error') clean = false;
  if (wanted && clean) {
    if (keep) insns.forEach((ins, k) => encode(t, ins.values, out, k * stride));
    else if (early && encodedEarly === insns.length) out.set(early.subarray(0, out.length));
  }
  return { name: p.name, space, ...(startAddr !== undefined ? { startAddr } : {}), insns, words: out, stride, span: p.nameSpan };
}

/** Lower-case hex of `n` bytes from `off`, most significant byte first (the word as a number). */
export function wordHex(buf: Uint8Array, off: number, n: number): string {
  let s = '';
  for (let i = n - 1; i >= 0; i--) s += (buf[off + i] ?? 0).toString(16).padStart(2, '0');
  return s;
}

/**
 * A listing of a flat program: one line per instruction, `PC  WORD  source`,
 * PC in decimal words from the program's start, the word in hex as a number
 * (most significant digit first), then the source line as written.
 */
export function flatListing(p: FlatProgram, sources?: SourceMap): string {
  const base = p.startAddr ?? 0;
  const lines: string[] = [`; ${p.name}: ${p.insns.length} instruction${p.insns.length === 1 ? '' : 's'} of ${p.space.op.name} (${p.space.op.width} bits)`];
  const pcWidth = String(base + p.insns.length - 1).length;
  p.insns.forEach((ins, k) => {
    const src = sources?.line(ins.ast.file, ins.ast.line)?.trim() ?? ins.ast.mnemonic;
    lines.push(`${String(base + k).padStart(pcWidth)}  ${wordHex(p.words, k * p.stride, p.space.op.bytes)}  ${src}`);
  });
  return lines.join('\n') + '\n';
}
