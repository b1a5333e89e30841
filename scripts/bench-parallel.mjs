#!/usr/bin/env node
/**
 * Parallel-run benchmark (issue 22; not a test): the same partitioned workload run
 *   - as ONE Simulator (every engine in one kernel, plain links): the single-thread reference of this build, this run;
 *   - with runThreaded at 1 thread (the partitions in windows on the calling thread: the cost of the windows alone),
 *     2 threads, and 4 / 8 where the host has the cores (--threads LIST overrides),
 * and checks that every run gives the reference's cycles, per-engine statistics and results. Figures: wall seconds
 * (the threads run concurrently, so CPU time of this process would not show a speed-up), simulated cycles per host
 * second, speed-up over the reference, the runner's parallel efficiency, windows and cross messages. The host's
 * load average is printed: on a shared machine the figures move with it.
 *
 * Workload: scripts/parallel/synthetic.mjs (Pyxis-free): --parts P partitions of --engines E engines doing --macs M
 * multiply-adds per cycle for --cycles C cycles, a courier per partition sending every --every cycles over a cross
 * link of latency --lat cycles (the lookahead) to the next partition.
 * System part (--chips N, default 8; --rows R, default 2048; --system-threads LIST): an N-chip Pyxis system whose
 * chips each run the busy 48-UIE copy image of bench-sim.mjs (scripts/parallel/system.mjs), in process (the system
 * runner's single-thread path, the reference) and with the chips on threads (the calling thread and N - 1 workers),
 * each configuration in a fresh process; skipped, and said so, when the system runner is not in this build.
 * --psys FILE.psys runs a linked system instead (e.g. an 8-chip collective of scripts/gen-collective.mjs).
 * --skip-synthetic / --skip-system run one part only.
 * Chip part (--chip-image busy48|FILE.pimg; --chip-rows R, default 262144; --chip-rows-long R2: each configuration
 * also at R2 rows, and the marginal rate between the two lengths, in which start-up and JIT warm-up cancel out;
 * --chip-clusters K, default 4: busy48 cut
 * to its first K clusters (1: the single-thread path); --chip-threads LIST; --chip-apm on|off, default off;
 * --chip-worker bundle|dist, default the bundled worker when `npm run build` made it, as the CLI uses; --chip-early
 * on|off, default on: the bundled workers start first thing in the process, as the CLI's launcher starts them for
 * `--threads N`): ONE chip whose
 * clusters are partitions run from a work queue (sim/parallel/threadedChip.ts, kernel queued.ts): the plain
 * single-Simulator run (simulateImage, the reference) and runChipThreaded at 1 and 2 threads (4 where the host has
 * the cores), each in a fresh process, results compared (report but kernel_steps); printed: a worker's start-up alone,
 * and per thread when it took its first partition, its build and simulate time, which thread ran which partition.
 * Each threaded line ends with the ratio the CPU times allow with free cores (cpuBound: the reference's calling thread
 * over the threaded run's CPU per core), which the machine's load moves much less than the wall ratio.
 * --chip-ceiling also runs two processes of half the clusters each at the same time: what two cores give this work
 * on this machine with no runner at all (memory bandwidth, caches and the host's scheduling included). busy48 requests TripPower 1 on 48 UIEs (48 > apm.min_granted_power 32: the APM could
 * throttle the whole chip, so with APM on its clusters are coupled and the run stays in one partition, said so).
 * With --chip-image only the chip part runs.
 * Build first: npx tsc -b
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runThreaded } from '../packages/sim/dist/index.js';
import { buildSynthetic } from './parallel/synthetic.mjs';

const { values: a } = parseArgs({
  options: {
    parts: { type: 'string', default: '4' },
    engines: { type: 'string', default: '12' },
    macs: { type: 'string', default: '64' },
    cycles: { type: 'string', default: '40000' },
    every: { type: 'string', default: '50' },
    lat: { type: 'string', default: '1000' },
    threads: { type: 'string' },
    reps: { type: 'string', default: '1' },
    chips: { type: 'string', default: '8' },
    rows: { type: 'string', default: '2048' },
    'system-threads': { type: 'string' },
    'system-run': { type: 'string' },
    psys: { type: 'string' },
    'skip-synthetic': { type: 'boolean', default: false },
    'skip-system': { type: 'boolean', default: false },
    'chip-image': { type: 'string' },
    'chip-rows': { type: 'string', default: '262144' },
    'chip-rows-long': { type: 'string' },
    'chip-clusters': { type: 'string', default: '4' },
    'chip-threads': { type: 'string' },
    'chip-apm': { type: 'string', default: 'off' },
    'chip-run': { type: 'string' },
    'chip-worker': { type: 'string' },
    'chip-ceiling': { type: 'boolean', default: false },
    'chip-early': { type: 'string', default: 'on' },
  },
});
const w = { parts: +a.parts, engines: +a.engines, macs: +a.macs, cycles: +a.cycles, every: +a.every, lat: +a.lat };
const cores = availableParallelism();
const threadList = a.threads ? a.threads.split(',').map(Number) : [1, 2, ...[4, 8].filter((n) => n <= cores && n <= w.parts)];
const MODULE = new URL('./parallel/synthetic.mjs', import.meta.url).href;
/** The partition worker as one file (scripts/bundle.mjs; the CLI uses it when its bundle is fresh). */
const BUNDLED_WORKER = new URL('../packages/targets/bundle/partitionWorker.js', import.meta.url);
/** CPU seconds the whole machine spent outside idle (/proc/stat; USER_HZ 100): minus this process's, what others took. */
function machineBusy() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (f.reduce((x, y) => x + y, 0) - f[3] - f[4]) / 100;
  } catch {
    return NaN;
  }
}
const byName = (s) => [...s].sort((x, y) => x.name.localeCompare(y.name));
const sortK = (c) => [...c].sort((x, y) => x[0] - y[0]).map((x) => x.slice(0, 3));

