/**
 * `pyxis-gen --json`: the machine-readable form of what the CLI prints (docs/generators.md "JSON output"). One object
 * on stdout; every figure a number whose unit is in its key (`_cycles`, `_seconds`, `_bytes`, `_tflops`, `_gbps`,
 * `_hz`) or a fraction 0..1 (`_share`, `_utilisation`), names as the simulator's stats where the quantity is the same
 * (`grid_utilisation`, `exec_valid`, `stall_cycles`, `hbm_bytes_read`, `clock_hz`, `trips_total`). The key set is
 * versioned by `schema`: a key is added under the same version, renamed or removed only with a new one.
 */
import type { SimReport } from '../sim/run.js';
import { HBM_PEAK_GBPS, PEAK_TFLOPS_PER_UIE, blendedPeak, type ChipFigures } from './figures.js';
import type { StageJson } from './stages.js';

export const JSON_SCHEMA = 'pyxis-gen/1';

/** What `--run` adds (`run` of the object; null without --run). */
export interface RunJson {
  stop: string;
  /** What the cycles model (docs/timing-model.md): the Pyxis UIE, DMA and control engines are cycle-level. */
  timing_model: 'cycle-level';
  timing_only: boolean;
  /** false with --timing-only: the outputs were not computed (no error figure). */
  outputs_computed: boolean;
  max_cycles: number;
  clock_hz: number;
  clusters: number;
  uies: number;
  trips_total: number;
  cycles: number;
  seconds: number;
  useful_flops: number;
  /** useful_flops split by the precision the grid runs each compute trip at (gen/precision.ts, from the program). */
  useful_flops_fp8: number;
  useful_flops_fp16: number;
  /** null: no grid FLOPs (a VPU kernel) or the run stopped before the kernel finished. */
  tflops: number | null;
  /** 'mixed' when both splits are > 0; the kernel's declared dtype when it has no grid FLOPs. */
  peak_precision: 'fp8' | 'fp16' | 'mixed';
  /** The chip §1 peaks of the 48 UIEs (unrounded: 2,092 FP8 / 1,046 FP16; the spec says 2,100 / 1,050). */
  peak_tflops_fp8: number;
  peak_tflops_fp16: number;
  /** The peak of peak_precision; for 'mixed' the blend useful_flops / (fp8 / peak_fp8 + fp16 / peak_fp16). */
  peak_tflops: number;
  /** Time-equivalent share: (useful_flops_fp8 / peak_fp8 + useful_flops_fp16 / peak_fp16) / seconds (= tflops / peak_tflops). */
  peak_share: number | null;
  /** UIEs that ran compute trips, the peak of those and the share of it. */
  computing_uies: number;
  computing_peak_tflops: number;
  computing_peak_share: number | null;
  hbm_bytes_read: number;
  hbm_bytes_written: number;
  hbm_bytes: number;
  hbm_gbps: number;
  hbm_peak_gbps: number;
  hbm_peak_share: number;
  clusters_utilisation: Array<{ cluster: number; uies: number; grid_utilisation: number; vpu_utilisation: number | null }>;
  uies_utilisation: Array<{ name: string; exec_valid: number; grid_utilisation: number }>;
  top_stalls: Array<{ reason: string; cycles: number }>;
  stall_cycles: Record<string, number>;
  apm_bubbles: number;
  apm_peak_requested_power: number;
  /** null when not checked (`error_status` says why). */
  error: { max: number; max_bound: number; rms: number; rms_bound: number | null; what: string; pass: boolean } | null;
  error_status: 'checked' | 'timing-only' | 'unchecked' | 'stopped';
  unchecked_why: string | null;
  link_warnings: string[];
  /** A kernel's own extra lines, as printed (the stage spans are in `stages`). */
  report_lines: string[];
  /** Per stage of a chained kernel (the transformer layer; gen/stages.ts), null for a kernel without stages. */
  stages: StageJson[] | null;
  host_seconds: { assemble_link: number; simulate: number };
  /** Every check passed and the run finished (exit 0). */
  ok: boolean;
}

