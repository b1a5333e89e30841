/**
 * The AMEM Weights Read sequencer's port (seq §7): address calculation of §7.2 (no indirection), post-final ->
 * Read_Const(0) (§7.3), alignment rules of §1.1 / §7.1. Each executed Read_SRAM / Read_SRAM_with_ReLU / Read_Const
 * pushes one 128-byte word with its metadata into the FIFO to the weights decompressor (compute/wdc.ts); Nop pushes
 * nothing. Every AMEM access of the weights port happens in `weightsRead`: a bank claim of client `u.wt.client`
 * (amem/banks.ts); while a claim served late holds the port the sequencer stalls (sequencing.ts).
 */
import * as amemGeometry from '../../common/amem.js';
import * as codes from './codes.js';
import { SEQ_WDP } from './compute/seqIds.js';
import { WeightsCodes } from './compute/wdc.js';
import type { WeightsFieldArrays } from './opFields.js';
import type { SeqState } from './records.js';
import * as records from './records.js';
import { NUM_ITERS } from './sequencerCore.js';
import type { OpStore } from './tables.js';
import type { Uie } from './uie.js';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { AMEM_VIEW_BIT, amemPhysical } = amemGeometry;
const { WT_SRAM, WT_SRAM_RELU, WT_UNCOMPRESSED } = codes;
const { PTN_MASK, SEQ_SPEC, UieCodes } = records;

// op fields the bound WeightsFieldArrays (opFields.ts) does not carry, looked up once per OpStore
let boundOp: OpStore | undefined;
let fConst: Int32Array = new Int32Array(0);
let fBsize: Int32Array = new Int32Array(0);

/**
 * AMEM Weights Read (seq §7), one executed instruction: §7.2 address, §1.1 / §7.1 alignment checks, the AMEM read
 * (partition address p lands in lane p & 7 of the word, the physical order the weights switch un-rotates with
 * wsw_ptn_rot_en, seq §9.1.1) and the push into the decompressor FIFO. Read_Const fills the lanes a read would
 * fill with rd_const_value (low byte for 8-bit data, little-endian pairs for 16-bit). Post-final instructions with a
 * non-Nop opcode become Read_Const(0) (§7.3). The caller checked `cmp.wdc.canAccept()`.
 */
export function weightsRead(u: Uie, s: SeqState, f: WeightsFieldArrays): void {
  const core = s.core;
  const pc = core.execPc;
  let op = f.opcd[pc]!;
  if (op === 0) return; // Nop (seq §7.1)
  const opStore = s.op!;
  if (opStore !== boundOp) {
    boundOp = opStore;
    fConst = opStore.field('rd_const_value');
    fBsize = opStore.field('wdc_block_size');
  }
  let constV = fConst[pc]!;
  if (core.postFinal) {
    op = -1; // Read_Const(0), seq §7.3
    constV = 0;
    u.cmp.stats.weightsPads++;
  }
  const sram = op === WT_SRAM || op === WT_SRAM_RELU;
  let a = s.base + f.amem_addr_offset[pc]!;
  for (let i = 0; i < NUM_ITERS; i++) a += (core.execCount[i]! & 0xfff) * (f.iter_stride[pc * NUM_ITERS + i]! & 0xffff);
  a &= PTN_MASK;
  const type = f.wdc_type[pc]!;
  const is16 = f.is_16bit[pc]!;
  if (sram) {
    if (type !== WT_UNCOMPRESSED && a & 7)
      u.ruleError(UieCodes.weightsAlign, `compressed-weights read (wdc_type ${type}) at 0x${(a * 16).toString(16)} is not 128-byte aligned`, `${SEQ_SPEC} §1.1, §7.1`, s, pc);
    else if (is16 && a & 1)
      u.ruleError(UieCodes.oddPartition16, `16-bit weights read at odd partition address 0x${(a * 16).toString(16)}`, `${SEQ_SPEC} §1.1, §7.1`, s, pc);
  }
  const n = f.num_ptns[pc]!;
  const wdc = u.cmp.wdc;
  // a trip without a WDP program has no consumer for the word: drop it (docs/spec-notes.md)
  const params = u.trips.slots[s.slot]?.params;
  if (params && !(params.trip_valid_mask & (1 << SEQ_WDP))) {
    u.warnOnce('noWdp', WeightsCodes.noWdp, 'AMEM Weights Read in a trip without a WDP program: its words are dropped', `${SEQ_SPEC} §7, §9`);
    if (sram) {
      readWords(u, s, a, n, undefined, 0);
      u.wt.lastEntry = -1;
    }
    return;
  }
  u.wt.lastEntry = wdc.inTailIndex();
  const w = wdc.inTail32();
  const d = wdc.in32;
  // --timing-only: an uncompressed word's bytes reach nothing that decides timing (the decompressor's output of it,
  // ReLU applied or not, is read by nobody: the WDP writes no Hbuf bytes, wdpDatapath.ts), so only its AMEM
  // bookkeeping is done; compressed words keep their bytes (their masks decide the decompressor's cycles, compute/wdc.ts)
  if (sram && type === WT_UNCOMPRESSED && u.cmp.timingOnly) readWords(u, s, a, n, undefined, -1);
  else if (sram) {
    for (let i = 0; i < 32; i++) d[w + i] = 0;
    readWords(u, s, a, n, d, w);
  } else {
    for (let i = 0; i < 32; i++) d[w + i] = 0;
    const c = is16 ? (constV & 0xffff) * 0x10001 : (constV & 0xff) * 0x1010101;
    for (let j = 0; j < n; j++) {
      const l = w + ((a + j) & 7) * 4;
      d[l] = d[l + 1] = d[l + 2] = d[l + 3] = c >>> 0;
    }
  }
  wdc.commitIn(u.now, is16, type, fBsize[pc]!, a & 7, n, constV, op === WT_SRAM_RELU ? 1 : 0, s.slot, pc);
}

