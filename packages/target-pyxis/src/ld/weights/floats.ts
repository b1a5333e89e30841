/**
 * Float-input front ends of the database packers: convert float weights with
 * the number-formats library (@pyxis/formats, nearest code, saturating) and
 * pack them. Beta (bias) helpers for chip §15.5.
 */
import { LnsI4F3, LnsI5F10, decodeArray, encodeArray } from '@pyxis/formats';
import { CHIP_SPEC, LD_WEIGHTS_DATA, LD_WEIGHTS_PARAM, LD_WEIGHTS_SHAPE, errorFigures, fail, type QuantisationReport, type WeightsSource } from './common.js';
import { pack3x3Database, type Kernel3x3Layout, type Kernel3x3Options, type PackedDatabase } from './kernel3x3.js';
import { pack1x1BetaGroup, pack1x1I4F3Database, pack1x1I5F10Database, type Linear1x1Layout } from './linear.js';

type Floats = Float32Array | Float64Array;

function checkFinite(w: Floats, what: string, src?: WeightsSource): void {
  for (let p = 0; p < w.length; p++) {
    const v = w[p]!;
    if (v - v !== 0) fail(LD_WEIGHTS_DATA, `${what} element ${p} is ${v}; weights must be finite`, src, `${CHIP_SPEC} §4.3`);
  }
}

function checkEb(eb: number, src?: WeightsSource): void {
  if (!Number.isInteger(eb) || Math.abs(eb) > 1000) fail(LD_WEIGHTS_PARAM, `exponent bias must be an integer, got ${eb}`, src, `${CHIP_SPEC} §4.5`);
}

/** LnsI4F3 codes (EB `eb`) of float weights; NaN/Inf rejected (chip §4.3: weights never use NaN). */
export function encodeLnsI4F3(w: Floats, eb: number, src?: WeightsSource): Uint8Array {
  checkEb(eb, src);
  checkFinite(w, 'weight', src);
  return encodeArray(LnsI4F3, w, { eb, saturate: true }) as Uint8Array;
}

/** LnsI5F10 codes (EB `eb`) of float weights. */
export function encodeLnsI5F10(w: Floats, eb: number, src?: WeightsSource): Uint16Array {
  checkEb(eb, src);
  checkFinite(w, 'weight', src);
  return encodeArray(LnsI5F10, w, { eb, saturate: true }) as Uint16Array;
}

/** Beta for 1x1 / linear layers: one LnsI5F10 code per output channel (chip §15.5). */
export function betaLnsI5F10(beta: Floats, eb: number, src?: WeightsSource): Uint16Array {
  return encodeLnsI5F10(beta, eb, src);
}

/**
 * Beta of a compressed (§15.4) layer of O output channels: one LnsI5F10 code per
 * output channel (EB `eb`) in the trailing 16-bit group of pack1x1BetaGroup
 * (chip §15.5; docs/spec-notes.md "Beta in 1x1 databases"), with its error.
 */
export function betaGroupFromFloats(beta: Floats, O: number, eb: number, src?: WeightsSource): { bytes: Uint8Array; report: QuantisationReport } {
  if (beta.length !== O) fail(LD_WEIGHTS_SHAPE, `Beta needs ${O} values (one per output channel), got ${beta.length}`, src, `${CHIP_SPEC} §15.5`);
  const codes = betaLnsI5F10(beta, eb, src);
  return { bytes: pack1x1BetaGroup(codes, src).bytes, report: quantisationReport(beta, codes, LnsI5F10, eb) };
}

export interface Beta3x3Result {
  /** O x 9 LnsI4F3 codes (tap order NW..SE, table 15-1). */
  kernels: Uint8Array;
  /** max over channels of |sum of the 9 taps - Beta| / |Beta| (0 for Beta = 0). */
  maxRelError: number;
}

/** Tap order used for the Beta terms: CC first, then NW..SE. */
const BETA_TAPS = [4, 0, 1, 2, 3, 5, 6, 7, 8];

/**
 * Beta for 3x3 convolution (chip §15.5): nine LnsI4F3 values whose sum
 * approximates Beta, chosen greedily (each tap = nearest LnsI4F3 code of the
 * remaining residual; the first, largest term in CC). The Beta input channel's
 * data must be 1 under all nine taps at every output position (including the
 * border, i.e. padded with ones, not zeros), see docs/weights.md.
 */
export function beta3x3Kernels(beta: Floats, eb: number, src?: WeightsSource): Beta3x3Result {
  checkEb(eb, src);
  checkFinite(beta, 'Beta', src);
  const O = beta.length;
  const kernels = new Uint8Array(O * 9);
  let maxRel = 0;
  for (let o = 0; o < O; o++) {
    const b = beta[o]!;
    let r = b;
    for (const t of BETA_TAPS) {
      const c = r === 0 ? 0 : LnsI4F3.encodeWith(r, eb, true, false);
      kernels[o * 9 + t] = c;
      r -= LnsI4F3.decode(c, eb);
    }
    if (b !== 0) maxRel = Math.max(maxRel, Math.abs(r / b));
    else if (r !== 0) maxRel = Infinity;
  }
  return { kernels, maxRelError: maxRel };
}

/**
 * Default EB for float weights stored as `format` codes: the smallest integer
 * EB whose largest magnitude still covers max |w| (over every array given), so
 * the format's dynamic range sits just under the largest weight and as few
 * small weights as possible flush to zero (the same rule as
 * defaultCompressionEb for superblocks). 0 for all-zero weights; clamped to
 * -63..63 (the link script's EB range). docs/spec-notes.md "default EB of float weights".
 */
