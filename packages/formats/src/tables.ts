/**
 * Table-driven fast paths for the simulator: every table is built once per
 * (format/converter, parameters) and cached; lookups are plain typed-array reads.
 */
import { FormatErrorCode, checkEb, checkEbAdj, fail } from './errors.js';
import type { MnsFormat } from './formats.js';
import {
  type ExtFormat,
  type ExportOptions,
  type ImportOptions,
  type MappingOptions,
  exportFromRfp16,
  fp16ToFp8Raw,
  fp8ToFp16Raw,
  fp8ToLnsI5F3Raw,
  importToRfp16,
  linToLog,
  linToLogRaw,
  lnsI4F3ToI5F3,
  logToLin,
  logToLinRaw,
} from './hw.js';
import { getFormat } from './registry.js';
import type { FormatDescriptor } from './types.js';

export type CodeArray = Uint8Array | Uint16Array | Uint32Array;

/** Built tables, least recently used first; bounded so sweeping many EBs cannot exhaust memory. */
const cache = new Map<string, Float64Array | CodeArray>();
const CACHE_MAX = 96;

function cached<T extends Float64Array | CodeArray>(key: string, build: () => T): T {
  let t = cache.get(key) as T | undefined;
  if (t) {
    cache.delete(key); // refresh recency
  } else {
    t = build();
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, t);
  return t;
}

/** A typed array wide enough for `bits`-bit codes. */
export function codeArrayFor(bits: number, n: number): CodeArray {
  return bits <= 8 ? new Uint8Array(n) : bits <= 16 ? new Uint16Array(n) : new Uint32Array(n);
}

/** decode() of every code of a format of at most 16 bits, for one EB. */
export function decodeTable(format: FormatDescriptor | string, eb = 0): Float64Array {
  const fmt = getFormat(format);
  if (fmt.bits > 16) fail(FormatErrorCode.badOption, `decodeTable: ${fmt.name} has ${fmt.bits} bits (tables are for <= 16-bit formats)`);
  checkEb(eb);
  const e = fmt.hasEb ? eb : 0;
  return cached(`dec:${fmt.name}:${e}`, () => {
    const n = 2 ** fmt.bits;
    const t = new Float64Array(n);
    for (let c = 0; c < n; c++) t[c] = fmt.decode(c, e);
    return t;
  });
}

/** Float64Array(256) of decoded values of an 8-bit format. */
export function decodeTable8(format: FormatDescriptor | string, eb = 0): Float64Array {
  const fmt = getFormat(format);
  if (fmt.bits !== 8) fail(FormatErrorCode.badOption, `decodeTable8: ${fmt.name} is not an 8-bit format`);
  return decodeTable(fmt, eb);
}

/** Float64Array(65536) of decoded values of a 16-bit format. */
export function decodeTable16(format: FormatDescriptor | string, eb = 0): Float64Array {
  const fmt = getFormat(format);
  if (fmt.bits !== 16) fail(FormatErrorCode.badOption, `decodeTable16: ${fmt.name} is not a 16-bit format`);
  return decodeTable(fmt, eb);
}

/** Code -> code table for a value-level conversion (decode with fromEb, encode with opts). */
export function convertTable(
  from: FormatDescriptor | string,
  to: FormatDescriptor | string,
  opts: { fromEb?: number; eb?: number; saturate?: boolean; rounding?: 'rne' | 'rtz' } = {},
): CodeArray {
  const f = getFormat(from);
  const t = getFormat(to);
  if (f.bits > 16) fail(FormatErrorCode.badOption, `convertTable: ${f.name} has ${f.bits} bits (tables are for <= 16-bit sources)`);
  const fromEb = opts.fromEb ?? 0;
  const eb = opts.eb ?? 0;
  checkEb(fromEb);
  checkEb(eb);
  const key = `cvt:${f.name}:${t.name}:${fromEb}:${eb}:${opts.saturate}:${opts.rounding ?? 'native'}`;
  return cached(key, () => {
    const n = 2 ** f.bits;
    const out = codeArrayFor(t.bits, n);
    const o = { eb, ...(opts.saturate !== undefined ? { saturate: opts.saturate } : {}), ...(opts.rounding ? { rounding: opts.rounding } : {}) };
    for (let c = 0; c < n; c++) out[c] = t.encode(f.decode(c, fromEb), o);
    return out;
  });
}

