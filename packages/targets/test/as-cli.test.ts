/** The pyxis-as driver end to end (runAs with captured IO, temp files). */
import { describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAs } from '@pyxis/targets';
import { readContainerFile } from '@pyxis/container';
import { samplesDir } from '../../target-pyxis/test/asm/helpers.js';

async function as(args: string[]) {
  let out = '';
  let err = '';
  const code = await runAs(['--no-color', ...args], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

describe('pyxis-as', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-as-'));
  const src = join(samplesDir, 'conv3x3_read.pasm');
  test('object, listing, disassemble', async () => {
    const obj = join(dir, 'c.pobj');
    const r = await as([src, '-o', obj, '--listing', join(dir, 'c.lst')]);
    expect(r.code, r.err).toBe(0);
    expect(readContainerFile(obj).symbols.map((s) => s.name)).toEqual(['conv3x3_rows', 'conv3x3_rows_short']);
    expect(readFileSync(join(dir, 'c.lst'), 'utf8')).toMatch(/^\s+0\s+[0-9a-f]+r?\s+[0-9a-f]+r?\s+.*Read_SRAM/m);
    const d = await as(['disassemble', obj]);
    expect(d.code).toBe(0);
    expect(d.out).toMatch(/loop i1 10 final 6 when \[i0\] post_final/);
    const d2 = await as(['--disassemble', obj]);
    expect(d2.out).toBe(d.out);
    // `disassemble OBJ -o FILE` writes the file (commander must not hand -o to the parent command)
    const dfile = join(dir, 'd.pasm');
    const d3 = await as(['disassemble', obj, '-o', dfile]);
    expect(d3.code, d3.err).toBe(0);
    expect(d3.out).toBe('');
    expect(readFileSync(dfile, 'utf8')).toBe(d.out);
  });
  test('--emit ir / --input ir and --emit patch-blob', async () => {
    const ir = join(dir, 'c.ir.json');
    expect((await as([src, '--emit', 'ir', '-o', ir])).code).toBe(0);
    const obj2 = join(dir, 'c2.pobj');
    expect((await as(['--input', 'ir', ir, '-o', obj2])).code).toBe(0);
    const again = await as(['--input', 'ir', ir, '--emit', 'ir']);
    expect(again.out).toBe(readFileSync(ir, 'utf8'));
    const blob = join(dir, 'c.blob');
    expect((await as([src, '--emit', 'patch-blob', '-o', blob])).code).toBe(0);
    expect(readFileSync(blob).length % 8).toBe(0);
  });
  test('errors: exit 1, caret diagnostics, no output file', async () => {
    const bad = join(dir, 'bad.pasm');
    writeFileSync(bad, '.program p amem_read {\n  Read_SRAM amem_adr_offset=1\n}\n');
    const out = join(dir, 'bad.pobj');
    const r = await as([bad, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error[AS0206]');
    expect(r.err).toContain('^^^^^^^^^^^^^^^');
    expect(r.err).toContain('did you mean `amem_addr_offset`');
    expect(existsSync(out)).toBe(false);
    expect((await as([join(dir, 'missing.pasm')])).code).toBe(1);
    // mangled sources through the driver: diagnostics and exit 1, never an internal error (exit 3)
    const text = readFileSync(src, 'utf8');
    for (const cut of [7, 40, 99, 160, text.length - 3]) {
      const f = join(dir, `cut${cut}.pasm`);
      writeFileSync(f, text.slice(0, cut) + '{ ] = loop i9 final\n' + text.slice(cut + 5));
      const m = await as([f, '-o', join(dir, `cut${cut}.pobj`)]);
      expect(m.code, m.err).toBe(1);
      expect(m.err).toMatch(/error\[AS\d{4}\]/);
      expect(existsSync(join(dir, `cut${cut}.pobj`))).toBe(false);
    }
    expect((await as([])).code).toBe(2);
  });
});
