/** The human summary printed at the end of `pyxis-sim run`. */
import type { SimReport } from './run.js';
import { VPU_LEGEND, vpuSummaryLines, type VbufFigures, type VpuFigures } from './vpuStats.js';

function si(n: number, unit: string): string {
  const abs = Math.abs(n);
  const [d, p] = abs >= 1e9 ? [1e9, 'G'] : abs >= 1e6 ? [1e6, 'M'] : abs >= 1e3 ? [1e3, 'k'] : [1, ''];
  return `${(n / d).toFixed(d === 1 ? 0 : 2)} ${p}${unit}`;
}

function time(s: number): string {
  if (s >= 1) return `${s.toFixed(3)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(3)} ms`;
  if (s >= 1e-6) return `${(s * 1e6).toFixed(3)} us`;
  return `${(s * 1e9).toFixed(1)} ns`;
}

interface ComputeFigures {
  cycles: number;
  macs: number;
  tflops: number;
  grid_utilisation: number;
  exec_valid: number;
  wb_flits: number;
  stall_cycles: Record<string, number>;
  vpu?: VpuFigures;
  vbuffer?: VbufFigures;
}
type ComputeReport = ComputeFigures & { timing_only: boolean; trips: Array<ComputeFigures & { trip_id: number }> };

function figures(f: ComputeFigures): string {
  // writeback_kick counts GWB waiting for GX's kick, i.e. idle while the tile computes: in the JSON, not listed here
  const stalls = Object.entries(f.stall_cycles)
    .filter(([k]) => k !== 'writeback_kick')
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `${si(f.macs, 'MAC')}, ${f.tflops.toFixed(2)} TFLOPS, utilisation ${(100 * f.grid_utilisation).toFixed(1)}% (${f.exec_valid} Exec_Valid / ${f.cycles} cycles)${stalls ? `; stall cycles: ${stalls}` : ''}`;
}

const gridWorked = (f: ComputeFigures): boolean => f.macs + f.exec_valid + (f.wb_flits ?? 0) > 0;

/**
 * Compute statistics of the UIEs whose grid, VPU or Vbuffer ran (uieDefault.ts `uieStats().compute`;
 * docs/timing-model.md "Pyxis compute statistics", "Pyxis VPU and Vbuffer statistics").
 */
function computeLines(r: SimReport): string[] {
  const out: string[] = [];
  let timingOnly = false;
  let grid = false;
  let vpu = false;
  for (const e of r.engines) {
    const c = e.uie?.['compute'] as ComputeReport | undefined;
    if (!c) continue;
    timingOnly ||= c.timing_only;
    const trips = c.trips.filter(gridWorked);
    if (c.macs !== 0 || c.exec_valid !== 0 || trips.length !== 0) {
      grid = true;
      out.push(`${e.name} grid: ${figures(c)}`);
      if (trips.length > 1) for (const t of trips.slice(0, 8)) out.push(`  trip ${t.trip_id}: ${figures(t)}`);
      if (trips.length > 8) out.push(`  ... ${trips.length - 8} more trips (see --stats)`);
      const sumStalls = (f: ComputeFigures) => Object.values(f.stall_cycles).reduce((x, y) => x + y, 0);
      if (trips.length > 1 && trips.reduce((x, t) => x + sumStalls(t), 0) > sumStalls(c))
        out.push('  (the trips\' stall cycles add up to more than the UIE\'s: trips open at the same time each count the stalls of the cycles they share; docs/timing-model.md "Pyxis compute statistics")');
    }
    const v = vpuSummaryLines(e.name, c.cycles, c.vpu, c.vbuffer);
    vpu ||= v.length > 0;
    out.push(...v);
  }
  if (vpu) out.push(VPU_LEGEND);
  if (out.length) out.unshift(grid ? `compute (grid, at ${si(r.clock_hz, 'Hz')}; TFLOPS = 2 x MACs / trip time):` : `compute (VPU and Vbuffer, at ${si(r.clock_hz, 'Hz')}):`);
  if (timingOnly) out.unshift('timing-only run (--timing-only): the LLC arithmetic was skipped; cycle counts are modelled, grid outputs are NOT computed');
  return out;
}

