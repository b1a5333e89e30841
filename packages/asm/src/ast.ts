/** AST of a `.pasm` file (parser.ts builds it; sema.ts consumes it). */
import type { SourceSpan } from '@pyxis/diagnostics';

export type Expr =
  | { kind: 'num'; value: bigint; span: SourceSpan }
  | { kind: 'name'; name: string; span: SourceSpan }
  | { kind: 'unary'; op: string; arg: Expr; span: SourceSpan }
  | { kind: 'binary'; op: string; left: Expr; right: Expr; span: SourceSpan };

export type Value = { kind: 'expr'; expr: Expr; span: SourceSpan } | { kind: 'list'; items: Expr[]; span: SourceSpan };

export interface Assign {
  /** Field name as written (`iter0.is_eol` is joined to `iter0_is_eol`). */
  name: string;
  nameSpan: SourceSpan;
  index?: Expr;
  value: Value;
  /** Written as a bare name (`accumulate`): a flag operand, value 1, only for one-bit fields. */
  flag?: boolean;
  span: SourceSpan;
}

export interface Instruction {
  kind: 'insn';
  /** Mnemonic (opcode enum name) or `op`. */
  mnemonic: string;
  mnemonicSpan: SourceSpan;
  ctrl?: Assign[];
  ctrlSpan?: SourceSpan;
  operands: Assign[];
  span: SourceSpan;
  /** Source line text (for listings). */
  line: number;
  file: string;
}

export interface LoopStmt {
  kind: 'loop';
  iterator?: Expr;
  count: Expr;
  final?: Expr;
  when?: Expr[];
  whenSpan?: SourceSpan;
  postFinal: boolean;
  postFinalSpan?: SourceSpan;
  body: Stmt[];
  span: SourceSpan;
}

export type Stmt = Instruction | LoopStmt;

export interface ProgramDecl {
  kind: 'program';
  /** `.vpu NAME { ... }`: a VPU instruction-memory program (seq = 'vpu'). */
  vpu?: boolean;
  /** Statements written at top level, outside any `.program` (flat.ts `implicitProgram`; seq = ''). */
  implicit?: boolean;
  name: string;
  nameSpan: SourceSpan;
  seq: string;
  seqSpan: SourceSpan;
  at?: Expr;
  body: Stmt[];
  span: SourceSpan;
}

export interface ConstDecl {
  kind: 'const';
  name: string;
  nameSpan: SourceSpan;
  value: Expr;
  span: SourceSpan;
}

export interface IncludeDecl {
  kind: 'include';
  path: string;
  span: SourceSpan;
}

/** Top-level items; statements (`Stmt`) at top level make up the implicit program. */
export type TopLevel = ProgramDecl | ConstDecl | IncludeDecl | Stmt;

export interface FileAst {
  file: string;
  items: TopLevel[];
}
