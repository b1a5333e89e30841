/**
 * Machine parameters (@pyxis/target params.ts, issue 24 / 26): one table per target derived from its config data,
 * `--set` / `--sim-config` validated against it, every effective value recorded in the stats with its source, and
 * timing at non-default values.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { writeContainerFile } from '@pyxis/container';
import { deriveParamTable, resolveParams, paramTree, loadTarget } from '@pyxis/target';
import { runSim } from '@pyxis/targets';
import { copyImage } from './sweep-fixtures.js';
import { call } from './cli-call.js';



const dir = mkdtempSync(join(tmpdir(), 'pyxis-params-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const img = join(dir, 'copy.pimg');
writeContainerFile(img, copyImage());

async function stats(...args: string[]): Promise<Record<string, any>> {
  const r = await call(runSim, ['run', img, '--stats', '-', ...args]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
}

describe('parameter tables', () => {
  it('every target with a machine derives its table from its data; defaults lie in their ranges', async () => {
    for (const name of ['pyxis', 'systolic', 'xnu', 'neuroncore']) {
      const t = await loadTarget(name, 'sim');
      const table = t.machine!.parameters!();
      expect(table.params.length).toBeGreaterThan(3);
      for (const p of table.params) {
        expect(typeof p.spec).toBe('string');
        if (p.type !== 'bool') expect((p.default as number) >= (p.min ?? -Infinity) && (p.default as number) <= (p.max ?? Infinity), p.key).toBe(true);
      }
    }
  });
  it('a leaf without a rule, a rule without a leaf and a default outside its rule are refused', () => {
    const data = { a: { x: 1, y: 2 }, doc: 'text' };
    expect(() => deriveParamTable('t', 'd.json', data, { params: [{ match: 'a.x', type: 'int' }] })).toThrow(/`a.y` of d.json has no parameter rule/);
    expect(() => deriveParamTable('t', 'd.json', data, { params: [{ match: 'a.*', type: 'int' }, { match: 'b', type: 'int' }] })).toThrow(/rule `b` matches no parameter/);
    expect(() => deriveParamTable('t', 'd.json', data, { params: [{ match: 'a.*', type: 'int', max: 1 }] })).toThrow(/default of `a.y`.*integer \.\.1|default of `a.y`/);
    const t = deriveParamTable('t', 'd.json', data, { params: [{ match: 'a.x', type: 'int' }], not_parameters: ['a.y'] });
    expect(t.params.map((p) => p.key)).toEqual(['a.x']);
    // a copy of the defaults file keeps its fixed entries unchanged; changing one is refused
    expect(resolveParams(t, { file: { name: 'f.json', data: { a: { x: 5, y: 2 } } } }).values.get('a.x')).toBe(5);
    expect(() => resolveParams(t, { file: { name: 'f.json', data: { a: { y: 3 } } } })).toThrow(/\$\.a\.y: `a.y` is not a parameter/);
    // the tree keeps the file's shape, and `{ value }` objects keep theirs
    const v = deriveParamTable('t', 'v.json', { c: { K: { value: 4, unit: 'x' } } }, { params: [{ match: 'c.K', type: 'int', min: 1 }] });
    expect(paramTree(resolveParams(v, { sets: ['c.K=9'] }), { c: { K: { value: 4, unit: 'x' } } })).toEqual({ c: { K: { value: 9, unit: 'x' } } });
  });
});

describe('pyxis-sim run --set / --sim-config', () => {
  it('records every effective parameter and its source (default, file, set, option)', async () => {
    const file = join(dir, 'p.json');
    writeFileSync(file, JSON.stringify({ hbm: { write_latency_cycles: 150 }, 'noc.latency_cycles': 41 }));
    const s = await stats('--sim-config', file, '--set', 'hbm.read_latency_cycles=250', '--set', 'noc.latency_cycles=42', '--clock-hz', '1e9');
    const p = s['parameters'];
    expect(p['hbm.read_latency_cycles']).toEqual({ value: 250, source: 'set' });
    expect(p['hbm.write_latency_cycles']).toEqual({ value: 150, source: 'file' });
    expect(p['noc.latency_cycles']).toEqual({ value: 42, source: 'set' });
    expect(p['clock_hz']).toEqual({ value: 1e9, source: 'option' });
    expect(p['grid.h_fifo_depth']).toEqual({ value: 4, source: 'default' });
    expect(p['uie.vpu_fifo_depth'].source).toBe('default');
    // every parameter of the table is there
    const t = await loadTarget('pyxis', 'sim');
    expect(Object.keys(p).sort()).toEqual(t.machine!.parameters!().params.map((x) => x.key).sort());
  });
  it('HBM and AMEM commit latencies move the copy by exactly their change', async () => {
    const base = (await stats())['cycles'] as number;
    const d = (await stats())['parameters'];
    const rd = d['hbm.read_latency_cycles'].value as number;
    const wr = d['hbm.write_latency_cycles'].value as number;
    const cm = d['amem.write_commit_latency_cycles'].value as number;
    // H2A pays one HBM read latency and one AMEM write commit, A2H one HBM write latency; the three steps are
    // serial (barrier), so a change of each latency adds to the total one for one (docs/timing-model.md)
    expect((await stats('--set', `hbm.read_latency_cycles=${rd + 37}`))['cycles']).toBe(base + 37);
    expect((await stats('--set', `hbm.write_latency_cycles=${wr + 11}`))['cycles']).toBe(base + 11);
    expect((await stats('--set', `hbm.read_latency_cycles=${rd - 150}`, '--set', `amem.write_commit_latency_cycles=${cm + 5}`))['cycles']).toBe(base - 150 + 5);
  });
  it('an unknown key gets did-you-mean and exit 2; a value outside its range or of the wrong type exit 2 with the range', async () => {
    let r = await call(runSim, ['run', img, '--set', 'hbm.read_latency=3']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown parameter `hbm.read_latency` of target pyxis; did you mean `hbm.read_latency_cycles`\?/);
    r = await call(runSim, ['run', img, '--set', 'read_latency_cycles=3']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/did you mean `hbm.read_latency_cycles` or `amem.read_latency_cycles`/);
    r = await call(runSim, ['run', img, '--set', 'uie.vpu_fifo_depth=0']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/uie.vpu_fifo_depth: must be an integer 1..1024 entries, got 0/);
    r = await call(runSim, ['run', img, '--set', 'grid.h_fifo_depth=2.5']);
    expect(r.code).toBe(2);
    r = await call(runSim, ['run', img, '--set', 'apm.enabled=maybe']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/boolean/);
    r = await call(runSim, ['run', img, '--set', 'novalue']);
    expect(r.code).toBe(2);
    r = await call(runSim, ['run', img, '--set', 'apm.min_granted_power=5000']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/apm.min_granted_power \(5000\) must not exceed apm.max_granted_power/);
  });
  it('a parameter file names the JSON path of a bad entry; a file that is not JSON is CLI0020 with its line', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ grid: { h_fifo_depht: 2 } }));
    let r = await call(runSim, ['run', img, '--sim-config', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\$\.grid\.h_fifo_depht: unknown parameter.*did you mean `grid.h_fifo_depth`/);
    writeFileSync(bad, JSON.stringify({ hbm: { read_latency_cycles: -1 } }));
    r = await call(runSim, ['run', img, '--sim-config', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\$\.hbm\.read_latency_cycles: .*integer 0..1e6 cycles, got -1/);
    writeFileSync(bad, '{\n  "hbm": {,\n}');
    r = await call(runSim, ['run', img, '--sim-config', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/CLI0020/);
    expect(r.err).toMatch(/bad\.json:2:/);
    // 100,000 nested objects: an unknown key cut at 32 levels (exit 2), not a stack overflow (it was exit 3)
    writeFileSync(bad, '{"hbm":'.repeat(100_000) + '1' + '}'.repeat(100_000));
    r = await call(runSim, ['run', img, '--sim-config', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`$.${Array(32).fill('hbm').join('.')}: unknown parameter`);
    expect(r.err).not.toMatch(/internal error|call stack/);
    // a full copy of the shipped file is accepted as it is
    r = await call(runSim, ['run', img, '--sim-config', join(__dirname, '../../../grammars/pyxis/sim_config.json')]);
    expect(r.code, r.err).toBe(0);
  });
  it('pyxis-sim params lists the table', async () => {
    const r = await call(runSim, ['params', '--target', 'systolic', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).some((p: { key: string }) => p.key === 'dram_latency_cycles')).toBe(true);
  });
});

describe('other targets at non-default parameters', () => {
  const root = join(__dirname, '../../../');
  it('systolic: decode_cycles is paid once per instruction (docs/timing-model.md "## systolic")', async () => {
    const run = async (...a: string[]) => {
      const r = await call(runSim, ['run', join(root, 'samples/systolic/fc.tmodel'), '--stats', '-', ...a]);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out);
    };
    const base = await run();
    const d0 = base.parameters['decode_cycles'].value as number;
    const s = await run('--set', `decode_cycles=${d0 + 5}`);
    expect(s.parameters['decode_cycles']).toEqual({ value: d0 + 5, source: 'set' });
    expect(s.cycles).toBe(base.cycles + 5 * base.instructions);
    // the clock converts cycles to seconds and nothing else
    const c = await run('--set', 'clock_hz=2e8');
    expect(c.cycles).toBe(base.cycles);
    expect(c.seconds).toBeCloseTo(base.cycles / 2e8, 15);
  });
  it('xnu: a phase of the cycle table costs its change once per beat of every job of that op_type', async () => {
    const as = (await import('@pyxis/targets')).runAs;
    const ld = (await import('@pyxis/targets')).runLd;
    const obj = join(dir, 'nn.pobj');
    const img2 = join(dir, 'nn.pimg');
    expect((await call(as, [join(root, 'samples/xnu/nn.xasm'), '-o', obj])).code).toBe(0);
    expect((await call(ld, [join(root, 'samples/xnu/nn.ld'), obj, '-o', img2])).code).toBe(0);
    const run = async (...a: string[]) => {
      const r = await call(runSim, ['run', img2, '--stats', '-', ...a]);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out);
    };
    const base = await run();
    // beats of a job: num_vectors x vec_len / 16 (16 elements per beat: 8 PEs x 2, xnu spec, docs/xnu.md)
    const beats = (op: string) => base.jobs.filter((j: any) => j.op_type === op).reduce((n: number, j: any) => n + (j.num_vectors * j.vec_len) / 16, 0);
    expect(beats('L2')).toBeGreaterThan(0);
    expect(beats('L1')).toBeGreaterThan(0);
    const agg = base.parameters['cycles.L2.aggregation'].value as number;
    const op1 = base.parameters['cycles.L1.operation'].value as number;
    const s = await run('--set', `cycles.L2.aggregation=${agg + 3}`, '--set', `cycles.L1.operation=${op1 + 7}`);
    expect(s.cycles).toBe(base.cycles + 3 * beats('L2') + 7 * beats('L1'));
    // a copy of the defaults file (parameters under `meta`, field tables beside them) is a valid parameter file
    const copy = await run('--sim-config', join(root, 'grammars/xnu/pex8_fsm.json'));
    expect(copy.cycles).toBe(base.cycles);
    expect(copy.parameters['cycles.L2.aggregation'].source).toBe('file');
  });
  it('neuroncore: the DMA transfer overhead adds to an HBM->SBUF copy once (its transfers run in parallel)', async () => {
    const t = await loadTarget('neuroncore', 'sim');
    const keys = t.machine!.parameters!().params.map((p) => p.key);
    expect(keys).not.toContain('cost.PE_ROWS'); // geometry: fixed
    writeFileSync(join(dir, 'd.ncasm'), '.tensor X hbm fp32 [128, 512]\n.tensor x sbuf fp32 [128, 512]\ndma.copy x, X\n');
    writeFileSync(join(dir, 'd.ld'), 'tensor X { zero = true; }\n');
    const { runAs, runLd } = await import('@pyxis/targets');
    expect((await call(runAs, [join(dir, 'd.ncasm'), '-o', join(dir, 'd.pobj')])).code).toBe(0);
    expect((await call(runLd, [join(dir, 'd.ld'), join(dir, 'd.pobj'), '-o', join(dir, 'd.pimg')])).code).toBe(0);
    const ticks = async (...a: string[]) => {
      const r = await call(runSim, ['run', join(dir, 'd.pimg'), '--timing-only', '--stats', '-', ...a]);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out) as { ticks: number; tick_ghz: number; parameters: Record<string, { value: number }> };
    };
    const base = await ticks();
    const o = base.parameters['cost.DMA_TRANSFER_OVERHEAD_NS']!.value;
    // the copy is split over at most 16 queues that start together: one overhead more per transfer moves the end by
    // the overhead once; 500 ns is a whole number of 5.6 GHz ticks (no rounding)
    const s2 = await ticks('--set', `cost.DMA_TRANSFER_OVERHEAD_NS=${o + 500}`);
    expect(s2.ticks).toBe(base.ticks + 500 * base.tick_ghz);
  });
});