/**
 * The AMEM accesses of one Weights Read: partitions a .. a+n-1 into lanes (a+j) & 7 of `dst` (or nowhere); `w` = -1:
 * the bookkeeping only (banks, view rule, statistics: `Amem.readWordAt`), no bytes moved (--timing-only).
 */
function readWords(u: Uie, s: SeqState, a: number, n: number, dst: Uint32Array | undefined, w: number): void {
  const view = s.view ? AMEM_VIEW_BIT : 0;
  // the bank claim (amem/banks.ts): the caller checked that the port is not held (sequencing.ts); served late, the
  // word reaches the decompressor that much later (`WeightsPort.settle`)
  u.amem.banks.claim(u.wt.client, u.now, (a << 4) | view, n);
  u.wt.lastAt = u.now;
  const out = dst ?? u.wt.scratch;
  if (w < 0 && n === 8 && (a & 7) === 0) u.amem.readWordAt(amemPhysical((a << 4) | view), view);
  else if (n === 8 && (a & 7) === 0) {
    // one aligned whole word: the same bytes and statistics as the 8 partition reads (Amem.readWord32), one block move
    u.amem.readWord32((a << 4) | view, out, w);
  } else for (let j = 0; j < n; j++) {
    const p = (a + j) & PTN_MASK;
    u.amem.readPartition32((p << 4) | view, out, (w < 0 ? 0 : w) + (p & 7) * 4);
  }
  u.stats.bytesRead += n * 16;
  u.stats.weightsBytesRead += n * 16;
}

/** The AMEM Weights Read port of one UIE (seq §7): its bank client and its last claim. */
export class WeightsPort {
  /** The last claim: cycle (-1 none) and its entry in the decompressor input FIFO (-1: a dropped word). */
  lastAt = -1;
  lastEntry = -1;
  /** Scratch for words nobody consumes (a trip without a WDP program). */
  readonly scratch = new Uint32Array(32);
  constructor(
    /** AMEM bank client of the port (amem/clients.ts `uieClient`). */
    readonly client: number,
  ) {}

  /** Settles the claim of the previous cycle (amem/banks.ts): a word served late reaches the decompressor that much later. */
  settle(u: Uie): void {
    const late = u.amem.banks.freeAt[this.client]! - 1 - this.lastAt;
    if (late > 0 && this.lastEntry >= 0) u.cmp.wdc.delayIn(this.lastEntry, late);
    this.lastAt = -1;
  }
}
