import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import { LnsI4F3, LnsI5F10, LnsI5F3, RFP16, RFP8, decodeTable, formats, getFormat, type FormatDescriptor } from '@pyxis/formats';

/** Independent reference: chip §4.1/4.2 value formula, exact via Math.pow on integer exponents. */
function refFp(ebits: number, fbits: number, code: number, eb: number): number {
  const s = code >> (ebits + fbits);
  const E = (code >> fbits) & ((1 << ebits) - 1);
  const F = code & ((1 << fbits) - 1);
  if (E === 0 && F === 0) return s ? NaN : 0;
  return (s ? -1 : 1) * (1 + F / 2 ** fbits) * Math.pow(2, E + eb);
}
/** chip §4.3/4.4: (-1)^S * 2^(I.F + EB). */
function refLns(ebits: number, fbits: number, code: number, eb: number): number {
  const s = code >> (ebits + fbits);
  const mag = code & ((1 << (ebits + fbits)) - 1);
  if (mag === 0) return s ? NaN : 0;
  return (s ? -1 : 1) * Math.pow(2, mag / 2 ** fbits + eb);
}

const FP: [FormatDescriptor, number, number][] = [
  [RFP8, 4, 3],
  [RFP16, 5, 10],
];
const LNS: [FormatDescriptor, number, number][] = [
  [LnsI4F3, 4, 3],
  [LnsI5F3, 5, 3],
  [LnsI5F10, 5, 10],
];
const EBS = [0, -12, -16, -15, 3, -40];

describe('Pyxis FP (chip §4.1, §4.2): every code', () => {
  for (const [fmt, eb_, fb] of FP) {
    it(`${fmt.name}: decode matches the §4 formula, encode(decode(c)) == c, monotonic`, () => {
      const n = 2 ** fmt.bits;
      for (const eb of EBS) {
        const t = decodeTable(fmt, eb);
        for (let c = 0; c < n; c++) {
          const v = fmt.decode(c, eb);
          const r = refFp(eb_, fb, c, eb);
          if (Number.isNaN(r)) expect(Number.isNaN(v)).toBe(true);
          else if (v !== r) expect.fail(`${fmt.name} code ${c} eb ${eb}: ${v} != ${r}`);
          if (!Object.is(t[c], v) && !(Number.isNaN(t[c]!) && Number.isNaN(v))) expect.fail('table mismatch');
          if (c !== fmt.nanCode && fmt.encode(v, { eb }) !== c) expect.fail(`${fmt.name} roundtrip ${c} eb ${eb}`);
        }
        // monotonic in magnitude over positive codes
        for (let c = 1; c < n / 2; c++) if (!(fmt.decode(c, eb) > fmt.decode(c - 1, eb))) expect.fail(`not monotonic at ${c}`);
      }
    });
    it(`${fmt.name}: reserved codepoints (zero, NaN, +-max) and no subnormals`, () => {
      const sign = 2 ** (fmt.bits - 1);
      expect(fmt.decode(0, -7)).toBe(0);
      expect(fmt.decode(sign, -7)).toBeNaN();
      expect(fmt.isNaN(sign)).toBe(true);
      const max = (2 - 2 ** -fb) * 2 ** (2 ** eb_ - 1 - 7);
      expect(fmt.decode(sign - 1, -7)).toBe(max);
      expect(fmt.decode(2 * sign - 1, -7)).toBe(-max);
      expect(fmt.maxCode).toBe(sign - 1);
      // smallest positive is 1.0..01 * 2^EB: 1.0 * 2^EB is the zero codepoint
      expect(fmt.decode(1, -7)).toBe((1 + 2 ** -fb) * 2 ** -7);
      expect(fmt.encode(2 ** -7, { eb: -7 })).toBe(0);
      expect(fmt.encode(-(2 ** -7), { eb: -7 })).toBe(0); // never produces the NaN code
      expect(fmt.encode(2 ** -9, { eb: -7 })).toBe(0);
      expect(fmt.encode(1e-300, { eb: -7 })).toBe(0);
      // saturation clamps, not sticky; NaN / infinities
      expect(fmt.encode(1e30, { eb: -7 })).toBe(sign - 1);
      expect(fmt.encode(-1e30, { eb: -7 })).toBe(2 * sign - 1);
      expect(fmt.encode(Infinity, { eb: -7 })).toBe(sign - 1);
      expect(fmt.encode(1e30, { eb: -7, saturate: false })).toBe(sign);
      expect(fmt.encode(NaN)).toBe(sign);
      expect(fmt.encode(-0)).toBe(0);
    });
  }

  it('RFP8 encode is the nearest code, ties to even F (brute force reference)', () => {
    const eb = -12;
    const pos: { v: number; c: number }[] = [];
    for (let c = 1; c < 128; c++) pos.push({ v: refFp(4, 3, c, eb), c });
    const ref = (x: number): number => {
      const a = Math.abs(x);
      const s = x < 0 ? 128 : 0;
      if (a <= 1.0625 * 2 ** eb) return 0;
      let best = pos[0]!;
      for (const p of pos) {
        const d = Math.abs(p.v - a);
        const db = Math.abs(best.v - a);
        if (d < db || (d === db && (p.c & 1) === 0)) best = p;
      }
      return s | best.c;
    };
    fc.assert(
      fc.property(fc.double({ min: -32, max: 32, noNaN: true }), (x) => {
        expect(RFP8.encode(x, { eb })).toBe(ref(x));
      }),
      { numRuns: 3000 },
    );
    // exact midpoints
    for (let c = 1; c < 126; c++) {
      const mid = (refFp(4, 3, c, eb) + refFp(4, 3, c + 1, eb)) / 2;
      expect(RFP8.encode(mid, { eb })).toBe(ref(mid));
    }
  });

  it('rounding: rtz truncates toward zero', () => {
    expect(RFP8.encode(1.99, { eb: -7, rounding: 'rtz' })).toBe((7 << 3) | 7);
    expect(RFP8.encode(1.99, { eb: -7 })).toBe(8 << 3);
  });
});