/** RFP8 -> RFP16 (chip §6.2.1.4.2) for all 256 codes. */
export function fp8ToFp16Table(ebAdj = 0): Uint16Array {
  checkEbAdj(ebAdj, 'EB_Adj_FP8');
  return cached(`fp8to16:${ebAdj}`, () => {
    const t = new Uint16Array(256);
    for (let c = 0; c < 256; c++) t[c] = fp8ToFp16Raw(c, ebAdj);
    return t;
  });
}

/** RFP16 -> RFP8 with the §6.2.2.2.2 rounding, for all 65536 codes. */
export function fp16ToFp8Table(ebAdj = 0): Uint8Array {
  checkEbAdj(ebAdj, 'EB_Adj_FP8');
  return cached(`fp16to8:${ebAdj}`, () => {
    const t = new Uint8Array(65536);
    for (let c = 0; c < 65536; c++) t[c] = fp16ToFp8Raw(c, ebAdj);
    return t;
  });
}

function mapKey(o: MappingOptions): string {
  return `${o.ebAdj ?? 0}:${o.mappingCorrection ?? true}:${o.fbitsTruncateAmt ?? 0}`;
}

/** RFP16 -> LnsI5F10 Lin2Log (chip §4.8) for all 65536 codes. */
export function linToLogTable(opts: MappingOptions = {}): Uint16Array {
  linToLog(0, opts); // validates the options
  const a = opts.ebAdj ?? 0;
  const c = opts.mappingCorrection ?? true;
  const tr = opts.fbitsTruncateAmt ?? 0;
  return cached(`lin2log:${mapKey(opts)}`, () => {
    const t = new Uint16Array(65536);
    for (let x = 0; x < 65536; x++) t[x] = linToLogRaw(x, a, c, tr);
    return t;
  });
}

/** LnsI5F10 -> RFP16 Log2Lin (chip §4.7) for all 65536 codes. */
export function logToLinTable(opts: MappingOptions = {}): Uint16Array {
  logToLin(0, opts);
  const a = opts.ebAdj ?? 0;
  const c = opts.mappingCorrection ?? true;
  const tr = opts.fbitsTruncateAmt ?? 0;
  return cached(`log2lin:${mapKey(opts)}`, () => {
    const t = new Uint16Array(65536);
    for (let x = 0; x < 65536; x++) t[x] = logToLinRaw(x, a, c, tr);
    return t;
  });
}

/** RFP8 -> LnsI5F3 (chip §6.2.4.4) for all 256 codes. */
export function fp8ToLnsI5F3Table(opts: { ebAdj?: number; mappingCorrection?: boolean } = {}): Uint16Array {
  const a = opts.ebAdj ?? 0;
  checkEbAdj(a, 'EB_Adj_I4I5');
  const c = opts.mappingCorrection ?? true;
  return cached(`fp8toI5F3:${a}:${c}`, () => {
    const t = new Uint16Array(256);
    for (let x = 0; x < 256; x++) t[x] = fp8ToLnsI5F3Raw(x, a, c);
    return t;
  });
}

/** LnsI4F3 -> LnsI5F3 (chip §6.2.4.5) for all 256 codes. */
export function lnsI4F3ToI5F3Table(ebAdj = 0): Uint16Array {
  checkEbAdj(ebAdj, 'EB_Adj_I4I5');
  return cached(`i4toi5:${ebAdj}`, () => {
    const t = new Uint16Array(256);
    for (let x = 0; x < 256; x++) t[x] = lnsI4F3ToI5F3(x, ebAdj);
    return t;
  });
}

/** IEEE FP16 / OFP8 -> RFP16 import table (chip §4.9.1, §4.10.1). */
export function importTable(format: ExtFormat, opts: ImportOptions = {}): Uint16Array {
  importToRfp16(format, 0, opts);
  const n = format === 'IEEE_FP16' ? 65536 : 256;
  return cached(`imp:${format}:${opts.ebAdj ?? 0}:${opts.saturate ?? true}`, () => {
    const t = new Uint16Array(n);
    for (let x = 0; x < n; x++) t[x] = importToRfp16(format, x, opts);
    return t;
  });
}

