/**
 * Allocation-free word packing for the assembler's hot path. The generic
 * codec (@pyxis/codec) works in BigInt, which is exact but allocates per
 * bit-chunk; here every field up to 32 bits is packed with plain numbers
 * from a per-table plan. Tables with wider fields, and any value out of
 * range, fall back to the codec (which also produces the error message).
 * Tests check both paths give identical bytes.
 */
import { defaultUserValue, encode, resolveScalar, type CompiledField, type CompiledTable, type FieldValues } from '@pyxis/codec';

interface Plan {
  fast: boolean;
  fields: CompiledField[];
  /** Default user value per field element (numbers). */
  defaults: number[][];
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
  p = { fast, fields: t.fields, defaults };
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

/** Packs values (numbers/bigints/enum names) like codec.encode; returns false if the slow path is needed. */
function tryFast(t: CompiledTable, p: Plan, values: FieldValues, out: Uint8Array, offset: number): boolean {
  if (!p.fast) return false;
  out.fill(0, offset, offset + t.bytes);
  const fs = p.fields;
  for (let k = 0; k < fs.length; k++) {
    const f = fs[k]!;
    const v = f.reserved ? undefined : values[f.name];
    for (let i = 0; i < f.count; i++) {
      const e = Array.isArray(v) ? v[i] : v;
      let user: number;
      if (e === undefined) user = p.defaults[k]![i]!;
      else {
        const n = toNum(e);
        if (n === undefined || !Number.isInteger(n) || n < Number(f.min) || n > Number(f.max)) return false;
        if (f.enumNames && !f.enumNames.has(n)) return false;
        user = n;
      }
      const raw = f.minus_one ? user - 1 : f.zero_means_max ? (f.width >= 32 ? user : user % 2 ** f.width) : user < 0 ? user + 2 ** f.width : user;
      writeNum(out, offset, f.lsb + i * f.width, f.width, raw);
    }
  }
  return true;
}

/** codec.encode with a fast path (same bytes, same errors). */
export function encodeFast(t: CompiledTable, values: FieldValues, out: Uint8Array, offset: number): void {
  if (!tryFast(t, planOf(t), values, out, offset)) encode(t, values, out, offset);
}

/** Effective user values (given or default) as numbers, for the rule checks. */
export function effectiveValues(t: CompiledTable, values: FieldValues): Record<string, number | number[]> {
  const p = planOf(t);
  const out: Record<string, number | number[]> = {};
  p.fields.forEach((f, k) => {
    const v = values[f.name];
    if (f.count > 1) {
      out[f.name] = p.defaults[k]!.map((d, i) => {
        const e = Array.isArray(v) ? v[i] : undefined;
        const n = e === undefined ? undefined : typeof e === 'string' ? f.enum?.[e] : toNum(e);
        return n ?? d;
      });
    } else {
      const n = v === undefined || Array.isArray(v) ? undefined : typeof v === 'string' ? f.enum?.[v] : toNum(v);
      out[f.name] = n ?? p.defaults[k]![0]!;
    }
  });
  return out;
}
