import { describe, expect, it } from 'vitest';
import { CodecError, compileTable, decode, encode, readField, reservedBitsSet, validate, withDefaults, enumName, TableError } from '@pyxis/codec';

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');

describe('golden bit layouts (hand-computed)', () => {
  it('fields straddling byte boundaries: a:3=5, b:7=0x55, c:6=0x2a -> 0xaaad', () => {
    // 5 | 0x55<<3 | 0x2a<<10 = 0x0005 + 0x02a8 + 0xa800 = 0xaaad, little-endian
    const t = compileTable({ name: 's', fields: [{ name: 'a', width: 3 }, { name: 'b', width: 7 }, { name: 'c', width: 6 }] });
    expect(t.bytes).toBe(2);
    const b = encode(t, { a: 5, b: 0x55, c: 0x2a });
    expect(hex(b)).toBe('ad aa');
    expect(decode(t, b)).toEqual({ a: 5, b: 0x55, c: 0x2a });
    expect(readField(t, b, 'b')).toBe(0x55);
  });

  it('a 250-bit word with a 64-bit field at 0, a signed 33-bit field at 100 and a 10-bit field at 240', () => {
    const t = compileTable({
      name: 'wide',
      width: 250,
      fields: [
        { name: 'lo', width: 64 },
        { name: 'mid', width: 33, lsb: 100, signed: true },
        { name: 'top', width: 10, lsb: 240 },
      ],
    });
    expect(t.bytes).toBe(32);
    const b = encode(t, { lo: 0x0123456789abcdefn, mid: -1, top: 0x3ff });
    const expected = new Uint8Array(32);
    expected.set([0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01], 0); // lo
    expected[12] = 0xf0; // bits 100..103
    expected[13] = expected[14] = expected[15] = 0xff; // bits 104..127
    expected[16] = 0x1f; // bits 128..132
    expected[30] = 0xff; // bits 240..247
    expected[31] = 0x03; // bits 248..249
    expect(hex(b)).toBe(hex(expected));
    expect(decode(t, b)).toEqual({ lo: 0x0123456789abcdefn, mid: -1, top: 0x3ff });
    // 0x0123456789abcdef > 2^53: decode keeps it exact as a bigint
    expect(typeof decode(t, b)['lo']).toBe('bigint');
  });

  it('64-bit extremes', () => {
    const u = compileTable({ name: 'u', fields: [{ name: 'x', width: 64 }] });
    expect(hex(encode(u, { x: (1n << 64n) - 1n }))).toBe('ff ff ff ff ff ff ff ff');
    expect(decode(u, encode(u, { x: (1n << 64n) - 1n }))).toEqual({ x: (1n << 64n) - 1n });
    const s = compileTable({ name: 's', fields: [{ name: 'x', width: 64, signed: true }] });
    expect(hex(encode(s, { x: -(1n << 63n) }))).toBe('00 00 00 00 00 00 00 80');
    expect(hex(encode(s, { x: -2 }))).toBe('fe ff ff ff ff ff ff ff');
    expect(decode(s, encode(s, { x: -(1n << 63n) }))).toEqual({ x: -(1n << 63n) });
  });

  it('signed negatives: 5-bit -3 = 0b11101, 1-bit signed -1', () => {
    const t = compileTable({ name: 'n', fields: [{ name: 'pad', width: 2 }, { name: 'x', width: 5, signed: true }, { name: 'y', width: 1, signed: true }] });
    // pad=0, x raw 29 (0b11101) at bits 2..6 -> 0x74, y raw 1 at bit 7 -> 0x80
    expect(hex(encode(t, { x: -3, y: -1 }))).toBe('f4');
    expect(decode(t, new Uint8Array([0xf4]))).toEqual({ pad: 0, x: -3, y: -1 });
    expect(validate(t, { x: -17 })[0]!.message).toMatch(/-17 out of range .*-16\.\.15 \(5-bit signed\)/);
  });

  it('N-1 and zero-means-max encodings', () => {
    const t = compileTable({ name: 'm', fields: [{ name: 'n', width: 4, minus_one: true }, { name: 'z', width: 3, zero_means_max: true }] });
    expect(hex(encode(t, { n: 16, z: 8 }))).toBe('0f'); // 16-1 = 15; 8 -> 0
    expect(hex(encode(t, { n: 1, z: 7 }))).toBe('70'); // 1-1 = 0; 7 at bits 4..6
    expect(decode(t, new Uint8Array([0x00]))).toEqual({ n: 1, z: 8 });
    expect(validate(t, { n: 0 })[0]!.message).toMatch(/1\.\.16 \(4-bit unsigned, encoded as N-1\)/);
    expect(validate(t, { z: 9 })[0]!.message).toMatch(/1\.\.8/);
  });

  it('arrays, enums, defaults and reserved bits', () => {
    const t = compileTable({
      name: 'a',
      fields: [
        { name: 'op', width: 2, enum: { nop: 0, read: 1, write: 3 }, default: 'read' },
        { name: 'rsv', width: 2, reserved: true },
        { name: 'el', width: 4, count: 3, default: [1, 2, 3] },
      ],
    });
    // op=write(3) bits0..1, rsv 0, el[0]=0xa bits 4..7, el[1]=2 bits 8..11, el[2]=3 bits 12..15
    expect(hex(encode(t, { op: 'write', el: [0xa] }))).toBe('a3 32');
    expect(withDefaults(t, {})).toEqual({ op: 1, el: [1, 2, 3] });
    expect(enumName(t, 'op', 3)).toBe('write');
    expect(reservedBitsSet(t, new Uint8Array([0x04, 0]))).toEqual(['rsv']);
    expect(decode(t, new Uint8Array([0x04, 0]), 0, { includeReserved: true })['rsv']).toBe(1);
    expect(validate(t, { op: 2 })[0]!.message).toMatch(/2 is not a codepoint of `op`; expected one of nop=0, read=1, write=3/);
    expect(validate(t, { rsv: 1 })[0]!.message).toMatch(/reserved/);
    expect(validate(t, { el: [1, 2, 3, 4] })[0]!.message).toMatch(/3 elements, got 4/);
    expect(validate(t, { el: [1, 16] })).toMatchObject([{ field: 'el', index: 1 }]);
    expect(() => encode(t, { opp: 1 } as never)).toThrow(CodecError);
  });

  it('enum names that collide with Object.prototype members are rejected cleanly', () => {
    const t = compileTable({ name: 'e', fields: [{ name: 'op', width: 2, enum: { a: 0 } }] });
    for (const v of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const issues = validate(t, { op: v });
      expect(issues).toHaveLength(1);
      expect(issues[0]!.message).toMatch(/is not a value of `op`/);
    }
  });

  it('readField checks the name, the element index and the buffer length', () => {
    const t = compileTable({ name: 'r', fields: [{ name: 'x', width: 4, count: 2 }, { name: 'y', width: 8 }] });
    const b = encode(t, { x: [1, 2], y: 0xff });
    expect(readField(t, b, 'x', 1)).toBe(2);
    expect(() => readField(t, b, 'x', 2)).toThrow(RangeError);
    expect(() => readField(t, b, 'zz')).toThrow(/no field/);
    expect(() => readField(t, b.subarray(0, 1), 'y')).toThrow(RangeError);
  });

  it('encodes into a caller buffer at an offset without touching neighbours', () => {
    const t = compileTable({ name: 'o', fields: [{ name: 'x', width: 12 }] });
    const buf = new Uint8Array([0x11, 0x22, 0x33, 0x44]);
    encode(t, { x: 0xabc }, buf, 1);
    expect(hex(buf)).toBe('11 bc 0a 44');
    expect(decode(t, buf, 1)).toEqual({ x: 0xabc });
  });

  it('rejects malformed tables with TableError', () => {
    const bad = (fields: unknown[], extra: object = {}) => () => compileTable({ name: 't', fields, ...extra } as never);
    expect(bad([{ name: 'a', width: 65 }])).toThrow(TableError);
    expect(bad([{ name: 'a', width: 0 }])).toThrow(/width must be 1..64/);
    expect(bad([{ name: 'a', width: 4 }, { name: 'b', width: 4, lsb: 2 }])).toThrow(/overlaps/);
    expect(bad([{ name: 'a', width: 4 }, { name: 'a', width: 4 }])).toThrow(/duplicate/);
    expect(bad([{ name: 'a', width: 2, enum: { x: 4 } }])).toThrow(/does not fit/);
    expect(bad([{ name: 'a', width: 4, minus_one: true, signed: true }])).toThrow(/N-1/);
    expect(bad([{ name: 'a', width: 4, default: 16 }])).toThrow(/default/);
    expect(bad([{ name: 'a', width: 8 }], { width: 7 })).toThrow(/smaller/);
    expect(bad([null])).toThrow(TableError);
    expect(bad([{ name: 'a', width: 2, enum: [1] }])).toThrow(TableError);
  });
});

