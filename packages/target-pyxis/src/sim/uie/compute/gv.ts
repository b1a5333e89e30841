/**
 * The GV (grid vertical data) unit, seq §10.2: Read_Zero (a row of zeros), Read_AMEM_FIFO (pops the AMEM Read ->
 * grid switchbox FIFO, `u.sbReadToGrid`, 128 RFP16 columns) and Read_VPU_FIFO (pops the VPU-side -> grid switchbox
 * FIFO, `u.sbVbufferToGrid`, written by VB2SB tgt_select = Grid_FIFO, chip Table 6-3).
 * Every column goes through Lin2Log (chip §4.8, §6.2.1.5: `linToLogRaw` with dsbl_mapping_corr, fbits_truncate_amt,
 * eb_adj) into LnsI5F10, then:
 * - conv3x3_mode = 0 (1x1 / MatMul): into the v_staging back buffer, entry 0..7 (chip §6.3.1); a fill starts at an
 *   instruction whose staging_start_iter_mask condition holds (all masked iterators zero) and must then be at entry 0;
 *   after entry 7 the back buffer is complete and becomes the front when GX frees it (double buffering). GV stalls while
 *   a complete back buffer waits (stallStaging).
 * - conv3x3_mode = 1: into the data-row FIFO to GX (the "3-cycle staging pipe" is GX's 3-row window).
 */
import { linToLogRaw } from '@pyxis/formats';
import { Fifo } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import * as records from '../records.js';
import { headWaiting, type SwitchboxFifo } from '../switchbox.js';
import type { Uie } from '../uie.js';
import type { Compute } from './index.js';
import { COLS, GridCodes, type GridState } from './grid.js';
import { toOp, ZERO_OP } from './llc.js';
import { seqIdOf } from './seqIds.js';
import { H_LAST, H_PC, H_SLOT, HDR_WORDS, type ComputeUnit, noOpFields, opFieldArrays } from './unit.js';
import { GV_AMEM, GV_VPU, GV_ZERO } from '../codes.js';

const { SEQ_SPEC } = records;

/** gv_op `opcd` codepoints, by name from the grammar (codes.ts). */
const OP_ZERO = GV_ZERO;
const OP_AMEM = GV_AMEM;
const OP_VPU = GV_VPU;

const W_OP = HDR_WORDS;
const W_MODE = HDR_WORDS + 1;
const W_START = HDR_WORDS + 2;
const W_CORR = HDR_WORDS + 3;
const W_TRUNC = HDR_WORDS + 4;
const W_EB = HDR_WORDS + 5;
const WORDS = HDR_WORDS + 6;

const FIELDS = ['opcd', 'conv3x3_mode', 'staging_start_iter_mask', 'dsbl_mapping_corr', 'fbits_truncate_amt', 'eb_adj'] as const;
type F = Record<(typeof FIELDS)[number], Int32Array>;

export class GvUnit implements ComputeUnit {
  readonly seqId = seqIdOf('gv');
  readonly dec: Fifo;
  readonly grid: GridState;
  private f: F;
  private seq: SeqState | undefined;
  /** conv3x3_mode of the trip being executed (-1 before its first data instruction). */
  private tripMode = -1;
  /** Trip slot the mode belongs to (tick-side: the sequencer may already have started the next trip). */
  private modeSlot = -1;
  private readonly cols = new Uint16Array(COLS);
  private readonly msgSb: string;
  private readonly msgLat: string;
  private readonly msgVpu: string;
  private readonly msgBack: string;
  private readonly msgRows: string;

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {
    this.grid = cmp.gh.grid;
    this.dec = new Fifo(`${u.name}.gv.dec`, this.grid.p.gv_dec_fifo_depth, WORDS);
    this.f = noOpFields(FIELDS);
    this.msgSb = `gv: Read_AMEM_FIFO waits for switchbox FIFO ${u.sbReadToGrid.name} (empty)`;
    this.msgLat = `gv: Read_AMEM_FIFO waits for the AMEM read pipeline (${u.sbReadToGrid.name})`;
    this.msgVpu = `gv: Read_VPU_FIFO waits for switchbox FIFO ${u.sbVbufferToGrid.name} (empty)`;
    this.msgBack = 'gv: v_staging back buffer complete, waiting for GX front_staging_done (chip §6.3.1)';
    this.msgRows = 'gv: 3x3 data-row FIFO to GX full';
  }

  startTrip(s: SeqState): void {
    this.seq = s;
    this.f = (opFieldArrays(s.op, FIELDS) as F | undefined) ?? this.f;
  }

  decode(s: SeqState, rec: number): void {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    d[rec + W_OP] = f.opcd[pc]!;
    d[rec + W_MODE] = f.conv3x3_mode[pc]!;
    const m = f.staging_start_iter_mask[pc]!;
    d[rec + W_START] = m !== 0 && (s.core.itersEqZero & m) === m ? 1 : 0;
    d[rec + W_CORR] = f.dsbl_mapping_corr[pc]! ? 0 : 1;
    d[rec + W_TRUNC] = f.fbits_truncate_amt[pc]! & 7;
    d[rec + W_EB] = f.eb_adj[pc]!;
  }

