/**
 * Issue 26: the systolic, NeuronCore and XNU inputs that still broke the tools. Each case is a
 * diagnostic with a code and exit 1 (or usage, exit 2), never an internal error, and no output
 * file (nor `.partial`) left behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call, type Run } from './cli-call.js';

const ld = (a: string[]) => call(runLd, a);
const sim = (a: string[]) => call(runSim as Run, a);
void runAs;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pyxis-robust-targets-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a .tmodel nested 100,000 levels deep is a diagnostic (SYS02xx), not a stack overflow', () => {
  for (const [what, text] of [
    ['arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['an object holding arrays', '{"prog": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}'],
    ['consts', '{"prog": {"file_name": "p.tprog", "size": 1}, "consts": [' + '['.repeat(100_000) + ']'.repeat(100_000) + ']}'],
  ] as const)
    test(what, async () => {
      const f = join(dir, `deep-${what.replace(/ /g, '-')}.tmodel`);
      writeFileSync(f, text);
      for (const r of [await ld([f, '-o', join(dir, 'x.tprog')]), await sim(['run', f]), await sim(['inspect', f])]) {
        expect(r.err).not.toMatch(/internal error|call stack/);
        expect(r.err).toMatch(/SYS0\d\d\d/);
        expect(r.code).toBe(1);
        expect(r.err.length).toBeLessThan(4000);
      }
      expect(readdirSync(dir).filter((n) => n.startsWith('x.'))).toEqual([]);
    });
});

const systolic = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
function fcModel(name: string, edit: (m: Record<string, unknown>) => void): string {
  for (const f of ['fc.tprog', 'fc.tdata', 'fc_x.npy']) copyFileSync(join(systolic, f), join(dir, f));
  const m = JSON.parse(readFileSync(join(systolic, 'fc.tmodel'), 'utf8')) as Record<string, unknown>;
  edit(m);
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(m));
  return f;
}

describe('.tmodel consts: overlaps and repeated entries', () => {
  test('two consts sharing DRAM1 vectors: SYS0205 from pyxis-sim too (as from pyxis-ld)', async () => {
    const f = fcModel('overlap.tmodel', (m) => (m['consts'] = [{ file_name: 'fc.tdata', base: 0, size: 5 }, { file_name: 'fc.tdata', base: 3, size: 5 }]));
    for (const r of [await ld([f, '-o', join(dir, 'o.pimg')]), await sim(['run', f])]) {
      expect(r.err).toMatch(/SYS0205.*consts1 \(dram1 vectors 3\.\.7\) overlaps consts0 \(vectors 0\.\.4\)/);
      expect(r.code).toBe(1);
    }
  });
  test('one const entry repeated 5,000 times: refused from the manifest (overlap), before reading any file 5,000 times', async () => {
    const f = fcModel('rep.tmodel', (m) => {
      m['consts'] = Array.from({ length: 5000 }, () => ({ file_name: 'fc.tdata', base: 0, size: 5 }));
    });
    const r = await sim(['run', f]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SYS0205/);
  });
  test('the same file at 50 distinct bases (read and packed once) runs', async () => {
    const f = fcModel('many.tmodel', (m) => {
      m['consts'] = Array.from({ length: 50 }, (_, i) => ({ file_name: 'fc.tdata', base: 5 * i, size: 5 }));
    });
    const r = await sim(['run', f, '--input', `x:0=${join(dir, 'fc_x.npy')}`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});
