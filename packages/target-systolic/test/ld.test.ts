/**
 * pyxis-ld --target systolic: constants and inputs from .npy (quantised to the
 * data type, with the error reported) or .tdata into the DRAM0/DRAM1 images,
 * the .pimg and a written .tmodel. Expected bytes and errors are computed here
 * from the FP16BP8 rule (round half up, saturate), not by the code under test.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { makeTensor, writeNpyFile } from '@pyxis/container';

const S = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
const arch = JSON.parse(readFileSync(S + 'arch4.tarch', 'utf8'));

async function cap(run: typeof runLd, argv: string[]) {
  let out = '';
  let err = '';
  const code = await run(['--no-color', ...argv], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

/** FP16BP8 by hand: nearest with ties up, clamped; little-endian int16 bytes. */
const q16 = (x: number) => Math.max(-32768, Math.min(32767, Math.floor(x * 256 + 0.5)));
const le = (v: number[]) => Array.from(new Uint8Array(new Int16Array(v).buffer));

function setup(manifest: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'systolic-ld-'));
  copyFileSync(S + 'fc.tprog', join(dir, 'fc.tprog'));
  writeFileSync(join(dir, 'm.tmodel'), JSON.stringify({ name: 'm', prog: { file_name: 'fc.tprog', size: 36 }, arch, inputs: [{ name: 'x:0', base: 2, size: 2 }], outputs: [{ name: 'y:0', base: 8, size: 3 }], ...manifest }));
  return dir;
}

const w = [0.5, 1 / 3, -1.00195, 200, -0.001953125, 0.0019, 2.75, -300];
const x = [0.1, -0.2, 0.3, 1.5, -1.5, 0.99];
const b = [1, -2, 300, -32768];

