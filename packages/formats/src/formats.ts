/**
 * Format descriptors: bit layouts, reserved codepoints, scalar encode/decode.
 * Pyxis: chip §4.1-4.6; OCP FP8 (OFP8 rev 1.0) and IEEE FP16: chip §4.9-4.10;
 * NeuronCore: neuroncore-v2-architecture.md (TensorE input types); fixed point:
 * systolic-fpga-hardware.md §1.
 */
import { ilogb, pow2, rne } from './bits.js';
import { CHIP, checkCode, checkEb, checkNoEb, checkOptions } from './errors.js';
import { lnsBoundaries, type LnsBoundaries } from './lnsBounds.js';
import type { EncodeOptions, FormatDescriptor, FormatFamily, FormatName, ReservedCode } from './types.js';

function roundWith(s: number, rtz: boolean): number {
  return rtz ? Math.floor(s) : rne(s);
}

// ---------------------------------------------------------------------------
// Pyxis sign-magnitude formats (FP and LNS), chip §4.1-4.4.
// ---------------------------------------------------------------------------

function pyxisReserved(ebits: number, fbits: number, kind: 'fp' | 'lns'): ReservedCode[] {
  const sign = 2 ** (ebits + fbits);
  const mag = sign - 1;
  const n = kind === 'fp' ? 'E' : 'I';
  return [
    { code: 0, meaning: `zero (S=0 ${n}=0 F=0)` },
    { code: sign, meaning: `NaN (S=1 ${n}=0 F=0)` },
    { code: mag, meaning: 'saturating maximum positive value' },
    { code: sign + mag, meaning: 'saturating maximum negative value' },
  ];
}

/**
 * Sign-magnitude encode, shared by PyxisFloat and PyxisLns: `t` is the
 * unclamped magnitude code of |x| (> maxCode: overflow -> saturating max of the
 * sign `s`, or NaN when !saturate; <= 0: underflow -> zero, which also covers
 * the E=0 F=0 pattern: 1.0*2^EB is not representable, the code is zero).
 * A plain function on numbers so that each class's hot encodeWith inlines it.
 */
function packSignMagnitude(t: number, s: number, signBit: number, saturate: boolean): number {
  if (t >= signBit) return saturate ? s + signBit - 1 : signBit;
  if (t <= 0) return 0;
  return s + t;
}

/** encodeWith() of the Pyxis sign-magnitude formats for NaN, +-0 and +-infinity. */
function specialSignMagnitude(x: number, signBit: number, saturate: boolean): number {
  if (x !== x) return signBit; // NaN
  if (x === 0) return 0; // +0 and -0
  return saturate ? (x < 0 ? signBit : 0) + signBit - 1 : signBit; // +-infinity
}

/**
 * Layout and reserved codepoints shared by the Pyxis FP and LNS formats
 * (chip §4.1-4.4): S, an exponent / integer field of `ebits`, a fraction of
 * `fbits`. +0 code = zero, -0 code = NaN (sticky), all-ones magnitude =
 * saturating max of the sign (not sticky). The per-element methods (decode,
 * encodeWith) stay in the subclasses, without virtual hooks, so that each stays
 * monomorphic when inlined into array loops; they share the plain functions above.
 */
abstract class PyxisSignMagnitude {
  readonly hasEb = true;
  readonly bits: number;
  protected readonly codeLimit: number;
  readonly reserved: ReservedCode[];
  readonly nanCode: number;
  readonly maxCode: number;
  protected readonly signBit: number;
  /** 2^fbits: one unit of the exponent / integer field in magnitude codes. */
  protected readonly one: number;
  constructor(
    readonly name: FormatName,
    readonly ebits: number,
    readonly fbits: number,
    readonly spec: string,
    kind: 'fp' | 'lns',
  ) {
    this.bits = 1 + ebits + fbits;
    this.codeLimit = 2 ** this.bits;
    this.signBit = 2 ** (ebits + fbits);
    this.maxCode = this.signBit - 1;
    this.nanCode = this.signBit;
    this.one = 2 ** fbits;
    this.reserved = pyxisReserved(ebits, fbits, kind);
  }
  isNaN(code: number): boolean {
    return code === this.signBit;
  }
  encode(x: number, opts?: EncodeOptions): number {
    checkOptions(opts, 'encode', `${this.name}.encode`);
    const eb = opts?.eb ?? 0;
    checkEb(eb);
    return this.encodeWith(x, eb, opts?.saturate ?? true, opts?.rounding === 'rtz');
  }
  /** encode() without option validation (array hot loops). */
  abstract encodeWith(x: number, eb: number, saturate: boolean, rtz: boolean): number;
}