export function fittedEb(formatName: 'LnsI4F3' | 'LnsI5F10', ...arrays: Array<Floats | undefined>): number {
  const format = formatName === 'LnsI4F3' ? LnsI4F3 : LnsI5F10;
  let maxAbs = 0;
  for (const a of arrays) if (a) for (let p = 0; p < a.length; p++) maxAbs = Math.max(maxAbs, Math.abs(a[p]!));
  if (!(maxAbs > 0) || !Number.isFinite(maxAbs)) return 0;
  let top = 0;
  for (let c = 0; c < 1 << format.bits; c++) {
    const v = Math.abs(format.decode(c, 0));
    if (Number.isFinite(v) && v > top) top = v;
  }
  let eb = Math.ceil(Math.log2(maxAbs / top));
  // guard against log2 rounding at exact powers of two
  if (top * 2 ** (eb - 1) >= maxAbs) eb--;
  else if (top * 2 ** eb < maxAbs) eb++;
  return Math.max(-63, Math.min(63, eb)) || 0; // never -0
}

/** Error report of `codes` (format `format`, EB `eb`) against the float weights `w`. */
export function quantisationReport(w: Floats, codes: Uint8Array | Uint16Array, format: typeof LnsI4F3 | typeof LnsI5F10, eb: number): QuantisationReport {
  const dec = decodeArray(format, codes, eb);
  let zeros = 0, nonzero = 0, maxRel = 0, sr2 = 0, sw2 = 0, se2 = 0, flushed = 0, saturated = 0;
  for (let p = 0; p < w.length; p++) {
    const x = w[p]!, y = dec[p]!;
    const e = y - x;
    sw2 += x * x;
    se2 += e * e;
    if (x === 0) {
      zeros++;
      continue;
    }
    nonzero++;
    const r = Math.abs(e / x);
    if (r > maxRel) maxRel = r;
    sr2 += r * r;
    if (y === 0) flushed++;
    // saturated = changed by saturation: without it the value overflows the format (NaN code), i.e. it lies past the
    // log midpoint above the largest magnitude; a weight that rounds to the largest code anyway is not counted
    else if (format.isNaN(format.encodeWith(x, eb, false, false))) saturated++;
  }
  return { weights: w.length, zeroWeights: zeros, maxRelError: maxRel, ...errorFigures(sw2, se2, sr2, nonzero), flushedToZero: flushed, saturated };
}

export interface FloatPackOptions {
  /** Exponent bias of the LnsI4F3 / LnsI5F10 weights. */
  eb: number;
  source?: WeightsSource;
}

/** §15.1 database from float weights [O, I, 3, 3] (LnsI4F3, EB `eb`); Beta as floats (encoded with beta3x3Kernels). */
export function pack3x3DatabaseFromFloats(
  w: Floats, shape: readonly number[], opts: FloatPackOptions & Omit<Kernel3x3Options, 'beta'> & { beta?: Floats },
): PackedDatabase<Kernel3x3Layout> & { report: QuantisationReport; betaMaxRelError?: number } {
  const codes = encodeLnsI4F3(w, opts.eb, opts.source);
  const report = quantisationReport(w, codes, LnsI4F3, opts.eb);
  const k: Kernel3x3Options = { filtersPerGridRow: opts.filtersPerGridRow };
  if (opts.gridRows !== undefined) k.gridRows = opts.gridRows;
  if (opts.source) k.source = opts.source;
  if (opts.beta) {
    const b = beta3x3Kernels(opts.beta, opts.eb, opts.source);
    k.beta = b.kernels;
    return { ...pack3x3Database(codes, shape, k), report, betaMaxRelError: b.maxRelError };
  }
  return { ...pack3x3Database(codes, shape, k), report };
}

/** §15.2 database from float weights [O, I] (LnsI4F3, EB `eb`); Beta as LnsI5F10 with `betaEb` (default `eb`). */
export function pack1x1I4F3DatabaseFromFloats(
  w: Floats, shape: readonly number[], opts: FloatPackOptions & { beta?: Floats; betaEb?: number },
): PackedDatabase<Linear1x1Layout> & { report: QuantisationReport; betaMaxRelError?: number } {
  const codes = encodeLnsI4F3(w, opts.eb, opts.source);
  const b = linearBeta(opts.beta, opts.betaEb ?? opts.eb, opts.source);
  return { ...pack1x1I4F3Database(codes, shape, b.opts), report: quantisationReport(w, codes, LnsI4F3, opts.eb), ...b.error };
}

/** §15.3 database from float weights [O, I] (LnsI5F10, EB `eb`); Beta with the same EB. */
export function pack1x1I5F10DatabaseFromFloats(
  w: Floats, shape: readonly number[], opts: FloatPackOptions & { beta?: Floats },
): PackedDatabase<Linear1x1Layout> & { report: QuantisationReport; betaMaxRelError?: number } {
  const codes = encodeLnsI5F10(w, opts.eb, opts.source);
  const b = linearBeta(opts.beta, opts.eb, opts.source);
  return { ...pack1x1I5F10Database(codes, shape, b.opts), report: quantisationReport(w, codes, LnsI5F10, opts.eb), ...b.error };
}

/** Packer options (LnsI5F10 Beta codes, source) and the Beta's max relative error, shared by the 1x1 front ends. */
function linearBeta(beta: Floats | undefined, eb: number, source?: WeightsSource): { opts: { beta?: Uint16Array; source?: WeightsSource }; error: { betaMaxRelError?: number } } {
  const opts: { beta?: Uint16Array; source?: WeightsSource } = {};
  if (source) opts.source = source;
  if (!beta) return { opts, error: {} };
  opts.beta = betaLnsI5F10(beta, eb, source);
  return { opts, error: { betaMaxRelError: quantisationReport(beta, opts.beta, LnsI5F10, eb).maxRelError } };
}
