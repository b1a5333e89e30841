/**
 * Per-cluster Accelerator Memory (pyxis-chip-fspec.md §7): 512K words x 128 B
 * = 64 MiB, 8 partitions of 16 B per word, 128 banks per partition, 4K words
 * per bank. Addresses are byte addresses [25:0] plus the "view" bit [26]
 * (§7.1: 0 = bank hashing enabled, 1 = disabled).
 *
 * Storage is by *physical* location (bank index after hashing, §7.5), so the
 * hashed and unhashed views of one address reach different bytes exactly as
 * in hardware. Backing store is allocated lazily per 16 KiB block (one block
 * = one word-in-bank row across all 128 banks; hashing never leaves a block).
 */

import { AmemBanks, CLIENT_CONTROL, type AmemTiming } from './banks.js';
import { dbl } from '@pyxis/sim';
import { AMEM_BANKS, AMEM_BLOCK_BYTES, AMEM_BYTES, AMEM_PARTITION_BYTES, AMEM_PARTITIONS, AMEM_VIEW_BIT, AMEM_WORD_BYTES, amemBank, amemPhysical } from '../../common/amem.js';

export { AMEM_BANKS, AMEM_BLOCK_BYTES, AMEM_BYTES, AMEM_PARTITION_BYTES, AMEM_PARTITIONS, AMEM_VIEW_BIT, AMEM_WORD_BYTES, amemBank, amemPhysical } from '../../common/amem.js';

const BLOCKS = AMEM_BYTES / AMEM_BLOCK_BYTES;
const ADDR_MASK = AMEM_BYTES - 1;

export interface AmemStats {
  /** Bytes read/written through `read*`/`write*` (all clients). */
  bytesRead: number;
  bytesWritten: number;
  /** Reads that touched never-written 16 KiB blocks (they read as zero). */
  uninitReads: number;
  /** Accesses to a 16 KiB block through the other view than its first access (chip §7.5 rule). */
  viewConflicts: number;
  /** Per-bank access counts (partition accesses), index = bank. */
  readonly bankAccesses: Uint32Array;
}

/** 16 KiB blocks per backing allocation (`Amem.block`). */
const SLAB_BLOCKS = 16;

export class Amem {
  private readonly blocks: Array<Uint8Array | undefined> = new Array(BLOCKS);
  /** 32-bit views of `blocks` (same buffers) for the UIE's word-wide partition copies. */
  private readonly blocks32: Array<Uint32Array | undefined> = new Array(BLOCKS);
  /**
   * Per 16 KiB block: 1 when it was written with zeros only and has no storage yet (`touchZero`): it exists (its reads
   * are not uninitialised) and reads as zeros; a write of data gives it storage (zero-filled) as for a new block.
   */
  private readonly zeroMade = new Uint8Array(BLOCKS);
  /** Per 16 KiB block: -1 never accessed, else the view bit (0/1) of the first access. */
  private readonly blockView = new Int8Array(BLOCKS).fill(-1);
  /** The slab new blocks are carved from (`block`) and the blocks of it handed out. */
  private slab: ArrayBuffer | undefined;
  private slabUsed = SLAB_BLOCKS;
  readonly stats: AmemStats = { bytesRead: 0, bytesWritten: 0, uninitReads: 0, viewConflicts: 0, bankAccesses: new Uint32Array(AMEM_BANKS) };
  /** First view conflict seen (message for diagnostics), if any. */
  firstViewConflict: string | undefined;
  /** Check the one-view-per-16K-block rule (chip §7.5). */
  checkViews = true;

  /** Bank arbitration of this AMEM's clients (chip §7; banks.ts): the one claim API is `banks.claim`. */
  readonly banks = new AmemBanks();
  /**
   * Cycles from a UIE read claim to its data entering the switchbox FIFO: request shim + bank read latency +
   * switch/converter pipeline (sim_config.json `amem`, docs/timing-model.md). 0 = the idealised datapath (unit tests).
   */
  readPipelineCycles = 0;

  /**
   * `timing`: the sim_config.json `amem` parameters (read pipeline); `clock`: the kernel (its `now`), so that the
   * control-plane accessors (`readBytes` / `writeBytes`: DMA, MPE, DPE) claim banks at the current cycle.
   */
  constructor(
    readonly name = 'amem',
    timing?: AmemTiming,
    clock?: { readonly now: number },
  ) {
    if (timing) this.readPipelineCycles = (timing.request_shim_cycles ?? 0) + (timing.read_latency_cycles ?? 0) + (timing.switch_convert_cycles ?? 0);
    this.banks.clock = clock;
  }

