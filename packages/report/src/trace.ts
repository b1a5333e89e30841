/**
 * A bounded summary of a Chrome/Perfetto trace-event stream for the run report. The simulators write one event
 * per line (@pyxis/sim TraceWriter); the collector parses lines as they are written (`write`, a TextSink), so a
 * report needs neither the trace file nor the whole trace in memory. Downsampling (docs/report.md "Size"):
 *
 * - slices: at most MAX_SLICES per track are kept; when a track has more, neighbouring slices are merged in pairs
 *   (the merged slice spans both and is labelled with the count), so a Gantt row keeps its outline;
 * - busy time: exact per track, in BINS time bins whose width doubles (pairs of bins summed) whenever a slice ends
 *   past the last bin, so utilisation over time stays exact at the final resolution;
 * - counters: at most MAX_POINTS samples per series; past that, neighbouring samples are merged in pairs keeping
 *   the larger value (peaks survive: occupancies and bandwidths are read for their highs).
 */

/** Kept slices per track before pair-merging. */
export const MAX_SLICES = 2048;
/** Time bins of each track's busy histogram. */
export const BINS = 128;
/** Samples kept per counter series before pair-merging. */
export const MAX_POINTS = 2048;

export interface TraceSlice {
  /** Microseconds (the trace's `ts`). */
  start: number;
  end: number;
  name: string;
  cat: string;
  /** Original slices this one stands for (1 unless merged). */
  count: number;
  /** Numeric and string args of the event (a merged slice keeps the first one's). */
  args: Record<string, unknown>;
}

export interface TraceTrack {
  pid: number;
  tid: number;
  process: string;
  name: string;
  slices: TraceSlice[];
  /** Slices seen (before merging). */
  total: number;
  /** Busy microseconds per bin of width `binWidth` (overlapping slices on one track add up). */
  busy: Float64Array;
  binWidth: number;
}

export interface CounterSeries {
  t: number[];
  v: number[];
}

export interface TraceCounter {
  pid: number;
  process: string;
  name: string;
  series: Map<string, CounterSeries>;
}

export interface TraceModel {
  tracks: TraceTrack[];
  counters: TraceCounter[];
  /** Latest time seen (µs). */
  end: number;
  /** Events read. */
  events: number;
}

interface RawEvent {
  ph?: string;
  name?: string;
  cat?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  args?: Record<string, unknown>;
}

/** Collects trace events written to it (a TextSink: `write`, `close`, `abort`). */
export class TraceCollector {
  private rest = '';
  private readonly tracks = new Map<string, TraceTrack>();
  private readonly counters = new Map<string, TraceCounter>();
  private readonly processes = new Map<number, string>();
  private readonly threads = new Map<string, string>();
  private readonly open = new Map<string, RawEvent[]>();
  private end = 0;
  private events = 0;

  write(s: string): void {
    const text = this.rest + s;
    let at = 0;
    for (;;) {
      const nl = text.indexOf('\n', at);
      if (nl < 0) break;
      this.line(text.slice(at, nl));
      at = nl + 1;
    }
    this.rest = text.slice(at);
  }

  close(): void {
    if (this.rest) this.line(this.rest);
    this.rest = '';
  }

  abort(): void {
    this.rest = '';
  }

  private line(l: string): void {
    let s = l.trim();
    if (s.endsWith(',')) s = s.slice(0, -1);
    if (!s.startsWith('{"ph"') && !s.startsWith('{ "ph"') && !(s.startsWith('{') && s.includes('"ph"') && !s.includes('traceEvents'))) return;
    let e: RawEvent;
    try {
      e = JSON.parse(s) as RawEvent;
    } catch {
      return;
    }
    this.event(e);
  }

  /** One trace event (also used for traces that are not one event per line: `collectTraceText`). */
  event(e: RawEvent): void {
    if (typeof e !== 'object' || e === null || typeof e.ph !== 'string') return;
    this.events++;
    const pid = typeof e.pid === 'number' ? e.pid : 0;
    const tid = typeof e.tid === 'number' ? e.tid : 0;
    const ts = typeof e.ts === 'number' && Number.isFinite(e.ts) ? e.ts : 0;
    switch (e.ph) {
      case 'M':
        if (e.name === 'process_name') this.processes.set(pid, String(e.args?.['name'] ?? pid));
        else if (e.name === 'thread_name') {
          const name = String(e.args?.['name'] ?? tid);
          this.threads.set(`${pid}:${tid}`, name);
          const t = this.tracks.get(`${pid}:${tid}`);
          if (t) t.name = name;
        }
        return;
      case 'X': {
        const dur = typeof e.dur === 'number' && Number.isFinite(e.dur) && e.dur > 0 ? e.dur : 0;
        this.slice(pid, tid, ts, ts + dur, e);
        return;
      }
      case 'B': {
        const k = `${pid}:${tid}`;
        let st = this.open.get(k);
        if (!st) this.open.set(k, (st = []));
        st.push(e);
        return;
      }
      case 'E': {
        const b = this.open.get(`${pid}:${tid}`)?.pop();
        if (b) this.slice(pid, tid, typeof b.ts === 'number' ? b.ts : ts, ts, b);
        return;
      }
      case 'C':
        this.counter(pid, ts, e);
        return;
      default:
        if (ts > this.end) this.end = ts;
    }
  }

