/**
 * IEEE 754 binary32 add/sub/mul as the PE's Berkeley HardFloat units compute
 * them (AddRecFN / MulRecFN behind recFNFromFN / fNFromRecFN; spec "Design",
 * "rounding", "tininess"): correctly rounded under the six HardFloat rounding
 * modes, subnormals kept (no flush), and every NaN result the canonical quiet
 * NaN 0x7FC00000 (HardFloat never propagates payloads). The exception flags
 * HardFloat raises are accumulated in `fpFlags` — the PE drops them (its `out`
 * is 32 data bits), but tininess (before/after rounding) only shows there, so
 * the model keeps them for the run statistics.
 *
 * Values are raw bit patterns in uint32 numbers. Significands are integers in
 * doubles: a 24x24-bit product (< 2^48) and an aligned sum (< 2^51) are exact,
 * so no BigInt and no allocation on the hot path.
 */

/** HardFloat `roundingMode` codepoints (spec "rounding": 3 bits; only minMag's 0b001 survives the OCR). */
export const ROUND_NEAR_EVEN = 0;
export const ROUND_MIN_MAG = 1;
export const ROUND_MIN = 2;
export const ROUND_MAX = 3;
export const ROUND_NEAR_MAX_MAG = 4;
export const ROUND_ODD = 6;

/** Spec "tininess": 0 = detected before rounding, 1 = after rounding (HardFloat `detectTininess`). */
export const TININESS_BEFORE = 0;
export const TININESS_AFTER = 1;

/** HardFloat exception flag bits {invalid, infinite, overflow, underflow, inexact} (low bit = inexact). */
export const FLAG_INEXACT = 1;
export const FLAG_UNDERFLOW = 2;
export const FLAG_OVERFLOW = 4;
export const FLAG_INVALID = 16;

export const CANONICAL_NAN = 0x7fc00000;

/** Sticky exception flags of every operation since the last `resetFpFlags` (the hot loop allocates nothing). */
export let fpFlags = 0;
export function resetFpFlags(): void {
  fpFlags = 0;
}

const P23 = 0x800000;
const P24 = 0x1000000;
/** 2^k for k = 0..399 (every alignment shift: products reach 2^-298), a table instead of Math.pow on the hot path. */
const POW2 = new Float64Array(400).map((_, k) => 2 ** k);

function bitLength(x: number): number {
  if (x < 0x100000000) return 32 - Math.clz32(x);
  return 64 - Math.clz32(Math.floor(x / 0x100000000));
}

/** Increment decision of a rounding mode for quotient q, remainder rem of a division by 2^shift (rem > 0). */
function roundsUp(rm: number, sign: number, q: number, rem: number, half: number): boolean {
  switch (rm) {
    case ROUND_NEAR_EVEN:
      return rem > half || (rem === half && (q & 1) === 1);
    case ROUND_NEAR_MAX_MAG:
      return rem >= half;
    case ROUND_MIN:
      return sign === 1;
    case ROUND_MAX:
      return sign === 0;
    default: // minMag, odd (odd jams the lsb instead of incrementing)
      return false;
  }
}

/**
 * Rounds (-1)^sign * sig * 2^exp (sig a positive integer < 2^53, possibly with
 * a jammed sticky lsb) to binary32 under `rm`, raising flags with the given
 * tininess detection.
 */
export function roundPack(sign: number, sig: number, exp: number, rm: number, tininess: number): number {
  const p = exp + bitLength(sig) - 1; // exponent of the leading bit of the exact value
  let lsbExp = p >= -126 ? p - 23 : -149;
  const shift = lsbExp - exp;
  let q: number;
  let inexact = false;
  if (shift <= 0) q = sig * POW2[-shift]!;
  else {
    const pow = POW2[shift]!;
    q = Math.floor(sig / pow);
    const rem = sig - q * pow;
    if (rem !== 0) {
      inexact = true;
      if (rm === ROUND_ODD) q |= 1;
      else if (roundsUp(rm, sign, q, rem, pow / 2)) q += 1;
    }
  }
  if (q >= P24) {
    q /= 2; // a carry out of 24 bits: q was 2^24 exactly
    lsbExp += 1;
  }
  if (q >= P23 && lsbExp + 23 > 127) {
    fpFlags |= FLAG_OVERFLOW | FLAG_INEXACT;
    // HardFloat overflow: near modes and the directed mode toward the sign go to infinity, the rest to the largest finite.
    const toInf = rm === ROUND_NEAR_EVEN || rm === ROUND_NEAR_MAX_MAG || (rm === ROUND_MIN && sign === 1) || (rm === ROUND_MAX && sign === 0);
    return ((sign << 31) | (toInf ? 0x7f800000 : 0x7f7fffff)) >>> 0;
  }
  if (inexact) {
    fpFlags |= FLAG_INEXACT;
    if (p < -126 && isTiny(sign, sig, exp, p, rm, tininess)) fpFlags |= FLAG_UNDERFLOW;
  }
  const bits = q >= P23 ? ((lsbExp + 23 + 127) << 23) | (q - P23) : q;
  return ((sign << 31) | bits) >>> 0;
}

