/**
 * The one diagnostic model shared by every tool (assembler, linker, simulator,
 * container readers). A diagnostic always names *where* (a source span or a
 * byte offset in a binary) and, for violated hardware rules, *which spec
 * section* says so.
 */
export type Severity = 'error' | 'warning' | 'note';

/** A span in a text source. Lines and columns are 1-based; length counts characters. */
export interface SourceSpan {
  file: string;
  line: number;
  column: number;
  length?: number;
}

/** A position in a binary input (container, tensor file, image). */
export interface ByteSpan {
  file: string;
  offset: number;
  length?: number;
}

export type Span = SourceSpan | ByteSpan;

export interface LabelledSpan {
  span: Span;
  label?: string;
}

export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable code, e.g. `AS0101`, `LD0203`, `CT0001`. */
  code: string;
  message: string;
  /** Where the problem is. Omitted only for problems with no location (missing file, usage). */
  span?: Span;
  /** Text printed under the caret of the primary span. */
  label?: string;
  secondary?: LabelledSpan[];
  /** Free-form notes: "help: did you mean `numloops`?", "spec: pyxis-uie-sequencers-fspec §2.1". */
  notes?: string[];
  /** Spec reference for hardware rules, e.g. `pyxis-uie-sequencers-fspec.md §1.1`. */
  spec?: string;
}

export function isByteSpan(s: Span): s is ByteSpan {
  return (s as ByteSpan).offset !== undefined;
}

/** Process exit codes shared by all tools. */
export const ExitCode = {
  ok: 0,
  input: 1,
  usage: 2,
  internal: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Thrown for bad *input* (never for programming errors). CLIs render its
 * diagnostics and exit 1 without a stack trace.
 */
export class DiagnosticError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic | Diagnostic[]) {
    const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
    super(list.map((d) => d.message).join('; '));
    this.name = 'DiagnosticError';
    this.diagnostics = list;
  }
}

/** Thrown for command-line misuse; CLIs exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Hints (`did you mean ...`): printed after the message, and the `notes` of the JSON line. */
    readonly notes: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Convenience constructors. */
export function error(code: string, message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { severity: 'error', code, message, ...extra };
}
export function warning(code: string, message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { severity: 'warning', code, message, ...extra };
}

/** Throws a DiagnosticError for a binary input problem at `offset`. */
export function failAt(file: string, offset: number, code: string, message: string, extra: Partial<Diagnostic> = {}): never {
  throw new DiagnosticError(error(code, message, { span: { file, offset }, ...extra }));
}
