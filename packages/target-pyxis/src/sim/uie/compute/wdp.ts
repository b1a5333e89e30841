/**
 * The WDP unit (seq §9): the decoder FIFO of the WDP sequencer and the execution of WR_HBUF, one per cycle.
 *
 * decode (issue time, iterator state of the instruction): configuration registers (zero mask and lin2log/EB, updated
 * by *_config_vld, seq §9.1, §9.1.6; kept across trips like hardware registers), Table 9-3 legality, the H-lane
 * iterator, grid_row_in_pair (Table 9-4), tbuf_idx / tbuf_col_idx, the iterator part of the Hbuf address (seq §9.1.4)
 * and the block start / end conditions (seq §9.1.5).
 *
 * tick (head of the decoder FIFO): block start stalls while hbuf.wrCredits < hbuf_block_size and then deducts it;
 * WR_HBUF waits for a wdc_fifo word and for its H-lanes' unload buffers (a word loaded into an H-lane unloads one
 * partition per cycle, seq §9.1.1, so an H-lane takes a new word every ptns_per_hlane cycles); then the datapath
 * (wdpDatapath.ts) writes the Hbufs; at block end hbuf_base advances by the block size at once and hbuf_rd_credits
 * grow by it wdp_latency_cycles + (ptns_per_hlane - 1) cycles later (the last partition leaves the switch).
 * Nop moves no data and does no block accounting.
 */
import { enumCode, loadTable } from '@pyxis/codec';
import { Fifo } from '@pyxis/sim';
import { iterVal } from '../opFields.js';
import type { SeqState } from '../records.js';
import { SEQ_SPEC } from '../records.js';
import { NUM_ITERS } from '../sequencerCore.js';
import type { OpStore } from '../tables.js';
import type { Uie } from '../uie.js';
import { HBUF_BYTES } from './hbuf.js';
import type { Compute } from './index.js';
import { SEQ_WDP } from './seqIds.js';
import { H_LAST, H_PC, H_SLOT, HDR_WORDS, type ComputeUnit } from './unit.js';
import { LD_1ROW_16B, LD_1ROW_16B_TRANS, LD_2ROWS_8B, LD_2ROWS_8B_TRANS, WdpDatapath, WdpOp } from './wdpDatapath.js';
import { O_16, O_DECOMP, O_ROT, WeightsCodes } from './wdc.js';
import { ZeroMasks } from './zeroMask.js';

const wdpTable = loadTable('pyxis', 'wdp_op');
for (const [name, v] of [['LD_1ROW_16B', LD_1ROW_16B], ['LD_2ROWS_8B', LD_2ROWS_8B], ['LD_1ROW_16B_TRANS', LD_1ROW_16B_TRANS], ['LD_2ROWS_8B_TRANS', LD_2ROWS_8B_TRANS]] as const)
  if (enumCode(wdpTable.byName.get('hbuf_wr_control')!, name) !== v) throw new Error(`grammars/pyxis/wdp_op.json: hbuf_wr_control ${name} is not ${v} (compute/wdpDatapath.ts)`);
const WR_HBUF = enumCode(wdpTable.byName.get('opcd')!, 'WR_HBUF')!;

// decoder record words (after the glue's header)
const R_OP = HDR_WORDS;
const R_16 = HDR_WORDS + 1;
const R_ROTEN = HDR_WORDS + 2;
const R_LOG2 = HDR_WORDS + 3;
const R_HIT = HDR_WORDS + 4;
const R_ZEN = HDR_WORDS + 5;
const R_ZA = HDR_WORDS + 6;
const R_ZB = HDR_WORDS + 7;
const R_DSBL = HDR_WORDS + 8;
const R_EB = HDR_WORDS + 9;
/** hbuf_block_size in bytes (per grid-row). */
const R_BSIZE = HDR_WORDS + 10;
const R_BSTART = HDR_WORDS + 11;
const R_BEND = HDR_WORDS + 12;
const R_WRCTL = HDR_WORDS + 13;
/** hbuf_addr_offset + dim products (9 bits, 8-byte units), without hbuf_base. */
const R_OFF = HDR_WORDS + 14;
const R_GRIP = HDR_WORDS + 15;
const R_TBUF = HDR_WORDS + 16;
const R_TCOL = HDR_WORDS + 17;
/** Execution state: the block-start credits of this record were already deducted. */
const R_STARTED = HDR_WORDS + 18;
const REC = HDR_WORDS + 19;

/** Legal log2_ptns_per_hlane per hbuf_wr_control (Table 9-3), as bit masks. */
const LEGAL = [0b1111, 0b1111, 0b0010, 0b0001];
const WR_NAMES = ['LD_1ROW_16B', 'LD_2ROWS_8B', 'LD_1ROW_16B_TRANS', 'LD_2ROWS_8B_TRANS'];

