import { defaultUserValue, enumCode, resolveScalar } from './compile.js';
import type { CompiledField, CompiledTable, DecodedValue, DecodedValues, FieldScalar, FieldValues } from './table.js';

/** A problem with one field value; `index` is set for array elements. */
export interface FieldIssue {
  field: string;
  index?: number;
  message: string;
}

export class CodecError extends Error {
  constructor(
    readonly table: string,
    readonly issues: FieldIssue[],
  ) {
    super(`${table}: ${issues.map((i) => i.message).join('; ')}`);
    this.name = 'CodecError';
  }
}

/** Checks values against a table without encoding: unknown names, ranges, enums, array lengths. */
export function validate(t: CompiledTable, values: FieldValues): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(values)) {
    const f = t.byName.get(key);
    if (!f) issues.push({ field: key, message: `\`${key}\` is not a field of \`${t.name}\`` });
    else if (f.reserved) issues.push({ field: key, message: `\`${key}\` is reserved in \`${t.name}\` and cannot be set` });
  }
  for (const f of t.fields) {
    const v = values[f.name];
    if (v === undefined || f.reserved) continue;
    if (f.count > 1) {
      if (!Array.isArray(v)) {
        issues.push({ field: f.name, message: `\`${f.name}\` has ${f.count} elements; give a list` });
        continue;
      }
      if (v.length > f.count) issues.push({ field: f.name, message: `\`${f.name}\` has ${f.count} elements, got ${v.length}` });
      v.forEach((e, i) => {
        const r = resolveScalar(f, e);
        if (typeof r === 'string') issues.push({ field: f.name, index: i, message: `${f.name}[${i}]: ${r}` });
      });
    } else {
      if (Array.isArray(v)) {
        issues.push({ field: f.name, message: `\`${f.name}\` is a scalar field; got a list` });
        continue;
      }
      const r = resolveScalar(f, v);
      if (typeof r === 'string') issues.push({ field: f.name, message: r });
    }
  }
  return issues;
}

/** User value -> raw bits stored in the word (two's complement, N-1, zero-means-max). */
function toRaw(f: CompiledField, user: bigint): bigint {
  const mask = (1n << BigInt(f.width)) - 1n;
  if (f.minus_one) return user - 1n;
  if (f.zero_means_max) return user & mask;
  return user & mask;
}

function fromRaw(f: CompiledField, raw: bigint): bigint {
  const w = BigInt(f.width);
  if (f.minus_one) return raw + 1n;
  if (f.zero_means_max) return raw === 0n ? 1n << w : raw;
  if (f.signed && raw >> (w - 1n)) return raw - (1n << w);
  return raw;
}

/** Widths up to this many bits are moved with plain float64 arithmetic (exact below 2^53). */
const FAST_BITS = 52;

/** Writes raw bits given as a non-negative number below 2^FAST_BITS. */
function writeBitsNum(out: Uint8Array, base: number, lsb: number, width: number, raw: number): void {
  let bit = lsb;
  let left = width;
  let v = raw;
  while (left > 0) {
    const byte = base + (bit >> 3);
    const sh = bit & 7;
    const take = Math.min(8 - sh, left);
    const lim = 1 << take;
    const part = v % lim;
    const m = (lim - 1) << sh;
    out[byte] = (out[byte]! & ~m) | (part << sh);
    v = (v - part) / lim;
    bit += take;
    left -= take;
  }
}

function writeBits(out: Uint8Array, base: number, lsb: number, width: number, raw: bigint): void {
  let bit = lsb;
  let left = width;
  if (width <= FAST_BITS) {
    // Fast path: one bigint->number conversion, then byte-at-a-time on numbers.
    writeBitsNum(out, base, lsb, width, Number(raw));
    return;
  }
  let v = raw;
  while (left > 0) {
    const byte = base + (bit >> 3);
    const sh = bit & 7;
    const take = Math.min(8 - sh, left);
    const m = ((1 << take) - 1) << sh;
    out[byte] = (out[byte]! & ~m) | ((Number(v & BigInt((1 << take) - 1)) << sh) & m);
    v >>= BigInt(take);
    bit += take;
    left -= take;
  }
}

/** Raw field bits as a number (width <= FAST_BITS). */
function readBitsNum(buf: Uint8Array, base: number, lsb: number, width: number): number {
  let v = 0;
  let scale = 1;
  let got = 0;
  let bit = lsb;
  while (got < width) {
    const sh = bit & 7;
    const take = Math.min(8 - sh, width - got);
    v += ((buf[base + (bit >> 3)]! >> sh) & ((1 << take) - 1)) * scale;
    scale *= 1 << take;
    got += take;
    bit += take;
  }
  return v;
}

