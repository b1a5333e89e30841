/**
 * UIE datapath number converters at the bit level (chip §6.2.1.4, §6.2.2.2,
 * §6.5 Table 6-4, §4.9, §4.10): 8b->16b with EB adjust and OCP/IEEE import on
 * the read path, 16b->8b with FP8 rounding and OCP/IEEE export on the write
 * path, ReLU on read (§5.1.1) and the InMemAdd adder (chip §7.4).
 *
 * These are the converter *hardware* operations on codes (exponent add,
 * mantissa shift, round), not number-format definitions; @pyxis/formats
 * remains the reference for what the codes mean. Everything here is one
 * small set of functions so it can be rewired onto @pyxis/formats helpers
 * (e.g. `ebAdjust`) once those exist. All functions are allocation-free.
 *
 * Saturating mode is used for OCP/IEEE import/export (the run-time CSR of
 * §4.9/§4.10 is not part of the microcode); see docs/spec-notes.md.
 */

/** AMEM Read/Write `data_type` codepoints (seq §5.1, §6.1). */
export const DT_RFP8 = 0;
export const DT_OCP_E4M3 = 1;
export const DT_OCP_E5M2 = 2;
export const DT_OPAQUE8 = 3;
export const DT_RFP16 = 4;
export const DT_IEEE_FP16 = 5;
export const DT_OPAQUE16 = 6;

export function is16bit(dt: number): boolean {
  return dt >= 4;
}

const RFP16_NAN = 0x8000;
const RFP16_MAX = 0x7fff;
const RFP8_NAN = 0x80;
const RFP8_MAX = 0x7f;

/** Builds an RFP16 code from sign, nominal exponent (may be out of range) and 10-bit fraction; saturates / flushes (chip §6.5). */
function packRfp16(s: number, e: number, f10: number): number {
  if (e > 31) return RFP16_MAX | (s << 15);
  if (e < 0) return 0;
  const code = (s << 15) | (e << 10) | f10;
  // a nonzero value landing on the zero/NaN codepoint underflows to zero (no subnormals, chip §4.2)
  if ((code & 0x7fff) === 0) return 0;
  return code;
}

/** Normalises a subnormal (exponent field 0, fraction f of `mbits`) to [exp, 10-bit fraction]; returns -1 exponent sentinel for zero. */
function importIeeeLike(code: number, ebits: number, mbits: number, ebAdj: number): number {
  const s = (code >> (ebits + mbits)) & 1;
  const e = (code >> mbits) & ((1 << ebits) - 1);
  let m = code & ((1 << mbits) - 1);
  const emax = (1 << ebits) - 1;
  if (e === 0 && m === 0) return 0;
  if (ebits === 4 && mbits === 3) {
    // OCP E4M3: S.1111.111 is NaN, no infinities
    if (e === 15 && m === 7) return RFP16_NAN;
  } else if (e === emax) {
    if (m !== 0) return RFP16_NAN;
    return RFP16_MAX | (s << 15); // infinity -> max (saturating mode, §4.9.1/§4.10.1)
  }
  let ee = e;
  if (e === 0) {
    // subnormal 0.m * 2^(1-bias): normalise
    ee = 1;
    while ((m & (1 << mbits)) === 0) {
      m <<= 1;
      ee--;
    }
    m &= (1 << mbits) - 1;
  }
  return packRfp16(s, ee + ebAdj, m << (10 - mbits));
}

/**
 * 8b->16b converter (chip §6.2.1.4, Table 6-4 case 1): AMEM code of `dt`
 * (8-bit codes in the low byte) -> RFP16 code with `E5_out = E_in + eb_adj`.
 * Opaque types pass through unchanged (EB_adj is meaningless for them).
 */
export function convertTo16(code: number, dt: number, ebAdj: number): number {
  switch (dt) {
    case DT_RFP8: {
      if (code === 0) return 0;
      if (code === RFP8_NAN) return RFP16_NAN;
      const s = code >> 7;
      return packRfp16(s, ((code >> 3) & 15) + ebAdj, (code & 7) << 7);
    }
    case DT_RFP16: {
      if (code === 0) return 0;
      if (code === RFP16_NAN) return RFP16_NAN;
      return packRfp16(code >> 15, ((code >> 10) & 31) + ebAdj, code & 0x3ff);
    }
    case DT_OCP_E4M3:
      return importIeeeLike(code & 0xff, 4, 3, ebAdj);
    case DT_OCP_E5M2:
      return importIeeeLike(code & 0xff, 5, 2, ebAdj);
    case DT_IEEE_FP16:
      return importIeeeLike(code & 0xffff, 5, 10, ebAdj);
    case DT_OPAQUE8:
      return code & 0xff;
    default:
      return code & 0xffff;
  }
}

/** FP8 rounding of chip §6.2.2.2.2 (round-to-even from F10 to F3): returns F3 + carry (0..8). */
export function roundF10toF3(f10: number): number {
  let f3 = (f10 >> 7) & 7;
  const b6 = (f10 >> 6) & 1;
  const low = f10 & 0x3f;
  const b7 = (f10 >> 7) & 1;
  if ((b6 && low !== 0) || (b7 && b6 && low === 0)) f3++;
  return f3;
}

