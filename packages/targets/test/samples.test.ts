/** End to end: samples/pyxis copy and gather/scatter, assembled and linked by the real tools, then simulated. */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
const quiet = { stdout: () => {}, stderr: (s: string) => void process.stderr.write(s) };

async function build(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `pyxis-${name}-`));
  for (const f of readdirSync(samples)) if (f.startsWith(name)) copyFileSync(join(samples, f), join(dir, f));
  expect(await runAs([join(dir, `${name}.pasm`), '-o', join(dir, `${name}.pobj`)], quiet)).toBe(0);
  expect(await runLd([join(dir, `${name}.ld`), join(dir, `${name}.pobj`), '-o', join(dir, `${name}.pimg`)], quiet)).toBe(0);
  return dir;
}

describe('samples/pyxis end to end', () => {
  it('copy: HBM -> AMEM -> UIE copy -> HBM reproduces the input tensor', async () => {
    const dir = await build('copy');
    const code = await runSim(['run', join(dir, 'copy.pimg'), '--dump', `out_hbm=${join(dir, 'out.npy')}`, '--dump', `src_hbm=${join(dir, 'in.npy')}`], quiet);
    expect(code).toBe(0);
    const out = readNpy(readFileSync(join(dir, 'out.npy')), 'out.npy');
    const inp = readNpy(readFileSync(join(dir, 'in.npy')), 'in.npy');
    expect(out.shape).toEqual([8, 128]);
    expect(Array.from(out.data)).toEqual(Array.from(inp.data));
    expect(Array.from(out.data).some((x) => x !== 0)).toBe(true);
  });

  it('gather/scatter: gathered[i] = src[idx[i]], scattered[idx[i]] = gathered[i]', async () => {
    const dir = await build('gather');
    const d = (s: string) => `${s}=${join(dir, `${s}.npy`)}`;
    expect(await runSim(['run', join(dir, 'gather.pimg'), '--dump', d('gathered'), '--dump', d('scattered'), '--dump', d('src')], quiet)).toBe(0);
    const load = (s: string) => readNpy(readFileSync(join(dir, `${s}.npy`)), s).data as Uint8Array;
    const src = load('src');
    const g = load('gathered');
    const sc = load('scattered');
    const idx = [5, 2, 15, 0, 9, 9, 12, 7];
    const exp = new Uint8Array(16 * 128);
    idx.forEach((r, i) => {
      expect(Array.from(g.subarray(i * 128, i * 128 + 128))).toEqual(Array.from(src.subarray(r * 128, r * 128 + 128)));
      exp.set(g.subarray(i * 128, i * 128 + 128), r * 128);
    });
    expect(Array.from(sc)).toEqual(Array.from(exp));
  });
});