  /** Number of 16 KiB blocks materialised so far. */
  get allocatedBlocks(): number {
    let n = 0;
    for (let i = 0; i < BLOCKS; i++) if (this.blocks[i] || this.zeroMade[i] === 1) n++;
    return n;
  }

  private noteView(addr: number, accesses = 1): void {
    if (!this.checkViews) return;
    const blk = (addr & ADDR_MASK) >>> 14;
    const v = addr & AMEM_VIEW_BIT ? 1 : 0;
    const prev = this.blockView[blk]!;
    if (prev < 0) this.blockView[blk] = v;
    else if (prev !== v) {
      this.stats.viewConflicts += accesses;
      this.firstViewConflict ??= `16 KiB block at 0x${(blk << 14).toString(16)} accessed through both the hashed and the unhashed view (chip §7.5)`;
    }
  }

  /** Materialises the 16 KiB block holding `phys` (kept out of the hot write paths). */
  private newBlock32(phys: number): Uint32Array {
    this.block(phys, true);
    return this.blocks32[phys >>> 14]!;
  }

  private block(phys: number, create: boolean): Uint8Array | undefined {
    const i = phys >>> 14;
    let b = this.blocks[i];
    if (!b && create) {
      // blocks are carved from slabs of SLAB_BLOCKS (one ArrayBuffer, zero-filled, per slab: far fewer backing-store
      // allocations and GC work than one per block; at most SLAB_BLOCKS - 1 blocks allocated ahead of use)
      if (this.slabUsed === SLAB_BLOCKS) {
        this.slab = new ArrayBuffer(SLAB_BLOCKS * AMEM_BLOCK_BYTES);
        this.slabUsed = 0;
      }
      const off = this.slabUsed++ * AMEM_BLOCK_BYTES;
      b = new Uint8Array(this.slab!, off, AMEM_BLOCK_BYTES);
      this.blocks[i] = b;
      this.blocks32[i] = new Uint32Array(this.slab!, off, AMEM_BLOCK_BYTES >> 2);
    }
    return b;
  }

