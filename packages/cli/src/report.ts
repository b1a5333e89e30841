/**
 * The HTML run report in the simulator driver: `pyxis-sim run IMAGE --report FILE.html` (the trace is summarised
 * while the run writes it, docs/report.md) and `pyxis-sim report STATS.json [TRACE.json] -o FILE.html` (from the
 * files of an earlier run). The machine's own sections come from its `report` hook (the Target contract); this
 * module names no target.
 */
import type { Command } from 'commander';
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { checkOutputPaths, readInputText, writeFileAtomic } from '@pyxis/container';
import { buildReport, collectTraceText, readResults, renderReport, sweepSection, TraceCollector, type ReportSection, type TraceModel } from '@pyxis/report';
import type { TextSink } from '@pyxis/sim';
import { findTargetEntry, loadTarget, targetEntries, type Target } from '@pyxis/target';
import type { ToolContext } from './tool.js';

/** Diagnostic codes of the report (docs/report.md). */
export const REPORT_CODES = {
  /** The statistics file is not JSON, or not an object. */
  badStats: 'CLI0030',
  /** The statistics name no registered target. */
  unknownTarget: 'CLI0031',
  /** The trace file is not a trace-event JSON file. */
  badTrace: 'CLI0032',
  /** The sweep results table cannot be read, or names no such column. */
  badSweep: 'CLI0035',
} as const;

/** Writes to every sink (the trace file and the report's collector). */
export class TeeSink implements TextSink {
  constructor(private readonly sinks: TextSink[]) {}
  write(s: string): void {
    for (const k of this.sinks) k.write(s);
  }
  close(): void {
    for (const k of this.sinks) k.close();
  }
  abort(): void {
    for (const k of this.sinks) k.abort();
  }
}

/** The report of a run: the target's sections, the engines, the trace. */
export function reportHtml(target: Target | undefined, stats: Record<string, unknown>, trace?: TraceModel, extra: ReportSection[] = []): string {
  const mine = target?.machine?.report?.(trace ? { stats, trace } : { stats });
  const skip = mine?.skipTracks;
  return buildReport({
    stats,
    ...(trace ? { trace } : {}),
    sections: [...(mine?.sections ?? []), ...extra],
    ...(mine?.model ? { model: mine.model } : {}),
    ...(skip ? { skipTracks: (t) => skip(t.name) } : {}),
    ...(mine?.skipCounters ? { skipCounters: mine.skipCounters } : {}),
    ...(mine?.noEngineSection ? { noEngineSection: true } : {}),
  });
}

/** A trace collector for `run --report`. */
export function reportCollector(): TraceCollector {
  return new TraceCollector();
}

