#!/usr/bin/env node
// Benchmark: weight databases and compression (pyxis-chip-fspec.md §14, §15).
// Build first: npx tsc -b packages/ld
// Usage: node scripts/bench-weights.mjs [millions of weights, default 64]
import { performance } from 'node:perf_hooks';

const W = await import('../packages/target-pyxis/dist/ld/weights/index.js');
const M = Number(process.argv[2] ?? 64);
const N = Math.round(M * 1024 * 1024);
const O = 4096, I = Math.floor(N / O);
const n = O * I;

function gaussian(count, seed) {
  let s = seed >>> 0;
  const rnd = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
  const w = new Float32Array(count);
  for (let k = 0; k < count; k += 2) {
    const r = Math.sqrt(-2 * Math.log(rnd())) * 0.05, t = 2 * Math.PI * rnd();
    w[k] = r * Math.cos(t);
    if (k + 1 < count) w[k + 1] = r * Math.sin(t);
  }
  return w;
}

// Best of `runs` (the first run also warms up the JIT). The machine may be shared, so the
// rate is printed both per wall-clock second and per second of this process's CPU time
// (process.cpuUsage: user + system, all threads).
function time(label, fn, amount, unit, runs = 3) {
  let best = Infinity, bestCpu = Infinity, r;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    r = fn();
    best = Math.min(best, (performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1e6);
  }
  const u = unit === 'MB/s' ? 'MB/s' : 'M weights/s';
  console.log(`${label.padEnd(40)} wall ${best.toFixed(3).padStart(6)} s ${(amount / best / 1e6).toFixed(1).padStart(7)} ${u}   cpu ${bestCpu.toFixed(3).padStart(6)} s ${(amount / bestCpu / 1e6).toFixed(1).padStart(7)} ${u}`);
  return r;
}

console.log(`weights: ${n} (${O} x ${I}), node ${process.version}`);
const w = gaussian(n, 1);
const c8 = new Uint8Array(n);
for (let k = 0; k < n; k++) c8[k] = (k * 2654435761) >>> 24 || 1;

time('1x1 LnsI4F3 database (§15.2)', () => W.pack1x1I4F3Database(c8, [O, I]), n, 'MB/s');
const c16 = new Uint16Array(n / 2);
for (let k = 0; k < c16.length; k++) c16[k] = (k * 2654435761) >>> 16 || 1;
time('1x1 LnsI5F10 database (§15.3, bytes)', () => W.pack1x1I5F10Database(c16, [O / 2, I]), n, 'MB/s');
const I3 = Math.floor(n / 9 / 128);
const c3 = c8.subarray(0, 128 * I3 * 9);
{
  // 3x3: 128 filters on 16 grid-rows (N = 8) per trip; the whole tensor as one database
  time(`3x3 database (§15.1, N=8, 16 grid-rows)`, () => W.pack3x3Database(c3, [128, I3, 3, 3], { filtersPerGridRow: 8 }), c3.length, 'MB/s');
}
for (const [org, B] of [['cinPerCout', 16], ['cinPerCout', 4], ['coutPerCin', 32]]) {
  const r = time(`compress ${org} B=${B} (§14, §15.4)`, () => W.compressWeights(w, [O, I], { organisation: org, blockSize: B }), n, 'Mw');
  const rep = r.report;
  console.log(`    ${r.bytes.length} bytes (${(8 * r.bytes.length / n).toFixed(3)} bits/weight), EB ${r.eb}, Lloyd ${rep.iterations} it, SNR ${rep.snrDb.toFixed(2)} dB, RMS rel ${rep.rmsRelError.toFixed(4)}, max rel ${rep.maxRelError.toFixed(3)}`);
}
