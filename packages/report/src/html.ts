/**
 * The HTML run report: one self-contained file (inline CSS and SVG, no script, nothing fetched), sections from the
 * target's report hook followed by the sections every trace gives (timeline, busy over time, counters).
 */
import type { Chart, GanttTrack, ReportDocument, ReportSection } from './model.js';
import { esc, fmt, MAX_GANTT_ROWS, renderChart } from './svg.js';
import { BINS, MAX_POINTS, MAX_SLICES, type TraceModel, type TraceTrack } from './trace.js';

/** Counter charts drawn from a trace (the rest are listed by name). */
export const MAX_COUNTER_CHARTS = 12;

const CSS = `body{font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:20px auto;max-width:1000px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:28px 0 4px;border-bottom:1px solid #ddd;padding-bottom:3px}h3{font-size:13px;margin:16px 0 4px}
.model{background:#f4f7fb;border-left:3px solid #4e79a7;padding:4px 8px;margin:4px 0 8px}.note{color:#555;font-size:12px;margin:2px 0 10px}
table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #ddd;padding:2px 8px;text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
svg{display:block;font-size:11px;fill:#333}svg text{fill:#333}svg .axis{font-size:11px;fill:#555}svg .small{font-size:8px}dl{display:grid;grid-template-columns:max-content auto;gap:0 12px;margin:6px 0}dt{color:#666}dd{margin:0}`;

/** The Gantt, busy-over-time and counter sections of a trace (what any target's trace shows). */
export function traceSections(trace: TraceModel, opts: { skipTracks?: (t: TraceTrack) => boolean; skipCounters?: (name: string) => boolean } = {}): ReportSection[] {
  const tracks = trace.tracks.filter((t) => t.total > 0 && !opts.skipTracks?.(t));
  const model = 'as the trace: each slice is one simulated interval of an engine or sequencer (trace-event time, µs)';
  const out: ReportSection[] = [];
  if (tracks.length) {
    const gantt: GanttTrack[] = tracks.map((t) => ({
      name: t.name,
      slices: t.slices.map((s) => ({ start: s.start, end: s.end, label: s.count > 1 ? `${s.name} (${s.count} merged)` : s.name, group: s.cat || s.name })),
    }));
    const merged = tracks.filter((t) => t.total > t.slices.length).length;
    const charts: Chart[] = [
      {
        kind: 'gantt',
        title: 'Timeline (every track of the trace)',
        unit: 'µs',
        tracks: gantt,
        note:
          (tracks.length > MAX_GANTT_ROWS ? `first ${MAX_GANTT_ROWS} of ${tracks.length} tracks shown. ` : '') +
          (merged ? `${merged} track(s) had more than ${MAX_SLICES} slices: neighbouring slices merged in pairs. ` : '') +
          'Colours: slice category.',
      },
    ];
    // busy fraction per track per time bin, on one common grid
    const end = trace.end > 0 ? trace.end : 1;
    const cols = 64;
    const w = end / cols;
    const busiest = [...tracks].sort((a, b) => sum(b.busy) - sum(a.busy)).slice(0, MAX_GANTT_ROWS);
    const rows = tracks.filter((t) => busiest.includes(t));
    charts.push({
      kind: 'heatmap',
      title: 'Busy fraction over time per track',
      rows: rows.map((t) => t.name),
      cols: Array.from({ length: cols }, (_, j) => fmt(j * w)),
      values: rows.map((t) => rebin(t, cols, w)),
      unit: 'busy fraction',
      xLabel: 'time (µs)',
      max: 1,
      note: `time of each track's slices in each of ${cols} bins (exact: accumulated while the trace was written, ${BINS} bins per track, then re-binned); overlapping slices of one track count once per slice, capped at 1.`,
    });
    out.push({ title: 'Timeline', model, charts });
  }
  const counters = trace.counters.filter((c) => c.series.size > 0 && !opts.skipCounters?.(c.name));
  if (counters.length) {
    const charts: Chart[] = counters.slice(0, MAX_COUNTER_CHARTS).map((c) => ({
      kind: 'lines',
      title: `${c.process}: ${c.name}`,
      xLabel: 'time (µs)',
      yLabel: c.name,
      series: [...c.series].map(([name, s]) => ({ name, points: s.t.map((t, i): [number, number] => [t, s.v[i]!]) })),
    }));
    const notes = [`counter series with more than ${MAX_POINTS} samples keep the larger of each neighbouring pair (peaks survive); a chart draws at most 600 points per series.`];
    if (counters.length > MAX_COUNTER_CHARTS) notes.push(`${counters.length - MAX_COUNTER_CHARTS} more counters not drawn: ${counters.slice(MAX_COUNTER_CHARTS).map((c) => c.name).join(', ')}`);
    out.push({ title: 'Counters', model: 'sampled counters of the trace (occupancies, bandwidths, power) as written by the simulator', charts, notes });
  }
  return out;
}

function sum(a: Float64Array): number {
  let s = 0;
  for (const v of a) s += v;
  return s;
}

/** A track's busy histogram on `cols` bins of width `w` (fraction of each bin busy, capped at 1). */
function rebin(t: TraceTrack, cols: number, w: number): number[] {
  const out = new Array<number>(cols).fill(0);
  for (let i = 0; i < t.busy.length; i++) {
    const v = t.busy[i]!;
    if (!v) continue;
    const lo = i * t.binWidth;
    const hi = lo + t.binWidth;
    // spread the bin's busy time over the target bins it covers, proportionally
    for (let j = Math.max(0, Math.floor(lo / w)); j < cols && j * w < hi; j++) {
      const ov = Math.min(hi, (j + 1) * w) - Math.max(lo, j * w);
      if (ov > 0) out[j]! += (v * ov) / t.binWidth;
    }
  }
  return out.map((v) => Math.min(1, v / w));
}

/** The whole document as one HTML string. */
export function renderReport(doc: ReportDocument): string {
  const facts = doc.facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('');
  const toc = doc.sections.map((s, i) => `<a href="#s${i}">${esc(s.title)}</a>`).join(' · ');
  const sections = doc.sections
    .map((s, i) => {
      const notes = (s.notes ?? []).map((n) => `<p class="note">${esc(n)}</p>`).join('');
      return `<section id="s${i}"><h2>${esc(s.title)}</h2><p class="model"><b>Models:</b> ${esc(s.model)}</p>${s.charts.map(renderChart).join('\n')}${notes}</section>`;
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(doc.title)}</title><style>${CSS}</style></head>
<body><h1>${esc(doc.title)}</h1><dl>${facts}</dl><p class="model"><b>What these figures model:</b> ${esc(doc.model)}</p><nav>${toc}</nav>
${sections}
<p class="note">Written by pyxis-sim: one self-contained file (inline SVG, no script, nothing fetched). Downsampling: docs/report.md.</p>
</body></html>
`;
}
