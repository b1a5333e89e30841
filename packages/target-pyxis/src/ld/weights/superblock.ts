/**
 * Compressed 4-bit weights: superblock format (pyxis-chip-fspec.md §14.2,
 * tables 14-1..14-4) and the 1x1 superblock organisations (§15.4, tables
 * 15-5..15-12).
 *
 * Database = [codebook word] [superblock 0] [superblock 1] ...
 *  - codebook word (128 B, only before the first superblock, §14.2): bytes
 *    0..15 = codebook entries 0..15 (LnsI4F3, EB -15), bytes 16..127 zero;
 *  - superblock = 128 B of scaling factors (byte j = LnsI4F3 scaling factor of
 *    block j) followed by 128 blocks of B 4-bit weight indices; block j starts
 *    at byte j*B/2 of the block area (B=32: 8 blocks per 128-byte word, B=16:
 *    16, B=8: 32, B=4: 64; block 0 in the LSBytes). Inside a block, element e
 *    is the nibble at bits [4e+3:4e], i.e. byte e>>1, low nibble first.
 *  - every superblock is a whole number of 128-byte words, so superblocks stay
 *    128-byte aligned when the database is (§14.2 note, seq §1.1 rule 2).
 *
 * Organisations (§14.3, §15.4):
 *  - 'cinPerCout' (§15.4.1): a block = B consecutive input channels of one
 *    output channel. B = 32/16: block j of a superblock is output channel
 *    (j >> 3) + 16 * (j & 7) (tables 15-5, 15-6); B = 8: (j >> 4) + 8 * (j & 15)
 *    (table 15-7); B = 4: blocks pair up (2j, 2j+1 = input channels 0-3, 4-7 of
 *    a group of 8), pair p of the first superblock of a pair is output channel
 *    (p >> 4) + 8 * (p & 15), of the second 4 + (p >> 4) + 8 * (p & 15)
 *    (table 15-8). Superblocks advance over input channels (B, or 8 for B=4).
 *  - 'coutPerCin' (§15.4.2): a block = B consecutive output channels of one
 *    input channel; 128/B blocks cover 128 output channels of one input
 *    channel, so a superblock holds B input channels (tables 15-9..15-12).
 * Output channels are handled in sets of 128 (one grid); each set's
 * superblocks are stored contiguously (spec-notes: "set-major").
 * Padding (seq §1.4): input channels (cinPerCout) are padded to a multiple of
 * B (8 for B=4) inside the blocks; output channels are padded to 128; pads
 * are weight indices of a zero codebook entry.
 */
import { alignUp } from '@pyxis/container';
import { CHIP_SPEC, SEQ_SPEC, LD_WEIGHTS_PARAM, fail, type DbRegion, type WeightsSource } from './common.js';

export type SuperblockOrganisation = 'cinPerCout' | 'coutPerCin';
export type BlockSize = 4 | 8 | 16 | 32;

export interface SuperblockLayout {
  kind: 'compressed';
  spec: string;
  organisation: SuperblockOrganisation;
  blockSize: BlockSize;
  outputChannels: number;
  inputChannels: number;
  /** Output channels padded to 128; input channels padded per seq §1.4. */
  paddedOutputChannels: number;
  paddedInputChannels: number;
  /** Sets of 128 output channels. */
  sets: number;
  superblocksPerSet: number;
  superblocks: number;
  /** 128 (scales) + 64 * B bytes. */
  superblockSize: number;
  /** Byte offset of the codebook word (0) and of superblock 0 (128). */
  codebookOffset: number;
  firstSuperblockOffset: number;
  /** Total database bytes (codebook word + superblocks). */
  size: number;
  /** Required AMEM alignment: 128 bytes (chip §14.2 note, seq §1.1 rule 2). */
  alignment: number;
  regions: DbRegion[];
}