if (a['chip-image']) await chip();
else {
  if (!a['skip-synthetic']) await synthetic();
  if (!a['skip-system']) await system();
}

async function chip() {
  // Every configuration runs in a fresh node process (`--chip-run ref|N`), as the CLI does: no run profits from code
  // another one compiled, and each pays its own start-up.
  if (a['chip-run']) return chipRun(a['chip-run']);
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const rows = +a['chip-rows'];
  const file = a['chip-image'];
  const list = a['chip-threads'] ? a['chip-threads'].split(',').map(Number) : [1, 2, ...[4].filter((n) => n <= cores)];
  const { existsSync } = await import('node:fs');
  const worker = a['chip-worker'] ?? (existsSync(BUNDLED_WORKER) ? 'bundle' : 'dist');
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  const nc = +a['chip-clusters'];
  console.log(`bench-parallel: one chip, ${file === 'busy48' ? `busy48 (${nc < 4 ? `the first ${nc} cluster${nc === 1 ? '' : 's'}: ${nc * 12}` : 48} UIEs x ${rows} rows)` : file}, APM ${a['chip-apm']}; host ${cores} cores, load average ${load()}; each run in a fresh process; worker entry: ${worker === 'bundle' ? 'the bundled one (packages/targets/bundle/partitionWorker.js)' : 'packages/sim/dist'}`);
  const run = (what, n = rows) => {
    const args = [fileURLToPath(import.meta.url), '--chip-image', file, '--chip-rows', String(n), '--chip-clusters', a['chip-clusters'], '--chip-apm', a['chip-apm'], '--chip-worker', worker, '--chip-early', a['chip-early'], '--chip-run', what];
    const r = spawnSync(process.execPath, [...process.execArgv, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`bench-parallel --chip-run ${what} failed:\n${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop());
  };
  const ws = run('worker');
  console.log(`  worker start-up alone (start a worker, load its entry and @pyxis/target-pyxis/parallel): ${ws.ms.toFixed(0)} ms`);
  const ref = run('ref');
  const rate = (s) => `${(ref.cycles / s / 1e3).toFixed(1)} k chip-cycles/s`;
  // per thread: the calling thread, the workers (ended by then), V8's pool (TurboFan's concurrent compiles, GC helpers)
  const tc = (t) => (t ? ` = calling thread ${t.main.toFixed(2)} + worker threads ${t.ended.toFixed(2)} + V8/libuv pool ${t.pool.toFixed(2)}` : '');
  const line = (r) => `${r.s.toFixed(3)} s  ${rate(r.s)}  (${r.cpu.toFixed(2)} CPU-s of all threads${tc(r.threadsCpu)}, other processes ${r.others.toFixed(2)} CPU-s meanwhile`;
  console.log(`  one Simulator (reference)   ${line(ref)}; ${ref.cycles} cycles; the simulation ${(ref.simMs / 1000).toFixed(2)} s, ${(ref.simCpuMs / 1000).toFixed(2)} CPU-s of its thread)`);
  if (a['chip-ceiling'] && nc % 2 === 0) {
    // The machine's own ceiling for two threads: two processes, each half the clusters, at the same time (no shared
    // heap, no coordination): what two cores give this workload here, whatever the runner does.
    const { spawn } = await import('node:child_process');
    const half = (k) =>
      new Promise((res, rej) => {
        const c = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--chip-image', file, '--chip-rows', String(rows), '--chip-clusters', String(nc / 2), '--chip-apm', a['chip-apm'], '--chip-run', 'ref'], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        c.stdout.on('data', (d) => (out += d));
        c.on('exit', (code) => (code === 0 ? res(JSON.parse(out.trim().split('\n').pop())) : rej(new Error(`half ${k} failed`))));
      });
    const t0 = performance.now();
    const [h0, h1] = await Promise.all([half(0), half(1)]);
    const s2 = (performance.now() - t0) / 1000;
    console.log(`  ceiling: two processes of ${nc / 2} clusters each, at the same time   ${s2.toFixed(3)} s (${h0.s.toFixed(3)} / ${h1.s.toFixed(3)} s, ${(h0.cpu + h1.cpu).toFixed(2)} CPU-s, other processes ${Math.max(h0.others - h1.cpu, 0).toFixed(2)} CPU-s meanwhile)  x${(ref.s / s2).toFixed(2)} vs reference: what two cores give this work on this machine`);
  }
  let ok = true;
  // --chip-rows-long R: every configuration also runs at R rows; the marginal rate (the extra cycles over the extra
  // wall time) is the rate once the run is under way: process start, module loading, the plan, a worker's start-up and
  // each isolate's first compilation of the hot code are paid in both lengths and cancel out.
  const long = a['chip-rows-long'] ? +a['chip-rows-long'] : 0;
  const refLong = long ? run('ref', long) : null;
  const marginal = (short, lng) => (lng.cycles - short.cycles) / (lng.s - short.s);
  if (refLong) console.log(`  one Simulator at ${long} rows   ${refLong.s.toFixed(3)} s; ${refLong.cycles} cycles; marginal rate ${(marginal(ref, refLong) / 1e3).toFixed(1)} k chip-cycles/s`);
  for (const threads of list) {
    const r = run(String(threads));
    const same = r.report === ref.report;
    ok &&= same;
    const p = r.parallel;
    const f = (x) => (x / 1000).toFixed(2);
    const detail = !p
      ? `one partition: ${r.note}`
      : p.schedule === 'queue'
        ? `threads used ${p.threads}, ${p.partitions} partitions from a work queue, queue run ${(p.wallMs / 1000).toFixed(3)} s, before it (plan) ${(r.s - p.wallMs / 1000 - r.mergeS).toFixed(3)} s, efficiency ${(p.efficiency * 100).toFixed(0)}%; per thread: first partition after ${p.hostStartMs.map(f).join('/')} s, building ${p.hostBuildMs.map(f).join('/')} s, simulating ${p.hostBusyMs.map(f).join('/')} s, CPU of the thread for both ${p.hostCpuMs.map(f).join('/')} s; partitions ran on threads ${p.partThreads.join(',')}`
        : `threads used ${p.threads}, ${p.partitions} partitions, windowed run ${(p.wallMs / 1000).toFixed(3)} s, before it (plan, worker start, build) ${(r.s - p.wallMs / 1000 - r.mergeS).toFixed(3)} s, efficiency ${(p.efficiency * 100).toFixed(0)}%, ${p.windows} windows`;
    console.log(`  clusters on --threads ${String(threads).padEnd(3)} ${line(r)}; ${detail})  x${(ref.s / r.s).toFixed(2)} vs reference  ${same ? 'identical' : 'RESULTS DIFFER'}${cpuBound(ref, r, threads)}`);
    if (refLong) {
      const rl = run(String(threads), long);
      ok &&= rl.report === refLong.report;
      console.log(`  --threads ${threads} at ${long} rows   ${rl.s.toFixed(3)} s  x${(refLong.s / rl.s).toFixed(2)} vs reference  ${rl.report === refLong.report ? 'identical' : 'RESULTS DIFFER'}; marginal rate ${(marginal(r, rl) / 1e3).toFixed(1)} k chip-cycles/s = x${(marginal(r, rl) / marginal(ref, refLong)).toFixed(2)} the reference's marginal rate${cpuBound(refLong, rl, threads)}`);
    }
  }
  console.log(`  load average at the end ${load()}`);
  if (!ok) {
    console.error('bench-parallel: a cluster-partitioned run differs from the reference');
    process.exit(1);
  }
}

