/**
 * The AMEM Write datapath (chip §6.2.2; seq §6): the head decoder record pops a flit from its `src_fifo` switchbox
 * FIFO, WZSW -> WCSW + column mask -> 16b->8b conversion (FP8 rounding, OCP/IEEE export) -> WPSW, then the AMEM write
 * of the selected columns (partial-partition merge, RMW_Add InMemAdd, chip §7.4) as a posted write that commits
 * `write_commit_latency` cycles later (chip §11.7.2; the trip's tracker counter, seq §6.8).
 */
import * as amemGeometry from '../../common/amem.js';
import * as codes from './codes.js';
import * as convert from './convert.js';
import * as addressGen from './addressGen.js';
import type { SeqState } from './records.js';
import * as records from './records.js';
import type { SwitchboxFifo } from './switchbox.js';
import * as switchbox from './switchbox.js';
import * as switches from './switches.js';
import type { CompositeTable } from './convert.js';
import { PortState } from './portState.js';
import type { Uie } from './uie.js';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { AMEM_BYTES, AMEM_VIEW_BIT, amemBank, amemPhysical } = amemGeometry;
const { SRC_GRID, SRC_VBUFFER, WR_DISCARD, WR_NOP, WR_RMW_ADD, ZSW_NOP } = codes;
const { addCodes, compositeKey, compositeTable, from16Table, is16bit } = convert;
const { checkItfeCount, indirectAddr } = addressGen;
const { CHIP_SPEC_F, F_EOP, F_INDIR, F_POP, PTN_MASK, R_ADDR, R_COLOFF, R_DT, R_EB, R_FIFO, R_FLAGS, R_MASK, R_N, R_OP, R_PC, R_RMW, R_SLOT, R_VIEW, R_ZSW, SEQ_AMEM_WRITE, SEQ_SPEC, SIGMA_INV, UieCodes, WIDE_PERM_HI, WIDE_PERM_LO } = records;
const { headWaiting, SB_META } = switchbox;
const { applyCsw, applyPsw, applyZsw } = switches;


/** 16b->8b converter and FP16 serializer (chip §6.2.2.2, §6.2.2.2.3: lane o cycle 0 = columns 16o..16o+7, LSByte first). */
function convert16ToLanes(tab: Uint16Array, src: Uint16Array, base: number, wide: boolean, lanes: Uint8Array): void {
  if (!wide) {
    for (let c = 0; c < 128; c++) lanes[c] = tab[src[base + c]!]!;
    return;
  }
  for (let o = 0; o < 8; o++) {
    const b0 = o * 16;
    for (let i = 0; i < 8; i++) {
      const v0 = tab[src[base + b0 + i]!]!;
      const v1 = tab[src[base + b0 + 8 + i]!]!;
      lanes[b0 + 2 * i] = v0 & 0xff;
      lanes[b0 + 2 * i + 1] = v0 >> 8;
      lanes[128 + b0 + 2 * i] = v1 & 0xff;
      lanes[128 + b0 + 2 * i + 1] = v1 >> 8;
    }
  }
}

/** The AMEM Write datapath of one UIE: its port state (portState.ts), its last claim's accesses and writes, scratch. */
export class WritePath extends PortState {
  /** The last bank claim (`settle`, with `lastAt`): accesses (2: read-modify-write) and posted writes. */
  lastAcc = 1;
  lastN = 0;
  /** The last composed conversion (read dt/eb/relu x write dt/eb): the hot path does no Map lookup per flit. */
  compKey = -1;
  comp: CompositeTable | undefined;
  // scratch (no per-cycle allocation)
  private readonly lanes = new Uint8Array(256);
  private readonly lanes2 = new Uint8Array(256);
  private readonly lanes32 = new Uint32Array(this.lanes.buffer);
  private readonly lanes2_32 = new Uint32Array(this.lanes2.buffer);
  /** 32-word views of the first 128 lane bytes (whole-word AMEM writes by `set`). */
  private readonly lanesWord = this.lanes32.subarray(0, 32);
  private readonly lanes2Word = this.lanes2_32.subarray(0, 32);
  private readonly cols = new Uint16Array(128);
  private readonly cols2 = new Uint16Array(128);
  private readonly ptnBuf = new Uint8Array(16);
  private readonly rmwBuf = new Uint8Array(16);

