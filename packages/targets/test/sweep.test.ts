/**
 * `pyxis-sim sweep` with the local pool (issue 24): sweep-file validation with JSON paths, axis expansion, the
 * results table (CSV + JSON lines, one row per run), resume, and deterministic failures recorded, not retried.
 * The runs are child processes of bin/pyxis-sim (the built dist/, as CI builds it before the tests).
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeContainerFile } from '@pyxis/container';
import { runSim } from '@pyxis/targets';
import { parseSweep } from '../../cli/src/sweep/spec.js';
import { copyImage } from './sweep-fixtures.js';
import { call } from './cli-call.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
process.env['PYXIS_SIM_BIN'] = join(root, 'bin/pyxis-sim');

const dir = mkdtempSync(join(tmpdir(), 'pyxis-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeContainerFile(join(dir, 'copy.pimg'), copyImage());

function sweepFile(name: string, body: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body));
  return f;
}
const rows = (base: string) => readFileSync(`${base}.jsonl`, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('sweep files', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"inputs": [', /SWP0001.*not valid JSON/],
    ['unknown field', { inputs: ['copy.pimg'], axis: {} }, /SWP0003.*\$\.axis: unknown field; did you mean `axes`\?/],
    ['no inputs', { axes: {} }, /SWP0002.*\$: give exactly one of `inputs`/],
    ['axis of objects', { inputs: ['copy.pimg'], axes: { 'hbm.read_latency_cycles': [1, {}] } }, /\$\.axes\.hbm\.read_latency_cycles\[1\]: must be a number, boolean or string/],
    ['bad range', { inputs: ['copy.pimg'], axes: { k: { from: 4, to: 1 } } }, /\$\.axes\.k\.to: must be >= from \(4\), got 1/],
    ['zip lengths', { inputs: ['copy.pimg'], combine: 'zip', axes: { a: [1, 2], b: [1] } }, /SWP0004.*\$\.axes\.b: zip needs axes of one length: a has 2, b has 1/],
    ['figure path', { inputs: ['copy.pimg'], figures: { c: 'cycles..x' } }, /\$\.figures\.c: `cycles\.\.x` is not a stats path/],
    ['sweep sets --stats', { inputs: ['copy.pimg'], options: ['--stats', 'x'] }, /\$\.options\[0\]: `--stats` is set by the sweep itself/],
    ['sweep sets --target', { inputs: ['copy.pimg'], options: ['--target', 'pyxis'] }, /\$\.options\[0\]: `--target` is set by the sweep itself/],
    ['too many runs', { inputs: ['copy.pimg'], axes: { a: { from: 1, to: 1000 }, b: { from: 1, to: 1000 }, c: [1, 2] } }, /SWP0005.*more than 1000000/],
    ['random without bounds', { inputs: ['copy.pimg'], random: { samples: 2, axes: { a: { min: 3 } } } }, /\$\.random\.axes\.a: needs numbers min <= max/],
  ];
  for (const [what, body, re] of bad)
    it(`refuses ${what} with its JSON path (exit 1)`, async () => {
      const r = await call(runSim, ['sweep', sweepFile('bad.json', body), '-o', join(dir, 'bad')]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(re);
    });
  it('refuses a table in a missing directory before anything runs (IO0002)', async () => {
    const r = await call(runSim, ['sweep', sweepFile('ok.json', { inputs: ['copy.pimg'] }), '-o', join(dir, 'no/such/dir/t')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/IO0002/);
  });
  it('property: any JSON value as a sweep file is accepted or refused with a diagnostic, never a crash', () => {
    const field = fc.constantFrom('target', 'inputs', 'generator', 'axes', 'combine', 'random', 'options', 'figures', 'axis');
    const sub = fc.constantFrom('from', 'to', 'step', 'samples', 'seed', 'axes', 'min', 'max', 'command', 'image', 'params', 'name');
    const leaf = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(sub, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }));
    const doc = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(field, fc.oneof(leaf, fc.dictionary(fc.string({ maxLength: 6 }), leaf, { maxKeys: 3 }), fc.array(leaf, { maxLength: 3 })), { maxKeys: 6 }));
    fc.assert(
      fc.property(doc, (d) => {
        try {
          parseSweep(join(dir, 'p.json'), JSON.stringify(d) ?? 'null');
        } catch (e) {
          if (!(e instanceof DiagnosticError)) throw e;
          expect(e.diagnostics[0]!.code).toMatch(/^SWP000[1-5]$/);
        }
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });
  it('--queue without a Redis server answering is SWP0010 at once (sweep and worker), never a silent wait', async () => {
    const { freePort } = await import('./redis-server.js');
    const url = `redis://127.0.0.1:${await freePort()}`;
    let r = await call(runSim, ['sweep', sweepFile('q.json', { inputs: ['copy.pimg'] }), '-o', join(dir, 'q'), '--queue', url]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SWP0010.*cannot reach Redis/);
    r = await call(runSim, ['worker', '--queue', url]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SWP0010/);
    r = await call(runSim, ['worker', '--queue', 'http://x']);
    expect(r.code).toBe(2);
  });
  it('expands lists, ranges, cartesian and zipped axes, and seeded random samples', () => {
    const f = join(dir, 'x.json');
    const s = parseSweep(f, JSON.stringify({ inputs: ['copy.pimg'], axes: { a: [1, 2, 3], b: { from: 0.5, to: 1.5, step: 0.5 } } }));
    expect(s.points.length).toBe(9);
    expect(s.points[4]).toEqual({ a: 2, b: 1 });
    const z = parseSweep(f, JSON.stringify({ inputs: ['copy.pimg'], combine: 'zip', axes: { a: [1, 2, 3], b: [4, 5, 6] } }));
    expect(z.points).toEqual([{ a: 1, b: 4 }, { a: 2, b: 5 }, { a: 3, b: 6 }]);
    const r1 = parseSweep(f, JSON.stringify({ inputs: ['copy.pimg'], axes: { a: [1, 2] }, random: { samples: 5, seed: 7, axes: { n: { min: 10, max: 20 } } } }));
    const r2 = parseSweep(f, JSON.stringify({ inputs: ['copy.pimg'], axes: { a: [1, 2] }, random: { samples: 5, seed: 7, axes: { n: { min: 10, max: 20 } } } }));
    expect(r1.points.length).toBe(10);
    expect(r1.points).toEqual(r2.points);
    for (const p of r1.points) expect(Number.isInteger(p['n']) && (p['n'] as number) >= 10 && (p['n'] as number) <= 20).toBe(true);
    expect(new Set(r1.points.map((p) => p['n'])).size).toBeGreaterThan(1);
  });
});

describe('pyxis-sim sweep (local pool)', () => {
  it('writes one row per run with its figures, resumes, and records a deterministic failure once', async () => {
    const f = sweepFile('lat.json', { inputs: ['copy.pimg'], axes: { 'hbm.read_latency_cycles': [100, 300] }, figures: { cycles: 'cycles', trips: 'trips_by_kind.h2a', rd: 'parameters["hbm.read_latency_cycles"].value' } });
    let r = await call(runSim, ['sweep', f, '-o', join(dir, 'lat'), '--jobs', '2', '--no-progress']);
    expect(r.code, r.err).toBe(0);
    const got = rows(join(dir, 'lat')).sort((a, b) => a.run - b.run);
    expect(got.map((x) => [x.params['hbm.read_latency_cycles'], x.status, x.figures.rd])).toEqual([[100, 'ok', 100], [300, 'ok', 300]]);
    // one HBM read latency per copy (params.test.ts): the two rows differ by exactly the latency difference
    expect(got[1].figures.cycles - got[0].figures.cycles).toBe(200);
    expect(got[0].figures.trips).toBe(1);
    const csv = readFileSync(join(dir, 'lat.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('run,input,hbm.read_latency_cycles,status,exit,host_seconds,cycles,trips,rd,diagnostic,key');
    expect(csv.length).toBe(3);
    // resume: nothing runs again
    r = await call(runSim, ['sweep', f, '-o', join(dir, 'lat'), '--no-progress']);
    expect(r.out).toMatch(/2 runs: 0 ok, 0 failed, 2 already in/);
    // a row lost (e.g. a crash mid-write) is run again, and only that one
    writeFileSync(join(dir, 'lat.jsonl'), readFileSync(join(dir, 'lat.jsonl'), 'utf8').split('\n')[0] + '\n{"run":1,"ke');
    r = await call(runSim, ['sweep', f, '-o', join(dir, 'lat'), '--no-progress']);
    expect(r.out).toMatch(/2 runs: 1 ok, 0 failed, 1 already in/);
    // a parameter the machine does not have, or a value outside its range: one diagnostic before anything runs
    const g = sweepFile('typo.json', { inputs: ['copy.pimg'], axes: { 'hbm.read_latency': [1, 2] } });
    r = await call(runSim, ['sweep', g, '-o', join(dir, 'typo'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SWP0009.*\$\.axes\.hbm\.read_latency: unknown parameter `hbm.read_latency` of target pyxis; did you mean `hbm.read_latency_cycles`\?/);
    writeFileSync(g, JSON.stringify({ inputs: ['copy.pimg'], axes: { 'grid.h_fifo_depth': [4, 0] } }));
    r = await call(runSim, ['sweep', g, '-o', join(dir, 'typo'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SWP0009.*\$\.axes\.grid\.h_fifo_depth: must be an integer 1..1024 entries, got 0/);
    // values each in range but inconsistent together fail in the run (exit 2): recorded with the diagnostic, once
    writeFileSync(g, JSON.stringify({ inputs: ['copy.pimg'], axes: { 'apm.min_granted_power': [5000, 6000] } }));
    r = await call(runSim, ['sweep', g, '-o', join(dir, 'typo'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SWP0008.*2 of 2 runs failed/);
    const t = rows(join(dir, 'typo'));
    expect(t.length).toBe(2);
    for (const x of t) {
      expect(x.status).toBe('failed');
      expect(x.exit).toBe(2);
      expect(x.diagnostic).toMatch(/must not exceed apm.max_granted_power/);
    }
    r = await call(runSim, ['sweep', g, '-o', join(dir, 'typo'), '--no-progress']);
    expect(r.out).toMatch(/2 runs: 0 ok, 0 failed, 2 already in/);
  }, 30_000);
  it('runs a generator once per parameter value and keys rows by the image it made', async () => {
    const gen = join(dir, 'gen.mjs');
    // writes the copy image under the name the sweep asks for (a real generator would assemble and link)
    writeFileSync(gen, `import { copyFileSync } from 'node:fs'; copyFileSync(${JSON.stringify(join(dir, 'copy.pimg'))}, process.argv[2]);`);
    // the generator runs in the sweep file's directory, so relative names in the command and `image` agree
    const f2 = sweepFile('gen2.json', { generator: { command: [process.execPath, gen, 'img_{N}.pimg'], image: 'img_{N}.pimg', params: { N: [1, 2] } }, axes: { 'noc.latency_cycles': [40] } });
    const r2 = await call(runSim, ['sweep', f2, '-o', join(dir, 'gen2'), '--no-progress']);
    expect(r2.code, r2.err).toBe(0);
    const got = rows(join(dir, 'gen2')).sort((a, b) => a.run - b.run);
    expect(got.map((x) => [x.input, x.params.N])).toEqual([['img_1', 1], ['img_2', 2]]);
    const fail = sweepFile('genfail.json', { generator: { command: [process.execPath, '-e', 'process.exit(4)'], image: 'x.pimg' } });
    const r3 = await call(runSim, ['sweep', fail, '-o', join(dir, 'genfail')]);
    expect(r3.code).toBe(1);
    expect(r3.err).toMatch(/SWP0006.*exited with 4/);
  }, 30_000);
});
