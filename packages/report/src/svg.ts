/**
 * Charts as inline SVG, drawn at report time: no script, no font or stylesheet fetched, so the page works offline
 * and in any browser. Every chart is one `<svg class="chart" data-kind=...>` whose marks (rect, path, circle,
 * polyline) carry `class="mark"`; the browser test counts them. Sizes are bounded here as well (docs/report.md
 * "Size"): a Gantt draws at most MAX_GANTT_MARKS slices, a line at most MAX_LINE_POINTS points, heatmap cells
 * of one colour level share one path.
 */
import type { Chart, GanttTrack, Series } from './model.js';

export const MAX_GANTT_MARKS = 6000;
export const MAX_GANTT_ROWS = 96;
export const MAX_LINE_POINTS = 600;

const W = 960;
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#1f77b4', '#8c564b'];

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A short number: 3 significant digits, k/M/G suffixes. */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1e12) return `${+(v / 1e12).toPrecision(3)}T`;
  if (a >= 1e9) return `${+(v / 1e9).toPrecision(3)}G`;
  if (a >= 1e6) return `${+(v / 1e6).toPrecision(3)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toPrecision(3)}k`;
  if (a === 0) return '0';
  return `${+v.toPrecision(3)}`;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

function colourOf(key: string, colours: Map<string, string>): string {
  let c = colours.get(key);
  if (!c) colours.set(key, (c = PALETTE[colours.size % PALETTE.length]!));
  return c;
}

/** "Nice" axis ticks over [0, max]. */
function ticks(max: number, n = 5): number[] {
  if (!(max > 0)) return [0];
  const step0 = max / n;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step0) ?? step0;
  const out: number[] = [];
  for (let v = 0; v <= max * 1.0001; v += step) out.push(v);
  return out;
}

function xAxis(x0: number, x1: number, y: number, max: number, label: string): string {
  const parts = [`<line x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" stroke="#888"/>`];
  for (const t of ticks(max)) {
    const x = r1(x0 + ((x1 - x0) * t) / (max || 1));
    parts.push(`<line x1="${x}" y1="${y}" x2="${x}" y2="${y + 4}" stroke="#888"/><text x="${x}" y="${y + 15}" text-anchor="middle">${fmt(t)}</text>`);
  }
  parts.push(`<text x="${(x0 + x1) / 2}" y="${y + 30}" text-anchor="middle" class="axis">${esc(label)}</text>`);
  return parts.join('');
}

function legend(names: string[], colours: Map<string, string>, y: number): { svg: string; height: number } {
  const parts: string[] = [];
  let x = 10;
  let row = 0;
  for (const n of names) {
    const w = 18 + Math.min(n.length, 40) * 6.5 + 12;
    if (x + w > W - 10) {
      x = 10;
      row++;
    }
    const yy = y + row * 16;
    parts.push(`<rect x="${x}" y="${yy}" width="12" height="10" fill="${colourOf(n, colours)}"/><text x="${x + 16}" y="${yy + 9}">${esc(n.slice(0, 40))}</text>`);
    x += w;
  }
  return { svg: parts.join(''), height: names.length ? (row + 1) * 16 + 4 : 0 };
}

function frame(kind: string, height: number, body: string, title: string): string {
  return `<svg class="chart" data-kind="${kind}" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${Math.ceil(height)}" viewBox="0 0 ${W} ${Math.ceil(height)}" role="img" aria-label="${esc(title)}">${body}</svg>`;
}

/** Limits a Gantt to MAX_GANTT_ROWS rows and MAX_GANTT_MARKS slices (merging neighbours within a row). */
export function boundGantt(tracks: GanttTrack[]): { tracks: GanttTrack[]; dropped: number; merged: number } {
  const kept = tracks.slice(0, MAX_GANTT_ROWS);
  const perRow = Math.max(16, Math.floor(MAX_GANTT_MARKS / Math.max(1, kept.length)));
  let merged = 0;
  const out = kept.map((t) => {
    let s = [...t.slices].sort((a, b) => a.start - b.start);
    while (s.length > perRow) {
      const m = [];
      for (let i = 0; i < s.length; i += 2) {
        const a = s[i]!;
        const b = s[i + 1];
        m.push(b ? { start: a.start, end: Math.max(a.end, b.end), label: a.label === b.label ? a.label : `${a.label} ...`, group: a.group ?? a.label } : a);
      }
      merged += s.length - m.length;
      s = m;
    }
    return { name: t.name, slices: s };
  });
  return { tracks: out, dropped: tracks.length - kept.length, merged };
}

