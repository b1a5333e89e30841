#!/usr/bin/env node
// Container and tensor-file throughput. Run after `npx tsc -b`: node scripts/bench-container.mjs
import { readContainer, writeContainer, readNpy, writeNpy, readSafetensors, writeSafetensors } from '../packages/container/dist/index.js';

function time(label, bytes, fn, reps = 5) {
  fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) fn();
  const s = Number(process.hrtime.bigint() - t0) / 1e9 / reps;
  console.log(`${label.padEnd(44)} ${(s * 1e3).toFixed(2).padStart(9)} ms  ${(bytes / s / 2 ** 20).toFixed(0).padStart(6)} MiB/s`);
}

const sections = Array.from({ length: 2000 }, (_, i) => ({
  name: `.s${i}`, kind: 'data', space: 'amem', address: i * 4096, size: 4096, align: 64, flags: 0, data: new Uint8Array(4096).fill(i & 255), cluster: i % 16,
}));
const symbols = Array.from({ length: 20000 }, (_, i) => ({
  name: `sym_${i}`, kind: i % 2 ? 'tensor' : 'label', section: i % 2000, offset: 0, size: 64, global: i % 3 === 0,
  ...(i % 2 ? { tensor: { shape: [8, 8], format: 'RFP8', eb: 3 } } : {}),
}));
const relocations = Array.from({ length: 20000 }, (_, i) => ({ section: i % 2000, offset: 8, kind: 'pyxis.abs', symbol: `sym_${i}`, addend: i }));
const c = { kind: 'pimg', version: 1, target: 'pyxis', sections, symbols, relocations, metadata: { producer: 'bench' } };
const bytes = writeContainer(c);
console.log(`container: ${sections.length} sections x 4 KiB, ${symbols.length} symbols, ${relocations.length} relocations = ${(bytes.length / 2 ** 20).toFixed(1)} MiB`);
time('writeContainer', bytes.length, () => writeContainer(c));
time('readContainer (full validation)', bytes.length, () => readContainer(bytes, 'bench.pimg'));

const f32 = { dtype: 'float32', shape: [1024, 4096], data: new Float32Array(1024 * 4096).map((_, i) => i) };
const npy = writeNpy(f32);
time('writeNpy 16 MiB float32', npy.length, () => writeNpy(f32));
time('readNpy 16 MiB float32', npy.length, () => readNpy(npy, 'b.npy'));
const st = writeSafetensors(new Map(Array.from({ length: 64 }, (_, i) => [`layer${i}.w`, { dtype: 'float32', shape: [256, 256], data: new Float32Array(65536) }])));
time('writeSafetensors 64 x 256 KiB', st.length, () => writeSafetensors(new Map(Array.from({ length: 64 }, (_, i) => [`layer${i}.w`, { dtype: 'float32', shape: [256, 256], data: new Float32Array(65536) }]))));
time('readSafetensors 64 x 256 KiB', st.length, () => readSafetensors(st, 'b.safetensors'));