  /** Reads one 16-byte partition at byte address `addr` (must be 16-aligned; view bit honoured) into out[off..off+16). */
  readPartition(addr: number, out: Uint8Array, off: number): void {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]!++;
    this.stats.bytesRead += 16;
    const b = this.block(phys, false);
    if (!b) {
      if (this.zeroMade[phys >>> 14] === 0) this.stats.uninitReads++;
      out.fill(0, off, off + 16);
      return;
    }
    const o = phys & (AMEM_BLOCK_BYTES - 1);
    for (let i = 0; i < 16; i++) out[off + i] = b[o + i]!;
  }

  /**
   * `readPartition` into a 32-bit view: partition at `addr` -> out32[w..w+4)
   * (the UIE datapath's lanes are 16-byte aligned, so partitions move as 4 words).
   */
  readPartition32(addr: number, out32: Uint32Array, w: number): void {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]!++;
    this.stats.bytesRead += 16;
    const b = this.blocks32[phys >>> 14];
    if (!b) {
      if (this.zeroMade[phys >>> 14] === 0) this.stats.uninitReads++;
      out32[w] = out32[w + 1] = out32[w + 2] = out32[w + 3] = 0;
      return;
    }
    const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
    out32[w] = b[o]!;
    out32[w + 1] = b[o + 1]!;
    out32[w + 2] = b[o + 2]!;
    out32[w + 3] = b[o + 3]!;
  }

  /**
   * Reads one whole 128-byte AMEM word (8 partitions, `addr` 128-aligned, view bit honoured) into
   * out32[w..w+32): the same bytes and statistics as 8 `readPartition32` calls (one word is one bank
   * row across the 8 partitions and stays contiguous under hashing, chip §7.5), as one block move.
   */
  readWord32(addr: number, out32: Uint32Array, w: number): void {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)]! += AMEM_PARTITIONS;
    this.stats.bytesRead += AMEM_WORD_BYTES;
    const b = this.blocks32[phys >>> 14];
    if (!b) {
      if (this.zeroMade[phys >>> 14] === 0) this.stats.uninitReads += AMEM_PARTITIONS;
      // zeros (a plain loop: TypedArray fill with a range is a slow builtin call for 32 words)
      for (let i = 0; i < 32; i += 4) out32[w + i] = out32[w + i + 1] = out32[w + i + 2] = out32[w + i + 3] = 0;
      return;
    }
    const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
    // unrolled by partition (4 words): measurably faster than the plain 32-step loop in V8
    for (let i = 0; i < 32; i += 4) {
      out32[w + i] = b[o + i]!;
      out32[w + i + 1] = b[o + i + 1]!;
      out32[w + i + 2] = b[o + i + 2]!;
      out32[w + i + 3] = b[o + i + 3]!;
    }
  }

  /** Writes one whole 128-byte word from src32[w..w+32) (as 8 `writePartition32` calls, one block move). */
  writeWord32(addr: number, src32: Uint32Array, w: number): void {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)]! += AMEM_PARTITIONS;
    const b = this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
    const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
    for (let i = 0; i < 32; i += 4) {
      b[o + i] = src32[w + i]!;
      b[o + i + 1] = src32[w + i + 1]!;
      b[o + i + 2] = src32[w + i + 2]!;
      b[o + i + 3] = src32[w + i + 3]!;
    }
    this.stats.bytesWritten += AMEM_WORD_BYTES;
  }

  /**
   * Reads one whole 128-byte word, partition j going to out32[w + 4*perm[j] ..+4) (the lane permutation of a
   * serialised 16-bit access, chip §7.3.1): the same bytes and statistics as 8 `readPartition32` calls.
   */
  readWordPerm32(addr: number, out32: Uint32Array, w: number, perm: ArrayLike<number>): void {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)]! += AMEM_PARTITIONS;
    this.stats.bytesRead += AMEM_WORD_BYTES;
    const b = this.blocks32[phys >>> 14];
    if (!b) {
      if (this.zeroMade[phys >>> 14] === 0) this.stats.uninitReads += AMEM_PARTITIONS;
      for (let j = 0; j < 8; j++) {
        const d = w + perm[j]! * 4;
        out32[d] = out32[d + 1] = out32[d + 2] = out32[d + 3] = 0;
      }
      return;
    }
    const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
    for (let j = 0; j < 8; j++) {
      const d = w + perm[j]! * 4;
      const s = o + j * 4;
      out32[d] = b[s]!;
      out32[d + 1] = b[s + 1]!;
      out32[d + 2] = b[s + 2]!;
      out32[d + 3] = b[s + 3]!;
    }
  }

  /** Writes one whole word, partition j from src32[w + 4*perm[j] ..+4) (as 8 `writePartition32` calls). */
  writeWordPerm32(addr: number, src32: Uint32Array, w: number, perm: ArrayLike<number>): void {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)]! += AMEM_PARTITIONS;
    const b = this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
    const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
    for (let j = 0; j < 8; j++) {
      const sr = w + perm[j]! * 4;
      const d = o + j * 4;
      b[d] = src32[sr]!;
      b[d + 1] = src32[sr + 1]!;
      b[d + 2] = src32[sr + 2]!;
      b[d + 3] = src32[sr + 3]!;
    }
    this.stats.bytesWritten += AMEM_WORD_BYTES;
  }

  /** `writeWord32` from a 32-word view (`src32w.length === 32`): the copy is one typed-array `set` (a memcpy). */
  writeWordView(addr: number, src32w: Uint32Array): void {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)]! += AMEM_PARTITIONS;
    (this.blocks32[phys >>> 14] ?? this.newBlock32(phys)).set(src32w, (phys & (AMEM_BLOCK_BYTES - 1)) >> 2);
    this.stats.bytesWritten += AMEM_WORD_BYTES;
  }

  /**
   * Batch fast path (uie/batchMove.ts): the bookkeeping of `readWord32` (view rule, statistics) of the whole word at
   * physical byte address `phys` (128-aligned) read through view `view` (AMEM_VIEW_BIT or 0), without moving data.
   * Returns the word's 32-bit block (word offset `(phys & 16383) >> 2`), undefined when never written (reads as zeros).
   */
  readWordAt(phys: number, view: number): Uint32Array | undefined {
    this.noteView(phys | view, AMEM_PARTITIONS);
    this.stats.bankAccesses[(phys >>> 7) & 0x7f]! += AMEM_PARTITIONS;
    this.stats.bytesRead += AMEM_WORD_BYTES;
    const b = this.blocks32[phys >>> 14];
    if (!b && this.zeroMade[phys >>> 14] === 0) this.stats.uninitReads += AMEM_PARTITIONS;
    return b;
  }

  /** Batch fast path: the bookkeeping of `writeWord32` at physical `phys` (see `readWordAt`); returns the block to write. */
  writeWordAt(phys: number, view: number): Uint32Array {
    this.noteView(phys | view, AMEM_PARTITIONS);
    this.stats.bankAccesses[(phys >>> 7) & 0x7f]! += AMEM_PARTITIONS;
    this.stats.bytesWritten += AMEM_WORD_BYTES;
    return this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
  }

  /**
   * Batch fast path: the 32-bit block holding physical `phys`, undefined when it has no storage (never written, or
   * written with zeros only: `touchZero`); it reads as zeros then (no bookkeeping).
   */
  blockAt(phys: number): Uint32Array | undefined {
    return this.blocks32[phys >>> 14];
  }

  /**
   * Batch fast path: the bookkeeping of `n` whole-word accesses in a row of physical `phys` through `view` — `n`
   * `writeWordAt` (write) or `readWordAt` calls, `uninit` of the reads finding no block — without moving data or
   * creating blocks. One view-rule note for the run: the accesses after the first find the view the first left.
   */
  noteWords(phys: number, view: number, n: number, write: boolean, uninit: number): void {
    this.noteView(phys | view, AMEM_PARTITIONS * n);
    this.stats.bankAccesses[(phys >>> 7) & 0x7f]! += AMEM_PARTITIONS * n;
    if (write) this.stats.bytesWritten += AMEM_WORD_BYTES * n;
    else {
      this.stats.bytesRead += AMEM_WORD_BYTES * n;
      if (uninit > 0) this.stats.uninitReads += AMEM_PARTITIONS * uninit;
    }
  }

  /** Batch fast path: whether the block holding physical `phys` was ever written (storage or `touchZero`). */
  written(phys: number): boolean {
    const i = phys >>> 14;
    return this.blocks32[i] !== undefined || this.zeroMade[i] === 1;
  }

  /**
   * Batch fast path: a write of zeros into the block holding physical `phys`, whose bytes there are zero (no storage,
   * or the caller knows them zero): the block exists from now on, no storage is made for it (no bookkeeping).
   */
  touchZero(phys: number): void {
    const i = phys >>> 14;
    if (this.blocks32[i] === undefined) this.zeroMade[i] = 1;
  }

  /** Batch fast path: the 32-bit block holding physical `phys`, created when never written (no bookkeeping). */
  writeBlockAt(phys: number): Uint32Array {
    return this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
  }

  /** Full-partition write from a 32-bit view (see `readPartition32`). */
  writePartition32(addr: number, src32: Uint32Array, w: number): void {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]!++;
    const b = this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
    const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
    b[o] = src32[w]!;
    b[o + 1] = src32[w + 1]!;
    b[o + 2] = src32[w + 2]!;
    b[o + 3] = src32[w + 3]!;
    this.stats.bytesWritten += 16;
  }

  /**
   * Writes one partition; `byteMask` (bit i = byte i) selects merged bytes,
   * the others keep memory contents (the RMW merge of chip §7.4).
   */
  writePartition(addr: number, src: Uint8Array, off: number, byteMask = 0xffff): void {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]!++;
    const b = this.block(phys, true)!;
    const o = phys & (AMEM_BLOCK_BYTES - 1);
    if (byteMask === 0xffff) {
      for (let i = 0; i < 16; i++) b[o + i] = src[off + i]!;
      this.stats.bytesWritten += 16;
      return;
    }
    for (let i = 0; i < 16; i++)
      if ((byteMask >> i) & 1) {
        b[o + i] = src[off + i]!;
        this.stats.bytesWritten++;
      }
  }

  /** The cycle the last `readBytes` / `writeBytes` was served (`AmemBanks.access`), -1 without a clock. */
  servedAt = dbl(-1);

  /**
   * Byte-granular read of `len` bytes from `addr` (view bit honoured), for hosts, DMA and dumps (not checked against
   * the one-view rule, so dumps may use either view), as bank client `client` (amem/banks.ts `access`; `servedAt`).
   */
  readBytes(addr: number, len: number, client = CLIENT_CONTROL): Uint8Array {
    this.servedAt = this.banks.access(client, addr, len);
    const out = new Uint8Array(len);
    const view = addr & AMEM_VIEW_BIT;
    let a = addr & ADDR_MASK;
    for (let i = 0; i < len; ) {
      const phys = amemPhysical(a | view);
      const run = Math.min(len - i, 128 - (a & 127));
      const b = this.block(phys, false);
      if (b) out.set(b.subarray(phys & (AMEM_BLOCK_BYTES - 1), (phys & (AMEM_BLOCK_BYTES - 1)) + run), i);
      i += run;
      a = (a + run) & ADDR_MASK;
    }
    this.stats.bytesRead += len;
    return out;
  }

  /** Byte-granular write (view bit honoured), as bank client `client` (see `readBytes`). */
  writeBytes(addr: number, data: Uint8Array, client = CLIENT_CONTROL): void {
    this.servedAt = this.banks.access(client, addr, data.length);
    const view = addr & AMEM_VIEW_BIT;
    let a = addr & ADDR_MASK;
    for (let i = 0; i < data.length; ) {
      const phys = amemPhysical(a | view);
      // runs never cross a 128-byte word: within a word the hash is a constant XOR on bits [13:7]
      const run = Math.min(data.length - i, 128 - (a & 127));
      this.noteView(a | view);
      const b = this.block(phys, true)!;
      b.set(data.subarray(i, i + run), phys & (AMEM_BLOCK_BYTES - 1));
      i += run;
      a = (a + run) & ADDR_MASK;
    }
    this.stats.bytesWritten += data.length;
  }

  /**
   * `readBytes` of `len` bytes (a multiple of 128) at a 128-byte-aligned `addr` into dst32[w..w + len/4): the same
   * bytes, statistics and bank claim, without allocating (the DMA engines' 1 KiB units, hbmDma.ts). Never-written
   * blocks read as zeros.
   */
  readWords32(addr: number, len: number, dst32: Uint32Array, w: number, client: number): void {
    this.servedAt = this.banks.access(client, addr, len);
    const view = addr & AMEM_VIEW_BIT;
    let a = addr & ADDR_MASK;
    for (let i = 0; i < len; i += AMEM_WORD_BYTES, w += 32) {
      const phys = amemPhysical(a | view);
      const b = this.blocks32[phys >>> 14];
      if (b) {
        const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
        for (let k = 0; k < 32; k += 4) {
          dst32[w + k] = b[o + k]!;
          dst32[w + k + 1] = b[o + k + 1]!;
          dst32[w + k + 2] = b[o + k + 2]!;
          dst32[w + k + 3] = b[o + k + 3]!;
        }
      } else for (let k = 0; k < 32; k++) dst32[w + k] = 0;
      a = (a + AMEM_WORD_BYTES) & ADDR_MASK;
    }
    this.stats.bytesRead += len;
  }

  /** `writeBytes` of src32[w..w + len/4) (`len` a multiple of 128) at a 128-byte-aligned `addr`, without allocating. */
  writeWords32(addr: number, src32: Uint32Array, w: number, len: number, client: number): void {
    this.servedAt = this.banks.access(client, addr, len);
    const view = addr & AMEM_VIEW_BIT;
    let a = addr & ADDR_MASK;
    for (let i = 0; i < len; i += AMEM_WORD_BYTES, w += 32) {
      const phys = amemPhysical(a | view);
      this.noteView(a | view);
      const b = this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
      const o = (phys & (AMEM_BLOCK_BYTES - 1)) >> 2;
      for (let k = 0; k < 32; k += 4) {
        b[o + k] = src32[w + k]!;
        b[o + k + 1] = src32[w + k + 1]!;
        b[o + k + 2] = src32[w + k + 2]!;
        b[o + k + 3] = src32[w + k + 3]!;
      }
      a = (a + AMEM_WORD_BYTES) & ADDR_MASK;
    }
    this.stats.bytesWritten += len;
  }

  /** `AmemAccess` (control-plane) interface: byte read into `dst[off..off+len)`. */
  read(addr: number, dst: Uint8Array, off: number, len: number): void {
    dst.set(this.readBytes(addr, len), off);
  }

  /** `AmemAccess` (control-plane) interface: byte write from `src[off..off+len)`. */
  write(addr: number, src: Uint8Array, off: number, len: number): void {
    this.writeBytes(addr, src.subarray(off, off + len));
  }

  read32(addr: number): number {
    const b = this.readBytes(addr, 4);
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }
}