/** Round-to-nearest-even of `v` shifted right by `sh` bits (sh >= 0). */
function rneShr(v: number, sh: number): number {
  if (sh <= 0) return v << -sh;
  if (sh > 30) return 0;
  const q = v >> sh;
  const rem = v & ((1 << sh) - 1);
  const half = 1 << (sh - 1);
  if (rem > half || (rem === half && q & 1)) return q + 1;
  return q;
}

function exportIeeeLike(code: number, ebits: number, mbits: number, ebAdj: number): number {
  const s = code >> 15;
  if (code === 0) return 0;
  if (code === RFP16_NAN) return ebits === 4 ? 0x7f : ebits === 5 && mbits === 2 ? 0x7f : 0x7e00; // +NaN (§4.9.2, §4.10.2)
  const e = ((code >> 10) & 31) + ebAdj;
  const sig = 0x400 | (code & 0x3ff); // 1.F10 as 11-bit integer
  const emax = (1 << ebits) - 1;
  let E: number;
  let M: number;
  if (e >= 1) {
    M = rneShr(sig, 10 - mbits); // includes hidden bit
    E = e;
    if (M >= 2 << mbits) {
      M >>= 1;
      E++;
    }
    if (M < 1 << mbits) E = 0; // cannot happen for normals
    M &= (1 << mbits) - 1;
  } else {
    // subnormal: value = sig * 2^(e-1-10) ; subnormal unit = 2^(1-bias-mbits) -> shift by (1-e)+(10-mbits)
    M = rneShr(sig, 1 - e + 10 - mbits);
    E = 0;
    if (M >= 1 << mbits) {
      E = 1;
      M &= (1 << mbits) - 1;
    }
    if (E === 0 && M === 0) return s << (ebits + mbits); // +/- zero
  }
  // overflow handling (saturating mode)
  if (ebits === 4 && mbits === 3) {
    if (E > 15 || (E === 15 && M === 7)) return (s << 7) | 0x7e; // max normal 448
  } else if (E >= emax) {
    if (ebits === 5 && mbits === 10) return (s << 15) | 0x7c00; // IEEE FP16: +/- infinity (§4.9.2)
    return (s << 7) | ((emax - 1) << mbits) | ((1 << mbits) - 1); // E5M2 max normal
  }
  return (s << (ebits + mbits)) | (E << mbits) | M;
}

/**
 * 16b->8b converter (chip §6.2.2.2, Table 6-4 case 2): RFP16 code -> AMEM
 * code of `dt`. Recogni FP8: `E4 = E5 + eb_adj`, F10->F3 rounding of
 * §6.2.2.2.2 with carry into the exponent, overflow saturates to max,
 * underflow flushes to zero (§6.5).
 */
export function convertFrom16(code: number, dt: number, ebAdj: number): number {
  switch (dt) {
    case DT_RFP8: {
      if (code === 0) return 0;
      if (code === RFP16_NAN) return RFP8_NAN;
      const s = code >> 15;
      let e = ((code >> 10) & 31) + ebAdj;
      let f3 = roundF10toF3(code & 0x3ff);
      if (f3 === 8) {
        f3 = 0;
        e++;
      }
      if (e > 15) return RFP8_MAX | (s << 7);
      if (e < 0) return 0;
      const c = (s << 7) | (e << 3) | f3;
      return (c & 0x7f) === 0 ? 0 : c;
    }
    case DT_RFP16:
      return convertTo16(code, DT_RFP16, ebAdj);
    case DT_OCP_E4M3:
      return exportIeeeLike(code, 4, 3, ebAdj);
    case DT_OCP_E5M2:
      return exportIeeeLike(code, 5, 2, ebAdj);
    case DT_IEEE_FP16:
      return exportIeeeLike(code, 5, 10, ebAdj);
    case DT_OPAQUE8:
      return code & 0xff;
    default:
      return code & 0xffff;
  }
}

/** ReLU on read (seq §5.1.1): NaN stays NaN, negatives become zero. Defined for Recogni FP8/FP16 only. */
export function reluCode(code: number, dt: number): number {
  if (dt === DT_RFP8) return code === RFP8_NAN ? code : code & 0x80 ? 0 : code;
  if (dt === DT_RFP16) return code === RFP16_NAN ? code : code & 0x8000 ? 0 : code;
  return code;
}

/** Value of a Recogni code without EB (1.F * 2^E); NaN for the NaN code. */
function rvalue(code: number, ebits: number, fbits: number): number {
  const s = code >> (ebits + fbits);
  const mag = code & ((1 << (ebits + fbits)) - 1);
  if (mag === 0) return s ? NaN : 0;
  const e = mag >> fbits;
  const f = mag & ((1 << fbits) - 1);
  const v = (1 + f / (1 << fbits)) * 2 ** e;
  return s ? -v : v;
}

