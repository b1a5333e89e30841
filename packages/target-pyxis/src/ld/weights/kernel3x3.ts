/**
 * 3x3 kernels weights database (pyxis-chip-fspec.md §15.1, tables 15-1, 15-2).
 *
 * - A kernel is 9 LnsI4F3 bytes, little-endian, byte 0 = NW, 1 = NC, 2 = NE,
 *   3 = CW, 4 = CC, 5 = CE, 6 = SW, 7 = SC, 8 = SE (table 15-1). For weights of
 *   shape [O, I, 3, 3] (row = north..south, column = west..east) this is the
 *   row-major order of the 3x3 kernel.
 * - Each grid-row's kernels are ordered K(0,0), K(0,1) .. K(0,N-1), K(1,0) ..
 *   K(M-1,N-1) (Cin-major, N filters per grid-row interleaved), packed as
 *   M*N*9 bytes and MSB-padded (zeros at the end) to a multiple of 8 bytes.
 * - The database is chunk-major: chunk 0 of every grid-row, then chunk 1 ...;
 *   an odd number of grid-rows gets one zero pad chunk per chunk step (table 15-2).
 *
 * Output channel -> grid-row mapping (spec-notes): grid-row r holds output
 * channels r*N .. r*N+N-1 (filter j of grid-row r is Cout r*N+j).
 */
import { CHIP_SPEC, SEQ_SPEC, LD_WEIGHTS_PARAM, LD_WEIGHTS_SHAPE, fail, shape3x3, type DbRegion, type WeightsSource } from './common.js';

export interface Kernel3x3Options {
  /** N: filters (output channels) per grid-row: 1, 2, 4 or 8 (seq §10.1 log2_filters_per_row). */
  filtersPerGridRow: number;
  /** Grid-rows used by the trip (1..16); default ceil(O / N). Extra grid-rows get zero (fake) filters. */
  gridRows?: number;
  /** Optional Beta kernels, O*9 LnsI4F3 codes (see beta.ts), appended as input channel I (chip §15.5). */
  beta?: Uint8Array;
  source?: WeightsSource;
}

export interface Kernel3x3Layout {
  kind: '3x3';
  spec: string;
  /** Output channels given / after padding to gridRows*N fake filters (seq §1.3 rule 2). */
  outputChannels: number;
  paddedOutputChannels: number;
  /** Input channels of the weights (without Beta). */
  inputChannels: number;
  /** M: kernels per filter in the database (input channels + 1 if Beta). */
  M: number;
  /** N: filters per grid-row. */
  N: number;
  gridRows: number;
  /** gridRows rounded up to even (odd grid-row padding, table 15-2). */
  paddedGridRows: number;
  /** M*N*9 bytes of kernels per grid-row. */
  bytesPerGridRow: number;
  /** 8-byte chunks per grid-row = ceil(M*N*9/8). */
  chunks: number;
  /** Bytes per chunk step = 8 * paddedGridRows. */
  chunkStride: number;
  hasBeta: boolean;
  size: number;
  /** Minimum AMEM alignment in bytes: one partition (8-bit data, seq §1.1 rule 1; chip §6.2.4.2). */
  alignment: number;
  regions: DbRegion[];
}

export interface PackedDatabase<L> {
  bytes: Uint8Array;
  layout: L;
}

/** Computes the §15.1 layout without packing. */
export function kernel3x3Layout(O: number, I: number, opts: Kernel3x3Options): Kernel3x3Layout {
  const N = opts.filtersPerGridRow;
  const src = opts.source;
  if (N !== 1 && N !== 2 && N !== 4 && N !== 8)
    fail(LD_WEIGHTS_PARAM, `filters per grid-row must be 1, 2, 4 or 8, got ${N}`, src, `${SEQ_SPEC} §10.1`);
  const minRows = Math.ceil(O / N);
  const gridRows = opts.gridRows ?? minRows;
  if (!Number.isInteger(gridRows) || gridRows < 1 || gridRows > 16)
    fail(LD_WEIGHTS_PARAM, `a 3x3 trip uses 1..16 grid-rows, got ${gridRows}`, src, `${CHIP_SPEC} §15.1`);
  if (gridRows < minRows)
    fail(LD_WEIGHTS_PARAM, `${O} output channels at ${N} filters per grid-row need ${minRows} grid-rows, more than ${gridRows} (split the layer into trips)`, src, `${CHIP_SPEC} §15.1`);
  const hasBeta = opts.beta !== undefined;
  if (hasBeta && opts.beta!.length !== O * 9)
    fail(LD_WEIGHTS_SHAPE, `Beta kernels need ${O * 9} LnsI4F3 codes (O x 9), got ${opts.beta!.length}`, src, `${CHIP_SPEC} §15.5`);
  const M = I + (hasBeta ? 1 : 0);
  const bytesPerGridRow = M * N * 9;
  const chunks = Math.ceil(bytesPerGridRow / 8);
  const paddedGridRows = gridRows + (gridRows & 1);
  const chunkStride = 8 * paddedGridRows;
  const size = chunks * chunkStride;
  return {
    kind: '3x3', spec: `${CHIP_SPEC} §15.1`, outputChannels: O, paddedOutputChannels: gridRows * N, inputChannels: I,
    M, N, gridRows, paddedGridRows, bytesPerGridRow, chunks, chunkStride, hasBeta, size, alignment: 16,
    regions: [{ name: 'kernels', offset: 0, size }],
  };
}

