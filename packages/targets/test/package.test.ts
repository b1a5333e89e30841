/**
 * The installable package (docs/api.md): `npm pack` of the project, installed offline into an empty project, gives
 * `pyxis-as`, `pyxis-ld`, `pyxis-sim` (npx) and the typed JavaScript API (`assemble`, `link`, `simulate` with tensors
 * in and out), type-checked against the package's own `api.d.ts`. Needs the CLI bundle (`npm run build`, which
 * `npm ci` runs); the dependencies the package does not bundle into its code ship inside it (bundleDependencies),
 * so no registry is asked.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pyxis-pack-'));
const proj = join(work, 'proj');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const sh = (cmd: string, args: string[], cwd: string) => spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

beforeAll(() => {
  expect(existsSync(join(root, 'packages/targets/bundle/api.js')), 'the CLI bundle (npm run build)').toBe(true);
  const pack = sh(npm, ['pack', '--pack-destination', work, '--ignore-scripts', '--silent'], root);
  expect(pack.status, pack.stderr).toBe(0);
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  execFileSync('mkdir', ['-p', proj]);
  writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  const inst = sh(npm, ['install', '--offline', '--no-audit', '--no-fund', join(work, tgz)], proj);
  expect(inst.status, inst.stderr).toBe(0);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack, installed in an empty project', () => {
  it('npx pyxis-sim --help, the three tools, --version naming the targets', () => {
    const help = sh('npx', ['--offline', 'pyxis-sim', '--help'], proj);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage: pyxis-sim/);
    for (const t of ['pyxis-as', 'pyxis-ld', 'pyxis-sim']) {
      const v = sh(join(proj, 'node_modules/.bin', t), ['--version'], proj);
      expect(v.stdout).toMatch(new RegExp(`^${t} \\d+\\.\\d+\\.\\d+ \\(targets: pyxis, systolic, xnu, neuroncore\\)\\n$`));
    }
  });

  it('assembles, links and simulates the copy sample with the installed tools', () => {
    for (const f of ['copy.pasm', 'copy.ld', 'copy_src.npy']) copyFileSync(join(root, 'samples/pyxis', f), join(proj, f));
    const bin = (t: string) => join(proj, 'node_modules/.bin', t);
    expect(sh(bin('pyxis-as'), ['copy.pasm', '-o', 'copy.pobj'], proj).status).toBe(0);
    expect(sh(bin('pyxis-ld'), ['copy.ld', 'copy.pobj', '-o', 'copy.pimg'], proj).status).toBe(0);
    const r = sh(bin('pyxis-sim'), ['run', 'copy.pimg', '--compare', 'out_hbm=copy_src.npy'], proj);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/compare out_hbm vs copy_src\.npy: 1024 values, max \|err\| 0\.000.*: ok/);
  });

  it('the typed API: assemble, link with a tensor in, simulate with a tensor out; type-checked against api.d.ts', () => {
    const program = `
import { readFileSync } from 'node:fs';
import { assemble, link, simulate, PyxisError, type Tensor } from 'pyxis-toolchain';
const x = new Float32Array(8 * 128).map((_, i) => ((i % 15) - 7) / 4); // exact in RFP8 at EB -3
const src: Tensor = { dtype: 'float32', shape: [8, 128], data: x };
const obj = await assemble({ source: readFileSync('copy.pasm', 'utf8'), file: 'copy.pasm' });
const img = await link({ script: readFileSync('copy.ld', 'utf8'), scriptFile: 'copy.ld', objects: { 'copy.pobj': obj.object }, tensors: { 'copy_src.npy': src } });
const run = await simulate({ image: img.image, outputs: ['out_hbm'] });
const out = run.outputs['out_hbm']!;
let bad = 0;
for (let i = 0; i < x.length; i++) if (out.data[i] !== x[i]) bad++;
let code = '';
try {
  await assemble({ source: 'Read_SRAM nonsense', file: 'bad.pasm' });
} catch (e) {
  if (e instanceof PyxisError) code = e.diagnostics[0]?.code ?? '?';
}
console.log(JSON.stringify({ stop: run.stop, cycles: run.cycles, shape: out.shape, bad, model: typeof run.stats['engines'], mapTrips: (img.mapJson as { trips: unknown[] }).trips.length, code }));
`;
    writeFileSync(join(proj, 'use.mts'), program);
    const tsc = sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), 'use.mts'], proj);
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    writeFileSync(join(proj, 'use.mjs'), program.replace(', type Tensor', '').replace(': Tensor', '').replace("['out_hbm']!", "['out_hbm']").replace(' as { trips: unknown[] }', '').replace(/catch \(e\)/, 'catch (e)'));
    const r = sh(process.execPath, ['use.mjs'], proj);
    expect(r.status, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout) as { stop: string; cycles: number; shape: number[]; bad: number; mapTrips: number; code: string };
    expect(res).toMatchObject({ stop: 'done', shape: [8, 128], bad: 0, mapTrips: 3 });
    expect(res.cycles).toBeGreaterThan(0);
    expect(res.code).toMatch(/^AS\d{4}$/);
  });
});
