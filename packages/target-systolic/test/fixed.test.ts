/**
 * Fixed-point arithmetic: golden values derived by hand from Tensil's rule
 * (x*y + z*2^bp, shift, round to nearest even, saturate), and properties
 * against the independent reference (reference.ts) for every data type.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fixedType, fromFloat, mac, satAdd, toFloat } from '../src/index.js';
import { refMac } from './reference.js';

const F16 = fixedType('FP16BP8');

describe('FP16BP8', () => {
  test('golden multiply-accumulates', () => {
    expect(mac(F16, 384, 384, 0)).toBe(576); // 1.5 * 1.5 = 2.25 exactly
    expect(mac(F16, 1, 128, 0)).toBe(0); // 0.5 LSB, even quotient 0: stays 0
    expect(mac(F16, 3, 128, 0)).toBe(2); // 1.5 LSB, odd quotient 1: rounds to 2
    expect(mac(F16, 1, 128, 1)).toBe(2); // 1 + 0.5 LSB: quotient 1 odd -> 2
    expect(mac(F16, 1, 129, 0)).toBe(1); // just above half: up
    expect(mac(F16, -1, 128, 0)).toBe(0); // -0.5 LSB: floor -1 (odd) + 1 = 0
    expect(mac(F16, -3, 128, 0)).toBe(-2); // -1.5 LSB: floor -2 (even): stays -2
    expect(mac(F16, 127 * 256, 2 * 256, 0)).toBe(32767); // 254.0 saturates
    expect(mac(F16, -128 * 256, 128 * 256, 0)).toBe(-32768);
    expect(mac(F16, 256, 100, 32700)).toBe(32767); // accumulate saturates
  });
  test('conversions: round half up (Java Math.round), saturate', () => {
    expect(fromFloat(F16, 0.5 / 256)).toBe(1);
    expect(fromFloat(F16, -0.5 / 256)).toBe(0);
    expect(fromFloat(F16, -1.5 / 256)).toBe(-1);
    expect(fromFloat(F16, 1000)).toBe(32767);
    expect(fromFloat(F16, -1000)).toBe(-32768);
    expect(toFloat(F16, -384)).toBe(-1.5);
    expect(satAdd(F16, 32000, 1000)).toBe(32767);
  });
});

describe.each([
  ['FP16BP8', 16, 8],
  ['FP8BP4', 8, 4],
  ['FP18BP10', 18, 10],
  ['FP32BP16', 32, 16],
] as const)('%s equals the reference mac', (name, width, bp) => {
  const t = fixedType(name);
  const v = fc.integer({ min: -(2 ** (width - 1)), max: 2 ** (width - 1) - 1 });
  test('random operands', () => {
    fc.assert(fc.property(v, v, v, (x, y, z) => mac(t, x, y, z) === (width > 24 ? refBig(x, y, z, width, bp) : refMac(x, y, z, width, bp))), { numRuns: 3000 });
  });
});

/** The 32-bit type's products exceed 2^53: the reference in BigInt, same rule. */
function refBig(x: number, y: number, z: number, width: number, bp: number): number {
  const B = BigInt(bp);
  const m = BigInt(x) * BigInt(y) + (BigInt(z) << B);
  const up = ((m >> (B - 1n)) & 1n) === 1n && ((m & ((1n << (B - 1n)) - 1n)) !== 0n || ((m >> B) & 1n) === 1n);
  let r = (m >> B) + (up ? 1n : 0n);
  const max = (1n << BigInt(width - 1)) - 1n;
  if (r > max) r = max;
  if (r < -max - 1n) r = -max - 1n;
  return Number(r);
}