function gantt(c: Extract<Chart, { kind: 'gantt' }>): string {
  const { tracks } = boundGantt(c.tracks);
  const left = 200;
  const right = W - 10;
  const rowH = tracks.length > 40 ? 9 : 16;
  const top = 10;
  let max = 0;
  for (const t of tracks) for (const s of t.slices) max = Math.max(max, s.end);
  if (!(max > 0)) max = 1;
  const colours = new Map<string, string>();
  const parts: string[] = [];
  tracks.forEach((t, i) => {
    const y = top + i * rowH;
    if (i % 2) parts.push(`<rect x="${left}" y="${y}" width="${right - left}" height="${rowH}" fill="#f6f6f6"/>`);
    parts.push(`<text x="${left - 6}" y="${y + rowH - 3}" text-anchor="end" class="${rowH < 12 ? 'small' : ''}">${esc(t.name.slice(0, 32))}</text>`);
    for (const s of t.slices) {
      const x = left + ((right - left) * s.start) / max;
      const w = Math.max(0.6, ((right - left) * (s.end - s.start)) / max);
      const col = colourOf(s.group ?? s.label, colours);
      parts.push(`<rect class="mark" x="${r1(x)}" y="${y + 1}" width="${r1(w)}" height="${rowH - 2}" fill="${col}"><title>${esc(`${t.name}: ${s.label} ${fmt(s.start)}-${fmt(s.end)} ${c.unit}`)}</title></rect>`);
      // the name inside the bar when it fits (6 px per character at 11 px)
      if (rowH >= 12 && w > 6 * s.label.length + 8) parts.push(`<text x="${r1(x + 4)}" y="${y + rowH - 4}" fill="#fff" style="fill:#fff">${esc(s.label)}</text>`);
    }
  });
  const axisY = top + tracks.length * rowH + 4;
  parts.push(xAxis(left, right, axisY, max, c.unit));
  const groups = [...colours.keys()];
  const lg = groups.length <= 24 ? legend(groups, colours, axisY + 40) : { svg: '', height: 0 };
  return frame('gantt', axisY + 44 + lg.height, parts.join('') + lg.svg, c.title);
}

/** At most `n` points: the maximum of each bucket (peaks survive). */
export function downsample(points: Array<[number, number]>, n = MAX_LINE_POINTS): Array<[number, number]> {
  if (points.length <= n) return points;
  const out: Array<[number, number]> = [];
  const per = points.length / n;
  for (let i = 0; i < n; i++) {
    const a = Math.floor(i * per);
    const b = Math.max(a + 1, Math.floor((i + 1) * per));
    let best = points[a]!;
    for (let j = a + 1; j < b; j++) if (points[j]![1] > best[1]) best = points[j]!;
    out.push([points[a]![0], best[1]]);
  }
  return out;
}

