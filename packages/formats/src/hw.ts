/**
 * The UIE datapath type converters, bit-exact on codes (chip §6.5 table 6-4).
 * Every function takes and returns unsigned codes. EB adjustments are 6-bit
 * signed integers in [-32, 31]: exponent overflow -> maximum magnitude of the
 * type, exponent underflow -> zero (chip §6.5).
 */
import { pow2, rneDiv, rneShift } from './bits.js';
import { CHIP, FormatErrorCode, SEQ, checkCode, checkEbAdj, checkOptions, fail } from './errors.js';
import { MNS18, type MnsFormat } from './formats.js';

// ---------------------------------------------------------------------------
// Pyxis sign-magnitude packing shared by all converters (RFP8/16, LNS): the
// one place where the reserved codepoints are respected on output.
// ---------------------------------------------------------------------------

/**
 * Pack sign / exponent (or LNS integer) / fraction into a Pyxis code. E is the
 * already EB-adjusted nominal exponent (may be out of range): E > emax ->
 * saturating max of the sign, E < 0 -> zero, E = 0 & F = 0 -> zero (that
 * pattern is the zero/NaN codepoint, chip §4.1; see spec-notes).
 */
export function packPyxis(sign: number, E: number, F: number, ebits: number, fbits: number): number {
  const emax = (1 << ebits) - 1;
  const mag = (1 << (ebits + fbits)) - 1;
  const s = sign ? 1 << (ebits + fbits) : 0;
  if (E > emax) return s | mag;
  if (E < 0) return 0;
  if (E === 0 && F === 0) return 0;
  return s | (E << fbits) | F;
}

function pyxisEbAdjust(code: number, ebAdj: number, ebits: number, fbits: number): number {
  const magMask = (1 << (ebits + fbits)) - 1;
  const mag = code & magMask;
  if (mag === 0) return code; // zero and NaN pass unchanged
  return packPyxis(code >>> (ebits + fbits), (mag >>> fbits) + ebAdj, mag & ((1 << fbits) - 1), ebits, fbits);
}

export type PyxisConvFormat = 'RFP8' | 'RFP16' | 'LnsI4F3' | 'LnsI5F3' | 'LnsI5F10';
const LAYOUT: Record<PyxisConvFormat, [number, number]> = {
  RFP8: [4, 3],
  RFP16: [5, 10],
  LnsI4F3: [4, 3],
  LnsI5F3: [5, 3],
  LnsI5F10: [5, 10],
};

/**
 * EB adjustment within one Pyxis type (FP16->FP16 scaling chip §6.2.1.4.2 / §6.2.2.2.1,
 * I5F10->I5F10 chip §6.2.4.5): exponent += EB_adj with saturation/underflow.
 */
export function ebAdjust(format: PyxisConvFormat, code: number, ebAdj: number): number {
  checkEbAdj(ebAdj);
  const l = LAYOUT[format];
  if (!l) fail(FormatErrorCode.badOption, `ebAdjust: ${String(format)} is not a Pyxis FP/LNS format`, `${CHIP} §6.5`);
  checkCode(code, 1 + l[0] + l[1], format);
  return pyxisEbAdjust(code, ebAdj, l[0], l[1]);
}

/** FP8 -> FP16 promotion (chip §6.2.1.4.2, table 6-4 (1)): E5 = E4 + EB_Adj_FP8, M10 = {M3, 7'b0}. */
export function fp8ToFp16(code: number, ebAdj = 0): number {
  checkEbAdj(ebAdj, 'EB_Adj_FP8');
  checkCode(code, 8, 'RFP8');
  return fp8ToFp16Raw(code, ebAdj);
}
export function fp8ToFp16Raw(code: number, ebAdj: number): number {
  const mag = code & 0x7f;
  if (mag === 0) return code === 0 ? 0 : 0x8000;
  return packPyxis(code >>> 7, (mag >>> 3) + ebAdj, (mag & 7) << 7, 5, 10);
}

/**
 * FP16 -> FP8 (chip §6.2.2.2): E4 = E5 + EB_Adj_FP8 then the §6.2.2.2.2 rounding:
 * F3 = F10[9:7]; round up if (F10[6] && F10[5:0] != 0) || (F10[7] && F10[6] && F10[5:0] == 0);
 * a carry out of F3 increments the exponent; exponent overflow saturates to all-1's E and F.
 */
