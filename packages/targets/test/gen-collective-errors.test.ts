/**
 * Golden errors of scripts/gen-collective.mjs (samples/pyxis/errors/gen/collective.txt -> collective.err): a parameter
 * the hardware cannot run (chips outside 2..144, halving-doubling on a chip count that is no power of two, rows, page
 * size, AMEM) exits 1 with a GEN code naming the parameter and the limit; a usage error (not an integer, an unknown
 * name or option, a missing value) exits 2 with the usage; an --out that cannot be a directory exits 1 without a stack
 * trace (and --out under /proc no longer hangs). No case writes a file. REGEN_GOLDEN=1 rewrites the golden file.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIR = join(ROOT, 'samples/pyxis/errors/gen');

describe('golden gen-collective errors', () => {
  it('every case: the message, the exit code, no file written, no stack trace', () => {
    const cases = readFileSync(join(DIR, 'collective.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    const tmp = mkdtempSync(join(tmpdir(), 'gen-coll-golden-'));
    let text = '';
    try {
      for (const c of cases) {
        const out = join(tmp, 'out');
        const args = c.split(/\s+/);
        if (!args.includes('--out')) args.push('--out', out);
        const r = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-collective.mjs'), ...args], { encoding: 'utf8', timeout: 20_000 });
        expect(r.status === 1 || r.status === 2, `${c}: exit ${r.status}`).toBe(true);
        expect(r.stdout, c).toBe('');
        expect(r.stderr, c).not.toMatch(/\n\s+at /); // no stack trace
        expect(existsSync(out), `${c}: wrote files`).toBe(false);
        text += `$ gen-collective ${c}\n${r.stderr.replaceAll(out, 'OUT')}exit ${r.status}\n\n`;
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    const golden = join(DIR, 'collective.err');
    if (process.env['REGEN_GOLDEN']) writeFileSync(golden, text);
    expect(text).toBe(readFileSync(golden, 'utf8'));
  });
});