class WdpFields {
  readonly opcd: Int32Array;
  readonly is_16bit: Int32Array;
  readonly wsw_ptn_rot_en: Int32Array;
  readonly log2_ptns_per_hlane: Int32Array;
  readonly hlane_iter_id: Int32Array;
  readonly zero_mask_idx_a: Int32Array;
  readonly zero_mask_idx_b: Int32Array;
  readonly zero_mask_en: Int32Array;
  readonly zero_mask_config_vld: Int32Array;
  readonly dsbl_mapping_corr: Int32Array;
  readonly eb_adj: Int32Array;
  readonly lin2log_config_vld: Int32Array;
  readonly hbuf_block_size: Int32Array;
  readonly hbuf_block_start_en: Int32Array;
  readonly hbuf_block_end_en: Int32Array;
  readonly hbuf_block_iter_mask: Int32Array;
  readonly hbuf_wr_control: Int32Array;
  readonly hbuf_addr_offset: Int32Array;
  readonly stride: Int32Array[];
  readonly strideIter: Int32Array[];
  readonly grip_iter_id: Int32Array;
  readonly tbuf_idx_iter_id: Int32Array;
  readonly tbuf_col_idx_iter_id: Int32Array;
  constructor(readonly op: OpStore) {
    this.opcd = op.field('opcd');
    this.is_16bit = op.field('is_16bit');
    this.wsw_ptn_rot_en = op.field('wsw_ptn_rot_en');
    this.log2_ptns_per_hlane = op.field('log2_ptns_per_hlane');
    this.hlane_iter_id = op.field('hlane_iter_id');
    this.zero_mask_idx_a = op.field('zero_mask_idx_a');
    this.zero_mask_idx_b = op.field('zero_mask_idx_b');
    this.zero_mask_en = op.field('zero_mask_en');
    this.zero_mask_config_vld = op.field('zero_mask_config_vld');
    this.dsbl_mapping_corr = op.field('dsbl_mapping_corr');
    this.eb_adj = op.field('eb_adj');
    this.lin2log_config_vld = op.field('lin2log_config_vld');
    this.hbuf_block_size = op.field('hbuf_block_size');
    this.hbuf_block_start_en = op.field('hbuf_block_start_en');
    this.hbuf_block_end_en = op.field('hbuf_block_end_en');
    this.hbuf_block_iter_mask = op.field('hbuf_block_iter_mask');
    this.hbuf_wr_control = op.field('hbuf_wr_control');
    this.hbuf_addr_offset = op.field('hbuf_addr_offset');
    this.stride = [op.field('hbuf_stride_dim1'), op.field('hbuf_stride_dim2'), op.field('hbuf_stride_dim3')];
    this.strideIter = [op.field('hbuf_stride_iter_id_dim1'), op.field('hbuf_stride_iter_id_dim2'), op.field('hbuf_stride_iter_id_dim3')];
    this.grip_iter_id = op.field('grip_iter_id');
    this.tbuf_idx_iter_id = op.field('tbuf_idx_iter_id');
    this.tbuf_col_idx_iter_id = op.field('tbuf_col_idx_iter_id');
  }
}

const CREDIT_RING = 64;

export class WdpUnit implements ComputeUnit {
  readonly seqId = SEQ_WDP;
  readonly dec: Fifo;
  readonly zeroMasks = new ZeroMasks();
  readonly datapath: WdpDatapath;
  // configuration registers (seq §9.1: *_config_vld updates them, else the prior values are retained)
  zmEn = 0;
  zmA = 0;
  zmB = 0;
  dsblCorr = 0;
  ebAdj = 0;
  /** Cycle from which H-lane h's unload buffer accepts a new word. */
  readonly hlaneFree = new Float64Array(8);
  // hbuf_rd_credits on their way to GH: (cycle, bytes), in cycle order
  private readonly crAt = new Float64Array(CREDIT_RING);
  private readonly crBytes = new Int32Array(CREDIT_RING);
  private crHead = 0;
  private crCount = 0;
  private readonly op = new WdpOp();
  private fields: WdpFields | undefined;
  private warnedWidth = false;
  private readonly latency: number;
  private readonly msgCredits: string;
  private readonly msgData: string;
  private readonly msgHlane: string;

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {
    const p = u.params.weights_path;
    this.latency = p.wdp_latency_cycles;
    this.dec = new Fifo(`${u.name}.wdp.dec`, p.wdp_dec_fifo_depth, REC);
    this.datapath = new WdpDatapath(u, cmp.hbuf, cmp.stats, this.zeroMasks, cmp.timingOnly);
    this.msgCredits = `${u.name}: wdp: block start waits for hbuf_wr_credits (seq §9.1.5)`;
    this.msgData = `${u.name}: wdp: WR_HBUF waits for a word in wdc_fifo`;
    this.msgHlane = `${u.name}: wdp: WR_HBUF waits for an H-lane unload buffer (seq §9.1.1)`;
  }