// ---------------------------------------------------------------------------
// Pyxis sign-magnitude floating point (RFP8 = S E4 F3, RFP16 = S E5 F10), chip §4.1-4.2.
// Value = (-1)^S * 1.F * 2^(E+EB). Reserved: +0 code = zero, -0 code = NaN,
// all-ones magnitude = saturating max (a normal value, not sticky). No subnormals.
// ---------------------------------------------------------------------------

export class PyxisFloat extends PyxisSignMagnitude implements FormatDescriptor {
  readonly family: FormatFamily = 'pyxis-fp';
  private readonly emax: number;
  constructor(name: FormatName, ebits: number, fbits: number, spec: string) {
    super(name, ebits, fbits, spec, 'fp');
    this.emax = 2 ** ebits - 1;
  }
  decode(code: number, eb = 0): number {
    if (!(code >= 0 && code < this.codeLimit && Number.isInteger(code))) checkCode(code, this.bits, this.name);
    const mag = code & this.maxCode;
    if (mag === 0) return code === 0 ? 0 : NaN;
    const E = mag >>> this.fbits;
    const F = mag & (this.one - 1);
    const v = (this.one + F) * pow2(E + eb - this.fbits);
    return code & this.signBit ? -v : v;
  }
  encodeWith(x: number, eb: number, saturate: boolean, rtz: boolean): number {
    if (x === 0 || !(x > -Infinity && x < Infinity)) return specialSignMagnitude(x, this.signBit, saturate);
    const s = x < 0 ? this.signBit : 0;
    const a = Math.abs(x);
    let e = ilogb(a);
    if (e < eb - 1) return 0; // below 2^(EB-1): underflow to zero
    if (e > eb + this.emax + 1) return packSignMagnitude(this.signBit, s, this.signBit, saturate);
    let m = roundWith(a * pow2(this.fbits - e), rtz);
    if (m === 2 * this.one) {
      e++;
      m = this.one;
    }
    // E = e - EB, F = m - 1.0: E > emax is beyond maxCode, E < 0 is below zero
    return packSignMagnitude((e - eb) * this.one + (m - this.one), s, this.signBit, saturate);
  }
}

// ---------------------------------------------------------------------------
// Pyxis LNS (LnsI4F3 = S I4 F3, LnsI5F3 = S I5 F3 (9 bits), LnsI5F10 = S I5 F10), chip §4.3-4.4, §6.2.4.4.
// Value = (-1)^S * 2^(I.F + EB). Same reserved codepoints as FP8/FP16.
// ---------------------------------------------------------------------------

