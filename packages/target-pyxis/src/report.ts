/**
 * The Pyxis sections of the HTML run report (docs/report.md): trips on a timeline, grid figures and stall reasons
 * per trip, a roofline point per trip and for the chip, AMEM banks, HBM/DMA/NoC ports. Reads the stats JSON of
 * `pyxis-sim run` (sim/run.ts SimReport), possibly from a file: every field is checked before use.
 */
import { loadGrammarJson } from '@pyxis/codec';
import type { Chart, GanttTrack, ReportInput, ReportSection } from '@pyxis/report';
import type { MachineReport } from '@pyxis/target';
import { isSystemStats, systemSections } from './systemReport.js';

/** What the Pyxis figures model (docs/timing-model.md). */
export const PYXIS_MODEL =
  'control plane, DMA and MPE engines: transaction-level; UIE data movement (AMEM Read/Write, ITFE, Weights Read, AMEM bank arbitration) and the compute half (weights path, LLC grid, accumulators, writeback, Vbuffer, VPU): cycle-level (docs/timing-model.md)';

interface Peaks {
  uie_tflops: { fp8: number; fp16: number };
  chip_tflops: { fp8: number; fp16: number };
  uie_amem_bytes_per_cycle: number;
  chip_hbm_bytes_per_second: number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

interface TripFigures {
  engine: string;
  trip_id: number;
  name: string;
  start: number;
  end: number;
  cycles: number;
  macs: number;
  tflops: number;
  util: number;
  stalls: Record<string, number>;
  amem_bytes: number;
  /** VPU busy cycles / trip cycles (vpuStats.ts), when the VPU ran. */
  vpu?: number;
}

function computeTrips(stats: Obj): TripFigures[] {
  const names = obj(stats['trip_names']) ?? {};
  const out: TripFigures[] = [];
  for (const e of arr(stats['engines'])) {
    const eo = obj(e);
    const compute = obj(obj(eo?.['uie'])?.['compute']);
    if (!eo || !compute) continue;
    for (const t of arr(compute['trips'])) {
      const to = obj(t);
      if (!to) continue;
      const id = num(to['trip_id']);
      const stalls: Record<string, number> = {};
      for (const [k, v] of Object.entries(obj(to['stall_cycles']) ?? {})) if (num(v) > 0) stalls[k] = num(v);
      out.push({
        engine: String(eo['name']),
        trip_id: id,
        name: typeof names[String(id)] === 'string' ? (names[String(id)] as string) : `trip ${id}`,
        start: num(to['start_cycle']),
        end: num(to['end_cycle']),
        cycles: num(to['cycles']),
        macs: num(to['macs']),
        tflops: num(to['tflops']),
        util: num(to['grid_utilisation']),
        stalls,
        amem_bytes: num(to['amem_bytes']),
        ...(obj(to['vpu']) ? { vpu: num(obj(to['vpu'])!['utilisation']) } : {}),
      });
    }
  }
  return out;
}

function tripsSection(input: ReportInput, stats: Obj): ReportSection | undefined {
  const charts: Chart[] = [];
  const trace = input.trace;
  const clock = num(stats['clock_hz']) || 1.33e9;
  if (trace) {
    // the engines' trip and barrier-wait tracks (observer.ts): one row per engine (and overlap lane)
    const tracks: GanttTrack[] = trace.tracks
      .filter((t) => t.slices.some((s) => s.cat === 'trip' || s.cat === 'barrier'))
      .map((t) => ({
        name: t.name,
        slices: t.slices.map((s) => ({ start: s.start, end: s.end, label: s.count > 1 ? `${s.name} (${s.count} merged)` : s.name, group: s.cat === 'barrier' ? 'barrier wait' : String(s.args['kind'] ?? s.cat) })),
      }));
    if (tracks.length) charts.push({ kind: 'gantt', title: 'Trips per engine (colour: trip kind; label: the link script\'s trip name)', unit: 'µs', tracks, note: 'an engine with several trips in flight (a UIE holds up to three, chip §11.7.1) has extra rows (#2, #3).' });
  } else {
    const ct = computeTrips(stats);
    if (ct.length) {
      const by = new Map<string, GanttTrack>();
      for (const t of ct) {
        let g = by.get(t.engine);
        if (!g) by.set(t.engine, (g = { name: t.engine, slices: [] }));
        g.slices.push({ start: (t.start / clock) * 1e6, end: ((t.end + 1) / clock) * 1e6, label: t.name, group: t.name });
      }
      charts.push({ kind: 'gantt', title: 'Compute trips per UIE (no trace given: compute trips only)', unit: 'µs', tracks: [...by.values()] });
    }
  }
  const kinds = obj(stats['trips_by_kind']);
  if (kinds && Object.keys(kinds).length)
    charts.push({ kind: 'bars', title: 'Trips by engine kind', unit: 'trips', categories: Object.keys(kinds), series: [{ name: 'trips', values: Object.values(kinds).map(num) }] });
  if (!charts.length) return undefined;
  return { title: 'Trips', model: 'trip start and end cycles of the control plane (transaction-level) and of the UIEs (cycle-level)', charts };
}

function computeSection(stats: Obj, peaks: Peaks): ReportSection | undefined {
  const trips = computeTrips(stats);
  if (!trips.length) return undefined;
  const label = (t: TripFigures) => `${t.engine} ${t.name}`;
  const charts: Chart[] = [];
  const reasons = [...new Set(trips.flatMap((t) => Object.keys(t.stalls)))].sort();
  charts.push({
    kind: 'table',
    title: 'Grid figures per trip',
    headers: ['trip', 'cycles', 'MACs', 'TFLOPS', 'grid utilisation', 'AMEM bytes'],
    rows: trips.map((t) => [label(t), t.cycles, t.macs, t.tflops, `${(100 * t.util).toFixed(1)}%`, t.amem_bytes]),
    note: 'TFLOPS = 2 x MACs / trip time; utilisation = Exec_Valid cycles / trip cycles (docs/timing-model.md "Pyxis compute statistics").',
  });
  if (reasons.length)
    charts.push({
      kind: 'bars',
      title: 'Stall cycles per trip by reason',
      unit: 'stall cycles',
      categories: trips.map(label),
      series: reasons.map((r) => ({ name: r, values: trips.map((t) => t.stalls[r] ?? 0) })),
      note: 'each compute unit (weights path, GX, GWB, VPU) counts its own stall cycles: units stall in the same cycle, so a bar can be longer than the trip (and the reasons of overlapping trips on one UIE count each trip\'s open cycles).',
    });
  const vpuTrips = trips.filter((t) => t.vpu !== undefined);
  if (vpuTrips.length)
    charts.push({
      kind: 'bars',
      title: 'Utilisation per trip: LLC grid (Exec_Valid cycles) and VPU (busy cycles), of the trip\'s cycles',
      unit: 'fraction of the trip',
      categories: vpuTrips.map(label),
      series: [
        { name: 'grid', values: vpuTrips.map((t) => t.util) },
        { name: 'VPU', values: vpuTrips.map((t) => t.vpu ?? 0) },
      ],
      note: 'stacked: each segment is its own unit\'s fraction (docs/timing-model.md "Pyxis VPU and Vbuffer statistics").',
    });
  const clock = num(stats['clock_hz']) || 1.33e9;
  const bw = peaks.uie_amem_bytes_per_cycle * clock; // bytes/s
  const points = trips.filter((t) => t.macs > 0 && t.amem_bytes > 0).map((t) => ({ name: label(t), intensity: (2 * t.macs) / t.amem_bytes, perf: t.tflops }));
  if (points.length)
    charts.push({
      kind: 'roofline',
      title: 'Roofline per trip (UIE)',
      perfUnit: 'TFLOPS',
      intensityUnit: 'FLOPs per AMEM byte',
      roofs: [
        { name: `UIE FP8 ${peaks.uie_tflops.fp8} TFLOPS`, peak: peaks.uie_tflops.fp8, bandwidth: bw / 1e12 },
        { name: `UIE FP16 ${peaks.uie_tflops.fp16} TFLOPS`, peak: peaks.uie_tflops.fp16, bandwidth: bw / 1e12 },
      ],
      points,
      note: `roofs: chip §1 per-UIE peaks at 1.33 GHz; slope: the UIE's AMEM ports, ${peaks.uie_amem_bytes_per_cycle} B/cycle (grammars/pyxis/report_peaks.json). Bytes: AMEM bytes the UIE moved while the trip was open (overlapping trips share them).`,
    });
  // the chip as a whole: all FLOPs over the run against HBM traffic
  const mem = obj(stats['memory']);
  const hbm = num(mem?.['hbm_bytes_read']) + num(mem?.['hbm_bytes_written']);
  const seconds = num(stats['cycles']) / clock;
  const flops = 2 * trips.reduce((a, t) => a + t.macs, 0);
  if (hbm > 0 && seconds > 0 && flops > 0)
    charts.push({
      kind: 'roofline',
      title: 'Roofline of the run (chip, HBM)',
      perfUnit: 'TFLOPS',
      intensityUnit: 'FLOPs per HBM byte',
      roofs: [{ name: `chip FP8 ${peaks.chip_tflops.fp8} TFLOPS`, peak: peaks.chip_tflops.fp8, bandwidth: peaks.chip_hbm_bytes_per_second / 1e12 }],
      points: [{ name: 'run', intensity: flops / hbm, perf: flops / seconds / 1e12 }],
      note: `chip §1: ${peaks.chip_tflops.fp8} TFLOPS FP8, HBM ${peaks.chip_hbm_bytes_per_second / 1e9} GB/s (4 stacks); FLOPs of the recorded compute trips over the whole run.`,
    });
  const timingOnly = stats['timing_only'] === true;
  return {
    title: 'Compute (LLC grid, VPU)',
    model: 'cycle-level: the weights path, LLC grid, accumulators, writeback, Vbuffer and VPU per cycle; MACs counted per Exec_Valid cycle',
    charts,
    ...(timingOnly ? { notes: ['timing-only run (--timing-only): the LLC arithmetic was skipped; cycles, MACs and stalls are those of a full run, grid outputs were not computed.'] } : {}),
  };
}

/** Name of the per-cluster bank counter of the trace (sim/gridTrace.ts bankCounter). */
const BANK_COUNTER = /^c(\d+) AMEM bank accesses$/;

/** Bank x time heatmaps from the trace's bank counters: partition accesses per bank in each of 64 time columns. */
function bankTimeCharts(input: ReportInput): Chart[] {
  const trace = input.trace;
  if (!trace) return [];
  const out: Chart[] = [];
  const cols = 32; // 128 banks x 32 columns per cluster: the report stays small (docs/report.md "Size")
  const end = trace.end > 0 ? trace.end : 1;
  for (const c of trace.counters) {
    const m = BANK_COUNTER.exec(c.name);
    if (!m) continue;
    const rows = new Map<number, number[]>();
    for (const [key, s] of c.series) {
      const bank = Number(key.slice(1));
      if (!(bank >= 0 && bank < 128)) continue;
      const row = rows.get(bank) ?? new Array<number>(cols).fill(0);
      s.t.forEach((t, i) => (row[Math.min(cols - 1, Math.floor((t / end) * cols))]! += s.v[i]!));
      rows.set(bank, row);
    }
    const banks = [...rows.keys()].filter((b) => rows.get(b)!.some((v) => v > 0)).sort((a, b) => a - b);
    if (!banks.length) continue;
    out.push({
      kind: 'heatmap',
      title: `AMEM banks over time, cluster ${m[1]}: partition accesses per bank`,
      rows: banks.map((b) => `bank ${b}`),
      cols: Array.from({ length: cols }, (_, j) => (j * end / cols).toPrecision(3)),
      values: banks.map((b) => rows.get(b)!),
      unit: 'accesses',
      xLabel: 'time (µs)',
      note: 'from the trace counter of bank arbitration (sampled every 1024 cycles, placed at the period start); banks never accessed are left out.',
    });
  }
  return out;
}

function memorySection(stats: Obj, input: ReportInput): ReportSection | undefined {
  const mem = obj(stats['memory']);
  const amem = arr(mem?.['amem']).map(obj).filter((a): a is Obj => !!a);
  const charts: Chart[] = [...bankTimeCharts(input)];
  const rows: string[] = [];
  const values: number[][] = [];
  for (const a of amem) {
    const acc = arr(a['bank_accesses']).map(num);
    if (acc.some((v) => v > 0)) {
      rows.push(`c${num(a['cluster'])} accesses`);
      values.push(acc);
    }
    const st = new Array<number>(acc.length || 128).fill(0);
    for (const b of arr(a['bank_conflicts'])) {
      const bo = obj(b);
      if (bo) st[num(bo['bank'])] = num(bo['stall_cycles']);
    }
    if (st.some((v) => v > 0)) {
      rows.push(`c${num(a['cluster'])} conflict stalls`);
      values.push(st.map((v) => v));
    }
  }
  if (rows.length) {
    const n = Math.max(...values.map((v) => v.length));
    // rows of one kind share a scale: accesses and stalls are normalised per row to their own maximum
    charts.push({
      kind: 'heatmap',
      title: 'AMEM banks: partition accesses and conflict stall cycles per bank (per cluster)',
      rows,
      cols: Array.from({ length: n }, (_, i) => String(i)),
      values: values.map((r) => {
        const m = Math.max(...r, 1);
        return r.map((v) => v / m);
      }),
      unit: 'of the row maximum',
      xLabel: 'bank (hashed view, chip §7.1)',
      max: 1,
      note: 'each row scaled to its own maximum; a hot bank shows as a dark cell. Accesses count 16-byte partition accesses of all clients.',
    });
  }
  const clients = amem.flatMap((a) => arr(a['clients']).map(obj).filter((c): c is Obj => !!c).map((c) => ({ name: `c${num(a['cluster'])}.${String(c['client'])}`, claims: num(c['claims']), conflicts: num(c['conflicts']), stall: num(c['stall_cycles']) })));
  if (clients.length)
    charts.push({ kind: 'table', title: 'AMEM clients', headers: ['client', 'bank claims', 'conflicts', 'stall cycles'], rows: clients.map((c) => [c.name, c.claims, c.conflicts, c.stall]) });
  const ports = arr(stats['ports']).map(obj).filter((p): p is Obj => !!p && num(p['bytes']) > 0);
  const clock = num(stats['clock_hz']) || 1.33e9;
  const seconds = num(stats['cycles']) / clock;
  if (ports.length && seconds > 0)
    charts.push({
      kind: 'bars',
      title: 'HBM, DMA and NoC ports: average bandwidth over the run',
      unit: 'GB/s',
      categories: ports.map((p) => String(p['name'])),
      series: [{ name: 'GB/s', values: ports.map((p) => num(p['bytes']) / seconds / 1e9) }],
      note: 'bytes through each port over the whole run; the bandwidth over time is the trace counter "bandwidth GB/s" (section Counters).',
    });
  if (!charts.length) return undefined;
  return { title: 'Memory and bandwidth', model: 'AMEM bank arbitration cycle-level; HBM, H2A/A2H, ICDMA, core switch and NoC ports transaction-level (bytes per cycle from grammars/pyxis/sim_config.json)', charts };
}

let peaksCache: Peaks | undefined;

/** The Pyxis report hook (`MachineBackend.report`). */
export function pyxisReport(input: ReportInput): MachineReport {
  const stats = input.stats;
  peaksCache ??= loadGrammarJson<Peaks>('pyxis', 'report_peaks');
  if (isSystemStats(stats)) return { sections: [...systemSections(input), tripsSection(input, stats)].filter((s): s is ReportSection => !!s), model: String(stats['model'] ?? PYXIS_MODEL), skipCounters: (n) => BANK_COUNTER.test(n) };
  const sections = [tripsSection(input, stats), computeSection(stats, peaksCache), memorySection(stats, input)].filter((s): s is ReportSection => !!s);
  return { sections, model: PYXIS_MODEL, skipCounters: (n) => BANK_COUNTER.test(n) };
}
