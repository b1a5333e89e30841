/**
 * Sweep results for the report's sweep charts (`pyxis-sim report --sweep RESULTS -o F.html`, docs/report.md "Sweeps"):
 * a tolerant reader of a results table — CSV with a header row (quoted fields, doubled quotes, CRLF, a BOM, blank
 * lines and `#` comment lines allowed), JSON Lines (one object per line) or a JSON array of objects — and the charts
 * of chosen figures against a chosen parameter, one series per value of an optional grouping column.
 */
import type { Chart, ReportSection } from './model.js';

export type Cell = string | number | null;

export interface ResultsTable {
  columns: string[];
  rows: Array<Record<string, Cell>>;
}

const cell = (raw: string): Cell => {
  const t = raw.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) && /^[+-]?(\d|\.\d|inf|nan)/i.test(t) ? n : t;
};

/** One CSV record per row (RFC 4180 quoting), header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = '';
  let q = false;
  let i = 0;
  const end = () => {
    row.push(f);
    f = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (q) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          f += '"';
          i++;
        } else q = false;
      } else f += c;
    } else if (c === '"' && f.trim() === '') {
      q = true;
      f = '';
    } else if (c === ',') end();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      end();
      rows.push(row);
      row = [];
    } else f += c;
    i++;
  }
  if (f !== '' || row.length) {
    end();
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0]!.trim() === '') && !r[0]!.trimStart().startsWith('#'));
}

/** Reads a results table; throws Error with a line number for what it cannot read. */
export function readResults(text: string): ResultsTable {
  const t = text.replace(/^\uFEFF/, '');
  const first = t.trimStart()[0];
  const objects: Array<Record<string, unknown>> = [];
  if (first === '[') {
    const v = JSON.parse(t) as unknown;
    if (!Array.isArray(v)) throw new Error('a JSON results file must be an array of objects');
    v.forEach((o, k) => {
      if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error(`$[${k}] is not an object`);
      objects.push(o as Record<string, unknown>);
    });
  } else if (first === '{') {
    t.split(/\r?\n/).forEach((l, k) => {
      if (!l.trim()) return;
      let o: unknown;
      try {
        o = JSON.parse(l);
      } catch (e) {
        throw new Error(`line ${k + 1}: not JSON (${(e as Error).message})`);
      }
      if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error(`line ${k + 1}: not a JSON object`);
      objects.push(o as Record<string, unknown>);
    });
  } else {
    const recs = parseCsv(t);
    if (!recs.length) return { columns: [], rows: [] };
    const columns = recs[0]!.map((h, k) => h.trim() || `column ${k + 1}`);
    const rows = recs.slice(1).map((r) => Object.fromEntries(columns.map((c, k) => [c, cell(r[k] ?? '')])));
    return { columns, rows };
  }
  const columns: string[] = [];
  const seen = new Set<string>();
  const flat = objects.map((o) => {
    const out: Record<string, Cell> = {};
    const walk = (v: unknown, key: string) => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) walk(x, key ? `${key}.${k}` : k);
      else {
        if (!seen.has(key)) {
          seen.add(key);
          columns.push(key);
        }
        out[key] = typeof v === 'number' ? v : v === null || v === undefined ? null : typeof v === 'string' ? cell(v) : JSON.stringify(v);
      }
    };
    walk(o, '');
    return out;
  });
  return { columns, rows: flat };
}

const numeric = (t: ResultsTable, c: string) => t.rows.some((r) => typeof r[c] === 'number') && t.rows.every((r) => r[c] === null || r[c] === undefined || typeof r[c] === 'number');
const varies = (t: ResultsTable, c: string) => new Set(t.rows.map((r) => r[c])).size > 1;

/** The sweep section: each figure against the parameter, a series per group value, and the table. */
export function sweepSection(t: ResultsTable, opts: { x?: string; y?: string[]; group?: string; source: string }): ReportSection {
  for (const c of [opts.x, opts.group, ...(opts.y ?? [])]) if (c !== undefined && !t.columns.includes(c)) throw new Error(`no column \`${c}\` (columns: ${t.columns.join(', ')})`);
  const nums = t.columns.filter((c) => numeric(t, c) && varies(t, c));
  // `pyxis-sim sweep`'s table (docs/sweeps.md): `params.*` are the parameters, `figures.*` the figures (JSON lines);
  // the bookkeeping columns (run index, exit code, host time) are neither
  const meta = (c: string) => ['run', 'exit', 'host_seconds', 'key', 'status', 'diagnostic', 'input'].includes(c);
  const params = nums.filter((c) => c.startsWith('params.'));
  const figures = nums.filter((c) => c.startsWith('figures.'));
  const x = opts.x ?? params[0] ?? nums.find((c) => !meta(c));
  if (x === undefined) throw new Error('no numeric column varies: nothing to draw against');
  if (!numeric(t, x)) throw new Error(`column \`${x}\` is not numeric`);
  const ys = opts.y ?? (figures.length ? figures : nums.filter((c) => c !== x && c !== opts.group && !meta(c) && !c.startsWith('params.')));
  for (const y of ys) if (!numeric(t, y)) throw new Error(`column \`${y}\` is not numeric`);
  const groups = opts.group ? [...new Set(t.rows.map((r) => String(r[opts.group!])))] : [''];
  const MAX = 24;
  const charts: Chart[] = ys.slice(0, MAX).map((y) => ({
    kind: 'lines',
    style: 'points',
    title: `${y} against ${x}${opts.group ? ` (one series per ${opts.group})` : ''}`,
    xLabel: x,
    yLabel: y,
    series: groups.map((g) => ({
      name: opts.group ? `${opts.group} = ${g}` : y,
      points: t.rows
        .filter((r) => !opts.group || String(r[opts.group]) === g)
        .filter((r) => typeof r[x] === 'number' && typeof r[y] === 'number')
        .map((r): [number, number] => [r[x] as number, r[y] as number])
        .sort((a, b) => a[0] - b[0]),
    })),
  }));
  const shown = t.rows.slice(0, 500);
  charts.push({ kind: 'table', title: `Results (${t.rows.length} rows${t.rows.length > shown.length ? `, first ${shown.length} shown` : ''})`, headers: t.columns, rows: shown.map((r) => t.columns.map((c) => r[c] ?? '')) });
  const notes = ys.length > MAX ? [`${ys.length - MAX} more figures not drawn: ${ys.slice(MAX).join(', ')} (choose with --y)`] : [];
  return { title: `Sweep: ${opts.source}`, model: 'as the runs of the sweep: each row is one run; its figures model what that run\'s statistics say', charts, notes };
}
