/**
 * Issue 15: malformed objects and images must not reach an unchecked property.
 * Each case mutates a good .pobj/.pimg (the copy sample) and feeds it to the
 * tool that reads it: the answer is a diagnostic and exit 1 (CT0015 with the
 * JSON path for metadata), never exit 3, and no output file.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSchema, MAX_METADATA_DEPTH, readContainer, writeContainer, type Container, type JsonSchema } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call, type Run } from './cli-call.js';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));

let dir: string;
let obj: string;
let img: string;
let script: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pyxis-malformed-'));
  script = join(dir, 'copy.ld');
  obj = join(dir, 'copy.pobj');
  img = join(dir, 'copy.pimg');
  copyFileSync(samples + 'copy.pasm', join(dir, 'copy.pasm'));
  copyFileSync(samples + 'copy.ld', script);
  copyFileSync(samples + 'copy_src.npy', join(dir, 'copy_src.npy'));
  expect((await call(runAs, [join(dir, 'copy.pasm'), '-o', obj])).code).toBe(0);
  expect((await call(runLd, [script, obj, '-o', img])).code).toBe(0);
});

let n = 0;
/** A copy of `file` changed by `edit`, written back through the container writer. */
function mutate(file: string, edit: (c: Container) => void): string {
  const c = readContainer(readFileSync(file), file);
  edit(c);
  const out = join(dir, `m${n++}${file.slice(-5)}`);
  writeFileSync(out, writeContainer(c));
  return out;
}

describe('malformed objects (pyxis-ld, pyxis-as --disassemble)', () => {
  const cases: Array<[string, (c: Container) => void, RegExp]> = [
    ['"programs": [null]', (c) => (c.metadata['programs'] = [null]), /CT0015.*\$\.metadata\.programs\[0\]: expected an object, got null/],
    ['"programs": {}', (c) => (c.metadata['programs'] = {}), /CT0015.*\$\.metadata\.programs: expected an array/],
    ['a program without a symbol', (c) => (c.metadata['programs'] = [{ name: 'p', sequencer: 'amem_read', words: 1 }]), /CT0015.*programs\[0\]: missing required member `symbol`/],
    ['start_pc a string', (c) => ((c.metadata['programs'] as Array<Record<string, unknown>>)[0]!['start_pc'] = '3'), /CT0015.*programs\[0\]\.start_pc: expected an integer/],
    ['vpu_programs: [1]', (c) => (c.metadata['vpu_programs'] = [1]), /CT0015.*vpu_programs\[0\]/],
    [
      'a control section stored as a zero section',
      (c) => {
        c.sections[0]!.kind = 'zero';
        c.sections[0]!.data = new Uint8Array(0);
      },
      /LD0214.*zero-filled/,
    ],
  ];
  for (const [what, edit, want] of cases)
    test(what, async () => {
      const bad = mutate(obj, edit);
      const out = join(dir, `ld-${n}.pimg`);
      const r = await call(runLd, [script, bad, '-o', out]);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(want);
      expect(existsSync(out)).toBe(false);
      const d = await call(runAs, ['disassemble', bad]);
      expect(d.code, d.err).toBe(1);
    });
});

