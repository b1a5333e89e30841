/**
 * The four Vbuffer sequencers' datapath units (seq §13-§14): SB2VB (switchbox FIFO or snoop register -> tile),
 * VB2SB (tile -> switchbox FIFO), VB2VPU (tile -> VPU InFIFO), VPU2VB (VPU OutFIFO -> tile). One row (128 FP16
 * columns) per cycle per unit. A tile is written/read as a FIFO (waits for room / data) or as a scratchpad at
 * `*_addr_base + iterator` with the scratchpad_count RAW protection (seq §13.2); bank ownership of seq §13.3 checked.
 */
import { Fifo } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import * as records from '../records.js';
import { headWaiting, type SwitchboxFifo } from '../switchbox.js';
import type { Uie } from '../uie.js';
import type { Compute } from './index.js';
import { seqIdOf } from './seqIds.js';
import type { ComputeStats } from './stats.js';
import { H_LAST, H_PC, H_SLOT, HDR_WORDS, opFieldArrays, type ComputeUnit } from './unit.js';
import { SCRATCHPAD_MAX, TILE_ROWS, VB_COLS, type Vbuffer } from './vbuffer.js';

const { SEQ_SPEC } = records;

export const VbufCodes = { bankOwner: 'SIM0650', scratchpadOverflow: 'SIM0651', scratchpadNonZero: 'SIM0652' } as const;

const W_OP = HDR_WORDS;
const W_TILE = HDR_WORDS + 1;
const W_PORT = HDR_WORDS + 2; // SB2VB src_select / VB2SB tgt_select
const W_SP = HDR_WORDS + 3; // scratchpad_mode
const W_ADDR = HDR_WORDS + 4; // scratchpad address
const W_COUNT = HDR_WORDS + 5; // writers: increment amount (0 = none); readers: 1 = decrement required
const W_SNOOP = HDR_WORDS + 6; // bit0 snoop_vld, bit1 snoop_signed, bit2 snoop start
const WORDS = HDR_WORDS + 7;

const FP16_SIGN = 0x8000;
const FP16_NAN = 0x8000;

type Kind = 'sb2vb' | 'vb2sb' | 'vb2vpu' | 'vpu2vb';

/** Kind codes of the four units (the counter switches below). */
const K_SB2VB = 0;
const K_VB2SB = 1;
const K_VB2VPU = 2;
const K_VPU2VB = 3;
const KIND_CODE: Record<Kind, number> = { sb2vb: K_SB2VB, vb2sb: K_VB2SB, vb2vpu: K_VB2VPU, vpu2vb: K_VPU2VB };

/**
 * Counts a wait of unit kind `k` by reason (0 empty, 1 full, 2 scratchpad) in its ComputeStats counter: plain field
 * updates (a keyed update by a computed name was a megamorphic store, ~5% of a VPU-bound run). Writers never wait
 * for scratchpad_count (an increment past 128 is error SIM0651): their reason 2 counts as full, never happens.
 */
function countWait(st: ComputeStats, k: number, why: number): void {
  switch (k * 3 + why) {
    case K_SB2VB * 3:
      st.sb2vbEmpty++;
      return;
    case K_SB2VB * 3 + 1:
    case K_SB2VB * 3 + 2:
      st.sb2vbFull++;
      return;
    case K_VB2SB * 3:
      st.vb2sbEmpty++;
      return;
    case K_VB2SB * 3 + 1:
      st.vb2sbFull++;
      return;
    case K_VB2SB * 3 + 2:
      st.vb2sbScratchpad++;
      return;
    case K_VB2VPU * 3:
      st.vb2vpuEmpty++;
      return;
    case K_VB2VPU * 3 + 1:
      st.vb2vpuFull++;
      return;
    case K_VB2VPU * 3 + 2:
      st.vb2vpuScratchpad++;
      return;
    case K_VPU2VB * 3:
      st.vpu2vbEmpty++;
      return;
    default:
      st.vpu2vbFull++;
  }
}

