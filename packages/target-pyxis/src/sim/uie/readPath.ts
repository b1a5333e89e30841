/**
 * The AMEM Read datapath (chip §6.2.1; seq §5): the head decoder record's access on the AMEM read port (one 128-byte
 * word per cycle, 16-bit data serialized over two cycles, chip §7, §7.3), then RPSW -> 8b->16b conversion with ReLU
 * and EB adjust -> RZSW -> RCSW + column mask, into the switchbox FIFO of `tgt_fifo` (chip §6.2.3). Flits that no
 * switching changes are deferred: the lanes go into the switchbox entry and the consumer converts (bit-identical).
 */
import * as amemGeometry from '../../common/amem.js';
import * as codes from './codes.js';
import * as convert from './convert.js';
import * as addressGen from './addressGen.js';
import * as records from './records.js';
import * as switchbox from './switchbox.js';
import * as switches from './switches.js';
import { PortState } from './portState.js';
import type { SwitchboxFifo } from './switchbox.js';
import type { Uie } from './uie.js';
import { dbl } from '@pyxis/sim';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { AMEM_PARTITIONS, AMEM_VIEW_BIT, amemPhysical } = amemGeometry;
const { RD_CONST, RD_NOP, RD_SRAM_RELU, readsSram, TGT_AMEM, TGT_GRID, TGT_VBUFFER, ZSW_NOP } = codes;
const { is16bit, to16Table } = convert;
const { indirectAddr, checkItfeCount } = addressGen;
const { CHIP_SPEC_F, F_EOP, F_INDIR, F_PAD, F_POP, PTN_MASK, R_ADDR, R_CONST, R_DT, R_EB, R_FIFO, R_FLAGS, R_MASK, R_N, R_OP, R_PC, R_SLOT, R_VIEW, R_ZSW, SEQ_AMEM_READ, SEQ_SPEC, SIGMA_INV, UieCodes, WIDE_PERM_HI, WIDE_PERM_LO } = records;
const { convertLanesTo16, SB_META } = switchbox;
const { applyCsw, applyPsw, applyZsw } = switches;

/** The AMEM Read datapath of one UIE: its port state (portState.ts), the switchbox slot of its last claim, scratch. */
export class ReadPath extends PortState {
  /** Cycles from a read claim to its data in a switchbox FIFO (`Amem.readPipelineCycles`). */
  readonly latency: number;
  /** The switchbox FIFO and slot of the last bank claim's data (`settle`). */
  lastSlot = dbl(-1);
  lastFifo: SwitchboxFifo | undefined;
  /** Bit tgt set once the dropped-flit warning for switchbox target tgt was issued (no string building per flit). */
  private dropWarned = 0;
  // scratch (no per-cycle allocation)
  private readonly lanes = new Uint8Array(256);
  private readonly lanes2 = new Uint8Array(256);
  private readonly lanes32 = new Uint32Array(this.lanes.buffer);
  private readonly lanes2_32 = new Uint32Array(this.lanes2.buffer);
  private readonly cols = new Uint16Array(128);
  private readonly cols2 = new Uint16Array(128);

  constructor(u: Uie, decDepth: number, indexDepth: number) {
    super(u, false, decDepth, indexDepth);
    this.latency = u.amem.readPipelineCycles;
  }

  /**
   * Settles the bank claim of the previous cycle (after `AmemBanks.sync`; amem/banks.ts): a read served s > its issue
   * cycle delivers its data at s + the read pipeline.
   */
  settle(): void {
    const served = this.u.amem.banks.freeAt[this.client]! - 1;
    const f = this.lastFifo;
    if (served > this.lastAt && this.lastSlot >= 0 && f !== undefined && f.readyAt[this.lastSlot]! < served + this.latency) f.readyAt[this.lastSlot] = served + this.latency;
    this.lastAt = -1;
  }

