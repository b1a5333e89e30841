/** Statement readers of @pyxis/ld: the LD0101..LD0105 diagnostics every back end shares. */
import { describe, expect, it } from 'vitest';
import { DiagnosticBag } from '@pyxis/diagnostics';
import { parseLinkScript, scriptReader } from '@pyxis/ld';

const read = (text: string) => {
  const bag = new DiagnosticBag();
  return { bag, r: scriptReader(bag), b: parseLinkScript(text, 't.ld').blocks[0]! };
};

describe('scriptReader', () => {
  it('unknown attributes get a did-you-mean and the allowed list; duplicates are reported once', () => {
    const { bag, r, b } = read('thing x { lenght = 4; origin = 1; origin = 2; }');
    const a = r.attrsOf(b, ['origin', 'length'], 'thing `x`');
    expect([...a.keys()]).toEqual(['origin']);
    expect(a.get('origin')!.value).toMatchObject({ kind: 'number', value: 2 });
    expect(bag.items.map((d) => d.code)).toEqual(['LD0101', 'LD0102']);
    expect(bag.items[0]!.notes!.join('\n')).toMatch(/length/);
    expect(bag.items[0]!.notes!.join('\n')).toMatch(/allowed: origin, length/);
    expect(bag.items[0]!.span).toMatchObject({ file: 't.ld', line: 1, column: 11 });
  });
  it('integers: type (LD0103) and range (LD0104) with the value span', () => {
    const { bag, r, b } = read('t x { a = 7; b = "s"; c = 1.5; d = 9; }');
    const v = (k: string) => b.attrs.find((x) => x.key === k)!.value;
    expect(r.num(v('a'), '`a`', 0, 7)).toBe(7);
    expect(r.num(v('b'), '`b`')).toBeUndefined();
    expect(r.num(v('c'), '`c`')).toBeUndefined();
    expect(r.num(v('d'), '`d`', 0, 8)).toBeUndefined();
    expect(r.num(undefined, '`e`')).toBeUndefined();
    expect(bag.items.map((d) => [d.code, d.message])).toEqual([
      ['LD0103', '`b` must be an integer, got `"s"`'],
      ['LD0103', '`c` must be an integer, got `1.5`'],
      ['LD0104', '`d` 9 is out of range 0..8'],
    ]);
  });
  it('names, booleans and statement names', () => {
    const { bag, r, b } = read('t { n = foo; s = "bar"; x = [1]; y = true; z = 0; w = maybe; }');
    const v = (k: string) => b.attrs.find((x) => x.key === k)!.value;
    expect(r.ident(v('n'), 'n')).toBe('foo');
    expect(r.ident(v('s'), 's')).toBe('bar');
    expect(r.ident(v('x'), 'x')).toBeUndefined();
    expect(r.bool(v('y'), 'y')).toBe(true);
    expect(r.bool(v('z'), 'z')).toBe(false);
    expect(r.bool(v('w'), 'w')).toBeUndefined();
    expect(r.named(b, '`t`')).toBeUndefined();
    expect(bag.items.map((d) => d.code)).toEqual(['LD0103', 'LD0103', 'LD0105']);
  });
});