describe('Pyxis LNS (chip §4.3, §4.4, §6.2.4.4): every code', () => {
  for (const [fmt, ib, fb] of LNS) {
    it(`${fmt.name}: decode = 2^(I.F+EB), encode(decode(c)) == c, monotonic, reserved codes`, () => {
      const n = 2 ** fmt.bits;
      for (const eb of EBS) {
        for (let c = 0; c < n; c++) {
          const v = fmt.decode(c, eb);
          const r = refLns(ib, fb, c, eb);
          if (Number.isNaN(r)) expect(Number.isNaN(v)).toBe(true);
          else if (Math.abs(v - r) > Math.abs(r) * 1e-15) expect.fail(`${fmt.name} ${c}: ${v} vs ${r}`);
          if (c !== fmt.nanCode && fmt.encode(v, { eb }) !== c) expect.fail(`${fmt.name} roundtrip ${c} eb ${eb}`);
        }
        for (let c = 1; c < n / 2; c++) if (!(fmt.decode(c, eb) > fmt.decode(c - 1, eb))) expect.fail('monotonic');
      }
      const sign = 2 ** (fmt.bits - 1);
      expect(fmt.decode(sign, 0)).toBeNaN();
      expect(fmt.decode(sign - 1, -15)).toBeCloseTo(2 ** (2 ** ib - 2 ** -fb - 15), 12);
      expect(fmt.encode(1e300, { eb: -15 })).toBe(sign - 1);
      expect(fmt.encode(-1e300, { eb: -15 })).toBe(2 * sign - 1);
      expect(fmt.encode(2 ** -15, { eb: -15 })).toBe(0); // I.F = 0 is the zero codepoint
    });
  }
  it('LnsI4F3 encode is nearest in the log domain (brute force)', () => {
    fc.assert(
      fc.property(fc.double({ min: 2 ** -16, max: 2, noNaN: true }), (x) => {
        let best = 1;
        for (let c = 1; c < 128; c++) {
          if (Math.abs(Math.log2(x) - (c / 8 - 15)) < Math.abs(Math.log2(x) - (best / 8 - 15))) best = c;
        }
        if (Math.log2(x) + 15 < 1 / 16) best = 0;
        expect(LnsI4F3.encode(x, { eb: -15 })).toBe(best);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('registry', () => {
  it('has every format with the documented widths', () => {
    const widths: Record<string, number> = {
      RFP8: 8, RFP16: 16, LnsI4F3: 8, LnsI5F3: 9, LnsI5F10: 16, MNS13: 19, MNS18: 24, Int16: 16,
      OCP_E4M3: 8, OCP_E5M2: 8, IEEE_FP16: 16, FP32: 32, BF16: 16, TF32: 32, FP8_E4M3: 8, FP8_E5M2: 8,
      FP8BP4: 8, FP16BP8: 16, FP18BP10: 18, FP32BP16: 32, Int32: 32, UInt32: 32,
    };
    expect(Object.keys(formats).sort()).toEqual(Object.keys(widths).sort());
    for (const [n, b] of Object.entries(widths)) expect(getFormat(n).bits).toBe(b);
    expect(getFormat('MNS5.1.18')).toBe(formats.MNS18);
    expect(getFormat('FP32B16')).toBe(formats.FP32BP16); // the earlier spelling
    expect(getFormat('LNS16')).toBe(formats.LnsI5F10);
  });
  it('unknown names are a FMT0001 diagnostic with a suggestion', () => {
    try {
      getFormat('RFP17');
      expect.fail('no throw');
    } catch (e) {
      expect(e).toBeInstanceOf(DiagnosticError);
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.code).toBe('FMT0001');
      expect(d.notes?.join(' ')).toContain('RFP16');
    }
  });
  it('bad EB is a diagnostic', () => {
    expect(() => RFP8.encode(1, { eb: 0.5 })).toThrow(DiagnosticError);
  });
});

import { rfpAdd, rfpMul, rfpSub } from '@pyxis/formats';

describe('RFP arithmetic special values (chip §4)', () => {
  it('max + (-max) = NaN, max - max = NaN, NaN sticky, saturation clamps but is not sticky', () => {
    for (const f of [RFP8, RFP16]) {
      const max = f.maxCode;
      const nmax = 2 * (max + 1) - 1;
      expect(rfpAdd(f, max, nmax, -7)).toBe(f.nanCode);
      expect(rfpAdd(f, nmax, max, -7)).toBe(f.nanCode);
      expect(rfpSub(f, max, max, -7)).toBe(f.nanCode);
      expect(rfpSub(f, nmax, nmax, -7)).toBe(f.nanCode);
      expect(rfpAdd(f, f.nanCode!, f.encode(1, { eb: -7 }), -7)).toBe(f.nanCode);
      expect(rfpMul(f, f.nanCode!, 0, -7, 0, -7)).toBe(f.nanCode);
      expect(rfpAdd(f, max, max, -7)).toBe(max); // clamps
      const one = f.encode(1, { eb: -7 });
      // not sticky: max - 1 is an ordinary smaller value
      const halfMax = f.encode(f.decode(max, -7) / 2, { eb: -7 });
      expect(f.decode(rfpSub(f, max, halfMax, -7), -7)).toBe(f.decode(max, -7) / 2);
      expect(rfpSub(f, one, one, -7)).toBe(0);
      expect(rfpMul(f, f.encode(3, { eb: -7 }), f.encode(0.5, { eb: -7 }), -7, -7, -7)).toBe(f.encode(1.5, { eb: -7 }));
    }
  });
});

describe('LNS encoder (boundary tables) against a Math.log2 reference', () => {
  it('LnsI5F10 / LnsI5F3 nearest and truncating, random values away from exact midpoints', () => {
    for (const [fmt, fb] of [[LnsI5F10, 10], [LnsI5F3, 3], [LnsI4F3, 3]] as const) {
      const one = 2 ** fb;
      const maxQ = fmt.maxCode;
      fc.assert(
        fc.property(fc.double({ min: 2 ** -20, max: 2 ** 20, noNaN: true }), fc.boolean(), (x, neg) => {
          const eb = -12;
          const t = (Math.log2(x) - eb) * one;
          const frac = t - Math.floor(t);
          fc.pre(Math.abs(frac - 0.5) > 1e-6 && frac > 1e-6 && frac < 1 - 1e-6);
          const clamp = (q: number): number => (q > maxQ ? maxQ : q <= 0 ? 0 : q);
          const sgn = neg && clamp(Math.round(t)) !== 0 ? maxQ + 1 : 0;
          expect(fmt.encode(neg ? -x : x, { eb })).toBe(sgn + clamp(Math.round(t)));
          const sgt = neg && clamp(Math.floor(t)) !== 0 ? maxQ + 1 : 0;
          expect(fmt.encode(neg ? -x : x, { eb, rounding: 'rtz' })).toBe(sgt + clamp(Math.floor(t)));
        }),
        { numRuns: 4000 },
      );
    }
  });
});