export function fp16ToFp8(code: number, ebAdj = 0): number {
  checkEbAdj(ebAdj, 'EB_Adj_FP8');
  checkCode(code, 16, 'RFP16');
  return fp16ToFp8Raw(code, ebAdj);
}
export function fp16ToFp8Raw(code: number, ebAdj: number): number {
  const mag = code & 0x7fff;
  if (mag === 0) return code === 0 ? 0 : 0x80;
  const f10 = mag & 0x3ff;
  let E = (mag >>> 10) + ebAdj;
  let f3 = f10 >>> 7;
  const b6 = (f10 >>> 6) & 1;
  const low = f10 & 0x3f;
  const b7 = (f10 >>> 7) & 1;
  if ((b6 && low !== 0) || (b7 && b6 && low === 0)) {
    f3 += 1;
    if (f3 === 8) {
      f3 = 0;
      E += 1;
    }
  }
  return packPyxis(code >>> 15, E, f3, 4, 3);
}

/** RFP16 -> RFP16 scaling (chip §6.2.1.4.2, §6.2.2.2.1): E5_out = E5_in + EB_Adj_FP16. */
export function fp16ToFp16(code: number, ebAdj = 0): number {
  return ebAdjust('RFP16', code, ebAdj);
}

/** LnsI4F3 -> LnsI5F3 promotion (chip §6.2.4.5): I5 = I4 + EB_Adj_I4I5, F3 unchanged. */
export function lnsI4F3ToI5F3(code: number, ebAdj = 0): number {
  checkEbAdj(ebAdj, 'EB_Adj_I4I5');
  checkCode(code, 8, 'LnsI4F3');
  const mag = code & 0x7f;
  if (mag === 0) return code & 0x80 ? 0x100 : 0;
  return packPyxis((code >>> 7) & 1, (mag >>> 3) + ebAdj, mag & 7, 5, 3);
}

/** LnsI5F3 (9 bit) -> LnsI5F10 by appending 7 zero fraction bits (grid operand widening). */
export function lnsI5F3ToI5F10(code: number): number {
  checkCode(code, 9, 'LnsI5F3');
  const mag = code & 0xff;
  if (mag === 0) return code & 0x100 ? 0x8000 : 0;
  return ((code & 0x100) << 7) | ((mag >>> 3) << 10) | ((mag & 7) << 7);
}

// ---------------------------------------------------------------------------
// Lin <-> log mappings at 10 bits (chip §4.7, §4.8). The exact rational result
// of the four-piece linear map is rounded once to 10 fraction bits, ties to even
// (see spec-notes). Entries are in units of 2^-10 and may equal 1024 (carry).
// ---------------------------------------------------------------------------

/** log2(1+f) ~= f - delta'(f) for f = k/1024 (chip §4.8), in units of 2^-10. */
export function lin2logFraction(k: number, mappingCorrection = true): number {
  if (!mappingCorrection) return k;
  if (k < 192) return rneDiv(4 * k, 3); // f - (-f/3), f in [0, 3/16)
  if (k < 424) return rneDiv(128 * k + 5 * 1024, 116); // f + (12f+5)/116, [3/16, 53/128)
  if (k < 696) return rneDiv(128 * k + 15 * 1024, 136); // f - (8f-15)/136, [53/128, 87/128)
  return rneDiv(32 * k + 9 * 1024, 41); // f - (9f-9)/41, [87/128, 1]
}

/** 2^x - 1 ~= x + delta(x) for x = k/1024 (chip §4.7), in units of 2^-10. */
export function log2linFraction(k: number, mappingCorrection = true): number {
  if (!mappingCorrection) return k;
  if (k < 256) return rneDiv(3 * k, 4); // x - x/4, [0, 0.25)
  if (k < 512) return rneDiv(116 * k - 5 * 1024, 128); // x - (12x+5)/128, [0.25, 0.5)
  if (k < 768) return rneDiv(136 * k - 15 * 1024, 128); // x + (8x-15)/128, [0.5, 0.75)
  return rneDiv(41 * k - 9 * 1024, 32); // x + (9x-9)/32, [0.75, 1]
}

const L2L = [new Uint16Array(1024), new Uint16Array(1024)] as const; // [disabled, enabled]
const G2L = [new Uint16Array(1024), new Uint16Array(1024)] as const;
for (let k = 0; k < 1024; k++) {
  L2L[0][k] = k;
  L2L[1][k] = lin2logFraction(k, true);
  G2L[0][k] = k;
  G2L[1][k] = log2linFraction(k, true);
}

