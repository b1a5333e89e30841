import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { amemEngineAddress, engineToNoc, hbmEngineAddress, icdmaDestination, NOC, queueByName, queueName, remapWindows } from '../../src/ld/image.js';
import { byteStrides, packTensor, rowIntervals, tensorLayout } from '../../src/ld/tensors.js';

/** chip §12.7 eng2noc_addr_remap, written with BigInt exactly as the verilog. */
function refRemap(eng: number, w: Array<{ base: number; mask: number }>): number {
  const sel = w[eng >>> 30]!;
  const e = BigInt(eng) & 0x3fffffffn;
  const mask = BigInt(sel.mask);
  const base = BigInt(sel.base);
  const full = (1n << 39n) - 1n;
  return Number((e & mask) | (base & ~mask & full));
}

describe('engine view and NoC remap (chip §12.7)', () => {
  it('engineToNoc matches the spec pseudocode for every window', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 0xffffffff }), (c, eng) => {
      const w = remapWindows(c);
      expect(engineToNoc(eng, w)).toBe(refRemap(eng, w));
    }));
  });
  it('AMEM, CSR and HBM addresses land where docs/image-layout.md says', () => {
    for (const c of [0, 1, 3]) {
      const w = remapWindows(c);
      for (const m of w) expect(m.mask & 0xfff).toBe(0xfff); // 12 LSBs of addr_mask must be set
      expect(engineToNoc(amemEngineAddress(0x123450, false), w)).toBe(NOC.amem + c * NOC.amemStride + 0x123450);
      expect(engineToNoc(amemEngineAddress(0x123450, true), w)).toBe(NOC.amem + c * NOC.amemStride + (1 << 26) + 0x123450);
      expect(engineToNoc(0x4000_0800, w)).toBe(NOC.cfg + c * NOC.cfgStride + 0x800);
      expect(engineToNoc(hbmEngineAddress(0x1234_5678)!, w)).toBe(0x1234_5678);
      expect(engineToNoc(hbmEngineAddress(0x5234_5678)!, w)).toBe(0x5234_5678);
    }
    expect(hbmEngineAddress(2 ** 31)).toBeUndefined();
  });
  it('queue ids and ICDMA destinations follow Table 11-1', () => {
    expect(['uie0', 'uie11', 'h2a', 'a2h', 'icdma0', 'icdma2', 'mpe0', 'mpe12', 'barrier'].map((n) => queueByName(n)!.id)).toEqual([0, 0xb, 0x10, 0x11, 0x12, 0x14, 0x15, 0x21, 0x22]);
    expect(queueByName('uie12')).toBeUndefined();
    expect(queueName(0x13)).toBe('icdma1');
    expect([0, 1, 2].map((i) => icdmaDestination(0, i))).toEqual([1, 2, 3]);
    expect([0, 1, 2].map((i) => icdmaDestination(2, i))).toEqual([0, 1, 3]);
    expect([0, 1, 2].map((i) => icdmaDestination(3, i))).toEqual([0, 1, 2]);
  });
});

describe('tensor layout (chip §7.2, §7.3)', () => {
  it('Table 7-1 example: 272 columns x 3 rows FP8 -> row stride 17, channel stride 51 partitions', () => {
    const l = tensorLayout([2, 3, 272], 1);
    expect([l.rowStride, l.chanStride]).toEqual([17, 51]);
    expect(l.size).toBe(2 * 51 * 16);
  });
  it('Table 7-4 example: FP16 80 columns = 160 bytes -> 10 partitions per row; 48 columns -> 6; 8 columns -> 2 (32-byte granule)', () => {
    expect(tensorLayout([3, 80], 2).rowStride).toBe(10);
    expect(tensorLayout([3, 48], 2).rowStride).toBe(6);
    expect(tensorLayout([3, 8], 2).rowStride).toBe(2);
    expect(byteStrides([4, 3, 80], tensorLayout([4, 3, 80], 2))).toEqual([480, 160, 2]);
  });
  it('16-bit elements are little-endian: column c at bytes 2c, 2c+1 of the row (chip §7.1.1, §7.3)', () => {
    const l = tensorLayout([2, 9], 2);
    const codes = new Uint16Array(18).map((_, i) => 0x100 * (i + 1) + i);
    const b = packTensor(l, codes);
    expect(l.rowStride).toBe(2);
    expect([b[0], b[1], b[2], b[3]]).toEqual([0x00, 0x01, 0x01, 0x02]);
    expect([b[32], b[33]]).toEqual([9, 10]); // row 1 starts at partition 2
  });
  it('row intervals of strided tensors', () => {
    const l = tensorLayout([2, 2, 16], 1, { row: 2, chan: 8 });
    expect(rowIntervals(l)).toEqual([[0, 16], [32, 48], [128, 144], [160, 176]]);
  });
});

import { toFloats } from '../../src/ld/link.js';
describe('float16 / bfloat16 inputs', () => {
  it('decodes IEEE half and bfloat16 bits', () => {
    const h = toFloats({ dtype: 'float16', shape: [5], data: new Uint16Array([0x3c00, 0xc000, 0x0001, 0x7c00, 0x3555]) });
    expect([...h.slice(0, 4)]).toEqual([1, -2, 2 ** -24, Infinity]);
    expect(h[4]).toBeCloseTo(0.33325195, 7);
    const b = toFloats({ dtype: 'bfloat16', shape: [2], data: new Uint16Array([0x3f80, 0xc040]) });
    expect([...b]).toEqual([1, -3]);
  });
});
