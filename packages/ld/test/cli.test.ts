import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readContainerFile, writeContainerFile } from '@pyxis/container';
import { assemble } from '@pyxis/asm';
import { runLd } from '../../cli/src/ld.js';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));

function setup(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-ld-'));
  copyFileSync(samples + 'copy.ld', join(dir, 'copy.ld'));
  copyFileSync(samples + 'copy_src.npy', join(dir, 'copy_src.npy'));
  const obj = assemble([{ file: 'copy.pasm', text: readFileSync(samples + 'copy.pasm', 'utf8') }], { listing: false }).object;
  writeContainerFile(join(dir, 'copy.pobj'), obj);
  return dir;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runLd(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

describe('pyxis-ld CLI', () => {
  it('links the copy sample into an image, a text map and a JSON map', async () => {
    const d = setup();
    const r = await run([join(d, 'copy.ld'), join(d, 'copy.pobj'), '-o', join(d, 'copy.pimg'), '--map', join(d, 'copy.map'), '--map-json', join(d, 'copy.map.json')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const img = readContainerFile(join(d, 'copy.pimg'));
    expect(img.kind).toBe('pimg');
    expect(img.sections.some((s) => s.name === '.enqueue')).toBe(true);
    expect(readFileSync(join(d, 'copy.map'), 'utf8')).toMatch(/Barrier allocation/);
    expect(JSON.parse(readFileSync(join(d, 'copy.map.json'), 'utf8')).barriers).toHaveLength(2);
  });
  it('bad input: diagnostic at file:line:col with a caret, exit 1, no output files', async () => {
    const d = setup();
    const script = readFileSync(join(d, 'copy.ld'), 'utf8').replace('data = "copy_src.npy"', 'data = "nope.npy"');
    writeFileSync(join(d, 'bad.ld'), script);
    const r = await run([join(d, 'bad.ld'), join(d, 'copy.pobj'), '-o', join(d, 'bad.pimg'), '--map', join(d, 'bad.map'), '--no-color']);
    expect(r.code).toBe(1);
    const line = script.split('\n').findIndex((l) => l.includes('nope.npy')) + 1;
    expect(r.err).toContain(`bad.ld:${line}:`);
    expect(r.err).toMatch(/no such file: nope\.npy/);
    expect(r.err).toMatch(/\^/);
    expect(existsSync(join(d, 'bad.pimg'))).toBe(false);
    expect(existsSync(join(d, 'bad.map'))).toBe(false);
  });
  it('usage errors exit 2', async () => {
    expect((await run([])).code).toBe(2);
  });
});
