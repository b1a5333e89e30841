/**
 * The GH (grid horizontal data) unit, seq §10.1: HBUF_RD_VLD reads per active grid-row (0..end_grid_row_idx) at the
 * §10.1.1 address (hbuf_base + hbuf_addr_offset + strides, byte granular, modulo 4096) and
 * - RD_1X1_MATMUL_FP8: 8 LnsI5F3 logical bytes at addr .. addr + 7;
 * - RD_1X1_MATMUL_FP16: 4 LnsI5F10 values, two logical bytes each, low byte first, at addr .. addr + 7;
 * - RD_TRANS_1X1_MATMUL_FP8 / FP16: 4 bytes from each bank: addr .. addr + 3 in the addressed word of bank 0, then the
 *   same byte offsets of the same word in bank 1 (seq §9.4 Table 9-7: bank 0 holds rows A..D, bank 1 rows E..H);
 *   pushing one h_data entry to GX;
 * - RD_3X3: the 9 logical bytes addr .. addr + 8 (docs/spec-notes.md "3x3 Hbuf layout") into the h back kernel
 *   buffer of the partitions of filter j = count of h_staging_filter_iter_id (log2_filters_per_row); with
 *   h_staging_done_en at the iterator's ending value the back buffer is complete.
 * Credits (seq §10.1.2): stall at a block start while hbuf.rdCredits == 0; at a block end rdBase += size,
 * rdCredits -= size, wrCredits += size (bytes; hbuf_block_size is in 16-byte units). With hbuf_block_iter_mask = 0
 * the start/end bits alone decide (the §10.1 field text; docs/spec-notes.md).
 * An RD_3X3 whose 9 bytes are not inside the block opened by the last block start (a kernel straddling the block end:
 * its last bytes belong to a block GH holds no credits for, seq §10.1.2) is SIM0628 (docs/spec-notes.md).
 * Hbuf ports: each bank reads one word and writes one word per cycle (docs/spec-notes.md); `Hbuf.ports`, when
 * set, counts the words each read touches per (grid-row, bank) to check that no read needs a bank twice.
 */
import { Fifo } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import * as records from '../records.js';
import type { Uie } from '../uie.js';
import { GRID_ROWS, HBUF_BYTES } from './hbuf.js';
import type { Compute } from './index.js';
import { GridCodes, GridState, H_OPS, KERNEL, PTNS } from './grid.js';
import { I5F3_OP, toOp, ZERO_OP } from './llc.js';
import { seqIdOf } from './seqIds.js';
import { H_PC, H_SLOT, HDR_WORDS, retireHead, type ComputeUnit, noOpFields, opFieldArrays } from './unit.js';

const { SEQ_SPEC } = records;

export const RD_3X3 = 0;
export const RD_FP8 = 1;
export const RD_FP16 = 2;
export const RD_TRANS_FP8 = 3;
export const RD_TRANS_FP16 = 4;

const W_OP = HDR_WORDS;
const W_CMD = HDR_WORDS + 1;
const W_END = HDR_WORDS + 2;
const W_ADDR = HDR_WORDS + 3;
const W_START = HDR_WORDS + 4;
const W_BEND = HDR_WORDS + 5;
const W_SIZE = HDR_WORDS + 6;
const W_FILT = HDR_WORDS + 7;
const W_LOG2F = HDR_WORDS + 8;
const W_DONE = HDR_WORDS + 9;
const WORDS = HDR_WORDS + 10;

const FIELDS = [
  'opcd', 'hbuf_rd_cmd', 'end_grid_row_idx', 'log2_filters_per_row', 'h_staging_filter_iter_id', 'h_staging_done_en',
  'hbuf_block_size', 'hbuf_block_start_en', 'hbuf_block_end_en', 'hbuf_block_iter_mask', 'hbuf_addr_offset',
  'hbuf_stride_dim1', 'hbuf_stride_dim2', 'hbuf_stride_dim3', 'hbuf_stride_iter_id_dim1', 'hbuf_stride_iter_id_dim2',
  'hbuf_stride_iter_id_dim3',
] as const;
type F = Record<(typeof FIELDS)[number], Int32Array>;
const ZERO = ZERO_OP;