export class PyxisLns extends PyxisSignMagnitude implements FormatDescriptor {
  readonly family: FormatFamily = 'pyxis-lns';
  /** 2^(F / 2^fbits) for every fraction F. */
  private readonly frac: Float64Array;
  /** Decision boundaries and their bucket index, built on the first encode (lnsBoundaries). */
  private bounds: LnsBoundaries | undefined;
  private readonly buckets: number;
  private readonly imax: number;
  constructor(name: FormatName, ebits: number, fbits: number, spec: string) {
    super(name, ebits, fbits, spec, 'lns');
    this.frac = new Float64Array(this.one);
    for (let f = 0; f < this.one; f++) this.frac[f] = Math.pow(2, f / this.one);
    this.imax = 2 ** ebits;
    this.buckets = 4 * this.one; // bucket width 2^-(F+2) < boundary spacing (> 0.69 * 2^-F)
  }
  private boundaries(): LnsBoundaries {
    return (this.bounds ??= lnsBoundaries(this.fbits, this.buckets));
  }
  decode(code: number, eb = 0): number {
    if (!(code >= 0 && code < this.codeLimit && Number.isInteger(code))) checkCode(code, this.bits, this.name);
    const mag = code & this.maxCode;
    if (mag === 0) return code === 0 ? 0 : NaN;
    const I = mag >>> this.fbits;
    const v = this.frac[mag & (this.one - 1)]! * pow2(I + eb);
    return code & this.signBit ? -v : v;
  }
  /**
   * Nearest code in the log domain (|log2 x - (I.F+EB)| minimal), chip §4.3; see spec-notes.
   * Table-driven: x = m * 2^e with m in [1, 2); the fraction code is the number of
   * decision boundaries <= m (midpoints 2^((j-1/2)/2^F) for nearest, code points
   * 2^(j/2^F) for truncation). A bucket index on the top F+2 mantissa bits lands
   * within one boundary of the answer. No Math.log2, so results are deterministic.
   */
  encodeWith(x: number, eb: number, saturate: boolean, rtz: boolean): number {
    if (x === 0 || !(x > -Infinity && x < Infinity)) return specialSignMagnitude(x, this.signBit, saturate);
    const s = x < 0 ? this.signBit : 0;
    const a = Math.abs(x);
    const e = ilogb(a);
    const I = e - eb;
    if (I > this.imax) return packSignMagnitude(this.signBit, s, this.signBit, saturate);
    if (I < -1) return 0;
    const m = a * pow2(-e); // [1, 2)
    const b = this.bounds ?? this.boundaries();
    const bounds = rtz ? b.cpt : b.mid;
    const start = rtz ? b.cptStart : b.midStart;
    let q = start[Math.floor((m - 1) * this.buckets)]!;
    while (q < this.one && m >= bounds[q + 1]!) q++;
    return packSignMagnitude(I * this.one + q, s, this.signBit, saturate);
  }
}

// ---------------------------------------------------------------------------
// MNS 5.1.N (chip §4.6): S E5 F(N), 2's complement mantissa with the implied
// 2^0 bit = NOT S. Value = (S ? -2 + F/2^N : 1 + F/2^N) * 2^(E + EB_MNS).
// Reserved: 0 = zero; S=0 E=31 F=1..1 sticky +max; S=1 E=31 F=0..01 sticky -max;
// S=1 E=31 F=0 NaN (overloads -2.0*2^31).
// ---------------------------------------------------------------------------