/**
 * The wall ratio to expect with free cores, from CPU time alone (it moves much less with the machine's load than wall
 * time): on a free machine the reference's wall time is its calling thread's CPU (it never waits; V8's background
 * compilation runs on the other core), and a threaded run's is at least its CPU over the cores it can use and at least
 * its busiest thread's. An estimate (an upper one for the threaded side) if each thread's CPU stays what it was here.
 */
function cpuBound(ref, r, threads) {
  const one = ref.threadsCpu;
  const many = r.threadsCpu;
  const used = r.parallel?.threads ?? 1;
  if (!one || !many || used < 2) return '';
  const coresUsed = Math.min(used, cores);
  // the workers ended before the figures were read: their CPU is one sum (ended), split evenly here
  const floor = Math.max(many.total / coresUsed, many.main, many.ended / (used - 1));
  return `  [CPU estimate with ${coresUsed} free cores: at most x${(one.main / floor).toFixed(2)}]`;
}

/** One configuration of the chip part, in this (fresh) process: prints one JSON line. */
async function chipRun(what) {
  if (what === 'worker') {
    const { Worker } = await import('node:worker_threads');
    const t0 = performance.now();
    await new Promise((res, rej) => {
      const entry = a['chip-worker'] === 'bundle' ? `import(${JSON.stringify(BUNDLED_WORKER.href)})` : `Promise.all([import(${JSON.stringify(new URL('../packages/sim/dist/kernel/partitionWorker.js', import.meta.url).href)}), import('@pyxis/target-pyxis/parallel')])`;
      const w = new Worker(`${entry}.then(() => require('node:worker_threads').parentPort.postMessage(1));`, { eval: true, workerData: { preload: [] } });
      w.once('message', () => w.terminate().then(res));
      w.once('error', rej);
    });
    console.log(JSON.stringify({ ms: performance.now() - t0 }));
    return;
  }
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const m0 = machineBusy();
  // as the CLI's launcher does for `pyxis-sim run --threads N` (packages/targets/src/launch.ts): the workers start
  // before anything else loads (--chip-early off: when the run itself starts them)
  if (what !== 'ref' && a['chip-worker'] === 'bundle' && a['chip-early'] !== 'off') (await import('../packages/targets/dist/launch.js')).startEarlyWorkers(['run', '--threads', what], BUNDLED_WORKER);
  const { readContainer } = await import('../packages/container/dist/index.js');
  const sim = await import('../packages/target-pyxis/dist/sim/index.js');
  const par = await import('../packages/target-pyxis/dist/sim/parallel/index.js');
  const file = a['chip-image'] === 'busy48' ? 'busy48.pimg' : a['chip-image'];
  const bytes = a['chip-image'] === 'busy48' ? (await import('./parallel/system.mjs')).busyCopyImageBytes(+a['chip-rows'], +a['chip-clusters']) : readFileSync(file);
  const container = readContainer(bytes, file);
  const config = sim.loadSimConfig();
  config.apm.enabled = a['chip-apm'] === 'on';
  const uieFactory = sim.makeUieFactory({});
  let report;
  let extra = {};
  if (what === 'ref') {
    const { threadCpuMs } = await import('../packages/sim/dist/index.js');
    const c = threadCpuMs();
    const w = performance.now();
    report = sim.simulateImage(container, file, { config, uieFactory }).report;
    extra = { simMs: performance.now() - w, simCpuMs: threadCpuMs() - c };
  }
  else {
    const r = await par.runChipThreaded(container, file, { config, uieFactory, threads: +what, ...(a['chip-worker'] === 'bundle' ? { workerUrl: BUNDLED_WORKER } : {}) });
    const m = performance.now();
    report = r.report;
    const p = r.parallel;
    extra = { note: r.note, parallel: p && { threads: p.threads, partitions: p.parts.length, wallMs: p.wallMs, efficiency: p.efficiency, windows: p.windows, schedule: p.schedule, hostStartMs: p.hostStartMs, hostBuildMs: p.hostBuildMs, hostBusyMs: p.hostBusyMs, hostCpuMs: p.hostCpuMs, partThreads: p.parts.map((x) => x.thread) }, mergeAt: m };
  }
  const s = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(c0);
  const cpu = (cu.user + cu.system) / 1e6;
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256').update(JSON.stringify({ ...report, kernel_steps: 0 })).digest('hex');
  const mergeS = extra.mergeAt ? (performance.now() - extra.mergeAt) / 1000 : 0;
  const { threadsCpu } = await import('./parallel/taskCpu.mjs');
  console.log(JSON.stringify({ s, cpu, others: machineBusy() - m0 - cpu, cycles: report.cycles, report: hash, mergeS, threadsCpu: threadsCpu(), ...extra }));
}

