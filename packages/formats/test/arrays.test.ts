import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import {
  FP16BP8, FP32BP16, Int16, LnsI5F10, RFP16, RFP8,
  applyTable, convertArray, decodeArray, decodeTable16, decodeTable8, encodeArray, fixedAdd, fixedMul,
  formats, fp16ToFp8, fp8ToFp16, getFormat, linToLog, logToLin, mnsAdd, MNS18, exportOfp8, importOfp8,
} from '@pyxis/formats';

describe('array APIs', () => {
  it('encodeArray / decodeArray round-trip every 8- and 16-bit format', () => {
    for (const fmt of Object.values(formats)) {
      if (fmt.bits > 16) continue;
      const n = 2 ** fmt.bits;
      const eb = fmt.hasEb ? -9 : 0;
      const codes = fmt.bits <= 8 ? new Uint8Array(n) : new Uint16Array(n);
      for (let c = 0; c < n; c++) codes[c] = c;
      const vals = decodeArray(fmt, codes, eb);
      expect(vals).toBeInstanceOf(Float64Array);
      const back = encodeArray(fmt, vals, { eb });
      expect(back.BYTES_PER_ELEMENT).toBe(fmt.bits <= 8 ? 1 : 2);
      for (let c = 0; c < n; c++) {
        if (Number.isNaN(vals[c]!)) continue;
        if (Object.is(vals[c], -0) && fmt.family !== 'ieee') continue;
        if (back[c] !== c) expect.fail(`${fmt.name} ${c} -> ${back[c]}`);
      }
    }
  });
  it('encodeArray accepts Float32Array and wide formats use Uint32Array', () => {
    const out = encodeArray('FP32', new Float32Array([1, -2, 0.5]));
    expect(out).toBeInstanceOf(Uint32Array);
    expect([...out]).toEqual([0x3f800000, 0xc0000000, 0x3f000000]);
    const m = encodeArray('MNS18', new Float64Array([3, -3]), { eb: 0 });
    expect([...decodeArray('MNS18', m, 0)]).toEqual([3, -3]);
  });
  it('decode tables', () => {
    expect(decodeTable8('RFP8', -7)).toHaveLength(256);
    expect(decodeTable16('RFP16', -15)).toHaveLength(65536);
    expect(decodeTable8('RFP8', -7)).toBe(decodeTable8(RFP8, -7)); // cached
    expect(() => decodeTable8('RFP16')).toThrow(DiagnosticError);
  });
  it('codes wider than the format are a diagnostic with the byte offset', () => {
    try {
      decodeArray('LnsI5F3', new Uint16Array([1, 2, 600]));
      expect.fail('no throw');
    } catch (e) {
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.code).toBe('FMT0003');
      expect(d.span).toEqual({ file: '<codes>', offset: 4 });
    }
  });
  it('convertArray RFP16 -> RFP8 (value level) equals the hardware converter when in EB_adj range', () => {
    const codes = new Uint16Array(65536).map((_, i) => i);
    for (const [e16, e8] of [[-15, -8], [-20, -4], [-10, -10]] as const) {
      const v = convertArray(RFP16, RFP8, codes, { fromEb: e16, eb: e8 });
      for (let c = 0; c < 65536; c++) if (v[c] !== fp16ToFp8(c, e16 - e8)) expect.fail(`${c}`);
    }
  });
  it('applyTable rejects codes beyond the table', () => {
    expect(() => applyTable(new Uint16Array(256), new Uint16Array([300]))).toThrow(DiagnosticError);
  });
});

