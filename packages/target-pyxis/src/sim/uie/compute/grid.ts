/**
 * State shared by the GH, GV and GX units of the LLC grid (seq §10; chip §6.3.1-§6.3.2): the h_data FIFO GH -> GX
 * (1x1 / MatMul), the 3x3 kernel staging (h back/front buffers per partition), the 1x1 v_staging back/front buffers
 * (8 entries per column), the 3x3 data-row FIFO GV -> GX, the grid parameters of sim_config.json "grid", and the
 * rule-violation codes SIM0630..SIM0639 and SIM0628 (the SIM063x range is full).
 *
 * All operands are in the grid-internal form of llc.ts (`toOp`). Nothing here allocates after construction.
 */
import { GRID_ROWS } from './hbuf.js';
import { opSpan, ZERO_OP } from './llc.js';

/** Grid rule violations (seq §1.2-§1.4, §10). */
export const GridCodes = {
  /** conv3x3_mode changed within a trip, or GH/GV/GX disagree on the mode (seq §10.2, §10.3). */
  mode: 'SIM0630',
  /** v_staging fill not a multiple of 8 entries: staging start inside a fill, or a trip ends mid-fill (seq §1.2 rule 2-3). */
  stagingFill: 'SIM0631',
  /** accumulator slot outside 0..7 (seq §10.3 accum_idx_iter_id). */
  slot: 'SIM0632',
  /** AA read port conflict: a split within 8 cycles of the previous one, or an AA read (no zero_accum) while a split runs (seq §10.3.1). */
  aaPort: 'SIM0633',
  /** GH waits for hbuf_rd_credits that no WDP program can deliver (seq §10.1.2). */
  hbufCredits: 'SIM0634',
  /** GX waits for writeback credits that no GWB program can return (seq §10.3.2). */
  wbCredits: 'SIM0635',
  /** hbuf_block_size outside 1..256 units of 16 bytes (seq §9.1, §10.1). */
  blockSize: 'SIM0636',
  /** A split after an accumulation that did not write all 8 accumulator slots (seq §1.3: multiples of 8 outputs). */
  slots: 'SIM0637',
  /** 3x3 Exec_Valid with fewer than 3 data-rows in the window since the trip start (chip §6.1.1 item 8: 2 bubbles first). */
  window: 'SIM0638',
  /** GH read command inconsistent with the grid mode (RD_3X3 outside 3x3 mode or a 1x1 read in 3x3 mode, seq §10.1). */
  readCmd: 'SIM0639',
  /** An RD_3X3 kernel (9 logical bytes) not inside the current hbuf block, e.g. straddling its end (seq §10.1.2:
   * credits cover one block; docs/spec-notes.md "3x3 Hbuf layout" block rule). The SIM063x range is full. */
  kernelStraddle: 'SIM0628',
} as const;

import type { GridParams } from '../../config.js';
export type { GridParams };

/** Operands per grid-row of one h_data entry (8 LnsI5F3 or 4 LnsI5F10 used). */
export const H_OPS = 8;
export const KERNEL = 9;
export const PTNS = 8;
export const COLS = 128;

/** Per-partition execution configuration (seq §10.3 "Decoding the execution-configuration parameters"). */
export class PtnConfig {
  readonly ptnEdgeWest = new Uint8Array(PTNS);
  readonly ptnEdgeEast = new Uint8Array(PTNS);
  readonly evenColExecEn = new Uint8Array(PTNS);
  readonly oddColExecEn = new Uint8Array(PTNS);
}

/** The seq §10.3 pseudo-code, verbatim: partition edges on power-of-two groups, exec enables of active partitions. */
export function decodeExecConfig(log2ActivePtns: number, log2PtnsPerFilter: number, oddColExecEn: number, evenColExecEn: number, out: PtnConfig): PtnConfig {
  const nPtnsPerFilter = 1 << log2PtnsPerFilter;
  for (let ptn = 0; ptn < PTNS; ptn++) {
    out.ptnEdgeWest[ptn] = ptn % nPtnsPerFilter === 0 ? 1 : 0;
    out.ptnEdgeEast[ptn] = ptn % nPtnsPerFilter === nPtnsPerFilter - 1 ? 1 : 0;
    const active = ptn < 1 << log2ActivePtns;
    out.evenColExecEn[ptn] = active && evenColExecEn ? 1 : 0;
    out.oddColExecEn[ptn] = active && oddColExecEn ? 1 : 0;
  }
  return out;
}

