/**
 * The GX (grid execution) unit, seq §10.3: Exec_Config (end_grid_row_idx, log2_active_ptns, log2_ptns_per_filter,
 * odd/even_col_exec_en, decoded as the §10.3 pseudo-code), Exec_Valid (one LLC computation per active LLC),
 * Exec_Bubble (consumes h/v data without computing), Exec_NOP. One exec per cycle when its data are ready:
 * - 1x1 / MatMul: needs an h_data entry from GH (stallHData) and a valid v_staging front buffer (stallVData);
 * - 3x3: needs a data row from GV (stallVData, shifted into the 3-row window) and a valid kernel front buffer (stallHData).
 * Accumulator slot = count of accum_idx_iter_id (SIM0632 outside 0..7); zero_accum_iter_mask (all masked iterators
 * zero) reads the AA as zero; front_staging_done_iter_mask (all at their ending value) frees the front buffer (v for
 * 1x1, h for 3x3). split_accum_iter_mask (all at ending value) starts an 8-cycle split (seq §10.3.1): AA + WBA -> WBA
 * (MNS 5.1.18), one slot per cycle after the triggering exec, on a snapshot of the AA; the next 8 Exec_Valid must zero
 * their AA reads (SIM0633). The first split after a writeback kick reads the WBA as zero and needs one writeback
 * credit per slot (seq §10.3.2, stallWbCredits; GWB returns them); wb_kick_iter_mask on a splitting exec kicks GWB
 * (acc.wbPending++) when the split has written its 8th slot.
 */
import { Fifo } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import * as records from '../records.js';
import type { Uie } from '../uie.js';
import { ACC_WORDS, COLS, SLOTS } from './accum.js';
import { decodeExecConfig, GridCodes, PtnConfig, type GridState } from './grid.js';
import { GRID_ROWS } from './hbuf.js';
import type { Compute } from './index.js';
import { llcRow1x1, llcRow3x3, productTables, splitSum, WIN_PTN, WIN_ROW } from './llc.js';
import { ZERO_OP } from './llc.js';
import { seqIdOf } from './seqIds.js';
import { H_LAST, H_PC, H_SLOT, HDR_WORDS, type ComputeUnit, noOpFields, opFieldArrays } from './unit.js';
import { GX_BUBBLE, GX_CONFIG, GX_VALID } from '../codes.js';
import { dbl } from '@pyxis/sim';

const { SEQ_SPEC } = records;

/** gx_op `opcd` codepoints, by name from the grammar (codes.ts). */
const OP_VALID = GX_VALID;
const OP_BUBBLE = GX_BUBBLE;
const OP_CONFIG = GX_CONFIG;

const W_OP = HDR_WORDS;
const W_MODE = HDR_WORDS + 1;
const W_SLOT = HDR_WORDS + 2;
const W_FDONE = HDR_WORDS + 3;
const W_ZERO = HDR_WORDS + 4;
const W_SPLIT = HDR_WORDS + 5;
const W_KICK = HDR_WORDS + 6;
const W_CORR = HDR_WORDS + 7;
const W_END = HDR_WORDS + 8;
const W_ACT = HDR_WORDS + 9;
const W_PPF = HDR_WORDS + 10;
const W_ODD = HDR_WORDS + 11;
const W_EVEN = HDR_WORDS + 12;
const WORDS = HDR_WORDS + 13;

const FIELDS = [
  'opcd', 'conv3x3_mode', 'accum_idx_iter_id', 'front_staging_done_iter_mask', 'zero_accum_iter_mask',
  'split_accum_iter_mask', 'wb_kick_iter_mask', 'llc_dsbl_mapping_corr', 'end_grid_row_idx', 'log2_active_ptns',
  'log2_ptns_per_filter', 'odd_col_exec_en', 'even_col_exec_en',
] as const;
type F = Record<(typeof FIELDS)[number], Int32Array>;

/** `mask` != 0 and every masked iterator bit is set in `flags`. */
function all(mask: number, flags: number): number {
  return mask !== 0 && (flags & mask) === mask ? 1 : 0;
}