function lines(c: Extract<Chart, { kind: 'lines' }>): string {
  const left = 70;
  const right = W - 10;
  const top = 10;
  const h = 200;
  const series: Series[] = c.series.map((s) => ({ name: s.name, points: downsample(s.points) }));
  let xmax = 0;
  let ymax = c.yMax ?? 0;
  for (const s of series)
    for (const [x, y] of s.points) {
      if (x > xmax) xmax = x;
      if (c.yMax === undefined && y > ymax) ymax = y;
    }
  if (!(xmax > 0)) xmax = 1;
  if (!(ymax > 0)) ymax = 1;
  const colours = new Map<string, string>();
  const X = (x: number) => r1(left + ((right - left) * x) / xmax);
  const Y = (y: number) => r1(top + h - (h * Math.min(y, ymax)) / ymax);
  const parts: string[] = [];
  for (const t of ticks(ymax, 4)) parts.push(`<line x1="${left}" y1="${Y(t)}" x2="${right}" y2="${Y(t)}" stroke="#e4e4e4"/><text x="${left - 4}" y="${Y(t) + 4}" text-anchor="end">${fmt(t)}</text>`);
  parts.push(`<text x="12" y="${top + h / 2}" transform="rotate(-90 12 ${top + h / 2})" text-anchor="middle" class="axis">${esc(c.yLabel)}</text>`);
  for (const s of series) {
    if (!s.points.length) continue;
    const col = colourOf(s.name, colours);
    if (c.style === 'points') {
      const d = s.points.map(([x, y], i) => `${i ? 'L' : 'M'}${X(x)} ${Y(y)}`).join('');
      parts.push(`<path class="mark" d="${d}" fill="none" stroke="${col}" stroke-width="1.5"><title>${esc(s.name)}</title></path>`);
      for (const [x, y] of s.points) parts.push(`<circle class="mark" cx="${X(x)}" cy="${Y(y)}" r="3" fill="${col}"><title>${esc(`${s.name}: ${c.xLabel} ${fmt(x)}, ${c.yLabel} ${fmt(y)}`)}</title></circle>`);
      continue;
    }
    // steps: a counter holds its value until the next sample
    let d = `M${X(s.points[0]![0])} ${Y(s.points[0]![1])}`;
    for (let i = 1; i < s.points.length; i++) d += `H${X(s.points[i]![0])}V${Y(s.points[i]![1])}`;
    d += `H${X(xmax)}`;
    parts.push(`<path class="mark" d="${d}" fill="none" stroke="${col}" stroke-width="1.5"><title>${esc(s.name)}</title></path>`);
  }
  parts.push(xAxis(left, right, top + h, xmax, c.xLabel));
  const lg = legend(series.map((s) => s.name).slice(0, 24), colours, top + h + 40);
  return frame('lines', top + h + 44 + lg.height, parts.join('') + lg.svg, c.title);
}

function bars(c: Extract<Chart, { kind: 'bars' }>): string {
  const left = 200;
  const right = W - 70;
  const rowH = 18;
  const top = 10;
  let max = 0;
  c.categories.forEach((_, i) => {
    let s = 0;
    for (const se of c.series) s += Math.max(0, se.values[i] ?? 0);
    max = Math.max(max, s);
  });
  if (!(max > 0)) max = 1;
  const colours = new Map<string, string>();
  for (const se of c.series) if (se.color) colours.set(se.name, se.color);
  for (const se of c.series) colourOf(se.name, colours);
  const parts: string[] = [];
  c.categories.forEach((cat, i) => {
    const y = top + i * rowH;
    parts.push(`<text x="${left - 6}" y="${y + rowH - 5}" text-anchor="end">${esc(cat.slice(0, 32))}</text>`);
    let x = left;
    let total = 0;
    for (const se of c.series) {
      const v = Math.max(0, se.values[i] ?? 0);
      if (v <= 0) continue;
      total += v;
      const w = ((right - left) * v) / max;
      parts.push(`<rect class="mark" x="${r1(x)}" y="${y + 2}" width="${r1(Math.max(0.6, w))}" height="${rowH - 4}" fill="${colourOf(se.name, colours)}"><title>${esc(`${cat}: ${se.name} ${fmt(v)} ${c.unit}`)}</title></rect>`);
      x += w;
    }
    parts.push(`<text x="${r1(x + 4)}" y="${y + rowH - 5}">${fmt(total)}</text>`);
  });
  const axisY = top + c.categories.length * rowH + 2;
  parts.push(xAxis(left, right, axisY, max, c.unit));
  const lg = c.series.length > 1 ? legend(c.series.map((s) => s.name), colours, axisY + 40) : { svg: '', height: 0 };
  return frame('bars', axisY + 44 + lg.height, parts.join('') + lg.svg, c.title);
}

/** Colour levels of a heatmap (cells of one level share one path). */
const LEVELS = 10;