describe('grammar loading', () => {
  it('malformed grammar files are TableErrors, not raw exceptions', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { loadTarget, loadGrammarJson, loadTableFile } = await import('@pyxis/codec');
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-gram-'));
    mkdirSync(join(dir, 't'));
    writeFileSync(join(dir, 't', 'bad.json'), '{ nope');
    writeFileSync(join(dir, 't', 'ok.json'), JSON.stringify({ name: 'ok', fields: [{ name: 'a', width: 3 }] }));
    const saved = process.env['PYXIS_GRAMMARS'];
    process.env['PYXIS_GRAMMARS'] = dir;
    try {
      expect(() => loadTarget('t')).toThrow(TableError);
      expect(() => loadGrammarJson('t', 'bad')).toThrow(/not valid JSON/);
      expect(() => loadGrammarJson('t', 'missing')).toThrow(TableError);
      expect(loadTableFile(join(dir, 't', 'ok.json')).bytes).toBe(1);
    } finally {
      if (saved === undefined) delete process.env['PYXIS_GRAMMARS'];
      else process.env['PYXIS_GRAMMARS'] = saved;
    }
  });
});

describe('encode agrees with validate', () => {
  it('accepts exactly what validate accepts for list shapes', () => {
    const t = compileTable({ name: 'l', fields: [{ name: 'x', width: 4, count: 3, default: [1, 2, 3] }, { name: 'y', width: 4 }] });
    const cases: Array<Record<string, unknown>> = [{ x: [5] }, { x: [5, undefined, 6] }, { x: 5 }, { y: [1] }, { x: [1, 2, 3, 4] }, { y: undefined }, { z: 1 }, { x: [16] }];
    for (const c of cases) {
      const ok = validate(t, c as never).length === 0;
      if (ok) expect(() => encode(t, c as never)).not.toThrow();
      else expect(() => encode(t, c as never)).toThrow(CodecError);
    }
    expect(decode(t, encode(t, { x: [5] }))).toEqual({ x: [5, 2, 3], y: 0 });
  });
});
