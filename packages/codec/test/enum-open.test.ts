import { describe, expect, it } from 'vitest';
import { compileTable, decode, encode, enumName, validate, type FieldTable } from '@pyxis/codec';

// `enum_open`: a hardware port wider than its named codes (the XNU `rounding` port: 3 bits, six HardFloat names).
const spec: FieldTable = { name: 't', fields: [{ name: 'rm', width: 3, enum: { a: 0, b: 1, d: 6 }, enum_open: true }, { name: 'k', width: 3, enum: { a: 0, b: 1 } }] };

describe('enum_open fields', () => {
  it('take every codepoint of the width, named or not; the unnamed ones print as numbers', () => {
    const t = compileTable(spec);
    expect(validate(t, { rm: 5 })).toEqual([]);
    expect(decode(t, encode(t, { rm: 7 }))).toEqual({ rm: 7, k: 0 });
    expect(enumName(t, 'rm', 5)).toBe('5');
    expect(enumName(t, 'rm', 6)).toBe('d');
    expect(validate(t, { rm: 8 }).map((i) => i.field)).toEqual(['rm']); // still bounded by the width
    expect(validate(t, { rm: 'c' }).map((i) => i.field)).toEqual(['rm']); // and names are still checked
  });
  it('a closed enum still rejects an unnamed codepoint', () => {
    const t = compileTable(spec);
    expect(validate(t, { k: 5 }).map((i) => i.field)).toEqual(['k']);
    expect(() => encode(t, { k: 5 })).toThrow();
  });
  it('enum_open needs an enum', () => {
    expect(() => compileTable({ name: 'u', fields: [{ name: 'x', width: 2, enum_open: true }] })).toThrow(/enum_open/);
  });
});
