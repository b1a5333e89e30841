/**
 * Issue 15, malformed images: a systolic `.pimg` whose metadata manifest (inputs / outputs) is malformed is
 * checked as the `.tmodel` it came from is (SYS0201 with the JSON path), never an internal error (it was
 * `Cannot read properties of null`, `Invalid typed array length`, exit 3). Every metadata path of the sample
 * image, replaced by each of a set of wrong values, gives exit 0, 1 or 2 (usage: `--input` names an input the
 * manifest no longer has).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { readContainer, writeContainer, type Container } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';

const S = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'systolic-meta-'));
let image: Container;

async function sim(c: Container) {
  const file = join(tmp, 'm.pimg');
  writeFileSync(file, writeContainer(c));
  let err = '';
  const code = await runSim(['--no-color', 'run', file, '--input', `x:0=${S}fc_x.npy`], { stdout: () => undefined, stderr: (s) => void (err += s) });
  return { code, err };
}
const withMeta = (meta: Record<string, unknown>): Container => ({ ...image, metadata: { ...image.metadata, ...meta } });

beforeAll(async () => {
  const out = join(tmp, 'fc.pimg');
  expect(await runLd([S + 'fc.tmodel', '-o', out], { stdout: () => undefined, stderr: () => undefined })).toBe(0);
  image = readContainer(readFileSync(out), out);
});

describe('systolic image metadata', () => {
  test('the sample runs', async () => {
    expect((await sim(image)).code).toBe(0);
  });
  test.each([
    ['inputs', [null], '$.metadata.inputs[0]: expected an object, got null'],
    ['outputs', [{ name: 'y:0', base: 'x', size: 3 }], '$.metadata.outputs[0].base: expected an integer >= 0, got "x"'],
    ['inputs', [{ name: 'x:0', base: 1e300, size: 3 }], '$.metadata.inputs[0].base: expected an integer >= 0, got 1e+300'],
    ['inputs', [{ name: 'x:0', base: 2 ** 40, size: 3 }], `$.metadata.inputs[0]: vectors ${2 ** 40}..${2 ** 40 + 2} outside DRAM0`],
    ['outputs', {}, '$.metadata.outputs: expected an array, got an object'],
    ['inputs', null, '$.metadata.inputs: expected an array, got null'],
  ])('%s = %j: SYS0201 with the JSON path', async (key, value, message) => {
    const r = await sim(withMeta({ [key]: value }));
    expect(r.code).toBe(1);
    expect(r.err).toContain(`error[SYS0201]: ${message}`);
  });
  test('every metadata path replaced by a wrong value: exit 0 or 1, never an internal error', async () => {
    const paths: string[][] = [];
    const walk = (v: unknown, p: string[]) => {
      paths.push(p);
      if (v && typeof v === 'object') for (const k of Object.keys(v).slice(0, 6)) walk((v as Record<string, unknown>)[k], [...p, k]);
    };
    walk(image.metadata, []);
    const set = (o: unknown, p: string[], val: unknown): unknown => {
      if (!p.length) return val;
      const c = structuredClone(o) as Record<string, unknown>;
      let x = c;
      for (const k of p.slice(0, -1)) x = x[k] as Record<string, unknown>;
      x[p.at(-1)!] = val;
      return c;
    };
    for (const p of paths.filter((q) => q.length && q[0] !== 'arch'))
      for (const v of [null, {}, [], 'x', -1, 1e300, [null]]) {
        const r = await sim({ ...image, metadata: set(image.metadata, p, v) as Record<string, unknown> });
        // 2: a usage error (the --input name is not the model's any more), never 3
        expect([0, 1, 2], `${p.join('.')} = ${JSON.stringify(v)}: ${r.err}`).toContain(r.code);
        expect(r.err).not.toMatch(/\n\s+at /);
      }
  });
});
