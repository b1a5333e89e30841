import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BF16, FP32, FP8_E4M3, FP8_E5M2, IEEE_FP16, OCP_E4M3, OCP_E5M2, TF32, RFP16,
  exportIeeeFp16, exportOfp8, importIeeeFp16, importOfp8, type FormatDescriptor,
} from '@pyxis/formats';

/** Independent reference decode of an IEEE-754-style minifloat. */
function refDecode(code: number, e: number, m: number, fn: boolean): number {
  const bias = 2 ** (e - 1) - 1;
  const s = code >> (e + m) ? -1 : 1;
  const E = (code >> m) & (2 ** e - 1);
  const M = code & (2 ** m - 1);
  if (E === 0) return s * M * 2 ** (1 - bias - m);
  if (E === 2 ** e - 1) {
    if (!fn) return M === 0 ? s * Infinity : NaN;
    if (M === 2 ** m - 1) return NaN;
  }
  return s * (1 + M / 2 ** m) * 2 ** (E - bias);
}
const dv = new DataView(new ArrayBuffer(4));
const f32bits = (x: number): number => {
  dv.setFloat32(0, x);
  return dv.getUint32(0);
};
const bitsf32 = (b: number): number => {
  dv.setUint32(0, b);
  return dv.getFloat32(0);
};

const MINI: [FormatDescriptor, number, number, boolean][] = [
  [OCP_E4M3, 4, 3, true],
  [OCP_E5M2, 5, 2, false],
  [FP8_E4M3, 4, 3, false],
  [FP8_E5M2, 5, 2, false],
  [IEEE_FP16, 5, 10, false],
  [BF16, 8, 7, false],
];

