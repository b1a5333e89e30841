/**
 * Chip-level figures of a simulated generated kernel (docs/generators.md "Figures"): achieved TFLOPS against the chip
 * §1 peak (2,100 FP8 / 1,050 FP16 for 48 UIEs: 2048 LLCs x 8 MACs x 2 FLOPs x 1.33 GHz per UIE, half in FP16), HBM
 * GB/s against 4,915 (4 stacks x 1,229 GB/s, grammars/pyxis/sim_config.json), per-cluster and per-UIE grid
 * utilisation and the top stall reasons summed over UIEs. FLOPs are the kernel's useful FLOPs (2 M N K for a GEMM),
 * time is the simulated cycles of the whole run (fill and drain included) at the report's clock. The FLOPs are split
 * by the precision the grid runs them at (gen/precision.ts, read from the program), and the share of peak is the
 * time-equivalent one: (FLOPs_FP8 / peak_FP8 + FLOPs_FP16 / peak_FP16) / run time.
 */
import type { SimReport } from '../sim/run.js';
import type { PrecisionSplit } from './precision.js';

export const PEAK_TFLOPS_PER_UIE = { fp8: (2048 * 8 * 2 * 1.33e9) / 1e12, fp16: (2048 * 4 * 2 * 1.33e9) / 1e12 };
/** chip §1: 4,915 GB/s (4 HBM3E stacks; sim_config.json models 1,229 GB/s each). */
export const HBM_PEAK_GBPS = 4915;
const UIES = 48;

interface UieCompute {
  cycles: number;
  macs: number;
  exec_valid: number;
  stall_cycles: Record<string, number>;
  timing_only: boolean;
  /** sim/vpuStats.ts: present when the UIE's VPU ran */
  vpu?: { busy_cycles: number };
}

export interface ChipFigures {
  cycles: number;
  /** The kernel's useful grid FLOPs (0 for a VPU-only kernel: `rows`). */
  flops: number;
  /** The useful FLOPs by the precision the grid runs them at (gen/precision.ts). */
  flopsFp8: number;
  flopsFp16: number;
  /** 'mixed' when both are > 0; the kernel's declared dtype when it has no grid FLOPs. */
  precision: 'fp8' | 'fp16' | 'mixed';
  seconds: number;
  tflops: number;
  /**
   * The peak the FLOPs are rated against: one precision's chip §1 peak, or for mixed FLOPs the blend
   * flops / (flopsFp8 / peak_FP8 + flopsFp16 / peak_FP16), so that tflops / peakTflops is the time-equivalent share.
   */
  peakTflops: number;
  hbmGBps: number;
  hbmBytes: number;
  uies: Array<{ name: string; execValid: number; utilisation: number }>;
  clusters: Array<{ cluster: number; uies: number; utilisation: number }>;
  /** Per cluster: VPU busy cycles / run cycles averaged over its UIEs that computed (empty when no VPU ran). */
  vpuClusters: Array<{ cluster: number; uies: number; utilisation: number }>;
  stalls: Array<[string, number]>;
  /** APM (chip §13): UIE cycles denied by the power manager, and the peak requested power. */
  apmBubbles: number;
  apmPeak: number;
  /** Every stall reason (the top five are `stalls`). */
  allStalls?: Array<[string, number]>;
  timingOnly: boolean;
  /** The run ended with every trip retired (not stopped by --max-cycles or a deadlock): the kernel's FLOPs were all done. */
  complete: boolean;
}

/** The blended peak of a FLOP split (TFLOPS, `uies` UIEs): flops / sum_p(flops_p / peak_p); the declared dtype's peak when no FLOPs. */
export function blendedPeak(fp8: number, fp16: number, dtype: 'fp8' | 'fp16', uies = UIES): number {
  const t = fp8 / PEAK_TFLOPS_PER_UIE.fp8 + fp16 / PEAK_TFLOPS_PER_UIE.fp16;
  return (fp8 + fp16 > 0 ? (fp8 + fp16) / t : PEAK_TFLOPS_PER_UIE[dtype]) * uies;
}