/** `pyxis-sim report STATS.json [TRACE.json] -o FILE.html`. */
export function addReportCommand(program: Command, ctx: () => ToolContext): void {
  program
    .command('report')
    .description('write the HTML run report of an earlier run from its --stats JSON (and its --trace JSON, for the timeline), and/or the charts of a sweep\'s results table (--sweep)')
    .argument('[stats.json]', 'statistics of a run (pyxis-sim run --stats)')
    .argument('[trace.json]', 'its Perfetto/Chrome trace (pyxis-sim run --trace)')
    .requiredOption('-o, --output <file.html>', 'the report (one self-contained HTML file; `-` = stdout)')
    .option('--sweep <results>', 'a results table (CSV with a header row, JSON Lines, or a JSON array): each figure charted against a parameter')
    .option('--x <column>', 'the sweep parameter on the x axis (default: the first numeric column that varies)')
    .option('--y <columns>', 'comma-separated figures to chart (default: every other numeric column that varies)')
    .option('--group <column>', 'one series per value of this column')
    .action(async (statsFile: string | undefined, traceFile: string | undefined, opts: { output: string; sweep?: string; x?: string; y?: string; group?: string }) => {
      const c = ctx();
      if (!statsFile && !opts.sweep) throw new UsageError('report: give a stats.json, a --sweep results table, or both');
      checkOutputPaths([opts.output], [...(statsFile ? [statsFile] : []), ...(traceFile ? [traceFile] : []), ...(opts.sweep ? [opts.sweep] : [])]);
      const sweep = opts.sweep ? sweepOf(opts.sweep, opts) : undefined;
      if (!statsFile) {
        const html = renderReport({ title: `sweep report: ${opts.sweep}`, facts: [['results', opts.sweep!], ['runs', String(sweep!.rows)]], model: 'each row of the table is one run; its figures model what that run\'s statistics say (docs/timing-model.md)', sections: [sweep!.section] });
        if (opts.output === '-') c.out(html);
        else writeFileAtomic(opts.output, html);
        return;
      }
      const stats = await parseStats(statsFile, readInputText(statsFile));
      const name = stats['target'];
      if (typeof name !== 'string' || !findTargetEntry(name))
        throw new DiagnosticError({
          severity: 'error',
          code: REPORT_CODES.unknownTarget,
          message: `$.target ${typeof name === 'string' ? `\`${name}\` is not a registered target` : 'is missing'} (known: ${targetEntries().map((e) => e.name).join(', ')})`,
          span: { file: statsFile, line: 1, column: 1 },
        });
      const target = await loadTarget(name, 'sim');
      let trace: TraceModel | undefined;
      if (traceFile) {
        const text = readInputText(traceFile);
        try {
          trace = collectTraceText(text);
        } catch (e) {
          throw new DiagnosticError({ severity: 'error', code: REPORT_CODES.badTrace, message: `not a trace-event JSON file (${(e as Error).message})`, span: await jsonErrorSpan(traceFile, text, e as Error) });
        }
        if (trace.events === 0) throw new DiagnosticError({ severity: 'error', code: REPORT_CODES.badTrace, message: `no trace events (expected {"traceEvents": [...]})`, span: { file: traceFile, line: 1, column: 1 } });
      }
      const html = reportHtml(target, stats, trace, sweep ? [sweep.section] : []);
      if (opts.output === '-') c.out(html);
      else writeFileAtomic(opts.output, html);
      c.log.info({ bytes: html.length, file: opts.output }, 'report written');
    });
}

/** The sweep section of a results table (CLI0035 for what cannot be read or drawn). */
function sweepOf(file: string, o: { x?: string; y?: string; group?: string }): { section: ReportSection; rows: number } {
  const text = readInputText(file);
  try {
    const t = readResults(text);
    if (!t.rows.length) throw new Error('no rows');
    const section = sweepSection(t, { source: file, ...(o.x ? { x: o.x } : {}), ...(o.y ? { y: o.y.split(',').map((s) => s.trim()).filter(Boolean) } : {}), ...(o.group ? { group: o.group } : {}) });
    return { section, rows: t.rows.length };
  } catch (e) {
    throw new DiagnosticError({ severity: 'error', code: REPORT_CODES.badSweep, message: `sweep results: ${(e as Error).message}`, span: { file, line: Number(/line (\d+)/.exec((e as Error).message)?.[1] ?? 1), column: 1 } });
  }
}

async function parseStats(file: string, text: string): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new DiagnosticError({ severity: 'error', code: REPORT_CODES.badStats, message: `not JSON (${(e as Error).message})`, span: await jsonErrorSpan(file, text, e as Error) });
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DiagnosticError({ severity: 'error', code: REPORT_CODES.badStats, message: `$ is not an object of statistics`, span: { file, line: 1, column: 1 } });
  return v as Record<string, unknown>;
}

/** Where the JSON syntax error is, as line and column (the scanner of @pyxis/asm, loaded only on this error path). */
async function jsonErrorSpan(file: string, text: string, e: Error): Promise<{ file: string; line: number; column: number }> {
  const { jsonSyntaxErrorOffset } = await import('@pyxis/asm');
  const m = /position (\d+)/.exec(e.message);
  const pos = Math.min(jsonSyntaxErrorOffset(text) ?? (m ? Number(m[1]) : 0), text.length);
  let line = 1;
  let col = 1;
  for (let i = 0; i < pos; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  return { file, line, column: col };
}