/** Counts a row moved by unit kind `k` (plain field updates, as countWait). */
function countRow(st: ComputeStats, k: number): void {
  if (k === K_SB2VB) st.sb2vbRows++;
  else if (k === K_VB2SB) st.vb2sbRows++;
  else if (k === K_VB2VPU) st.vb2vpuRows++;
  else st.vpu2vbRows++;
}

/** Magnitude-ordered key of an RFP16 code for max snooping (sign-magnitude, larger magnitude code = larger value). */
function signedGreater(x: number, y: number): boolean {
  if (x === FP16_NAN) return false;
  if (y === FP16_NAN) return true;
  const sx = x & FP16_SIGN;
  const sy = y & FP16_SIGN;
  if (sx !== sy) return sy !== 0; // positive (or zero) > negative
  return sx === 0 ? x > y : (x & 0x7fff) < (y & 0x7fff);
}

export class VbufUnit implements ComputeUnit {
  readonly seqId: number;
  readonly dec: Fifo;
  readonly writer: boolean;
  private f: Record<string, Int32Array> = {};
  private readonly msgs: string[];
  /** KIND_CODE of `kind`. */
  private readonly k: number;

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
    readonly kind: Kind,
  ) {
    this.seqId = seqIdOf(kind);
    this.writer = kind === 'sb2vb' || kind === 'vpu2vb';
    this.dec = new Fifo(`${u.name}.${kind}.dec`, u.params.uie.vbuffer_dec_fifo_depth, WORDS);
    this.k = KIND_CODE[kind];
    this.msgs = [`${kind}: waiting for its source (empty FIFO or tile, seq §13.1)`, `${kind}: waiting for room in its target (full FIFO or tile, seq §13.1)`, `${kind}: waiting for scratchpad_count > 0 (seq §13.2)`];
  }

  private get vb(): Vbuffer {
    return this.cmp.vbuffer;
  }

  startTrip(s: SeqState): void {
    const names = this.writer
      ? ['opcd', 'wr_tile_idx', 'src_select', 'scratchpad_mode', 'scratchpad_count_iter_mask', 'scratchpad_count_incr_amt', 'wr_addr_base', 'wr_addr_iter_id', 'wr_addr_iter_vld', 'snoop_vld', 'snoop_signed', 'snoop_start_iter_mask']
      : ['opcd', 'rd_tile_idx', 'tgt_select', 'scratchpad_mode', 'scratchpad_count_iter_mask', 'scratchpad_count_decr', 'rd_addr_base', 'rd_addr_iter_id', 'rd_addr_iter_vld'];
    this.f = opFieldArrays<string>(s.op, names) ?? this.f;
  }

  decode(s: SeqState, rec: number): void {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    const c = s.core;
    d[rec + W_OP] = f.opcd?.[pc] ?? 0;
    if (d[rec + W_OP] === 0) return;
    const w = this.writer;
    const tile = (w ? f.wr_tile_idx : f.rd_tile_idx)![pc]! & 7;
    d[rec + W_TILE] = tile;
    d[rec + W_PORT] = (w ? f.src_select : f.tgt_select)?.[pc] ?? 0;
    const sp = f.scratchpad_mode![pc]!;
    d[rec + W_SP] = sp;
    const base = (w ? f.wr_addr_base : f.rd_addr_base)![pc]!;
    const vld = (w ? f.wr_addr_iter_vld : f.rd_addr_iter_vld)![pc]!;
    const it = (w ? f.wr_addr_iter_id : f.rd_addr_iter_id)![pc]! % 6;
    d[rec + W_ADDR] = (base + (vld ? c.execCount[it]! : 0)) % TILE_ROWS;
    const mask = f.scratchpad_count_iter_mask![pc]!;
    if (w) {
      // seq §14.1/§14.3: increment when all masked iterators are at their ending value, or when the mask is 0
      const en = mask === 0 || (c.itersEqNloops & mask) === mask;
      d[rec + W_COUNT] = sp && en ? f.scratchpad_count_incr_amt![pc]! : 0;
      const sm = f.snoop_start_iter_mask?.[pc] ?? 0;
      d[rec + W_SNOOP] = (f.snoop_vld?.[pc] ?? 0) | ((f.snoop_signed?.[pc] ?? 0) << 1) | (sm !== 0 && (c.itersEqZero & sm) === sm ? 4 : 0);
    } else {
      // seq §14.2/§14.4: the decrement is enabled when all masked iterators are zero, or when the mask is 0
      const en = mask === 0 || (c.itersEqZero & mask) === mask;
      d[rec + W_COUNT] = sp && en && f.scratchpad_count_decr![pc] ? 1 : 0;
    }
    if (sp) this.vb.spTilesBySlot[s.slot & 3]! |= 1 << tile;
  }

  /** Source / target switchbox FIFO of this unit's port, undefined for the VPU side or the snoop register. */
  private fifo(port: number): SwitchboxFifo | undefined {
    const u = this.u;
    switch (this.kind) {
      case 'sb2vb':
        return port === 0 ? u.sbReadToVbuffer : port === 1 ? u.sbGridToVbuffer : undefined;
      case 'vb2sb':
        return port === 0 ? u.sbVbufferToWrite : u.sbVbufferToGrid;
      default:
        return undefined;
    }
  }

  tick(now: number): boolean {
    const dec = this.dec;
    if (dec.empty) return false;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP] === 0) return this.retire(r);
    const u = this.u;
    const vb = this.vb;
    const vpu = this.cmp.vpu;
    const tile = d[r + W_TILE]!;
    const sp = d[r + W_SP] === 1;
    const port = d[r + W_PORT]!;
    const st = this.cmp.stats;
    if (!this.own(tile, r)) return this.retire(r); // reported; the access is dropped so the run can go on
    if (this.writer) {
      // source available?
      const src = this.kind === 'vpu2vb' ? undefined : this.fifo(port);
      const fromSnoop = this.kind === 'sb2vb' && port === 2;
      const hasSrc = this.kind === 'vpu2vb' ? vpu.outCount > 0 : fromSnoop ? true : src !== undefined && !src.empty;
      if (!hasSrc) return this.wait(0, st);
      // an AMEM-read flit is consumable only after the read pipeline's latency (switchbox.ts headWaiting)
      if (src !== undefined && !fromSnoop && headWaiting(src, now, u)) return this.wait(0, st);
      if (!sp && vb.count[tile]! >= TILE_ROWS) return this.wait(1, st);
      // the row goes straight into its tile entry (no copy through a row buffer: one 128-column copy per row less)
      const data = vb.data;
      const o = vb.rowAt(tile, sp ? d[r + W_ADDR]! : vb.wrPtr[tile]!);
      if (this.kind === 'vpu2vb') vpu.popOut(data, o);
      else if (fromSnoop) data.set(vb.snoop, o);
      else {
        src!.headColumns(data, o);
        src!.pop();
      }
      const sn = d[r + W_SNOOP]!;
      if (sn & 1) this.snoop(data, o, (sn & 2) !== 0, (sn & 4) !== 0);
      if (!sp) {
        vb.wrPtr[tile] = (vb.wrPtr[tile]! + 1) % TILE_ROWS;
        vb.count[tile]!++;
      }
      const inc = d[r + W_COUNT]!;
      if (inc) {
        vb.spCount[tile]! += inc;
        vb.spIncSeq[tile] = this.seqId;
        vb.spIncPc[tile] = d[r + H_PC]!;
        if (vb.spCount[tile]! > SCRATCHPAD_MAX)
          u.ruleError(VbufCodes.scratchpadOverflow, `${this.kind}: scratchpad_count of tile ${tile} exceeds ${SCRATCHPAD_MAX} (${vb.spCount[tile]})`, `${SEQ_SPEC} §13.2`, u.seqs[this.seqId], d[r + 2]!);
      }
      st.vbufRowsWritten++;
      countRow(st, this.k);
    } else {
      if (sp) {
        if (d[r + W_COUNT] === 1 && vb.spCount[tile] === 0) return this.wait(2, st);
      } else if (vb.count[tile] === 0) return this.wait(0, st);
      const tgt = this.fifo(port);
      const full = this.kind === 'vb2vpu' ? vpu.inFull : tgt!.full;
      if (full) return this.wait(1, st);
      // straight from the tile entry into the target (no copy through a row buffer)
      const o = vb.rowAt(tile, sp ? d[r + W_ADDR]! : vb.rdPtr[tile]!);
      if (sp) {
        if (d[r + W_COUNT] === 1) {
          vb.spCount[tile]!--;
          vb.spDecSeq[tile] = this.seqId;
          vb.spDecPc[tile] = d[r + H_PC]!;
        }
      } else {
        vb.rdPtr[tile] = (vb.rdPtr[tile]! + 1) % TILE_ROWS;
        vb.count[tile]!--;
      }
      if (this.kind === 'vb2vpu') vpu.pushIn(vb.data, o);
      else tgt!.pushColumns(vb.data, o);
      st.vbufRowsRead++;
      countRow(st, this.k);
    }
    return this.retire(r);
  }

  /** Bank ownership (seq §13.3): the first access of a trip claims the bank for this sequencer until its trip ends. */
  private own(tile: number, r: number): boolean {
    const vb = this.vb;
    const bank = tile >> 1;
    const owners = this.writer ? vb.bankWriter : vb.bankReader;
    const cur = owners[bank]!;
    if (cur === -1) owners[bank] = this.seqId;
    else if (cur !== this.seqId) {
      const other = this.u.seqs[cur]?.name ?? `seq${cur}`;
      this.u.ruleError(VbufCodes.bankOwner, `${this.kind} ${this.writer ? 'writes' : 'reads'} Vbuffer bank ${bank} (tile ${tile}) while ${other} owns its ${this.writer ? 'write' : 'read'} port`, `${SEQ_SPEC} §13.3`, this.u.seqs[this.seqId], this.dec.data[r + 2]!);
      return false;
    }
    return true;
  }

  /** Max-value snooping (seq §14.1) of the row at row[rb ..]. */
  private snoop(row: Uint16Array, rb: number, signed: boolean, start: boolean): void {
    const vb = this.vb;
    const s = vb.snoop;
    if (start || !vb.snoopValid) {
      for (let c = 0; c < VB_COLS; c++) {
        const x = row[rb + c]!;
        s[c] = signed ? x : x === FP16_NAN ? FP16_NAN : x & 0x7fff;
      }
      vb.snoopValid = true;
      return;
    }
    for (let c = 0; c < VB_COLS; c++) {
      const y = row[rb + c]!;
      const x = signed ? y : y === FP16_NAN ? FP16_NAN : y & 0x7fff;
      if (signedGreater(x, s[c]!)) s[c] = x;
    }
  }

  private wait(kind: 0 | 1 | 2, st: ComputeStats): boolean {
    st.vbufStalls++;
    countWait(st, this.k, kind);
    this.u.blocked ??= this.msgs[kind];
    return false;
  }

  private retire(r: number): boolean {
    const d = this.dec.data;
    const last = d[r + H_LAST] === 1;
    const slot = d[r + H_SLOT]!;
    this.dec.pop();
    if (last) {
      // the trip is over for this sequencer: release the banks it owned (seq §13.3)
      const owners = this.writer ? this.vb.bankWriter : this.vb.bankReader;
      for (let b = 0; b < owners.length; b++) if (owners[b] === this.seqId) owners[b] = -1;
      this.u.seqDone(this.seqId, slot);
    }
    return true;
  }

  nextEvent(_now: number): number {
    return Infinity;
  }

  get idle(): boolean {
    return this.dec.empty;
  }
}
