/**
 * `inspect FILE.npy --data` prints the values like NumPy's repr (docs/tensor-files.md, "Printing values"). The
 * expected texts are what NumPy 1.2x prints for the same arrays (`repr(a)` without the `array(` wrapper and the
 * dtype suffix); summary statistics are recomputed here from the data.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeNpy, writeSafetensors, type Tensor } from '@pyxis/container';
import { runAs } from '@pyxis/targets';

const dir = mkdtempSync(join(tmpdir(), 'pyxis-inspect-data-'));

async function inspect(t: Tensor, ...flags: string[]) {
  const file = join(dir, `t${Math.random().toString(36).slice(2)}.npy`);
  writeFileSync(file, writeNpy(t));
  let out = '';
  let err = '';
  const code = await runAs(['--no-color', 'inspect', file, ...flags], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  expect(code, err).toBe(0);
  return { file, out };
}

/** The values part of the text output (after the header line). */
async function values(t: Tensor, ...flags: string[]): Promise<string> {
  const { out } = await inspect(t, '--data', ...flags);
  return out.split('\n').slice(1).join('\n').trimEnd();
}

describe('inspect --data on .npy files', () => {
  it('float32 matrix: common width, points aligned, shortest float32 forms (0.1, not 0.100000001)', async () => {
    expect(await values({ dtype: 'float32', shape: [2, 3], data: new Float32Array([1, 2.5, 3, -4, 0.1, 6]) })).toBe('[[ 1. ,  2.5,  3. ],\n [-4. ,  0.1,  6. ]]');
  });
  it('float64: scientific notation when the magnitudes differ by more than 1e3', async () => {
    expect(await values({ dtype: 'float64', shape: [3], data: new Float64Array([1e-5, 1.5e10, 3]) })).toBe('[1.0e-05, 1.5e+10, 3.0e+00]');
    expect(await values({ dtype: 'float64', shape: [2], data: new Float64Array([0.125, 1 / 3]) })).toBe('[0.125     , 0.33333333]');
  });
  it('float16: decoded from the bits; inf and nan right-aligned', async () => {
    // 0x3c00 = 1, 0x3555 = 0.333251953125 (shortest float16 form 0.3333), 0xfc00 = -inf, 0x7e00 = nan
    expect(await values({ dtype: 'float16', shape: [2, 2], data: new Uint16Array([0x3c00, 0x3555, 0xfc00, 0x7e00]) })).toBe('[[1.    , 0.3333],\n [  -inf,    nan]]');
  });
  it('integers: int8 (rank 3, blank line between blocks), int16, int32, uint8', async () => {
    const i8 = Int8Array.from({ length: 24 }, (_, i) => i - 12);
    expect(await values({ dtype: 'int8', shape: [2, 3, 4], data: i8 })).toBe(
      '[[[-12, -11, -10,  -9],\n  [ -8,  -7,  -6,  -5],\n  [ -4,  -3,  -2,  -1]],\n\n [[  0,   1,   2,   3],\n  [  4,   5,   6,   7],\n  [  8,   9,  10,  11]]]',
    );
    expect(await values({ dtype: 'int16', shape: [2, 2], data: new Int16Array([-32768, 5, 32767, 0]) })).toBe('[[-32768,      5],\n [ 32767,      0]]');
    expect(await values({ dtype: 'uint8', shape: [3], data: new Uint8Array([0, 255, 7]) })).toBe('[  0, 255,   7]');
    expect(await values({ dtype: 'int32', shape: [], data: new Int32Array([-7]) })).toBe('-7');
  });
  it('long rows wrap at 75 characters', async () => {
    const text = await values({ dtype: 'int32', shape: [30], data: Int32Array.from({ length: 30 }, (_, i) => i * 1000) });
    // 5-character items plus ', ': the 11th item would take the line to 77 > 75 characters
    expect(text.split('\n')).toEqual([
      '[    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,  9000,',
      ' 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000,',
      ' 20000, 21000, 22000, 23000, 24000, 25000, 26000, 27000, 28000, 29000]',
    ]);
  });
  it('large tensors: first/last 3 per axis with ..., then min/max/mean/NaN count', async () => {
    const n = 2000;
    const data = Int32Array.from({ length: n }, (_, i) => i);
    expect(await values({ dtype: 'int32', shape: [n], data })).toBe('[   0,    1,    2, ..., 1997, 1998, 1999]\nmin 0, max 1999, mean 999.5, NaN 0 (of 2000 elements)');
    const f = Float32Array.from({ length: 10 * 10 * 20 }, (_, i) => (i % 7) - 3);
    f[17] = NaN;
    const text = await values({ dtype: 'float32', shape: [10, 10, 20], data: f });
    const lines = text.split('\n');
    // 3 + 3 blocks of 3 + 3 rows, the elided blocks and rows as "...," lines
    expect(lines.filter((l) => /^\s*\.\.\.,?$/.test(l))).toHaveLength(1 + 6);
    expect(lines[0]).toBe('[[[-3., -2., -1., ..., nan,  1.,  2.],');
    let sum = 0;
    let cnt = 0;
    for (const v of f) if (!Number.isNaN(v)) (sum += v), cnt++;
    expect(lines.at(-1)).toBe(`min -3, max 3, mean ${Number((sum / cnt).toPrecision(8))}, NaN 1 (of 2000 elements)`);
    // --full: every value
    expect((await values({ dtype: 'int32', shape: [n], data }, '--full')).split(',')).toHaveLength(n);
  });
  it('--json: values as nested arrays; a summary object and "..." for large tensors; --full forces all', async () => {
    const small: Tensor = { dtype: 'float16', shape: [2, 2], data: new Uint16Array([0x3c00, 0xc000, 0x7c00, 0x7e00]) };
    const j = JSON.parse((await inspect(small, '--data', '--json')).out);
    expect(j.values).toEqual([
      [1, -2],
      ['Infinity', 'NaN'],
    ]);
    expect(j.summary).toBeUndefined();
    const big: Tensor = { dtype: 'uint8', shape: [40, 40], data: Uint8Array.from({ length: 1600 }, (_, i) => i % 256) };
    const b = JSON.parse((await inspect(big, '--data', '--json')).out);
    expect(b.summary).toEqual({ edgeItems: 3, count: 1600, min: 0, max: 255, mean: Array.from(big.data).reduce((a, c) => a + c, 0) / 1600, nan: 0 });
    expect(b.values).toHaveLength(7);
    expect(b.values[3]).toBe('...');
    expect(b.values[0]).toEqual([0, 1, 2, '...', 37, 38, 39]);
    expect(b.values[6]).toEqual([(1560) % 256, 1561 % 256, 1562 % 256, '...', 1597 % 256, 1598 % 256, 1599 % 256]);
    const full = JSON.parse((await inspect(big, '--data', '--json', '--full')).out);
    expect(full.summary).toBeUndefined();
    expect(full.values.flat()).toEqual(Array.from(big.data));
  });
  it('without --data only the header line', async () => {
    const { out } = await inspect({ dtype: 'int8', shape: [2], data: new Int8Array([1, 2]) });
    expect(out.trim().split('\n')).toHaveLength(1);
  });
  it('.safetensors: each tensor with its values', async () => {
    const file = join(dir, 'w.safetensors');
    writeFileSync(file, writeSafetensors(new Map([['w', { dtype: 'bfloat16' as const, shape: [2], data: new Uint16Array([0x3f80, 0xc040]) }]])));
    let out = '';
    expect(await runAs(['inspect', '--data', file], { stdout: (s) => void (out += s), stderr: () => undefined })).toBe(0);
    expect(out).toContain('  w  bfloat16 [2] (4 bytes)\n    [ 1., -3.]\n');
  });
});