export class GhUnit implements ComputeUnit {
  readonly seqId = seqIdOf('gh');
  readonly dec: Fifo;
  readonly grid: GridState;
  private f: F;
  private seq: SeqState | undefined;
  private readonly msgCredits: string;
  private readonly msgFull: string;
  private readonly msgKernel: string;
  /** Bytes of the hbuf block opened by the last block start (0: no block open, reads are not checked). */
  private blockBytes = 0;

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {
    this.grid = new GridState(u.params.grid, cmp.timingOnly);
    this.dec = new Fifo(`${u.name}.gh.dec`, this.grid.p.gh_dec_fifo_depth, WORDS);
    this.f = noOpFields(FIELDS);
    this.msgCredits = 'gh: HBUF_RD_VLD block start waits for hbuf_rd_credits from WDP (seq §10.1.2)';
    this.msgFull = 'gh: h_data FIFO to GX full (seq §10)';
    this.msgKernel = 'gh: 3x3 kernel back buffer full, waiting for GX front_staging_done (seq §10.1 h_staging_done_en)';
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
    if (op !== 1) return;
    d[rec + W_CMD] = f.hbuf_rd_cmd[pc]!;
    d[rec + W_END] = f.end_grid_row_idx[pc]! & 15;
    // seq §10.1.1: each stride * iterator[7:0] keeps 12 bits; hbuf_base is added at issue (tick), it moves with blocks
    const ec = core.execCount;
    const a =
      f.hbuf_addr_offset[pc]! +
      ((f.hbuf_stride_dim1[pc]! * (ec[f.hbuf_stride_iter_id_dim1[pc]! % 6]! & 0xff)) & 0xfff) +
      ((f.hbuf_stride_dim2[pc]! * (ec[f.hbuf_stride_iter_id_dim2[pc]! % 6]! & 0xff)) & 0xfff) +
      ((f.hbuf_stride_dim3[pc]! * (ec[f.hbuf_stride_iter_id_dim3[pc]! % 6]! & 0xff)) & 0xfff);
    d[rec + W_ADDR] = a;
    const m = f.hbuf_block_iter_mask[pc]!;
    d[rec + W_START] = f.hbuf_block_start_en[pc]! && (core.itersEqZero & m) === m ? 1 : 0;
    d[rec + W_BEND] = f.hbuf_block_end_en[pc]! && (core.itersEqNloops & m) === m ? 1 : 0;
    const size = f.hbuf_block_size[pc]!;
    d[rec + W_SIZE] = size;
    if ((d[rec + W_START] || d[rec + W_BEND]) && (size < 1 || size > 256)) {
      this.u.ruleError(GridCodes.blockSize, `GH hbuf_block_size ${size} is outside 1..256 (units of 16 bytes)`, `${SEQ_SPEC} §10.1`, s, pc);
    }
    const fi = f.h_staging_filter_iter_id[pc]! % 6;
    d[rec + W_FILT] = ec[fi]!;
    d[rec + W_LOG2F] = f.log2_filters_per_row[pc]! & 3;
    d[rec + W_DONE] = f.h_staging_done_en[pc]! && ((core.itersEqNloops >>> fi) & 1) === 1 ? 1 : 0;
  }

