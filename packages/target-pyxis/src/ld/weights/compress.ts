/**
 * Weights compression (pyxis-chip-fspec.md §14.1) into superblock databases
 * (§14.2, §15.4): chooses the shared 16-entry LnsI4F3 codebook (EB -15) and the
 * per-block LnsI4F3 scaling factors, writes 4-bit weight indices, and reports
 * the error.
 *
 * Decompression model (§14.1, decompressWeight of @pyxis/formats; docs/spec-notes.md):
 *   weight_lns = codebook[idx] + block_scaling_factor_lns - 15
 * on 7-bit magnitude codes (I.F in units of 1/8): m = m_cb + m_sf - 120, sign =
 * sign_cb XOR sign_sf. A zero codebook entry or a zero scaling factor gives
 * zero; m <= 0 flushes to zero (+0, never the NaN code 0x80); m > 127
 * saturates to 127 (chip §4 saturating maximum).
 *
 * Algorithm:
 *  1. EB (of the scaling factors and decompressed weights) = user value, or the
 *     smallest integer that keeps the largest |w| below the LnsI4F3 maximum.
 *  2. Scaling factor per block ("max alignment"): m_sf = round(8*(log2 max|w| - EB)),
 *     clamped to 1..127, so the block maximum maps to codebook value 1.0 (code 120).
 *  3. Each weight is normalised by its block scale, x = w / S
 *     (S = 2^(m_sf/8 + EB), the scaling factor's value; the decompressed weight
 *     is codebook value x S), and counted in a histogram of 2 x 1216 bins (sign x 64 bins per octave
 *     over 2^-17..2^2, taken from the float32 bits of |x|) holding n, sum x,
 *     sum x^2 per bin.
 *  4. Lloyd iterations on the histogram: every bin goes to the codebook entry
 *     minimising sum (x - v)^2 (exact from n, sum x, sum x^2), then every entry
 *     moves to the best LnsI4F3 code for its bins' (the neighbours of the
 *     centroid sum x / n). Both steps never increase the objective
 *     J = sum over weights (x - v)^2 (block-normalised squared error), so J is
 *     monotone; iteration stops when J no longer decreases. Lloyd stalls on the
 *     discrete code grid, so refinement sweeps then move single entries one
 *     code up or down (re-assigning bins) while J decreases.
 *  5. Every weight gets the index its bin maps to; its decompressed value is
 *     computed with the model above to report max / RMS relative error and SNR.
 * A zero codebook entry (code 0x00) is reserved by default (option zeroEntry),
 * so pads (seq §1.4) and zero weights decompress to exactly zero.
 *
 * Implementation: one pass over the database blocks computes each source
 * block's index address (tables 15-5..15-12); the three passes over the weights
 * (block maxima, histogram, encode + error) stream through the tensor in memory
 * order with typed arrays only (no per-weight allocation); only the 4-bit index
 * writes are scattered. Blocks are "source blocks": B consecutive input channels
 * of one output channel ('cinPerCout') or B consecutive output channels of one
 * input channel ('coutPerCin').
 */
import { LnsI4F3, decompressWeight } from '@pyxis/formats';
import { CHIP_SPEC, LD_WEIGHTS_DATA, LD_WEIGHTS_PARAM, LD_WEIGHTS_SHAPE, errorFigures, fail, shape2d, type QuantisationReport, type WeightsSource } from './common.js';
import { addToHistogram, binOf, NB, p8 } from './histogram.js';
import { assign, cbValue, nonEmptyBins, optimiseCodebook } from './codebook.js';
import { blockOrigin, superblockLayout, type BlockSize, type SuperblockLayout, type SuperblockOrganisation } from './superblock.js';

export interface CompressOptions {
  organisation: SuperblockOrganisation;
  blockSize: BlockSize | number;
  /** EB of the scaling factors and of the decompressed weights (integer). Default: fitted to max |w|. */
  eb?: number;
  /**
   * Reserve a zero codebook entry (code 0x00). Default true: pads (seq §1.4) need it, and it
   * bounds the relative error of tiny weights at 1 for a small SNR cost. 'auto' = only when there
   * are zero weights or padding; false = never (fails if padding is needed).
   */
  zeroEntry?: 'auto' | boolean;
  /** Maximum Lloyd iterations (0 = keep the initial quantile codebook, no refinement). Default 50. */
  iterations?: number;
  /** Use this codebook (16 LnsI4F3 codes, EB -15) instead of optimising one. */
  codebook?: Uint8Array;
  source?: WeightsSource;
}

