import { describe, expect, it } from 'vitest';
import { compileTable, decode, encode } from '@pyxis/codec';

describe('codec smoke', () => {
  it('packs fields little-endian from bit 0', () => {
    const t = compileTable({ name: 't', fields: [{ name: 'a', width: 4 }, { name: 'b', width: 12, minus_one: true }] });
    const bytes = encode(t, { a: 0xf, b: 1 });
    expect([...bytes]).toEqual([0x0f, 0x00]);
    expect(decode(t, encode(t, { a: 3, b: 4096 }))).toEqual({ a: 3, b: 4096 });
  });
});