export class GridState {
  // ---- h_data FIFO GH -> GX (1x1 / MatMul), seq §10.1: entry e, grid-row r, operand k at h[(e * 16 + r) * 8 + k]
  readonly hDepth: number;
  readonly h: Int32Array;
  /** Per entry: operands used (8 for FP8 reads, 4 for FP16 reads) and the cycle it becomes usable. */
  readonly hN: Int32Array;
  /** Per entry: trip slot of the GH instruction that read it (mode checks stay within one trip). */
  readonly hSlot: Int32Array;
  readonly hReady: Float64Array;
  hHead = 0;
  hCount = 0;
  // ---- 3x3 kernels (seq §10.1 h_staging): [r * 8 + p] * 9 + t
  hkBack = new Int32Array(GRID_ROWS * PTNS * KERNEL).fill(ZERO_OP);
  hkFront = new Int32Array(GRID_ROWS * PTNS * KERNEL).fill(ZERO_OP);
  /** The back kernel buffer is complete (h_staging_done) and waits for the front to be free. */
  hkBackDone = false;
  /** Trip slot of the GH instruction that completed the back kernel buffer. */
  hkBackSlot = -1;
  hkBackReady = 0;
  hkFrontValid = false;
  /** Kernel back -> front moves so far (GX restarts its 3x3 window count at each). */
  hkSwaps = 0;
  // ---- 1x1 v_staging (chip §6.3.1): column c, entry k at [c * 8 + k]
  vBack = new Int32Array(COLS * 8).fill(ZERO_OP);
  vFront = new Int32Array(COLS * 8).fill(ZERO_OP);
  vBackCount = 0;
  vBackFull = false;
  vBackReady = 0;
  vFrontValid = false;
  /** Per column of the front buffer: exponent span of its real entries (llc.ts fast-path rule). */
  readonly vSpan = new Uint8Array(COLS);
  /** Cycle of the last GX Exec_Valid / Exec_Bubble: the grid is "running" (no fill latency) when it executed last cycle. */
  lastExec = -Infinity;
  // ---- 3x3 data-row FIFO GV -> GX (seq §10.2 conv3x3_mode = 1)
  readonly vDepth: number;
  readonly vRows: Int32Array;
  readonly vReady: Float64Array;
  vHead = 0;
  vCount = 0;

  /**
   * `p`: the grid parameters of this machine instance (sim_config.json `grid`). `timingOnly` (`--timing-only`):
   * operand data are not kept (only GX's arithmetic reads them), only the handshakes.
   */
  constructor(
    readonly p: GridParams,
    readonly timingOnly = false,
  ) {
    this.hDepth = this.p.h_fifo_depth;
    this.h = new Int32Array(this.hDepth * GRID_ROWS * H_OPS).fill(ZERO_OP);
    this.hN = new Int32Array(this.hDepth);
    this.hSlot = new Int32Array(this.hDepth);
    this.hReady = new Float64Array(this.hDepth);
    this.vDepth = this.p.v_fifo_depth;
    this.vRows = new Int32Array(this.vDepth * COLS).fill(ZERO_OP);
    this.vReady = new Float64Array(this.vDepth);
  }

  /** Slot index of a new h entry (caller fills h[(slot * 16 + r) * 8 ..]); -1 when full. */
  hPushSlot(): number {
    if (this.hCount === this.hDepth) return -1;
    const e = (this.hHead + this.hCount) % this.hDepth;
    this.hCount++;
    return e;
  }
  hPop(): void {
    this.hHead = (this.hHead + 1) % this.hDepth;
    this.hCount--;
  }
  vPushSlot(): number {
    if (this.vCount === this.vDepth) return -1;
    const e = (this.vHead + this.vCount) % this.vDepth;
    this.vCount++;
    return e;
  }
  vPop(): void {
    this.vHead = (this.vHead + 1) % this.vDepth;
    this.vCount--;
  }

  /** Moves a complete v_staging back buffer to the front when the front is free (chip §6.3.1 double buffering). */
  trySwapV(now: number): boolean {
    if (this.vFrontValid || !this.vBackFull || this.vBackReady > now) return false;
    const t = this.vFront;
    this.vFront = this.vBack;
    this.vBack = t;
    this.vBackFull = false;
    this.vBackCount = 0;
    this.vFrontValid = true;
    if (this.timingOnly) return true;
    const f = this.vFront;
    const sp = this.vSpan;
    for (let c = 0; c < COLS; c++) sp[c] = opSpan(f, c * 8, 8, 1);
    return true;
  }

  /** Moves a complete 3x3 kernel back buffer to the front when the front is free (seq §10.1 h_staging_done_en). */
  trySwapH(now: number): boolean {
    if (this.hkFrontValid || !this.hkBackDone || this.hkBackReady > now) return false;
    const t = this.hkFront;
    this.hkFront = this.hkBack;
    this.hkBack = t;
    this.hkBackDone = false;
    this.hkFrontValid = true;
    this.hkSwaps++;
    return true;
  }

  /** Earliest pending readiness > now (for nextEvent), or Infinity. */
  nextReady(now: number): number {
    let w = Infinity;
    if (this.hCount > 0 && this.hReady[this.hHead]! > now) w = this.hReady[this.hHead]!;
    if (this.vCount > 0 && this.vReady[this.vHead]! > now) w = Math.min(w, this.vReady[this.vHead]!);
    if (this.vBackFull && !this.vFrontValid && this.vBackReady > now) w = Math.min(w, this.vBackReady);
    if (this.hkBackDone && !this.hkFrontValid && this.hkBackReady > now) w = Math.min(w, this.hkBackReady);
    return w;
  }

  /** Trip-independent reset is never needed: the grid state persists across trips like the hardware registers. */
}