export function superblockLayout(organisation: SuperblockOrganisation, blockSize: number, O: number, I: number, src?: WeightsSource): SuperblockLayout {
  if (blockSize !== 4 && blockSize !== 8 && blockSize !== 16 && blockSize !== 32)
    fail(LD_WEIGHTS_PARAM, `compression block size must be 4, 8, 16 or 32, got ${blockSize}`, src, `${CHIP_SPEC} §14.1`);
  if (organisation !== 'cinPerCout' && organisation !== 'coutPerCin')
    fail(LD_WEIGHTS_PARAM, `superblock organisation must be 'cinPerCout' or 'coutPerCin', got '${String(organisation)}'`, src, `${CHIP_SPEC} §15.4`);
  const B = blockSize as BlockSize;
  const paddedOut = alignUp(O, 128);
  const sets = paddedOut / 128;
  let paddedIn: number, perSet: number;
  if (organisation === 'cinPerCout') {
    if (B === 4) { paddedIn = alignUp(I, 8); perSet = (paddedIn / 8) * 2; }
    else { paddedIn = alignUp(I, B); perSet = paddedIn / B; }
  } else {
    paddedIn = alignUp(I, B);
    perSet = paddedIn / B;
  }
  const superblockSize = 128 + 64 * B;
  const superblocks = sets * perSet;
  const size = 128 + superblocks * superblockSize;
  return {
    kind: 'compressed', spec: `${CHIP_SPEC} §14.2, §15.4`, organisation, blockSize: B, outputChannels: O, inputChannels: I,
    paddedOutputChannels: paddedOut, paddedInputChannels: paddedIn, sets, superblocksPerSet: perSet, superblocks,
    superblockSize, codebookOffset: 0, firstSuperblockOffset: 128, size, alignment: 128,
    regions: [
      { name: 'codebook', offset: 0, size: 128 },
      { name: 'superblocks', offset: 128, size: superblocks * superblockSize },
    ],
  };
}

/** Byte offset of block `j` (0..127) of superblock `k` (its weight indices). */
export function blockDataOffset(L: SuperblockLayout, k: number, j: number): number {
  return 128 + k * L.superblockSize + 128 + j * (L.blockSize >>> 1);
}

/**
 * Origin of block `j` of superblock `k`: output channel and input channel of
 * element 0. Element e is (cout, cin + e) for 'cinPerCout' and (cout + e, cin)
 * for 'coutPerCin'. Writes into `out` ([cout, cin]) to avoid allocation.
 */
export function blockOrigin(L: SuperblockLayout, k: number, j: number, out: Int32Array | number[]): void {
  const B = L.blockSize;
  const s = Math.floor(k / L.superblocksPerSet);
  const kk = k - s * L.superblocksPerSet;
  if (L.organisation === 'cinPerCout') {
    if (B === 4) {
      const grp = kk >>> 1, half = kk & 1, p = j >>> 1;
      out[0] = s * 128 + 4 * half + (p >>> 4) + 8 * (p & 15);
      out[1] = grp * 8 + 4 * (j & 1);
    } else if (B === 8) {
      out[0] = s * 128 + (j >>> 4) + 8 * (j & 15);
      out[1] = kk * 8;
    } else {
      out[0] = s * 128 + (j >>> 3) + 16 * (j & 7);
      out[1] = kk * B;
    }
  } else {
    const perCin = 128 / B;
    const c = Math.floor(j / perCin);
    out[0] = s * 128 + (j - c * perCin) * B;
    out[1] = kk * B + c;
  }
}

/** Rejects a database base address that breaks the 128-byte superblock alignment (chip §14.2, seq §1.1 rule 2). */
export function checkSuperblockAlignment(address: number, src?: WeightsSource): void {
  if (address % 128 !== 0)
    fail(LD_WEIGHTS_PARAM, `compressed weights database at 0x${address.toString(16)} is not 128-byte aligned`, src, `${SEQ_SPEC} §1.1`);
}

/** Where weight (o, i) lives in a superblock database (inverse of blockOrigin). */
export interface SuperblockPosition {
  superblock: number;
  block: number;
  element: number;
  /** Byte holding the 4-bit index, and the bit shift of the nibble (0 or 4). */
  byteOffset: number;
  shift: 0 | 4;
  /** Byte holding the block's scaling factor. */
  scaleOffset: number;
}

/** Position of weight (o, i) (tables 15-5..15-12 inverted). */
export function superblockPosition(L: SuperblockLayout, o: number, i: number): SuperblockPosition {
  const B = L.blockSize;
  const s = o >>> 7, c = o & 127;
  let kk: number, j: number, e: number;
  if (L.organisation === 'cinPerCout') {
    if (B === 4) {
      const grp = i >>> 3, h = (i >>> 2) & 1;
      const half = (c & 7) >>> 2;
      const p = 16 * (c & 3) + (c >>> 3);
      kk = 2 * grp + half; j = 2 * p + h; e = i & 3;
    } else if (B === 8) {
      kk = i >>> 3; j = 16 * (c & 7) + (c >>> 3); e = i & 7;
    } else {
      kk = Math.floor(i / B); j = 8 * (c & 15) + (c >>> 4); e = i % B;
    }
  } else {
    const perCin = 128 / B;
    kk = Math.floor(i / B);
    j = (i % B) * perCin + Math.floor(c / B);
    e = c % B;
  }
  const k = s * L.superblocksPerSet + kk;
  const sb = 128 + k * L.superblockSize;
  return { superblock: k, block: j, element: e, byteOffset: sb + 128 + j * (B >>> 1) + (e >>> 1), shift: (e & 1 ? 4 : 0), scaleOffset: sb + j };
}