export class GxUnit implements ComputeUnit {
  readonly seqId = seqIdOf('gx');
  readonly dec: Fifo;
  readonly grid: GridState;
  private f: F;
  private seq: SeqState | undefined;
  private tripMode = -1;
  /** Trip slot the mode belongs to (tick-side: the sequencer may already have started the next trip). */
  private modeSlot = -1;
  // ---- Exec_Config state (persists until the next Exec_Config, seq §10.3)
  endRow = 15;
  /** Decoded per-partition configuration (reset: full grid, one partition per filter). */
  readonly ptn = decodeExecConfig(3, 0, 1, 1, new PtnConfig());
  /** Partitions 0 .. activePtns - 1 execute (derived from `ptn`: the §10.3 decode enables a prefix). */
  activePtns = 8;
  oddEn = 1;
  evenEn = 1;
  // ---- 3x3 window: data-row n at win[(n % 3) * 128 + c]; rows shifted in since the trip start
  private readonly win = new Int32Array(3 * COLS).fill(ZERO_OP);
  private rowsIn = 0;
  /** Data-rows shifted in since the current 3x3 kernel became the front (a new input channel needs 3, chip §6.1.1 item 8). */
  private rowsSinceKernel = 0;
  private kernelSwaps = -1;
  private readonly pad = new Int32Array(3 * WIN_ROW).fill(ZERO_OP);
  private readonly wSpan = new Uint8Array(8);
  // ---- split accumulation (seq §10.3.1-§10.3.2)
  private readonly snap = new Float64Array(ACC_WORDS);
  /** Next slot the running split writes (0..7), -1 when no split runs. */
  private splitStep = -1;
  /** A split accumulation (AA -> WBA, 8 slot steps) is running: the statistics attribute it to the trip that began it. */
  get splitRunning(): boolean {
    return this.splitStep >= 0;
  }
  private splitFirst = false;
  private splitKick = false;
  /** Exec_Valid instructions that must still zero their AA reads after the last split (seq §10.3.1). */
  private zeroNeeded = 0;
  /** Accumulator slots written by Exec_Valid since the last split (bit per slot; seq §1.3: a split covers all 8). */
  private slotsWritten = 0;
  // ---- the last GX record of a trip retires when the grid has drained (llc_pipeline_latency_cycles)
  private doneSlot = -1;
  private doneAt = dbl(0);
  /** An Exec_Valid / Exec_Bubble ran since the last trip end (only then does the trip wait for the grid to drain). */
  private executed = false;
  private readonly msgH: string;
  private readonly msgV: string;
  private readonly msgCredits: string;
  private readonly msgPending: string;

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {
    this.grid = cmp.gh.grid;
    this.dec = new Fifo(`${u.name}.gx.dec`, this.grid.p.gx_dec_fifo_depth, WORDS);
    this.f = noOpFields(FIELDS);
    this.msgH = 'gx: Exec waits for h_data (GH h_data FIFO / 3x3 kernel front buffer, seq §10.3)';
    this.msgV = 'gx: Exec waits for v_data (v_staging front buffer / 3x3 data row, seq §10.3)';
    this.msgCredits = 'gx: split accumulation waits for writeback credits from GWB (seq §10.3.2)';
    this.msgPending = 'gx: writeback kick waits for the pending writebacks (seq §10.3.2)';
  }

  startTrip(s: SeqState): void {
    this.seq = s;
    this.f = (opFieldArrays(s.op, FIELDS) as F | undefined) ?? this.f;
  }