describe('IEEE-style and OCP formats: every code', () => {
  for (const [fmt, e, m, fn] of MINI) {
    it(`${fmt.name}: decode, encode(decode(c)) == c, monotonic`, () => {
      const n = 2 ** fmt.bits;
      for (let c = 0; c < n; c++) {
        const v = fmt.decode(c);
        const r = refDecode(c, e, m, fn);
        if (Number.isNaN(r)) {
          if (!Number.isNaN(v) || !fmt.isNaN(c)) expect.fail(`${fmt.name} ${c} should be NaN`);
          continue;
        }
        if (!Object.is(v, r)) expect.fail(`${fmt.name} ${c}: ${v} != ${r}`);
        if (fmt.encode(v) !== c) expect.fail(`${fmt.name} roundtrip ${c} -> ${fmt.encode(v)}`);
      }
      let prev = -1;
      for (let c = 0; c < n / 2; c++) {
        const v = fmt.decode(c);
        if (Number.isNaN(v)) continue;
        if (!(v > prev)) expect.fail('monotonic');
        prev = v;
      }
    });
  }
  it('standard constants: E4M3 max 448 / NaN S.1111.111, E5M2 max 57344 and infinities, FP16 subnormals', () => {
    expect(OCP_E4M3.decode(0x7e)).toBe(448);
    expect(OCP_E4M3.decode(0x7f)).toBeNaN();
    expect(OCP_E4M3.decode(0xff)).toBeNaN();
    expect(OCP_E4M3.decode(0x78)).toBe(256); // no infinity in E4M3
    expect(OCP_E4M3.decode(0x01)).toBe(2 ** -9);
    expect(OCP_E5M2.decode(0x7b)).toBe(57344);
    expect(OCP_E5M2.decode(0x7c)).toBe(Infinity);
    expect(OCP_E5M2.decode(0xfc)).toBe(-Infinity);
    expect(OCP_E5M2.decode(0x01)).toBe(2 ** -16);
    expect(IEEE_FP16.decode(0x0001)).toBe(2 ** -24);
    expect(IEEE_FP16.decode(0x03ff)).toBe(1023 * 2 ** -24);
    expect(IEEE_FP16.decode(0x7bff)).toBe(65504);
    expect(FP8_E4M3.decode(0x77)).toBe(240); // NKI float8_e4m3: IEEE-style
    expect(FP8_E4M3.decode(0x78)).toBe(Infinity);
    // saturating / non-saturating encode
    expect(OCP_E4M3.encode(1000)).toBe(0x7f);
    expect(OCP_E4M3.encode(1000, { saturate: true })).toBe(0x7e);
    expect(OCP_E4M3.encode(464)).toBe(0x7e); // tie -> even (448)
    expect(OCP_E5M2.encode(1e6)).toBe(0x7c);
    expect(OCP_E5M2.encode(-1e6, { saturate: true })).toBe(0xfb);
    expect(IEEE_FP16.encode(65520)).toBe(0x7c00); // halfway to 2^16 rounds to infinity
    expect(IEEE_FP16.encode(65519)).toBe(0x7bff);
    expect(IEEE_FP16.encode(2 ** -25)).toBe(0); // tie to even: 0
    expect(IEEE_FP16.encode(3 * 2 ** -26)).toBe(1);
    expect(IEEE_FP16.encode(-0)).toBe(0x8000);
  });
  it('FP32 encode equals Math.fround bit patterns; BF16/TF32 are RNE of FP32', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        const b = f32bits(Math.fround(x));
        expect(FP32.encode(x)).toBe(b);
        expect(FP32.decode(b)).toBe(Math.fround(x));
      }),
      { numRuns: 5000 },
    );
    // BF16 reference: RNE on the FP32 bit pattern (for values exactly representable in FP32)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (b) => {
        const x = bitsf32(b);
        if (Number.isNaN(x)) return;
        const lsb = (b >>> 16) & 1;
        const r = (b + 0x7fff + lsb) >>> 16;
        if (((r >>> 7) & 0xff) === 0xff && (r & 0x7f) !== 0) return; // overflowed into NaN space cannot happen for finite
        expect(BF16.encode(x)).toBe(r & 0xffff);
        const t = (b + 0xfff + ((b >>> 13) & 1)) & ~0x1fff;
        expect(TF32.encode(x)).toBe(t >>> 0);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('NeuronCore casts go through FP32 (double rounding as NKI)', () => {
  it('BF16 of a double just above a BF16 midpoint that FP32 rounds onto the midpoint rounds to even', () => {
    // 1 + 2^-8 is the BF16 midpoint between 1 and 1+2^-7; add 2^-30 (lost in FP32)
    const x = 1 + 2 ** -8 + 2 ** -30;
    expect(Math.fround(x)).toBe(1 + 2 ** -8);
    expect(BF16.encode(x)).toBe(0x3f80); // via FP32: tie -> even (1.0)
    expect(IEEE_FP16.encode(1 + 2 ** -11 + 2 ** -40)).toBe(0x3c01); // IEEE_FP16 (Pyxis import path) rounds directly
  });
});

