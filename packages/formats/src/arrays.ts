/** Array-in / array-out encode, decode and convert on typed arrays. */
import { FormatErrorCode, checkEb, checkNoEb, checkOptions, fail } from './errors.js';
import { IeeeLike } from './formats.js';
import { getFormat } from './registry.js';
import { type CodeArray, applyTable, codeArrayFor, convertTable, decodeTable } from './tables.js';
import type { EncodeOptions, FormatDescriptor } from './types.js';

function checkCodes(fmt: FormatDescriptor, codes: ArrayLike<number> & { BYTES_PER_ELEMENT?: number }): void {
  if (!ArrayBuffer.isView(codes)) fail(FormatErrorCode.badArray, `${fmt.name} codes must be a Uint8Array, Uint16Array or Uint32Array`);
  const lim = 2 ** fmt.bits;
  const bpe = codes.BYTES_PER_ELEMENT ?? 1;
  if (bpe * 8 <= fmt.bits) return;
  for (let i = 0; i < codes.length; i++) {
    if (codes[i]! >= lim) {
      fail(FormatErrorCode.codeRange, `code ${codes[i]} at index ${i} does not fit the ${fmt.bits}-bit format ${fmt.name}`, fmt.spec, {
        file: '<codes>',
        offset: i * bpe,
      });
    }
  }
}

/** Encode every value (Float32Array / Float64Array) into codes of `format`. */
export function encodeArray(
  format: FormatDescriptor | string,
  values: Float32Array | Float64Array | ArrayLike<number>,
  opts: EncodeOptions = {},
): CodeArray {
  const fmt = getFormat(format);
  checkOptions(opts, 'encode', 'encodeArray');
  if (opts.eb !== undefined) checkEb(opts.eb);
  checkNoEb(getFormat(format), opts.eb, 'encodeArray');
  if (!values || typeof values.length !== 'number') fail(FormatErrorCode.badArray, 'encodeArray: values must be an array of numbers');
  const n = values.length;
  const out = codeArrayFor(fmt.bits, n);
  const eb = opts.eb ?? 0;
  const sat = opts.saturate ?? (fmt.family !== 'ieee');
  const rtz = opts.rounding === 'rtz';
  if (fmt.family === 'pyxis-fp' && (values instanceof Float32Array || values instanceof Float64Array)) {
    encodePyxisFpFast(values, out, fmt.ebits, fmt.fbits, eb, sat, rtz, (x) => fmt.encodeWith(x, eb, sat, rtz));
    return out;
  }
  if (fmt instanceof IeeeLike && fmt.fbits <= 19 && (values instanceof Float32Array || values instanceof Float64Array)) {
    // NeuronCore types cast through FP32: round the whole input to FP32 first (nearest-even)
    const src = fmt.viaFp32 && !rtz && values instanceof Float64Array ? new Float32Array(values) : values;
    encodeIeeeFast(fmt, src, out, sat, rtz, (x) => fmt.encodeWith(x, 0, sat, rtz));
    return out;
  }
  const tiesEven = opts.rounding === 'rne' ? true : undefined;
  for (let i = 0; i < n; i++) out[i] = fmt.encodeWith(values[i]!, eb, sat, rtz, tiesEven);
  return out;
}

/**
 * IEEE-style targets with at most 19 fraction bits (FP16, BF16, TF32, FP8 kinds) from
 * Float32/Float64 bit patterns; subnormal inputs/outputs and special values use the
 * scalar encoder. Same results as IeeeLike.encodeWith (tested).
 */
function encodeIeeeFast(
  fmt: IeeeLike,
  values: Float32Array | Float64Array,
  out: CodeArray,
  saturate: boolean,
  rtz: boolean,
  slow: (x: number) => number,
): void {
  const f64 = values instanceof Float64Array;
  const u = new Uint32Array(values.buffer, values.byteOffset, values.length * (f64 ? 2 : 1));
  const hiIdx = f64 && LITTLE ? 1 : 0;
  const expMask = f64 ? 0x7ff : 0xff;
  const sbias = f64 ? 1023 : 127;
  const mbits = f64 ? 20 : 23;
  const mmask = (1 << mbits) - 1;
  const fb = fmt.fbits;
  const one = 1 << fb;
  const sh = mbits - fb;
  const half = 1 << (sh - 1);
  const P = 2 ** (fmt.bits - 1 - fmt.ebits - fb);
  const signBit = 2 ** (fmt.bits - 1);
  const emin = 1 - fmt.bias;
  const emaxE = 2 ** fmt.ebits - 1 - fmt.bias; // largest exponent field value's true exponent
  const maxCode = fmt.maxCode;
  const n = values.length;
  for (let i = 0; i < n; i++) {
    const hi = f64 ? u[2 * i + hiIdx]! : u[i]!;
    const lo = f64 ? u[2 * i + 1 - hiIdx]! : 0;
    const ex = (hi >>> mbits) & expMask;
    let e = ex - sbias;
    if (ex === 0 || ex === expMask || e < emin || e > emaxE) {
      out[i] = slow(values[i]!); // zero, subnormal, NaN, infinity, subnormal output or overflow
      continue;
    }
    const m = hi & mmask;
    let q = (m | (1 << mbits)) >>> sh;
    if (!rtz) {
      const rem = m & ((1 << sh) - 1);
      if (rem > half || (rem === half && (lo !== 0 || (q & 1) === 1))) q++;
    }
    if (q === 2 * one) {
      q = one;
      e++;
    }
    const code = ((e + fmt.bias) * one + (q - one)) * P;
    const s = hi >>> 31 ? signBit : 0; // container sign bit (TF32: bit 31)
    out[i] = code > maxCode ? (rtz || saturate ? s + maxCode : slow(values[i]!)) : s + code;
  }
}

