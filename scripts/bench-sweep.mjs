#!/usr/bin/env node
// Runs per second of `pyxis-sim sweep` on a sweep of small runs (the Pyxis copy sample over N HBM read latencies),
// per engine: sequential (--jobs 1), the local pool (--jobs J), and Redis with W workers (BullMQ, a redis-server of
// its own on a free loopback port), next to the reference measured in the same run: one `pyxis-sim run` of the same
// image as a child process (what every run costs at least: node start-up, loading the tools, the simulation).
//
//   node scripts/bench-sweep.mjs [--runs N] [--jobs J] [--workers W] [--no-redis]
//
// Per-job overhead of an engine = its wall time x its concurrency / N - the reference run: the time an engine adds
// to each run (spawning, the table, Redis round trips, polling) on top of the run itself. On a loaded machine the
// figures move together; compare them within one run of this script. Requires `npm run build` (the launchers).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const N = opt('--runs', 24);
const J = opt('--jobs', availableParallelism());
const W = opt('--workers', 2);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (t) => join(root, 'bin', t);
const dir = mkdtempSync(join(tmpdir(), 'pyxis-bench-sweep-'));
const env = { ...process.env, CI: '1', PYXIS_SWEEP_CACHE: join(dir, 'cache') };
const children = [];

function sh(tool, args) {
  const r = spawnSync(process.execPath, [bin(tool), ...args], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}
function timed(fn) {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}
async function timedAsync(fn) {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

try {
  sh('pyxis-as', [join(root, 'samples/pyxis/copy.pasm'), '-o', 'copy.pobj']);
  sh('pyxis-ld', [join(root, 'samples/pyxis/copy.ld'), 'copy.pobj', '-o', 'copy.pimg']);
  const sweep = (name) => {
    const f = join(dir, `${name}.json`);
    writeFileSync(f, JSON.stringify({ inputs: ['copy.pimg'], axes: { 'hbm.read_latency_cycles': { from: 100, to: 100 + N - 1 } } }));
    return f;
  };
  // reference: one run as a child process (median of 5)
  // (the command line every engine runs, runOne.ts; one warm-up first)
  const one = ['run', 'copy.pimg', '--stats', '-', '--no-progress', '--diagnostics-format', 'json', '--set', 'hbm.read_latency_cycles=100'];
  sh('pyxis-sim', one);
  const ref = [0, 1, 2, 3, 4].map(() => timed(() => sh('pyxis-sim', one))).sort((a, b) => a - b)[2];
  const rows = [];
  const report = (engine, conc, wall) => rows.push({ engine, conc, wall, rps: N / wall, overhead: (wall * conc) / N - ref });
  report('sequential (--jobs 1)', 1, timed(() => sh('pyxis-sim', ['sweep', sweep('seq'), '--jobs', '1'])));
  report(`local pool (--jobs ${J})`, J, timed(() => sh('pyxis-sim', ['sweep', sweep('pool'), '--jobs', String(J)])));
  if (!argv.includes('--no-redis')) {
    if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is not installed (apt-get install redis-server), or pass --no-redis');
    const port = await freePort();
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    children.push(redis);
    for (let i = 0; i < 100 && spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() !== 'PONG'; i++) await sleep(50);
    const url = `redis://127.0.0.1:${port}`;
    for (let i = 0; i < W; i++) children.push(spawn(process.execPath, [bin('pyxis-sim'), 'worker', '--queue', url], { cwd: dir, env, stdio: 'ignore' }));
    await sleep(1000); // workers connected
    const wall = await timedAsync(
      () =>
        new Promise((resolve, reject) => {
          const p = spawn(process.execPath, [bin('pyxis-sim'), 'sweep', sweep('redis'), '--queue', url], { cwd: dir, env, stdio: 'ignore' });
          p.on('exit', (c) => (c === 0 ? resolve() : reject(new Error(`sweep --queue exited ${c}`))));
        }),
    );
    report(`Redis, ${W} workers`, W, wall);
  }
  console.log(`bench-sweep: ${N} runs of the copy sample; reference: one \`pyxis-sim run\` as a child process ${(ref * 1000).toFixed(0)} ms (${(1 / ref).toFixed(2)} runs/s)`);
  console.log('engine                      runs/s   wall s   per-job overhead (ms)');
  for (const r of rows) console.log(`${r.engine.padEnd(26)} ${r.rps.toFixed(2).padStart(7)} ${r.wall.toFixed(2).padStart(8)}   ${(r.overhead * 1000).toFixed(0).padStart(8)}`);
  console.log(`(${availableParallelism()} CPUs; a loaded machine slows all rows alike)`);
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
