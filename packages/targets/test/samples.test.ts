/** End to end: samples/pyxis copy and gather/scatter, assembled and linked by the real tools, then simulated. */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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

  it('gather/scatter: the int32 index table (indir_mode 1) and the raw int16 bytes in an RFP8 tensor (indir_mode 0) give the same bytes in the same cycles', async () => {
    const dir = await build('gather');
    // the compatibility form: gather_idx.bin (little-endian int16 indices) in an RFP8 [1, 128] tensor, ITFE and sequencers in mode 0
    const old = join(dir, 'old');
    mkdirSync(old);
    for (const f of ['gather_src.bin', 'gather_idx.bin']) copyFileSync(join(dir, f), join(old, f));
    const blob = new Uint8Array(readFileSync(join(dir, 'gather_itfe.blob')));
    for (let r = 0; r < blob.length; r += 16) blob[r + 8] = blob[r + 8]! & ~3; // indir_mode [1:0] of each command word (seq §8.1) = 0
    writeFileSync(join(old, 'gather_itfe.blob'), blob);
    const ld = readFileSync(join(dir, 'gather.ld'), 'utf8').replace(/^tensor idx .*\n/m, 'tensor idx { format = RFP8; shape = [1, 128]; region = amem0; raw = "gather_idx.bin"; role = indirection; address = 0x100000; }\n');
    expect(ld).toMatch(/^tensor idx \{ format = RFP8.*raw = "gather_idx.bin"/m);
    writeFileSync(join(old, 'gather.ld'), ld);
    writeFileSync(join(old, 'gather.pasm'), readFileSync(join(dir, 'gather.pasm'), 'utf8').replaceAll('indir_mode=1', 'indir_mode=0'));
    expect(await runAs([join(old, 'gather.pasm'), '-o', join(old, 'gather.pobj')], quiet)).toBe(0);
    expect(await runLd([join(old, 'gather.ld'), join(old, 'gather.pobj'), '-o', join(old, 'gather.pimg')], quiet)).toBe(0);
    const run = async (d: string) => {
      expect(await runSim(['run', join(d, 'gather.pimg'), '--dump', `gathered=${join(d, 'g.npy')}`, '--dump', `scattered=${join(d, 's.npy')}`, '--stats', join(d, 'st.json')], quiet)).toBe(0);
      return { g: [...readFileSync(join(d, 'g.npy'))], s: [...readFileSync(join(d, 's.npy'))], cycles: JSON.parse(readFileSync(join(d, 'st.json'), 'utf8')).cycles as number };
    };
    const a = await run(dir);
    const b = await run(old);
    expect(a).toEqual(b);
    expect(a.cycles).toBeGreaterThan(0);
  });
});