/** The error figures of QuantisationReport, plus the optimiser's. */
export interface CompressionReport extends QuantisationReport {
  /** Lloyd iterations + refinement sweeps run, and the block-normalised squared error before/after them. */
  iterations: number;
  initialObjective: number;
  objective: number;
}

export interface CompressedDatabase {
  bytes: Uint8Array;
  layout: SuperblockLayout;
  /** 16 LnsI4F3 codes (EB -15), as stored in the codebook word. */
  codebook: Uint8Array;
  /** EB of the scaling factors / decompressed weights. */
  eb: number;
  /** Whether codebook holds a reserved zero entry. */
  zeroEntry: boolean;
  report: CompressionReport;
}

/** EB of the codebook entries (chip §14.1). */
export const CODEBOOK_EB = -15;

/** Value of an LnsI4F3 code with exponent bias `eb` (chip §4.3). */
function lnsI4F3Value(code: number, eb: number): number {
  return LnsI4F3.decode(code, eb);
}

/** Smallest integer EB keeping max|w| representable after block-max alignment. */
export function defaultCompressionEb(maxAbs: number): number {
  if (!(maxAbs > 0)) return 0;
  return Math.ceil(Math.log2(maxAbs) - 127.4 / 8);
}

/**
 * Compresses float weights of shape [O, I] (or [O, I, 1, 1]) into a
 * superblock database (§14, §15.4).
 */