  constructor(u: Uie, decDepth: number, indexDepth: number) {
    super(u, true, decDepth, indexDepth);
  }

  /** Settles the bank claim of the previous cycle (amem/banks.ts): a write served late commits that much later (chip §11.7.1). */
  settle(): void {
    const late = this.u.amem.banks.freeAt[this.client]! - this.lastAcc - this.lastAt;
    if (late > 0) this.u.commits.delayNewest(this.lastN, late);
    this.lastAt = -1;
  }

  issue(now: number): boolean {
    const u = this.u;
    const dec = this.dec;
    if (dec.empty || this.held(now)) return false;
    const d = dec.data;
    const at = dec.peekSlot();
    const seq = u.seqs[SEQ_AMEM_WRITE]!;
    const opcd = d[at + R_OP]!;
    const flags = d[at + R_FLAGS]!;
    const slot = d[at + R_SLOT]!;
    if (opcd !== WR_NOP) {
      const src = d[at + R_FIFO]!;
      const fifo = src === SRC_GRID ? u.sbGridToWrite : src === SRC_VBUFFER ? u.sbVbufferToWrite : u.sbReadToWrite;
      if (fifo.empty) {
        u.stats.datapathStallCycles[1]!++;
        u.blocked ??= u.fifoMsg(fifo, false);
        return false;
      }
      // read pipeline (request shim + bank read + switch/converter, docs/timing-model.md): the head's data not there yet
      if (headWaiting(fifo, now, u)) return false;
      if (opcd === WR_DISCARD) {
        fifo.pop();
        u.stats.discards++;
      } else {
        let addr = d[at + R_ADDR]!;
        if (flags & F_INDIR) {
          const r = indirectAddr(u, this.itfe, d, at, seq);
          if (r === -1) return false;
          if (r >= 0) {
            addr = r;
            if (flags & F_POP) this.pops++;
            u.stats.indirectWrites++;
          }
        }
        const acc = this.claim(opcd, addr, d, at, now);
        this.lastAt = now;
        this.lastAcc = acc;
        const wide = this.write(opcd, addr, d, at, seq, fifo);
        fifo.pop();
        // 16-bit data takes two cycles (chip §7.3); a read-modify-write reads before it writes (chip §7.4: x2)
        this.portFree = now + (wide ? 2 : 1) * acc;
        u.commits.post(slot, now, wide ? 2 : 1);
        this.lastN = wide ? 2 : 1;
      }
    }
    dec.pop();
    if (flags & F_EOP) {
      const p = u.trips.slots[slot]!.params;
      checkItfeCount(u, this.itfe, this.pops, seq, d[at + R_PC]!, !!p?.amem_write_indirect_vld);
      u.seqDone(SEQ_AMEM_WRITE, slot);
    }
    return true;
  }

  /**
   * The bank claim of a write (amem/banks.ts): the partitions holding bytes [lo, hi) of the access (seq §6.4); RMW_Add
   * and partial writes (bytes of a partition left unwritten, merged after a read, chip §7.4) access them twice.
   * Returns the number of accesses (1 or 2).
   */
  private claim(opcd: number, addr: number, d: Int32Array, at: number, now: number): number {
    const u = this.u;
    const bps = is16bit(d[at + R_DT]!) ? 2 : 1;
    const colOff = d[at + R_COLOFF]!;
    const lo = colOff * bps;
    const hi = (colOff + Math.min(d[at + R_N]!, 128 - colOff)) * bps;
    if (hi <= lo) return 1;
    const p0 = lo >> 4;
    const acc = opcd === WR_RMW_ADD || (lo & 15) !== 0 || (hi & 15) !== 0 ? 2 : 1;
    u.amem.banks.claim(this.client, now, (((addr + p0) & PTN_MASK) << 4) | (d[at + R_VIEW]! ? AMEM_VIEW_BIT : 0), ((hi + 15) >> 4) - p0, acc);
    return acc;
  }