function rencode(v: number, ebits: number, fbits: number): number {
  const maxMag = (1 << (ebits + fbits)) - 1;
  if (Number.isNaN(v)) return 1 << (ebits + fbits);
  if (v === 0) return 0;
  const s = v < 0 ? 1 : 0;
  const a = Math.abs(v);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  if (e < 0) return 0; // below the smallest normal: flush (no subnormals, chip §4.1/§4.2)
  let m = Math.round((a / 2 ** e - 1) * (1 << fbits)); // Math.round: ties up; fix ties to even below
  const exact = (a / 2 ** e - 1) * (1 << fbits);
  if (exact - Math.floor(exact) === 0.5 && Math.floor(exact) % 2 === 0) m = Math.floor(exact);
  if (m === 1 << fbits) {
    m = 0;
    e++;
  }
  if (e > (1 << ebits) - 1) return (s << (ebits + fbits)) | maxMag;
  const c = (s << (ebits + fbits)) | (e << fbits) | m;
  return (c & maxMag) === 0 ? 0 : c;
}

/**
 * InMemAdd adder (chip §7.4, seq §6.5): element-wise add of two codes of the
 * stored type. Recogni FP8/FP16 add with a common EB (so EB cancels), RNE,
 * saturating; NaN is sticky and +max + -max = NaN (chip §4). Opaque and
 * OCP/IEEE types: see docs/spec-notes.md (integer add for opaque, value add for IEEE-like).
 */
export function addCodes(a: number, b: number, dt: number): number {
  switch (dt) {
    case DT_RFP8:
    case DT_RFP16: {
      const eb = dt === DT_RFP8 ? 4 : 5;
      const fb = dt === DT_RFP8 ? 3 : 10;
      const maxMag = (1 << (eb + fb)) - 1;
      const ma = a & maxMag;
      const mb = b & maxMag;
      if (ma === maxMag && mb === maxMag && a >> (eb + fb) !== b >> (eb + fb)) return 1 << (eb + fb);
      return rencode(rvalue(a, eb, fb) + rvalue(b, eb, fb), eb, fb);
    }
    case DT_OPAQUE8:
      return (a + b) & 0xff;
    case DT_OPAQUE16:
      return (a + b) & 0xffff;
    default: {
      // IEEE-like stored types: import at EB = standard bias, add, export back
      const adj = 0;
      const ia = convertTo16(a, dt, adj);
      const ib = convertTo16(b, dt, adj);
      return convertFrom16(addCodes(ia, ib, DT_RFP16), dt, adj);
    }
  }
}

const to16Cache = new Map<number, Uint16Array>();
const from16Cache = new Map<number, Uint16Array>();

/**
 * Lookup table of the 8b->16b converter for (`dt`, `eb_adj`, ReLU): index =
 * AMEM code (256 entries for 8-bit types, 65536 for 16-bit), value = RFP16
 * code. Built once per combination; the datapath's hot loop is a table load.
 */
export function to16Table(dt: number, ebAdj: number, relu: boolean): Uint16Array {
  const key = (dt * 64 + (ebAdj & 63)) * 2 + (relu ? 1 : 0);
  let t = to16Cache.get(key);
  if (!t) {
    const n = is16bit(dt) ? 65536 : 256;
    t = new Uint16Array(n);
    for (let c = 0; c < n; c++) t[c] = convertTo16(relu ? reluCode(c, dt) : c, dt, ebAdj);
    to16Cache.set(key, t);
  }
  return t;
}

/** Lookup table of the 16b->8b converter for (`dt`, `eb_adj`): index = RFP16 code, value = AMEM code. */
export function from16Table(dt: number, ebAdj: number): Uint16Array {
  const key = dt * 64 + (ebAdj & 63);
  let t = from16Cache.get(key);
  if (!t) {
    t = new Uint16Array(65536);
    for (let c = 0; c < 65536; c++) t[c] = convertFrom16(c, dt, ebAdj);
    from16Cache.set(key, t);
  }
  return t;
}

/** A read-side conversion followed by a write-side conversion of the same width, as one table. */
export interface CompositeTable {
  readonly table: Uint16Array;
  /** True when the composition maps every code to itself (the datapath can move bytes unchanged). */
  readonly identity: boolean;
}
const compCache = new Map<number, CompositeTable>();

/**
 * `from16Table(wrDt, wrEb)[to16Table(rdDt, rdEb, relu)[c]]` for every code c of
 * the (common) width: the AMEM Read -> switchbox -> AMEM Write copy of one
 * column when neither side switches columns. Exactly the two conversions, composed.
 */
export function compositeTable(rdDt: number, rdEb: number, relu: boolean, wrDt: number, wrEb: number): CompositeTable {
  const key = (((rdDt * 64 + (rdEb & 63)) * 2 + (relu ? 1 : 0)) * 8 + wrDt) * 64 + (wrEb & 63);
  let c = compCache.get(key);
  if (!c) {
    const a = to16Table(rdDt, rdEb, relu);
    const b = from16Table(wrDt, wrEb);
    const t = new Uint16Array(a.length);
    let identity = true;
    for (let i = 0; i < a.length; i++) {
      t[i] = b[a[i]!]!;
      if (t[i] !== i) identity = false;
    }
    c = { table: t, identity };
    compCache.set(key, c);
  }
  return c;
}