/**
 * Byte offset in the database of tap `t` (0 = NW .. 8 = SE, table 15-1) of the
 * kernel for input channel `i` (i = I is the Beta kernel) and output channel `o`.
 */
export function kernel3x3Offset(L: Kernel3x3Layout, o: number, i: number, t: number): number {
  const r = Math.floor(o / L.N), j = o - r * L.N;
  const s = (i * L.N + j) * 9 + t; // byte index in the grid-row's packed array
  return (s >>> 3) * L.chunkStride + r * 8 + (s & 7);
}

/**
 * Packs LnsI4F3 codes of shape [O, I, 3, 3] into the §15.1 database.
 * Padding (fake filters, chunk MSB padding, odd-grid-row pad chunks) is zero.
 */
export function pack3x3Database(codes: Uint8Array, shape: readonly number[], opts: Kernel3x3Options): PackedDatabase<Kernel3x3Layout> {
  const [O, I] = shape3x3(shape, codes.length, opts.source);
  const L = kernel3x3Layout(O, I, opts);
  const out = new Uint8Array(L.size);
  const { N, M, chunks, gridRows, paddedGridRows } = L;
  const beta = opts.beta;
  // Per grid-row packed arrays (row r at r * rowBytes, zero MSB padding), then the chunk
  // interleave as a transpose of 8-byte chunks (2 x 32-bit moves; buffers are 8-byte multiples).
  const rowBytes = chunks * 8;
  const tmp = new Uint8Array(rowBytes * gridRows);
  for (let r = 0; r < gridRows; r++) {
    let d = r * rowBytes;
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++, d += 9) {
        const o = r * N + j;
        if (o >= O) continue; // fake filter: zeros
        const srcArr = i < I ? codes : beta!;
        const p = i < I ? (o * I + i) * 9 : o * 9;
        tmp[d] = srcArr[p]!; tmp[d + 1] = srcArr[p + 1]!; tmp[d + 2] = srcArr[p + 2]!;
        tmp[d + 3] = srcArr[p + 3]!; tmp[d + 4] = srcArr[p + 4]!; tmp[d + 5] = srcArr[p + 5]!;
        tmp[d + 6] = srcArr[p + 6]!; tmp[d + 7] = srcArr[p + 7]!; tmp[d + 8] = srcArr[p + 8]!;
      }
    }
  }
  const t32 = new Uint32Array(tmp.buffer, tmp.byteOffset, tmp.length >>> 2);
  const o32 = new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2);
  const row32 = rowBytes >>> 2;
  for (let c = 0, d = 0; c < chunks; c++) {
    for (let r = 0, sIdx = 2 * c; r < gridRows; r++, d += 2, sIdx += row32) {
      o32[d] = t32[sIdx]!;
      o32[d + 1] = t32[sIdx + 1]!;
    }
    if (paddedGridRows !== gridRows) d += 2; // odd grid-row pad chunk stays zero
  }
  return { bytes: out, layout: L };
}

/**
 * Inverse of pack3x3Database: LnsI4F3 codes [O, I, 3, 3] and, if the layout has
 * Beta, the O x 9 Beta kernels (for dumps and the simulator).
 */
export function unpack3x3Database(bytes: Uint8Array, L: Kernel3x3Layout): { codes: Uint8Array; beta?: Uint8Array } {
  if (bytes.length < L.size) fail(LD_WEIGHTS_SHAPE, `3x3 database has ${bytes.length} bytes, layout needs ${L.size}`, undefined, `${CHIP_SPEC} §15.1`);
  const O = L.outputChannels, I = L.inputChannels;
  const codes = new Uint8Array(O * I * 9);
  const beta = L.hasBeta ? new Uint8Array(O * 9) : undefined;
  for (let o = 0; o < O; o++)
    for (let i = 0; i < L.M; i++)
      for (let t = 0; t < 9; t++) {
        const v = bytes[kernel3x3Offset(L, o, i, t)]!;
        if (i < I) codes[(o * I + i) * 9 + t] = v; else beta![o * 9 + t] = v;
      }
  return beta ? { codes, beta } : { codes };
}