export function chipFigures(r: SimReport, split: Pick<PrecisionSplit, 'fp8' | 'fp16'>, dtype: 'fp8' | 'fp16'): ChipFigures {
  const flops = split.fp8 + split.fp16;
  const seconds = r.cycles / r.clock_hz;
  const uies: ChipFigures['uies'] = [];
  const stalls = new Map<string, number>();
  const perCluster = new Map<number, { n: number; ev: number; vpu: number }>();
  let vpuRan = false;
  let timingOnly = false;
  // one Exec_Valid = one grid cycle of useful work; FP16 needs 2 per FP8-equivalent MAC (chip §6.1.3)
  for (const e of r.engines) {
    const c = e.uie?.['compute'] as UieCompute | undefined;
    const m = /^c(\d+)\.uie(\d+)$/.exec(e.name);
    if (!c || !m) continue;
    timingOnly ||= c.timing_only;
    const util = r.cycles > 0 ? c.exec_valid / r.cycles : 0;
    uies.push({ name: e.name, execValid: c.exec_valid, utilisation: util });
    const cl = Number(m[1]);
    const p = perCluster.get(cl) ?? { n: 0, ev: 0, vpu: 0 };
    p.n++;
    p.ev += c.exec_valid;
    p.vpu += c.vpu?.busy_cycles ?? 0;
    vpuRan ||= (c.vpu?.busy_cycles ?? 0) > 0;
    perCluster.set(cl, p);
    for (const [k, v] of Object.entries(c.stall_cycles)) if (k !== 'writeback_kick') stalls.set(k, (stalls.get(k) ?? 0) + v);
  }
  const hbmBytes = r.memory.hbm_bytes_read + r.memory.hbm_bytes_written;
  return {
    cycles: r.cycles,
    flops,
    flopsFp8: split.fp8,
    flopsFp16: split.fp16,
    precision: split.fp8 > 0 && split.fp16 > 0 ? 'mixed' : split.fp16 > 0 ? 'fp16' : split.fp8 > 0 ? 'fp8' : dtype,
    seconds,
    // a stopped run did not do the kernel's FLOPs: no achieved rate (0, and formatFigures says why)
    tflops: seconds > 0 && r.stop === 'done' ? flops / seconds / 1e12 : 0,
    peakTflops: blendedPeak(split.fp8, split.fp16, dtype),
    hbmGBps: seconds > 0 ? hbmBytes / seconds / 1e9 : 0,
    hbmBytes,
    uies,
    clusters: [...perCluster].sort((a, b) => a[0] - b[0]).map(([cluster, p]) => ({ cluster, uies: p.n, utilisation: r.cycles > 0 ? p.ev / p.n / r.cycles : 0 })),
    vpuClusters: vpuRan ? [...perCluster].sort((a, b) => a[0] - b[0]).map(([cluster, p]) => ({ cluster, uies: p.n, utilisation: r.cycles > 0 ? p.vpu / p.n / r.cycles : 0 })) : [],
    stalls: [...stalls].sort((a, b) => b[1] - a[1]).slice(0, 5),
    allStalls: [...stalls].sort((a, b) => b[1] - a[1]),
    apmBubbles: r.apm.bubbles,
    apmPeak: r.apm.peak_requested_power,
    timingOnly,
    complete: r.stop === 'done',
  };
}

export function formatFigures(f: ChipFigures): string[] {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const out = [
    `chip: ${f.cycles} cycles = ${(f.seconds * 1e6).toFixed(2)} us at 1.33 GHz${f.timingOnly ? ' (timing-only: cycles modelled, outputs NOT computed)' : ''}`,
    // chip §1 quotes the 48-UIE peak rounded (2,100 FP8 / 1,050 FP16); a run on fewer UIEs also gets the peak of those
    f.flops === 0
      ? // a VPU-only kernel (rows): no grid MACs, so a share of the grid's peak would be a meaningless 0%
        `compute: no grid FLOPs (a VPU kernel; the grid's chip §1 peak, 2,100 FP8 / 1,050 FP16 TFLOPS, does not apply)`
      : f.complete
      ? `compute: ${f.tflops.toFixed(1)} TFLOPS of ${f.peakTflops.toFixed(0)} ${f.precision === 'mixed' ? 'blended ' : ''}peak (${pct(f.tflops / f.peakTflops)}; useful FLOPs / whole-run time; chip §1: 2,100 FP8 / 1,050 FP16)` +
        (f.uies.length > 0 && f.uies.length < UIES ? `, of the ${f.uies.length} UIE(s) that computed: ${((f.peakTflops * f.uies.length) / UIES).toFixed(1)} peak (${pct((f.tflops * UIES) / (f.peakTflops * f.uies.length))})` : '')
      : `compute: not computed (the run stopped before the kernel finished; the grid utilisation below covers the cycles run)`,
    ...(f.flops > 0
      ? [
          `precision (the grid's rate per compute trip, from its operand formats; gen/precision.ts): FP8 ${f.flopsFp8.toExponential(4)} FLOPs, FP16 ${f.flopsFp16.toExponential(4)} FLOPs` +
            (f.complete ? `; share of peak = (FLOPs_FP8 / ${(PEAK_TFLOPS_PER_UIE.fp8 * UIES).toFixed(0)} + FLOPs_FP16 / ${(PEAK_TFLOPS_PER_UIE.fp16 * UIES).toFixed(0)} TFLOPS) / run time = ${pct(f.tflops / f.peakTflops)}` : ''),
        ]
      : []),
    `HBM: ${(f.hbmBytes / 1e6).toFixed(2)} MB moved, ${f.hbmGBps.toFixed(0)} GB/s of ${HBM_PEAK_GBPS} (${pct(f.hbmGBps / HBM_PEAK_GBPS)})`,
    `clusters (grid utilisation = Exec_Valid cycles / run cycles): ${f.clusters.map((c) => `c${c.cluster} ${c.uies} UIEs ${pct(c.utilisation)}`).join(', ') || 'none (no UIE trip ran a compute sequencer in the cycles run)'}`,
  ];
  const u = f.uies.map((x) => `${x.name} ${pct(x.utilisation)}`);
  for (let i = 0; i < u.length; i += 8) out.push(`  ${u.slice(i, i + 8).join(', ')}`);
  // the VPU kernels (rows, norms, softmax, attention) are bound by the VPU, not the grid: its busy share says so
  if (f.vpuClusters.length > 0) out.push(`VPU (busy cycles / run cycles, per cluster): ${f.vpuClusters.map((c) => `c${c.cluster} ${c.uies} UIEs ${pct(c.utilisation)}`).join(', ')}`);
  out.push(`top stalls (cycles summed over UIEs): ${f.stalls.map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  // the power manager ramps GrantedPower toward the requested sum of trip_power (chip §13, sim_config.json apm)
  out.push(`APM (chip §13): ${f.apmBubbles} UIE bubble cycles inserted, peak requested power ${f.apmPeak}`);
  return out;
}