async function synthetic() {
console.log(`bench-parallel: ${w.parts} partitions x ${w.engines} engines x ${w.macs} MAC/cycle, ${w.cycles} cycles, lookahead ${w.lat} cycles; host ${cores} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);

function reference() {
  const b = buildSynthetic({ ...w, me: 0, all: true });
  const t0 = performance.now();
  const r = b.sim.run();
  const s = (performance.now() - t0) / 1000;
  return { s, cycles: r.cycles, stats: byName(b.sim.engineStats()), collected: sortK(b.collect()) };
}

const reps = +a.reps;
let ref = reference();
for (let i = 1; i < reps; i++) {
  const r = reference();
  if (r.s < ref.s) ref = r;
}
const rate = (s) => `${((ref.cycles / s) / 1e3).toFixed(1)} k cycles/s`;
console.log(`  one Simulator (reference)   ${ref.s.toFixed(3)} s  ${rate(ref.s)}`);
let ok = true;
for (const threads of threadList) {
  let best = null;
  for (let i = 0; i < reps; i++) {
    const specs = Array.from({ length: w.parts }, (_, me) => ({ name: `p${me}`, module: MODULE, builder: 'buildSynthetic', args: { ...w, me } }));
    const t0 = performance.now();
    const r = await runThreaded(specs, { threads });
    const s = (performance.now() - t0) / 1000; // includes starting the workers and building the partitions in them
    if (!best || s < best.s) best = { s, r };
  }
  const { s, r } = best;
  const same = r.cycles === ref.cycles && JSON.stringify(byName(r.parts.flatMap((p) => p.stats))) === JSON.stringify(ref.stats) && JSON.stringify(sortK(r.parts.flatMap((p) => p.collected))) === JSON.stringify(ref.collected);
  ok &&= same;
  console.log(
    `  runThreaded --threads ${String(threads).padEnd(3)} ${s.toFixed(3)} s  ${rate(s)}  x${(ref.s / s).toFixed(2)} vs reference  ` +
      `(threads used ${r.threads}, efficiency ${(r.efficiency * 100).toFixed(0)}%, ${r.windows} windows, ${r.crossMessages} cross messages, wait ${r.hostWaitMs.map((x) => x.toFixed(0)).join('/')} ms)  ${same ? 'identical' : 'RESULTS DIFFER'}${r.note ? `  [${r.note}]` : ''}`,
  );
}
if (!ok) {
  console.error('bench-parallel: a threaded run differs from the reference');
  process.exit(1);
}
}

async function system() {
  // Every configuration runs in a fresh node process (`--system-run ref|N`), as the chip part: no run profits from
  // code another one compiled (an earlier version ran them in one process: the reference, first, paid the compilation
  // for all of them).
  if (a['system-run']) return systemRun(a['system-run']);
  try {
    await import('../packages/target-pyxis/dist/sim/fabric/systemRun.js');
  } catch (e) {
    console.log(`bench-parallel: no system runner in this build (${e.code ?? e.message}); system part skipped`);
    return;
  }
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const pass = ['--chips', a.chips, '--rows', a.rows, ...(a.psys ? ['--psys', a.psys] : [])];
  const run = (what) => {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--skip-synthetic', ...pass, '--system-run', what], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`bench-parallel --system-run ${what} failed:\n${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop());
  };
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  const ref = run('ref');
  const chips = ref.chips;
  const list = a['system-threads'] ? a['system-threads'].split(',').map(Number) : [1, 2, ...[4, 8].filter((n) => n <= cores && n <= chips)];
  console.log(`bench-parallel: ${ref.what}; host ${cores} cores, load average ${load()}; each run in a fresh process`);
  const rate = (s) => `${((ref.cycles * chips) / s / 1e3).toFixed(1)} k chip-cycles/s`;
  const cpu = (r) => `${r.cpu.toFixed(2)} CPU-s of all threads, other processes ${r.others.toFixed(2)} CPU-s meanwhile`;
  console.log(`  in process (reference)      ${ref.s.toFixed(3)} s  ${rate(ref.s)}  (${cpu(ref)}; ${ref.cycles} cycles, ${ref.windows} windows, ${ref.crossMessages} cross messages)`);
  let ok = true;
  for (const threads of list) {
    const r = run(String(threads));
    const same = r.hash === ref.hash;
    ok &&= same;
    const p = r.parallel;
    console.log(
      `  chips on --threads ${String(threads).padEnd(3)}   ${r.s.toFixed(3)} s  ${rate(r.s)}  x${(ref.s / r.s).toFixed(2)} vs reference  (${cpu(r)}; threads used ${p.threads}, efficiency ${(p.efficiency * 100).toFixed(0)}%, ${p.windows} windows, wait ${p.hostWaitMs.map((x) => x.toFixed(0)).join('/')} ms)  ${same ? 'identical' : 'RESULTS DIFFER'}`,
    );
  }
  console.log(`  load average at the end ${load()}`);
  if (!ok) {
    console.error('bench-parallel: a threaded system run differs from the reference');
    process.exit(1);
  }
}

