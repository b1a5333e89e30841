/**
 * Two pyxis-as rules shared by every target (docs/assembler.md "Command line"):
 * a source without instructions assembles to an object with an empty program
 * (as GNU as: exit 0, the object written, nothing to disassemble), and a `-I`
 * directory that cannot be searched is warning AS0110, named once.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs } from '@pyxis/targets';
import { readContainerFile } from '@pyxis/container';

const ARCH = fileURLToPath(new URL('../../../samples/systolic/arch4.tarch', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pyxis-as-empty-'));

async function as(args: string[]) {
  let out = '';
  let err = '';
  const code = await runAs(['--no-color', ...args], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

/** Every target's source extension and the options its assembler needs. */
const TARGETS: Array<[string, string[]]> = [
  ['.pasm', []],
  ['.ncasm', []],
  ['.xasm', []],
  ['.tasm', ['--target', 'systolic', '--arch', ARCH]],
];

describe('sources without instructions: an empty program on every target (GNU as)', () => {
  for (const [ext, opts] of TARGETS)
    for (const [what, text] of [['empty', ''], ['comments only', '// nothing yet\n# still nothing\n']] as const)
      test(`${ext}: ${what}`, async () => {
        const src = join(dir, `e${what.length}${ext}`);
        writeFileSync(src, text);
        const obj = `${src}.pobj`;
        const r = await as([...opts, src, '-o', obj]);
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        // the object holds no code bytes
        const c = readContainerFile(obj);
        expect(c.sections.filter((s) => s.kind === 'code').reduce((n, s) => n + s.size, 0)).toBe(0);
      });
});

describe('-I DIR that cannot be searched: warning AS0110, once', () => {
  test('a missing directory given twice is named once; the assembly still succeeds', async () => {
    const src = join(dir, 'i.xasm');
    writeFileSync(src, '');
    const missing = join(dir, 'no-such-dir');
    const r = await as([src, '-I', missing, '-I', missing, '-I', dir, '-o', join(dir, 'i.pobj')]);
    expect(r.code).toBe(0);
    expect(r.err.split('AS0110').length - 1).toBe(1);
    expect(r.err).toContain(`warning[AS0110]: include directory "${missing}" does not exist`);
    expect(r.err).not.toContain(`"${dir}"`);
  });
  test('a file given as -I is not a directory; the warning also comes with the errors of a failing assembly', async () => {
    const src = join(dir, 'bad.tasm');
    writeFileSync(src, 'MatMul local=0 acc=0\n');
    const out = join(dir, 'bad.pobj');
    const r = await as(['--target', 'systolic', '--arch', ARCH, src, '-I', ARCH, '-o', out]);
    expect(r.code).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(r.err).toContain(`warning[AS0110]: include directory "${ARCH}" is not a directory`);
    expect(r.err).toContain('error[SYS0505]');
  });
});