export function compressWeights(w: Float32Array | Float64Array, shape: readonly number[], opts: CompressOptions): CompressedDatabase {
  const src = opts.source;
  const [O, I] = shape2d(shape, w.length, src);
  const L = superblockLayout(opts.organisation, opts.blockSize, O, I, src);
  const B = L.blockSize;
  const cinMajor = L.organisation === 'cinPerCout';

  const nSb = L.superblocks;
  const nBlocks = nSb * 128;
  if (w.length > 0x7fff_ffff || L.size > 0x7fff_ffff) fail(LD_WEIGHTS_SHAPE, `at most 2^31-1 weights (and database bytes) per tensor, got ${w.length}`, src);

  // Source blocks: the blocks in tensor order. 'cinPerCout': block (o, bi) = w[o, bi*B .. bi*B+B-1],
  // id o*nbI + bi; 'coutPerCin': block (ro, i) = w[ro*B .. ro*B+B-1, i], id ro*I + i. The passes
  // over the weights stream through the tensor in memory order; only the database writes are
  // scattered (one block address per source block).
  const nbI = Math.ceil(I / B), nbO = Math.ceil(O / B);
  const nSrc = cinMajor ? O * nbI : nbO * I;
  const blockAddr = new Int32Array(nSrc); // byte address of the block's indices in the database
  const half = B >>> 1;
  // Database blocks with padding: address and number of valid elements (tables 15-5..15-12).
  const padAddr = new Int32Array(nBlocks), padValid = new Uint8Array(nBlocks);
  let nPad = 0;
  {
    // origin(k, j) = origin(k, 0) + delta(j) for every superblock k
    const origin = new Int32Array(2);
    const dco = new Int32Array(128), dci = new Int32Array(128);
    blockOrigin(L, 0, 0, origin);
    const c00 = origin[0]!, i00 = origin[1]!;
    for (let j = 0; j < 128; j++) {
      blockOrigin(L, 0, j, origin);
      dco[j] = origin[0]! - c00;
      dci[j] = origin[1]! - i00;
    }
    const sbSize = L.superblockSize;
    for (let k = 0; k < nSb; k++) {
      blockOrigin(L, k, 0, origin);
      const c0 = origin[0]!, i0 = origin[1]!;
      const sbBase = 128 + k * sbSize;
      for (let j = 0; j < 128; j++) {
        const co = c0 + dco[j]!, ci = i0 + dci[j]!;
        let n: number, id = -1;
        if (cinMajor) {
          n = co < O ? I - ci : 0;
          if (n > 0) id = co * nbI + ci / B;
        } else {
          n = ci < I ? O - co : 0;
          if (n > 0) id = (co / B) * I + ci;
        }
        if (n > B) n = B;
        const addr = sbBase + 128 + j * half;
        if (id >= 0) blockAddr[id] = addr;
        if (n < B) { padAddr[nPad] = addr; padValid[nPad++] = n < 0 ? 0 : n; }
      }
    }
  }

  // Pass 1: block maxima (per source block), zeros, non-finite values.
  const bmax = new Float64Array(nSrc);
  const st = new Float64Array(8);
  if (cinMajor) maxPassCin(w, O, I, B, nbI, bmax, st); else maxPassCout(w, O, I, B, bmax, st);
  const maxAbs = st[0]!, zeros = st[1]!;
  if (!(st[2]! <= Number.MAX_VALUE)) {
    // NaN or infinity somewhere (or an overflowing sum of huge float64 values): find it
    for (let p = 0; p < w.length; p++)
      if (!Number.isFinite(w[p]!)) fail(LD_WEIGHTS_DATA, `weight [${Math.floor(p / I)}, ${p % I}] is ${w[p]}; weights must be finite`, src, `${CHIP_SPEC} §4.3`);
  }
  const eb = opts.eb ?? defaultCompressionEb(maxAbs);
  if (!Number.isInteger(eb) || eb < -128 || eb > 127) fail(LD_WEIGHTS_PARAM, `compression EB must be an integer in -128..127, got ${eb}`, src, `${CHIP_SPEC} §14.1`);
  let padCount = 0;
  for (let t = 0; t < nPad; t++) padCount += B - padValid[t]!;
  const zeroEntry = opts.zeroEntry === 'auto' ? zeros > 0 || padCount > 0 : opts.zeroEntry ?? true;

  const scales = new Uint8Array(nSrc);
  scalePass(bmax, eb, scales);

  // 1/S per scale code: S = 2^(ms/8 + eb) is the scaling factor's value, and
  // the decompressed weight is codebook value (EB -15) x S (chip §14.1).
  const invS = new Float64Array(128);
  for (let ms = 1; ms < 128; ms++) invS[ms] = Math.pow(2, -(ms / 8 + eb));

  // Pass 2: histogram of normalised values.
  const hn = new Float64Array(2 * NB), hs = new Float64Array(2 * NB), hss = new Float64Array(2 * NB);
  if (cinMajor) histPassCin(w, O, I, B, nbI, scales, invS, hn, hs, hss);
  else histPassCout(w, O, I, B, scales, invS, hn, hs, hss);

  // Codebook.
  const cb = new Uint8Array(16);
  const lut = new Uint8Array(2 * NB);
  let iterations = 0, initialObjective = 0, objective = 0;
  if (opts.codebook) {
    if (opts.codebook.length !== 16) fail(LD_WEIGHTS_SHAPE, `a codebook has 16 LnsI4F3 entries, got ${opts.codebook.length}`, src, `${CHIP_SPEC} §14.1`);
    for (let i = 0; i < 16; i++) {
      if (opts.codebook[i] === 0x80) fail(LD_WEIGHTS_DATA, `codebook entry ${i} is the NaN code 0x80; weights do not support NaN`, src, `${CHIP_SPEC} §4.3`);
      cb[i] = opts.codebook[i]!;
    }
    objective = initialObjective = assign(cb, nonEmptyBins(hn), hn, hs, hss, lut);
  } else {
    const r = optimiseCodebook(hn, hs, hss, zeroEntry, opts.iterations ?? 50, cb, lut);
    iterations = r.iterations; initialObjective = r.initial; objective = r.objective;
  }
  let zeroIdx = cb.findIndex((c) => (c & 0x7f) === 0);
  if (zeroIdx < 0) {
    if (padCount > 0) fail(LD_WEIGHTS_PARAM, `padding to whole blocks needs a zero codebook entry (zeroEntry is false or the codebook has no 0x00)`, src, 'pyxis-uie-sequencers-fspec.md §1.4');
    zeroIdx = 0;
  }

  // Pass 3: write the database (indices OR-ed into the zeroed buffer) and measure the error.
  const out = new Uint8Array(L.size);
  for (let i = 0; i < 16; i++) out[i] = cb[i]!;
  // scaling factor of the block whose indices start at a = 128 + k*sbSize + 128 + j*B/2: byte 128 + k*sbSize + j
  for (let q = 0, sbSize = L.superblockSize; q < nSrc; q++) {
    const rel = blockAddr[q]! - 256;
    const k = Math.floor(rel / sbSize);
    out[128 + k * sbSize + (rel - k * sbSize) / half] = scales[q]!;
  }
  // [ms][entry] -> decompressed value (EB eb), and use counts for flush/saturation statistics.
  const decVal = new Float64Array(128 * 16);
  for (let ms = 0; ms < 128; ms++) for (let i = 0; i < 16; i++) decVal[ms * 16 + i] = lnsI4F3Value(decompressWeight(cb[i]!, ms), eb);
  // Scales at which some non-zero entry flushes to zero (m_cb + m_sf - 120 <= 0): there the
  // histogram LUT (which ignores flushing) may pick an entry that decompresses to 0 although
  // another entry is nearer; such weights take the entry with the nearest decompressed value.
  const flush = new Uint8Array(128);
  for (let ms = 1; ms < 128; ms++) for (let i = 0; i < 16; i++) if ((cb[i]! & 0x7f) !== 0 && decVal[ms * 16 + i] === 0) flush[ms] = 1;
  const uses = new Float64Array(128 * 16);
  st.fill(0);
  if (cinMajor) encodePassCin(w, O, I, B, nbI, scales, invS, lut, blockAddr, out, decVal, flush, uses, st);
  else encodePassCout(w, O, I, B, scales, invS, lut, blockAddr, out, decVal, flush, uses, st);
  const sw2 = st[0]!, se2 = st[1]!, sr2 = st[2]!, nonzero = st[4]!;
  // Pads: the zero entry (seq §1.4); pad nibbles are still 0 in the buffer.
  for (let t = 0; t < nPad; t++) {
    const a = padAddr[t]!;
    for (let e = padValid[t]!; e < B; e++) out[a + (e >>> 1)] |= zeroIdx << ((e & 1) << 2);
  }
  let flushed = 0, saturated = 0;
  for (let ms = 1; ms < 128; ms++)
    for (let i = 0; i < 16; i++) {
      const cm = cb[i]! & 0x7f;
      if (cm === 0) continue;
      const m = cm + ms - 120;
      if (m <= 0) flushed += uses[ms * 16 + i]!;
      else if (m > 127) saturated += uses[ms * 16 + i]!;
    }
  const maxRel = Math.sqrt(st[3]!);
  const report: CompressionReport = {
    weights: O * I, zeroWeights: zeros, maxRelError: maxRel, ...errorFigures(sw2, se2, sr2, nonzero), flushedToZero: flushed, saturated,
    iterations, initialObjective, objective,
  };
  return { bytes: out, layout: L, codebook: cb, eb, zeroEntry: cb.some((c) => (c & 0x7f) === 0), report };
}