describe('fast-check: conversion chains', () => {
  it('FP8 -> FP16 -> LNS16 -> FP16 -> FP8 without mapping correction is the identity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 16 }), fc.integer({ min: -8, max: 8 }), (c, a, b) => {
        const f16 = fp8ToFp16(c, a);
        const back = logToLin(linToLog(f16, { mappingCorrection: false, ebAdj: b }), { mappingCorrection: false, ebAdj: -b });
        const E = (f16 >> 10) & 31;
        fc.pre(E + b >= 1 && E + b <= 31);
        expect(fp16ToFp8(back, -a)).toBe(c);
      }),
      { numRuns: 2000 },
    );
  });
  it('OFP8 import -> export is the identity for in-range values', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.constantFrom('E4M3', 'E5M2'), (c, f) => {
        const fmt = getFormat(f === 'E4M3' ? 'OCP_E4M3' : 'OCP_E5M2');
        const v = fmt.decode(c);
        fc.pre(Number.isFinite(v) && v !== 0);
        const bias = f === 'E4M3' ? 7 : 15;
        const eb = -22; // RFP16 range (2^-22, 2^10): covers both formats' normals and subnormals
        fc.pre(Math.abs(v) > 2 ** eb && Math.abs(v) < 2 ** (eb + 32));
        const r = importOfp8(f, c, { ebAdj: -bias - eb });
        expect(exportOfp8(f, r, { ebAdj: eb + bias })).toBe(c);
      }),
    );
  });
  it('value -> RFP16 -> LNS16 -> RFP16 stays within 1% of the value', () => {
    fc.assert(
      fc.property(fc.double({ min: 2 ** -10, max: 2 ** 10, noNaN: true }), (x) => {
        const c = RFP16.encode(x, { eb: -15 });
        const back = RFP16.decode(logToLin(linToLog(c)), -15);
        expect(Math.abs(back / x - 1)).toBeLessThan(0.01);
        expect(Math.abs(LnsI5F10.decode(linToLog(c), -15) / x - 1)).toBeLessThan(0.01);
      }),
    );
  });
  it('MNS addition is commutative and NaN/sticky rules hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 24 - 1 }), fc.integer({ min: 0, max: 2 ** 24 - 1 }), (a, b) => {
        expect(mnsAdd(MNS18, a, b)).toBe(mnsAdd(MNS18, b, a));
      }),
    );
    expect(mnsAdd(MNS18, MNS18.maxCode, MNS18.minCode)).toBe(MNS18.nanCode);
    expect(mnsAdd(MNS18, MNS18.maxCode, MNS18.encode(-5))).toBe(MNS18.maxCode);
  });
});

describe('fixed point (systolic FPGA) and Int16', () => {
  it('FP16BP8 every code decodes to code/256 and re-encodes; saturating add/mul', () => {
    for (let c = 0; c < 65536; c++) {
      const v = FP16BP8.decode(c);
      if (v !== (c >= 32768 ? c - 65536 : c) / 256) expect.fail(`${c}`);
      if (FP16BP8.encode(v) !== c) expect.fail(`${c}`);
    }
    const e = (x: number): number => FP16BP8.encode(x);
    expect(FP16BP8.decode(fixedMul(FP16BP8, e(1.5), e(-2.25)))).toBe(-3.375);
    expect(fixedMul(FP16BP8, e(100), e(100))).toBe(0x7fff);
    expect(fixedMul(FP16BP8, e(-100), e(100))).toBe(0x8000);
    expect(fixedAdd(FP16BP8, e(127), e(10))).toBe(0x7fff);
    expect(fixedAdd(FP16BP8, e(-127), e(-10))).toBe(0x8000);
    // product 3/256 * 1/2 = 1.5/256: tie -> even (2/256); 1/256 * 1/2 -> 0 (tie to even)
    expect(fixedMul(FP16BP8, 3, 128)).toBe(2);
    expect(fixedMul(FP16BP8, 1, 128)).toBe(0);
    expect(FP16BP8.encode(1e9)).toBe(0x7fff);
    expect(FP16BP8.encode(1e9, { saturate: false })).toBe(0); // wraps modulo 2^16 (1e9*256 is a multiple of 2^16)
  });
  it('FP32BP16 multiply matches a BigInt reference (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), (a, b) => {
        const sa = BigInt(a > 0x7fffffff ? a - 2 ** 32 : a);
        const sb = BigInt(b > 0x7fffffff ? b - 2 ** 32 : b);
        const p = sa * sb;
        // reference: floor((p + 2^15) / 2^16) with ties to even
        const S = 65536n;
        let q = p >= 0n ? p / S : -((-p + S - 1n) / S);
        const r = p - q * S;
        if (2n * r > S || (2n * r === S && (q & 1n) === 1n)) q += 1n;
        if (q > 0x7fffffffn) q = 0x7fffffffn;
        if (q < -0x80000000n) q = -0x80000000n;
        const want = Number(q < 0n ? q + 2n ** 32n : q);
        expect(fixedMul(FP32BP16, a, b)).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });
  it('Int16 saturates and rounds to nearest even', () => {
    expect(Int16.encode(2.5)).toBe(2);
    expect(Int16.encode(3.5)).toBe(4);
    expect(Int16.encode(-2.5)).toBe(0xfffe);
    expect(Int16.encode(40000)).toBe(0x7fff);
    expect(Int16.encode(-40000)).toBe(0x8000);
    expect(Int16.decode(0xffff)).toBe(-1);
  });
});

