/**
 * The Tensil fixed-point types (systolic-fpga-hardware.md §1; docs/spec-notes.md "formats: fixed
 * point ..." and "systolic: fixed-point multiply-accumulate"): golden values worked out by hand
 * from the definitions, and an independent BigInt reference (exact rationals, no floats, no
 * shifts of the implementation) compared by fast-check properties.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FP8BP4, FP16BP8, FP18BP10, FP32BP16, Int16, decodeArray, decodeFixedInt32, encodeArray, encodeFixedInt32,
  fixedMac, fixedMacRaw, fixedMatVec, fixedMatVec16, fixedMul, fixedSaturate, formats, getFormat, type FixedPoint,
} from '../src/index.js';

// ---- independent reference ------------------------------------------------------------------

interface Ty { W: number; B: number }
const TYPES: Array<[FixedPoint, Ty]> = [
  [FP8BP4, { W: 8, B: 4 }],
  [FP16BP8, { W: 16, B: 8 }],
  [FP18BP10, { W: 18, B: 10 }],
  [FP32BP16, { W: 32, B: 16 }],
];

const lo = (t: Ty): bigint => -(1n << BigInt(t.W - 1));
const hi = (t: Ty): bigint => (1n << BigInt(t.W - 1)) - 1n;
const clamp = (t: Ty, v: bigint): bigint => (v < lo(t) ? lo(t) : v > hi(t) ? hi(t) : v);
/** floor(n / d) for d > 0 (BigInt division truncates). */
const floorDiv = (n: bigint, d: bigint): bigint => (n >= 0n ? n / d : -((-n + d - 1n) / d));

/** clamp(nearest-even(n / d)), d > 0. */
function rneRef(t: Ty, n: bigint, d: bigint): bigint {
  const q = floorDiv(n, d);
  const r2 = 2n * (n - q * d); // twice the remainder, in [0, 2d)
  const up = r2 > d || (r2 === d && (q & 1n) === 1n);
  return clamp(t, up ? q + 1n : q);
}

/** mac(x, y, z) = clamp(rne((x*y + z*2^B) / 2^B)) on signed integers. */
function macRef(t: Ty, x: bigint, y: bigint, z: bigint): bigint {
  const d = 1n << BigInt(t.B);
  return rneRef(t, x * y + z * d, d);
}

/** A finite double as an exact fraction num / den (den a power of two), from its bits. */
function exact(x: number): [bigint, bigint] {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const bits = dv.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  const e = Number((bits >> 52n) & 0x7ffn);
  const f = bits & ((1n << 52n) - 1n);
  const m = e === 0 ? f : f | (1n << 52n);
  const p = (e === 0 ? 1 : e) - 1075; // x = m * 2^p
  const num = neg ? -m : m;
  return p >= 0 ? [num << BigInt(p), 1n] : [num, 1n << BigInt(-p)];
}

/** float -> fixed: nearest with ties toward +infinity (Java Math.round), clamp; NaN -> 0. */
function encodeRef(t: Ty, x: number): bigint {
  if (Number.isNaN(x)) return 0n;
  if (x === Infinity) return hi(t);
  if (x === -Infinity) return lo(t);
  const [n, d] = exact(x);
  // round(n * 2^B / d) half up = floor((2 n 2^B + d) / 2d)
  return clamp(t, floorDiv(2n * n * (1n << BigInt(t.B)) + d, 2n * d));
}

const toCode = (t: Ty, v: bigint): number => Number(v < 0n ? v + (1n << BigInt(t.W)) : v);
const signedArb = (t: Ty): fc.Arbitrary<number> => fc.integer({ min: -(2 ** (t.W - 1)), max: 2 ** (t.W - 1) - 1 });
/** Mostly small operands (products land on ties often), sometimes the whole range. */
const operandArb = (t: Ty): fc.Arbitrary<number> =>
  fc.oneof({ arbitrary: fc.integer({ min: -(2 ** t.B) - 4, max: 2 ** t.B + 4 }), weight: 3 }, { arbitrary: signedArb(t), weight: 1 });
/** Values near the rounding points: k/2 LSBs (ties), a hair either side, and arbitrary doubles. */
const floatArb = (t: Ty): fc.Arbitrary<number> =>
  fc.oneof(
    fc.integer({ min: -(2 ** t.W), max: 2 ** t.W }).map((k) => k / 2 / 2 ** t.B),
    fc.tuple(fc.integer({ min: -(2 ** t.W), max: 2 ** t.W }), fc.constantFrom(-1e-9, 1e-9)).map(([k, e]) => (k / 2 + e) / 2 ** t.B),
    fc.double({ noNaN: false }),
    fc.constantFrom(0.49999999999999994 / 2 ** t.B, -0.49999999999999994 / 2 ** t.B, -0, 2 ** (t.W - t.B - 1), -(2 ** (t.W - t.B - 1))),
  );

// ---- golden values (by hand from the definitions) ---------------------------------------------