/** Raw bits -> user value in number arithmetic (width <= FAST_BITS, so every result is exact). */
function fromRawNum(f: CompiledField, raw: number): number {
  if (f.minus_one) return raw + 1;
  if (f.zero_means_max) return raw === 0 ? 2 ** f.width : raw;
  if (f.signed && raw >= 2 ** (f.width - 1)) return raw - 2 ** f.width;
  return raw;
}

/** One element, decoded to its user-visible value. */
function readElement(f: CompiledField, buf: Uint8Array, base: number, lsb: number): number | bigint {
  if (f.width <= FAST_BITS) return fromRawNum(f, readBitsNum(buf, base, lsb, f.width));
  return toDecoded(fromRaw(f, readBits(buf, base, lsb, f.width)));
}

function readBits(buf: Uint8Array, base: number, lsb: number, width: number): bigint {
  let v = 0n;
  let got = 0;
  let bit = lsb;
  while (got < width) {
    const sh = bit & 7;
    const take = Math.min(8 - sh, width - got);
    const part = (buf[base + (bit >> 3)]! >> sh) & ((1 << take) - 1);
    v |= BigInt(part) << BigInt(got);
    got += take;
    bit += take;
  }
  return v;
}

function userOf(f: CompiledField, v: unknown, index: number): bigint {
  const r = resolveScalar(f, v);
  if (typeof r === 'string') throw new CodecError('?', [{ field: f.name, index, message: r }]);
  return r;
}

/**
 * Packs `values` into a little-endian word (bit i of the word is bit i%8 of
 * byte i/8). Omitted fields take their defaults; reserved fields are zero.
 * Throws CodecError on any invalid value (call `validate` first for per-field diagnostics).
 */
export function encode(t: CompiledTable, values: FieldValues, out?: Uint8Array, offset = 0): Uint8Array {
  const fail = (): never => {
    throw new CodecError(t.name, validate(t, values));
  };
  for (const key in values) {
    if (!Object.hasOwn(values, key)) continue;
    const f = t.byName.get(key);
    if (!f || f.reserved) fail();
  }
  // Resolve every element once (no writes yet, so a caller's buffer is untouched on error).
  // Elements of fields up to FAST_BITS wide given as numbers/enum names stay numbers (no bigint).
  const users = scratch.length >= t.fields.length ? scratch : (scratch = new Array<Array<number | bigint>>(t.fields.length));
  for (let k = 0; k < t.fields.length; k++) {
    const f = t.fields[k]!;
    const v = f.reserved ? undefined : values[f.name];
    const defs = defaultsOf(f);
    let row = users[k];
    if (!row || row.length < f.count) row = users[k] = new Array<number | bigint>(f.count);
    if (v === undefined) {
      for (let i = 0; i < f.count; i++) row[i] = defs[i]!;
      continue;
    }
    if (Array.isArray(v) !== f.count > 1 || (Array.isArray(v) && v.length > f.count)) fail();
    for (let i = 0; i < f.count; i++) {
      const elem = Array.isArray(v) ? v[i] : v;
      if (elem === undefined) {
        // An explicit `undefined` inside a list is an error (as in validate); holes/short lists take defaults.
        if (Array.isArray(v) && Object.hasOwn(v, i)) fail();
        row[i] = defs[i]!;
        continue;
      }
      const fast = fastUser(f, elem);
      if (fast !== undefined) {
        row[i] = fast;
        continue;
      }
      const r = resolveScalar(f, elem);
      if (typeof r === 'string') fail();
      row[i] = r as bigint;
    }
  }
  const buf = out ?? new Uint8Array(t.bytes);
  if (buf.length < offset + t.bytes) throw new RangeError(`encode ${t.name}: buffer too small`);
  buf.fill(0, offset, offset + t.bytes);
  for (let k = 0; k < t.fields.length; k++) {
    const f = t.fields[k]!;
    const row = users[k]!;
    for (let i = 0; i < f.count; i++) {
      const u = row[i]!;
      const lsb = f.lsb + i * f.width;
      if (typeof u === 'number') writeBitsNum(buf, offset, lsb, f.width, toRawNum(f, u));
      else writeBits(buf, offset, lsb, f.width, toRaw(f, u));
    }
  }
  return buf;
}