/** One configuration of the system part, in this (fresh) process: prints one JSON line. */
async function systemRun(what) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const m0 = machineBusy();
  const mods = {
    run: await import('../packages/target-pyxis/dist/sim/fabric/systemRun.js'),
    sys: await import('../packages/target-pyxis/dist/sim/fabric/system.js'),
    par: await import('../packages/target-pyxis/dist/sim/parallel/index.js'),
    uie: await import('../packages/target-pyxis/dist/sim/uieDefault.js'),
    img: await import('./parallel/system.mjs'),
  };
  let chips = +a.chips;
  const rows = +a.rows;
  let sys;
  let inputs;
  let whatRun;
  if (a.psys) {
    const { readContainer } = await import('../packages/container/dist/index.js');
    const { readFileSync } = await import('node:fs');
    const { readSystemContainer } = await import('../packages/target-pyxis/dist/sim/fabric/systemImage.js');
    const s = readSystemContainer(readContainer(readFileSync(a.psys), a.psys), a.psys);
    chips = s.manifest.chips;
    sys = { fabric: s.manifest.fabric, clusterVpfe: s.manifest.cluster_vpfe };
    inputs = s.manifest.image_of_chip.map((i, k) => ({ chip: k, image: s.images[i].bytes, imageFile: s.images[i].file, voqToVpfe: s.voqToVpfe[k] }));
    whatRun = `${a.psys} (${chips} chips)`;
  } else {
    const image = mods.img.busyCopyImageBytes(rows);
    const parsed = mods.sys.parseSystem('bench.json', JSON.stringify({ chips, image: 'busy48.pimg' }));
    if (!parsed.system) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
    sys = parsed.system;
    inputs = Array.from({ length: chips }, (_, k) => ({ chip: k, image, imageFile: 'busy48.pimg', voqToVpfe: sys.voqToVpfe[k] }));
    whatRun = `${chips}-chip system, each chip the busy48 copy (48 UIEs x ${rows} rows)`;
  }
  let out;
  if (what === 'ref') {
    const r = mods.run.runSystem(inputs, { fabric: sys.fabric, clusterVpfe: sys.clusterVpfe, uieFactory: mods.uie.makeUieFactory({}) });
    out = { cycles: r.cycles, stop: r.stop, windows: r.windows, crossMessages: r.crossMessages, reports: r.chips.map((c) => c.report) };
  } else {
    const r = await mods.par.runSystemThreaded(inputs, { fabric: sys.fabric, clusterVpfe: sys.clusterVpfe, faults: null, timingOnly: false, threads: +what });
    const p = r.parallel;
    out = { cycles: r.cycles, stop: r.stop, reports: r.chips.map((c) => c.report), parallel: { threads: p.threads, efficiency: p.efficiency, windows: p.windows, hostWaitMs: p.hostWaitMs } };
  }
  const s = (performance.now() - t0) / 1000; // imports, workers started and chips built inside them included
  const cu = process.cpuUsage(c0);
  const cpu = (cu.user + cu.system) / 1e6;
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256').update(JSON.stringify([out.cycles, out.stop, out.reports])).digest('hex');
  const { reports, ...rest } = out;
  console.log(JSON.stringify({ ...rest, s, cpu, others: machineBusy() - m0 - cpu, chips, what: whatRun, hash }));
}
