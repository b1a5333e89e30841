#!/usr/bin/env node
// Throughput of @pyxis/formats conversions (elements/second, one core).
// Run after `npx tsc -b`: node scripts/bench-formats.mjs [N]
import * as F from '../packages/formats/dist/index.js';

const N = Number(process.argv[2] ?? 4_000_000);
const results = [];

function bench(name, fn, n = N) {
  fn(); // warm-up (builds tables, JIT)
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    const dt = Number(process.hrtime.bigint() - t0) / 1e9;
    best = Math.min(best, dt);
  }
  const rate = n / best;
  results.push({ name, rate });
  console.log(`${name.padEnd(58)} ${(rate / 1e6).toFixed(1).padStart(8)} M elem/s`);
}

let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const c8 = new Uint8Array(N).map(() => (rnd() * 256) | 0);
const c16 = new Uint16Array(N).map(() => (rnd() * 65536) | 0);
const vals64 = new Float64Array(N).map(() => (rnd() - 0.5) * 64);
const vals32 = new Float32Array(vals64);
const o8 = new Uint8Array(N);
const o16 = new Uint16Array(N);
const of64 = new Float64Array(N);

console.log(`@pyxis/formats benchmark, N = ${N.toLocaleString()} elements, node ${process.version}`);
console.log('-- table-driven paths --');
bench('decodeArray RFP8 -> Float64 (table)', () => F.decodeArray('RFP8', c8, -8, of64));
bench('decodeArray RFP16 -> Float64 (table)', () => F.decodeArray('RFP16', c16, -15, of64));
bench('applyTable fp8ToFp16 (8b -> 16b)', () => F.applyTable(F.fp8ToFp16Table(7), c8, o16));
bench('applyTable fp16ToFp8 (16b -> 8b, 6.2.2.2.2 rounding)', () => F.applyTable(F.fp16ToFp8Table(-7), c16, o8));
bench('applyTable linToLog RFP16 -> LnsI5F10', () => F.applyTable(F.linToLogTable(), c16, o16));
bench('applyTable logToLin LnsI5F10 -> RFP16', () => F.applyTable(F.logToLinTable(), c16, o16));
bench('applyTable exportOfp8 E4M3 (16b -> 8b)', () => F.applyTable(F.exportTable('OCP_E4M3', { ebAdj: 8 }), c16, o8));
bench('convertArray RFP16 -> RFP8 (value level, table)', () => F.convertArray('RFP16', 'RFP8', c16, { fromEb: -15, eb: -8 }));
bench('convertArray RFP8 -> LnsI4F3 (value level, table)', () => F.convertArray('RFP8', 'LnsI4F3', c8, { fromEb: -8, eb: -8 }));
{
  // raw inner loop, as the simulator would write it
  const t = F.fp16ToFp8Table(-7);
  bench('raw loop out[i] = table[codes[i]] (16b -> 8b)', () => {
    for (let i = 0; i < N; i++) o8[i] = t[c16[i]];
  });
}
console.log('-- scalar paths --');
const M = Math.min(N, 1_000_000);
bench('encodeArray Float32 -> RFP8', () => F.encodeArray('RFP8', vals32.subarray(0, M), { eb: -8 }), M);
bench('encodeArray Float64 -> RFP16', () => F.encodeArray('RFP16', vals64.subarray(0, M), { eb: -15 }), M);
bench('encodeArray Float64 -> LnsI5F10', () => F.encodeArray('LnsI5F10', vals64.subarray(0, M), { eb: -15 }), M);
bench('encodeArray Float64 -> OCP_E4M3', () => F.encodeArray('OCP_E4M3', vals64.subarray(0, M)), M);
bench('encodeArray Float64 -> BF16', () => F.encodeArray('BF16', vals64.subarray(0, M)), M);
bench('scalar fp16ToFp8() per element', () => {
  for (let i = 0; i < M; i++) o8[i] = F.fp16ToFp8(c16[i], -7);
}, M);
bench('scalar linToLog() per element', () => {
  for (let i = 0; i < M; i++) o16[i] = F.linToLog(c16[i]);
}, M);
bench('scalar RFP16.decode() per element', () => {
  for (let i = 0; i < M; i++) of64[i] = F.RFP16.decode(c16[i], -15);
}, M);
bench('scalar mnsToFp16() per element', () => {
  for (let i = 0; i < M; i++) o16[i] = F.mnsToFp16((c16[i] * 256) | (c8[i] & 0xff), -3);
}, M);