export interface MappingOptions {
  /** EB adjustment added to the exponent / LNS integer (6-bit signed). Default 0. */
  ebAdj?: number;
  /** Apply the four-piece mapping correction (default true); GV/GH `dsbl_mapping_corr` = !mappingCorrection. */
  mappingCorrection?: boolean;
  /** Force this many fraction LSBs to zero after the mapping (GV `fbits_truncate_amt`, 0..7). Default 0. */
  fbitsTruncateAmt?: number;
}

function checkTrunc(t: number): void {
  if (!Number.isInteger(t) || t < 0 || t > 7) {
    fail(FormatErrorCode.badOption, `fbits_truncate_amt = ${t} is outside the 3-bit range [0, 7]`, `${SEQ} §10.2`);
  }
}

/**
 * RFP16 -> LnsI5F10 (Lin2Log, chip §4.8, §6.2.1.5, table 6-4 (3)/(5)):
 * I5 = E5 + EB_adj (+1 on a fraction carry), F10 = round10(f - delta'(f)),
 * then `fbits_truncate_amt` LSBs forced to zero.
 */
export function linToLog(code: number, opts: MappingOptions = {}): number {
  checkOptions(opts, 'mapping', 'linToLog');
  const ebAdj = opts.ebAdj ?? 0;
  const t = opts.fbitsTruncateAmt ?? 0;
  checkEbAdj(ebAdj);
  checkTrunc(t);
  checkCode(code, 16, 'RFP16');
  return linToLogRaw(code, ebAdj, opts.mappingCorrection ?? true, t);
}
export function linToLogRaw(code: number, ebAdj: number, corr: boolean, trunc: number): number {
  const mag = code & 0x7fff;
  if (mag === 0) return code === 0 ? 0 : 0x8000;
  let E = (mag >>> 10) + ebAdj;
  let f = L2L[corr ? 1 : 0][mag & 0x3ff]!;
  if (f === 1024) {
    f = 0;
    E += 1;
  }
  f &= ~((1 << trunc) - 1) & 0x3ff;
  return packPyxis(code >>> 15, E, f, 5, 10);
}

/**
 * LnsI5F10 -> RFP16 (Log2Lin, chip §4.7): E5 = I5 + EB_adj, M10 = round10(F + delta(F))
 * (a carry increments E5); `fbitsTruncateAmt` = 7 clips the result to 3 fraction bits (chip §4.7 last paragraph).
 */
export function logToLin(code: number, opts: MappingOptions = {}): number {
  checkOptions(opts, 'mapping', 'logToLin');
  const ebAdj = opts.ebAdj ?? 0;
  const t = opts.fbitsTruncateAmt ?? 0;
  checkEbAdj(ebAdj);
  checkTrunc(t);
  checkCode(code, 16, 'LnsI5F10');
  return logToLinRaw(code, ebAdj, opts.mappingCorrection ?? true, t);
}
export function logToLinRaw(code: number, ebAdj: number, corr: boolean, trunc: number): number {
  const mag = code & 0x7fff;
  if (mag === 0) return code === 0 ? 0 : 0x8000;
  let E = (mag >>> 10) + ebAdj;
  let f = G2L[corr ? 1 : 0][mag & 0x3ff]!;
  if (f === 1024) {
    f = 0;
    E += 1;
  }
  f &= ~((1 << trunc) - 1) & 0x3ff;
  return packPyxis(code >>> 15, E, f, 5, 10);
}

/**
 * RFP8 -> LnsI5F3 for horizontal MatMul data (chip §6.2.1.5 table 6-2, §6.2.4.4-6.2.4.5):
 * I5 = E4 + EB_Adj_I4I5; with mapping correction the 10-bit mapped fraction of
 * {M3, 7'b0} is rounded to 3 bits with the §6.2.2.2.2 round-to-even rule (carry -> I5+1).
 */
export function fp8ToLnsI5F3(code: number, opts: Omit<MappingOptions, 'fbitsTruncateAmt'> = {}): number {
  checkOptions(opts, 'fp8map', 'fp8ToLnsI5F3');
  const ebAdj = opts.ebAdj ?? 0;
  checkEbAdj(ebAdj, 'EB_Adj_I4I5');
  checkCode(code, 8, 'RFP8');
  return fp8ToLnsI5F3Raw(code, ebAdj, opts.mappingCorrection ?? true);
}
export function fp8ToLnsI5F3Raw(code: number, ebAdj: number, corr: boolean): number {
  const mag = code & 0x7f;
  if (mag === 0) return code === 0 ? 0 : 0x100;
  let E = (mag >>> 3) + ebAdj;
  const f10 = L2L[corr ? 1 : 0][(mag & 7) << 7]!;
  let f3 = rneShift(f10, 7);
  if (f3 >= 8) {
    f3 -= 8;
    E += 1;
  }
  return packPyxis(code >>> 7, E, f3, 5, 3);
}

