import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { f32Add, f32Mul, f32Sub, fpFlags, resetFpFlags, FLAG_INEXACT, FLAG_INVALID, FLAG_OVERFLOW, FLAG_UNDERFLOW } from '@pyxis/target-xnu';
import { NAN, RMODES, exactAdd, exactMul, refAdd, refFlags, refMul, refSub } from './fp32ref.js';

const MODES = Object.entries(RMODES);

/** fp32 bit patterns weighted toward the hard cases: subnormals, the extremes of the exponent, specials, close exponents. */
const bits = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.record({ s: fc.integer({ min: 0, max: 1 }), e: fc.oneof(fc.constantFrom(0, 1, 2, 254, 255), fc.integer({ min: 100, max: 154 })), f: fc.oneof(fc.integer({ min: 0, max: 0x7fffff }), fc.constantFrom(0, 1, 0x7fffff, 0x400000, 0x3fffff)) }).map(({ s, e, f }) => ((s << 31) | (e << 23) | f) >>> 0),
);

function hex(x: number): string {
  return '0x' + (x >>> 0).toString(16).padStart(8, '0');
}

describe('fp32 against the exact BigInt reference', () => {
  for (const [name, rm] of MODES) {
    it(`add/sub/mul under round_${name}`, () => {
      fc.assert(
        fc.property(bits, bits, (a, b) => {
          expect(hex(f32Add(a, b, rm, 1))).toBe(hex(refAdd(a, b, rm)));
          expect(hex(f32Sub(a, b, rm, 1))).toBe(hex(refSub(a, b, rm)));
          expect(hex(f32Mul(a, b, rm, 0))).toBe(hex(refMul(a, b, rm)));
        }),
        { numRuns: 1500 },
      );
    });
  }

  it('the reference itself rounds hand-derived cases correctly (a test of the test)', () => {
    // 1 + 2^-24 is the midpoint between 1 and 1 + 2^-23.
    const one = 0x3f800000, half_ulp = 0x33800000;
    expect(hex(refAdd(one, half_ulp, RMODES.near_even))).toBe('0x3f800000');
    expect(hex(refAdd(one, half_ulp, RMODES.near_maxMag))).toBe('0x3f800001');
    expect(hex(refAdd(one, half_ulp, RMODES.max))).toBe('0x3f800001');
    expect(hex(refAdd(one, half_ulp, RMODES.odd))).toBe('0x3f800001');
    expect(hex(refAdd(one, half_ulp, RMODES.minMag))).toBe('0x3f800000');
    // max finite * 2 overflows: to infinity in the near modes, to max finite toward zero.
    expect(hex(refMul(0x7f7fffff, 0x40000000, RMODES.near_even))).toBe('0x7f800000');
    expect(hex(refMul(0x7f7fffff, 0x40000000, RMODES.minMag))).toBe('0x7f7fffff');
    expect(hex(refMul(0xff7fffff, 0x40000000, RMODES.max))).toBe('0xff7fffff');
  });
});

describe('fp32 exception flags against the reference (tininess before and after rounding)', () => {
  // Operands near the bottom of the exponent range, so that products and sums land around 2^-126.
  const small = fc.record({ s: fc.integer({ min: 0, max: 1 }), e: fc.integer({ min: 0, max: 130 }), f: fc.oneof(fc.integer({ min: 0, max: 0x7fffff }), fc.constantFrom(0, 1, 0x7fffff, 0x7ffffe)) }).map(({ s, e, f }) => ((s << 31) | (e << 23) | f) >>> 0);
  // Products that land just below 2^-126, where the two tininess detections differ: ~1 x ~2^-126.
  const edge = fc.record({ s: fc.integer({ min: 0, max: 1 }), e: fc.constantFrom(0, 1, 126, 127, 128), f: fc.oneof(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0x7ffff0, max: 0x7fffff })) }).map(({ s, e, f }) => ((s << 31) | (e << 23) | f) >>> 0);
  const operand = fc.oneof(small, edge);
  for (const [name, rm] of MODES)
    it(`underflow and inexact flags under round_${name}`, () => {
      fc.assert(
        fc.property(operand, operand, fc.boolean(), (a, b, after) => {
          for (const [op, exact] of [[f32Mul, exactMul], [f32Add, exactAdd]] as const) {
            const x = exact(a, b);
            if (!x) continue;
            resetFpFlags();
            op(a, b, rm, after ? 1 : 0);
            const want = refFlags(x.neg, x.m, x.e, rm, after);
            expect({ inexact: (fpFlags & FLAG_INEXACT) !== 0, underflow: (fpFlags & FLAG_UNDERFLOW) !== 0 }).toEqual(want);
          }
        }),
        { numRuns: 800 },
      );
    });
});

