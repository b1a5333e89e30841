/**
 * End to end through the real drivers: samples/xnu assembled, linked and run
 * (`pyxis-as`, `pyxis-ld`, `pyxis-sim run`), results checked against
 * references computed here in float64 / BigInt from the sample vectors, and
 * the printed summaries against samples/xnu/*.expected.txt
 * (PYXIS_UPDATE_GOLDEN=1 rewrites those; review the diff).
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';

const samples = fileURLToPath(new URL('../../../samples/xnu/', import.meta.url));

function capture() {
  let out = '';
  let err = '';
  return { io: { stdout: (s: string) => void (out += s), stderr: (s: string) => void (err += s) }, get out() { return out; }, get err() { return err; } };
}

async function build(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `xnu-${name}-`));
  for (const f of readdirSync(samples)) if (f.endsWith('.npy') || f.startsWith(name)) copyFileSync(join(samples, f), join(dir, f));
  const c = capture();
  expect(await runAs([join(dir, `${name}.xasm`), '-o', join(dir, `${name}.pobj`)], c.io), c.err).toBe(0);
  expect(await runLd([join(dir, `${name}.ld`), join(dir, `${name}.pobj`), '-o', join(dir, `${name}.pimg`)], c.io), c.err).toBe(0);
  return dir;
}

function golden(name: string, text: string): void {
  const file = join(samples, `${name}.expected.txt`);
  if (process.env['PYXIS_UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const f32 = (file: string) => {
  const t = readNpy(readFileSync(file), file);
  return { shape: t.shape, data: Array.from(t.data as Float32Array) };
};

describe('samples/xnu end to end', () => {
  it('waveform.xasm: the spec waveform results, with the cycle table (L2/S-V 75, L1/DOT 67 cycles per beat)', async () => {
    const dir = await build('waveform');
    const c = capture();
    const dumps = ['l2_set1', 'l1_set1', 'dot_set1', 'sv_set1', 'l2_set2', 'l1_set2', 'dot_set2', 'sv_set2'].flatMap((j) => ['--dump', `${j}=${join(dir, `${j}.npy`)}`]);
    expect(await runSim(['run', join(dir, 'waveform.pimg'), '--stats', join(dir, 's.json'), ...dumps], c.io), c.err).toBe(0);
    const got = (j: string) => Array.from(readNpy(readFileSync(join(dir, `${j}.npy`)), j).data as Int32Array);
    // Hand-derived from the waveform inputs (see datapath.test.ts): set 1 / set 2.
    expect([got('l2_set1'), got('l1_set1'), got('dot_set1'), got('sv_set1')]).toEqual([[16640], [-256], [6864], [6864]]);
    expect([got('l2_set2'), got('l1_set2'), got('dot_set2'), got('sv_set2')]).toEqual([[5920], [48], [-480], [-480]]);
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    // Startup once + per job one beat: L2, S-V 1+15+56+2+1 = 75; L1, DOT 1+10+53+2+1 = 67 (spec cycle table).
    expect(s.cycles).toBe(1 + 2 * (75 + 67 + 67 + 75));
    expect(s.phase_cycles).toEqual({ startup: 1, init: 8, operation: 2 * (15 + 10 + 10 + 15), aggregation: 2 * (56 + 53 + 53 + 56), addition: 16, output: 8 });
    expect(s.model).toMatch(/cycle-level.*functional/);
    golden('waveform', c.out);
  });

  it('--dump-all DIR writes every job\'s results (JOB.npy) and top-k (JOB.topk.npy) without one --dump per job', async () => {
    const dir = await build('nn');
    const out = join(dir, 'all');
    mkdirSync(out);
    const c = capture();
    expect(await runSim(['run', join(dir, 'nn.pimg'), '--dump-all', out, '--dump', `nn_l2=${join(dir, 'one.npy')}`], c.io), c.err).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['nn_l1.npy', 'nn_l1.topk.npy', 'nn_l2.npy', 'nn_l2.topk.npy']);
    expect(readFileSync(join(out, 'nn_l2.npy'))).toEqual(readFileSync(join(dir, 'one.npy')));
    const missing = capture();
    expect(await runSim(['run', join(dir, 'nn.pimg'), '--dump-all', join(dir, 'nope')], missing.io)).toBe(1);
    expect(missing.err).toMatch(/IO0002/);
  });

  it('nn.xasm: L2 and |x-y| L1 nearest neighbours match a float64 reference, top-k included', async () => {
    const dir = await build('nn');
    const c = capture();
    const d = (s: string) => ['--dump', `${s}=${join(dir, `${s}.npy`)}`];
    expect(await runSim(['run', join(dir, 'nn.pimg'), ...d('nn_l2'), ...d('nn_l2.topk'), ...d('nn_l1'), ...d('nn_l1.topk')], c.io), c.err).toBe(0);
    const db = f32(join(samples, 'nn_db.npy'));
    const q = f32(join(samples, 'nn_query.npy'));
    const [n, dim] = db.shape as [number, number];
    const l2 = Array.from({ length: n }, (_, i) => q.data.reduce((s, y, k) => s + (db.data[i * dim + k]! - y) ** 2, 0));
    const l1 = Array.from({ length: n }, (_, i) => q.data.reduce((s, y, k) => s + Math.abs(db.data[i * dim + k]! - y), 0));
    // Multiples of 1/16 in [-4, 4]: every partial sum is exact in fp32, so the engine must agree exactly.
    expect(f32(join(dir, 'nn_l2.npy')).data).toEqual(l2);
    expect(f32(join(dir, 'nn_l1.npy')).data).toEqual(l1);
    const top = (v: number[]) => v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]).slice(0, 3).map((p) => p[1]);
    expect(Array.from(readNpy(readFileSync(join(dir, 'nn_l2.topk.npy')), 't').data)).toEqual(top(l2));
    expect(Array.from(readNpy(readFileSync(join(dir, 'nn_l1.topk.npy')), 't').data)).toEqual(top(l1));
    expect(top(l2)[0]).toBe(7); // the query was made near vector 7
    golden('nn', c.out);
  });

  it('pooling.xasm: weighted pooling of embeddings equals sum_j w_j E[j, :]', async () => {
    const dir = await build('pooling');
    const c = capture();
    expect(await runSim(['run', join(dir, 'pooling.pimg'), '--dump', `pool=${join(dir, 'pool.npy')}`], c.io), c.err).toBe(0);
    const e = f32(join(samples, 'pool_embeddings.npy'));
    const w = f32(join(samples, 'pool_weights.npy'));
    const [items, dim] = e.shape as [number, number];
    const want = Array.from({ length: dim }, (_, k) => w.data.reduce((s, wj, j) => s + wj * e.data[j * dim + k]!, 0));
    const got = f32(join(dir, 'pool.npy'));
    expect(got.shape).toEqual([dim]);
    expect(got.data).toEqual(want);
    expect(items).toBe(16);
    golden('pooling', c.out);
  });

  it('--timing rtl uses the controller counter (39 aggregation cycles); trace and VCD carry dbg_fsm', async () => {
    const dir = await build('waveform');
    const c = capture();
    const args = ['run', join(dir, 'waveform.pimg'), '--timing', 'rtl', '--stats', join(dir, 's.json'), '--trace', join(dir, 't.json'), '--vcd', join(dir, 'w.vcd')];
    expect(await runSim(args, c.io), c.err).toBe(0);
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(s.cycles).toBe(1 + 4 * (1 + 15 + 39 + 2 + 1) + 4 * (1 + 10 + 39 + 2 + 1)); // 4 L2/S-V beats, 4 L1/DOT beats
    const trace = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8')) as { traceEvents: Array<{ name: string; ph: string; args?: Record<string, unknown> }> };
    const names = new Set(trace.traceEvents.filter((e) => e.ph === 'X').map((e) => e.name));
    for (const p of ['startup', 'init', 'operation', 'aggregation', 'addition', 'output']) expect(names.has(p)).toBe(true);
    const vcd = readFileSync(join(dir, 'w.vcd'), 'utf8');
    expect(vcd).toMatch(/\$var wire 4 \S+ dbg_fsm \$end/);
    // The first beat's dbg_fsm walk: 9 (startup), 1 (init), 2 (L2), 7 then 8 (aggregation), 10 (final addition), 11 (output).
    const id = /\$var wire 4 (\S+) dbg_fsm/.exec(vcd)![1]!;
    const seq = [...vcd.matchAll(new RegExp(`^b([01]+) ${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'gm'))].map((m) => parseInt(m[1]!, 2));
    expect(seq.slice(0, 8)).toEqual([9, 1, 2, 7, 8, 10, 11, 1]);
  });
});

describe('bad input gets a clear diagnostic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xnu-bad-'));
  async function asm(text: string) {
    const file = join(dir, 'bad.xasm');
    writeFileSync(file, text);
    const c = capture();
    const code = await runAs([file, '-o', join(dir, 'bad.pobj')], c.io);
    return { code, err: c.err };
  }
  it('vector length not a multiple of 16', async () => {
    const r = await asm('.program p pex8 {\n  job op_type=L2, vec_len=20, num_vectors=4\n}\n');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.xasm:2:\d+: error\[XNU0110\]: vec_len 20 is not a positive multiple of 16/);
    expect(existsSync(join(dir, 'bad.pobj'))).toBe(false);
  });
  it('unknown rounding mode', async () => {
    const r = await asm('.program p pex8 {\n  job op_type=DOT, rounding=round_nearest, vec_len=16, num_vectors=4\n}\n');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.xasm:2:\d+: error\[AS0215\]: `round_nearest` is not a value of `rounding`/);
    expect(r.err).toContain('round_near_maxMag');
  });
  it('empty database: num_vectors = 0, and an empty .npy at link time', async () => {
    const r = await asm('.program p pex8 {\n  job op_type=L1, vec_len=16, num_vectors=0\n}\n');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error\[XNU0111\]: num_vectors is 0: the database is empty/);
    const ok = await asm('.program p pex8 {\n  job op_type=L1, vec_len=16, num_vectors=2\n}\n');
    expect(ok.code).toBe(0);
    // An [0, 16] float32 database.
    const hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 16), }";
    const pad = ' '.repeat((64 - ((10 + hdr.length + 1) % 64)) % 64) + '\n';
    const h = Buffer.alloc(10);
    Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(h);
    h.writeUInt16LE(hdr.length + pad.length, 8);
    writeFileSync(join(dir, 'empty.npy'), Buffer.concat([h, Buffer.from(hdr + pad, 'latin1')]));
    copyFileSync(join(samples, 'wave1_y.npy'), join(dir, 'y.npy'));
    writeFileSync(join(dir, 'bad.ld'), 'job p {\n  query = "y.npy";\n  database = "empty.npy";\n}\n');
    const c = capture();
    expect(await runLd([join(dir, 'bad.ld'), join(dir, 'bad.pobj'), '-o', join(dir, 'bad.pimg'), '--target', 'xnu'], c.io)).toBe(1);
    expect(c.err).toMatch(/bad\.ld:3:14: error\[XNU0206\]: database `empty\.npy` is empty/);
  });
  it('a float32 query for an integer job, and a wrong shape', async () => {
    expect((await asm('.program p pex8 { job op_type=DOT, use_int=1, vec_len=16, num_vectors=1 }\n')).code).toBe(0);
    copyFileSync(join(samples, 'pool_weights.npy'), join(dir, 'wf.npy'));
    copyFileSync(join(samples, 'wave1_x.npy'), join(dir, 'x.npy'));
    writeFileSync(join(dir, 'bad2.ld'), 'job p { query = "wf.npy"; database = "x.npy"; }\n');
    const c = capture();
    expect(await runLd([join(dir, 'bad2.ld'), join(dir, 'bad.pobj'), '-o', join(dir, 'bad2.pimg')], c.io)).toBe(1);
    expect(c.err).toMatch(/error\[XNU0203\]: query `wf\.npy` holds float32; a use_int=1 job takes int32/);
  });
  it('an unknown --timing is a usage error (exit 2)', async () => {
    const c = capture();
    expect(await runSim(['run', join(dir, 'nothing.pimg'), '--target', 'xnu', '--timing', 'fast'], c.io)).toBe(2);
  });
});

describe('samples/xnu/errors: each bad program with its exact diagnostic (*.err)', () => {
  const errDir = join(samples, 'errors');
  for (const f of readdirSync(errDir).filter((x) => x.endsWith('.xasm')).sort())
    it(f, async () => {
      const c = capture();
      const out = join(mkdtempSync(join(tmpdir(), 'xnu-err-')), 'x.pobj');
      expect(await runAs([join(errDir, f), '-o', out, '--no-color'], c.io)).toBe(1);
      expect(existsSync(out)).toBe(false);
      const file = join(errDir, f.replace(/\.xasm$/, '.err'));
      // The golden text names the file relative to samples/xnu/errors.
      const err = c.err.split(join(errDir, '/')).join('');
      if (process.env['PYXIS_UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, err);
      expect(err).toBe(readFileSync(file, 'utf8'));
    });
});
