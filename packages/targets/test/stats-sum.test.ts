/** Issue 15: the stats were off by one (busy + stall + idle = cycles + 1 for every engine). Every cycle is one of the three. */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
const quiet = { stdout: () => {}, stderr: () => {} };

describe('per-engine cycle accounting', () => {
  it('copy and fork_join, strict lockstep and run-ahead: busy + stall + idle = cycles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-stats-'));
    for (const f of ['copy.pasm', 'copy.ld', 'fork_join.ld', 'copy_src.npy']) copyFileSync(samples + f, join(dir, f));
    expect(await runAs([join(dir, 'copy.pasm'), '-o', join(dir, 'copy.pobj')], quiet)).toBe(0);
    for (const s of ['copy', 'fork_join']) {
      expect(await runLd([join(dir, `${s}.ld`), join(dir, 'copy.pobj'), '-o', join(dir, `${s}.pimg`)], quiet)).toBe(0);
      for (const q of ['1', '256']) {
        let out = '';
        expect(await runSim(['run', join(dir, `${s}.pimg`), '--quantum', q, '--stats', '-'], { stdout: (x) => void (out += x), stderr: () => {} })).toBe(0);
        const st = JSON.parse(out) as { cycles: number; engines: Array<{ name: string; busy: number; stall: number; idle: number }> };
        expect(st.cycles).toBeGreaterThan(100);
        for (const e of st.engines) expect(e.busy + e.stall + e.idle, `${s} --quantum ${q}: ${e.name}`).toBe(st.cycles);
      }
    }
  });
});