describe('malformed images (pyxis-sim run)', () => {
  const pyxis = (c: Container) => c.metadata['pyxis'] as Record<string, unknown>;
  const cases: Array<[string, (c: Container) => void, RegExp]> = [
    ['remap: [null]', (c) => (pyxis(c)['remap'] = [null]), /\$\.metadata\.pyxis\.remap\[0\]: expected an object, got null/],
    ['remap with 3 windows', (c) => ((pyxis(c)['remap'] as Array<Record<string, unknown[]>>)[0]!['dpe']!.length = 3), /remap\[0\]\.dpe: expected at least 4 items, got 3/],
    ['remap window base null', (c) => ((pyxis(c)['remap'] as Array<Record<string, Array<Record<string, unknown>>>>)[0]!['mpe']![1]!['base'] = null), /remap\[0\]\.mpe\[1\]\.base/],
    ['after_interrupt: null', (c) => (pyxis(c)['host_actions'] = [{ cluster: 0, address: '0x40F01008', value: '0x2', after_interrupt: null }]), /host_actions\[0\]\.after_interrupt: expected an object, got null/],
    ['host_actions: [null]', (c) => (pyxis(c)['host_actions'] = [null]), /host_actions\[0\]: expected an object/],
    ['after_interrupt.entry 9', (c) => (pyxis(c)['host_actions'] = [{ address: '0x40F01008', value: '2', after_interrupt: { entry: 9 } }]), /after_interrupt\.entry: 9 is above the maximum 7/],
    ['barriers: [null]', (c) => (pyxis(c)['barriers'] = [null]), /barriers\[0\]: expected an object/],
    ['trips: [{}]', (c) => (pyxis(c)['trips'] = [{}]), /trips\[0\]: missing required member `trip_id`/],
    ['pyxis: 7', (c) => (c.metadata['pyxis'] = 7), /\$\.metadata\.pyxis: expected an object, got number 7/],
    ['clusters 1e9', (c) => (pyxis(c)['clusters'] = 1e9), /\$\.metadata\.pyxis\.clusters: 1000000000 is above the maximum 4/],
  ];
  for (const [what, edit, want] of cases)
    test(what, async () => {
      const bad = mutate(img, edit);
      const stats = join(dir, `stats-${n}.json`);
      const r = await call(runSim as Run, ['run', bad, '--stats', stats]);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(/error\[CT0015\]/);
      expect(r.err).toMatch(want);
      expect(existsSync(stats)).toBe(false);
    });

  test('metadata nested deeper than the cap is refused by the reader (CT0010): inspect and run give exit 1', async () => {
    // The writer stringifies the metadata: put a same-length placeholder string there and swap in the nesting.
    const nest = (m: number) => '['.repeat(m) + '1' + ']'.repeat(m);
    const write = (m: number) => {
      const file = mutate(img, (c) => (c.metadata['x'] = 'P'.repeat(2 * m - 1)));
      const text = Buffer.from(readFileSync(file)).toString('latin1').replace(`"${'P'.repeat(2 * m - 1)}"`, nest(m));
      writeFileSync(file, Buffer.from(text, 'latin1'));
      return file;
    };
    const fine = write(MAX_METADATA_DEPTH - 1);
    expect(JSON.stringify(readContainer(readFileSync(fine), fine).metadata['x'])).toBe(nest(MAX_METADATA_DEPTH - 1));
    const deep = write(5000);
    expect(() => readContainer(readFileSync(deep), deep)).toThrow(/CT0010|nests deeper than 64/);
    for (const args of [['inspect', deep], ['inspect', deep, '--json'], ['run', deep]]) {
      const r = await call(runSim as Run, args);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(/error\[CT0010\]: metadata nests deeper than 64 levels/);
    }
  });
});

describe('checkSchema', () => {
  const schema: JsonSchema = {
    type: 'object',
    required: ['a'],
    additionalProperties: false,
    properties: { a: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 3 } }, b: { anyOf: [{ type: 'string', pattern: '^0x[0-9a-f]+$' }, { type: 'integer' }] } },
  };
  test('paths and messages', () => {
    expect(checkSchema({ a: [1, 2] }, schema)).toEqual([]);
    expect(checkSchema({ a: [1, 7, 'x'] }, schema)).toEqual([
      { path: '$.a[1]', message: '7 is above the maximum 3' },
      { path: '$.a[2]', message: 'expected an integer, got string "x"' },
    ]);
    expect(checkSchema({}, schema)).toEqual([{ path: '$', message: 'missing required member `a`' }]);
    expect(checkSchema({ a: [], 'odd key': 1 }, schema)).toEqual([{ path: '$["odd key"]', message: 'unknown member `odd key`' }]);
    expect(checkSchema({ a: [], b: '0x1f' }, schema)).toEqual([]);
    expect(checkSchema({ a: [], b: 12 }, schema)).toEqual([]);
    expect(checkSchema({ a: [], b: 'zz' }, schema)[0]!.path).toBe('$.b');
    expect(checkSchema(null, schema)).toEqual([{ path: '$', message: 'expected an object, got null' }]);
  });
  test('at most `max` violations, and values deeper than the schema are not walked', () => {
    expect(checkSchema({ a: Array(100).fill(-1) }, schema, '$', 5)).toHaveLength(5);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(checkSchema({ a: [], c: deep }, { type: 'object' })).toEqual([]);
  });
});