export class MnsFormat implements FormatDescriptor {
  readonly hasEb = true;
  readonly family: FormatFamily = 'mns';
  readonly ebits = 5;
  readonly bits: number;
  private readonly codeLimit: number;
  readonly reserved: ReservedCode[];
  readonly nanCode: number;
  readonly maxCode: number;
  /** Sticky maximum negative value code. */
  readonly minCode: number;
  readonly signBit: number;
  private readonly one: number;
  constructor(
    readonly name: FormatName,
    readonly fbits: number,
    readonly spec: string,
  ) {
    this.bits = 1 + 5 + fbits;
    this.codeLimit = 2 ** this.bits;
    this.one = 2 ** fbits;
    this.signBit = 2 ** (5 + fbits);
    this.maxCode = 31 * this.one + (this.one - 1);
    this.nanCode = this.signBit + 31 * this.one;
    this.minCode = this.nanCode + 1;
    this.reserved = [
      { code: 0, meaning: 'zero' },
      { code: this.maxCode, meaning: 'sticky maximum positive value 1.1..1 * 2^31 (nominal)' },
      { code: this.minCode, meaning: 'sticky maximum negative value -(1.1..1 * 2^31) (nominal)' },
      { code: this.nanCode, meaning: 'NaN (overloads -2.0 * 2^31)' },
    ];
  }
  isNaN(code: number): boolean {
    return code === this.nanCode;
  }
  isSticky(code: number): boolean {
    return code === this.maxCode || code === this.minCode;
  }
  decode(code: number, eb = 0): number {
    if (!(code >= 0 && code < this.codeLimit && Number.isInteger(code))) checkCode(code, this.bits, this.name);
    if (code === 0) return 0;
    if (code === this.nanCode) return NaN;
    const neg = code >= this.signBit;
    const rest = neg ? code - this.signBit : code;
    const E = Math.floor(rest / this.one);
    const F = rest - E * this.one;
    const m = neg ? F - 2 * this.one : this.one + F; // mantissa * 2^N, two's complement
    return m * pow2(E + eb - this.fbits);
  }
  /**
   * Normalise x into MNS (chip §4.6): nearest-even on the 2's complement mantissa,
   * exponent underflow -> zero, overflow -> sticky max of the sign (saturate=false: NaN).
   */
  encode(x: number, opts?: EncodeOptions): number {
    checkOptions(opts, 'encode', `${this.name}.encode`);
    const eb = opts?.eb ?? 0;
    checkEb(eb);
    return this.encodeWith(x, eb, opts?.saturate ?? true, opts?.rounding === 'rtz');
  }
  encodeWith(x: number, eb: number, saturate: boolean, rtz: boolean): number {
    if (x !== x) return this.nanCode;
    if (x === 0) return 0;
    const neg = x < 0;
    const over = saturate ? (neg ? this.minCode : this.maxCode) : this.nanCode;
    if (x === Infinity || x === -Infinity) return over;
    const a = neg ? -x : x;
    let e = ilogb(a); // a in [2^e, 2^(e+1))
    if (neg && a === pow2(e)) e -= 1; // -2^k = -2.0 * 2^(k-1)
    if (e < eb - 2) return 0;
    if (e > eb + 33) return over;
    const N = this.fbits;
    let m: number;
    if (!neg) {
      m = roundWith(a * pow2(N - e), rtz); // [2^N, 2^(N+1)]
      if (m === 2 * this.one) {
        e++;
        m = this.one;
      }
    } else {
      // magnitude in (2^N, 2^(N+1)] units of 2^(e-N); RTZ truncates the magnitude
      m = roundWith(a * pow2(N - e), rtz);
      if (m === this.one) {
        // -1.0 * 2^e -> -2.0 * 2^(e-1)
        e--;
        m = 2 * this.one;
      }
    }
    const E = e - eb;
    if (E < 0) return 0; // exponent underflow -> zero
    if (E > 31) return over;
    if (!neg) {
      const F = m - this.one;
      if (E === 0 && F === 0) return 0; // collides with the zero codepoint
      return E * this.one + F;
    }
    const F = 2 * this.one - m; // -2 + F/2^N = -m/2^N
    if (E === 31 && F === 0) return over; // -2.0 * 2^31 is beyond -max (the NaN codepoint)
    return this.signBit + E * this.one + F;
  }
}

// ---------------------------------------------------------------------------
// IEEE-754-style binary formats (FP32, BF16, TF32, IEEE FP16, NeuronCore FP8) and
// OCP FP8 E4M3 ("fn": no infinities, only S.1111.111 is NaN).
// ---------------------------------------------------------------------------

type IeeeKind = 'ieee' | 'fn';