type Floats = Float32Array | Float64Array;

/** Pass 1, 'cinPerCout': per-block max |w| (blocks = B consecutive input channels); st = [max, zeros, sum|w|]. */
function maxPassCin(w: Floats, O: number, I: number, B: number, nbI: number, bmax: Float64Array, st: Float64Array): void {
  let maxAbs = 0, zeros = 0, acc = 0;
  if (I % B === 0) {
    // Every block full: the tensor is a flat sequence of blocks; 4 weights per step (B % 4 = 0).
    for (let q = 0, p = 0, nq = O * nbI; q < nq; q++) {
      let mx = 0;
      for (const end = p + B; p < end; p += 4) {
        const v0 = w[p]!, v1 = w[p + 1]!, v2 = w[p + 2]!, v3 = w[p + 3]!;
        const a0 = v0 < 0 ? -v0 : v0, a1 = v1 < 0 ? -v1 : v1, a2 = v2 < 0 ? -v2 : v2, a3 = v3 < 0 ? -v3 : v3;
        acc += a0 + a1 + a2 + a3;
        const m01 = a0 > a1 ? a0 : a1, m23 = a2 > a3 ? a2 : a3, m = m01 > m23 ? m01 : m23;
        if (m > mx) mx = m;
        if (a0 === 0 || a1 === 0 || a2 === 0 || a3 === 0) zeros += (a0 === 0 ? 1 : 0) + (a1 === 0 ? 1 : 0) + (a2 === 0 ? 1 : 0) + (a3 === 0 ? 1 : 0);
      }
      bmax[q] = mx;
      if (mx > maxAbs) maxAbs = mx;
    }
    st[0] = maxAbs; st[1] = zeros; st[2] = acc;
    return;
  }
  for (let o = 0, p = 0, q = 0; o < O; o++) {
    const rowEnd = p + I;
    for (let bi = 0; bi < nbI; bi++, q++) {
      const end = p + B < rowEnd ? p + B : rowEnd;
      let mx = 0;
      for (; p < end; p++) {
        const v = w[p]!;
        const a = v < 0 ? -v : v;
        acc += a;
        if (a > mx) mx = a;
        if (v === 0) zeros++;
      }
      bmax[q] = mx;
      if (mx > maxAbs) maxAbs = mx;
    }
  }
  st[0] = maxAbs; st[1] = zeros; st[2] = acc;
}

