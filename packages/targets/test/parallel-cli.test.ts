/**
 * A parallel run that fails on a worker thread, as the tools report it (packages/cli/src/tool.ts): a partition whose
 * model throws ends the run with SIM0800 naming the partition, exit 3; a partition whose model reports bad input
 * (diagnostics) exits 1 with those diagnostics; never a hang. The run is a real threaded run (the token system of
 * packages/sim/test/fixtures/tokenRing.mjs on 2 worker threads) inside a tool's action.
 */
import { describe, expect, it } from 'vitest';
import { runTool } from '@pyxis/cli';
import { runThreaded } from '@pyxis/sim';

const MODULE = new URL('../../sim/test/fixtures/tokenRing.mjs', import.meta.url).href;
const c = { lats: [10, 10, 10, 10], timers: [-1, -1, -1, -1], tokens: [{ at: 0, hops: 40, work: 3 }] };
const specs = (kind: string) => [0, 1, 2, 3].map((me) => ({ name: `chip${me}`, module: MODULE, builder: 'buildTokenPartition', args: { c, part: [0, 1, 2, 3], me, fault: { node: 2, at: 30, kind } } }));

async function tool(kind: string) {
  let err = '';
  const code = await runTool(
    'pyxis-test',
    'a tool whose action is a threaded run',
    (program) => {
      program.command('run').action(async () => {
        await runThreaded(specs(kind), { threads: 2 });
      });
    },
    ['--no-color', 'run'],
    { stdout: () => undefined, stderr: (s) => void (err += s) },
  );
  return { code, err };
}

describe('a failing partition at the command line', () => {
  it('a model error: SIM0800 naming the partition, exit 3', async () => {
    const r = await tool('throw');
    expect(r.code).toBe(3);
    expect(r.err).toContain('SIM0800');
    expect(r.err).toContain('partition chip2 (#2) failed: node n2 fails at cycle 34');
    expect(r.err).not.toContain('    at ');
  });
  it('a worker that exits: SIM0800 naming the partitions of its thread, exit 3', async () => {
    const r = await tool('exit');
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/SIM0800.*partition chip2, chip3 failed: its worker thread exited \(code 7\)/);
  });
  it('bad input inside a partition: its diagnostics, exit 1', async () => {
    const r = await tool('diag');
    expect(r.code).toBe(1);
    expect(r.err).toContain('SIM0001');
    expect(r.err).toContain('node n2: bad input');
  });
});
