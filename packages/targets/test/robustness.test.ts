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
import { call, type Run } from './cli-call.js';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));

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
  test('pyxis-as: an output naming an .include-d file', async () => {
    const inc = join(dir, 'part.inc');
    writeFileSync(inc, '.const K = 1\n');
    const src = join(dir, 'with-inc.pasm');
    writeFileSync(src, '.include "part.inc"\n' + readFileSync(pasm, 'utf8'));
    const r = await as([src, '-o', join(dir, 'with-inc.pobj'), '--listing', inc]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0003.*part\.inc/);
    expect(readFileSync(inc, 'utf8')).toBe('.const K = 1\n');
    expect(existsSync(join(dir, 'with-inc.pobj'))).toBe(false);
    expect((await as([src, '-o', join(dir, 'with-inc.pobj')])).code).toBe(0);
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

describe('inputs are bounded: regular files only, size caps (IO0001, AS0108, LD0201)', () => {
  test('pyxis-as /dev/zero', async () => {
    const out = join(dir, 'zero.pobj');
    const r = await as(['/dev/zero', '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0001.*\/dev\/zero.*not a regular file/);
    expect(existsSync(out)).toBe(false);
  });
  test('.include "/dev/zero"', async () => {
    const src = join(dir, 'inc-zero.pasm');
    writeFileSync(src, '.include "/dev/zero"\n' + readFileSync(pasm, 'utf8'));
    const out = join(dir, 'inc-zero.pobj');
    const r = await as([src, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/AS0108.*\/dev\/zero.*not a regular file/);
    expect(r.err).toMatch(/inc-zero\.pasm:1:/);
    expect(existsSync(out)).toBe(false);
  });
  test('data = "/dev/zero" in a link script', async () => {
    const s = join(dir, 'zero.ld');
    writeFileSync(s, readFileSync(script, 'utf8').replace('data = "copy_src.npy"', 'data = "/dev/zero"'));
    const out = join(dir, 'zero.pimg');
    const r = await ld([s, obj, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/LD0201.*\/dev\/zero.*not a regular file/);
    expect(existsSync(out)).toBe(false);
  });
  test('pyxis-sim run /dev/zero, and a link script that is a device', async () => {
    const r = await sim(['/dev/zero', '--stats', join(dir, 'zero.json')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0001.*not a regular file/);
    expect(existsSync(join(dir, 'zero.json'))).toBe(false);
    const l = await ld(['/dev/zero', obj, '-o', join(dir, 'zero2.pimg')]);
    expect(l.code).toBe(1);
    expect(l.err).toMatch(/IO0001.*not a regular file/);
    expect(existsSync(join(dir, 'zero2.pimg'))).toBe(false);
  });
  test('a FIFO as a source, an include and an image is refused without opening it (opening would block)', async () => {
    const { execFileSync } = await import('node:child_process');
    const fifo = join(dir, 'fifo.pasm');
    execFileSync('mkfifo', [fifo]);
    let r = await as([fifo, '-o', join(dir, 'fifo.pobj')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0001.*fifo\.pasm.*not a regular file/);
    const inc = join(dir, 'inc-fifo.pasm');
    writeFileSync(inc, '.include "fifo.pasm"\n');
    r = await as([inc, '-o', join(dir, 'inc-fifo.pobj')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/AS0108.*not a regular file/);
    r = await sim([fifo]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0001.*not a regular file/);
    expect(existsSync(join(dir, 'fifo.pobj'))).toBe(false);
    expect(existsSync(join(dir, 'inc-fifo.pobj'))).toBe(false);
    const { unlinkSync } = await import('node:fs');
    unlinkSync(fifo);
  });
  test('size caps: a source over 256 MiB and an image over 4 GiB are refused unread (sparse files)', async () => {
    const { truncateSync } = await import('node:fs');
    const big = join(dir, 'big.pasm');
    writeFileSync(big, '');
    truncateSync(big, 256 * 1024 ** 2 + 1);
    let r = await as([big, '-o', join(dir, 'big.pobj')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0001.*file too large: 268435457 bytes \(the maximum is 268435456 bytes\)/);
    expect(existsSync(join(dir, 'big.pobj'))).toBe(false);
    const inc = join(dir, 'inc-big.pasm');
    writeFileSync(inc, '.include "big.pasm"\n');
    r = await as([inc, '-o', join(dir, 'inc-big.pobj')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/AS0108.*file too large/);
    const bigImg = join(dir, 'big.pimg');
    copyFileSync(img, bigImg);
    truncateSync(bigImg, 4 * 1024 ** 3 + 1);
    r = await sim([bigImg, '--stats', join(dir, 'big.json')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0001.*file too large: 4294967297 bytes/);
    expect(existsSync(join(dir, 'big.json'))).toBe(false);
    const { unlinkSync } = await import('node:fs');
    unlinkSync(bigImg);
    unlinkSync(big);
  });
});

describe('deep link-script nesting is a diagnostic, not a stack overflow (LD0004)', () => {
  test.each([
    ['lists', (n: number) => `tensor t {\n  shape = ${'['.repeat(n)}1${']'.repeat(n)};\n}\n`, 65 + 10],
    ['blocks', (n: number) => `memory m {\n  ${'a {'.repeat(n)}${'}'.repeat(n)}\n}\n`, 3 + 3 * 63 + 2],
  ])('a value of %s nested 10,000 deep', async (_what, make, column) => {
    const s = join(dir, `deep-${_what}.ld`);
    writeFileSync(s, make(10_000));
    const out = join(dir, `deep-${_what}.pimg`);
    const r = await ld([s, obj, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/LD0004/);
    expect(r.err).toContain(`deep-${_what}.ld:2:${column}`);
    expect(r.err).not.toMatch(/RangeError|Maximum call stack/);
    expect(existsSync(out)).toBe(false);
  });
  test('64 levels of lists still parse (the diagnostic is about the value, not the nesting)', async () => {
    const s = join(dir, 'deep-ok.ld');
    writeFileSync(s, `tensor t {\n  shape = ${'['.repeat(64)}1${']'.repeat(64)};\n}\n`);
    const r = await ld([s, obj, '-o', join(dir, 'deep-ok.pimg')]);
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/LD0004/);
  });
});

describe('diagnostics output is bounded (at most 100 errors shown, long lines cut around the caret)', () => {
  test('one 80 KB line with 8,000 errors', async () => {
    const src = join(dir, 'long-line.pasm');
    writeFileSync(src, '@         '.repeat(8000) + '\n');
    const out = join(dir, 'long-line.pobj');
    const r = await as([src, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err.match(/error\[AS0101\]/g)).toHaveLength(100);
    expect(r.err).toMatch(/\.\.\. 7900 more errors not shown/);
    expect(r.err).toMatch(/8000 errors, 0 warnings\n$/);
    // every quoted line is cut to 120 columns (+ `...` on both sides), with the caret under the character it names
    const quoted = r.err.split('\n').filter((l) => l.startsWith('1 | '));
    expect(quoted).toHaveLength(100);
    for (const l of quoted) expect(l.length).toBeLessThanOrEqual(4 + 3 + 120 + 3);
    const lines = r.err.split('\n');
    const i = lines.findIndex((l) => l.startsWith(`${src}:1:991:`));
    expect(i).toBeGreaterThan(0);
    expect(lines[i + 1]!.charAt(lines[i + 2]!.indexOf('^'))).toBe('@');
    expect(r.err.length).toBeLessThan(60_000);
    expect(existsSync(out)).toBe(false);
  });
  test('20,000 errors on 20,000 lines; JSON lists them all', async () => {
    const src = join(dir, 'many.pasm');
    writeFileSync(src, '@\n'.repeat(20_000));
    const r = await as([src, '-o', join(dir, 'many.pobj')]);
    expect(r.code).toBe(1);
    expect(r.err.match(/error\[AS0101\]/g)).toHaveLength(100);
    expect(r.err).toMatch(/19900 more errors not shown/);
    expect(existsSync(join(dir, 'many.pobj'))).toBe(false);
    const j = await as(['--diagnostics-format', 'json', src, '-o', join(dir, 'many.pobj')]);
    expect(j.code).toBe(1);
    expect(j.err.trim().split('\n').filter((l) => JSON.parse(l).code === 'AS0101')).toHaveLength(20_000);
  });
});