export class IeeeLike implements FormatDescriptor {
  readonly hasEb = false;
  readonly family: FormatFamily = 'ieee';
  readonly bits: number;
  private readonly codeLimit: number;
  readonly reserved: ReservedCode[];
  readonly nanCode: number;
  readonly maxCode: number;
  readonly infCode: number | undefined;
  private readonly signBit: number;
  private readonly emaxField: number;
  private readonly one: number;
  private readonly pad: number;
  private readonly emin: number;
  private readonly P: number;
  constructor(
    readonly name: FormatName,
    readonly ebits: number,
    readonly fbits: number,
    readonly bias: number,
    readonly kind: IeeeKind,
    readonly spec: string,
    /** low zero bits in the container (TF32 in an FP32 container: 13). */
    pad = 0,
    /** NeuronCore casts go through FP32 first (NKI): round the double to FP32, then to this format. */
    readonly viaFp32 = false,
  ) {
    this.pad = pad;
    this.P = 2 ** pad;
    this.bits = 1 + ebits + fbits + pad;
    this.codeLimit = 2 ** this.bits;
    this.one = 2 ** fbits;
    this.signBit = 2 ** (ebits + fbits);
    this.emaxField = 2 ** ebits - 1;
    this.emin = 1 - bias;
    const P = 2 ** pad;
    if (kind === 'ieee') {
      this.maxCode = ((this.emaxField - 1) * this.one + this.one - 1) * P;
      this.infCode = this.emaxField * this.one * P;
      this.nanCode = (this.emaxField * this.one + this.one / 2) * P;
      this.reserved = [
        { code: 0, meaning: '+0' },
        { code: this.signBit * P, meaning: '-0' },
        { code: this.infCode, meaning: '+infinity' },
        { code: (this.signBit + this.emaxField * this.one) * P, meaning: '-infinity' },
        { code: this.nanCode, meaning: 'NaN (canonical quiet; every E=all-ones, F!=0 code is NaN)' },
      ];
    } else {
      this.maxCode = (this.emaxField * this.one + this.one - 2) * P;
      this.infCode = undefined;
      this.nanCode = (this.emaxField * this.one + this.one - 1) * P;
      this.reserved = [
        { code: 0, meaning: '+0' },
        { code: this.signBit * P, meaning: '-0' },
        { code: this.nanCode, meaning: '+NaN (S.1111.111)' },
        { code: (this.signBit + this.emaxField * this.one + this.one - 1) * P, meaning: '-NaN' },
      ];
    }
  }
  isNaN(code: number): boolean {
    const c = Math.floor(code / this.P);
    const mag = c % this.signBit;
    const E = Math.floor(mag / this.one);
    const F = mag - E * this.one;
    if (E !== this.emaxField) return false;
    return this.kind === 'ieee' ? F !== 0 : F === this.one - 1;
  }
  decode(code: number): number {
    if (!(code >= 0 && code < this.codeLimit && Number.isInteger(code))) checkCode(code, this.bits, this.name);
    const c = this.pad ? Math.floor(code / this.P) : code;
    const neg = c >= this.signBit;
    const mag = neg ? c - this.signBit : c;
    const E = Math.floor(mag / this.one);
    const F = mag - E * this.one;
    let v: number;
    if (E === 0) v = F * pow2(this.emin - this.fbits);
    else if (E === this.emaxField && this.kind === 'ieee') v = F === 0 ? Infinity : NaN;
    else if (E === this.emaxField && F === this.one - 1) v = NaN;
    else v = (this.one + F) * pow2(E - this.bias - this.fbits);
    return neg ? -v : v;
  }
  encode(x: number, opts?: EncodeOptions): number {
    checkOptions(opts, 'encode', `${this.name}.encode`);
    checkNoEb(this, opts?.eb, `${this.name}.encode`);
    return this.encodeWith(x, 0, opts?.saturate ?? false, opts?.rounding === 'rtz');
  }
  encodeWith(x: number, _eb: number, saturate: boolean, rtz: boolean): number {
    const P = this.P;
    // truncation grids nest, so 'rtz' through FP32 equals direct truncation
    if (this.viaFp32 && !rtz) x = Math.fround(x);
    if (x !== x) return this.nanCode;
    let s = 0;
    if (x < 0 || (x === 0 && 1 / x < 0)) {
      s = this.signBit * P;
      x = -x;
    }
    if (x === 0) return s;
    const over = saturate ? s + this.maxCode : this.kind === 'ieee' ? s + this.infCode! : s + this.nanCode;
    if (x === Infinity) return over;
    let e = ilogb(x);
    let code: number;
    if (e < this.emin) {
      if (e < this.emin - this.fbits - 2) return s;
      code = roundWith(x * pow2(this.fbits - this.emin), rtz); // subnormal (== one -> smallest normal)
    } else {
      if (e > this.emaxField - this.bias + 1) return rtz ? s + this.maxCode : over;
      let m = roundWith(x * pow2(this.fbits - e), rtz);
      if (m === 2 * this.one) {
        e++;
        m = this.one;
      }
      code = (e + this.bias) * this.one + (m - this.one);
    }
    code *= P;
    if (code > this.maxCode) return rtz ? s + this.maxCode : over; // IEEE: truncation never overflows to infinity
    return s + code;
  }
}