  decode(s: SeqState, rec: number): void {
    const d = this.dec.data;
    const f = this.f;
    const core = s.core;
    const pc = core.execPc;
    const op = f.opcd[pc]!;
    d[rec + W_OP] = op;
    d[rec + W_MODE] = f.conv3x3_mode[pc]!;
    if (op === OP_CONFIG) {
      d[rec + W_END] = f.end_grid_row_idx[pc]! & 15;
      d[rec + W_ACT] = f.log2_active_ptns[pc]! & 3;
      d[rec + W_PPF] = f.log2_ptns_per_filter[pc]! & 3;
      d[rec + W_ODD] = f.odd_col_exec_en[pc]!;
      d[rec + W_EVEN] = f.even_col_exec_en[pc]!;
      return;
    }
    if (op !== OP_VALID && op !== OP_BUBBLE) return;
    const slot = core.execCount[f.accum_idx_iter_id[pc]! % 6]!;
    if (slot >= SLOTS && op === OP_VALID) {
      this.u.ruleError(GridCodes.slot, `GX accumulator slot ${slot} (count of accum_idx_iter_id) is outside 0..7`, `${SEQ_SPEC} §10.3`, s, pc);
    }
    d[rec + W_SLOT] = slot & 7;
    const z = core.itersEqZero;
    const n = core.itersEqNloops;
    d[rec + W_FDONE] = all(f.front_staging_done_iter_mask[pc]!, n);
    d[rec + W_ZERO] = all(f.zero_accum_iter_mask[pc]!, z);
    const split = all(f.split_accum_iter_mask[pc]!, n);
    d[rec + W_SPLIT] = split;
    d[rec + W_KICK] = split & all(f.wb_kick_iter_mask[pc]!, n);
    d[rec + W_CORR] = f.llc_dsbl_mapping_corr[pc]! ? 0 : 1;
  }

  tick(now: number): boolean {
    let did = false;
    if (this.splitStep >= 0) {
      const r = this.stepSplit();
      if (r < 0) return false; // stalled on writeback credits: the grid stalls cycle for cycle (seq §10.3.1)
      did = true;
    }
    if (this.doneSlot >= 0 && this.splitStep < 0 && now >= this.doneAt) {
      this.u.seqDone(this.seqId, this.doneSlot);
      this.doneSlot = -1;
      did = true;
    }
    const dec = this.dec;
    if (dec.empty) return did;
    const d = dec.data;
    const r = dec.peekSlot();
    const op = d[r + W_OP]!;
    const st = this.cmp.stats;
    const u = this.u;
    if (op === OP_CONFIG) {
      this.endRow = d[r + W_END]!;
      const pc = decodeExecConfig(d[r + W_ACT]!, d[r + W_PPF]!, d[r + W_ODD]!, d[r + W_EVEN]!, this.ptn);
      let n = 0;
      while (n < 8 && (pc.evenColExecEn[n] || pc.oddColExecEn[n])) n++;
      this.activePtns = n;
      this.evenEn = pc.evenColExecEn[0]!;
      this.oddEn = pc.oddColExecEn[0]!;
      this.checkMode(r);
      st.execConfig++;
      this.retire(r, now, false);
      return true;
    }
    if (op !== OP_VALID && op !== OP_BUBBLE) {
      st.execNop++;
      this.retire(r, now, false);
      return true;
    }
    const g = this.grid;
    const mode = this.checkMode(r);
    const valid = op === OP_VALID;
    let hEntry = -1;
    if (mode === 0) {
      // (entries of a later trip's GH may legitimately be ahead: only the same trip is checked)
      if (g.hkBackDone && g.hkBackSlot === d[r + H_SLOT]) this.cmdError(r, 'RD_3X3 kernels staged while GX runs 1x1/MatMul');
      g.trySwapV(now);
      if (g.hCount === 0 || g.hReady[g.hHead]! > now) {
        st.stallHData++;
        u.blocked ??= this.msgH;
        return did;
      }
      if (!g.vFrontValid) {
        st.stallVData++;
        u.blocked ??= this.msgV;
        return did;
      }
      hEntry = g.hHead;
    } else {
      if (g.hCount > 0 && g.hSlot[g.hHead] === d[r + H_SLOT]) this.cmdError(r, 'a 1x1/MatMul h_data read while GX runs 3x3');
      g.trySwapH(now);
      if (g.vCount === 0 || g.vReady[g.vHead]! > now) {
        st.stallVData++;
        u.blocked ??= this.msgV;
        return did;
      }
      if (!g.hkFrontValid) {
        st.stallHData++;
        u.blocked ??= this.msgH;
        return did;
      }
    }
    const split = d[r + W_SPLIT] === 1;
    const acc = this.cmp.acc;
    if (split && d[r + W_KICK] === 1 && acc.wbPending >= 2) {
      st.stallWbPending++;
      u.blocked ??= this.msgPending;
      return did;
    }
    // ---- execute
    const slot = d[r + W_SLOT]!;
    const zero = d[r + W_ZERO] === 1;
    if (valid) {
      if (this.zeroNeeded > 0) {
        if (!zero) this.portError(r, 'an Exec_Valid reads the active accumulator (no zero_accum) within 8 executions after a split');
        this.zeroNeeded--;
      }
    }
    if (mode === 0) {
      if (valid) this.exec1x1(hEntry, slot, zero, d[r + W_CORR] === 1);
      g.hPop();
      if (d[r + W_FDONE] === 1) {
        g.vFrontValid = false;
        g.trySwapV(now);
      }
    } else {
      this.shiftRow();
      if (valid) {
        if (this.rowsSinceKernel < 3) this.windowError(r);
        this.exec3x3(slot, zero, d[r + W_CORR] === 1);
      }
      if (d[r + W_FDONE] === 1) {
        g.hkFrontValid = false;
        g.trySwapH(now);
      }
    }
    this.executed = true;
    if (valid) {
      st.execValid++;
      this.slotsWritten |= 1 << slot;
    } else st.execBubble++;
    g.lastExec = now;
    if (split) this.startSplit(r, d[r + W_KICK] === 1);
    this.retire(r, now, split);
    return true;
  }