describe('Tensil fixed point: golden values', () => {
  it('registry: widths, binary points, aliases', () => {
    expect([FP8BP4, FP16BP8, FP18BP10, FP32BP16].map((f) => [f.name, f.bits, f.fbits])).toEqual([
      ['FP8BP4', 8, 4], ['FP16BP8', 16, 8], ['FP18BP10', 18, 10], ['FP32BP16', 32, 16],
    ]);
    expect(getFormat('FP32B16')).toBe(formats.FP32BP16);
    expect(getFormat('FP18BP10')).toBe(FP18BP10);
  });

  it('FP16BP8 encode: ties up, saturate, NaN -> 0', () => {
    expect(FP16BP8.encode(1.5)).toBe(0x0180);
    expect(FP16BP8.encode(-1.5)).toBe(0xfe80);
    expect(FP16BP8.encode(1 / 512)).toBe(1); // 0.5 LSB -> up
    expect(FP16BP8.encode(-1 / 512)).toBe(0); // -0.5 LSB -> up, to 0
    expect(FP16BP8.encode(3 / 512)).toBe(2); // 1.5 -> 2
    expect(FP16BP8.encode(-3 / 512)).toBe(0xffff); // -1.5 -> -1
    expect(FP16BP8.encode(0.49999999999999994 / 256)).toBe(0); // below the tie, not floor(x + 0.5)
    expect(FP16BP8.encode(127.998046875)).toBe(0x7fff); // 32767.5 -> 32768 -> saturates
    expect(FP16BP8.encode(128)).toBe(0x7fff);
    expect(FP16BP8.encode(-128)).toBe(0x8000);
    expect(FP16BP8.encode(-1e9)).toBe(0x8000);
    expect(FP16BP8.encode(Infinity)).toBe(0x7fff);
    expect(FP16BP8.encode(NaN)).toBe(0);
    expect(FP16BP8.encode(-0)).toBe(0);
    expect(FP16BP8.decode(0x7fff)).toBe(127.99609375);
    expect(FP16BP8.decode(0x8000)).toBe(-128);
    expect(FP16BP8.decode(0xff00)).toBe(-1);
  });

  it('FP8BP4, FP18BP10, FP32BP16 encode/decode', () => {
    expect(FP8BP4.encode(1.03125)).toBe(0x11); // 16.5 -> 17
    expect(FP8BP4.decode(0x7f)).toBe(7.9375);
    expect(FP8BP4.decode(0x80)).toBe(-8);
    expect(FP8BP4.encode(-0.03125)).toBe(0); // -0.5 -> 0
    expect(FP18BP10.decode(0x1ffff)).toBe(127.9990234375);
    expect(FP18BP10.decode(0x20000)).toBe(-128);
    expect(FP18BP10.encode(-128)).toBe(0x20000);
    expect(FP18BP10.encode(0.5)).toBe(0x200);
    expect(FP32BP16.encode(1.5)).toBe(0x18000);
    expect(FP32BP16.decode(0x80000000)).toBe(-32768);
    expect(FP32BP16.encode(-1 / 65536)).toBe(0xffffffff);
    expect(FP32BP16.encode(40000)).toBe(0x7fffffff);
  });

  it('multiply-accumulate: nearest-even per step, saturation', () => {
    // 1.5 * 2.25 + 1 = 4.375 = 1120 / 256
    expect(fixedMac(FP16BP8, 0x0180, 0x0240, 0x0100)).toBe(0x0460);
    expect(fixedMac(FP16BP8, 1, 128, 0)).toBe(0); // 0.5 LSB -> even 0
    expect(fixedMac(FP16BP8, 3, 128, 0)).toBe(2); // 1.5 -> 2
    expect(fixedMac(FP16BP8, 5, 128, 0)).toBe(2); // 2.5 -> 2
    expect(fixedMac(FP16BP8, 1, 128, 1)).toBe(2); // 1 + 0.5 -> 2 (the accumulator counts for parity)
    expect(fixedMac(FP16BP8, 0xffff, 128, 0)).toBe(0); // -0.5 -> 0
    expect(fixedMac(FP16BP8, 0xfffd, 128, 0)).toBe(0xfffe); // -1.5 -> -2
    expect(fixedMac(FP16BP8, 0xfffd, 129, 0)).toBe(0xfffe); // -387/256 = -1.51.. -> -2
    expect(fixedMac(FP16BP8, 0x7fff, 0x7fff, 0)).toBe(0x7fff);
    expect(fixedMac(FP16BP8, 0x8000, 0x8000, 0)).toBe(0x7fff); // 16384 saturates
    expect(fixedMac(FP16BP8, 0x8000, 0x7fff, 0x8000)).toBe(0x8000);
    expect(fixedMac(FP16BP8, 0x0100, 0x0100, 0x7fff)).toBe(0x7fff); // 1 + 127.996 saturates
    expect(fixedMac(FP8BP4, 0x18, 0x18, 0x10)).toBe(0x34); // 1.5 * 1.5 + 1 = 3.25
    expect(fixedMac(FP32BP16, 0x7fffffff, 0x7fffffff, 0)).toBe(0x7fffffff);
    expect(fixedMac(FP32BP16, 1, 0x8000, 0)).toBe(0);
    expect(fixedMac(FP32BP16, 3, 0x8000, 0)).toBe(2);
    expect(fixedMac(FP32BP16, 0x10000, 0x10000, 0x10000)).toBe(0x20000);
    expect(fixedMac(FP18BP10, 0x3ffff, 0x200, 0)).toBe(0); // -1 LSB * 0.5 = -0.5 -> 0
    expect(fixedMul(FP16BP8, 0x0180, 0x0240)).toBe(fixedMac(FP16BP8, 0x0180, 0x0240, 0));
    expect(fixedMac(Int16, 0x7fff, 2, 0)).toBe(0x7fff); // binary point 0: plain saturating
    expect(fixedMac(Int16, 3, 0xfffe, 1)).toBe(0xfffb); // 3 * -2 + 1 = -5
    expect(() => fixedMac(FP16BP8, 0x10000, 1, 0)).toThrow(/FMT0003|does not fit/);
  });
});

