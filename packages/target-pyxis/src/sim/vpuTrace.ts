/**
 * VPU and Vbuffer activity in the traces (`pyxis-sim run --trace` / `--vcd`; docs/simulator.md "VPU and Vbuffer
 * activity in traces"), built only when tracing: runs without a trace or VCD create none of this and pay nothing.
 *
 *  - Perfetto/Chrome trace: per UIE a `cN.uieM.vpu` track with one slice per span in which VI held a
 *    Generate_VPU_Program record (seq §12.1: executing or waiting), named by its instruction count, args = the
 *    `compute/stats.ts` counts within the span; a `cN.uieM.<seq>.rows` track per Vbuffer sequencer (seq §13-§14) with
 *    a slice per span its decoder FIFO held work (rows moved, waits by reason); a `cN.uieM VPU utilisation` counter
 *    (busy and lane utilisation in % over each sample period of the trace sampler).
 *  - VCD: per UIE `vpu_state` (0 idle, 1 executed an instruction, 2 waited for the InFIFO, 3 waited for OutFIFO
 *    room), `vpu_in_fifo` / `vpu_out_fifo` occupancies and `<seq>_state` per Vbuffer sequencer (0 idle, 1 moved a row,
 *    2 waited for its source, 3 waited for room or scratchpad_count), sampled at the end of every cycle.
 *
 * Samplers read the statistics counters (plain number loads into preallocated typed arrays, no allocation per cycle);
 * an idle-skipped cycle cannot change them, so sampling at kernel steps sees every change.
 */
import type { SimEngine, TraceTrack, TraceWriter } from '@pyxis/sim';
import type { CounterSource } from './observer.js';
import type { ComputeStats } from './uie/compute/stats.js';
import type { ComputeUnit } from './uie/compute/unit.js';
import { Uie } from './uie/index.js';
import { LANES } from './uie/compute/vpu.js';
import type { UieModel } from './uieSlot.js';

const VB_SEQS = ['sb2vb', 'vb2vpu', 'vpu2vb', 'vb2sb'] as const;
type VbSeq = (typeof VB_SEQS)[number];

/** VPU counters read per span: programs, instructions, busy cycles, lane-ops, InFIFO waits, OutFIFO waits. */
const VPU_KEYS = ['vpuPrograms', 'vpuInstructions', 'vpuBusy', 'vpuLaneOps', 'stallVpuIn', 'stallVpuOut'] as const;
const VPU_ARGS = ['programs', 'instructions', 'busy_cycles', 'lane_ops', 'in_fifo_waits', 'out_fifo_waits'] as const;

type Counter = keyof ComputeStats;
const vbKeys = (k: VbSeq): Counter[] => [`${k}Rows`, `${k}Empty`, `${k}Full`, ...(k === 'vb2vpu' || k === 'vb2sb' ? [`${k}Scratchpad`] : [])] as Counter[];
const VB_ARGS = ['rows', 'empty_waits', 'full_waits', 'scratchpad_waits'] as const;

/** One span-tracked unit: a track of slices over the spans its decoder FIFO holds work. */
interface Span {
  group: string;
  trackName: string;
  track?: TraceTrack;
  unit: ComputeUnit;
  keys: readonly Counter[];
  args: readonly string[];
  label: (d: Float64Array) => string;
  /** Cycle of the sample that first saw work (the unit acts from the next cycle), -1 when idle. */
  since: number;
  snap: Float64Array;
  diff: Float64Array;
}

export class VpuTracer implements SimEngine {
  readonly name = 'vpu_tracer';
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  readonly phase = 5;
  readonly group = 'chip';
  private readonly spans: Array<{ span: Span; stats: ComputeStats }> = [];
  constructor(private readonly trace: TraceWriter) {}

  /** Registers the VPU and the Vbuffer sequencers of a UIE model (ignored for other models). */
  add(m: UieModel | undefined, uieName: string, group: string): void {
    if (!(m instanceof Uie)) return;
    const c = m.cmp;
    const mk = (unit: ComputeUnit, trackName: string, keys: readonly Counter[], args: readonly string[], label: (d: Float64Array) => string): void => {
      const span: Span = { group, trackName, unit, keys, args, label, since: -1, snap: new Float64Array(keys.length), diff: new Float64Array(keys.length) };
      this.spans.push({ span, stats: c.stats });
    };
    mk(c.vi, `${uieName}.vpu`, VPU_KEYS, VPU_ARGS, (d) => `vpu: ${d[1]} instructions`);
    for (const k of VB_SEQS) mk(c[k], `${uieName}.${k}.rows`, vbKeys(k), VB_ARGS, (d) => `${k}: ${d[0]} rows`);
  }

