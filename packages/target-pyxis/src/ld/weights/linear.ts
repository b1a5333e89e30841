/**
 * 1x1 / linear weights databases, uncompressed:
 *  - 8-bit LnsI4F3 (pyxis-chip-fspec.md §15.2, table 15-3),
 *  - 16-bit LnsI5F10 (§15.3, table 15-4).
 *
 * Each output channel's weights form an array of 8-byte groups (8 LnsI4F3 or
 * 4 LnsI5F10 input channels, zero-padded). Within one set of 128 output
 * channels the database holds, per input group, 1024 bytes = 8 rows of 128
 * bytes; row r holds output channels r, r+8, .., r+120 (8 bytes each), i.e.
 * output channel c (within the set) is at byte (c % 8) * 128 + (c >> 3) * 8.
 * This is what seq §9.2.1 (LD_2ROWS_8B) consumes: each 128-byte AMEM word
 * gives 8 bytes to each of the 16 grid-rows, grid-row q receiving output
 * channels 8q..8q+7 over the 8 words of an Hbuf block.
 *
 * Sets of 128 output channels are stored one after the other, each with all of
 * its input groups (spec-notes: "set-major"). Output channels are padded to a
 * multiple of 128 (zero weights). 16-bit values are little-endian (chip §7.1.1).
 *
 * Beta (chip §15.5): one extra input channel holding an LnsI5F10 value per
 * output channel. In the 16-bit database it is input channel I. In the 8-bit
 * database it is a trailing 16-bit group per set (LnsI5F10 Beta in the group's
 * first two bytes, three zero channels), which satisfies the mixed-precision
 * grouping rule of seq §1.2 rule 2 (8-bit groups of 8 channels, then one 16-bit
 * group of 4 channels).
 */
import { alignUp } from '@pyxis/container';
import { CHIP_SPEC, LD_WEIGHTS_SHAPE, fail, shape2d, type DbRegion, type WeightsSource } from './common.js';
import type { PackedDatabase } from './kernel3x3.js';

export interface Linear1x1Options {
  /** Optional Beta, O LnsI5F10 codes (chip §15.5). */
  beta?: Uint16Array;
  source?: WeightsSource;
}

export interface Linear1x1Layout {
  kind: '1x1-LnsI4F3' | '1x1-LnsI5F10';
  spec: string;
  /** Bytes per weight: 1 (LnsI4F3) or 2 (LnsI5F10). */
  bytesPerWeight: 1 | 2;
  outputChannels: number;
  /** Output channels padded to a multiple of 128. */
  paddedOutputChannels: number;
  inputChannels: number;
  /** Input channels seen by the grid, incl. Beta and zero padding (multiple of 8 resp. 4; seq §1.2 rule 2). */
  paddedInputChannels: number;
  /** Input channels per 8-byte group: 8 or 4. */
  channelsPerGroup: number;
  /** 8-byte groups per output channel, incl. the Beta group. */
  groups: number;
  /** Sets of 128 output channels. */
  sets: number;
  /** Bytes per set = groups * 1024. */
  setStride: number;
  hasBeta: boolean;
  /** Group index holding Beta (-1 if none); in the 16-bit database Beta is input channel `inputChannels`. */
  betaGroup: number;
  size: number;
  /** Minimum AMEM alignment in bytes: 16 (8-bit) or 32 (16-bit data: even partition, seq §1.1 rule 1). */
  alignment: number;
  regions: DbRegion[];
}

export function linear1x1Layout(bits: 8 | 16, O: number, I: number, hasBeta: boolean): Linear1x1Layout {
  const bpw = bits === 8 ? 1 : 2;
  const cpg = 8 / bpw;
  let groups: number, paddedIn: number, betaGroup = -1;
  if (bits === 8) {
    const g8 = Math.ceil(I / 8);
    groups = g8 + (hasBeta ? 1 : 0);
    paddedIn = g8 * 8 + (hasBeta ? 4 : 0);
    if (hasBeta) betaGroup = g8;
  } else {
    const iAll = I + (hasBeta ? 1 : 0);
    groups = Math.ceil(iAll / 4);
    paddedIn = groups * 4;
    if (hasBeta) betaGroup = Math.floor(I / 4);
  }
  const paddedOut = alignUp(O, 128);
  const sets = paddedOut / 128;
  const setStride = groups * 1024;
  const size = sets * setStride;
  const regions: DbRegion[] = [];
  for (let s = 0; s < sets; s++) regions.push({ name: `cout ${s * 128}-${s * 128 + 127}`, offset: s * setStride, size: setStride });
  return {
    kind: bits === 8 ? '1x1-LnsI4F3' : '1x1-LnsI5F10', spec: `${CHIP_SPEC} ${bits === 8 ? '§15.2' : '§15.3'}`,
    bytesPerWeight: bpw as 1 | 2, outputChannels: O, paddedOutputChannels: paddedOut, inputChannels: I,
    paddedInputChannels: paddedIn, channelsPerGroup: cpg, groups, sets, setStride, hasBeta, betaGroup, size,
    alignment: bits === 8 && !hasBeta ? 16 : 32, regions,
  };
}

