/**
 * Arithmetic with the formats' special-value rules: MNS accumulation (sticky max,
 * sticky NaN, chip §4.6) and saturating fixed point (systolic-fpga-hardware.md §1).
 */
import { FormatErrorCode, checkEb, fail } from './errors.js';
import { fixedMacRaw } from './fixed.js';
import type { FixedPoint, MnsFormat } from './formats.js';

/**
 * acc + x in MNS (chip §4.6, §6.3.4). `acc` is an MNS code, `x` a linear value
 * (a product or another accumulator's value, scaled by the same EB). NaN in -> NaN;
 * a sticky max accumulator is unchanged by any finite addend; the exact sum is
 * normalised with round-to-nearest-even, underflow -> zero, overflow -> sticky max.
 */
export function mnsAccumulate(fmt: MnsFormat, acc: number, x: number, eb = 0): number {
  if (acc === fmt.nanCode || x !== x) return fmt.nanCode;
  if (fmt.isSticky(acc)) return acc;
  return fmt.encode(fmt.decode(acc, eb) + x, { eb });
}

/**
 * a + b for two MNS codes (split accumulation AA + WBA, chip §6.3.4.1; the result
 * is in `out` format, default `fmt`). NaN is sticky; +max + (-max) = NaN (chip §4);
 * one sticky operand gives that sticky value.
 */
export function mnsAdd(fmt: MnsFormat, a: number, b: number, eb = 0, out: MnsFormat = fmt): number {
  if (a === fmt.nanCode || b === fmt.nanCode) return out.nanCode;
  const sa = fmt.isSticky(a);
  const sb = fmt.isSticky(b);
  if (sa && sb) return a === b ? (a === fmt.maxCode ? out.maxCode : out.minCode) : out.nanCode;
  if (sa) return a === fmt.maxCode ? out.maxCode : out.minCode;
  if (sb) return b === fmt.maxCode ? out.maxCode : out.minCode;
  return out.encode(fmt.decode(a, eb) + fmt.decode(b, eb), { eb });
}

/** MNS 5.1.13 -> 5.1.18 (or back) at the same EB: specials map to specials, values re-rounded. */
export function mnsConvert(from: MnsFormat, to: MnsFormat, code: number): number {
  if (code === from.nanCode) return to.nanCode;
  if (code === from.maxCode) return to.maxCode;
  if (code === from.minCode) return to.minCode;
  return to.encode(from.decode(code, 0), { eb: 0 });
}

function checkFixed(fmt: FixedPoint, code: number): number {
  if (!(code >= 0 && code <= fmt.maxInt - fmt.minInt && Number.isInteger(code))) {
    fail(FormatErrorCode.codeRange, `code ${code} does not fit ${fmt.name}`, fmt.spec);
  }
  return fmt.toSigned(code);
}

function clampCode(fmt: FixedPoint, q: number): number {
  return fmt.fromSigned(Math.min(fmt.maxInt, Math.max(fmt.minInt, q)));
}

/** Saturating fixed-point addition (systolic FPGA FP16BP8 / FP32B16, Int16). */
export function fixedAdd(fmt: FixedPoint, a: number, b: number): number {
  return clampCode(fmt, checkFixed(fmt, a) + checkFixed(fmt, b));
}

/**
 * Saturating fixed-point multiplication: the multiply-accumulate step with a zero accumulator
 * (fixed.ts `fixedMacRaw`: the full product shifted right by the binary point with
 * round-to-nearest-even, then clamped; see spec-notes).
 */
export function fixedMul(fmt: FixedPoint, a: number, b: number): number {
  return fmt.fromSigned(fixedMacRaw(fmt, checkFixed(fmt, a), checkFixed(fmt, b), 0));
}

/** The Pyxis sign-magnitude formats with saturating (non-sticky) maxima: RFP8, RFP16. */
interface PyxisFpLike {
  readonly name: string;
  readonly maxCode: number;
  readonly nanCode: number | undefined;
  decode(code: number, eb?: number): number;
  encode(value: number, opts?: { eb?: number }): number;
  /** encode() without option validation: no allocation per call (simulator hot loops). */
  encodeWith(value: number, eb: number, saturate: boolean, rtz: boolean): number;
}

function isMax(fmt: PyxisFpLike, c: number): number {
  const sign = fmt.maxCode + 1;
  return c === fmt.maxCode ? 1 : c === sign + fmt.maxCode ? -1 : 0;
}

/**
 * a + b in RFP8/RFP16 (chip §4): NaN is sticky; (+max) + (-max) = NaN; otherwise the
 * exact sum is rounded to nearest-even and clamped to +-max (max is not sticky).
 */
export function rfpAdd(fmt: PyxisFpLike, a: number, b: number, eb = 0): number {
  const nan = fmt.nanCode!;
  if (a === nan || b === nan) return nan;
  const ma = isMax(fmt, a);
  const mb = isMax(fmt, b);
  if (ma !== 0 && ma === -mb) return nan;
  checkEb(eb);
  return fmt.encodeWith(fmt.decode(a, eb) + fmt.decode(b, eb), eb, true, false);
}

/** a - b in RFP8/RFP16: subtracting two maxima of the same sign is NaN (chip §4). */
export function rfpSub(fmt: PyxisFpLike, a: number, b: number, eb = 0): number {
  const nan = fmt.nanCode!;
  if (b === nan) return nan;
  const sign = fmt.maxCode + 1;
  const nb = b === 0 ? 0 : b ^ sign;
  return rfpAdd(fmt, a, nb, eb);
}

/** a * b in RFP8/RFP16 with result EB `ebOut` (default ebA + ebB): NaN sticky, saturating. */
export function rfpMul(fmt: PyxisFpLike, a: number, b: number, ebA = 0, ebB = 0, ebOut = ebA + ebB): number {
  const nan = fmt.nanCode!;
  if (a === nan || b === nan) return nan;
  checkEb(ebOut);
  return fmt.encodeWith(fmt.decode(a, ebA) * fmt.decode(b, ebB), ebOut, true, false);
}