  startTrip(_s: SeqState): void {
    this.zeroMasks.sync(this.u.config);
  }

  decode(s: SeqState, rec: number): void {
    const o = s.op;
    if (!o) {
      this.dec.data[rec + R_OP] = 0; // no op memory: Nop
      return;
    }
    const f = this.fields?.op === o ? this.fields : (this.fields = new WdpFields(o));
    const core = s.core;
    const pc = core.execPc;
    const cnt = core.execCount;
    const d = this.dec.data;
    if (f.zero_mask_config_vld[pc]) {
      this.zmEn = f.zero_mask_en[pc]!;
      this.zmA = f.zero_mask_idx_a[pc]!;
      this.zmB = f.zero_mask_idx_b[pc]!;
    }
    if (f.lin2log_config_vld[pc]) {
      this.dsblCorr = f.dsbl_mapping_corr[pc]!;
      this.ebAdj = f.eb_adj[pc]!;
    }
    const op = f.opcd[pc]!;
    const wr = f.hbuf_wr_control[pc]!;
    const log2 = f.log2_ptns_per_hlane[pc]!;
    d[rec + R_OP] = op;
    d[rec + R_16] = f.is_16bit[pc]!;
    d[rec + R_ROTEN] = f.wsw_ptn_rot_en[pc]!;
    d[rec + R_LOG2] = log2;
    d[rec + R_HIT] = iterVal(cnt, f.hlane_iter_id[pc]!);
    d[rec + R_ZEN] = this.zmEn;
    d[rec + R_ZA] = this.zmA;
    d[rec + R_ZB] = this.zmB;
    d[rec + R_DSBL] = this.dsblCorr;
    d[rec + R_EB] = this.ebAdj;
    d[rec + R_WRCTL] = wr;
    d[rec + R_STARTED] = 0;
    d[rec + R_BSTART] = 0;
    d[rec + R_BEND] = 0;
    if (op !== WR_HBUF) return;
    if (!((LEGAL[wr]! >> log2) & 1))
      this.u.ruleError(WeightsCodes.wrCombo, `hbuf_wr_control ${WR_NAMES[wr]} with log2_ptns_per_hlane ${log2} is not a supported combination`, `${SEQ_SPEC} §9.1.2 Table 9-3`, s, pc);
    // seq §9.1.4: dim products keep 9 bits, the iterator value uses 8 bits (docs/spec-notes.md)
    let off = f.hbuf_addr_offset[pc]!;
    for (let k = 0; k < 3; k++) off += (f.stride[k]![pc]! * (iterVal(cnt, f.strideIter[k]![pc]!) & 0xff)) & 511;
    d[rec + R_OFF] = off & 511;
    d[rec + R_GRIP] = iterVal(cnt, f.grip_iter_id[pc]!) & 1;
    d[rec + R_TBUF] = iterVal(cnt, f.tbuf_idx_iter_id[pc]!) & 1;
    const tc = iterVal(cnt, f.tbuf_col_idx_iter_id[pc]!);
    d[rec + R_TCOL] = wr === LD_1ROW_16B_TRANS ? (tc & 1) << 1 : tc & 3;
    // seq §9.1.5: block start when all masked iterators are zero, end when all are at their ending value
    const mask = f.hbuf_block_iter_mask[pc]! & ((1 << NUM_ITERS) - 1);
    const size = f.hbuf_block_size[pc]!;
    d[rec + R_BSIZE] = size * 16;
    if (mask !== 0) {
      const st = f.hbuf_block_start_en[pc]! && (core.itersEqZero & mask) === mask ? 1 : 0;
      const en = f.hbuf_block_end_en[pc]! && (core.itersEqNloops & mask) === mask ? 1 : 0;
      if ((st || en) && (size === 0 || size > 256))
        this.u.ruleError(WeightsCodes.blockSize, `hbuf_block_size ${size} (units of 16 bytes) must be 1..256`, `${SEQ_SPEC} §9.1`, s, pc);
      d[rec + R_BSTART] = st;
      d[rec + R_BEND] = en;
    }
  }

  /** Moves credits whose time has come to GH (hbuf.rdCredits). */
  private drainCredits(now: number): boolean {
    let did = false;
    while (this.crCount > 0 && this.crAt[this.crHead]! <= now) {
      this.cmp.hbuf.rdCredits += this.crBytes[this.crHead]!;
      this.crHead = (this.crHead + 1) % CREDIT_RING;
      this.crCount--;
      did = true;
    }
    return did;
  }