describe('fp32 hand-derived cases', () => {
  const rne = RMODES.near_even;
  it('midpoint ties under every mode (1 + 2^-24)', () => {
    const one = 0x3f800000, h = 0x33800000;
    const want: Record<string, number> = { near_even: 0x3f800000, minMag: 0x3f800000, min: 0x3f800000, max: 0x3f800001, near_maxMag: 0x3f800001, odd: 0x3f800001 };
    for (const [name, rm] of MODES) expect(hex(f32Add(one, h, rm, 1)), name).toBe(hex(want[name]!));
    // Negative: -1 - 2^-24.
    const wantNeg: Record<string, number> = { near_even: 0xbf800000, minMag: 0xbf800000, min: 0xbf800001, max: 0xbf800000, near_maxMag: 0xbf800001, odd: 0xbf800001 };
    for (const [name, rm] of MODES) expect(hex(f32Sub(0xbf800000, h, rm, 1)), name).toBe(hex(wantNeg[name]!));
  });

  it('exact cancellation gives +0, and -0 when rounding down (round_min)', () => {
    for (const [name, rm] of MODES) expect(hex(f32Sub(0x40490fdb, 0x40490fdb, rm, 1)), name).toBe(rm === RMODES.min ? '0x80000000' : '0x00000000');
  });

  it('NaNs are the canonical quiet NaN; invalid operations flag invalid', () => {
    resetFpFlags();
    expect(hex(f32Add(0x7fc12345, 0x3f800000, rne, 1))).toBe(hex(NAN));
    expect(fpFlags & FLAG_INVALID).toBe(0); // a quiet NaN operand is not invalid
    expect(hex(f32Mul(0xff812345, 0x3f800000, rne, 1))).toBe(hex(NAN));
    expect(fpFlags & FLAG_INVALID).toBe(FLAG_INVALID); // signaling NaN
    resetFpFlags();
    expect(hex(f32Sub(0x7f800000, 0x7f800000, rne, 1))).toBe(hex(NAN)); // inf - inf
    expect(fpFlags & FLAG_INVALID).toBe(FLAG_INVALID);
    resetFpFlags();
    expect(hex(f32Mul(0x7f800000, 0x80000000, rne, 1))).toBe(hex(NAN)); // inf * -0
    expect(fpFlags & FLAG_INVALID).toBe(FLAG_INVALID);
  });

  it('overflow flags and saturates by mode', () => {
    resetFpFlags();
    expect(hex(f32Mul(0x7f7fffff, 0x40000000, RMODES.odd, 1))).toBe('0x7f7fffff');
    expect(fpFlags & (FLAG_OVERFLOW | FLAG_INEXACT)).toBe(FLAG_OVERFLOW | FLAG_INEXACT);
  });

  it('tininess: (1 + 2^-23) x (2^-126 - 2^-149) underflows only when tininess is detected before rounding', () => {
    // Exact product 2^-126 (1 - 2^-46): below 2^-126 (tiny before rounding); rounded to 24 bits with an
    // unbounded exponent it is 2^-126 (not tiny after rounding). Nearest-even gives the minimum normal either way.
    const a = 0x3f800001, b = 0x007fffff;
    resetFpFlags();
    expect(hex(f32Mul(a, b, rne, 0))).toBe('0x00800000');
    expect(fpFlags & (FLAG_UNDERFLOW | FLAG_INEXACT)).toBe(FLAG_UNDERFLOW | FLAG_INEXACT);
    resetFpFlags();
    expect(hex(f32Mul(a, b, rne, 1))).toBe('0x00800000');
    expect(fpFlags & (FLAG_UNDERFLOW | FLAG_INEXACT)).toBe(FLAG_INEXACT);
    // Toward zero the result stays subnormal: tiny under both detections.
    resetFpFlags();
    expect(hex(f32Mul(a, b, RMODES.minMag, 1))).toBe('0x007fffff');
    expect(fpFlags & FLAG_UNDERFLOW).toBe(FLAG_UNDERFLOW);
  });

  it('an exact subnormal result raises no underflow', () => {
    resetFpFlags();
    expect(hex(f32Add(0x00000003, 0x00000005, rne, 0))).toBe('0x00000008');
    expect(fpFlags).toBe(0);
  });
});