/** Pass 1, 'coutPerCin': per-block max |w| (blocks = B consecutive output channels). */
function maxPassCout(w: Floats, O: number, I: number, B: number, bmax: Float64Array, st: Float64Array): void {
  let maxAbs = 0, zeros = 0, acc = 0;
  for (let o = 0, p = 0; o < O; o++) {
    const base = ((o / B) | 0) * I;
    for (let q = base, qEnd = base + I; q < qEnd; q++, p++) {
      const v = w[p]!;
      const a = v < 0 ? -v : v;
      acc += a;
      if (a > bmax[q]!) bmax[q] = a;
      if (v === 0) zeros++;
    }
  }
  for (let q = 0; q < bmax.length; q++) if (bmax[q]! > maxAbs) maxAbs = bmax[q]!;
  st[0] = maxAbs; st[1] = zeros; st[2] = acc;
}

// floor(8 * log2(1 + k/256)) for the top 8 mantissa bits k: a first guess of the fraction code.
const FRAC8 = new Uint8Array(256);
for (let k = 0; k < 256; k++) FRAC8[k] = Math.floor(8 * Math.log2(1 + k / 256));

/**
 * Scaling factors by block-max alignment: ms = round(8 * (log2 max - eb)) clamped to 1..127
 * (0 for an all-zero block), found by comparing max with the rounding thresholds
 * 2^((m - 0.5)/8 + eb), starting from a guess taken from the float64 exponent and mantissa.
 */
function scalePass(bmax: Float64Array, eb: number, scales: Uint8Array): void {
  const thr = new Float64Array(129);
  for (let m = 2; m <= 127; m++) thr[m] = Math.pow(2, (m - 0.5) / 8 + eb);
  thr[128] = Infinity;
  const f64 = new Float64Array(1);
  const hi = new Uint32Array(f64.buffer, LE ? 4 : 0, 1);
  for (let q = 0; q < bmax.length; q++) {
    const mx = bmax[q]!;
    if (mx === 0) continue;
    f64[0] = mx;
    const h = hi[0]!;
    let ms = 8 * (((h >>> 20) & 0x7ff) - 1023 - eb) + FRAC8[(h >>> 12) & 0xff]!;
    if (ms < 1) ms = 1; else if (ms > 127) ms = 127;
    while (ms < 127 && mx >= thr[ms + 1]!) ms++;
    while (ms > 1 && mx < thr[ms]!) ms--;
    scales[q] = ms;
  }
}
const LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Pass 2, 'cinPerCout': histogram n, sum x, sum x^2 of x = w / S. */
function histPassCin(w: Floats, O: number, I: number, B: number, nbI: number, scales: Uint8Array, invS: Float64Array, hn: Float64Array, hs: Float64Array, hss: Float64Array): void {
  if (I % B === 0) {
    for (let q = 0, p = 0, nq = O * nbI; q < nq; q++) {
      const is = invS[scales[q]!]!;
      for (const end = p + B; p < end; p++) {
        const x = w[p]! * is;
        addToHistogram(x, hn, hs, hss);
      }
    }
    return;
  }
  for (let o = 0, p = 0, q = 0; o < O; o++) {
    const rowEnd = p + I;
    for (let bi = 0; bi < nbI; bi++, q++) {
      const is = invS[scales[q]!]!;
      const end = p + B < rowEnd ? p + B : rowEnd;
      for (; p < end; p++) {
        const x = w[p]! * is;
        addToHistogram(x, hn, hs, hss);
      }
    }
  }
}