/**
 * Weight decompression (chip §14.1): weight_lns = codebook[idx] + block_scaling_factor_lns - 15,
 * all LnsI4F3. The codebook has fixed EB = -15; the result has the scaling factor's EB.
 * Sign = XOR of the signs; a zero operand gives zero; I.F > 15.875 saturates to max,
 * I.F <= 0 underflows to zero. NaN operands (not allowed for weights, chip §4.3) give NaN.
 */
export function decompressWeight(codebookEntry: number, scale: number): number {
  checkCode(codebookEntry, 8, 'LnsI4F3');
  checkCode(scale, 8, 'LnsI4F3');
  const cm = codebookEntry & 0x7f;
  const sm = scale & 0x7f;
  if ((cm === 0 && codebookEntry & 0x80) || (sm === 0 && scale & 0x80)) return 0x80;
  if (cm === 0 || sm === 0) return 0;
  const sign = ((codebookEntry ^ scale) >>> 7) & 1;
  const q = cm + sm - 15 * 8; // I.F in units of 1/8
  if (q > 0x7f) return (sign << 7) | 0x7f;
  if (q <= 0) return 0;
  return (sign << 7) | q;
}

// ---------------------------------------------------------------------------
// MNS -> FP16 (chip §6.2.2.1.1-6.2.2.1.2, table 6-4 (4)).
// ---------------------------------------------------------------------------

/**
 * MNS (default 5.1.18) -> RFP16: NaN -> RFP16 NaN; two's complement mantissa to
 * sign-magnitude (-2.0*2^E -> -1.0*2^(E+1)); round the mantissa to 10 bits
 * (ties to even; carry increments E); then E5 = E + EB_Adj_MNS_FP16 with
 * overflow -> +-max and underflow -> zero. Sticky max is converted as the value it encodes.
 */
export function mnsToFp16(code: number, ebAdj = 0, fmt: MnsFormat = MNS18): number {
  checkEbAdj(ebAdj, 'EB_Adj_MNS_FP16');
  checkCode(code, fmt.bits, fmt.name);
  return mnsToFp16Raw(code, ebAdj, fmt);
}
export function mnsToFp16Raw(code: number, ebAdj: number, fmt: MnsFormat): number {
  if (code === 0) return 0;
  if (code === fmt.nanCode) return 0x8000;
  const N = fmt.fbits;
  const one = 1 << N;
  const neg = code >>> (N + 5); // codes are < 2^24: plain int32 bit operations
  let E = (code >>> N) & 31;
  const F = code & (one - 1);
  // 1. sign-magnitude: magnitude in units of 2^-N, in [2^N, 2^(N+1)]
  let mag = neg ? 2 * one - F : one + F;
  if (mag === 2 * one) {
    mag = one; // -2.0 * 2^E -> -1.0 * 2^(E+1)
    E += 1;
  }
  // 2. round to 10 fraction bits (nearest, ties to even)
  const sh = N - 10;
  let m = mag >>> sh;
  const rem = mag & ((1 << sh) - 1);
  const half = 1 << (sh - 1);
  if (rem > half || (rem === half && (m & 1) === 1)) m += 1;
  if (m === 2048) {
    m = 1024;
    E += 1;
  }
  // 3. NaN handled above; EB adjust with saturation / underflow
  return packPyxis(neg, E + ebAdj, m - 1024, 5, 10);
}

// ---------------------------------------------------------------------------
// IEEE FP16 and OCP FP8 import/export (chip §4.9, §4.10, table 6-4 (1)/(2)).
// ---------------------------------------------------------------------------

