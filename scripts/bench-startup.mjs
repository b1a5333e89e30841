#!/usr/bin/env node
// Start-up time of the tools (CI scripts run them thousands of times), next to
// a reference measured in the same run: `node -e 0`, the floor no tool can beat.
//
//   node scripts/bench-startup.mjs [--runs N] [--pyxis-only] [--root DIR]...
//
// Besides the Pyxis copy sample (start-up to `--version`, assembling, linking,
// simulating), one small sample per other target is assembled and simulated
// (--pyxis-only leaves them out).
// Each --root is a built checkout (default: this one) so several commits can be
// compared in one run on the same machine load: e.g.
//   git worktree add /tmp/base 9607af4 && (cd /tmp/base && npm ci)
//   node scripts/bench-startup.mjs --root /tmp/base --root .
// --dist adds the Pyxis --version and assembly runs with PYXIS_NO_BUNDLE=1
// (the launchers load packages/*/dist instead of the CLI bundle, scripts/bundle.mjs).
// Targets (issue 15, on a machine where `node -e 0` costs 0.12 s): --version at
// most ~70 ms and assembling a small file at most ~270 ms over `node -e 0`.
// Figures are wall-clock milliseconds per process (median and minimum of N
// runs, the commands interleaved so a load spike hits them all alike) and the
// median CPU time (user+sys, 10 ms resolution), which a busy machine disturbs less.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : def;
};
const runs = Number(opt('--runs', '15'));
const pyxisOnly = argv.includes('--pyxis-only');
const withDist = argv.includes('--dist');
const TARGET_OVER = { version: 70, asm: 270 };
const roots = [];
for (let i = 0; i < argv.length; i++) if (argv[i] === '--root') roots.push(resolve(argv[++i]));
if (roots.length === 0) roots.push(fileURLToPath(new URL('..', import.meta.url)));
const out = mkdtempSync(join(tmpdir(), 'pyxis-bench-startup-'));

/**
 * CPU time (user+sys, ms) of the finished children so far: fields 16 and 17
 * (cutime, cstime, in clock ticks of 1/100 s) of /proc/self/stat; 0 where
 * there is no /proc (the wall figures stand alone then).
 */
function childCpuMs() {
  try {
    const text = readFileSync('/proc/self/stat', 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' '); // f[0] is field 3
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return 0;
  }
}

/** One timed process: wall ms and its CPU ms. */
function timeOnce(cmd, args, cwd, env) {
  const before = childCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], ...(env ? { env: { ...process.env, ...env } } : {}) });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  return { wall, cpu: childCpuMs() - before };
}