  private checkMode(r: number): number {
    const mode = this.dec.data[r + W_MODE]!;
    if (this.dec.data[r + H_SLOT] !== this.modeSlot) {
      this.modeSlot = this.dec.data[r + H_SLOT]!;
      this.tripMode = mode;
    } else if (mode !== this.tripMode) {
      this.u.ruleError(GridCodes.mode, 'GX conv3x3_mode changed within a trip', `${SEQ_SPEC} §10.3`, this.seq, this.dec.data[r + H_PC]!);
      this.tripMode = mode;
    }
    return mode;
  }

  /** Column iteration of the enabled columns: [c0, 16 * activePtns) step `step`; step 0 = no column enabled. */
  private colStart(): number {
    return this.evenEn ? 0 : 1;
  }
  private colStep(): number {
    return this.evenEn && this.oddEn ? 1 : this.evenEn || this.oddEn ? 2 : 0;
  }

  private exec1x1(e: number, slot: number, zero: boolean, corr: boolean): void {
    const g = this.grid;
    const step = this.colStep();
    if (step === 0) return;
    const c0 = this.colStart();
    const c1 = this.activePtns * 16;
    const nh = g.hN[e]!;
    const rows = this.endRow + 1;
    this.cmp.stats.macs += rows * Math.ceil((c1 - c0) / step) * nh;
    if (this.cmp.timingOnly) return;
    const T = productTables()[corr ? 0 : 1];
    const aa = this.cmp.acc.aa;
    const voff = nh === 8 ? 0 : 3; // 16-bit horizontal data: v entries 3..6 (docs/spec-notes.md)
    for (let row = 0; row < rows; row++) {
      llcRow1x1(T, g.h, (e * GRID_ROWS + row) * 8, nh, voff, g.vFront, g.vSpan, aa, (row * SLOTS + slot) * COLS, zero, c0, c1, step);
    }
  }

