/**
 * Golden errors of pyxis-gen (samples/pyxis/errors/gen/cases.txt -> cases.err): for every parameter the hardware cannot
 * run (issue 23 "Bad input": sizes not multiples of what seq §1.2-1.4 require, tiles that do not fit AMEM or the
 * Hbufs, more UIEs or clusters than exist, zero / negative / absurd values) the message names the parameter and the
 * limit and the exit code is 1 (`error[GENxxxx]:`, the tools' form); a usage error (not a number, an unknown name or
 * option) exits 2 (`pyxis-gen: error:` with a did-you-mean, or a GEN code). No case writes a file. Regenerate after a deliberate change of a message: REGEN_GOLDEN=1 npx vitest run <this file>.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USAGE } from '../../src/gen/kinds.js';
import { gen, withTempDir } from './cli.harness.js';

const DIR = fileURLToPath(new URL('../../../../samples/pyxis/errors/gen/', import.meta.url));

describe('golden pyxis-gen errors (samples/pyxis/errors/gen/cases.txt -> cases.err)', () => {
  it('every case: the message, the exit code, no file written', () => {
    const cases = readFileSync(join(DIR, 'cases.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    let text = '';
    withTempDir('golden', (tmp) => {
      for (const c of cases) {
        const out = join(tmp, 'out');
        const { code, out: stdout, err } = gen([...c.split(/\s+/), '--out', out], () => {
          throw new Error('no case reaches the LUTs');
        });
        expect(existsSync(out), `${c}: wrote files`).toBe(false);
        expect(stdout, c).toBe('');
        expect(code === 1 || code === 2, `${c}: exit ${code}`).toBe(true);
        text += `$ pyxis-gen ${c}\n${err.replaceAll(USAGE, '<usage>').replaceAll(out, 'OUT')}exit ${code}\n\n`;
      }
    });
    const golden = join(DIR, 'cases.err');
    if (process.env['REGEN_GOLDEN']) writeFileSync(golden, text);
    expect(text).toBe(readFileSync(golden, 'utf8'));
  });
});