  private track(pid: number, tid: number): TraceTrack {
    const k = `${pid}:${tid}`;
    let t = this.tracks.get(k);
    if (!t) {
      t = { pid, tid, process: '', name: this.threads.get(k) ?? `${pid}:${tid}`, slices: [], total: 0, busy: new Float64Array(BINS), binWidth: 1e-3 };
      this.tracks.set(k, t);
    }
    return t;
  }

  private slice(pid: number, tid: number, start: number, end: number, e: RawEvent): void {
    const t = this.track(pid, tid);
    if (end > this.end) this.end = end;
    t.total++;
    t.slices.push({ start, end, name: String(e.name ?? ''), cat: String(e.cat ?? ''), count: 1, args: e.args ?? {} });
    if (t.slices.length > MAX_SLICES) t.slices = mergePairs(t.slices);
    addBusy(t, start, end);
  }

  private counter(pid: number, ts: number, e: RawEvent): void {
    const name = String(e.name ?? '');
    const k = `${pid}:${name}`;
    let c = this.counters.get(k);
    if (!c) this.counters.set(k, (c = { pid, process: '', name, series: new Map() }));
    if (ts > this.end) this.end = ts;
    for (const [key, raw] of Object.entries(e.args ?? {})) {
      const v = Number(raw);
      if (!Number.isFinite(v)) continue;
      let s = c.series.get(key);
      if (!s) c.series.set(key, (s = { t: [], v: [] }));
      s.t.push(ts);
      s.v.push(v);
      if (s.t.length > MAX_POINTS) halve(s);
    }
  }

  /** The summary so far. */
  model(): TraceModel {
    const tracks = [...this.tracks.values()].sort((a, b) => a.pid - b.pid || a.tid - b.tid);
    for (const t of tracks) {
      t.process = this.processes.get(t.pid) ?? `process ${t.pid}`;
      t.name = this.threads.get(`${t.pid}:${t.tid}`) ?? t.name;
      t.slices.sort((a, b) => a.start - b.start);
    }
    const counters = [...this.counters.values()];
    for (const c of counters) c.process = this.processes.get(c.pid) ?? `process ${c.pid}`;
    return { tracks, counters, end: this.end, events: this.events };
  }
}

/** Summarises a whole trace text (a file given to `pyxis-sim report`): line by line, else as one JSON document. */
export function collectTraceText(text: string): TraceModel {
  const c = new TraceCollector();
  c.write(text);
  c.close();
  let m = c.model();
  if (m.events === 0) {
    const doc = JSON.parse(text) as { traceEvents?: unknown[] } | unknown[];
    const events = Array.isArray(doc) ? doc : Array.isArray(doc.traceEvents) ? doc.traceEvents : [];
    const c2 = new TraceCollector();
    for (const e of events) c2.event(e as RawEvent);
    m = c2.model();
  }
  return m;
}

/** Merges neighbouring slices in pairs (by start time): half as many, each spanning both. */
export function mergePairs(slices: TraceSlice[]): TraceSlice[] {
  slices.sort((a, b) => a.start - b.start);
  const out: TraceSlice[] = [];
  for (let i = 0; i < slices.length; i += 2) {
    const a = slices[i]!;
    const b = slices[i + 1];
    if (!b) {
      out.push(a);
      continue;
    }
    const count = a.count + b.count;
    out.push({ start: a.start, end: Math.max(a.end, b.end), name: a.name === b.name ? a.name : `${count} slices`, cat: a.cat, count, args: a.args });
  }
  return out;
}

function addBusy(t: TraceTrack, start: number, end: number): void {
  if (!(end > start)) return;
  while (end > t.binWidth * BINS) {
    const b = t.busy;
    for (let i = 0; i < BINS / 2; i++) b[i] = b[2 * i]! + b[2 * i + 1]!;
    b.fill(0, BINS / 2);
    t.binWidth *= 2;
  }
  const w = t.binWidth;
  const first = Math.floor(start / w);
  const last = Math.min(BINS - 1, Math.floor(end / w));
  for (let i = first; i <= last; i++) {
    const lo = Math.max(start, i * w);
    const hi = Math.min(end, (i + 1) * w);
    if (hi > lo) t.busy[i]! += hi - lo;
  }
}

/** Merges neighbouring samples in pairs keeping the larger value (at the first sample's time). */
function halve(s: CounterSeries): void {
  const n = s.t.length;
  let k = 0;
  for (let i = 0; i < n; i += 2) {
    const j = i + 1 < n ? i + 1 : i;
    s.t[k] = s.t[i]!;
    s.v[k] = Math.max(s.v[i]!, s.v[j]!);
    k++;
  }
  s.t.length = k;
  s.v.length = k;
}