  get busy(): boolean {
    return false;
  }
  tick(now: number): boolean {
    for (let i = 0; i < this.spans.length; i++) {
      const { span: s, stats } = this.spans[i]!;
      const work = !s.unit.dec.empty;
      if (work && s.since < 0) {
        s.since = now;
        for (let j = 0; j < s.keys.length; j++) s.snap[j] = stats[s.keys[j]!] as number;
      } else if (!work && s.since >= 0) this.emit(s, stats, now);
    }
    return false;
  }
  nextWake(): number {
    return Infinity;
  }
  blockedReason(): string | undefined {
    return undefined;
  }
  /** Closes the spans still open at the end of the run. */
  finish(now: number): void {
    for (const { span, stats } of this.spans) if (span.since >= 0) this.emit(span, stats, now);
  }
  private emit(s: Span, stats: ComputeStats, now: number): void {
    for (let j = 0; j < s.keys.length; j++) s.diff[j] = (stats[s.keys[j]!] as number) - s.snap[j]!;
    const args: Record<string, number> = {};
    for (let j = 0; j < s.keys.length; j++) args[s.args[j]!] = s.diff[j]!;
    s.track ??= this.trace.track(s.group, s.trackName);
    // the unit held work from the cycle after the first sample through the cycle of the last one
    this.trace.slice(s.track, s.since + 1, now + 1, s.label(s.diff), args, 'vpu');
    s.since = -1;
  }
}

/**
 * Trace counter `cN.uieM VPU utilisation`: busy cycles and lane-ops of the sample period in % of its cycles (of 128
 * lanes x cycles); nothing while the VPU stays idle.
 */
export function vpuCounter(m: UieModel | undefined, uieName: string, group: string): CounterSource | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.cmp.stats;
  let at = 0;
  let busy = 0;
  let lanes = 0;
  let wasZero = true;
  return {
    group,
    name: `${uieName} VPU utilisation`,
    rate: true,
    sample: (now: number) => {
      const dt = now - at;
      const db = st.vpuBusy - busy;
      const dl = st.vpuLaneOps - lanes;
      at = now;
      busy = st.vpuBusy;
      lanes = st.vpuLaneOps;
      const zero = db === 0 && dl === 0;
      if (zero && wasZero) return undefined;
      wasZero = zero;
      return { busy_pct: dt > 0 ? Math.round((1e4 * db) / dt) / 100 : 0, lanes_pct: dt > 0 ? Math.round((1e4 * dl) / (LANES * dt)) / 100 : 0 };
    },
  };
}

/** A 2-bit activity state sampled once per cycle from counters: 1 / 2 / 3 when counter a / b / c moved, else 0. */
export function stateOf(st: ComputeStats, a: Counter, b: Counter, c: readonly Counter[]): () => number {
  const last = new Float64Array(2 + c.length);
  const read = (i: number): number => (st[i === 0 ? a : i === 1 ? b : c[i - 2]!] as number);
  for (let i = 0; i < last.length; i++) last[i] = read(i);
  return () => {
    let s = 0;
    for (let i = last.length - 1; i >= 0; i--) {
      const v = read(i);
      if (v !== last[i]) s = i === 0 ? 1 : i === 1 ? 2 : 3;
      last[i] = v;
    }
    return s;
  };
}

/** VCD probes of a UIE's VPU and Vbuffer sequencers: [name, width, getter]. */
export function vpuVcdProbes(m: UieModel | undefined): Array<[string, number, () => number]> | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.cmp.stats;
  const vpu = m.cmp.vpu;
  const out: Array<[string, number, () => number]> = [
    ['vpu_state', 2, stateOf(st, 'vpuBusy', 'stallVpuIn', ['stallVpuOut'])],
    ['vpu_in_fifo', 3, () => vpu.inCount],
    ['vpu_out_fifo', 3, () => vpu.outCount],
  ];
  for (const k of VB_SEQS) {
    const [rows, empty, ...rest] = vbKeys(k);
    out.push([`${k}_state`, 2, stateOf(st, rows!, empty!, rest)]);
  }
  return out;
}