export type ExtFormat = 'IEEE_FP16' | 'OCP_E4M3' | 'OCP_E5M2';
interface ExtLayout {
  ebits: number;
  mbits: number;
  fn: boolean; // E4M3: no infinities, only S.1111.111 is NaN
  maxFinite: number;
  inf: number; // -1 when none
  nan: number; // canonical +NaN
}
const EXT: Record<ExtFormat, ExtLayout> = {
  IEEE_FP16: { ebits: 5, mbits: 10, fn: false, maxFinite: 0x7bff, inf: 0x7c00, nan: 0x7e00 },
  OCP_E4M3: { ebits: 4, mbits: 3, fn: true, maxFinite: 0x7e, inf: -1, nan: 0x7f },
  OCP_E5M2: { ebits: 5, mbits: 2, fn: false, maxFinite: 0x7b, inf: 0x7c, nan: 0x7e },
};

function extLayout(format: ExtFormat): ExtLayout {
  const l = EXT[format];
  if (!l) fail(FormatErrorCode.badOption, `unknown import/export format ${String(format)}`, `${CHIP} §4.9-4.10`);
  return l;
}

export interface ImportOptions {
  /** EB_adj = -15 - FP16_out_EB (IEEE FP16, OFP8 E5M2) or -7 - FP16_out_EB (E4M3). Default 0. */
  ebAdj?: number;
  /** Saturating mode: +-infinity -> +-max (else NaN). Default true. */
  saturate?: boolean;
}

/** IEEE FP16 / OFP8 -> RFP16 (chip §4.9.1, §4.10.1). */
export function importToRfp16(format: ExtFormat, code: number, opts: ImportOptions = {}): number {
  checkOptions(opts, 'import', 'importToRfp16');
  const ebAdj = opts.ebAdj ?? 0;
  checkEbAdj(ebAdj);
  const l = extLayout(format);
  checkCode(code, 1 + l.ebits + l.mbits, format);
  return importRaw(l, code, ebAdj, opts.saturate ?? true);
}
function importRaw(l: ExtLayout, code: number, ebAdj: number, saturate: boolean): number {
  const bits = 1 + l.ebits + l.mbits;
  const signBit = 1 << (bits - 1);
  const sign = code & signBit ? 1 : 0;
  const mag = code & (signBit - 1);
  const emaxF = (1 << l.ebits) - 1;
  let E = mag >>> l.mbits;
  let M = mag & ((1 << l.mbits) - 1);
  if (mag === 0) return 0; // +-0 -> zero
  if (l.fn) {
    if (E === emaxF && M === (1 << l.mbits) - 1) return 0x8000;
  } else if (E === emaxF) {
    if (M !== 0) return 0x8000; // NaN
    return saturate ? (sign << 15) | 0x7fff : 0x8000; // infinity
  }
  if (E === 0) {
    // normalise a subnormal input: 0.M * 2^(1-bias) -> 1.M' * 2^(E-bias)
    E = 1;
    while ((M & (1 << l.mbits)) === 0) {
      M <<= 1;
      E -= 1;
    }
    M &= (1 << l.mbits) - 1;
  }
  return packPyxis(sign, E + ebAdj, M << (10 - l.mbits), 5, 10);
}

export interface ExportOptions {
  /** EB_adj = FP16_in_EB + 15 (IEEE FP16, OFP8 E5M2) or FP16_in_EB + 7 (E4M3). Default 0. */
  ebAdj?: number;
  /**
   * OFP8: saturating mode (overflow -> +-max normal; else E4M3 NaN / E5M2 infinity). Default true.
   * IEEE FP16 ignores it: overflow is always +-infinity (chip §4.9.2).
   */
  saturate?: boolean;
  /** IEEE FP16 only: RFP16 +-max -> +-infinity (CSR option, chip §4.9.2). Default false. */
  maxToInf?: boolean;
}