  private sendCredits(at: number, bytes: number): void {
    if (this.crCount === CREDIT_RING) {
      // more blocks in flight than the ring holds (blocks of one word each): deliver the oldest now
      this.cmp.hbuf.rdCredits += this.crBytes[this.crHead]!;
      this.crHead = (this.crHead + 1) % CREDIT_RING;
      this.crCount--;
    }
    const last = this.crCount > 0 ? this.crAt[(this.crHead + this.crCount - 1) % CREDIT_RING]! : 0;
    const i = (this.crHead + this.crCount) % CREDIT_RING;
    this.crAt[i] = Math.max(at, last);
    this.crBytes[i] = bytes;
    this.crCount++;
  }

  tick(now: number): boolean {
    let did = this.drainCredits(now);
    const dec = this.dec;
    if (dec.empty) return did;
    const r = dec.peekSlot();
    const d = dec.data;
    const st = this.cmp.stats;
    const hb = this.cmp.hbuf;
    if (d[r + R_OP] === WR_HBUF) {
      const size = d[r + R_BSIZE]!;
      if (d[r + R_BSTART] && !d[r + R_STARTED]) {
        if (hb.wrCredits < size) {
          st.stallHbufWrCredits++;
          this.u.blocked ??= this.msgCredits;
          return did;
        }
        hb.wrCredits -= size;
        d[r + R_STARTED] = 1;
        did = true;
      }
      const wdc = this.cmp.wdc;
      const e = wdc.outReady(now);
      if (e < 0) {
        st.stallWdcEmpty++;
        this.u.blocked ??= this.msgData;
        return did;
      }
      const log2 = d[r + R_LOG2]!;
      const hit = d[r + R_HIT]!;
      const per = 1 << log2;
      const h0 = log2 === 0 ? 0 : log2 === 1 ? (hit & 1) << 2 : log2 === 2 ? (hit & 3) << 1 : hit & 7;
      const nh = 8 >> log2;
      for (let h = h0; h < h0 + nh; h++)
        if (this.hlaneFree[h]! > now) {
          st.stallHlaneBusy++;
          this.u.blocked ??= this.msgHlane;
          return did;
        }
      for (let h = h0; h < h0 + nh; h++) this.hlaneFree[h] = now + per;
      const is16 = d[r + R_16]!;
      const pc = d[r + H_PC]!;
      const s = this.u.seqs[SEQ_WDP];
      if (wdc.outMetaAt(e, O_16) !== is16 && !this.warnedWidth) {
        this.warnedWidth = true;
        this.u.warnOnce(
          'wdpWidth',
          WeightsCodes.widthMismatch,
          `WR_HBUF is_16bit ${is16} on a ${wdc.outMetaAt(e, O_DECOMP) ? 'decompressed (8-bit LnsI4F3)' : wdc.outMetaAt(e, O_16) ? '16-bit' : '8-bit'} word (pc ${pc})`,
          `${SEQ_SPEC} §7.1, §9.1`,
        );
      }
      const op = this.op;
      op.is16 = is16;
      op.log2 = log2;
      op.hlaneIter = hit;
      op.wrCtl = d[r + R_WRCTL]!;
      op.grip = d[r + R_GRIP]!;
      op.tbufIdx = d[r + R_TBUF]!;
      op.tbufCol = d[r + R_TCOL]!;
      op.addr9 = ((hb.wrBase >> 3) + d[r + R_OFF]!) & 511;
      op.zmEn = d[r + R_ZEN]!;
      op.zmA = d[r + R_ZA]!;
      op.zmB = d[r + R_ZB]!;
      op.dsblCorr = d[r + R_DSBL]!;
      op.ebAdj = d[r + R_EB]!;
      op.rot = d[r + R_ROTEN] ? wdc.outMetaAt(e, O_ROT) : 0;
      op.pc = pc;
      op.now = now;
      this.datapath.write(op, wdc.outBytes, e * 128, s);
      wdc.popOut();
      st.wdpWords++;
      if (d[r + R_BEND]) {
        hb.wrBase = (hb.wrBase + size) % HBUF_BYTES;
        this.sendCredits(now + this.latency + per - 1, size);
      }
    }
    const last = d[r + H_LAST]!;
    const slot = d[r + H_SLOT]!;
    dec.pop();
    if (last) this.u.seqDone(this.seqId, slot);
    return true;
  }

  nextEvent(now: number): number {
    if (this.crCount > 0) {
      const t = this.crAt[this.crHead]!;
      if (t > now) return t;
      return now + 1;
    }
    return Infinity;
  }

  get idle(): boolean {
    return this.dec.empty && this.crCount === 0;
  }
}