/** Byte offset of the 8-byte group `g` of output channel `o` (table 15-3 / 15-4 swizzle). */
export function linear1x1GroupOffset(L: Linear1x1Layout, o: number, g: number): number {
  const s = o >>> 7, c = o & 127;
  return s * L.setStride + g * 1024 + (c & 7) * 128 + (c >>> 3) * 8;
}

/** Byte offset of the weight (o, i) (its low byte for LnsI5F10); i = I addresses Beta. */
export function linear1x1Offset(L: Linear1x1Layout, o: number, i: number): number {
  if (L.bytesPerWeight === 1) {
    if (i === L.inputChannels && L.hasBeta) return linear1x1GroupOffset(L, o, L.betaGroup);
    return linear1x1GroupOffset(L, o, i >>> 3) + (i & 7);
  }
  return linear1x1GroupOffset(L, o, i >>> 2) + 2 * (i & 3);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Shape/Beta checks, layout and the zeroed output (with a 32-bit view) shared by the two 1x1 packers. */
function start1x1(bits: 8 | 16, n: number, shape: readonly number[], opts: Linear1x1Options) {
  const [O, I] = shape2d(shape, n, opts.source);
  const beta = opts.beta;
  if (beta && beta.length !== O) fail(LD_WEIGHTS_SHAPE, `Beta needs ${O} LnsI5F10 codes (one per output channel), got ${beta.length}`, opts.source, `${CHIP_SPEC} §15.5`);
  const L = linear1x1Layout(bits, O, I, beta !== undefined);
  return { O, I, beta, L, out: new Uint8Array(L.size) };
}

/**
 * Copies every full 8-byte group (8 LnsI4F3 or 4 little-endian LnsI5F10 codes)
 * of every output channel from the row-major source bytes (`rowBytes` per output
 * channel) to its Table 15-3 / 15-4 place: set, group, then the 128 output
 * channels of the set, so the writes stay within 1 KiB. Two 32-bit moves per
 * group when source and rows are 4-byte aligned.
 */
function copyFullGroups(src: Uint8Array, rowBytes: number, fullGroups: number, O: number, L: Linear1x1Layout, out: Uint8Array): void {
  const o32 = new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2);
  const c32 = (rowBytes & 3) === 0 && (src.byteOffset & 3) === 0 ? new Uint32Array(src.buffer, src.byteOffset, src.length >>> 2) : undefined;
  for (let s = 0; s < L.sets; s++) {
    const cEnd = Math.min(128, O - s * 128);
    for (let g = 0; g < fullGroups; g++) {
      const blk = s * L.setStride + g * 1024;
      for (let c = 0; c < cEnd; c++) {
        const d = blk + (c & 7) * 128 + (c >>> 3) * 8;
        const p = (s * 128 + c) * rowBytes + g * 8;
        if (c32) {
          o32[d >>> 2] = c32[p >>> 2]!;
          o32[(d >>> 2) + 1] = c32[(p >>> 2) + 1]!;
        } else for (let k = 0; k < 8; k++) out[d + k] = src[p + k]!;
      }
    }
  }
}