/**
 * Tininess of an inexact result whose exact value is below 2^-126: before
 * rounding it is tiny by definition; after rounding it is tiny unless rounding
 * to 24 bits with an unbounded exponent carries it up to 2^-126 (IEEE 754-2019 §7.5).
 */
function isTiny(sign: number, sig: number, exp: number, p: number, rm: number, tininess: number): boolean {
  if (tininess === TININESS_BEFORE || p < -127) return true;
  const shift = p - 23 - exp;
  if (shift <= 0) return true;
  const pow = POW2[shift]!;
  const q = Math.floor(sig / pow);
  const rem = sig - q * pow;
  if (rem === 0 || rm === ROUND_ODD) return true;
  return !(roundsUp(rm, sign, q, rem, pow / 2) && q + 1 >= P24);
}

function nanResult(a: number, b: number): number {
  // A signaling NaN operand (quiet bit clear) is an invalid operation.
  if (((a & 0x7fc00000) === 0x7f800000 && (a & 0x3fffff) !== 0) || ((b & 0x7fc00000) === 0x7f800000 && (b & 0x3fffff) !== 0)) fpFlags |= FLAG_INVALID;
  return CANONICAL_NAN;
}

/** a + b (bit patterns) under `rm`. */
export function f32Add(a: number, b: number, rm: number, tininess: number): number {
  let ea = (a >>> 23) & 0xff;
  let eb = (b >>> 23) & 0xff;
  const fa = a & 0x7fffff;
  const fb = b & 0x7fffff;
  let sa = a >>> 31;
  let sb = b >>> 31;
  if ((ea === 255 && fa !== 0) || (eb === 255 && fb !== 0)) return nanResult(a, b);
  if (ea === 255) {
    if (eb === 255 && sa !== sb) {
      fpFlags |= FLAG_INVALID;
      return CANONICAL_NAN;
    }
    return a >>> 0;
  }
  if (eb === 255) return b >>> 0;
  let ma = ea === 0 ? fa : fa | P23;
  let mb = eb === 0 ? fb : fb | P23;
  if (ma === 0 && mb === 0) return sa === sb ? (sa << 31) >>> 0 : rm === ROUND_MIN ? 0x80000000 : 0;
  if (ma === 0) return b >>> 0;
  if (mb === 0) return a >>> 0;
  let xa = (ea === 0 ? 1 : ea) - 150;
  let xb = (eb === 0 ? 1 : eb) - 150;
  if (xa < xb) {
    let t = ma; ma = mb; mb = t;
    t = xa; xa = xb; xb = t;
    t = sa; sa = sb; sb = t;
    t = ea; ea = eb; eb = t;
  }
  const d = xa - xb;
  let big: number;
  let small: number;
  let exp: number;
  if (d <= 26) {
    big = ma * POW2[d]!; // < 2^50: the aligned sum is exact
    small = mb;
    exp = xb;
  } else {
    // b lies wholly below three guard bits of a: jam it into a sticky lsb (value strictly between the neighbours).
    big = ma * 8;
    small = 1;
    exp = xa - 3;
  }
  if (sa === sb) return roundPack(sa, big + small, exp, rm, tininess);
  const diff = big - small;
  if (diff === 0) return rm === ROUND_MIN ? 0x80000000 : 0; // exact cancellation: +0, -0 when rounding down
  return diff > 0 ? roundPack(sa, diff, exp, rm, tininess) : roundPack(sb, -diff, exp, rm, tininess);
}

/** a - b: the AddRecFN `subOp` flips b's sign. */
export function f32Sub(a: number, b: number, rm: number, tininess: number): number {
  return f32Add(a, (b ^ 0x80000000) >>> 0, rm, tininess);
}

/** a * b under `rm`. */
export function f32Mul(a: number, b: number, rm: number, tininess: number): number {
  const ea = (a >>> 23) & 0xff;
  const eb = (b >>> 23) & 0xff;
  const fa = a & 0x7fffff;
  const fb = b & 0x7fffff;
  const sign = (a ^ b) >>> 31;
  if ((ea === 255 && fa !== 0) || (eb === 255 && fb !== 0)) return nanResult(a, b);
  const za = ea === 0 && fa === 0;
  const zb = eb === 0 && fb === 0;
  if (ea === 255 || eb === 255) {
    if (za || zb) {
      fpFlags |= FLAG_INVALID; // inf * 0
      return CANONICAL_NAN;
    }
    return ((sign << 31) | 0x7f800000) >>> 0;
  }
  if (za || zb) return (sign << 31) >>> 0;
  const ma = ea === 0 ? fa : fa | P23;
  const mb = eb === 0 ? fb : fb | P23;
  return roundPack(sign, ma * mb, (ea === 0 ? 1 : ea) - 150 + (eb === 0 ? 1 : eb) - 150, rm, tininess);
}
