/**
 * The weights decompressor (WDC, chip §6.2.4.1, §14; seq §7.1 `wdc_type` / `wdc_block_size`) and its two FIFOs:
 *
 *   AMEM Weights Read port --(in FIFO, wdc_in_fifo_depth words)--> decompressor --(wdc_fifo, wdc_fifo_depth)--> WDP
 *
 * In-FIFO entries are 128-byte words in *physical partition-lane order* (partition address p sits in lane p & 7, as
 * the AMEM word arrives; lanes a read with num_ptns < 8 did not fill are zero) plus the metadata of the read:
 * is_16bit, wdc_type, wdc_block_size, ptn_rot (starting partition offset of the read within the 8-partition word),
 * num_ptns, Read_Const value, ReLU (Read_SRAM_with_ReLU). Per `wdc_type` (docs/spec-notes.md):
 *  - 0 Uncompressed: pass-through in 1 cycle (ReLU applied here: NaN stays NaN, negatives become +0, seq §5.1.1);
 *    one wdc_fifo word carrying is_16bit and ptn_rot.
 *  - 1 Codebook: bytes 0-15 captured into the codebook register in 1 cycle; no wdc_fifo word.
 *  - 2 Scaling_Factors: bytes 0-127 captured into the scale register (byte j = block j of the superblock), block
 *    counter reset; 1 cycle; no wdc_fifo word.
 *  - 3 Compressed_Data: 256 4-bit indices (byte i: indices 2i low nibble, 2i+1 high nibble, ld/weights/superblock.ts)
 *    hydrated 128 per cycle (chip §6.2.4.1) into two wdc_fifo words over two cycles: output word h byte m = weight
 *    128h + m = decompressWeight(codebook[idx], scale[block]) (chip §14.1), block = blocks of the superblock before
 *    this word + (128h + m) / B. ptn_rot 0 (compressed words are 128-byte aligned, seq §7.1), is_16bit 0 (LnsI4F3).
 */
import { decompressWeight } from '@pyxis/formats';
import { SEQ_AMEM_WEIGHTS_READ, SEQ_SPEC } from '../records.js';
import type { Uie } from '../uie.js';
import type { Compute } from './index.js';

const CHIP_SPEC = 'pyxis-chip-fspec.md';

/** Diagnostics of the weights path (SIM0620..SIM0627; SIM0628 is the grid's GridCodes.kernelStraddle; docs/uie-model.md). */
export const WeightsCodes = {
  /** hbuf_wr_control / log2_ptns_per_hlane combination not in Table 9-3. */
  wrCombo: 'SIM0620',
  /** More compressed data words than the superblock's 128 blocks (chip §14.2). */
  superblockOverrun: 'SIM0621',
  /** Compressed data before any codebook / scaling-factor word (chip §14.2). */
  noHeader: 'SIM0622',
  /** WR_HBUF is_16bit differs from the word's (Weights Read is_16bit, or 8-bit for decompressed weights). */
  widthMismatch: 'SIM0623',
  /** hbuf_block_size 0 or > 256 with block start/end enabled (seq §9.1). */
  blockSize: 'SIM0624',
  /** A tbuf slot written twice before its tbuf was full (seq §9.1.2). */
  tbufOverwrite: 'SIM0625',
  /** Weights Read words of a trip without a WDP program are dropped. */
  noWdp: 'SIM0626',
  /** Read_SRAM_with_ReLU on a codebook / scaling-factor / compressed word (ReLU ignored). */
  reluCompressed: 'SIM0627',
} as const;

/** wdc_type codepoints (seq §7.1; grammars/pyxis/amem_weights_read_op.json, checked by the grammar tests). */
export const WDC_UNCOMPRESSED = 0;
export const WDC_CODEBOOK = 1;
export const WDC_SCALES = 2;
export const WDC_COMPRESSED = 3;

