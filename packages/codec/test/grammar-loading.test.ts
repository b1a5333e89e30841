/** Grammar folders: every broken or missing file is one TableError naming the file, the table and the field. */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TableError, loadGrammarJsonFrom, loadTableFile, loadTableFrom, loadTablesIn } from '@pyxis/codec';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-grammar-'));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

const table = (fields: unknown[]) => JSON.stringify({ name: 'w', fields }, null, 2);

function thrown(f: () => unknown): TableError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TableError);
    return e as TableError;
  }
  throw new Error('expected a TableError');
}

describe('grammar loading', () => {
  it('a broken field names the file, the table, the field and its line', () => {
    const dir = folder({ 'w.json': table([{ name: 'a', width: 4 }, { name: 'b', width: 4, lsb: 2 }]) });
    const e = thrown(() => loadTableFrom(dir, 'w'));
    expect(e.file).toMatch(/w\.json$/);
    expect(e.field).toBe('b');
    expect(e.line).toBe(9); // `"name": "b"` in the pretty-printed file
    expect(e.message).toMatch(/^grammar file .*w\.json \(table `w`\): field `b`: \(bits 2\.\.5\) overlaps `a` \(bits 0\.\.3\)$/);
  });
  it('table-level problems, bad JSON and missing files name the file', () => {
    const dir = folder({ 'noname.json': '{ "fields": [] }', 'bad.json': '{ "name": ', 'arr.json': '[1]' });
    expect(thrown(() => loadTableFile(join(dir, 'noname.json'))).message).toMatch(/noname\.json.*missing or invalid `name`/);
    expect(thrown(() => loadTableFile(join(dir, 'bad.json'))).message).toMatch(/grammar file .*bad\.json: not valid JSON/);
    expect(thrown(() => loadTableFile(join(dir, 'arr.json'))).message).toMatch(/arr\.json: a field table must be a JSON object/);
    expect(thrown(() => loadTableFrom(dir, 'gone')).message).toMatch(/gone\.json: no such grammar file/);
    expect(thrown(() => loadGrammarJsonFrom(dir, 'gone')).message).toMatch(/gone\.json: no such grammar file/);
  });
  it('a folder: tables are read, data files left alone, a misspelt `fields` is an error (never a silently missing table)', () => {
    const dir = folder({ 'a.json': table([{ name: 'x', width: 3 }]), 'map.json': '{ "name": "map", "regions": [] }', 'notes.txt': 'x' });
    expect(loadTablesIn(dir).map((t) => t.name)).toEqual(['w']);
    expect(loadGrammarJsonFrom<{ regions: unknown[] }>(dir, 'map').regions).toEqual([]);
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ name: 'b', feilds: [{ name: 'x', width: 3 }] }));
    expect(thrown(() => loadTablesIn(dir)).message).toMatch(/b\.json: no `fields` array, but a key `feilds`: a misspelling of `fields`\?/);
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ name: 'b', fields: { x: 3 } }));
    expect(thrown(() => loadTablesIn(dir)).message).toMatch(/b\.json \(table `b`\): `fields` must be an array/);
    expect(thrown(() => loadTablesIn(join(dir, 'none'))).message).toMatch(/none: no such grammar folder/);
  });
  it('tables are cached by path: two folders with the same table name stay apart', () => {
    const one = folder({ 't.json': JSON.stringify({ name: 't', fields: [{ name: 'x', width: 3 }] }) });
    const two = folder({ 't.json': JSON.stringify({ name: 't', fields: [{ name: 'x', width: 9 }] }) });
    mkdirSync(join(two, 'sub'));
    expect(loadTableFrom(one, 't').width).toBe(3);
    expect(loadTableFrom(two, 't').width).toBe(9);
    expect(loadTableFrom(one, 't')).toBe(loadTableFrom(one, 't'));
  });
});
