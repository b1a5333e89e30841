/**
 * All 16 SIMD ALU ops (spec §4 "SIMD sub-instructions", semantics of the
 * Tensil RTL ALU: boolean results are 1.0 or 0, arithmetic saturates, Abs of
 * the most negative value wraps) on operands that include zero, ±1.0, the
 * extremes and values whose products round, against expectations written
 * here; plus the write-accumulate flag and the destination register.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { assembleText, buildMachine, parseArchText } from '../src/index.js';
import { refMac } from './reference.js';

const S = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
const arch = parseArchText(readFileSync(S + 'arch4.tarch', 'utf8'), 'arch4.tarch');
const ONE = 256;
const sat = (v: number) => Math.max(-32768, Math.min(32767, v));
const bool = (b: boolean) => (b ? ONE : 0);
const A = [0, ONE, -32768, 32767, 300, -77, 5, 0];
const B = [ONE, 0, ONE, 32767, -200, -77, 128, 0];

const EXPECT: Record<string, (a: number, b: number) => number> = {
  NoOp: (a) => a,
  Zero: () => 0,
  Move: (a) => a,
  Not: (a) => bool(a === 0),
  And: (a, b) => bool(a !== 0 && b !== 0),
  Or: (a, b) => bool(a !== 0 || b !== 0),
  Increment: (a) => sat(a + ONE),
  Decrement: (a) => sat(a - ONE),
  Add: (a, b) => sat(a + b),
  Subtract: (a, b) => sat(a - b),
  Multiply: (a, b) => refMac(a, b, 0),
  Abs: (a) => (a === -32768 ? -32768 : Math.abs(a)),
  GreaterThan: (a, b) => bool(a > b),
  GreaterThanEqual: (a, b) => bool(a >= b),
  Min: (a, b) => Math.min(a, b),
  Max: (a, b) => Math.max(a, b),
};

function run(src: string, a: number[], b: number[]) {
  const prog = assembleText(src, 'simd.tasm', arch).bytes;
  const le = (v: number[]) => new Uint8Array(Buffer.from(Int16Array.from(v).buffer));
  const m = buildMachine({ arch, program: prog, programOffset: 0, inputs: [], outputs: [], model: 's', data: [{ space: 'dram0', address: 0, data: le([...a, ...b]), name: 'ab' }] }, 'simd.tasm');
  m.runAll();
  return m;
}

test.each(Object.keys(EXPECT))('%s', (op) => {
  const prologue = ['DataMove flow=dram0_to_local local=0 dram0=0 size=4', 'DataMove flow=local_to_acc local=0 acc=0 size=4'];
  // vectors 0/1 hold A (8 lanes over 2 vectors), 2/3 hold B; register 1 gets B's vector for each half in turn
  const out: number[] = [];
  for (let half = 0; half < 2; half++) {
    const src = [
      ...prologue,
      `SIMD read op=Move left=0 right=0 dest=1 write_addr=0 read_addr=${2 + half}`,
      `SIMD read write op=${op} left=0 right=1 dest=0 write_addr=4 read_addr=${half}`,
    ].join('\n');
    const m = run(src, A, B);
    out.push(...Array.from(m.acc.subarray(16, 20)));
  }
  expect(out).toEqual(A.map((a, i) => EXPECT[op]!(a, B[i]!)));
});

test('write with accumulate adds (saturating) into the accumulator; dest > 0 also sets the register', () => {
  const src = [
    'DataMove flow=dram0_to_local local=0 dram0=0 size=2',
    'DataMove flow=local_to_acc local=0 acc=0 size=2',
    'SIMD read write accumulate op=Add left=0 right=0 dest=1 write_addr=1 read_addr=0', // acc1 += acc0 + acc0, reg1 = acc0 + acc0
    'SIMD write op=Move left=1 right=0 dest=0 write_addr=2 read_addr=0', // acc2 = reg1 (no read: input is zero)
  ].join('\n');
  const a = [100, -32768, 32767, 7];
  const b = [1, -1, 1, -1];
  const m = run(src, a, b);
  const twice = a.map((v) => sat(v + v));
  expect(Array.from(m.acc.subarray(4, 8))).toEqual(b.map((v, i) => sat(v + twice[i]!)));
  expect(Array.from(m.acc.subarray(8, 12))).toEqual(twice);
});
