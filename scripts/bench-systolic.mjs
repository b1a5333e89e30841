#!/usr/bin/env node
/**
 * Systolic target speed (run `npm run build` first): the Tensil ResNet-20 fixture simulated with the cycle model on,
 * split into decode / load / run, reported as MACs per host second next to a plain JavaScript float
 * multiply-accumulate loop of the same MAC count measured in the same run (the reference: what a naive
 * host loop costs, with no fixed-point rounding, no saturation and no instruction decoding).
 * Usage: node scripts/bench-systolic.mjs [--runs N]
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { imageFromTModel, imageParts, decodeProgram, simulate } from '../packages/target-systolic/dist/index.js';
import { intArg } from './args.mjs';

const DIR = fileURLToPath(new URL('../../shared/fixtures/tensil/resnet20-zcu104-uram/', import.meta.url));
const MODEL = DIR + 'resnet20v2_cifar_onnx_zcu104_uram.tmodel';
if (!existsSync(MODEL)) {
  console.log(`SKIP: fixture not found at ${DIR}`);
  process.exit(0);
}
let runs;
try {
  runs = intArg(process.argv.slice(2), '--runs', 3);
} catch (e) {
  console.error(`bench-systolic: ${e.message}`);
  process.exit(2);
}

function image() {
  const out = new Float32Array(1024 * 32);
  for (let p = 0; p < 1024; p++) for (let c = 0; c < 3; c++) out[p * 32 + c] = (((p % 32) * 7 + Math.floor(p / 32) * 13 + c * 71) % 256) / 255 - 0.5;
  return { dtype: 'float32', shape: [1024, 32], data: out };
}

const text = readFileSync(MODEL, 'utf8');
let t = performance.now();
const parts = imageParts(imageFromTModel(text, MODEL), MODEL);
const loadMs = performance.now() - t;
t = performance.now();
decodeProgram(parts.program, parts.arch, MODEL);
const decodeMs = performance.now() - t;

const times = [];
let last;
for (let r = 0; r < runs; r++) {
  t = performance.now();
  last = simulate({ parts, file: MODEL, inputs: new Map([['x:0', image()]]) });
  times.push((performance.now() - t) / 1000);
}
const best = Math.min(...times);
const macs = last.stats.macs;

// Reference: a plain float MAC loop over the same number of MACs (32x33 weights, vectors streamed), same process.
const N = 32;
const w = new Float32Array((N + 1) * N).map((_, i) => (i % 7) / 7);
const x = new Float32Array(N).map((_, i) => i / N);
const y = new Float32Array(N);
const vectors = Math.round(macs / (N * N));
t = performance.now();
for (let v = 0; v < vectors; v++) {
  x[v % N] += 1e-3;
  for (let j = 0; j < N; j++) {
    let s = w[j * (N + 1)];
    for (let k = 1; k <= N; k++) s += x[k - 1] * w[j * (N + 1) + k];
    y[j] = s;
  }
}
const refS = (performance.now() - t) / 1000;

console.log(`systolic ResNet-20 (${parts.arch.array_size}x${parts.arch.array_size}, ${parts.arch.data_type}), ${last.stats.instructions} instructions, ${macs} MACs`);
console.log(`  load .tmodel/.tdata: ${loadMs.toFixed(0)} ms; decode: ${decodeMs.toFixed(0)} ms`);
console.log(`  simulate (decode + functional + cycle model), best of ${runs}: ${best.toFixed(3)} s/image = ${(macs / best / 1e6).toFixed(1)} M MACs/host-s`);
console.log(`  reference plain JS float MAC loop, same MACs: ${refS.toFixed(3)} s = ${(macs / refS / 1e6).toFixed(1)} M MACs/host-s (y[0]=${y[0].toFixed(2)})`);
console.log(`  modelled: ${last.cycles} cycles = ${last.stats.frames_per_second.toFixed(1)} frames/s at ${last.stats.clock_hz / 1e6} MHz (estimate, docs/timing-model.md ## systolic)`);
