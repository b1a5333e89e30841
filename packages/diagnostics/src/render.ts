import { Chalk, type ChalkInstance } from 'chalk';
import { isByteSpan, type Diagnostic, type Span } from './diagnostic.js';
import type { SourceMap } from './sources.js';

export type DiagnosticsFormat = 'human' | 'json';

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
    // Expand tabs so the caret lines up with what the terminal shows.
    const prefix = text.slice(0, col - 1).replace(/\t/g, '    ');
    const marks = (primary ? '^' : '-').repeat(Math.min(len, Math.max(1, text.length - col + 1)));
    out.push(`${c.blue(`${num} |`)} ${text.replace(/\t/g, '    ')}`);
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

export function renderDiagnostics(ds: readonly Diagnostic[], format: DiagnosticsFormat, opts: RenderOptions = {}): string {
  if (format === 'json') return ds.map(renderJson).join('\n');
  const parts = ds.map((d) => renderHuman(d, opts));
  const errors = ds.filter((d) => d.severity === 'error').length;
  const warnings = ds.filter((d) => d.severity === 'warning').length;
  if (errors + warnings > 1) parts.push(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  return parts.join('\n\n');
}
