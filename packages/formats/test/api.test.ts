/** Issue 15: @pyxis/formats API fixes: checked options, decodeArray options and EB, Float32 output, ebForRange, fixed-point wrap, exact LNS boundaries. */
import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { decodeArray, ebForRange, encodeArray, convertArray, FP16BP8, FP32BP16, LnsI4F3, LnsI5F10, RFP8, RFP16, MNS18 } from '@pyxis/formats';
import { boundaryAtLeast } from '../src/lnsBounds.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as DiagnosticError).diagnostics[0]!;
  }
  throw new Error('no error');
};

describe('options are checked', () => {
  it('a bare number, a misspelt key, a wrong type: FMT0004 instead of a silent EB 0', () => {
    expect(code(() => RFP8.encode(0.1, -8 as never))).toMatchObject({ code: 'FMT0004', message: expect.stringMatching(/options must be an object/), notes: ['for an exponent bias write { eb: -8 }'] });
    expect(code(() => RFP8.encode(0.1, { EB: -8 } as never))).toMatchObject({ code: 'FMT0004', message: expect.stringMatching(/unknown option `EB`/), notes: ['did you mean `eb`?'] });
    expect(code(() => encodeArray(RFP8, [0.1], { eb: '-8' } as never)).message).toMatch(/`eb` must be an integer/);
    expect(code(() => encodeArray(RFP8, [0.1], { rounding: 'up' } as never)).message).toMatch(/'rne' or 'rtz'/);
    expect(code(() => convertArray(RFP8, RFP16, new Uint8Array(1), { fromEB: 1 } as never)).message).toMatch(/unknown option `fromEB`/);
    // the intended call works: 0.1 with EB -8 is not code 0
    expect(RFP8.encode(0.1, { eb: -8 })).not.toBe(0);
    expect(encodeArray(RFP8, [0.1], { eb: -8 })[0]).toBe(RFP8.encode(0.1, { eb: -8 }));
  });
});

describe('decodeArray', () => {
  const codes = encodeArray(RFP8, Float64Array.from([0.1, -3, 0.5]), { eb: -8 });
  it('takes { eb } like encodeArray, and the positional EB still', () => {
    expect(Array.from(decodeArray(RFP8, codes, { eb: -8 }))).toEqual(Array.from(decodeArray(RFP8, codes, -8)));
    expect(decodeArray(RFP8, codes, { eb: -8 })[1]).toBe(-3);
  });
  it('needs an EB for a format with one; not for one without', () => {
    expect(code(() => decodeArray(RFP8, codes)).message).toMatch(/RFP8 codes need their exponent bias/);
    expect(code(() => decodeArray(MNS18, new Uint32Array(1), {})).code).toBe('FMT0004');
    expect(Array.from(decodeArray(FP16BP8, new Uint16Array([256, 0xff00])))).toEqual([1, -1]);
  });
  it('Float32Array output: { float32: true } or a Float32Array `out`', () => {
    const a = decodeArray(RFP8, codes, { eb: -8, float32: true });
    expect(a).toBeInstanceOf(Float32Array);
    expect(Array.from(a)).toEqual(Array.from(Float32Array.from(decodeArray(RFP8, codes, -8))));
    const out = new Float32Array(3);
    expect(decodeArray(RFP16, new Uint16Array([0, 1, 2]), { eb: 0, out })).toBe(out);
    expect(code(() => decodeArray(RFP8, codes, { eb: -8, out: new Float32Array(1) })).code).toBe('FMT0006');
  });
});