// in-FIFO metadata words
const I_READY = 0;
const I_16 = 1;
const I_TYPE = 2;
const I_BSIZE = 3;
const I_ROT = 4;
const I_NPTNS = 5;
const I_CONST = 6;
const I_RELU = 7;
const I_SLOT = 8;
const I_PC = 9;
const I_WORDS = 10;
// wdc_fifo metadata words
export const O_READY = 0;
export const O_16 = 1;
export const O_ROT = 2;
export const O_SLOT = 3;
/** 1 when the word came out of the decompressor (LnsI4F3 weights), 0 for pass-through. */
export const O_DECOMP = 4;
const O_WORDS = 5;

export class Wdc {
  // ---- FIFO from the AMEM Weights Read port
  readonly inDepth: number;
  readonly in32: Uint32Array;
  readonly inBytes: Uint8Array;
  readonly inMeta: Int32Array;
  inHead = 0;
  inCount = 0;
  // ---- wdc_fifo (post-decompression), popped by WDP WR_HBUF
  readonly outDepth: number;
  readonly outBytes: Uint8Array;
  /** 32-bit view of `outBytes` (whole-word copies without a `subarray` view per word). */
  private readonly out32: Uint32Array;
  readonly outMeta: Int32Array;
  outHead = 0;
  outCount = 0;
  // ---- decompressor registers (chip §6.2.4.1: codebook buffer and scale-factor buffer)
  readonly codebook = new Uint8Array(16);
  readonly scales = new Uint8Array(128);
  haveCodebook = false;
  haveScales = false;
  /** Blocks of the current superblock already decompressed (reset by a scaling-factor word). */
  block = 0;
  /** Output half (0/1) of the compressed word at the head. */
  private phase = 0;
  /** lut[idx * 256 + scale] = decompressWeight(codebook[idx], scale), rebuilt when a codebook word is captured. */
  private readonly lut = new Uint8Array(16 * 256);
  private readonly latency: number;
  private readonly readLatency: number;
  private fullMsg = '';

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {
    const p = u.params.weights_path;
    this.inDepth = p.wdc_in_fifo_depth;
    this.outDepth = p.wdc_fifo_depth;
    this.latency = p.wdc_latency_cycles;
    this.readLatency = p.amem_read_latency_cycles;
    this.in32 = new Uint32Array(this.inDepth * 32);
    this.inBytes = new Uint8Array(this.in32.buffer);
    this.inMeta = new Int32Array(this.inDepth * I_WORDS);
    this.out32 = new Uint32Array(this.outDepth * 32);
    this.outBytes = new Uint8Array(this.out32.buffer);
    this.outMeta = new Int32Array(this.outDepth * O_WORDS);
    // the reset codebook (all 0x00 = zero) hydrates every index to zero: `lut` starts as zeros
  }

  /** True when the Weights Read port may issue a word this cycle (room in the FIFO to the decompressor, seq §7). */
  canAccept(): boolean {
    return this.inCount < this.inDepth;
  }
  /** Word offset (into `in32`) of the entry the next `commitIn` publishes; the port fills its 32 words first. */
  inTail32(): number {
    return ((this.inHead + this.inCount) % this.inDepth) * 32;
  }
  /** Publishes the tail entry filled through `inTail32` (seq §7.1 metadata; ready after amem_read_latency_cycles). */
  commitIn(now: number, is16: number, type: number, bsize: number, rot: number, nptns: number, constV: number, relu: number, slot: number, pc: number): void {
    const m = ((this.inHead + this.inCount) % this.inDepth) * I_WORDS;
    const d = this.inMeta;
    d[m + I_READY] = now + this.readLatency;
    d[m + I_16] = is16;
    d[m + I_TYPE] = type;
    d[m + I_BSIZE] = bsize;
    d[m + I_ROT] = rot;
    d[m + I_NPTNS] = nptns;
    d[m + I_CONST] = constV;
    d[m + I_RELU] = relu;
    d[m + I_SLOT] = slot;
    d[m + I_PC] = pc;
    this.inCount++;
  }

