/** Issue 15: `-` means standard output for --trace and --vcd as for --stats; at most one of them may use it. */
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
const quiet = { stdout: () => {}, stderr: () => {} };
let img: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-stdout-'));
  for (const f of ['copy.pasm', 'copy.ld', 'copy_src.npy']) copyFileSync(samples + f, join(dir, f));
  expect(await runAs([join(dir, 'copy.pasm'), '-o', join(dir, 'copy.pobj')], quiet)).toBe(0);
  img = join(dir, 'copy.pimg');
  expect(await runLd([join(dir, 'copy.ld'), join(dir, 'copy.pobj'), '-o', img], quiet)).toBe(0);
});
async function sim(args: string[]) {
  let out = '';
  let err = '';
  const code = await runSim(['run', img, ...args], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

describe('`-` = standard output', () => {
  it('--trace -: the trace JSON on stdout, the summary on stderr, no file named `-`', async () => {
    const r = await sim(['--trace', '-']);
    expect(r.code).toBe(0);
    const t = JSON.parse(r.out) as { traceEvents: unknown[] };
    expect(t.traceEvents.length).toBeGreaterThan(10);
    expect(r.err).toMatch(/pyxis-sim: completed after 572 cycles/);
    expect(existsSync('-')).toBe(false);
  });
  it('--vcd -: the waveform on stdout with a real $date and a $dumpvars block', async () => {
    const r = await sim(['--vcd', '-']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\$date .* \$end\n/);
    expect(r.out).not.toMatch(/1970/);
    expect(r.out).toMatch(/\$enddefinitions \$end\n#0\n\$dumpvars\n/);
    expect(r.err).toMatch(/completed after 572 cycles/);
  });
  it('two outputs on stdout are a usage error', async () => {
    for (const args of [['--trace', '-', '--vcd', '-'], ['--vcd', '-', '--stats', '-'], ['--trace', '-', '--stats', '-']]) {
      const r = await sim(args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/would both write to standard output/);
    }
  });
});