/** RFP16 -> IEEE FP16 / OFP8 (chip §4.9.2, §4.10.2): round-to-even, subnormal outputs. */
export function exportFromRfp16(format: ExtFormat, code: number, opts: ExportOptions = {}): number {
  checkOptions(opts, 'export', 'exportFromRfp16');
  // chip §4.9.2: IEEE FP16 overflows to infinity (no saturating mode); maxToInf is its CSR option alone
  if (format === 'IEEE_FP16' && opts.saturate === true)
    fail(FormatErrorCode.badOption, 'exportFromRfp16: IEEE_FP16 has no saturating mode (overflow is always +-infinity); saturate: true would be ignored', `${CHIP} §4.9.2`);
  if (format !== 'IEEE_FP16' && opts.maxToInf === true)
    fail(FormatErrorCode.badOption, `exportFromRfp16: maxToInf is the IEEE FP16 option; ${format} would ignore it`, `${CHIP} §4.10.2`);
  const ebAdj = opts.ebAdj ?? 0;
  checkEbAdj(ebAdj);
  const l = extLayout(format);
  checkCode(code, 16, 'RFP16');
  return exportRaw(l, code, ebAdj, format === 'IEEE_FP16' ? false : opts.saturate ?? true, !!opts.maxToInf && format === 'IEEE_FP16');
}
function exportRaw(l: ExtLayout, code: number, ebAdj: number, saturate: boolean, maxToInf: boolean): number {
  const mag = code & 0x7fff;
  if (mag === 0) return code === 0 ? 0 : l.nan; // zero -> +0, NaN -> +NaN
  const bits = 1 + l.ebits + l.mbits;
  const s = code & 0x8000 ? 1 << (bits - 1) : 0;
  const over = saturate ? s | l.maxFinite : l.fn ? s | l.nan : s | l.inf;
  if (maxToInf && mag === 0x7fff) return s | l.inf;
  let Et = (mag >>> 10) + ebAdj;
  const mant = 1024 | (mag & 0x3ff); // 1.F10 in units of 2^-10
  let r: number;
  if (Et >= 1) {
    r = rneShift(mant, 10 - l.mbits);
    if (r === 2 << l.mbits) {
      r >>>= 1;
      Et += 1;
    }
    if (Et >= (1 << l.ebits) + 1) return over; // far beyond: avoid building a code
    r = (Et << l.mbits) | (r & ((1 << l.mbits) - 1));
  } else {
    // subnormal output: value / min_subnormal = mant / 2^sh
    const sh = 10 - l.mbits + (1 - Et);
    if (sh > 11) return s; // smaller than the minimum subnormal -> +-0 (chip §4.9.2, §4.10.2)
    if (mant < 1 << sh) return s;
    r = rneShift(mant, sh); // r == 2^mbits becomes the smallest normal
  }
  if (r > l.maxFinite) return over;
  return s | r;
}

export const importIeeeFp16 = (code: number, opts?: ImportOptions): number => importToRfp16('IEEE_FP16', code, opts);
export const exportIeeeFp16 = (code: number, opts?: ExportOptions): number => exportFromRfp16('IEEE_FP16', code, opts);
export const importOfp8 = (format: 'E4M3' | 'E5M2', code: number, opts?: ImportOptions): number =>
  importToRfp16(format === 'E4M3' ? 'OCP_E4M3' : 'OCP_E5M2', code, opts);
export const exportOfp8 = (format: 'E4M3' | 'E5M2', code: number, opts?: ExportOptions): number =>
  exportFromRfp16(format === 'E4M3' ? 'OCP_E4M3' : 'OCP_E5M2', code, opts);

/** EB of the MNS accumulators: EB_MNS = EB_data1 + EB_data2 + 16 (chip §4.6). */
export function mnsEb(ebData1: number, ebData2: number): number {
  return ebData1 + ebData2 + 16;
}

/**
 * One LLC product in the log domain (chip §4.6, §4.7, §6.3): two LnsI5F10 codes
 * (LnsI5F3 operands widened with `lnsI5F3ToI5F10`) are multiplied by adding
 * I.F (the 10-bit fraction sum carries into the integer), the sign is the XOR,
 * and the log2lin mapping (§4.7, optional correction) gives 1.M10. The result is
 * returned as a double in units of 2^EB_MNS, where EB_MNS = EB_a + EB_b + 16
 * (`mnsEb`), i.e. nominal exponent I_a + I_b - 16; feed it to `mnsAccumulate(fmt, acc, v, 0)`
 * (which applies the MNS underflow/overflow rules). Zero operand -> 0, NaN -> NaN.
 */
export function llcProduct(a: number, b: number, mappingCorrection = true): number {
  checkCode(a, 16, 'LnsI5F10');
  checkCode(b, 16, 'LnsI5F10');
  const ma = a & 0x7fff;
  const mb = b & 0x7fff;
  if ((ma === 0 && a !== 0) || (mb === 0 && b !== 0)) return NaN;
  if (ma === 0 || mb === 0) return 0;
  let I = (ma >>> 10) + (mb >>> 10) - 16;
  let f = (ma & 0x3ff) + (mb & 0x3ff);
  if (f >= 1024) {
    f -= 1024;
    I += 1;
  }
  const m = 1024 + G2L[mappingCorrection ? 1 : 0][f]!; // may be 2048 (carry)
  const v = m * pow2(I - 10);
  return (a ^ b) & 0x8000 ? -v : v;
}