  tick(now: number): boolean {
    const dec = this.dec;
    if (dec.empty) return false;
    const d = dec.data;
    const r = dec.peekSlot();
    const op = d[r + W_OP]!;
    const u = this.u;
    if (op !== OP_ZERO && op !== OP_AMEM && op !== OP_VPU) {
      this.retire(r);
      return true;
    }
    const g = this.grid;
    const st = this.cmp.stats;
    const mode = d[r + W_MODE]!;
    if (d[r + H_SLOT] !== this.modeSlot) {
      this.modeSlot = d[r + H_SLOT]!;
      this.tripMode = mode;
    } else if (mode !== this.tripMode) {
      u.ruleError(GridCodes.mode, 'GV conv3x3_mode changed within a trip', `${SEQ_SPEC} §10.2`, this.seq, d[r + H_PC]!);
      this.tripMode = mode;
    }
    const sb = op === OP_VPU ? u.sbVbufferToGrid : u.sbReadToGrid;
    if (op !== OP_ZERO && sb.empty) {
      u.blocked ??= op === OP_VPU ? this.msgVpu : this.msgSb;
      return false;
    }
    // the read pipeline's latency (switchbox.ts headWaiting; docs/timing-model.md "AMEM banks")
    if (op !== OP_ZERO && headWaiting(sb, now, u)) {
      u.blocked ??= this.msgLat;
      return false;
    }
    if (mode === 1) {
      const e = g.vPushSlot();
      if (e < 0) {
        st.stallStaging++;
        u.blocked ??= this.msgRows;
        return false;
      }
      this.convert(op === OP_ZERO ? undefined : sb, r, g.vRows, e * COLS, 1);
      // the first row into an idle grid pays the staging fill (chip §6.3.1 note 3), rows behind it stream
      const running = g.vCount > 1 || now - g.lastExec <= 1;
      g.vReady[e] = now + 1 + (running ? 0 : g.p.grid_fill_latency_cycles);
    } else {
      g.trySwapV(now);
      if (g.vBackFull) {
        st.stallStaging++;
        u.blocked ??= this.msgBack;
        return false;
      }
      if (d[r + W_START] === 1 && g.vBackCount !== 0) {
        u.ruleError(GridCodes.stagingFill, `GV staging start at v_staging entry ${g.vBackCount}: the previous fill has fewer than 8 entries (input channels / inner dimension must be a multiple of 8, 4 for 16-bit horizontal data padded to 8 rows)`, `${SEQ_SPEC} §1.2, §10.2`, this.seq, d[r + H_PC]!);
        g.vBackCount = 0;
      }
      this.convert(op === OP_ZERO ? undefined : sb, r, g.vBack, g.vBackCount, 8);
      if (++g.vBackCount === 8) {
        g.vBackFull = true;
        // an idle grid pays the staging fill (chip §6.3.1 note 3); a double-buffered swap in steady state (GX executed
        // this cycle or still has a front buffer) does not
        const running = g.vFrontValid || now - g.lastExec <= 1;
        g.vBackReady = now + 1 + (running ? 0 : g.p.grid_fill_latency_cycles);
      }
    }
    if (op !== OP_ZERO) sb.pop();
    this.retire(r);
    return true;
  }

  /** One row of 128 columns (head of switchbox FIFO `sb`, or zeros) through Lin2Log into dst[base + c * stride]. */
  private convert(sb: SwitchboxFifo | undefined, r: number, dst: Int32Array, base: number, stride: number): void {
    if (this.cmp.timingOnly) return; // v data are GX's arithmetic operands only
    if (!sb) {
      for (let c = 0; c < COLS; c++) dst[base + c * stride] = ZERO_OP;
      return;
    }
    const d = this.dec.data;
    const cols = this.cols;
    sb.headColumns(cols, 0);
    const corr = d[r + W_CORR] === 1;
    const trunc = d[r + W_TRUNC]!;
    const eb = d[r + W_EB]!;
    for (let c = 0; c < COLS; c++) dst[base + c * stride] = toOp(linToLogRaw(cols[c]!, eb, corr, trunc));
  }

  private retire(r: number): void {
    const d = this.dec.data;
    const last = d[r + H_LAST] === 1;
    const slot = d[r + H_SLOT]!;
    this.dec.pop();
    if (last) {
      const g = this.grid;
      if (this.tripMode === 0 && g.vBackCount !== 0 && !g.vBackFull) {
        this.u.ruleError(GridCodes.stagingFill, `GV trip ends with a partial v_staging fill (${g.vBackCount} of 8 entries): pad to a multiple of 8 rows`, `${SEQ_SPEC} §1.2, §1.3`, this.seq, d[r + H_PC]!);
        g.vBackCount = 0;
      }
      this.u.seqDone(this.seqId, slot);
    }
  }

  nextEvent(_now: number): number {
    return Infinity;
  }

  get idle(): boolean {
    return this.dec.empty;
  }
}