  issue(now: number): boolean {
    const u = this.u;
    const dec = this.dec;
    if (dec.empty || this.held(now)) return false;
    const d = dec.data;
    const at = dec.peekSlot();
    const seq = u.seqs[SEQ_AMEM_READ]!;
    const opcd = d[at + R_OP]!;
    const flags = d[at + R_FLAGS]!;
    const slot = d[at + R_SLOT]!;
    if (opcd !== RD_NOP) {
      const tgt = d[at + R_FIFO]!;
      const out = tgt === TGT_AMEM ? u.sbReadToWrite : tgt === TGT_GRID && u.attachGrid ? u.sbReadToGrid : tgt === TGT_VBUFFER && u.attachVbuffer ? u.sbReadToVbuffer : undefined;
      if (out && out.credits === 0) {
        out.fullStalls++;
        u.stats.datapathStallCycles[0]!++;
        u.blocked ??= u.fifoMsg(out, true);
        return false;
      }
      let addr = d[at + R_ADDR]!;
      const dt = d[at + R_DT]!;
      const wide = is16bit(dt);
      if (readsSram(opcd) && flags & F_INDIR) {
        const r = indirectAddr(u, this.itfe, d, at, seq);
        if (r === -1) return false;
        if (r >= 0) {
          addr = r;
          if (flags & F_POP) this.pops++;
          u.stats.indirectReads++;
        }
      }
      if (wide && addr & 1 && readsSram(opcd))
        u.ruleError(UieCodes.oddPartition16, `16-bit read (data_type ${dt}) at odd partition address 0x${(addr * 16).toString(16)}`, `${SEQ_SPEC} §1.1, §5.2.1; ${CHIP_SPEC_F} §7.3`, seq, d[at + R_PC]!);
      const n = d[at + R_N]!;
      const view = d[at + R_VIEW]! ? AMEM_VIEW_BIT : 0;
      const s0 = addr & 7;
      // the bank claim of this access (chip §7: one access per (partition, bank) per cycle); Read_Const reads nothing
      if (readsSram(opcd)) {
        u.amem.banks.claim(this.client, now, ((addr & PTN_MASK) << 4) | view, wide ? 2 * n : n);
        this.lastAt = now;
        this.lastSlot = -1; // set below when the flit enters a switchbox FIFO
      }
      // RPSW / RCSW configuration held from the last *_config_vld (seq §5.4, §5.5)
      this.holdConfig(d, at, flags, s0);
      const fast = u.fastPaths;
      const sw = this.sw;
      const zsw = d[at + R_ZSW]!;
      const maskIdx = d[at + R_MASK]! & 3;
      // deferred flit: no column switching or masking -> keep the lanes, the consumer converts (bit-identical)
      const direct = fast && out !== undefined && zsw === ZSW_NOP && (this.cswCur < 0 || sw.cswIdentity![this.cswCur] === 1) && !sw.colMaskActive![maskIdx];
      if (direct && readsSram(opcd) && n === AMEM_PARTITIONS && (this.pswCur < 0 || sw.pswIdentity![this.pswCur] === 1)) {
        // fast path: all partitions read, identity RPSW -> AMEM words straight into the switchbox entry's lanes
        const e = out.pushSlot();
        out.readyAt[e] = now + this.latency;
        this.lastSlot = e;
        this.lastFifo = out;
        // --timing-only: the grid's v data are GX's arithmetic operands only (compute/gv.ts): AMEM bookkeeping, no bytes
        if (!wide && s0 === 0 && out === u.sbReadToGrid && u.cmp.timingOnly) u.amem.readWordAt(amemPhysical(((addr & PTN_MASK) << 4) | view), view);
        else this.readLanesInto(addr, view, wide, s0, out.raw32, e * 64);
        u.stats.bytesRead += wide ? 256 : 128;
        const m = e * SB_META;
        out.meta[m] = 1;
        out.meta[m + 1] = dt;
        out.meta[m + 2] = d[at + R_EB]!;
        out.meta[m + 3] = (opcd === RD_SRAM_RELU ? 1 : 0) | (u.convertMode << 1); // bit 0 ReLU, bits 3:1 csr.convert_mode
        u.stats.flitsToAmemWrite += tgt === TGT_AMEM ? 1 : 0;
        if (flags & F_PAD) u.stats.padsInserted++;
        this.portFree = now + (wide ? 2 : 1);
        dec.pop();
        if (flags & F_EOP) this.eop(d, at, slot);
        return true;
      }
      this.fillLanes(opcd, addr, view, n, wide, d[at + R_CONST]!, s0);
      let l2 = this.lanes;
      if (this.pswCur >= 0 && !(fast && sw.pswIdentity![this.pswCur] === 1)) {
        applyPsw(sw, this.pswCur, this.lanes, this.lanes2, wide);
        l2 = this.lanes2;
      }
      // deserialize / promote (chip §6.2.1.4) with ReLU (seq §5.1.1) and EB adjust, as one table lookup per column
      if (out) {
        const slot = out.pushSlot();
        // read pipeline (request shim + bank read + switch/converter): the one stamp every consumer honours (headReadyAt)
        out.readyAt[slot] = now + this.latency;
        this.lastSlot = slot;
        this.lastFifo = out;
        const m = slot * SB_META;
        if (direct) {
          const src32 = l2 === this.lanes ? this.lanes32 : this.lanes2_32;
          const w0 = slot * 64;
          const nw = wide ? 64 : 32;
          for (let w = 0; w < nw; w++) out.raw32[w0 + w] = src32[w]!;
          out.meta[m] = 1;
          out.meta[m + 1] = dt;
          out.meta[m + 2] = d[at + R_EB]!;
          out.meta[m + 3] = (opcd === RD_SRAM_RELU ? 1 : 0) | (u.convertMode << 1); // bit 0 ReLU, bits 3:1 csr.convert_mode
        } else {
          const cols = this.cols;
          convertLanesTo16(to16Table(dt, d[at + R_EB]!, opcd === RD_SRAM_RELU, u.convertMode), l2, 0, wide, cols, 0);
          applyZsw(zsw, cols, this.cols2);
          applyCsw(sw, this.cswCur, maskIdx, cols, this.cols2);
          out.flits.set(cols, slot * 128);
          out.meta[m] = 0;
        }
        if (tgt === TGT_AMEM) u.stats.flitsToAmemWrite++;
      } else {
        u.stats.flitsDropped++;
        if (!((this.dropWarned >> tgt) & 1)) {
          this.dropWarned |= 1 << tgt;
          u.warnOnce(`drop${tgt}`, UieCodes.unmodelled, `AMEM Read sends flits to the ${tgt === TGT_GRID ? 'grid' : 'vbuffer'}, which is not modelled yet; they are counted and dropped`, `${CHIP_SPEC_F} §6.2.3`);
        }
      }
      if (flags & F_PAD) u.stats.padsInserted++;
      // serialized 16-bit data takes the port for two cycles (chip §7.3)
      this.portFree = now + (wide ? 2 : 1);
    }
    dec.pop();
    if (flags & F_EOP) this.eop(d, at, slot);
    return true;
  }

