import { defaultUserValue, resolveScalar } from './compile.js';
import type { CompiledField, CompiledTable, DecodedValue, DecodedValues, FieldValues } from './table.js';

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

function writeBits(out: Uint8Array, base: number, lsb: number, width: number, raw: bigint): void {
  let bit = lsb;
  let left = width;
  if (width <= FAST_BITS) {
    // Fast path: one bigint->number conversion, then byte-at-a-time on numbers.
    let v = Number(raw);
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
  const issues = validate(t, values);
  if (issues.length) throw new CodecError(t.name, issues);
  const buf = out ?? new Uint8Array(t.bytes);
  if (buf.length < offset + t.bytes) throw new RangeError(`encode ${t.name}: buffer too small`);
  buf.fill(0, offset, offset + t.bytes);
  for (const f of t.fields) {
    const v = f.reserved ? undefined : values[f.name];
    for (let i = 0; i < f.count; i++) {
      let user: bigint;
      const elem = Array.isArray(v) ? v[i] : v;
      if (elem !== undefined) user = userOf(f, elem, i);
      else if (Array.isArray(f.default)) user = userOf(f, f.default[i], i);
      else user = defaultUserValue(f);
      writeBits(buf, offset, f.lsb + i * f.width, f.width, toRaw(f, user));
    }
  }
  return buf;
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