/**
 * The user value of `elem` as a number when that is cheap and certain (field
 * at most FAST_BITS wide, integer number in range or a declared enum name);
 * undefined sends the caller to the general bigint path (which also reports errors).
 */
function fastUser(f: CompiledField, elem: FieldScalar): number | undefined {
  if (f.width > FAST_BITS) return undefined;
  if (typeof elem === 'string') return enumCode(f, elem);
  if (typeof elem !== 'number' || !Number.isInteger(elem)) return undefined;
  if (f.enumNames && !f.enum_open) return f.enumNames.has(elem) ? elem : undefined;
  const span = 2 ** f.width;
  if (f.signed) return elem >= -span / 2 && elem < span / 2 ? elem : undefined;
  if (f.minus_one || f.zero_means_max) return elem >= 1 && elem <= span ? elem : undefined;
  return elem >= 0 && elem < span ? elem : undefined;
}

/** toRaw in number arithmetic (width <= FAST_BITS). */
function toRawNum(f: CompiledField, user: number): number {
  if (f.minus_one) return user - 1;
  if (f.zero_means_max) return user === 2 ** f.width ? 0 : user;
  return user < 0 ? user + 2 ** f.width : user;
}

/** Reused between encode calls (encode is synchronous and not re-entrant). */
let scratch: Array<Array<number | bigint>> = [];

const defaultsCache = new WeakMap<CompiledField, Array<number | bigint>>();
/** Per-element user value of an omitted field (computed once per compiled field). */
function defaultsOf(f: CompiledField): Array<number | bigint> {
  let d = defaultsCache.get(f);
  if (!d) {
    d = [];
    for (let i = 0; i < f.count; i++) {
      const u = Array.isArray(f.default) ? userOf(f, f.default[i], i) : defaultUserValue(f);
      d.push(f.width <= FAST_BITS ? Number(u) : u);
    }
    defaultsCache.set(f, d);
  }
  return d;
}

function toDecoded(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** Unpacks every field. Values are user-visible (N-1 undone, signed extended); enums as codepoints. */
export function decode(t: CompiledTable, buf: Uint8Array, offset = 0, opts: { includeReserved?: boolean } = {}): DecodedValues {
  if (buf.length < offset + t.bytes) throw new RangeError(`decode ${t.name}: need ${t.bytes} bytes at offset ${offset}, have ${buf.length - offset}`);
  const out: DecodedValues = {};
  for (const f of t.fields) {
    if (f.reserved && !opts.includeReserved) continue;
    if (f.count > 1) {
      const arr: Array<number | bigint> = [];
      for (let i = 0; i < f.count; i++) arr.push(readElement(f, buf, offset, f.lsb + i * f.width));
      out[f.name] = arr;
    } else out[f.name] = readElement(f, buf, offset, f.lsb);
  }
  return out;
}

/** Reads one field (element `index` of an array field) directly; cheaper than a full decode. */
export function readField(t: CompiledTable, buf: Uint8Array, name: string, index = 0, offset = 0): number | bigint {
  const f = t.byName.get(name);
  if (!f) throw new Error(`${t.name}: no field ${name}`);
  if (!Number.isInteger(index) || index < 0 || index >= f.count) throw new RangeError(`${t.name}.${name}: element ${index} out of range 0..${f.count - 1}`);
  if (buf.length < offset + t.bytes) throw new RangeError(`readField ${t.name}: need ${t.bytes} bytes at offset ${offset}, have ${buf.length - offset}`);
  return readElement(f, buf, offset, f.lsb + index * f.width);
}

/** Reserved bits that are set in a word (decoders warn on these). */
export function reservedBitsSet(t: CompiledTable, buf: Uint8Array, offset = 0): string[] {
  const bad: string[] = [];
  for (const f of t.fields) {
    if (!f.reserved) continue;
    for (let i = 0; i < f.count; i++) if (readBits(buf, offset, f.lsb + i * f.width, f.width) !== 0n) bad.push(f.name);
  }
  return bad;
}

/** Values with every field present (defaults filled in) as decode would return them. */
export function withDefaults(t: CompiledTable, values: FieldValues): DecodedValues {
  return decode(t, encode(t, values));
}

/** Name of an enum codepoint, or the number as text. */
export function enumName(t: CompiledTable, field: string, code: DecodedValue): string {
  const f = t.byName.get(field);
  if (typeof code === 'number' && f?.enumNames?.has(code)) return f.enumNames.get(code)!;
  return String(code);
}