  /** End of an AMEM Read program (its EOPGM instruction left the decoder FIFO): ITFE count rule, sequencer done. */
  private eop(d: Int32Array, at: number, slot: number): void {
    const u = this.u;
    const p = u.trips.slots[slot]!.params;
    checkItfeCount(u, this.itfe, this.pops, u.seqs[SEQ_AMEM_READ]!, d[at + R_PC]!, !!p?.amem_read_indirect_vld);
    u.seqDone(SEQ_AMEM_READ, slot);
  }

  /**
   * `fillReadLanes` for a full Read_SRAM (all 8 logical partitions) written straight into a switchbox
   * entry (out32[w0..w0+64) in lane layout): an aligned 8-bit access is one AMEM word, moved as a block.
   */
  readLanesInto(addr: number, view: number, wide: boolean, s0: number, out32: Uint32Array, w0: number): void {
    const u = this.u;
    const amem = u.amem;
    if (!wide) {
      if (s0 === 0) amem.readWord32(((addr & PTN_MASK) << 4) | view, out32, w0);
      else for (let j = 0; j < 8; j++) amem.readPartition32((((addr + j) & PTN_MASK) << 4) | view, out32, w0 + ((s0 + j) & 7) * 4);
      return;
    }
    if (s0 === 0) {
      // two whole words: memory partition j of the access -> lane chunk WIDE_PERM[j] (cycle (j & 1), lane SIGMA_INV[j >> 1])
      amem.readWordPerm32(((addr & PTN_MASK) << 4) | view, out32, w0, WIDE_PERM_LO);
      amem.readWordPerm32((((addr + 8) & PTN_MASK) << 4) | view, out32, w0, WIDE_PERM_HI);
      return;
    }
    for (let p = 0; p < 8; p++) {
      const lane = (s0 + SIGMA_INV[p]!) & 7;
      amem.readPartition32((((addr + 2 * p) & PTN_MASK) << 4) | view, out32, w0 + lane * 4);
      amem.readPartition32((((addr + 2 * p + 1) & PTN_MASK) << 4) | view, out32, w0 + 32 + lane * 4);
    }
  }

  /**
   * AMEM read port output lanes (chip §7, §7.3.1): 8-bit: memory partition j
   * of the access leaves on lane (s + j) % 8; 16-bit: logical partition p
   * (memory partitions 2p, 2p+1 in cycles 0, 1) leaves on lane
   * (s + SIGMA_INV[p]) % 8. Read_Const fills the same lanes with the constant.
   */
  private fillLanes(opcd: number, addr: number, view: number, n: number, wide: boolean, constV: number, s0: number): void {
    const u = this.u;
    const lanes = this.lanes;
    lanes.fill(0);
    if (!wide) {
      for (let j = 0; j < n; j++) {
        const lane = (s0 + j) & 7;
        if (opcd === RD_CONST) lanes.fill(constV & 0xff, lane * 16, lane * 16 + 16);
        else u.amem.readPartition32((((addr + j) & PTN_MASK) << 4) | view, this.lanes32, lane * 4);
      }
      if (readsSram(opcd)) u.stats.bytesRead += n * 16;
    } else {
      for (let p = 0; p < n; p++) {
        const lane = (s0 + SIGMA_INV[p]!) & 7;
        for (let c = 0; c < 2; c++) {
          const off = c * 128 + lane * 16;
          if (opcd === RD_CONST) for (let b = 0; b < 16; b += 2) {
            lanes[off + b] = constV & 0xff;
            lanes[off + b + 1] = (constV >> 8) & 0xff;
          }
          else u.amem.readPartition32((((addr + 2 * p + c) & PTN_MASK) << 4) | view, this.lanes32, off >> 2);
        }
      }
      if (readsSram(opcd)) u.stats.bytesRead += n * 32;
    }
  }
}