  /** Shifts the head data row of the GV FIFO into the 3x3 window (chip §6.3.3.1: the window slides down one row). */
  private shiftRow(): void {
    const g = this.grid;
    const src = g.vHead * COLS;
    const dst = (this.rowsIn % 3) * COLS;
    const win = this.win;
    const rows = g.vRows;
    if (!this.cmp.timingOnly) for (let c = 0; c < COLS; c++) win[dst + c] = rows[src + c]!;
    g.vPop();
    this.rowsIn++;
    if (g.hkSwaps !== this.kernelSwaps) {
      // the kernel front changed (new input channel): rows shifted before it belong to the previous channel
      this.kernelSwaps = g.hkSwaps;
      this.rowsSinceKernel = 0;
    }
    this.rowsSinceKernel++;
  }

  private exec3x3(slot: number, zero: boolean, corr: boolean): void {
    const step = this.colStep();
    if (step === 0) return;
    const rows = this.endRow + 1;
    const ptns = this.activePtns;
    this.cmp.stats.macs += rows * ptns * Math.ceil((16 - this.colStart()) / step) * 9;
    if (this.cmp.timingOnly) return;
    // padded window: N = row n-2, C = n-1, S = n; partition edges (seq §10.3 ptn_edge_west/east) and grid edges read zero
    const pad = this.pad;
    const win = this.win;
    const edgeW = this.ptn.ptnEdgeWest;
    const edgeE = this.ptn.ptnEdgeEast;
    const n = this.rowsIn - 1;
    for (let w = 0; w < 3; w++) {
      const src = (((n - 2 + w) % 3 + 3) % 3) * COLS;
      const dst = w * WIN_ROW;
      for (let p = 0; p < 8; p++) {
        const o = dst + p * WIN_PTN;
        const c = src + p * 16;
        pad[o] = p === 0 || edgeW[p] ? ZERO_OP : win[c - 1]!;
        for (let j = 0; j < 16; j++) pad[o + 1 + j] = win[c + j]!;
        pad[o + 17] = p === 7 || edgeE[p] ? ZERO_OP : win[c + 16]!;
      }
    }
    // exponent span of each partition's window (3 rows x 18 entries), for the llc.ts fast-path rule
    const wSpan = this.wSpan;
    for (let p = 0; p < 8; p++) {
      let lo = 99;
      let hi = -1;
      for (let w = 0; w < 3; w++) {
        const b = w * WIN_ROW + p * WIN_PTN;
        for (let i = 0; i < WIN_PTN; i++) {
          const o = pad[b + i]!;
          if ((o & 0x18000) !== 0) continue; // zero / NaN
          const e = (o >>> 10) & 31;
          if (e < lo) lo = e;
          if (e > hi) hi = e;
        }
      }
      wSpan[p] = hi < 0 ? 0 : hi - lo;
    }
    const T = productTables()[corr ? 0 : 1];
    const aa = this.cmp.acc.aa;
    const k = this.grid.hkFront;
    for (let row = 0; row < rows; row++) {
      llcRow3x3(T, k, row * 8 * 9, pad, wSpan, aa, (row * SLOTS + slot) * COLS, zero, ptns, this.colStart(), step);
    }
  }

  private startSplit(r: number, kick: boolean): void {
    if (this.slotsWritten !== 0xff) {
      const missing: number[] = [];
      for (let k = 0; k < SLOTS; k++) if (!((this.slotsWritten >> k) & 1)) missing.push(k);
      this.u.ruleError(GridCodes.slots, `GX split accumulation after an accumulation that never wrote accumulator slot(s) ${missing.join(', ')}: every split covers all 8 slots (pad to a multiple of 8 output rows / channels)`, `${SEQ_SPEC} §1.3, §10.3.1`, this.seq, this.dec.data[r + H_PC]!);
    }
    this.slotsWritten = 0;
    if (this.splitStep >= 0) this.portError(r, 'a split accumulation starts while the previous one still runs (fewer than 8 cycles apart)');
    const acc = this.cmp.acc;
    if (!this.cmp.timingOnly) this.snap.set(acc.aa);
    this.splitStep = 0;
    this.splitFirst = acc.firstSplit;
    acc.firstSplit = false;
    this.splitKick = kick;
    this.zeroNeeded = 8;
  }