function heatmap(c: Extract<Chart, { kind: 'heatmap' }>): string {
  const left = 200;
  const right = W - 10;
  const top = 10;
  const rowH = c.rows.length > 48 ? 8 : 16;
  const nc = Math.max(1, c.cols.length);
  const cw = (right - left) / nc;
  let max = c.max ?? 0;
  if (c.max === undefined) for (const r of c.values) for (const v of r) if (v > max) max = v;
  if (!(max > 0)) max = 1;
  const paths: string[][] = Array.from({ length: LEVELS }, () => []);
  c.values.forEach((row, i) =>
    row.forEach((v, j) => {
      if (!(v > 0)) return;
      const lvl = Math.min(LEVELS - 1, Math.floor((LEVELS * v) / max));
      paths[lvl]!.push(`M${r1(left + j * cw)} ${top + i * rowH}h${r1(Math.max(cw, 0.6))}v${rowH - 1}h-${r1(Math.max(cw, 0.6))}z`);
    }),
  );
  const parts: string[] = [`<rect x="${left}" y="${top}" width="${right - left}" height="${c.rows.length * rowH}" fill="#fbfbfb" stroke="#ddd"/>`];
  paths.forEach((p, lvl) => {
    if (!p.length) return;
    const a = (lvl + 1) / LEVELS;
    parts.push(`<path class="mark" d="${p.join('')}" fill="rgb(${Math.round(255 - 200 * a)},${Math.round(255 - 150 * a)},${Math.round(255 - 40 * a)})"><title>${esc(`${fmt((lvl * max) / LEVELS)}-${fmt(((lvl + 1) * max) / LEVELS)} ${c.unit}`)}</title></path>`);
  });
  c.rows.forEach((r, i) => parts.push(`<text x="${left - 6}" y="${top + i * rowH + rowH - 2}" text-anchor="end" class="${rowH < 12 ? 'small' : ''}">${esc(r.slice(0, 32))}</text>`));
  const axisY = top + c.rows.length * rowH + 2;
  const step = Math.max(1, Math.ceil(nc / 16));
  for (let j = 0; j < nc; j += step) parts.push(`<text x="${r1(left + (j + 0.5) * cw)}" y="${axisY + 12}" text-anchor="middle" class="small">${esc(c.cols[j] ?? '')}</text>`);
  if (c.xLabel) parts.push(`<text x="${(left + right) / 2}" y="${axisY + 28}" text-anchor="middle" class="axis">${esc(c.xLabel)}</text>`);
  // scale
  const sy = axisY + 36;
  for (let l = 0; l < LEVELS; l++) {
    const a = (l + 1) / LEVELS;
    parts.push(`<rect x="${left + l * 24}" y="${sy}" width="24" height="10" fill="rgb(${Math.round(255 - 200 * a)},${Math.round(255 - 150 * a)},${Math.round(255 - 40 * a)})"/>`);
  }
  parts.push(`<text x="${left + LEVELS * 24 + 6}" y="${sy + 9}">0 .. ${fmt(max)} ${esc(c.unit)}</text>`);
  return frame('heatmap', sy + 16, parts.join(''), c.title);
}

