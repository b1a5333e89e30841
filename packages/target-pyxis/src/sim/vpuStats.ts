/**
 * VPU and Vbuffer statistics of a UIE (chip §6.1.4, §6.4; seq §12-§14) for `pyxis-sim run --stats` and the text
 * summary: what the counters of `compute/stats.ts` mean is documented in docs/timing-model.md "Pyxis VPU and Vbuffer
 * statistics". The figures are derived from cycle-level counts of the model; utilisation is relative to the same
 * `cycles` as the grid figures (per UIE: cycles with a trip in flight; per trip: its start to its retirement).
 */
import type { ComputeStats } from './uie/compute/stats.js';
import { LANES } from './uie/compute/vpu.js';

type Key = keyof ComputeStats;

/** The four Vbuffer sequencers in datapath order (switchbox -> Vbuffer -> VPU -> Vbuffer -> switchbox). */
const VBUF_SEQS = ['sb2vb', 'vb2vpu', 'vpu2vb', 'vb2sb'] as const;
const READERS = new Set<string>(['vb2vpu', 'vb2sb']);

/**
 * VPU counters attributed to the trip whose Generate_VPU_Program record VI executes (like GX's to GX's trip); in this
 * order, which uieDefault.ts `ComputeTrips.mark` / `changed` unroll.
 */
export const BY_VI: readonly Key[] = ['vpuBusy', 'vpuInstructions', 'vpuLaneOps', 'vpuPrograms'];

/** Per-sequencer Vbuffer counters (per trip: the difference between trip start and retirement, like the stalls). */
export const VBUF_COUNTERS: readonly Key[] = VBUF_SEQS.flatMap((k) => [`${k}Rows`, `${k}Empty`, `${k}Full`, ...(READERS.has(k) ? [`${k}Scratchpad`] : [])] as Key[]);

export interface VpuFigures {
  busy_cycles: number;
  /** busy_cycles / cycles */
  utilisation: number;
  instructions: number;
  programs: number;
  lane_ops: number;
  /** lane_ops / (128 x cycles) */
  lane_utilisation: number;
  stall_cycles: { in_fifo: number; out_fifo: number };
}

export interface VbufSeqFigures {
  rows: number;
  empty: number;
  full: number;
  scratchpad?: number;
}

export interface VbufFigures {
  rows_written: number;
  rows_read: number;
  scratchpad_waits: number;
  sequencers: Record<string, VbufSeqFigures>;
}

const n = (c: Record<string, number>, k: Key): number => c[k] ?? 0;

/** The `vpu` figures of a counter record over `cycles`, or undefined when the VPU did nothing. */
export function vpuFigures(c: Record<string, number>, cycles: number): VpuFigures | undefined {
  const busy = n(c, 'vpuBusy');
  const laneOps = n(c, 'vpuLaneOps');
  const inF = n(c, 'stallVpuIn');
  const outF = n(c, 'stallVpuOut');
  if (busy + n(c, 'vpuInstructions') + n(c, 'vpuPrograms') + inF + outF === 0) return undefined;
  return {
    busy_cycles: busy,
    utilisation: cycles > 0 ? busy / cycles : 0,
    instructions: n(c, 'vpuInstructions'),
    programs: n(c, 'vpuPrograms'),
    lane_ops: laneOps,
    lane_utilisation: cycles > 0 ? laneOps / (LANES * cycles) : 0,
    stall_cycles: { in_fifo: inF, out_fifo: outF },
  };
}

/** The `vbuffer` figures of a counter record, or undefined when no Vbuffer sequencer moved or waited. */
export function vbufFigures(c: Record<string, number>): VbufFigures | undefined {
  const sequencers: Record<string, VbufSeqFigures> = {};
  let any = false;
  let sp = 0;
  for (const k of VBUF_SEQS) {
    const f: VbufSeqFigures = { rows: n(c, `${k}Rows` as Key), empty: n(c, `${k}Empty` as Key), full: n(c, `${k}Full` as Key) };
    if (READERS.has(k)) {
      f.scratchpad = n(c, `${k}Scratchpad` as Key);
      sp += f.scratchpad;
    }
    if (f.rows + f.empty + f.full + (f.scratchpad ?? 0) > 0) any = true;
    sequencers[k] = f;
  }
  if (!any) return undefined;
  return { rows_written: n(c, 'sb2vbRows') + n(c, 'vpu2vbRows'), rows_read: n(c, 'vb2sbRows') + n(c, 'vb2vpuRows'), scratchpad_waits: sp, sequencers };
}

/** Whether a counter record shows VPU or Vbuffer work (a trip record worth keeping). */
export function vpuWorked(c: Record<string, number>): boolean {
  return n(c, 'vpuInstructions') + n(c, 'sb2vbRows') + n(c, 'vpu2vbRows') + n(c, 'vb2sbRows') + n(c, 'vb2vpuRows') > 0;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** What the vpu / vbuffer lines model (printed once under them). */
export const VPU_LEGEND =
  '  (vpu: the project VPU model ISA at one instruction per cycle; % of the cycles with a trip in flight; vbuffer waits: cycles a sequencer held an instruction but had no source row (empty), no room (full) or scratchpad_count 0)';

/** Text summary lines of one UIE (`name`: c0.uie0) from its `compute.vpu` / `compute.vbuffer` figures. */
export function vpuSummaryLines(name: string, cycles: number, vpu: VpuFigures | undefined, vb: VbufFigures | undefined): string[] {
  const out: string[] = [];
  if (vpu) {
    const st = Object.entries(vpu.stall_cycles)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    out.push(
      `${name} vpu: busy ${vpu.busy_cycles} / ${cycles} cycles = ${pct(vpu.utilisation)}, ${vpu.instructions} instructions (${vpu.programs} programs), ${vpu.lane_ops} lane-ops = ${pct(vpu.lane_utilisation)} of ${LANES} lanes x cycles${st ? `; stall cycles: ${st}` : ''}`,
    );
  }
  if (vb) {
    const parts = Object.entries(vb.sequencers)
      .filter(([, f]) => f.rows + f.empty + f.full + (f.scratchpad ?? 0) > 0)
      .map(([k, f]) => {
        const w = [f.empty ? `empty ${f.empty}` : '', f.full ? `full ${f.full}` : '', f.scratchpad ? `scratchpad ${f.scratchpad}` : ''].filter(Boolean).join(', ');
        return `${k} ${f.rows} rows${w ? ` (waits: ${w})` : ''}`;
      });
    out.push(`${name} vbuffer: ${parts.join(', ')}; scratchpad waits ${vb.scratchpad_waits}`);
  }
  return out;
}