export function formatSummary(r: SimReport): string {
  const lines: string[] = [];
  const status = r.stop === 'done' ? 'completed' : r.stop === 'deadlock' ? 'DEADLOCK' : 'STOPPED at --max-cycles';
  lines.push(`pyxis-sim: ${status} after ${r.cycles} cycles = ${time(r.seconds)} at ${si(r.clock_hz, 'Hz')} (${r.clusters} cluster(s) x ${r.uies} UIE(s))`);
  const kinds = Object.entries(r.trips_by_kind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  lines.push(`trips: ${r.trips_total}${kinds ? ` (${kinds})` : ''}`);
  const active = r.engines.filter((e) => e.busy > 0 || (e.trips ?? 0) > 0);
  if (active.length) {
    lines.push('engine                     trips  active%   busy%  bytes       main stall');
    for (const e of active) {
      const top = Object.entries(e.stall_reasons).sort((a, b) => b[1] - a[1])[0];
      lines.push(
        `${e.name.padEnd(26)} ${String(e.trips ?? '-').padStart(5)} ${(100 * e.occupancy).toFixed(1).padStart(8)} ${(100 * e.utilization).toFixed(1).padStart(7)}  ${(e.bytes !== undefined ? si(e.bytes, 'B') : '-').padEnd(10)}  ${top ? `${top[0]} (${top[1]} cycles)` : ''}`,
      );
    }
    lines.push('  (active% = cycles holding work, busy% = cycles making progress)');
  }
  lines.push(...computeLines(r));
  const moved = r.ports.filter((p) => p.bytes > 0);
  if (moved.length) lines.push(`bytes moved: ${moved.map((p) => `${p.name} ${si(p.bytes, 'B')} (${(100 * p.utilization).toFixed(1)}%)`).join(', ')}`);
  const amem = r.memory.amem.filter((a) => a.bytes_read + a.bytes_written > 0);
  if (amem.length) lines.push(`AMEM traffic: ${amem.map((a) => `c${a.cluster} read ${si(a.bytes_read, 'B')} written ${si(a.bytes_written, 'B')}`).join(', ')}`);
  // AMEM bank conflicts (amem/banks.ts): totals and the hottest bank per cluster
  for (const a of r.memory.amem) {
    const bc = a.bank_conflicts ?? [];
    if (bc.length === 0) continue;
    const n = bc.reduce((x, y) => x + y.conflicts, 0);
    const st = bc.reduce((x, y) => x + y.stall_cycles, 0);
    const hot = bc.reduce((x, y) => (y.stall_cycles > x.stall_cycles ? y : x));
    lines.push(`AMEM banks c${a.cluster}: ${n} conflicts, ${st} stall cycles; hottest bank ${hot.bank} (${hot.conflicts} conflicts, ${hot.stall_cycles} stall cycles)`);
  }
  const b = r.barriers.reduce((a, x) => ({ setups: a.setups + x.setups, notifies: a.notifies + x.notifies, waits: a.waits + x.waits }), { setups: 0, notifies: 0, waits: 0 });
  let longest: { id: string; max: number } | undefined;
  for (const x of r.barriers) for (const w of x.wait_cycles) if (!longest || w.max > longest.max) longest = { id: `${x.cluster}:${w.barrier_id}`, max: w.max };
  lines.push(`barriers: ${b.setups} set up, ${b.notifies} notifies, ${b.waits} waits${longest ? ` (longest wait ${longest.max} cycles, barrier ${longest.id})` : ''}`);
  if (r.apm.enabled && r.apm.bubbles > 0) lines.push(`APM: ${r.apm.bubbles} bubble cycles inserted (peak requested power ${r.apm.peak_requested_power})`);
  if (r.warnings.length) {
    lines.push(`warnings: ${r.warnings.length}`);
    for (const w of r.warnings.slice(0, 5)) lines.push(`  ${w.code}: ${w.message}`);
    if (r.warnings.length > 5) lines.push(`  ... ${r.warnings.length - 5} more (see the diagnostics above or --stats)`);
  }
  return lines.join('\n') + '\n';
}
