/**
 * Allocation-free word packing for the assembler's hot path. The generic
 * codec (@pyxis/codec) works in BigInt, which is exact but allocates per
 * bit-chunk; here every field up to 32 bits is packed with plain numbers
 * from a per-table plan. Tables with wider fields, and any value out of
 * range, fall back to the codec (which also produces the error message).
 * Tests check both paths give identical bytes.
 */
import { defaultUserValue, encode, enumCode, resolveScalar, type CompiledField, type CompiledTable, type FieldValues } from '@pyxis/codec';

interface Plan {
  fast: boolean;
  fields: CompiledField[];
  /** Default user value per field element (numbers). */
  defaults: number[][];
  /** The word with every field at its default (fast tables only): values given are written over it. */
  template?: Uint8Array;
  /** field name -> index in `fields` (settable fields only). */
  index: Map<string, number>;
  /** User-visible limits as numbers (fast tables only). */
  min: number[];
  max: number[];
}

const plans = new WeakMap<CompiledTable, Plan>();

export function planOf(t: CompiledTable): Plan {
  let p = plans.get(t);
  if (p) return p;
  const fast = t.fields.every((f) => f.width <= 32);
  const defaults = t.fields.map((f) => {
    const out: number[] = [];
    for (let i = 0; i < f.count; i++) {
      const d = Array.isArray(f.default) ? resolveScalar(f, f.default[i]) : defaultUserValue(f);
      out.push(typeof d === 'string' ? 0 : Number(d));
    }
    return out;
  });
  const index = new Map<string, number>();
  t.fields.forEach((f, k) => {
    if (!f.reserved) index.set(f.name, k);
  });
  p = { fast, fields: t.fields, defaults, index, min: t.fields.map((f) => Number(f.min)), max: t.fields.map((f) => Number(f.max)) };
  if (fast) {
    // the default word, built with the generic codec (reserved fields at their default, gaps 0)
    p.template = encode(t, {});
  }
  plans.set(t, p);
  return p;
}

function toNum(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

function writeNum(out: Uint8Array, base: number, lsb: number, width: number, raw: number): void {
  let bit = lsb;
  let left = width;
  let v = raw >>> 0;
  while (left > 0) {
    const byte = base + (bit >> 3);
    const sh = bit & 7;
    const take = Math.min(8 - sh, left);
    const m = ((1 << take) - 1) << sh;
    out[byte] = (out[byte]! & ~m) | (((v & ((1 << take) - 1)) << sh) & m);
    v = take >= 32 ? 0 : v >>> take;
    bit += take;
    left -= take;
  }
}

/**
 * Packs values (numbers/bigints/enum names) like codec.encode: copies the
 * default word, then writes only the fields present in `values` (a few per
 * instruction, not every field of the table). Returns false, with `out`
 * possibly partly written, if the slow path is needed (wide table, unknown or
 * reserved name, out-of-range value); the slow path rewrites the whole word.
 */
function tryFast(t: CompiledTable, p: Plan, values: FieldValues, out: Uint8Array, offset: number): boolean {
  if (!p.fast) return false;
  out.set(p.template!, offset);
  const fs = p.fields;
  for (const key in values) {
    const k = p.index.get(key);
    if (k === undefined) return false;
    const f = fs[k]!;
    const v = values[key];
    if (v === undefined) continue;
    const arr = Array.isArray(v);
    if (arr !== f.count > 1 || (arr && v.length > f.count)) return false;
    const lo = p.min[k]!;
    const hi = p.max[k]!;
    for (let i = 0; i < f.count; i++) {
      const e = arr ? v[i] : v;
      if (e === undefined) continue; // element keeps its default from the template
      let n: number | undefined;
      if (typeof e === 'number') n = e;
      else if (typeof e === 'bigint') n = Number(e);
      else if ((n = enumCode(f, e)) === undefined) return false; // not an enum name/alias: the slow path reports it
      if (!Number.isInteger(n) || n < lo || n > hi) return false;
      if (f.enumNames && !f.enumNames.has(n)) return false;
      const raw = f.minus_one ? n - 1 : f.zero_means_max ? (f.width >= 32 ? n : n % 2 ** f.width) : n < 0 ? n + 2 ** f.width : n;
      writeNum(out, offset, f.lsb + i * f.width, f.width, raw);
    }
  }
  return true;
}

/** codec.encode with a fast path (same bytes, same errors). */
export function encodeFast(t: CompiledTable, values: FieldValues, out: Uint8Array, offset: number): void {
  if (!tryFast(t, planOf(t), values, out, offset)) encode(t, values, out, offset);
}

/** Effective user values (given or default) of every field, as numbers. */
export function effectiveValues(t: CompiledTable, values: FieldValues): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = {};
  for (const f of planOf(t).fields) if (!f.reserved) out[f.name] = effectiveValue(t, values, f.name)!;
  return out;
}

/** The effective user value (given or default) of one field, as numbers; undefined if the table has no such field. */
export function effectiveValue(t: CompiledTable, values: FieldValues, name: string): number | number[] | undefined {
  const p = planOf(t);
  const k = p.index.get(name);
  if (k === undefined) return undefined;
  const f = p.fields[k]!;
  const v = values[name];
  if (f.count > 1) {
    return p.defaults[k]!.map((d, i) => {
      const e = Array.isArray(v) ? v[i] : undefined;
      const n = e === undefined ? undefined : typeof e === 'string' ? enumCode(f, e) : toNum(e);
      return n ?? d;
    });
  }
  const n = v === undefined || Array.isArray(v) ? undefined : typeof v === 'string' ? enumCode(f, v) : toNum(v);
  return n ?? p.defaults[k]![0]!;
}
