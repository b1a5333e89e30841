import { Chalk, type ChalkInstance } from 'chalk';
import { isByteSpan, type Diagnostic, type Span } from './diagnostic.js';
import type { SourceMap } from './sources.js';

export type DiagnosticsFormat = 'human' | 'json';

/** Human rendering prints at most this many errors (and as many warnings/notes) per run, then one "N more ... not shown" line, as compilers do. */
export const MAX_ERRORS_SHOWN = 100;
/** A quoted source line longer than this is cut to this many columns around the caret (`...` marks the cuts). */
export const MAX_QUOTED_COLUMNS = 120;
/** Columns of context kept before the caret when a quoted line is cut. */
const CONTEXT_BEFORE = 40;

export interface RenderOptions {
  color?: boolean;
  sources?: SourceMap;
}

/** Colour only on a TTY and when NO_COLOR is unset (https://no-color.org). */
export function shouldUseColor(stream: { isTTY?: boolean } = process.stderr): boolean {
  if (process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '') return false;
  if (process.env['FORCE_COLOR'] !== undefined && process.env['FORCE_COLOR'] !== '0') return true;
  return !!stream.isTTY;
}

function location(span: Span): string {
  if (isByteSpan(span)) return `${span.file}: offset 0x${span.offset.toString(16).padStart(7, '0')} (${span.offset})`;
  return `${span.file}:${span.line}:${span.column}`;
}

/**
 * Renders one diagnostic like clang/rustc:
 *
 *     prog.pasm:12:9: error[AS0102]: unknown field `numloop`
 *        12 |   read numloop = 4
 *           |        ^^^^^^^ not a field of amem_read
 *     help: did you mean `numloops`?
 */
export function renderHuman(d: Diagnostic, opts: RenderOptions = {}): string {
  const c: ChalkInstance = new Chalk({ level: opts.color ? 1 : 0 });
  const sevColor = d.severity === 'error' ? c.red.bold : d.severity === 'warning' ? c.yellow.bold : c.cyan.bold;
  const head = `${d.span ? c.bold(location(d.span)) + ': ' : ''}${sevColor(`${d.severity}[${d.code}]`)}: ${c.bold(d.message)}`;
  const out = [head];
  const snippet = (span: Span, label: string | undefined, primary: boolean) => {
    if (isByteSpan(span) || !opts.sources) return;
    const text = opts.sources.line(span.file, span.line);
    if (text === undefined) return;
    const num = String(span.line);
    const gutter = ' '.repeat(num.length);
    const col = Math.max(1, span.column);
    const len = Math.max(1, span.length ?? 1);
    // A long line (minified, generated) is cut around the caret: the output stays proportional to the number of diagnostics.
    let from = 0;
    let to = text.length;
    if (text.length > MAX_QUOTED_COLUMNS) {
      from = Math.max(0, Math.min(col - 1 - CONTEXT_BEFORE, text.length - MAX_QUOTED_COLUMNS));
      to = from + MAX_QUOTED_COLUMNS;
    }
    const lead = from > 0 ? '...' : '';
    const tail = to < text.length ? '...' : '';
    // Expand tabs so the caret lines up with what the terminal shows.
    const prefix = lead + text.slice(from, Math.min(col - 1, to)).replace(/\t/g, '    ');
    const marks = (primary ? '^' : '-').repeat(Math.min(len, Math.max(1, to - col + 1)));
    out.push(`${c.blue(`${num} |`)} ${lead}${text.slice(from, to).replace(/\t/g, '    ')}${tail}`);
    out.push(`${c.blue(`${gutter} |`)} ${' '.repeat(prefix.length)}${(primary ? sevColor : c.blue)(marks)}${label ? ' ' + (primary ? sevColor : c.blue)(label) : ''}`);
  };
  if (d.span) snippet(d.span, d.label, true);
  for (const s of d.secondary ?? []) {
    if (!isByteSpan(s.span) && d.span && !isByteSpan(d.span) && s.span.file === d.span.file) snippet(s.span, s.label, false);
    else out.push(`${c.blue('note')}: ${location(s.span)}${s.label ? ': ' + s.label : ''}`);
  }
  for (const n of d.notes ?? []) out.push(`${c.cyan('=')} ${n}`);
  if (d.spec) out.push(`${c.cyan('=')} spec: ${d.spec}`);
  return out.join('\n');
}

/** One JSON object per line; stable keys for CI and editors. */
export function renderJson(d: Diagnostic): string {
  return JSON.stringify(d);
}

/**
 * Renders a run's diagnostics. `json`: every diagnostic, one per line.
 * `human`: at most MAX_ERRORS_SHOWN errors and as many other diagnostics,
 * then one line per severity saying how many more were not shown, then the
 * totals: output stays bounded however many diagnostics a garbage input makes.
 */
export function renderDiagnostics(ds: readonly Diagnostic[], format: DiagnosticsFormat, opts: RenderOptions = {}): string {
  if (format === 'json') return ds.map(renderJson).join('\n');
  const parts: string[] = [];
  let errors = 0;
  let warnings = 0;
  let others = 0;
  for (const d of ds) {
    const n = d.severity === 'error' ? ++errors : d.severity === 'warning' ? ++warnings : ++others;
    if (n <= MAX_ERRORS_SHOWN) parts.push(renderHuman(d, opts));
  }
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const hidden = [
    errors > MAX_ERRORS_SHOWN ? plural(errors - MAX_ERRORS_SHOWN, 'more error') : '',
    warnings > MAX_ERRORS_SHOWN ? plural(warnings - MAX_ERRORS_SHOWN, 'more warning') : '',
    others > MAX_ERRORS_SHOWN ? plural(others - MAX_ERRORS_SHOWN, 'more note') : '',
  ].filter(Boolean);
  if (hidden.length) parts.push(`... ${hidden.join(', ')} not shown (the first ${MAX_ERRORS_SHOWN} of each kind are above; --diagnostics-format json lists all)`);
  if (errors + warnings > 1) parts.push(`${plural(errors, 'error')}, ${plural(warnings, 'warning')}`);
  return parts.join('\n\n');
}

/** Diagnostic code of command-line usage errors (exit 2) in `--diagnostics-format json` output, in every tool. */
export const USAGE_CODE = 'CLI0001';

/**
 * A usage error (exit 2) as every tool prints it: `TOOL: error: MESSAGE`, each note (did-you-mean, the names there
 * are) as a `  = help:` line, then `hint`; with `json`, one JSON line (code USAGE_CODE, the notes in `notes`). No
 * trailing newline.
 */
export function renderUsageError(tool: string, message: string, notes: readonly string[], format: DiagnosticsFormat, hint = '(run with --help for usage)'): string {
  if (format === 'json') return JSON.stringify({ severity: 'error', code: USAGE_CODE, message, ...(notes.length ? { notes } : {}) });
  return [`${tool}: error: ${message}`, ...notes.map((n) => `  = help: ${n}`), ...(hint ? [hint] : [])].join('\n');
}
