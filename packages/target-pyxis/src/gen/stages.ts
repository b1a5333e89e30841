/**
 * Per stage of a chained kernel (`GenKernel.stages`, e.g. the transformer layer): the span of its UIE trips (first
 * start to last retirement, from the report's per-trip compute statistics), its useful FLOPs over that span, the
 * precision its compute trips run at (gen/precision.ts) and its grid utilisation (Exec_Valid cycles / span / UIEs).
 * Stages overlap where the barriers allow (a stage's loads start as soon as the previous stage's stores are done).
 */
import type { SimReport } from '../sim/run.js';
import type { GridPrecision, PrecisionSplit } from './precision.js';

/** One stage of `--json`'s `run.stages` (docs/generators.md "JSON output"). */
export interface StageJson {
  stage: string;
  label: string;
  first_cycle: number;
  last_cycle: number;
  cycles: number;
  uies: number;
  useful_flops: number;
  /** null: no grid FLOPs (a VPU stage) or the run stopped. */
  tflops: number | null;
  grid_utilisation: number;
  /** null: no compute trip (a VPU stage). */
  precision: GridPrecision | null;
}

export function stageFigures(r: SimReport, split: PrecisionSplit): StageJson[] {
  const g = split.groups;
  const acc = g.map(() => ({ start: Infinity, end: 0, ev: 0, uies: new Set<string>() }));
  for (const e of r.engines) {
    const trips = (e.uie?.['compute'] as { trips?: Array<{ trip_id: number; start_cycle: number; end_cycle: number; exec_valid: number }> } | undefined)?.trips ?? [];
    for (const t of trips) {
      const name = r.trip_names[String(t.trip_id)] ?? '';
      const i = g.findIndex((s) => name.startsWith(s.prefix));
      if (i < 0) continue;
      const a = acc[i]!;
      a.start = Math.min(a.start, t.start_cycle);
      a.end = Math.max(a.end, t.end_cycle);
      a.ev += t.exec_valid;
      a.uies.add(e.name);
    }
  }
  const out: StageJson[] = [];
  g.forEach((s, i) => {
    const a = acc[i]!;
    if (a.end === 0) return; // no trip of the stage ran (a stopped run)
    const span = a.end - a.start;
    // a stopped run (--max-cycles) may hold part of a stage: its FLOPs over that span are no rate (figures.ts)
    const rated = s.flops > 0 && r.stop === 'done' && span > 0;
    out.push({
      stage: s.name,
      label: s.label,
      first_cycle: a.start,
      last_cycle: a.end,
      cycles: span,
      uies: a.uies.size,
      useful_flops: s.flops,
      tflops: rated ? s.flops / (span / r.clock_hz) / 1e12 : null,
      grid_utilisation: span > 0 ? a.ev / span / a.uies.size : 0,
      precision: s.precision,
    });
  });
  return out;
}

export function formatStages(st: StageJson[]): string[] {
  if (st.length === 0) return [];
  const out = ['stages (span = first UIE trip start .. last retirement; stages overlap where the barriers allow):'];
  for (const s of st)
    out.push(
      `  ${s.label.padEnd(60)} cycles ${String(s.first_cycle).padStart(6)}..${String(s.last_cycle).padEnd(6)} span ${String(s.cycles).padStart(6)}, ${s.uies} UIEs` +
        (s.tflops !== null ? `, ${s.tflops.toFixed(1)} TFLOPS ${s.precision?.toUpperCase()}, grid ${(100 * s.grid_utilisation).toFixed(1)}%` : ''),
    );
  return out;
}