function roofline(c: Extract<Chart, { kind: 'roofline' }>): string {
  const left = 70;
  const right = W - 200;
  const top = 10;
  const h = 260;
  const pos = (v: number) => (v > 0 && Number.isFinite(v) ? v : undefined);
  const xs = c.points.map((p) => pos(p.intensity)).filter((v): v is number => v !== undefined);
  const ys = [...c.points.map((p) => pos(p.perf)), ...c.roofs.map((r) => pos(r.peak))].filter((v): v is number => v !== undefined);
  const ridge = c.roofs.map((r) => r.peak / r.bandwidth).filter((v) => v > 0 && Number.isFinite(v));
  const xlo = 10 ** Math.floor(Math.log10(Math.min(...xs, ...ridge, 1) / 2));
  const xhi = 10 ** Math.ceil(Math.log10(Math.max(...xs, ...ridge, 1) * 4));
  const yhi = 10 ** Math.ceil(Math.log10(Math.max(...ys, 1e-9) * 1.5));
  const ylo = Math.min(yhi / 1e4, 10 ** Math.floor(Math.log10(Math.min(...ys, yhi) / 2)));
  const X = (v: number) => r1(left + ((right - left) * Math.log10(v / xlo)) / Math.log10(xhi / xlo));
  const Y = (v: number) => r1(top + h - (h * Math.log10(Math.max(v, ylo) / ylo)) / Math.log10(yhi / ylo));
  const parts: string[] = [`<rect x="${left}" y="${top}" width="${right - left}" height="${h}" fill="none" stroke="#ccc"/>`];
  for (let d = xlo; d <= xhi * 1.0001; d *= 10) parts.push(`<line x1="${X(d)}" y1="${top}" x2="${X(d)}" y2="${top + h}" stroke="#eee"/><text x="${X(d)}" y="${top + h + 14}" text-anchor="middle">${fmt(d)}</text>`);
  for (let d = ylo; d <= yhi * 1.0001; d *= 10) parts.push(`<line x1="${left}" y1="${Y(d)}" x2="${right}" y2="${Y(d)}" stroke="#eee"/><text x="${left - 4}" y="${Y(d) + 4}" text-anchor="end">${fmt(d)}</text>`);
  parts.push(`<text x="${(left + right) / 2}" y="${top + h + 30}" text-anchor="middle" class="axis">${esc(c.intensityUnit)} (log)</text>`);
  parts.push(`<text x="12" y="${top + h / 2}" transform="rotate(-90 12 ${top + h / 2})" text-anchor="middle" class="axis">${esc(c.perfUnit)} (log)</text>`);
  const colours = new Map<string, string>();
  c.roofs.forEach((r, i) => {
    const ridgeX = r.peak / r.bandwidth;
    const x0 = xlo;
    const d = `M${X(x0)} ${Y(r.bandwidth * x0)}L${X(Math.min(ridgeX, xhi))} ${Y(Math.min(r.peak, r.bandwidth * xhi))}L${X(xhi)} ${Y(r.peak)}`;
    const col = PALETTE[(i + 6) % PALETTE.length]!;
    parts.push(`<path class="mark" d="${d}" fill="none" stroke="${col}" stroke-width="2" stroke-dasharray="${i ? '6 3' : ''}"><title>${esc(`${r.name}: peak ${fmt(r.peak)} ${c.perfUnit}, ${fmt(r.bandwidth)} x intensity`)}</title></path>`);
    parts.push(`<text x="${right + 6}" y="${Y(r.peak) + 4}" fill="${col}">${esc(r.name.slice(0, 30))}</text>`);
  });
  for (const p of c.points) {
    if (pos(p.intensity) === undefined || pos(p.perf) === undefined) continue;
    parts.push(`<circle class="mark" cx="${X(p.intensity)}" cy="${Y(p.perf)}" r="4" fill="${colourOf(p.name, colours)}" stroke="#333" stroke-width="0.5"><title>${esc(`${p.name}: ${fmt(p.intensity)} ${c.intensityUnit}, ${fmt(p.perf)} ${c.perfUnit}`)}</title></circle>`);
  }
  const lg = c.points.length <= 24 ? legend(c.points.map((p) => p.name), colours, top + h + 40) : { svg: '', height: 0 };
  return frame('roofline', top + h + 44 + lg.height, parts.join('') + lg.svg, c.title);
}

/** A chart as HTML (SVG, or a table). */
export function renderChart(c: Chart): string {
  const note = c.note ? `<p class="note">${esc(c.note)}</p>` : '';
  const head = `<h3>${esc(c.title)}</h3>`;
  switch (c.kind) {
    case 'gantt':
      return head + gantt(c) + note;
    case 'lines':
      return head + lines(c) + note;
    case 'bars':
      return head + bars(c) + note;
    case 'heatmap':
      return head + heatmap(c) + note;
    case 'roofline':
      return head + roofline(c) + note;
    case 'table': {
      const th = c.headers.map((h) => `<th>${esc(h)}</th>`).join('');
      const rows = c.rows.map((r) => `<tr>${r.map((v) => `<td>${esc(typeof v === 'number' ? fmt(v) : v)}</td>`).join('')}</tr>`).join('');
      return `${head}<table class="chart" data-kind="table"><thead><tr>${th}</tr></thead><tbody>${rows}</tbody></table>${note}`;
    }
  }
}
