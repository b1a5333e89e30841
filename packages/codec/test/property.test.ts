import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, compileTable, decode, encode, readField, validate, type CompiledField, type CompiledTable, type FieldSpec, type FieldValue, type FieldValues } from '@pyxis/codec';

type Kind = 'plain' | 'signed' | 'enum' | 'minus_one' | 'zero_means_max' | 'reserved';

/** Random field specs: widths 1..64, counts 1..3, every encoding, optional gaps between fields. */
const arbFieldSeed = fc.record({
  width: fc.integer({ min: 1, max: 64 }),
  count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 3 })),
  kind: fc.constantFrom<Kind>('plain', 'signed', 'enum', 'minus_one', 'zero_means_max', 'reserved'),
  gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 9 })),
  codes: fc.uniqueArray(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { minLength: 1, maxLength: 4 }),
});

const arbTable = fc.array(arbFieldSeed, { minLength: 1, maxLength: 8 }).chain((seeds) => {
  let lsb = 0;
  const fields: FieldSpec[] = seeds.map((s, i) => {
    lsb += s.gap;
    const f: FieldSpec = { name: `f${i}`, width: s.width, lsb };
    if (s.count > 1) f.count = s.count;
    lsb += s.width * s.count;
    if (s.kind === 'signed') f.signed = true;
    if (s.kind === 'minus_one') f.minus_one = true;
    if (s.kind === 'zero_means_max') f.zero_means_max = true;
    if (s.kind === 'reserved') f.reserved = true;
    if (s.kind === 'enum') {
      const w = Math.min(s.width, 53); // enum codepoints are JSON numbers
      const codes = [...new Set(s.codes.map((c) => Number(c % (1n << BigInt(w)))))];
      f.enum = Object.fromEntries(codes.map((c, k) => [`e${k}`, c]));
    }
    return f;
  });
  return fc.constant(compileTable({ name: 'rand', fields, width: lsb + (seeds[0]!.gap % 3) }));
});

function arbValue(f: CompiledField): fc.Arbitrary<bigint | number | string> {
  if (f.enum) return fc.constantFrom(...Object.keys(f.enum), ...Object.values(f.enum));
  const b = fc.oneof(fc.bigInt({ min: f.min, max: f.max }), fc.constantFrom(f.min, f.max));
  // Exercise both the bigint path and the plain-number fast path.
  const safe = (n: bigint) => n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);
  return fc.oneof(b, b.map((n) => (safe(n) ? Number(n) : n)));
}

const arbTableAndValues = arbTable.chain((t) => {
  const entries = t.fields.filter((f) => !f.reserved).map((f) => {
    const v: fc.Arbitrary<FieldValue> = f.count > 1 ? fc.array(arbValue(f), { minLength: f.count, maxLength: f.count }) : arbValue(f);
    return fc.tuple(fc.constant(f.name), fc.option(v, { nil: undefined }));
  });
  return fc.tuple(fc.constant(t), fc.tuple(...entries)).map(([t, kv]) => {
    const values: FieldValues = {};
    for (const [k, v] of kv) if (v !== undefined) values[k] = v;
    return [t, values] as const;
  });
});

/** Independent reference: build the whole word as one bigint, then split it into little-endian bytes. */
function referenceEncode(t: CompiledTable, values: FieldValues): Uint8Array {
  let word = 0n;
  for (const f of t.fields) {
    const v = values[f.name];
    for (let i = 0; i < f.count; i++) {
      const e = Array.isArray(v) ? v[i] : v;
      let user: bigint;
      if (f.reserved || e === undefined) {
        const d = Array.isArray(f.default) ? f.default[i] : f.default;
        if (d !== undefined) user = typeof d === 'string' ? BigInt(f.enum![d]!) : BigInt(d);
        else if (f.minus_one || f.zero_means_max) user = 1n;
        else if (f.enum && !Object.values(f.enum).includes(0)) user = BigInt(Object.values(f.enum)[0]!);
        else user = 0n;
      } else user = typeof e === 'string' ? BigInt(f.enum![e]!) : BigInt(e);
      const m = (1n << BigInt(f.width)) - 1n;
      const raw = f.minus_one ? user - 1n : BigInt.asUintN(f.width, user) & m;
      word |= raw << BigInt(f.lsb + i * f.width);
    }
  }
  const out = new Uint8Array(t.bytes);
  for (let k = 0; k < t.bytes; k++) out[k] = Number((word >> BigInt(8 * k)) & 0xffn);
  return out;
}

const big = (v: unknown): unknown => (Array.isArray(v) ? v.map(big) : typeof v === 'number' ? BigInt(v) : v);