// ---------------------------------------------------------------------------
// Two's complement fixed point: Int16 (VPU, chip §4) and the Tensil data types
// FP8BP4, FP16BP8, FP18BP10, FP32BP16 (systolic-fpga-hardware.md §1: width W bits,
// binary point at B bits). Arithmetic (saturate, multiply-accumulate, kernels): fixed.ts.
// ---------------------------------------------------------------------------

/**
 * Nearest integer, ties toward +infinity (Java Math.round since Java 7). Not floor(x + 0.5):
 * that sum rounds up for the largest double below 1/2; sc - floor(sc) is exact.
 */
function halfUp(sc: number): number {
  const f = Math.floor(sc);
  return sc - f >= 0.5 ? f + 1 : f;
}

export class FixedPoint implements FormatDescriptor {
  readonly hasEb = false;
  readonly family: FormatFamily = 'fixed';
  readonly reserved: ReservedCode[] = [];
  readonly nanCode = undefined;
  readonly maxCode: number;
  readonly ebits: number;
  readonly minInt: number;
  private readonly codeLimit: number;
  readonly maxInt: number;
  readonly scale: number;
  constructor(
    readonly name: FormatName,
    readonly bits: number,
    readonly fbits: number,
    readonly spec: string,
    /** Round-to-nearest ties: false = to even; true = half up (toward +infinity, Java Math.round, as the Tensil tools). */
    readonly tiesUp = false,
    /** false: unsigned integers 0 .. 2^W - 1 (UInt32 index tables); true: two's complement. */
    readonly signed = true,
  ) {
    this.ebits = bits - fbits;
    this.codeLimit = 2 ** bits;
    this.maxInt = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    this.minInt = signed ? -(2 ** (bits - 1)) : 0;
    this.maxCode = this.maxInt;
    this.scale = 2 ** fbits;
    this.range = 2 ** bits;
  }
  private readonly range: number;
  isNaN(): boolean {
    return false;
  }
  toSigned(code: number): number {
    return code > this.maxInt ? code - this.range : code; // unsigned formats: maxInt = 2^W - 1, never above
  }
  fromSigned(q: number): number {
    return q < 0 ? q + this.range : q + 0; // + 0 turns -0 into +0
  }
  /** The value of a signed integer (already sign-extended) of this format: q / 2^B. */
  decodeSigned(q: number): number {
    return q / this.scale;
  }
  decode(code: number): number {
    if (!(code >= 0 && code < this.codeLimit && Number.isInteger(code))) checkCode(code, this.bits, this.name);
    return this.toSigned(code) / this.scale;
  }
  /**
   * Nearest (ties to even, or half up for the Tensil types; see `tiesUp`) or truncation to a
   * multiple of 2^-B; saturating (default) or wrapping; NaN -> 0.
   */
  encode(x: number, opts?: EncodeOptions): number {
    checkOptions(opts, 'encode', `${this.name}.encode`);
    checkNoEb(this, opts?.eb, `${this.name}.encode`);
    return this.encodeWith(x, 0, opts?.saturate ?? true, opts?.rounding === 'rtz', opts?.rounding === 'rne' ? true : undefined);
  }
  encodeWith(x: number, _eb: number, saturate: boolean, rtz: boolean, tiesEven = !this.tiesUp): number {
    if (x !== x) return 0;
    if (x === Infinity) return saturate ? this.maxInt : 0;
    if (x === -Infinity) return saturate ? this.fromSigned(this.minInt) : 0;
    const sc = x * this.scale;
    if (saturate) {
      if (sc >= this.maxInt) return this.maxInt;
      if (sc <= this.minInt) return this.fromSigned(this.minInt);
    }
    if (!saturate) {
      // Wrap modulo 2^W. x * 2^B may overflow a double (|x| >= 2^1016 for FP16BP8): reduce x modulo 2^(W-B)
      // first (fmod is exact, and rounding commutes with adding a multiple of the even modulus).
      const m = this.range;
      const r = (x % (m / this.scale)) * this.scale;
      const q = rtz ? Math.trunc(r) : tiesEven ? rne(r) : halfUp(r);
      return ((q % m) + m) % m;
    }
    let q = rtz ? Math.trunc(sc) : tiesEven ? rne(sc) : halfUp(sc);
    q = Math.min(this.maxInt, Math.max(this.minInt, q));
    return this.fromSigned(q);
  }
}