export interface DecodeOptions {
  /** Exponent bias of the codes: required for formats with one (`hasEb`: Pyxis FP/LNS, MNS), ignored otherwise. */
  eb?: number;
  /** Write into this array (at least as long as the codes) and return it: Float64Array or Float32Array. */
  out?: Float64Array | Float32Array;
  /** Return a Float32Array (when no `out` is given). */
  float32?: boolean;
}

/**
 * Decode codes to values (table-driven for formats of at most 16 bits): Float64Array by default, Float32Array
 * with `{ float32: true }` or a Float32Array `out`. The EB is an option as in `encodeArray` (`{ eb }`); the older
 * positional form `decodeArray(fmt, codes, eb, out?)` is still accepted. A format with an exponent bias needs
 * one: leaving it out is FMT0004, not a silent EB 0.
 */
export function decodeArray(format: FormatDescriptor | string, codes: CodeArray, eb: number, out?: Float64Array): Float64Array;
export function decodeArray(format: FormatDescriptor | string, codes: CodeArray, opts: DecodeOptions & ({ float32: true } | { out: Float32Array })): Float32Array;
export function decodeArray(format: FormatDescriptor | string, codes: CodeArray, opts?: DecodeOptions): Float64Array;
export function decodeArray(format: FormatDescriptor | string, codes: CodeArray, ebOrOpts?: number | DecodeOptions, outArg?: Float64Array): Float64Array | Float32Array {
  const fmt = getFormat(format);
  const opts: DecodeOptions = typeof ebOrOpts === 'number' ? { eb: ebOrOpts, ...(outArg ? { out: outArg } : {}) } : (checkOptions(ebOrOpts, 'decode', 'decodeArray'), ebOrOpts ?? {});
  checkCodes(fmt, codes);
  checkNoEb(fmt, opts.eb, 'decodeArray');
  if (opts.eb === undefined && fmt.hasEb)
    fail(FormatErrorCode.badOption, `decodeArray: ${fmt.name} codes need their exponent bias: decodeArray(${fmt.name}, codes, { eb })`, fmt.spec);
  const eb = opts.eb ?? 0;
  checkEb(eb);
  const n = codes.length;
  const want32 = opts.out instanceof Float32Array || (opts.out === undefined && opts.float32 === true);
  if (opts.out && opts.out.length < n) fail(FormatErrorCode.badArray, `decodeArray: output length ${opts.out.length} < input length ${n}`);
  if (!want32) {
    const o = opts.out as Float64Array | undefined;
    if (fmt.bits <= 16) return applyTable(decodeTable(fmt, eb), codes, o);
    const r = o ?? new Float64Array(n);
    for (let i = 0; i < n; i++) r[i] = fmt.decode(codes[i]!, eb);
    return r;
  }
  const r = (opts.out as Float32Array | undefined) ?? new Float32Array(n);
  if (fmt.bits <= 16) {
    const t = decodeTable(fmt, eb);
    for (let i = 0; i < n; i++) r[i] = t[codes[i]!]!;
  } else for (let i = 0; i < n; i++) r[i] = fmt.decode(codes[i]!, eb);
  return r;
}

/**
 * The exponent bias that fits a data range into a format with one (Pyxis FP/LNS, MNS): the smallest EB whose
 * largest finite value is at least max(|min|, |max|), so the largest magnitude does not saturate and smaller
 * ones keep as many fraction bits as the format allows. `range` is `{ min, max }` or the values themselves
 * (NaN ignored). A range of only zeros gives EB 0.
 */
export function ebForRange(format: FormatDescriptor | string, range: { min: number; max: number } | ArrayLike<number>): number {
  const fmt = getFormat(format);
  if (!fmt.hasEb) fail(FormatErrorCode.badOption, `ebForRange: ${fmt.name} has no exponent bias`, fmt.spec);
  let big = 0;
  if ('min' in range && 'max' in range && typeof range.min === 'number') big = Math.max(Math.abs(range.min), Math.abs((range as { max: number }).max));
  else {
    const v = range as ArrayLike<number>;
    for (let i = 0; i < v.length; i++) {
      const a = Math.abs(v[i]!);
      if (a > big) big = a;
    }
  }
  if (!Number.isFinite(big)) fail(FormatErrorCode.badValue, `ebForRange: the range is not finite (${big})`);
  if (big === 0) return 0;
  const top = fmt.decode(fmt.maxCode, 0);
  let eb = Math.ceil(Math.log2(big / top));
  while (eb > -1000 && fmt.decode(fmt.maxCode, eb - 1) >= big) eb--;
  while (fmt.decode(fmt.maxCode, eb) < big) eb++;
  checkEb(eb, 'ebForRange: the EB for this range');
  return eb;
}