describe('pyxis-ld --target systolic', () => {
  test('.npy and .tdata constants and an .npy input: exact DRAM images, errors, .tmodel', async () => {
    const dir = setup({ consts: [{ file_name: 'w.npy', base: 0, size: 2 }, { file_name: 'b.tdata', base: 4, size: 1 }] });
    writeNpyFile(join(dir, 'w.npy'), makeTensor('float32', [2, 4], new Float32Array(w)));
    writeFileSync(join(dir, 'b.tdata'), new Uint8Array(le(b)));
    writeNpyFile(join(dir, 'x.npy'), makeTensor('float64', [2, 3], new Float64Array(x))); // 3 lanes of 4
    const o = (f: string) => join(dir, f);
    const r = await cap(runLd, [o('m.tmodel'), '--input', `x:0=${o('x.npy')}`, '--dram0', o('d0.bin'), '--dram1', o('d1.bin'), '--tmodel', o('out.tmodel'), '-o', o('m.pimg'), '--map-json', '-']);
    expect(r.code).toBe(0);
    // DRAM1: w at vectors 0-1, zeros at 2-3, b at 4
    const wq = Array.from(new Float32Array(w)).map(q16);
    expect(Array.from(readFileSync(o('d1.bin')))).toEqual([...le(wq), ...new Array(16).fill(0), ...le(b)]);
    // DRAM0: zeros at 0-1, x at 2-3 with the fourth lane zero
    const xq = x.map(q16);
    expect(Array.from(readFileSync(o('d0.bin')))).toEqual([...new Array(16).fill(0), ...le([...xq.slice(0, 3), 0, ...xq.slice(3), 0])]);
    // errors: largest |x - q/256| and RMS over the elements, from the float32 values the file holds
    const errs = (vals: number[], qs: number[]) => vals.map((v, i) => Math.abs(v - qs[i]! / 256));
    const we = errs(Array.from(new Float32Array(w)), wq);
    const xe = errs(x, xq);
    const map = JSON.parse(r.out);
    const packed = Object.fromEntries(map.packed.map((p: { name: string }) => [p.name, p]));
    expect(packed['consts0'].max_abs_error).toBeCloseTo(Math.max(...we), 12);
    expect(packed['consts0'].rms_error).toBeCloseTo(Math.sqrt(we.reduce((s, e) => s + e * e, 0) / we.length), 12);
    expect(packed['consts0'].saturated).toBe(2); // 200 and -300
    expect(packed['consts1']).toMatchObject({ source: 'tdata', max_abs_error: 0, rms_error: 0 });
    expect(packed['input:x:0'].max_abs_error).toBeCloseTo(Math.max(...xe), 12);
    expect(packed['input:x:0'].rms_error).toBeCloseTo(Math.sqrt(xe.reduce((s, e) => s + e * e, 0) / xe.length), 12);
    expect(r.err).toMatch(/SYS0305.*consts0: 2 of 8 elements/);
    // the written .tmodel: the program and one .tdata (the DRAM1 image) next to it
    expect(JSON.parse(readFileSync(o('out.tmodel'), 'utf8'))).toEqual({
      name: 'm', prog: { file_name: 'out.tprog', size: 36 }, consts: [{ file_name: 'out.tdata', base: 0, size: 5 }],
      inputs: [{ name: 'x:0', base: 2, size: 2 }], outputs: [{ name: 'y:0', base: 8, size: 3 }], arch, load_consts_to_local: false,
    });
    expect(readFileSync(o('out.tdata'))).toEqual(readFileSync(o('d1.bin')));
    expect(readFileSync(o('out.tprog'))).toEqual(readFileSync(S + 'fc.tprog'));
    // the .pimg and the written .tmodel both run
    expect((await cap(runSim, ['run', o('m.pimg')])).code).toBe(0);
    expect((await cap(runSim, ['run', o('out.tmodel'), '--input', `x:0=${o('x.npy')}`, '--output', `y:0=${o('y1.npy')}`])).code).toBe(0);
    // the DRAM0 image's input vectors as a raw .tdata input give the same outputs
    writeFileSync(o('x.tdata'), readFileSync(o('d0.bin')).subarray(16));
    expect((await cap(runSim, ['run', o('out.tmodel'), '--input', `x:0=${o('x.tdata')}`, '--output', `y:0=${o('y2.npy')}`])).code).toBe(0);
    expect(readFileSync(o('y2.npy'))).toEqual(readFileSync(o('y1.npy')));
    writeFileSync(o('bad.tdata'), new Uint8Array(13));
    const bad = await cap(runSim, ['run', o('out.tmodel'), '--input', `x:0=${o('bad.tdata')}`]);
    expect([bad.code, bad.err]).toEqual([1, expect.stringContaining('not a whole number of 8-byte vectors')]);
  });

  test('the program from a .pobj instead of the manifest\'s prog; raw .tdata input', async () => {
    const dir = setup({ prog: undefined, consts: [] });
    const o = (f: string) => join(dir, f);
    expect((await cap(runAs, ['--target', 'systolic', '--arch', S + 'arch4.tarch', S + 'fc.tasm', '-o', o('fc.pobj')])).code).toBe(0);
    writeFileSync(o('x.tdata'), new Uint8Array(le([1, 2, 3, 4, 5, 6, 7, 8])));
    const r = await cap(runLd, [o('m.tmodel'), o('fc.pobj'), '--input', `x:0=${o('x.tdata')}`, '--dram0', o('d0.bin'), '--tmodel', o('p.tmodel'), '-o', o('m.pimg')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(Array.from(readFileSync(o('d0.bin')))).toEqual([...new Array(16).fill(0), ...le([1, 2, 3, 4, 5, 6, 7, 8])]);
    expect(readFileSync(o('p.tprog'))).toEqual(readFileSync(S + 'fc.tprog'));
    expect(JSON.parse(readFileSync(o('p.tmodel'), 'utf8')).consts).toEqual([]);
    // an object assembled for another architecture is refused
    expect((await cap(runAs, ['--target', 'systolic', '--arch', S + 'arch4lut.tarch', S + 'fc.tasm', '-o', o('lut.pobj')])).code).toBe(0);
    const bad = await cap(runLd, [o('m.tmodel'), o('lut.pobj'), '-o', o('m2.pimg')]);
    expect([bad.code, bad.err]).toEqual([1, expect.stringContaining('SYS0206')]);
  });

  test('refused: overlapping constants, a .tdata of the wrong size, a NaN, no program', async () => {
    const dir = setup({ consts: [{ file_name: 'a.tdata', base: 0, size: 2 }, { file_name: 'b.tdata', base: 1, size: 1 }] });
    const o = (f: string) => join(dir, f);
    writeFileSync(o('a.tdata'), new Uint8Array(16));
    writeFileSync(o('b.tdata'), new Uint8Array(8));
    let r = await cap(runLd, [o('m.tmodel'), '-o', o('m.pimg')]);
    expect([r.code, r.err]).toEqual([1, expect.stringMatching(/SYS0205.*consts1 \(dram1 vectors 1\.\.1\) overlaps consts0 \(vectors 0\.\.1\)/)]);
    writeFileSync(o('b.tdata'), new Uint8Array(7));
    writeFileSync(o('m.tmodel'), JSON.stringify({ name: 'm', prog: { file_name: 'fc.tprog', size: 36 }, arch, consts: [{ file_name: 'b.tdata', base: 4, size: 1 }] }));
    r = await cap(runLd, [o('m.tmodel'), '-o', o('m.pimg')]);
    expect([r.code, r.err]).toEqual([1, expect.stringContaining('b.tdata: offset 0x0000007 (7): error[SYS0202]: $.consts[0]: b.tdata holds 7 bytes, the manifest says 1 vectors of 8 bytes (8)')]);
    writeNpyFile(o('n.npy'), makeTensor('float32', [4], new Float32Array([0, NaN, 0, 0])));
    writeFileSync(o('m.tmodel'), JSON.stringify({ name: 'm', prog: { file_name: 'fc.tprog', size: 36 }, arch, consts: [{ file_name: 'n.npy', base: 0, size: 1 }] }));
    r = await cap(runLd, [o('m.tmodel'), '-o', o('m.pimg')]);
    expect([r.code, r.err]).toEqual([1, expect.stringContaining('element 1 is NaN')]);
    writeFileSync(o('m.tmodel'), JSON.stringify({ name: 'm', arch, consts: [] }));
    r = await cap(runLd, [o('m.tmodel'), '-o', o('m.pimg')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('$.prog');
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  });
});
