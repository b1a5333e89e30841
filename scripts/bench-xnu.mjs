#!/usr/bin/env node
// XNU PEx8: database vectors per host second for 128-element fp32 vectors (L2, exact HardFloat rounding),
// next to references measured in the same run on the same data:
//   - datapath only: the bit-exact datapath without the kernel (shows what the per-cycle FSM costs on top);
//   - host float: a plain Float32 L2 loop (Math.fround, nearest-even only, sequential order; NOT bit-exact
//     to the hardware's tree order): the speed of the host's own arithmetic.
// Build first: npm run build. Usage: node scripts/bench-xnu.mjs [vectors=2000] [rounding=round_near_even]
import { performance } from 'node:perf_hooks';
import { writeNpy } from '../packages/container/dist/index.js';
import { assembleXnu, linkXnu, runXnu, Pex8Datapath, jobTable } from '../packages/target-xnu/dist/index.js';

const N = Number(process.argv[2] ?? 2000);
const rounding = process.argv[3] ?? 'round_near_even';
const D = 128;
const rm = jobTable().byName.get('rounding').enum[rounding];
if (rm === undefined) throw new Error(`unknown rounding ${rounding}`);

let seed = 1;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
const db = new Float32Array(N * D).map(rnd);
const q = new Float32Array(D).map(rnd);

const src = `.program bench pex8 {\n  job op_type=L2, rounding=${rounding}, vec_len=${D}, num_vectors=${N}\n}\n`;
const asm = assembleXnu([{ file: 'bench.xasm', text: src }]);
const files = { '/b/q.npy': writeNpy({ dtype: 'float32', shape: [D], data: q }), '/b/db.npy': writeNpy({ dtype: 'float32', shape: [N, D], data: db }) };
const { image } = linkXnu({
  script: 'job bench { query = "q.npy"; database = "db.npy"; }',
  scriptFile: '/b/bench.ld',
  objects: [{ file: 'bench.pobj', container: asm.object }],
  readFile: (p) => files[p],
});

function time(label, fn, reps = 3) {
  let best = Infinity;
  let cpuBest = Infinity;
  let out;
  for (let k = 0; k < reps; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    out = fn();
    const dt = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    best = Math.min(best, dt);
    cpuBest = Math.min(cpuBest, (c.user + c.system) / 1e6);
  }
  // Wall time is unreliable on a shared machine: the CPU-time rate is printed too.
  console.log(`${label.padEnd(50)} ${(N / best).toExponential(3).padStart(10)} vectors/s wall, ${(N / cpuBest).toExponential(3).padStart(10)} per CPU s  (best wall ${best.toFixed(3)} s, cpu ${cpuBest.toFixed(3)} s)`);
  return out;
}

console.log(`XNU bench: ${N} database vectors x ${D} fp32 elements, L2, ${rounding}; ${(N * D) / 16} beats`);
const run = time('machine (kernel + controller FSM + datapath)', () => runXnu(image, 'bench.pimg'));
const xw = new Uint32Array(db.buffer);
const yw = new Uint32Array(q.buffer);
const dp = new Pex8Datapath({ op: 0, useInt: false, rounding: rm, tininess: 1, l1Abs: false });
const out = new Uint32Array(N);
time('reference: datapath only (bit-exact, no kernel)', () => {
  for (let i = 0; i < N; i++) out[i] = dp.vector(xw, i * D, yw, D);
  return out;
});
const host = new Float32Array(N);
time('reference: host Float32 loop (not bit-exact)', () => {
  for (let i = 0; i < N; i++) {
    let s = 0;
    for (let k = 0; k < D; k++) {
      const d = Math.fround(db[i * D + k] - q[k]);
      s = Math.fround(s + Math.fround(d * d));
    }
    host[i] = s;
  }
  return host;
});
const same = run.jobs[0].results.every((w, i) => w === out[i]);
console.log(`machine == datapath-only results: ${same}; simulated ${run.cycles} cycles = ${(run.stats.vectors_per_second).toExponential(3)} vectors/s at ${run.stats.clock_hz / 1e6} MHz (spec cycle table)`);
if (!same) process.exit(1);