/** Pass 2, 'coutPerCin'. */
function histPassCout(w: Floats, O: number, I: number, B: number, scales: Uint8Array, invS: Float64Array, hn: Float64Array, hs: Float64Array, hss: Float64Array): void {
  for (let o = 0, p = 0; o < O; o++) {
    const base = ((o / B) | 0) * I;
    for (let q = base, qEnd = base + I; q < qEnd; q++, p++) {
      const x = w[p]! * invS[scales[q]!]!;
      addToHistogram(x, hn, hs, hss);
    }
  }
}

/** Pass 3, 'cinPerCout': indices into the database, error sums st = [sum w^2, sum e^2, sum rel^2, max rel^2, non-zero]. */
function encodePassCin(w: Floats, O: number, I: number, B: number, nbI: number, scales: Uint8Array, invS: Float64Array, lut: Uint8Array,
  blockAddr: Int32Array, out: Uint8Array, decVal: Float64Array, flush: Uint8Array, uses: Float64Array, st: Float64Array): void {
  let sw2 = 0, se2 = 0, sr2 = 0, maxRel2 = 0, nonzero = 0;
  if (I % B === 0) {
    // Every block full: two weights -> one byte per step.
    for (let q = 0, p = 0, nq = O * nbI; q < nq; q++) {
      const ms = scales[q]!;
      const is = invS[ms]!;
      const row = ms << 4;
      const fl = flush[ms]!;
      let addr = blockAddr[q]!;
      for (const end = p + B; p < end; p += 2, addr++) {
        const v0 = w[p]!, v1 = w[p + 1]!;
        let i0 = lut[binOf(v0 * is)]!;
        let i1 = lut[binOf(v1 * is)]!;
        if (fl) {
          if (decVal[row + i0] === 0 && v0 !== 0) i0 = nearestDecoded(decVal, row, v0);
          if (decVal[row + i1] === 0 && v1 !== 0) i1 = nearestDecoded(decVal, row, v1);
        }
        out[addr] = i0 | (i1 << 4);
        uses[row + i0]!++;
        uses[row + i1]!++;
        const e0 = decVal[row + i0]! - v0, e1 = decVal[row + i1]! - v1;
        sw2 += v0 * v0 + v1 * v1;
        se2 += e0 * e0 + e1 * e1;
        if (v0 !== 0) { const r = (e0 * e0) / (v0 * v0); sr2 += r; nonzero++; if (r > maxRel2) maxRel2 = r; }
        if (v1 !== 0) { const r = (e1 * e1) / (v1 * v1); sr2 += r; nonzero++; if (r > maxRel2) maxRel2 = r; }
      }
    }
    st[0] = sw2; st[1] = se2; st[2] = sr2; st[3] = maxRel2; st[4] = nonzero;
    return;
  }
  for (let o = 0, p = 0, q = 0; o < O; o++) {
    const rowEnd = p + I;
    for (let bi = 0; bi < nbI; bi++, q++) {
      const ms = scales[q]!;
      const is = invS[ms]!;
      const row = ms << 4;
      const fl = flush[ms]!;
      let addr = blockAddr[q]!;
      const end = p + B < rowEnd ? p + B : rowEnd;
      for (let sh = 0; p < end; p++, sh ^= 4) {
        const v = w[p]!;
        let idx = lut[binOf(v * is)]!;
        if (fl && decVal[row + idx] === 0 && v !== 0) idx = nearestDecoded(decVal, row, v);
        out[addr] |= idx << sh;
        addr += sh >>> 2;
        uses[row + idx]!++;
        const err = decVal[row + idx]! - v;
        sw2 += v * v;
        se2 += err * err;
        if (v !== 0) { const r = (err * err) / (v * v); sr2 += r; nonzero++; if (r > maxRel2) maxRel2 = r; }
      }
    }
  }
  st[0] = sw2; st[1] = se2; st[2] = sr2; st[3] = maxRel2; st[4] = nonzero;
}