  /** One slot of the running split; -1 when stalled on writeback credits. */
  private stepSplit(): number {
    const acc = this.cmp.acc;
    const st = this.cmp.stats;
    if (this.splitFirst) {
      if (acc.wbCredits <= 0) {
        st.stallWbCredits++;
        this.u.blocked ??= this.msgCredits;
        this.checkCreditSource();
        return -1;
      }
      acc.wbCredits--;
    }
    const k = this.splitStep;
    if (!this.cmp.timingOnly) {
      const wba = acc.wba;
      const snap = this.snap;
      const first = this.splitFirst;
      for (let row = 0; row < GRID_ROWS; row++) {
        const b = (row * SLOTS + k) * COLS;
        for (let c = 0; c < COLS; c++) wba[b + c] = splitSum(snap[b + c]!, first ? 0 : wba[b + c]!);
      }
    }
    if (++this.splitStep === SLOTS) {
      this.splitStep = -1;
      st.splits++;
      if (this.splitKick) {
        acc.wbPending++;
        acc.firstSplit = true;
      }
    }
    return 1;
  }

  /** Writeback credits that no GWB program can return: an error, not a hang (seq §10.3.2). */
  private checkCreditSource(): void {
    const u = this.u;
    const gwb = this.cmp.gwb;
    const s = u.seqs[gwb.seqId]!;
    if (s.core.running || s.qCount > 0 || !gwb.idle || u.trips.active > 1) return;
    u.ruleError(GridCodes.wbCredits, 'GX split accumulation needs a writeback credit and no GWB program is left to offload the WBA and return it', `${SEQ_SPEC} §10.3.2`, this.seq, this.seq?.core.execPc ?? 0);
    this.cmp.acc.wbCredits = SLOTS; // let the simulation end when diagnostics are collected
  }

  private portError(r: number, what: string): void {
    this.u.ruleError(GridCodes.aaPort, `GX: ${what}; the split owns the AA read port for 8 cycles (set zero_accum_iter_mask)`, `${SEQ_SPEC} §10.3.1`, this.seq, this.dec.data[r + H_PC]!);
  }
  private windowError(r: number): void {
    this.u.ruleError(GridCodes.window, `GX 3x3 Exec_Valid with ${this.rowsSinceKernel} data-row(s) of the current input channel in the window (needs 3: start each channel's group with 2 Exec_Bubble)`, `${SEQ_SPEC} §10.3; chip §6.1.1`, this.seq, this.dec.data[r + H_PC]!);
  }
  private cmdError(r: number, what: string): void {
    this.u.ruleError(GridCodes.readCmd, `GH/GX mode mismatch: ${what}`, `${SEQ_SPEC} §10.1, §10.3`, this.seq, this.dec.data[r + H_PC]!);
    this.grid.hkBackDone = false;
    this.grid.hCount = 0;
  }

  private retire(r: number, now: number, split: boolean): void {
    const d = this.dec.data;
    const last = d[r + H_LAST] === 1;
    const slot = d[r + H_SLOT]!;
    this.dec.pop();
    if (!last) return;
    if (this.doneSlot >= 0) this.u.seqDone(this.seqId, this.doneSlot);
    this.doneSlot = -1;
    if (!this.executed) {
      this.u.seqDone(this.seqId, slot); // nothing in the grid pipeline (Exec_NOP / Exec_Config trip)
      return;
    }
    this.executed = false;
    this.doneSlot = slot;
    this.doneAt = now + this.grid.p.llc_pipeline_latency_cycles + (split ? SLOTS : 0);
  }

  nextEvent(now: number): number {
    if (this.splitStep >= 0) return now + 1;
    let w = this.grid.nextReady(now);
    if (this.doneSlot >= 0 && this.doneAt > now) w = Math.min(w, this.doneAt);
    return w;
  }

  get idle(): boolean {
    return this.dec.empty && this.splitStep < 0 && this.doneSlot < 0;
  }
}