describe('IEEE FP16 import/export (chip §4.9)', () => {
  it('import: zeros, NaN, infinities by mode, subnormals normalised, EB adjustment, underflow', () => {
    expect(importIeeeFp16(0x0000)).toBe(0);
    expect(importIeeeFp16(0x8000)).toBe(0);
    expect(importIeeeFp16(0x7e00)).toBe(0x8000);
    expect(importIeeeFp16(0xfc01)).toBe(0x8000);
    expect(importIeeeFp16(0x7c00, { saturate: true })).toBe(0x7fff);
    expect(importIeeeFp16(0xfc00, { saturate: true })).toBe(0xffff);
    expect(importIeeeFp16(0x7c00, { saturate: false })).toBe(0x8000);
    // every finite IEEE code: exact when in RFP16 range, else +-max / zero (== RFP16.encode of the value)
    for (const ebOut of [-40, -24, -15, -8]) {
      for (let c = 0; c < 0x10000; c++) {
        const v = IEEE_FP16.decode(c);
        if (!Number.isFinite(v) || v === 0) continue;
        const r = importIeeeFp16(c, { ebAdj: -15 - ebOut });
        const inRange = Math.abs(v) > 2 ** ebOut && Math.abs(v) <= RFP16.decode(0x7fff, ebOut);
        if (inRange && RFP16.decode(r, ebOut) !== v) expect.fail(`import ${c}: ${RFP16.decode(r, ebOut)} != ${v}`);
        if (r !== RFP16.encode(v, { eb: ebOut })) expect.fail(`import ${c} ebOut ${ebOut}`);
      }
    }
    // EB = -15: subnormals underflow to zero; 1.0*2^-15 is the zero codepoint
    expect(importIeeeFp16(0x0001)).toBe(0);
    expect(importIeeeFp16(0x0400)).toBe(0x0400); // 2^-14: E=1
    // overflow with a positive EB_adj saturates
    expect(importIeeeFp16(0x7bff, { ebAdj: 10 })).toBe(0x7fff);
  });
  it('export: every RFP16 code against an exact reference (RNE to FP16, subnormals, overflow to infinity)', () => {
    for (const ebIn of [-15, -5, -28]) {
      const ebAdj = ebIn + 15;
      for (let c = 0; c < 0x10000; c++) {
        const got = exportIeeeFp16(c, { ebAdj });
        if (c === 0) expect(got).toBe(0);
        else if (c === 0x8000) expect(got).toBe(0x7e00);
        else {
          const v = RFP16.decode(c, ebIn);
          let want: number;
          if (Math.abs(v) < 2 ** -24) want = v < 0 ? 0x8000 : 0; // smaller than min subnormal -> +-0
          else want = IEEE_FP16.encode(v); // independent nearest-even encoder (checked above)
          if (got !== want) expect.fail(`export ${c} ebIn ${ebIn}: ${got.toString(16)} != ${want.toString(16)}`);
        }
      }
    }
    expect(exportIeeeFp16(0x7fff, { maxToInf: true })).toBe(0x7c00);
    expect(exportIeeeFp16(0xffff, { maxToInf: true })).toBe(0xfc00);
    expect(exportIeeeFp16(0x7fff, { ebAdj: 0 })).toBe(0x7c00); // E=31 overflows IEEE
  });
});

describe('OCP FP8 import/export (chip §4.10)', () => {
  it('import: all 256 codes of E4M3 and E5M2, both modes', () => {
    for (const [f, fmt, bias] of [['E4M3', OCP_E4M3, 7], ['E5M2', OCP_E5M2, 15]] as const) {
      const ebOut = f === 'E4M3' ? -12 : -18;
      for (let c = 0; c < 256; c++) {
        const v = fmt.decode(c);
        const r = importOfp8(f, c, { ebAdj: -bias - ebOut, saturate: true });
        const rn = importOfp8(f, c, { ebAdj: -bias - ebOut, saturate: false });
        if (Number.isNaN(v)) {
          expect(r).toBe(0x8000);
          expect(rn).toBe(0x8000);
        } else if (!Number.isFinite(v)) {
          expect(r).toBe(v > 0 ? 0x7fff : 0xffff);
          expect(rn).toBe(0x8000);
        } else {
          expect(r).toBe(RFP16.encode(v, { eb: ebOut })); // exact in range, +-max above, zero below
          if (Math.abs(v) > 2 ** ebOut && Math.abs(v) < 2 ** (ebOut + 32)) expect(RFP16.decode(r, ebOut)).toBe(v);
          expect(rn).toBe(r);
        }
      }
    }
  });
  it('export: every RFP16 code, both modes, against nearest-even reference', () => {
    for (const [f, fmt, bias, minSub] of [['E4M3', OCP_E4M3, 7, 2 ** -9], ['E5M2', OCP_E5M2, 15, 2 ** -16]] as const) {
      for (const ebIn of [-15, -12, -20]) {
        const ebAdj = ebIn + bias;
        for (let c = 1; c < 0x10000; c++) {
          if (c === 0x8000) continue;
          const v = RFP16.decode(c, ebIn);
          for (const sat of [true, false]) {
            const got = exportOfp8(f, c, { ebAdj, saturate: sat });
            let want: number;
            if (Math.abs(v) < minSub) want = v < 0 ? 0x80 : 0;
            else want = fmt.encode(v, { saturate: sat });
            if (!sat && f === 'E4M3' && want === 0x7f && v < 0) want = 0xff; // -NaN keeps its sign
            if (got !== want) expect.fail(`${f} export ${c} ebIn ${ebIn} sat ${sat}: ${got.toString(16)} != ${want.toString(16)}`);
          }
        }
      }
      expect(exportOfp8(f, 0)).toBe(0);
      expect(exportOfp8(f, 0x8000)).toBe(f === 'E4M3' ? 0x7f : 0x7e);
    }
    // explicit cases: 448 max, 480 -> saturate / NaN; E5M2 overflow -> infinity
    const c480 = RFP16.encode(480, { eb: -15 });
    expect(exportOfp8('E4M3', c480, { ebAdj: -8, saturate: true })).toBe(0x7e);
    expect(exportOfp8('E4M3', c480, { ebAdj: -8, saturate: false })).toBe(0x7f);
    const big = RFP16.encode(65536, { eb: -15 });
    expect(exportOfp8('E5M2', big, { ebAdj: 0, saturate: false })).toBe(0x7c);
    expect(exportOfp8('E5M2', big, { ebAdj: 0, saturate: true })).toBe(0x7b);
  });
});