/** Entry of row `row` (scale m_sf = row / 16) whose decompressed value is nearest to v. */
function nearestDecoded(decVal: Float64Array, row: number, v: number): number {
  let best = 0, bestErr = Infinity;
  for (let i = 0; i < 16; i++) {
    const e = Math.abs(decVal[row + i]! - v);
    if (e < bestErr) { bestErr = e; best = i; }
  }
  return best;
}

/** Pass 3, 'coutPerCin'. */
function encodePassCout(w: Floats, O: number, I: number, B: number, scales: Uint8Array, invS: Float64Array, lut: Uint8Array,
  blockAddr: Int32Array, out: Uint8Array, decVal: Float64Array, flush: Uint8Array, uses: Float64Array, st: Float64Array): void {
  const logB = Math.log2(B);
  let sw2 = 0, se2 = 0, sr2 = 0, maxRel2 = 0, nonzero = 0;
  for (let o = 0, p = 0; o < O; o++) {
    const base = (o >>> logB) * I;
    const e = o & (B - 1); // element within the block
    const sh = (e & 1) << 2, off = e >>> 1;
    for (let q = base, qEnd = base + I; q < qEnd; q++, p++) {
      const v = w[p]!;
      const ms = scales[q]!;
      const row = ms << 4;
      let idx = lut[binOf(v * invS[ms]!)]!;
      if (flush[ms] && decVal[row + idx] === 0 && v !== 0) idx = nearestDecoded(decVal, row, v);
      out[blockAddr[q]! + off] |= idx << sh;
      uses[row + idx]!++;
      const err = decVal[row + idx]! - v;
      sw2 += v * v;
      se2 += err * err;
      if (v !== 0) { const r = (err * err) / (v * v); sr2 += r; nonzero++; if (r > maxRel2) maxRel2 = r; }
    }
  }
  st[0] = sw2; st[1] = se2; st[2] = sr2; st[3] = maxRel2; st[4] = nonzero;
}

/**
 * Decompresses a superblock database back to LnsI4F3 codes of shape [O, I]
 * (EB = the scales' EB), following §14.1 and the layout of §14.2 / §15.4.
 */
export function decompressSuperblocks(bytes: Uint8Array, L: SuperblockLayout): Uint8Array {
  if (bytes.length < L.size) fail(LD_WEIGHTS_SHAPE, `compressed database has ${bytes.length} bytes, layout needs ${L.size}`, undefined, `${CHIP_SPEC} §14.2`);
  const O = L.outputChannels, I = L.inputChannels, B = L.blockSize;
  const out = new Uint8Array(O * I);
  const origin = new Int32Array(2);
  const cinMajor = L.organisation === 'cinPerCout';
  for (let k = 0; k < L.superblocks; k++) {
    const sbBase = 128 + k * L.superblockSize;
    for (let j = 0; j < 128; j++) {
      blockOrigin(L, k, j, origin);
      const sc = bytes[sbBase + j]!;
      const dbase = sbBase + 128 + j * (B >>> 1);
      for (let e = 0; e < B; e++) {
        const co = cinMajor ? origin[0]! : origin[0]! + e;
        const ci = cinMajor ? origin[1]! + e : origin[1]!;
        if (co >= O || ci >= I) continue;
        const nib = (bytes[dbase + (e >>> 1)]! >>> ((e & 1) * 4)) & 15;
        out[co * I + ci] = decompressWeight(bytes[nib]!, sc);
      }
    }
  }
  return out;
}