  tick(now: number): boolean {
    const dec = this.dec;
    if (dec.empty) return false;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP] !== 1) {
      this.retire(r);
      return true;
    }
    const u = this.u;
    const hb = this.cmp.hbuf;
    const st = this.cmp.stats;
    const g = this.grid;
    if (d[r + W_START] === 1 && hb.rdCredits <= 0) {
      st.stallHbufRdCredits++;
      u.blocked ??= this.msgCredits;
      this.checkCreditSource(r);
      return false;
    }
    const cmd = d[r + W_CMD]!;
    const end = d[r + W_END]!;
    if (d[r + W_START] === 1) this.blockBytes = d[r + W_SIZE]! * 16;
    const addr = (hb.rdBase & 0xff0) + d[r + W_ADDR]!;
    const data = hb.data;
    if (cmd === RD_3X3) {
      g.trySwapH(now);
      if (g.hkBackDone) {
        st.stallStaging++;
        u.blocked ??= this.msgKernel;
        return false;
      }
      const off = d[r + W_ADDR]! & (HBUF_BYTES - 1);
      if (this.blockBytes > 0 && off + KERNEL > this.blockBytes) this.straddle(r, off);
      const nf = 1 << d[r + W_LOG2F]!;
      const j = d[r + W_FILT]! & (nf - 1);
      const pp = PTNS / nf; // partitions per filter
      const kb = g.hkBack;
      // (--timing-only: the kernels are GX's arithmetic operands only)
      for (let row = 0; row <= end && !g.timingOnly; row++) {
        const rb = row * HBUF_BYTES;
        const k0 = (row * PTNS + j * pp) * KERNEL;
        for (let t = 0; t < KERNEL; t++) {
          const op = I5F3_OP[data[rb + ((addr + t) & (HBUF_BYTES - 1))]! & 0x1ff]!;
          for (let p = 0; p < pp; p++) kb[k0 + p * KERNEL + t] = op;
        }
      }
      if (d[r + W_DONE] === 1) {
        g.hkBackDone = true;
        g.hkBackSlot = d[r + H_SLOT]!;
        g.hkBackReady = now + g.p.hbuf_read_latency_cycles;
      }
    } else if (cmd <= RD_TRANS_FP16) {
      const e = g.hPushSlot();
      if (e < 0) {
        st.stallStaging++;
        u.blocked ??= this.msgFull;
        return false;
      }
      const h = g.h;
      const wide = cmd === RD_FP16 || cmd === RD_TRANS_FP16;
      const trans = cmd >= RD_TRANS_FP8;
      g.hN[e] = wide ? 4 : 8;
      g.hSlot[e] = d[r + H_SLOT]!;
      g.hReady[e] = now + g.p.hbuf_read_latency_cycles;
      // (--timing-only: the operands are GX's arithmetic inputs only)
      for (let row = 0; row < GRID_ROWS && !g.timingOnly; row++) {
        const o = (e * GRID_ROWS + row) * H_OPS;
        if (row > end) {
          // inactive grid-row: not read, its h_staging is undefined (seq §10.1): modelled as zeros
          for (let k = 0; k < H_OPS; k++) h[o + k] = ZERO;
          continue;
        }
        const rb = row * HBUF_BYTES;
        for (let b = 0; b < 8; b += wide ? 2 : 1) {
          // byte b of the read: transposed reads take bytes 0..3 from bank 0 and 4..7 from bank 1 (same word, offset)
          const a = trans ? ((addr & ~8) + (b & 3) + (b & 4 ? 8 : 0)) : addr + b;
          const lo = data[rb + (a & (HBUF_BYTES - 1))]!;
          if (!wide) h[o + b] = I5F3_OP[lo & 0x1ff]!;
          else h[o + (b >> 1)] = toOp((lo & 0xff) | ((data[rb + ((a + 1) & (HBUF_BYTES - 1))]! & 0xff) << 8));
        }
      }
    } else {
      u.ruleError(GridCodes.readCmd, `GH hbuf_rd_cmd ${cmd} is not a read command`, `${SEQ_SPEC} §10.1`, this.seq, d[r + H_PC]!);
    }
    st.hbufReads += end + 1;
    if (hb.ports) this.notePorts(cmd, addr, end, now);
    if (d[r + W_BEND] === 1) {
      const bytes = d[r + W_SIZE]! * 16;
      hb.rdBase = (hb.rdBase + bytes) % HBUF_BYTES;
      hb.rdCredits -= bytes;
      hb.wrCredits += bytes;
      this.blockBytes = 0;
    }
    this.retire(r);
    return true;
  }

  /** GH waits for credits that no WDP program can deliver: an error, not a hang (seq §10.1.2). */
  private checkCreditSource(r: number): void {
    const u = this.u;
    const wdpSeq = u.seqs[this.cmp.wdp.seqId]!;
    if (wdpSeq.core.running || wdpSeq.qCount > 0 || !this.cmp.wdp.idle || u.trips.active > 1) return;
    u.ruleError(GridCodes.hbufCredits, 'GH waits at an hbuf block start with hbuf_rd_credits = 0 and no WDP program is left to write the Hbufs', `${SEQ_SPEC} §10.1.2`, this.seq, this.dec.data[r + H_PC]!);
    this.cmp.hbuf.rdCredits = HBUF_BYTES; // let the simulation end when diagnostics are collected
  }

  /** Hbuf port check: the words of each active grid-row this read touches (at most one per bank, see the header). */
  private notePorts(cmd: number, addr: number, end: number, now: number): void {
    const ports = this.cmp.hbuf.ports!;
    // RD_3X3: bytes addr .. addr + 8; transposed: the same word in both banks; 1x1: addr .. addr + 7
    const a0 = cmd >= RD_TRANS_FP8 ? addr & ~8 : addr;
    const a1 = cmd === RD_3X3 ? addr + KERNEL - 1 : cmd >= RD_TRANS_FP8 ? addr | 8 : addr + 7;
    const two = a1 >> 3 !== a0 >> 3;
    for (let row = 0; row <= end; row++) {
      ports.note(row, a0 & (HBUF_BYTES - 1), now, 0);
      if (two) ports.note(row, a1 & (HBUF_BYTES - 1), now, 0);
    }
  }

  /** SIM0628: the kernel's bytes off .. off + 8 (from the block base) are not all inside the open block. */
  private straddle(r: number, off: number): void {
    const n = this.blockBytes;
    const what = off < n ? `straddles the end of the hbuf block (${n} bytes): bytes ${n}..${off + KERNEL - 1} are in the next block` : `lies outside the hbuf block (${n} bytes)`;
    this.u.ruleError(GridCodes.kernelStraddle, `GH RD_3X3 kernel at block offset ${off}..${off + KERNEL - 1} ${what}, which GH holds no hbuf_rd_credits for`, `${SEQ_SPEC} §10.1.2, §10.1.1`, this.seq, this.dec.data[r + H_PC]!);
  }

  private retire(_r: number): void {
    retireHead(this.u, this);
  }

  nextEvent(_now: number): number {
    return Infinity;
  }

  get idle(): boolean {
    return this.dec.empty;
  }
}

