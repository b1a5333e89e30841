/** Array-in / array-out encode, decode and convert on typed arrays. */
import { FormatErrorCode, checkEb, fail } from './errors.js';
import { getFormat } from './registry.js';
import { type CodeArray, applyTable, codeArrayFor, convertTable, decodeTable } from './tables.js';
import type { EncodeOptions, FormatDescriptor } from './types.js';

function checkCodes(fmt: FormatDescriptor, codes: ArrayLike<number> & { BYTES_PER_ELEMENT?: number }): void {
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
  if (opts.eb !== undefined) checkEb(opts.eb);
  const n = values.length;
  const out = codeArrayFor(fmt.bits, n);
  const o: EncodeOptions = { eb: opts.eb ?? 0, saturate: opts.saturate, rounding: opts.rounding ?? 'rne' };
  if (o.saturate === undefined) delete o.saturate;
  for (let i = 0; i < n; i++) out[i] = fmt.encode(values[i]!, o);
  return out;
}

/** Decode codes to Float64 values (table-driven for formats of at most 16 bits). */
export function decodeArray(format: FormatDescriptor | string, codes: CodeArray, eb = 0, out?: Float64Array): Float64Array {
  const fmt = getFormat(format);
  checkEb(eb);
  checkCodes(fmt, codes);
  if (fmt.bits <= 16) return applyTable(decodeTable(fmt, eb), codes, out);
  const n = codes.length;
  const o = out ?? new Float64Array(n);
  for (let i = 0; i < n; i++) o[i] = fmt.decode(codes[i]!, eb);
  return o;
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
  checkCodes(f, codes);
  if (f.bits <= 16) {
    const table = convertTable(f, t, opts);
    const out = codeArrayFor(t.bits, codes.length);
    for (let i = 0, n = codes.length; i < n; i++) out[i] = table[codes[i]!]!;
    return out;
  }
  const fromEb = opts.fromEb ?? 0;
  checkEb(fromEb);
  const o: EncodeOptions = { eb: opts.eb ?? 0, saturate: opts.saturate, rounding: opts.rounding ?? 'rne' };
  if (o.saturate === undefined) delete o.saturate;
  const out = codeArrayFor(t.bits, codes.length);
  for (let i = 0, n = codes.length; i < n; i++) out[i] = t.encode(f.decode(codes[i]!, fromEb), o);
  return out;
}