// ---- properties against the reference --------------------------------------------------------

describe('Tensil fixed point: properties', () => {
  for (const [fmt, t] of TYPES) {
    it(`${fmt.name}: mac equals the BigInt reference`, () => {
      fc.assert(
        fc.property(signedArb(t), signedArb(t), signedArb(t), (x, y, z) => {
          const want = Number(macRef(t, BigInt(x), BigInt(y), BigInt(z)));
          expect(fixedMacRaw(fmt, x, y, z)).toBe(want);
          expect(fixedMac(fmt, fmt.fromSigned(x), fmt.fromSigned(y), fmt.fromSigned(z))).toBe(fmt.fromSigned(want));
        }),
        { numRuns: 2000 },
      );
    });

    it(`${fmt.name}: encode equals the reference (ties up, saturating), scalar and arrays`, () => {
      fc.assert(
        fc.property(fc.array(floatArb(t), { maxLength: 40 }), (xs) => {
          const want = xs.map((x) => toCode(t, encodeRef(t, x)));
          expect(xs.map((x) => fmt.encode(x))).toEqual(want);
          expect(Array.from(encodeArray(fmt, Float64Array.from(xs)))).toEqual(want);
          expect(Array.from(encodeFixedInt32(fmt, xs))).toEqual(xs.map((x) => Number(encodeRef(t, x))));
        }),
        { numRuns: 500 },
      );
    });

    it(`${fmt.name}: decode(code) = signed / 2^B and re-encodes to the code`, () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: 2 ** t.W - 1 }), { minLength: 1, maxLength: 30 }), (codes) => {
          const signed = codes.map((c) => (c >= 2 ** (t.W - 1) ? c - 2 ** t.W : c));
          const vals = signed.map((q) => q / 2 ** t.B);
          expect(codes.map((c) => fmt.decode(c))).toEqual(vals);
          expect(codes.map((c) => fmt.encode(fmt.decode(c)))).toEqual(codes);
          const arr = t.W <= 8 ? Uint8Array.from(codes) : t.W <= 16 ? Uint16Array.from(codes) : Uint32Array.from(codes);
          expect(Array.from(decodeArray(fmt, arr))).toEqual(vals);
          expect(Array.from(decodeFixedInt32(fmt, Int32Array.from(signed)))).toEqual(vals);
          for (const q of signed) expect(fixedSaturate(fmt, q)).toBe(q);
        }),
        { numRuns: 300 },
      );
    });

    it(`${fmt.name}: fixedMatVec equals the reference chain (bias, then one mac per row)`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 6 }).chain((N) =>
            fc.tuple(fc.constant(N), fc.array(operandArb(t), { minLength: N, maxLength: N }), fc.array(operandArb(t), { minLength: (N + 1) * N, maxLength: (N + 1) * N })),
          ),
          ([N, x, w]) => {
            const want: number[] = [];
            for (let j = 0; j < N; j++) {
              let s = BigInt(w[j * (N + 1)]!);
              for (let k = 1; k <= N; k++) s = macRef(t, BigInt(x[k - 1]!), BigInt(w[j * (N + 1) + k]!), s);
              want.push(Number(s));
            }
            const y = new Int32Array(N);
            fixedMatVec(fmt, Int32Array.from(x), Int32Array.from(w), y, N);
            expect(Array.from(y)).toEqual(want);
            if (t.W <= 16) {
              const y16 = new Int32Array(N);
              fixedMatVec16(Int32Array.from(x), Int32Array.from(w), y16, N, t.B, fmt.maxInt, fmt.minInt);
              expect(Array.from(y16)).toEqual(want);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('FP8BP4 and FP16BP8: exhaustive mac rounding around the half for small operands', () => {
    for (const [fmt, t] of TYPES.slice(0, 2)) {
      for (let x = -40; x <= 40; x++)
        for (let y = -(2 ** t.B) - 3; y <= 2 ** t.B + 3; y++)
          for (const z of [-3, 0, 1, 2 ** (t.W - 1) - 1]) {
            const want = Number(macRef(t, BigInt(x), BigInt(y), BigInt(z)));
            if (fixedMacRaw(fmt, x, y, z) !== want) expect.fail(`${fmt.name} mac(${x}, ${y}, ${z})`);
          }
    }
  });
});