export function runJson(
  r: SimReport,
  f: ChipFigures,
  x: {
    timingOnly: boolean;
    maxCycles: number;
    dtype: 'fp8' | 'fp16';
    stages: StageJson[] | null;
    error: { max: number; rms: number; bound: number; what: string; rmsBound?: number } | undefined;
    pass: boolean;
    uncheckedWhy: string | undefined;
    linkWarnings: string[];
    reportLines: string[];
    hostAssembleLink: number;
    hostSimulate: number;
    ok: boolean;
  },
): RunJson {
  const rated = f.flops > 0 && f.complete;
  const computingPeak = blendedPeak(f.flopsFp8, f.flopsFp16, x.dtype, f.uies.length);
  const vpu = new Map(f.vpuClusters.map((c) => [c.cluster, c.utilisation]));
  return {
    stop: r.stop,
    timing_model: 'cycle-level',
    timing_only: x.timingOnly,
    outputs_computed: !x.timingOnly,
    max_cycles: x.maxCycles,
    clock_hz: r.clock_hz,
    clusters: r.clusters,
    uies: r.uies,
    trips_total: r.trips_total,
    cycles: f.cycles,
    seconds: f.seconds,
    useful_flops: f.flops,
    useful_flops_fp8: f.flopsFp8,
    useful_flops_fp16: f.flopsFp16,
    tflops: rated ? f.tflops : null,
    peak_precision: f.precision,
    peak_tflops_fp8: PEAK_TFLOPS_PER_UIE.fp8 * 48,
    peak_tflops_fp16: PEAK_TFLOPS_PER_UIE.fp16 * 48,
    peak_tflops: f.peakTflops,
    peak_share: rated ? f.tflops / f.peakTflops : null,
    computing_uies: f.uies.length,
    computing_peak_tflops: computingPeak,
    computing_peak_share: rated && computingPeak > 0 ? f.tflops / computingPeak : null,
    hbm_bytes_read: r.memory.hbm_bytes_read,
    hbm_bytes_written: r.memory.hbm_bytes_written,
    hbm_bytes: f.hbmBytes,
    hbm_gbps: f.hbmGBps,
    hbm_peak_gbps: HBM_PEAK_GBPS,
    hbm_peak_share: f.hbmGBps / HBM_PEAK_GBPS,
    clusters_utilisation: f.clusters.map((c) => ({ cluster: c.cluster, uies: c.uies, grid_utilisation: c.utilisation, vpu_utilisation: vpu.get(c.cluster) ?? null })),
    uies_utilisation: f.uies.map((u) => ({ name: u.name, exec_valid: u.execValid, grid_utilisation: u.utilisation })),
    top_stalls: f.stalls.map(([reason, cycles]) => ({ reason, cycles })),
    stall_cycles: Object.fromEntries(f.allStalls ?? f.stalls),
    apm_bubbles: f.apmBubbles,
    apm_peak_requested_power: f.apmPeak,
    error: x.error ? { max: x.error.max, max_bound: x.error.bound, rms: x.error.rms, rms_bound: x.error.rmsBound ?? null, what: x.error.what, pass: x.pass } : null,
    error_status: x.error ? 'checked' : x.timingOnly ? 'timing-only' : r.stop !== 'done' ? 'stopped' : 'unchecked',
    unchecked_why: x.error || x.timingOnly || r.stop !== 'done' ? null : (x.uncheckedWhy ?? null),
    link_warnings: x.linkWarnings,
    report_lines: x.reportLines,
    stages: x.stages,
    host_seconds: { assemble_link: x.hostAssembleLink, simulate: x.hostSimulate },
    ok: x.ok,
  };
}

/** The whole object: the kernel written (with or without --run). */
export interface GenJson {
  schema: typeof JSON_SCHEMA;
  kind: string;
  name: string;
  /** The command-line options as given (strings and booleans), --out/--run/--json/--timing-only/--max-cycles included. */
  options: Record<string, string | boolean>;
  out_dir: string;
  files: string[];
  notes: string[];
  /** The kernel's meta, as written to NAME.json (its keys are the generator's: kind, flops, hbmBytes, dtype, shapes...). */
  meta: Record<string, unknown>;
  run: RunJson | null;
  exit_code: number;
}