describe('encodeArray fast path (RFP8/RFP16 on IEEE bit patterns) equals the scalar encoder', () => {
  it('Float64 and Float32 inputs, random values, midpoints, every option', () => {
    for (const fmt of [RFP8, RFP16]) {
      for (const eb of [-15, -8, 0, -140]) {
        const xs: number[] = [];
        fc.assert(
          fc.property(fc.double({ noNaN: false }), (x) => {
            xs.push(x);
          }),
          { numRuns: 1500 },
        );
        // midpoints and neighbours of every positive code
        const n = 2 ** (fmt.bits - 1);
        for (let c = 1; c < n - 1; c += fmt.bits === 8 ? 1 : 37) {
          const a = fmt.decode(c, eb);
          const b = fmt.decode(c + 1, eb);
          const mid = (a + b) / 2;
          xs.push(mid, -mid, mid * (1 + 2 ** -40), mid * (1 - 2 ** -40), a);
        }
        xs.push(0, -0, Infinity, -Infinity, NaN, 2 ** eb, 2 ** (eb - 1), 1.5 * 2 ** (eb - 1), 1e-45, 2 ** -149 * 3);
        for (const arr of [new Float64Array(xs), new Float32Array(xs)]) {
          for (const sat of [true, false]) {
            for (const rounding of ['rne', 'rtz'] as const) {
              const got = encodeArray(fmt, arr, { eb, saturate: sat, rounding });
              for (let i = 0; i < arr.length; i++) {
                const want = fmt.encode(arr[i]!, { eb, saturate: sat, rounding });
                if (got[i] !== want) expect.fail(`${fmt.name} eb ${eb} x=${arr[i]} sat ${sat} ${rounding}: ${got[i]} != ${want}`);
              }
            }
          }
        }
      }
    }
  });
});

describe('reserved codepoint tables', () => {
  it('every listed reserved code decodes to what its meaning says', () => {
    for (const fmt of Object.values(formats)) {
      for (const r of fmt.reserved) {
        const v = fmt.decode(r.code, -5);
        if (/NaN/.test(r.meaning)) expect(fmt.isNaN(r.code), `${fmt.name} ${r.meaning}`).toBe(true);
        if (/NaN/.test(r.meaning)) expect(v).toBeNaN();
        else if (/zero|^[+-]0$/.test(r.meaning)) expect(v === 0, `${fmt.name} ${r.meaning}`).toBe(true);
        else if (/infinity/.test(r.meaning)) expect(Math.abs(v)).toBe(Infinity);
        else if (/max/.test(r.meaning)) {
          expect(Math.abs(v)).toBe(fmt.decode(fmt.maxCode, -5));
          expect(Math.sign(v)).toBe(/negative/.test(r.meaning) ? -1 : 1);
        }
      }
    }
  });
});