describe('IEEE rounding toward zero', () => {
  it('truncates and never overflows to infinity', () => {
    expect(IEEE_FP16.encode(65535, { rounding: 'rtz' })).toBe(0x7bff);
    expect(IEEE_FP16.encode(-1e9, { rounding: 'rtz' })).toBe(0xfbff);
    expect(IEEE_FP16.encode(1 + 2 ** -10 - 2 ** -30, { rounding: 'rtz' })).toBe(0x3c00);
    expect(OCP_E4M3.encode(1000, { rounding: 'rtz' })).toBe(0x7e);
    expect(BF16.encode(1 + 2 ** -7 - 2 ** -20, { rounding: 'rtz' })).toBe(0x3f80);
  });
});

import { encodeArray } from '@pyxis/formats';

describe('encodeArray IEEE fast path equals the scalar encoder', () => {
  it('every IEEE-style format, Float32/Float64, random values, midpoints, both roundings and modes', () => {
    for (const fmt of [OCP_E4M3, OCP_E5M2, FP8_E4M3, FP8_E5M2, IEEE_FP16, BF16, TF32]) {
      const xs: number[] = [];
      fc.assert(fc.property(fc.double(), (x) => void xs.push(x)), { numRuns: 1500 });
      fc.assert(fc.property(fc.double({ min: -1e5, max: 1e5 }), (x) => void xs.push(x)), { numRuns: 1500 });
      const n = fmt.bits <= 8 ? 256 : 65536;
      const step = fmt.name === 'TF32' ? 4099 : fmt.bits <= 8 ? 1 : 61;
      for (let c = 0; c < n - 1; c += step) {
        const code = fmt.name === 'TF32' ? c * 8192 : c;
        const a = fmt.decode(code);
        const b = fmt.decode(code + (fmt.name === 'TF32' ? 8192 : 1));
        if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
        const mid = (a + b) / 2;
        xs.push(mid, -mid, mid + Math.abs(mid) * 2 ** -30, a, -b);
      }
      xs.push(0, -0, Infinity, -Infinity, NaN, 1e-45, 1e-310, 448, 464, 480, 57344, 61440, 65504, 65520, 240, 248);
      for (const arr of [new Float64Array(xs), new Float32Array(xs)]) {
        for (const saturate of [true, false]) {
          for (const rounding of ['rne', 'rtz'] as const) {
            const got = encodeArray(fmt, arr, { saturate, rounding });
            for (let i = 0; i < arr.length; i++) {
              const want = fmt.encode(arr[i]!, { saturate, rounding });
              if (got[i] !== want) expect.fail(`${fmt.name} x=${arr[i]} sat ${saturate} ${rounding}: ${got[i]} != ${want}`);
            }
          }
        }
      }
    }
  });
});
