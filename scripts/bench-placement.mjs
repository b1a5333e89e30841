#!/usr/bin/env node
// Placement scale (issue 15): linking scripts with N tensors (first-fit placement, @pyxis/ld allocate.ts) and
// M overlapping `config` statements (configPreloads.ts), in-process, with CPU time, wall time and the
// allocator's work counter. Both must grow as n log n: the "x" column compares each row with the one before.
// Build first: npx tsc -b.   node scripts/bench-placement.mjs [N1 N2 ...]
import { performance } from 'node:perf_hooks';
import { link } from '../packages/target-pyxis/dist/ld/index.js';
import { allocStats } from '../packages/ld/dist/index.js';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const ns = sizes.length ? sizes : [10_000, 20_000, 40_000];

function tensors(n) {
  const lines = ['memory hbm { space = hbm; origin = 0; length = 16G; }', 'memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }'];
  for (let i = 0; i < n; i++) lines.push(`tensor t${i} { format = RFP8; shape = [${1 + ((i * 7919) % 5)}, 128]; eb = 0; region = ${i % 10 ? 'hbm' : 'amem0'}; zero = true; }`);
  return lines.join('\n');
}
function configs(n) {
  const lines = ['memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }'];
  for (let i = 0; i < n; i++) lines.push(`config itfe_read.cmd { cluster = ${i % 4}; uie = ${i % 12}; index = ${i % 4}; entry { indir_mode = 1; num_indices_per_table_m1 = 7; } }`);
  return lines.join('\n');
}
function measure(script) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let errors = 0;
  try {
    link({ script, scriptFile: 'bench.ld' });
  } catch (e) {
    errors = e.diagnostics?.length ?? -1;
  }
  const cpu = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000, errors, steps: allocStats.steps };
}
const row = (what, n, r, prev) =>
  console.log(`${what.padEnd(10)} ${String(n).padStart(7)}  cpu ${r.cpu.toFixed(0).padStart(6)} ms  wall ${r.wall.toFixed(0).padStart(6)} ms${prev ? `  x${(r.cpu / prev.cpu).toFixed(2)} cpu` : ''}${what === 'tensors' ? `  steps ${r.steps}${prev ? ` (x${(r.steps / prev.steps).toFixed(2)})` : ''}` : `  errors ${r.errors}`}`);
measure(tensors(1000)); // warm-up (grammar tables, JIT)
let prev;
for (const n of ns) {
  const r = measure(tensors(n));
  row('tensors', n, r, prev);
  prev = r;
}
prev = undefined;
for (const n of [1250, 5000]) {
  const r = measure(configs(n));
  row('configs', n, r, prev);
  prev = r;
}