export interface ConvertOptions extends EncodeOptions {
  /** EB of the source codes. Default 0. `eb` is the EB of the destination. */
  fromEb?: number;
}

/**
 * Value-level conversion: decode with `fromEb`, encode into `to` with `eb`,
 * `saturate`, `rounding` (table-driven for sources of at most 16 bits). For the
 * bit-exact hardware converters use fp8ToFp16, fp16ToFp8, linToLog, ... (hw.ts).
 */
export function convertArray(
  from: FormatDescriptor | string,
  to: FormatDescriptor | string,
  codes: CodeArray,
  opts: ConvertOptions = {},
): CodeArray {
  const f = getFormat(from);
  const t = getFormat(to);
  checkOptions(opts, 'convert', 'convertArray');
  checkNoEb(f, opts.fromEb, 'convertArray', 'fromEb');
  checkNoEb(t, opts.eb, 'convertArray');
  checkCodes(f, codes);
  if (f.bits <= 16) {
    const table = convertTable(f, t, opts);
    return applyTable(table, codes);
  }
  const fromEb = opts.fromEb ?? 0;
  checkEb(fromEb);
  const o: EncodeOptions = { eb: opts.eb ?? 0, saturate: opts.saturate, rounding: opts.rounding };
  if (o.saturate === undefined) delete o.saturate;
  if (o.rounding === undefined) delete o.rounding; // the target's own rounding (half up for the Tensil types)
  const out = codeArrayFor(t.bits, codes.length);
  for (let i = 0, n = codes.length; i < n; i++) out[i] = t.encode(f.decode(codes[i]!, fromEb), o);
  return out;
}

const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * RFP8/RFP16 encoder on the IEEE bit patterns of Float32/Float64 input (same
 * result as PyxisFloat.encode: nearest-even on the 1.F grid, saturation,
 * underflow and the E=0,F=0 pattern -> zero). Integer operations only.
 */
function encodePyxisFpFast(
  values: Float32Array | Float64Array,
  out: CodeArray,
  ebits: number,
  fbits: number,
  eb: number,
  saturate: boolean,
  rtz: boolean,
  slow: (x: number) => number,
): void {
  const f64 = values instanceof Float64Array;
  const u = new Uint32Array(values.buffer, values.byteOffset, values.length * (f64 ? 2 : 1));
  const signBit = 1 << (ebits + fbits);
  const maxMag = signBit - 1;
  const emax = (1 << ebits) - 1;
  const expMask = f64 ? 0x7ff : 0xff;
  const bias = f64 ? 1023 : 127;
  const mbits = f64 ? 20 : 23; // mantissa bits in the high word
  const mmask = (1 << mbits) - 1;
  const sh = mbits - fbits;
  const half = 1 << (sh - 1);
  const lowMask = half - 1;
  const hiIdx = f64 && LITTLE ? 1 : 0;
  const n = values.length;
  for (let i = 0; i < n; i++) {
    const hi = f64 ? u[2 * i + hiIdx]! : u[i]!;
    const lo = f64 ? u[2 * i + 1 - hiIdx]! : 0;
    const s = hi >>> 31 ? signBit : 0;
    const ex = (hi >>> mbits) & expMask;
    const m = hi & mmask;
    if (ex === expMask) {
      out[i] = m !== 0 || lo !== 0 ? signBit : saturate ? s | maxMag : signBit;
      continue;
    }
    let e = ex - bias;
    if (ex === 0 && (m !== 0 || lo !== 0)) {
      out[i] = slow(values[i]!); // subnormal input (only matters for very negative EB)
      continue;
    }
    if (ex === 0 || e < eb - 1) {
      out[i] = 0; // zero, or below 2^(EB-1)
      continue;
    }
    let q = (m | (1 << mbits)) >>> sh;
    if (!rtz) {
      const rem = m & (half | lowMask);
      if (rem > half || (rem === half && lo !== 0) || (rem === half && lo === 0 && (q & 1) === 1)) q++;
    }
    if (q === 2 << fbits) {
      q >>>= 1;
      e++;
    }
    const E = e - eb;
    if (E > emax) out[i] = saturate ? s | maxMag : signBit;
    else if (E < 0) out[i] = 0;
    else {
      const F = q - (1 << fbits);
      out[i] = E === 0 && F === 0 ? 0 : s | (E << fbits) | F;
    }
  }
}