  /** Index of the entry the next `commitIn` publishes (for `delayIn`). */
  inTailIndex(): number {
    return (this.inHead + this.inCount) % this.inDepth;
  }
  /** Entry `e` of the input FIFO (still queued) arrives `late` cycles later: its bank access was served late. */
  delayIn(e: number, late: number): void {
    this.inMeta[e * I_WORDS + I_READY]! += late;
  }

  /** wdc_fifo head entry index when a word is visible at `now`, else -1 (WDP side). */
  outReady(now: number): number {
    if (this.outCount === 0) return -1;
    return this.outMeta[this.outHead * O_WORDS + O_READY]! <= now ? this.outHead : -1;
  }
  outMetaAt(e: number, w: number): number {
    return this.outMeta[e * O_WORDS + w]!;
  }
  popOut(): void {
    this.outHead = (this.outHead + 1) % this.outDepth;
    this.outCount--;
  }

  private buildLut(): void {
    for (let i = 0; i < 16; i++) for (let s = 0; s < 256; s++) this.lut[i * 256 + s] = decompressWeight(this.codebook[i]!, s);
  }

  private popIn(): void {
    this.inHead = (this.inHead + 1) % this.inDepth;
    this.inCount--;
  }

  /** Reserves the wdc_fifo tail: returns its entry index (caller fills 128 bytes at entry * 128). */
  private pushOut(now: number, is16: number, rot: number, slot: number, decomp: number): number {
    const e = (this.outHead + this.outCount) % this.outDepth;
    const m = e * O_WORDS;
    this.outMeta[m + O_READY] = now + this.latency;
    this.outMeta[m + O_16] = is16;
    this.outMeta[m + O_ROT] = rot;
    this.outMeta[m + O_SLOT] = slot;
    this.outMeta[m + O_DECOMP] = decomp;
    this.outCount++;
    return e;
  }

  private error(code: string, msg: string, spec: string, pc: number): void {
    this.u.ruleError(code, msg, spec, this.u.seqs[SEQ_AMEM_WEIGHTS_READ], pc);
  }