const cases = [{ label: 'node -e 0 (reference)', root: roots[0], cmd: process.execPath, args: ['-e', '0'] }];
for (const root of roots) {
  const tag = roots.length > 1 ? ` [${root}]` : '';
  // The sample's object and image, made with this checkout's own tools, for the ld and sim figures.
  const k = cases.length;
  const obj = join(out, `copy-${k}.pobj`);
  const img = join(out, `copy-${k}.pimg`);
  timeOnce(process.execPath, ['bin/pyxis-as', 'samples/pyxis/copy.pasm', '-o', obj], root);
  timeOnce(process.execPath, ['bin/pyxis-ld', 'samples/pyxis/copy.ld', obj, '-o', img], root);
  cases.push({ label: `pyxis-as --version${tag}`, root, cmd: process.execPath, args: ['bin/pyxis-as', '--version'], target: TARGET_OVER.version });
  cases.push({ label: `pyxis-as copy.pasm${tag}`, root, cmd: process.execPath, args: ['bin/pyxis-as', 'samples/pyxis/copy.pasm', '-o', join(out, `copy-${k}-as.pobj`)], target: TARGET_OVER.asm });
  if (withDist) {
    const env = { PYXIS_NO_BUNDLE: '1' };
    cases.push({ label: `pyxis-as --help, dist (no bundle)${tag}`, root, cmd: process.execPath, args: ['bin/pyxis-as', '--help'], env });
    cases.push({ label: `pyxis-as --help${tag}`, root, cmd: process.execPath, args: ['bin/pyxis-as', '--help'] });
    cases.push({ label: `pyxis-as copy.pasm, dist (no bundle)${tag}`, root, cmd: process.execPath, args: ['bin/pyxis-as', 'samples/pyxis/copy.pasm', '-o', join(out, `copy-${k}-as-dist.pobj`)], env, target: TARGET_OVER.asm });
  }
  cases.push({ label: `pyxis-ld copy.ld${tag}`, root, cmd: process.execPath, args: ['bin/pyxis-ld', 'samples/pyxis/copy.ld', obj, '-o', join(out, `copy-${k}-ld.pimg`)] });
  cases.push({ label: `pyxis-sim run copy.pimg (570 cycles)${tag}`, root, cmd: process.execPath, args: ['bin/pyxis-sim', 'run', img] });
  if (pyxisOnly) continue;
  // The other targets: assemble one small sample and simulate one small image each
  // (made first with this checkout's tools; a target whose samples this checkout lacks is left out).
  const node = (args, cwd = root) => ({ root: cwd, cmd: process.execPath, args });
  const sys = join(root, 'samples/systolic');
  if (existsSync(join(sys, 'fc.tmodel'))) {
    const sysImg = join(out, `fc-${k}.pimg`);
    timeOnce(process.execPath, [join(root, 'bin/pyxis-ld'), 'fc.tmodel', '-o', sysImg], sys);
    cases.push({ label: `systolic: pyxis-as fc.tasm${tag}`, ...node([join(root, 'bin/pyxis-as'), '--target', 'systolic', '--arch', 'arch4.tarch', 'fc.tasm', '--emit', 'tprog', '-o', join(out, `fc-${k}.tprog`)], sys) });
    cases.push({ label: `systolic: pyxis-sim run fc.pimg${tag}`, ...node([join(root, 'bin/pyxis-sim'), 'run', sysImg, '--input', 'x:0=fc_x.npy'], sys) });
  }
  const xnu = join(root, 'samples/xnu');
  if (existsSync(join(xnu, 'pooling.xasm'))) {
    const xObj = join(out, `pool-${k}.pobj`);
    const xImg = join(out, `pool-${k}.pimg`);
    timeOnce(process.execPath, [join(root, 'bin/pyxis-as'), 'pooling.xasm', '-o', xObj], xnu);
    timeOnce(process.execPath, [join(root, 'bin/pyxis-ld'), 'pooling.ld', xObj, '-o', xImg], xnu);
    cases.push({ label: `xnu: pyxis-as pooling.xasm${tag}`, ...node([join(root, 'bin/pyxis-as'), 'pooling.xasm', '-o', join(out, `pool-${k}-as.pobj`)], xnu) });
    cases.push({ label: `xnu: pyxis-sim run pooling.pimg${tag}`, ...node([join(root, 'bin/pyxis-sim'), 'run', xImg], xnu) });
  }
  const nc = join(root, 'samples/neuroncore');
  if (existsSync(join(nc, 'softmax.ncasm')) && existsSync(join(nc, 'inputs.mjs'))) {
    // softmax's input, written as samples/neuroncore/make-inputs.mjs does (only this one file).
    const ncDir = mkdtempSync(join(out, 'nc-'));
    const { writeNpyFile } = await import(pathToFileURL(join(root, 'packages/container/dist/index.js')).href);
    const { sampleInputs } = await import(pathToFileURL(join(nc, 'inputs.mjs')).href);
    writeNpyFile(join(ncDir, 'softmax_x.npy'), sampleInputs()['softmax_x.npy']);
    copyFileSync(join(nc, 'softmax.ld'), join(ncDir, 'softmax.ld'));
    timeOnce(process.execPath, [join(root, 'bin/pyxis-as'), join(nc, 'softmax.ncasm'), '-o', join(ncDir, 'sm.pobj')], ncDir);
    timeOnce(process.execPath, [join(root, 'bin/pyxis-ld'), 'softmax.ld', 'sm.pobj', '-o', 'sm.pimg'], ncDir);
    cases.push({ label: `neuroncore: pyxis-as softmax.ncasm${tag}`, ...node([join(root, 'bin/pyxis-as'), join(nc, 'softmax.ncasm'), '-o', join(ncDir, 'sm-as.pobj')], ncDir) });
    cases.push({ label: `neuroncore: pyxis-sim run softmax.pimg --timing-only${tag}`, ...node([join(root, 'bin/pyxis-sim'), 'run', join(ncDir, 'sm.pimg'), '--timing-only'], ncDir) });
  }
}

const samples = cases.map(() => []);
for (let i = 0; i < runs; i++) cases.forEach((c, k) => samples[k].push(timeOnce(c.cmd, c.args, c.root, c.env)));
rmSync(out, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ref = median(samples[0].map((s) => s.wall));
const refCpu = median(samples[0].map((s) => s.cpu));
console.log(`start-up, ${runs} runs each (ms: wall median / min, CPU user+sys median; wall and CPU over node -e 0 of this run; target: at most that much over)`);
cases.forEach((c, k) => {
  const walls = samples[k].map((s) => s.wall);
  const med = median(walls);
  const cpu = median(samples[k].map((s) => s.cpu));
  const over = k === 0 ? '' : `  +${(med - ref).toFixed(0).padStart(4)} / cpu +${String(cpu - refCpu).padStart(4)}`;
  const target = c.target === undefined ? '' : `   target +${c.target}: ${med - ref <= c.target ? 'met' : 'MISSED'} (wall)`;
  console.log(`${c.label.padEnd(60)} ${med.toFixed(0).padStart(6)} / ${Math.min(...walls).toFixed(0).padStart(5)}   cpu ${String(cpu).padStart(5)}${over}${target}`);
});