describe('codec properties', () => {
  it('encode matches an independent reference and decode inverts it', () => {
    fc.assert(
      fc.property(arbTableAndValues, ([t, values]) => {
        expect(validate(t, values)).toEqual([]);
        const bytes = encode(t, values);
        expect([...bytes]).toEqual([...referenceEncode(t, values)]);
        const back = decode(t, bytes);
        for (const f of t.fields) {
          if (f.reserved) {
            expect(back[f.name]).toBeUndefined();
            continue;
          }
          const v = values[f.name];
          if (v === undefined) continue;
          const want = (Array.isArray(v) ? v : [v]).map((e) => (typeof e === 'string' ? BigInt(f.enum![e]!) : BigInt(e)));
          const got = big(back[f.name]);
          expect(Array.isArray(got) ? got : [got]).toEqual(want);
          // decode returns plain numbers whenever they are exact
          for (const g of Array.isArray(back[f.name]) ? (back[f.name] as unknown[]) : [back[f.name]])
            if (typeof g === 'bigint') expect(g > BigInt(Number.MAX_SAFE_INTEGER) || g < BigInt(Number.MIN_SAFE_INTEGER)).toBe(true);
        }
        // readField agrees with decode element by element
        for (const f of t.fields)
          if (!f.reserved)
            for (let i = 0; i < f.count; i++) {
              const d = back[f.name]!;
              expect(readField(t, bytes, f.name, i)).toEqual(Array.isArray(d) ? d[i] : d);
            }
        // decode -> encode reproduces the word (reserved bits are zero in what we wrote)
        expect([...encode(t, decode(t, bytes) as FieldValues)]).toEqual([...bytes]);
      }),
      { numRuns: 400 },
    );
  });

  it('encode throws CodecError exactly when validate reports issues', () => {
    const junk = fc.oneof(fc.bigInt({ min: -(1n << 66n), max: 1n << 66n }), fc.integer(), fc.constantFrom('e0', 'nope', 'toString', 1.5, -0, null, true));
    const arb = arbTable.chain((t) =>
      fc.tuple(
        fc.constant(t),
        fc.dictionary(fc.constantFrom(...t.fields.map((f) => f.name), 'unknown'), fc.oneof(junk, fc.array(junk, { maxLength: 4 })), { maxKeys: 4 }),
      ),
    );
    fc.assert(
      fc.property(arb, ([t, values]) => {
        const issues = validate(t, values as FieldValues);
        let threw = false;
        try {
          encode(t, values as FieldValues);
        } catch (e) {
          expect(e).toBeInstanceOf(CodecError);
          expect((e as CodecError).issues).toEqual(issues);
          threw = true;
        }
        expect(threw).toBe(issues.length > 0);
      }),
      { numRuns: 400 },
    );
  });

  it('out-of-range values: validate names the field, the value and the legal range', () => {
    const arb = arbTable
      .filter((t) => t.fields.some((f) => !f.reserved && !f.enum))
      .chain((t) => {
        const cands = t.fields.filter((f) => !f.reserved && !f.enum);
        return fc.tuple(fc.constant(t), fc.constantFrom(...cands), fc.boolean(), fc.bigInt({ min: 1n, max: 1n << 70n }));
      });
    fc.assert(
      fc.property(arb, ([t, f, above, delta]) => {
        const badBig = above ? f.max + delta : f.min - delta;
        const bad = delta % 2n === 0n && badBig >= BigInt(Number.MIN_SAFE_INTEGER) && badBig <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(badBig) : badBig;
        const v = f.count > 1 ? Array.from({ length: f.count }, (_, i) => (i === f.count - 1 ? bad : f.min)) : bad;
        const issues = validate(t, { [f.name]: v });
        expect(issues).toHaveLength(1);
        const issue = issues[0]!;
        expect(issue.field).toBe(f.name);
        if (f.count > 1) expect(issue.index).toBe(f.count - 1);
        expect(issue.message).toContain(`\`${f.name}\``);
        expect(issue.message).toContain(String(bad));
        expect(issue.message).toContain(`${f.min}..${f.max}`);
        expect(issue.message).toContain(`${f.width}-bit`);
        expect(() => encode(t, { [f.name]: v })).toThrow(/out of range/);
      }),
      { numRuns: 300 },
    );
  });

  it('enum fields reject codepoints that are not declared', () => {
    const arb = arbTable
      .filter((t) => t.fields.some((f) => !!f.enum && Object.keys(f.enum).length < 2 ** Math.min(f.width, 53)))
      .chain((t) => {
        const f = t.fields.find((x) => !!x.enum && Object.keys(x.enum).length < 2 ** Math.min(x.width, 53))!;
        const used = new Set(Object.values(f.enum!));
        return fc.tuple(fc.constant(t), fc.constant(f), fc.bigInt({ min: 0n, max: f.max }).filter((n) => !used.has(Number(n))));
      });
    fc.assert(
      fc.property(arb, ([t, f, n]) => {
        const v = f.count > 1 ? [n] : n;
        const issues = validate(t, { [f.name]: v });
        expect(issues).toHaveLength(1);
        expect(issues[0]!.message).toContain(`${n} is not a codepoint of \`${f.name}\``);
        expect(issues[0]!.message).toContain(`(${f.width}-bit enum)`);
      }),
      { numRuns: 100 },
    );
  });
});