  /** Decompressor step, once per cycle (after the WDP in the tick order, so its output is seen next cycle at the earliest). */
  tick(now: number): boolean {
    if (this.inCount === 0) return false;
    const e = this.inHead;
    const m = e * I_WORDS;
    const meta = this.inMeta;
    if (meta[m + I_READY]! > now) return false;
    const type = meta[m + I_TYPE]!;
    const src = e * 128;
    const inb = this.inBytes;
    const st = this.cmp.stats;
    if (type === WDC_CODEBOOK) {
      for (let i = 0; i < 16; i++) this.codebook[i] = inb[src + i]!;
      this.haveCodebook = true;
      this.buildLut();
      if (meta[m + I_RELU]) this.u.warnOnce('wdcRelu', WeightsCodes.reluCompressed, 'Read_SRAM_with_ReLU on a codebook word: ReLU ignored', `${SEQ_SPEC} §7.1`);
      st.wdcWords++;
      this.popIn();
      return true;
    }
    if (type === WDC_SCALES) {
      for (let i = 0; i < 128; i++) this.scales[i] = inb[src + i]!;
      this.haveScales = true;
      this.block = 0;
      st.wdcWords++;
      this.popIn();
      return true;
    }
    // the remaining types produce a wdc_fifo word this cycle
    if (this.outCount === this.outDepth) {
      st.stallWdcFull++;
      this.u.blocked ??= this.fullMsg ||= `${this.u.name}: weights decompressor waiting for room in wdc_fifo (WDP WR_HBUF)`;
      return false;
    }
    const slot = meta[m + I_SLOT]!;
    if (type === WDC_UNCOMPRESSED) {
      const o = this.pushOut(now, meta[m + I_16]!, meta[m + I_ROT]!, slot, 0) * 128;
      const out = this.outBytes;
      if (meta[m + I_RELU]) {
        // ReLU (seq §5.1.1 on the weights port): (x == NaN) ? NaN : max(x, 0) on sign-magnitude codes
        if (meta[m + I_16]) {
          for (let i = 0; i < 128; i += 2) {
            const lo = inb[src + i]!;
            const hi = inb[src + i + 1]!;
            const neg = hi & 0x80 && ((hi & 0x7f) | lo) !== 0;
            out[o + i] = neg ? 0 : lo;
            out[o + i + 1] = neg ? 0 : hi;
          }
        } else
          for (let i = 0; i < 128; i++) {
            const b = inb[src + i]!;
            out[o + i] = b & 0x80 && b & 0x7f ? 0 : b;
          }
      } else if (!this.cmp.timingOnly) {
        // (--timing-only: WDP writes no Hbuf bytes, wdpDatapath.ts)
        const i32 = this.in32;
        const o32 = this.out32;
        const a = src >> 2;
        const b = o >> 2;
        for (let i = 0; i < 32; i++) o32[b + i] = i32[a + i]!;
      }
      st.wdcWords++;
      st.wdcOutWords++;
      this.popIn();
      return true;
    }
    // WDC_COMPRESSED: half `phase` of the word (128 weights per cycle, chip §6.2.4.1)
    const B = 4 << meta[m + I_BSIZE]!;
    const pc = meta[m + I_PC]!;
    if (this.phase === 0) {
      if (!this.haveCodebook || !this.haveScales)
        this.error(WeightsCodes.noHeader, `compressed weights word before any ${this.haveCodebook ? 'scaling-factor' : 'codebook'} word`, `${CHIP_SPEC} §14.2, §6.2.4.1`, pc);
      if (this.block + 256 / B > 128)
        this.error(WeightsCodes.superblockOverrun, `compressed weights word past the 128 blocks of its superblock (block size ${B}: ${B / 2} data words per scaling-factor word)`, `${CHIP_SPEC} §14.2`, pc);
      if (meta[m + I_RELU]) this.u.warnOnce('wdcRelu', WeightsCodes.reluCompressed, 'Read_SRAM_with_ReLU on compressed weights: ReLU ignored', `${SEQ_SPEC} §7.1`);
    }
    const h = this.phase;
    const o = this.pushOut(now, 0, 0, slot, 1) * 128;
    const out = this.outBytes;
    const lut = this.lut;
    const sc = this.scales;
    const shift = 2 + meta[m + I_BSIZE]!; // log2 B
    const blk0 = this.block + ((128 * h) >>> shift);
    const ib = src + 64 * h;
    for (let i = 0; i < 64; i++) {
      const byte = inb[ib + i]!;
      const w0 = 2 * i;
      const s0 = sc[(blk0 + (w0 >>> shift)) & 127]!;
      const s1 = sc[(blk0 + ((w0 + 1) >>> shift)) & 127]!;
      out[o + w0] = lut[((byte & 15) << 8) | s0]!;
      out[o + w0 + 1] = lut[((byte >>> 4) << 8) | s1]!;
    }
    st.wdcOutWords++;
    if (h === 0) this.phase = 1;
    else {
      this.phase = 0;
      this.block += 256 >>> shift;
      st.wdcWords++;
      st.wdcCompressedWords++;
      this.popIn();
    }
    return true;
  }

  nextEvent(now: number): number {
    let w = Infinity;
    if (this.inCount > 0) {
      const r = this.inMeta[this.inHead * I_WORDS + I_READY]!;
      if (r > now) w = r;
    }
    if (this.outCount > 0) {
      const r = this.outMeta[this.outHead * O_WORDS + O_READY]!;
      if (r > now && r < w) w = r;
    }
    return w;
  }

  get idle(): boolean {
    return this.inCount === 0 && this.outCount === 0;
  }
}
