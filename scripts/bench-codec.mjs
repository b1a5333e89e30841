#!/usr/bin/env node
// Codec throughput: encode / decode / readField on a 250-bit word and a 32-bit word.
// Run after `npx tsc -b`: node scripts/bench-codec.mjs
import { compileTable, decode, encode, readField } from '../packages/codec/dist/index.js';

const wide = compileTable({
  name: 'wide',
  width: 250,
  fields: [
    { name: 'op', width: 4, enum: { nop: 0, read: 1, write: 2 } },
    { name: 'n', width: 12, minus_one: true },
    { name: 'stride', width: 20, count: 6, signed: true },
    { name: 'base', width: 40 },
    { name: 'addr64', width: 64 },
    { name: 'flags', width: 10 },
  ],
});
const narrow = compileTable({ name: 'narrow', fields: [{ name: 'a', width: 3 }, { name: 'b', width: 13 }, { name: 'c', width: 16, signed: true }] });

function bench(label, n, fn) {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  const ns = Number(process.hrtime.bigint() - t0);
  console.log(`${label.padEnd(34)} ${(n / (ns / 1e9)).toFixed(0).padStart(10)} ops/s  ${(ns / n).toFixed(0).padStart(6)} ns/op`);
}

const vals = { op: 'read', n: 100, stride: [1, -2, 3, -4, 5, -6], base: 123456789, addr64: 0xfedcba9876543210n, flags: 0x3ff };
const buf = new Uint8Array(wide.bytes);
bench('encode 250-bit (12 fields)', 100_000, () => encode(wide, vals, buf));
bench('decode 250-bit', 100_000, () => decode(wide, buf));
bench('readField 250-bit base', 500_000, () => readField(wide, buf, 'base'));
const nb = new Uint8Array(narrow.bytes);
bench('encode 32-bit (3 fields)', 300_000, (i) => encode(narrow, { a: i & 7, b: i & 0x1fff, c: -(i & 0x7fff) }, nb));
bench('decode 32-bit', 300_000, () => decode(narrow, nb));
bench('readField 32-bit', 1_000_000, () => readField(narrow, nb, 'b'));