describe('ebForRange', () => {
  it('the smallest EB whose largest value holds the range', () => {
    for (const f of [RFP8, RFP16, LnsI4F3, LnsI5F10, MNS18]) {
      for (const big of [1e-6, 0.1, 1, 3, 1000, 2 ** 20]) {
        const eb = ebForRange(f, { min: -big, max: big / 2 });
        expect(f.decode(f.maxCode, eb)).toBeGreaterThanOrEqual(big);
        expect(f.decode(f.maxCode, eb - 1)).toBeLessThan(big);
        // the top of the range encodes within the format's precision (no saturation far below it)
        expect(Math.abs(f.decode(f.encode(-big, { eb }), eb) / -big - 1), `${f.name} ${big}`).toBeLessThan(0.07);
      }
    }
    expect(ebForRange(RFP8, Float32Array.from([0.5, -7, NaN]))).toBe(ebForRange(RFP8, { min: -7, max: 0.5 }));
    expect(ebForRange(RFP8, [0, 0])).toBe(0);
    expect(code(() => ebForRange(FP16BP8, [1])).code).toBe('FMT0004');
  });
});

describe('fixed point, saturate: false', () => {
  it('wraps modulo 2^W for every finite input, also beyond 2^1016 where x * 2^B overflows', () => {
    for (const [f, w, b] of [[FP16BP8, 16, 8], [FP32BP16, 32, 16]] as const) {
      for (const x of [2 ** 1016, -(2 ** 1016), 2 ** 1023 * 1.5, 1.7976931348623157e308, 3.5, -3.5, 2 ** (w - b) + 0.25]) {
        const c = f.encode(x, { saturate: false });
        expect(Number.isInteger(c), `${f.name} ${x}`).toBe(true);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThan(2 ** w);
        // reference: round(x * 2^B) mod 2^W with BigInt (x is an integer for |x| >= 2^53)
        if (Math.abs(x) >= 2 ** 53) {
          const m = 1n << BigInt(w);
          const want = Number((((BigInt(x) << BigInt(b)) % m) + m) % m);
          expect(c, `${f.name} ${x}`).toBe(want);
        }
      }
      expect(f.encode(3.5, { saturate: false })).toBe(3.5 * 2 ** b);
    }
  });
});

describe('LNS decision boundaries are exact', () => {
  /** b^(2^k) >= 2^t, exactly (full BigInt power of the double's mantissa). */
  const exact = (b: number, k: number, t: number) => {
    const M = BigInt(b * 2 ** 52);
    let x = M;
    for (let i = 0; i < k; i++) x = x * x;
    return x >= 1n << BigInt(52 * 2 ** k + t);
  };
  it('each boundary is the smallest double >= 2^(t/2^k) (F = 3 all, F = 10 a sample incl. 2^(63/2048))', () => {
    const ulp = 2 ** -52;
    const cases: Array<[number, number]> = [];
    for (let t = 1; t < 16; t++) cases.push([4, t]); // F = 3 midpoints
    for (let t = 1; t < 8; t++) cases.push([3, t]); // F = 3 code points
    for (const t of [63, 1, 2047, 700, 1001, 1535]) cases.push([11, t]); // F = 10 midpoints
    for (const [k, t] of cases) {
      const b = boundaryAtLeast(k, t);
      expect(exact(b, k, t), `${k} ${t}`).toBe(true);
      expect(exact(b - ulp, k, t), `${k} ${t}`).toBe(false);
    }
    expect(boundaryAtLeast(11, 63)).toBe(1.0215513452975051);
  });
  it('encode picks the nearest code in the log domain on both sides of a boundary', () => {
    const b = boundaryAtLeast(11, 63); // between fraction codes 31 and 32 of LnsI5F10
    expect(LnsI5F10.encode(b, { eb: 0 }) & 1023).toBe(32);
    expect(LnsI5F10.encode(b - 2 ** -52, { eb: 0 }) & 1023).toBe(31);
    const c = boundaryAtLeast(4, 5); // LnsI4F3, between 2 and 3
    expect(LnsI4F3.encode(c, { eb: 0 }) & 7).toBe(3);
    expect(LnsI4F3.encode(c - 2 ** -52, { eb: 0 }) & 7).toBe(2);
  });
});
