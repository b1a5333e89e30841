/**
 * The results table of a sweep: one row per run, appended to `OUT.csv` and `OUT.jsonl` as rows complete (a crash
 * loses no finished row). Re-running reads `OUT.jsonl` back: a key already there (ok, or failed deterministically)
 * is not run again (resume); each key is written at most once.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { AxisValue, SweepRun, SweepSpec } from './spec.js';

export type RunStatus = 'ok' | 'failed';

/** What one run produced (the engines return it; the table writes it). */
export interface RunResult {
  key: string;
  status: RunStatus;
  /** Exit code of the run (0 ok, 1 input error, 2 usage, 3 internal), or -1 when it never finished. */
  exit: number;
  /** The first error line when failed. */
  diagnostic?: string;
  host_seconds: number;
  figures: Record<string, unknown>;
}

export interface Row {
  run: number;
  key: string;
  input: string;
  params: Record<string, AxisValue>;
  status: RunStatus;
  exit: number;
  diagnostic?: string;
  host_seconds: number;
  figures: Record<string, unknown>;
}

function csvCell(v: unknown): string {
  const s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export class ResultTable {
  readonly done = new Map<string, Row>();
  private readonly columns: string[];
  constructor(
    readonly spec: SweepSpec,
    readonly csv: string,
    readonly jsonl: string,
  ) {
    this.columns = ['run', 'input', ...spec.genKeys, ...spec.paramKeys, 'status', 'exit', 'host_seconds', ...Object.keys(spec.figures), 'diagnostic', 'key'];
    if (existsSync(jsonl))
      for (const line of readFileSync(jsonl, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const r = JSON.parse(line) as Row;
          if (typeof r.key === 'string') this.done.set(r.key, r);
        } catch {
          // a line cut by a crash mid-write: that run is simply done again
        }
      }
    if (!existsSync(csv) || readFileSync(csv, 'utf8').length === 0) appendFileSync(csv, this.columns.map(csvCell).join(',') + '\n');
  }
  has(key: string): boolean {
    return this.done.has(key);
  }
  /** Appends a finished run; a key already in the table is ignored (a duplicate delivery). */
  add(run: SweepRun, r: RunResult): Row | undefined {
    if (this.done.has(run.key)) return undefined;
    const row: Row = { run: run.index, key: run.key, input: run.input.name, params: run.params, status: r.status, exit: r.exit, host_seconds: Number(r.host_seconds.toFixed(4)), figures: r.figures, ...(r.diagnostic ? { diagnostic: r.diagnostic } : {}) };
    this.done.set(run.key, row);
    appendFileSync(this.jsonl, JSON.stringify(row) + '\n');
    const cells: Record<string, unknown> = { ...row, ...row.params, ...row.figures };
    appendFileSync(this.csv, this.columns.map((c) => csvCell(cells[c])).join(',') + '\n');
    return row;
  }
}