/** RFP16 -> IEEE FP16 / OFP8 export table (chip §4.9.2, §4.10.2). */
export function exportTable(format: ExtFormat, opts: ExportOptions = {}): Uint8Array | Uint16Array {
  exportFromRfp16(format, 0, opts);
  return cached(`exp:${format}:${opts.ebAdj ?? 0}:${opts.saturate ?? true}:${!!opts.maxToInf}`, () => {
    const t = format === 'IEEE_FP16' ? new Uint16Array(65536) : new Uint8Array(65536);
    for (let x = 0; x < 65536; x++) t[x] = exportFromRfp16(format, x, opts);
    return t;
  });
}

/**
 * out[i] = table[codes[i]] (the simulator's hot loop). Codes index the table
 * directly; a code outside the table is a FMT0003 diagnostic at its byte offset.
 */
export function applyTable<T extends CodeArray | Float64Array>(table: T, codes: CodeArray, out?: T): T {
  const n = codes.length;
  const o = (out ?? new (table.constructor as new (n: number) => T)(n)) as T;
  if (o.length < n) fail(FormatErrorCode.badArray, `applyTable: output length ${o.length} < input length ${n}`);
  const size = table.length;
  if (size < 2 ** (codes.BYTES_PER_ELEMENT * 8)) {
    for (let i = 0; i < n; i++) {
      if (codes[i]! >= size) {
        fail(FormatErrorCode.codeRange, `code ${codes[i]} at index ${i} is outside the ${size}-entry table`, undefined, {
          file: '<codes>',
          offset: i * codes.BYTES_PER_ELEMENT,
        });
      }
    }
  }
  lookup(table, codes, o, n);
  return o;
}

// One monomorphic loop per common (table, codes) element-type pair: a single
// generic loop would see every typed-array kind and go megamorphic.
function lookupF64U8(t: Float64Array, c: Uint8Array, o: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) o[i] = t[c[i]!]!;
}
function lookupF64U16(t: Float64Array, c: Uint16Array, o: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) o[i] = t[c[i]!]!;
}
function lookupU8U16(t: Uint8Array, c: Uint16Array, o: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) o[i] = t[c[i]!]!;
}
function lookupU8U8(t: Uint8Array, c: Uint8Array, o: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) o[i] = t[c[i]!]!;
}
function lookupU16U8(t: Uint16Array, c: Uint8Array, o: Uint16Array, n: number): void {
  for (let i = 0; i < n; i++) o[i] = t[c[i]!]!;
}
function lookupU16U16(t: Uint16Array, c: Uint16Array, o: Uint16Array, n: number): void {
  for (let i = 0; i < n; i++) o[i] = t[c[i]!]!;
}
function lookupGeneric(t: ArrayLike<number>, c: ArrayLike<number>, o: { [i: number]: number }, n: number): void {
  for (let i = 0; i < n; i++) o[i] = t[c[i]!]!;
}

function lookup(t: CodeArray | Float64Array, c: CodeArray, o: CodeArray | Float64Array, n: number): void {
  const same = t.constructor === o.constructor;
  if (same && t instanceof Float64Array) {
    if (c instanceof Uint8Array) return lookupF64U8(t, c, o as Float64Array, n);
    if (c instanceof Uint16Array) return lookupF64U16(t, c, o as Float64Array, n);
  } else if (same && t instanceof Uint8Array) {
    if (c instanceof Uint16Array) return lookupU8U16(t, c, o as Uint8Array, n);
    if (c instanceof Uint8Array) return lookupU8U8(t, c, o as Uint8Array, n);
  } else if (same && t instanceof Uint16Array) {
    if (c instanceof Uint8Array) return lookupU16U8(t, c, o as Uint16Array, n);
    if (c instanceof Uint16Array) return lookupU16U16(t, c, o as Uint16Array, n);
  }
  lookupGeneric(t, c, o, n);
}

export type { MnsFormat };
