/**
 * The Grid Writeback (GWB) unit (seq §11; chip §6.2.2.1): offloads the writeback accumulators (WBA) of one
 * grid-row per Read_WBA instruction, one slot per cycle (8 flits of 128 columns, docs/spec-notes.md "GWB rate"),
 * through MNS2FP (MNS 5.1.18 -> FP16 with eb_adj, chip §6.2.2.1.1-2), diagonal masking (§6.2.2.1.3) and the
 * column masks (§6.2.2.1.4, precedence over the diagonal mask), into the AMEM-facing or VPU-facing switchbox FIFO.
 *
 * Flow control (seq §11.4): a Read_WBA waits for a writeback kick from GX (`acc.wbPending`); each flit needs a
 * credit of the target FIFO; the instruction whose `wb_done_iter_mask` condition holds is the last grid-row of the
 * tile: each of its flits returns one writeback credit to GX (seq §10.3.2), and after its eighth flit the writeback
 * is complete (`acc.wbPending` decremented).
 */
import { readField } from '@pyxis/codec';
import { MNS18, mnsToFp16Raw, RFP16 } from '@pyxis/formats';
import type { Fifo } from '@pyxis/sim';
import { Fifo as FifoClass } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import * as records from '../records.js';
import type { SwitchboxFifo } from '../switchbox.js';
import type { Uie } from '../uie.js';
import { COLS, SLOTS } from './accum.js';
import { GRID_ROWS } from './hbuf.js';
import type { Compute } from './index.js';
import { seqIdOf } from './seqIds.js';
import { HDR_WORDS, opFieldArrays, retireHead, type ComputeUnit } from './unit.js';
import { GWB_COL_MAX_NEG, GWB_COL_ZERO, GWB_DIAG, GWB_OVR_MAX_NEG, GWB_READ_WBA, GWB_TGT_VPU } from '../codes.js';

const { SEQ_SPEC, CHIP_SPEC_F } = records;

// record words after the header
const W_OP = HDR_WORDS;
const W_TGT = HDR_WORDS + 1;
const W_DIAG = HDR_WORDS + 2;
const W_OVR = HDR_WORDS + 3;
const W_CMASK = HDR_WORDS + 4;
const W_EB = HDR_WORDS + 5;
const W_ROW = HDR_WORDS + 6;
const W_DONE = HDR_WORDS + 7;
const WORDS = HDR_WORDS + 8;

/** gwb_op codepoints by name (grammars/pyxis/gwb_op.json). */
const OP_READ_WBA = GWB_READ_WBA;
const TGT_VPU = GWB_TGT_VPU;
/** col_override codes of gwb_col_mask.json: 0 no mask, 1 zero, 2 -max. */
const COL_ZERO = GWB_COL_ZERO;
const COL_MAXNEG = GWB_COL_MAX_NEG;
/** FP16 override values: zero, and -max (sign bit + all-ones magnitude, chip §4.2). */
const FP16_SIGN = 1 << (RFP16.bits - 1);
const FP16_ZERO = 0;
const FP16_MAX_NEG = FP16_SIGN | RFP16.maxCode;
const FP16_NAN = FP16_SIGN; // "negative zero" (chip §6.2.2.1.1 step 3)

/** GWB rule violations (seq §11.3). */
export const GwbCodes = { gridRowRange: 'SIM0640', vpuTarget: 'SIM0641' } as const;

/** Diagonal mask predicate of chip §6.2.2.1.3 / seq §11.1 diagonal_mask_mode (codepoints by name from gwb_op.json; Disabled and unknown codes mask nothing). */
export function diagonalMasked(mode: number, row: number, col: number): boolean {
  if (mode === GWB_DIAG.colLeRow) return col <= row;
  if (mode === GWB_DIAG.colLtRow) return col < row;
  if (mode === GWB_DIAG.colEqRow) return col === row;
  if (mode === GWB_DIAG.colNeRow) return col !== row;
  if (mode === GWB_DIAG.colGeRow) return col >= row;
  if (mode === GWB_DIAG.colGtRow) return col > row;
  return false;
}

/** One WBA value (the exact value of an MNS 5.1.18 code; ±Infinity = sticky max, NaN) to FP16 (chip §6.2.2.1.1-2). */
export function wbaToFp16(v: number, ebAdj: number): number {
  if (v !== v) return FP16_NAN;
  return mnsToFp16Raw(MNS18.encodeWith(v, 0, true, false), ebAdj, MNS18);
}

export class GwbUnit implements ComputeUnit {
  readonly seqId = seqIdOf('gwb');
  readonly dec: Fifo;
  /** Column overrides of the 4 gwb_col_mask registers: colMask[idx * 128 + c] (decoded at trip start). */
  readonly colMask = new Uint8Array(4 * COLS);
  /** Flit of the head instruction being sent (0..7), -1 when the head has not started. */
  private flit = -1;
  private readonly out = new Uint16Array(COLS);
  // op-field arrays bound at trip start
  private f: Record<string, Int32Array> = {};
  private readonly waitKickMsg: string;
  private readonly waitFifoMsg: string;

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {
    this.dec = new FifoClass(`${u.name}.gwb.dec`, 4, WORDS);
    this.waitKickMsg = `gwb: Read_WBA waits for a writeback kick from GX (seq §11.4)`;
    this.waitFifoMsg = `gwb: target switchbox FIFO full (seq §11.4)`;
  }