const NC = 'neuroncore-v2-architecture.md (TensorE data types)';
const SEQ_SPEC = 'pyxis-uie-sequencers-fspec.md';
const SYS = 'systolic-fpga-hardware.md §1';

export const RFP8 = new PyxisFloat('RFP8', 4, 3, `${CHIP} §4.1`);
export const RFP16 = new PyxisFloat('RFP16', 5, 10, `${CHIP} §4.2`);
export const LnsI4F3 = new PyxisLns('LnsI4F3', 4, 3, `${CHIP} §4.3`);
export const LnsI5F3 = new PyxisLns('LnsI5F3', 5, 3, `${CHIP} §6.2.4.4`);
export const LnsI5F10 = new PyxisLns('LnsI5F10', 5, 10, `${CHIP} §4.4`);
export const MNS13 = new MnsFormat('MNS13', 13, `${CHIP} §4.6, §6.3.4 (active accumulator 5.1.13)`);
export const MNS18 = new MnsFormat('MNS18', 18, `${CHIP} §4.6, §6.3.4 (writeback accumulator 5.1.18)`);
export const Int16 = new FixedPoint('Int16', 16, 0, `${CHIP} §4 (VPU Int16)`);
/** 32-bit integers of AMEM index tables (indirection mode 1: one little-endian 32-bit index per entry, seq §5.2.2, §8.1; chip §7.6). */
export const Int32 = new FixedPoint('Int32', 32, 0, `${CHIP} §7.6 (int32 indirection table); ${SEQ_SPEC} §8.1`);
export const UInt32 = new FixedPoint('UInt32', 32, 0, `${CHIP} §7.6; ${SEQ_SPEC} §5.2.2 (x_fifo_entry[31:0], unsigned)`, false, false);
export const OCP_E4M3 = new IeeeLike('OCP_E4M3', 4, 3, 7, 'fn', `OFP8 rev 1.0; ${CHIP} §4.10`);
export const OCP_E5M2 = new IeeeLike('OCP_E5M2', 5, 2, 15, 'ieee', `OFP8 rev 1.0; ${CHIP} §4.10`);
export const IEEE_FP16 = new IeeeLike('IEEE_FP16', 5, 10, 15, 'ieee', `IEEE 754 binary16; ${CHIP} §4.9`);
export const FP32 = new IeeeLike('FP32', 8, 23, 127, 'ieee', `IEEE 754 binary32; ${NC}`);
export const BF16 = new IeeeLike('BF16', 8, 7, 127, 'ieee', NC, 0, true);
export const TF32 = new IeeeLike('TF32', 8, 10, 127, 'ieee', `${NC}; FP32 container, low 13 bits zero`, 13, true);
export const FP8_E4M3 = new IeeeLike('FP8_E4M3', 4, 3, 7, 'ieee', `${NC}; NKI float8_e4m3 (IEEE-style, max 240)`, 0, true);
export const FP8_E5M2 = new IeeeLike('FP8_E5M2', 5, 2, 15, 'ieee', `${NC}; NKI float8_e5m2`, 0, true);
export const FP8BP4 = new FixedPoint('FP8BP4', 8, 4, SYS, true);
export const FP16BP8 = new FixedPoint('FP16BP8', 16, 8, SYS, true);
export const FP18BP10 = new FixedPoint('FP18BP10', 18, 10, SYS, true);
export const FP32BP16 = new FixedPoint('FP32BP16', 32, 16, SYS, true);
/** @deprecated the earlier misspelling of FP32BP16 (the registry still accepts 'FP32B16' as an alias). */
export const FP32B16 = FP32BP16;