  /** Executes Write / RMW_Add of the head flit (seq §6, chip §6.2.2, §7.4). Returns true for 16-bit. */
  private write(opcd: number, addr: number, d: Int32Array, at: number, seq: SeqState, sb: SwitchboxFifo): boolean {
    const u = this.u;
    const dt = d[at + R_DT]!;
    const wide = is16bit(dt);
    const pc = d[at + R_PC]!;
    const slot = sb.peekSlot();
    const colOff = d[at + R_COLOFF]!;
    const nCols = d[at + R_N]!;
    if (wide && addr & 1)
      u.ruleError(UieCodes.oddPartition16, `16-bit write (data_type ${dt}) at odd partition address 0x${(addr * 16).toString(16)}`, `${SEQ_SPEC} §1.1, §6.1; ${CHIP_SPEC_F} §7.3`, seq, pc);
    if (colOff + nCols > 128) u.ruleError(UieCodes.colRange, `logical_col_offset ${colOff} + num_logical_cols ${nCols} > 128`, `${SEQ_SPEC} §6.4`, seq, pc);
    const flags = d[at + R_FLAGS]!;
    const s0 = addr & 7;
    this.holdConfig(d, at, flags, s0);
    const fast = u.fastPaths;
    const sw = this.sw;
    // WZSW -> WCSW + mask (on 16-bit columns), then 16b->8b (chip §6.2.2.2)
    const zsw = d[at + R_ZSW]!;
    const maskIdx = d[at + R_MASK]! & 3;
    const lanes = this.lanes;
    const m = slot * SB_META;
    const raw = sb.meta[m] === 1;
    const switching = zsw !== ZSW_NOP || (this.cswCur >= 0 && !(fast && sw.cswIdentity![this.cswCur] === 1)) || sw.colMaskActive![maskIdx] === 1;
    const pswApplied = this.pswCur >= 0 && !(fast && sw.pswIdentity![this.pswCur] === 1);
    // the written lane bytes: src8[base8 ..] (= src32[base8/4 ..]); the switchbox entry itself when nothing changes them
    let src8: Uint8Array = lanes;
    let src32: Uint32Array = this.lanes32;
    let base8 = 0;
    if (raw && !switching && is16bit(sb.meta[m + 1]!) === wide) {
      // both conversions as one composed table (identity: the bytes move unchanged)
      const key = compositeKey(sb.meta[m + 1]!, sb.meta[m + 2]!, (sb.meta[m + 3]! & 1) === 1, dt, d[at + R_EB]!, sb.meta[m + 3]! >> 1, u.convertMode);
      if (key !== this.compKey) {
        this.comp = compositeTable(sb.meta[m + 1]!, sb.meta[m + 2]!, (sb.meta[m + 3]! & 1) === 1, dt, d[at + R_EB]!, sb.meta[m + 3]! >> 1, u.convertMode);
        this.compKey = key;
      }
      const comp = this.comp!;
      if (comp.identity) {
        src8 = sb.raw;
        src32 = sb.raw32;
        base8 = slot * 256;
      } else {
        const t = comp.table;
        const rb = slot * 256;
        const r = sb.raw;
        if (!wide) for (let c = 0; c < 128; c++) lanes[c] = t[r[rb + c]!]!;
        else
          for (let b = 0; b < 256; b += 2) {
            const v = t[r[rb + b]! | (r[rb + b + 1]! << 8)]!;
            lanes[b] = v & 0xff;
            lanes[b + 1] = v >> 8;
          }
      }
    } else {
      let src = sb.flits;
      let base = slot * 128;
      if (raw || switching) {
        sb.headColumns(this.cols, 0);
        src = this.cols;
        base = 0;
      }
      if (switching) {
        applyZsw(zsw, this.cols, this.cols2);
        applyCsw(sw, this.cswCur, maskIdx, this.cols, this.cols2);
      }
      convert16ToLanes(from16Table(dt, d[at + R_EB]!, u.convertMode), src, base, wide, lanes);
    }
    if (pswApplied) {
      if (src8 !== lanes) for (let w = 0; w < (wide ? 64 : 32); w++) this.lanes32[w] = src32[(base8 >> 2) + w]!;
      applyPsw(sw, this.pswCur, lanes, this.lanes2, wide);
      src8 = this.lanes2;
      src32 = this.lanes2_32;
      base8 = 0;
    }
    // AMEM placement: the inverse of the read lanes; bytes [lo, hi) of the access are written (seq §6.4)
    const bps = wide ? 2 : 1;
    const lo = colOff * bps;
    const hi = (colOff + Math.min(nCols, 128 - colOff)) * bps;
    const view = d[at + R_VIEW]! ? AMEM_VIEW_BIT : 0;
    const rmw = opcd === WR_RMW_ADD;
    if (fast && !rmw && s0 === 0 && lo === 0 && hi === 128 * bps) {
      // whole aligned AMEM words: block moves (8-bit: lane order = memory order; 16-bit: the inverse swizzle per partition)
      if (!wide) u.amem.writeWordView(((addr & PTN_MASK) << 4) | view, src8 === lanes ? this.lanesWord : src8 === this.lanes2 ? this.lanes2Word : sb.rawWordView[slot]!);
      else {
        u.amem.writeWordPerm32(((addr & PTN_MASK) << 4) | view, src32, base8 >> 2, WIDE_PERM_LO);
        u.amem.writeWordPerm32((((addr + 8) & PTN_MASK) << 4) | view, src32, base8 >> 2, WIDE_PERM_HI);
      }
      u.stats.bytesWritten += 128 * bps;
      return wide;
    }
    const rmwOff = d[at + R_RMW]!;
    let partial = false;
    for (let j = lo >> 4; j < (hi + 15) >> 4; j++) {
      let off: number;
      if (!wide) off = base8 + ((s0 + j) & 7) * 16;
      else off = base8 + (j & 1) * 128 + ((s0 + SIGMA_INV[j >> 1]!) & 7) * 16;
      const pLo = Math.max(lo - j * 16, 0);
      const pHi = Math.min(hi - j * 16, 16);
      const mask = pLo === 0 && pHi === 16 ? 0xffff : ((1 << pHi) - 1) & ~((1 << pLo) - 1);
      if (mask !== 0xffff || rmw) {
        // partial writes and InMemAdd are read-modify-writes, not atomic across UIEs (chip §7.4.2): race-checked
        if (mask !== 0xffff) partial = true;
        u.onPartialWrite?.(((((addr + j) & PTN_MASK) << 4) | view) >>> 0, u.trips.slots[d[at + R_SLOT]!]!.tripId, u.now, rmw);
      }
      const wAddr = (((addr + j) & PTN_MASK) << 4) | view;
      if (rmw) {
        // InMemAdd (seq §6.2.1): read at the write address + rmw_rd_addr_offset in [25:14]
        const rAddr = ((((wAddr >>> 14) + rmwOff) & 0xfff) << 14) | (wAddr & 0x3fff) | view;
        this.checkRmwBank(wAddr, rAddr, seq, pc);
        u.amem.readPartition(rAddr, this.rmwBuf, 0);
        const buf = this.ptnBuf;
        if (!wide) for (let b = 0; b < 16; b++) buf[b] = addCodes(this.rmwBuf[b]!, src8[off + b]!, dt, u.convertMode);
        else
          for (let b = 0; b < 16; b += 2) {
            const v = addCodes(this.rmwBuf[b]! | (this.rmwBuf[b + 1]! << 8), src8[off + b]! | (src8[off + b + 1]! << 8), dt, u.convertMode);
            buf[b] = v & 0xff;
            buf[b + 1] = v >> 8;
          }
        // merge happens after the add (chip §7.4, Figure 7-1): unmasked bytes keep the destination's memory value
        u.amem.writePartition(wAddr, buf, 0, mask);
      } else if (mask === 0xffff) u.amem.writePartition32(wAddr, src32, off >> 2);
      else u.amem.writePartition(wAddr, src8, off, mask);
      u.stats.bytesWritten += pHi - pLo;
    }
    if (rmw) u.stats.rmwAdds++;
    if (partial) u.stats.partialWrites++;
    return wide;
  }

  private checkRmwBank(wAddr: number, rAddr: number, seq: SeqState, pc: number): void {
    const u = this.u;
    if (wAddr === rAddr) return;
    const wb = amemBank(amemPhysical(wAddr));
    const rb = amemBank(amemPhysical(rAddr));
    if (wb !== rb)
      u.ruleError(
        UieCodes.rmwBank,
        `RMW_Add reads bank ${rb} (0x${(rAddr & (AMEM_BYTES - 1)).toString(16)}) but writes bank ${wb} (0x${(wAddr & (AMEM_BYTES - 1)).toString(16)}); read and write must be in the same AMEM bank — use the unhashed view or a 2 MiB-multiple offset`,
        `${SEQ_SPEC} §6.5.1; ${CHIP_SPEC_F} §7.4.1`,
        seq,
        pc,
      );
  }
}