  startTrip(s: SeqState): void {
    this.f = opFieldArrays(s.op, ['opcd', 'tgt_fifo', 'diagonal_mask_mode', 'diagonal_mask_override_sel', 'col_mask_idx', 'eb_adj', 'grid_row_offset', 'grid_row_iter_id', 'wb_done_iter_mask']) ?? this.f;
    const r = this.u.config.regionBytes('gwb.col_mask');
    if (r && r.changed) {
      for (let i = 0; i < 4 && i < r.words; i++)
        for (let c = 0; c < COLS; c++) this.colMask[i * COLS + c] = Number(readField(r.table, r.bytes, 'col_override', c, i * r.stride));
    }
  }

  decode(s: SeqState, rec: number): void {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    const op = f.opcd?.[pc] ?? 0;
    d[rec + W_OP] = op;
    if (op !== OP_READ_WBA) return;
    d[rec + W_TGT] = f.tgt_fifo![pc]!;
    d[rec + W_DIAG] = f.diagonal_mask_mode![pc]!;
    d[rec + W_OVR] = f.diagonal_mask_override_sel![pc]!;
    d[rec + W_CMASK] = f.col_mask_idx![pc]! & 3;
    d[rec + W_EB] = f.eb_adj![pc]!;
    // seq §11.3: grid_row_offset[3:0] + iterator count[3:0]; must stay within 0..15 (programming rule, checked here)
    const row = f.grid_row_offset![pc]! + (s.core.execCount[f.grid_row_iter_id![pc]! % 6]! & 15);
    if (row >= GRID_ROWS) {
      this.u.ruleError(GwbCodes.gridRowRange, `GWB grid-row index ${row} (grid_row_offset + iterator count) is outside 0..15`, `${SEQ_SPEC} §11.3`, s, pc);
    }
    d[rec + W_ROW] = row & 15;
    const m = f.wb_done_iter_mask![pc]!;
    d[rec + W_DONE] = m !== 0 && (s.core.itersEqNloops & m) === m ? 1 : 0;
  }

  tick(_now: number): boolean {
    const dec = this.dec;
    if (dec.empty) return false;
    const u = this.u;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP] !== OP_READ_WBA) {
      this.retire(r);
      return true;
    }
    const acc = this.cmp.acc;
    const st = this.cmp.stats;
    if (this.flit < 0) {
      if (acc.wbPending === 0) {
        st.stallWbKick++;
        u.blocked ??= this.waitKickMsg;
        return false;
      }
      this.flit = 0;
    }
    const toVpu = d[r + W_TGT] === TGT_VPU;
    const fifo: SwitchboxFifo | undefined = toVpu ? (u.attachVbuffer ? u.sbGridToVbuffer : undefined) : u.sbGridToWrite;
    if (fifo && fifo.full) {
      st.stallSwitchboxFull++;
      u.blocked ??= this.waitFifoMsg;
      return false;
    }
    const slot = this.flit;
    const row = d[r + W_ROW]!;
    if (!this.cmp.timingOnly) this.convert(row, slot, d[r + W_EB]!, d[r + W_DIAG]!, d[r + W_OVR]!, d[r + W_CMASK]!);
    if (fifo) fifo.pushColumns(this.out);
    else {
      // the Vbuffer side detached (tests of the seams): the flit is counted and dropped (warning once)
      u.stats.flitsDropped++;
      u.warnOnce('gwb-vpu', GwbCodes.vpuTarget, `GWB tgt_fifo=VPU with the Vbuffer detached: writeback flits are dropped`, `${SEQ_SPEC} §11.1, ${CHIP_SPEC_F} §6.2.3`);
    }
    st.wbFlits++;
    const done = d[r + W_DONE] === 1;
    // seq §10.3.2 / §11.4: offloading the last grid-row returns one writeback credit per slot
    if (done) acc.wbCredits++;
    if (++this.flit === SLOTS) {
      this.flit = -1;
      if (done) {
        acc.wbPending--;
        acc.wbaReadsZero = true;
        st.writebacks++;
      }
      this.retire(r);
    }
    return true;
  }

  /** MNS2FP + masks of one flit (grid-row `row`, WBA slot `slot`) into `out`. Matrix row = 8 * row + slot (seq §9.3 table). */
  private convert(row: number, slot: number, eb: number, diag: number, ovr: number, cmask: number): void {
    const wba = this.cmp.acc.wba;
    const base = (row * SLOTS + slot) * COLS;
    const out = this.out;
    const mrow = row * SLOTS + slot;
    const diagVal = ovr === GWB_OVR_MAX_NEG ? FP16_MAX_NEG : FP16_ZERO;
    const cm = this.colMask;
    const cmBase = cmask * COLS;
    for (let c = 0; c < COLS; c++) {
      const m = cm[cmBase + c]!;
      if (m === COL_ZERO) out[c] = FP16_ZERO;
      else if (m === COL_MAXNEG) out[c] = FP16_MAX_NEG;
      else if (diag !== 0 && diagonalMasked(diag, mrow, c)) out[c] = diagVal;
      else out[c] = wbaToFp16(wba[base + c]!, eb);
    }
  }

  private retire(_r: number): void {
    retireHead(this.u, this);
  }

  nextEvent(_now: number): number {
    return Infinity;
  }

  get idle(): boolean {
    return this.dec.empty && this.flit < 0;
  }
}
