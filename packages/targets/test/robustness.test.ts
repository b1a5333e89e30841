/**
 * Issue 15 defect classes, end to end through the CLI functions: outputs that
 * clobber inputs or each other, output paths that cannot be written, unbounded
 * reads, deep link-script nesting and unbounded diagnostics. Every case must
 * give a diagnostic with a code and exit 1, and leave no output file behind.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));

type Run = (argv: string[], io?: { stdout(s: string): void; stderr(s: string): void }) => Promise<number>;
async function call(tool: Run, args: string[]) {
  let out = '';
  let err = '';
  const code = await tool(['--no-color', ...args], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}
const as = (a: string[]) => call(runAs, a);
const ld = (a: string[]) => call(runLd, a);
const sim = (a: string[]) => call(runSim as Run, ['run', ...a]);

let dir: string;
let pasm: string;
let script: string;
let obj: string;
let img: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pyxis-robust-'));
  pasm = join(dir, 'copy.pasm');
  script = join(dir, 'copy.ld');
  obj = join(dir, 'copy.pobj');
  img = join(dir, 'copy.pimg');
  copyFileSync(samples + 'copy.pasm', pasm);
  copyFileSync(samples + 'copy.ld', script);
  copyFileSync(samples + 'copy_src.npy', join(dir, 'copy_src.npy'));
  expect((await as([pasm, '-o', obj])).code).toBe(0);
  expect((await ld([script, obj, '-o', img])).code).toBe(0);
});

/** The files of `dir` (temporary files included: nothing partial may be left). */
const listing = () => readdirSync(dir).sort();

describe('outputs never overwrite inputs or each other (IO0003)', () => {
  test('pyxis-as a.pasm -o a.pasm keeps the source', async () => {
    const before = readFileSync(pasm, 'utf8');
    const files = listing();
    const r = await as([pasm, '-o', pasm]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0003/);
    expect(readFileSync(pasm, 'utf8')).toBe(before);
    expect(listing()).toEqual(files);
  });
  test('pyxis-as: --listing naming the source, and the object and the listing the same file', async () => {
    const out = join(dir, 'as-same.out');
    let r = await as([pasm, '-o', join(dir, 'as-x.pobj'), '--listing', join(dir, '.', 'copy.pasm')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0003/);
    r = await as([pasm, '-o', out, '--listing', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0003/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(dir, 'as-x.pobj'))).toBe(false);
  });
  test('pyxis-as disassemble -o the object', async () => {
    const before = readFileSync(obj);
    const r = await as(['disassemble', obj, '-o', obj]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0003/);
    expect(readFileSync(obj)).toEqual(before);
  });
  test('pyxis-ld -o x.pimg --map x.pimg, and outputs naming the script or an object', async () => {
    const x = join(dir, 'ld-x.pimg');
    for (const args of [
      ['-o', x, '--map', x],
      ['-o', x, '--map-json', x],
      ['-o', obj],
      ['-o', x, '--map', script],
    ]) {
      const bs = readFileSync(script);
      const bo = readFileSync(obj);
      const r = await ld([script, obj, ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toMatch(/IO0003/);
      expect(existsSync(x)).toBe(false);
      expect(readFileSync(script)).toEqual(bs);
      expect(readFileSync(obj)).toEqual(bo);
    }
  });
  test('pyxis-sim --stats img.pimg, --trace X --vcd X, and a dump naming the image', async () => {
    const before = readFileSync(img);
    const x = join(dir, 'sim-x');
    for (const args of [
      ['--stats', img],
      ['--trace', x, '--vcd', x],
      ['--trace', x, '--stats', join(dir, '.', 'sim-x')],
      ['--dump', `dst=${img}`],
      ['--dump', `dst=${x}`, '--vcd', x],
    ]) {
      const r = await sim([img, ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toMatch(/IO0003/);
      expect(r.out).not.toMatch(/completed after/);
      expect(existsSync(x)).toBe(false);
      expect(readFileSync(img)).toEqual(before);
    }
  });
  test('a symbolic link to the input is the input', async () => {
    const { symlinkSync } = await import('node:fs');
    const link = join(dir, 'link-to-copy.pasm');
    symlinkSync(pasm, link);
    const before = readFileSync(pasm, 'utf8');
    const r = await as([pasm, '-o', link]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0003/);
    expect(readFileSync(pasm, 'utf8')).toBe(before);
  });
});

describe('output paths are decided writable before any work (IO0002)', () => {
  const long = 'n'.repeat(256) + '.out';
  const nearlyLong = 'm'.repeat(250);
  test('a file name longer than 255 bytes or a path ending in / : nothing runs, nothing is left', async () => {
    const files = listing();
    const cases: Array<[Run, string[]]> = [
      [runAs, [pasm, '-o', join(dir, long)]],
      [runAs, [pasm, '-o', join(dir, 'as-ok.pobj'), '--listing', join(dir, long)]],
      [runAs, [pasm, '-o', join(dir, 'as-ok.pobj'), '--listing', join(dir, 'lst') + '/']],
      [runLd, [script, obj, '-o', join(dir, 'ld-ok.pimg'), '--map', join(dir, long)]],
      [runLd, [script, obj, '-o', join(dir, 'ld-ok.pimg') + '/']],
      [runSim as Run, ['run', img, '--trace', join(dir, long)]],
      [runSim as Run, ['run', img, '--stats', join(dir, 's.json'), '--dump', `dst=${join(dir, long)}`]],
      [runSim as Run, ['run', img, '--vcd', join(dir, 'w.vcd') + '/']],
    ];
    for (const [tool, args] of cases) {
      const r = await call(tool, args);
      expect(r.code, args.join(' ').slice(0, 200)).toBe(1);
      expect(r.err).toMatch(/IO0002/);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(r.out).not.toMatch(/completed after/);
      expect(listing()).toEqual(files);
    }
  });
  test('a 250-byte file name is written (the temporary file fits too)', async () => {
    const r = await as([pasm, '-o', join(dir, nearlyLong)]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, nearlyLong))).toBe(true);
    expect(listing().filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