/** Packs LnsI4F3 codes of shape [O, I] into the §15.2 database. */
export function pack1x1I4F3Database(codes: Uint8Array, shape: readonly number[], opts: Linear1x1Options = {}): PackedDatabase<Linear1x1Layout> {
  const { O, I, beta, L, out } = start1x1(8, codes.length, shape, opts);
  const fullGroups = I >>> 3, tail = I & 7;
  copyFullGroups(codes, I, fullGroups, O, L, out);
  for (let s = 0; s < L.sets; s++) {
    const cEnd = Math.min(128, O - s * 128);
    if (tail) {
      const blk = s * L.setStride + fullGroups * 1024;
      for (let c = 0; c < cEnd; c++) {
        const d = blk + (c & 7) * 128 + (c >>> 3) * 8;
        const p = (s * 128 + c) * I + fullGroups * 8;
        for (let k = 0; k < tail; k++) out[d + k] = codes[p + k]!;
      }
    }
    if (beta) {
      const blk = s * L.setStride + L.betaGroup * 1024;
      for (let c = 0; c < cEnd; c++) {
        const d = blk + (c & 7) * 128 + (c >>> 3) * 8;
        const v = beta[s * 128 + c]!;
        out[d] = v & 0xff;
        out[d + 1] = v >>> 8;
      }
    }
  }
  return { bytes: out, layout: L };
}

/** Packs LnsI5F10 codes of shape [O, I] into the §15.3 database (little-endian 16-bit values). */
export function pack1x1I5F10Database(codes: Uint16Array, shape: readonly number[], opts: Linear1x1Options = {}): PackedDatabase<Linear1x1Layout> {
  const { O, I, beta, L, out } = start1x1(16, codes.length, shape, opts);
  const fullGroups = I >>> 2, tail = I & 3;
  // the codes as little-endian bytes (a view on little-endian hosts)
  let le = new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength);
  if (!LITTLE_ENDIAN) {
    le = new Uint8Array(codes.length * 2);
    for (let k = 0; k < codes.length; k++) { le[2 * k] = codes[k]! & 0xff; le[2 * k + 1] = codes[k]! >>> 8; }
  }
  copyFullGroups(le, 2 * I, fullGroups, O, L, out);
  // tail input channels and Beta (input channel I)
  const extra = tail + (beta ? 1 : 0);
  for (let s = 0; s < L.sets && extra; s++) {
    const cEnd = Math.min(128, O - s * 128);
    const blk = s * L.setStride + fullGroups * 1024;
    for (let c = 0; c < cEnd; c++) {
      const o = s * 128 + c;
      const d = blk + (c & 7) * 128 + (c >>> 3) * 8;
      for (let k = 0; k < extra; k++) {
        const v = k < tail ? codes[o * I + fullGroups * 4 + k]! : beta![o]!;
        out[d + 2 * k] = v & 0xff;
        out[d + 2 * k + 1] = v >>> 8;
      }
    }
  }
  return { bytes: out, layout: L };
}

/**
 * Inverse of pack1x1I4F3Database / pack1x1I5F10Database: codes [O, I] (Uint8Array
 * or Uint16Array) and the Beta codes if the layout has Beta.
 */
export function unpack1x1Database(bytes: Uint8Array, L: Linear1x1Layout): { codes: Uint8Array | Uint16Array; beta?: Uint16Array } {
  if (bytes.length < L.size) fail(LD_WEIGHTS_SHAPE, `1x1 database has ${bytes.length} bytes, layout needs ${L.size}`, undefined, L.spec);
  const O = L.outputChannels, I = L.inputChannels;
  const wide = L.bytesPerWeight === 2;
  const codes = wide ? new Uint16Array(O * I) : new Uint8Array(O * I);
  const beta = L.hasBeta ? new Uint16Array(O) : undefined;
  for (let o = 0; o < O; o++) {
    for (let i = 0; i < I; i++) {
      const d = linear1x1Offset(L, o, i);
      codes[o * I + i] = wide ? bytes[d]! | (bytes[d + 1]! << 8) : bytes[d]!;
    }
    if (beta) {
      const d = linear1x1Offset(L, o, I);
      beta[o] = bytes[d]! | (bytes[d + 1]! << 8);
    }
  }
  return beta ? { codes, beta } : { codes };
}

/**
 * Beta alone as one 16-bit group per set of 128 output channels (chip §15.5):
 * the trailing group for a compressed (§15.4) layer, whose superblocks hold
 * only 4-bit indices. Same bytes as the Beta group of pack1x1I4F3Database.
 */
export function pack1x1BetaGroup(beta: Uint16Array, source?: WeightsSource): PackedDatabase<Linear1x1Layout> {
  return pack1x1I5F10Database(beta, [beta.length, 1], source ? { source } : {});
}
