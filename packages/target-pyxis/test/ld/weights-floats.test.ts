import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import {
  beta3x3Kernels, encodeLnsI4F3, pack1x1I4F3DatabaseFromFloats, pack1x1I5F10DatabaseFromFloats, pack3x3DatabaseFromFloats,
  kernel3x3Offset, linear1x1Offset,
} from '../../src/ld/weights/index.js';

/** independent LnsI4F3 reference (chip §4.3): value = +-2^(I.F + EB), 7-bit magnitude m = 8*I + F, m = 0 is zero */
const lnsVal = (c: number, eb: number) => ((c & 0x7f) === 0 ? 0 : (c & 0x80 ? -1 : 1) * 2 ** ((c & 0x7f) / 8 + eb));
/** nearest code in the log domain, saturating */
function lnsRef(x: number, eb: number): number {
  if (x === 0) return 0;
  let m = Math.round(8 * (Math.log2(Math.abs(x)) - eb));
  if (m < 0) m = 0; // I.F rounding to 0 is the zero code
  if (m > 127) m = 127;
  return m === 0 ? 0 : (x < 0 ? 0x80 : 0) | m;
}

describe('float front ends (via @pyxis/formats)', () => {
  it('LnsI4F3 encoding with EB', () => {
    const xs = Float32Array.from([1, -1, 0.5, 3, -0.09, 2 ** -8, 0]);
    const c = encodeLnsI4F3(xs, -8);
    expect(Array.from(c)).toEqual(Array.from(xs, (x) => lnsRef(x, -8)));
    expect(() => encodeLnsI4F3(Float32Array.from([1, NaN]), -8)).toThrow(DiagnosticError);
    expect(() => encodeLnsI4F3(Float32Array.from([1]), 0.5)).toThrow(/exponent bias/);
  });

  it('3x3 database from floats, with a Beta kernel as input channel I', () => {
    const O = 4, I = 3;
    const w = Float32Array.from({ length: O * I * 9 }, (_, k) => ((k % 13) - 6) / 8);
    const beta = Float32Array.from([0.3, -1.7, 0, 5.25]);
    const r = pack3x3DatabaseFromFloats(w, [O, I, 3, 3], { eb: -8, filtersPerGridRow: 2, beta });
    expect(r.layout.M).toBe(I + 1);
    for (let o = 0; o < O; o++) {
      for (let i = 0; i < I; i++) for (let t = 0; t < 9; t++)
        expect(r.bytes[kernel3x3Offset(r.layout, o, i, t)]).toBe(lnsRef(w[(o * I + i) * 9 + t]!, -8));
      let sum = 0;
      for (let t = 0; t < 9; t++) sum += lnsVal(r.bytes[kernel3x3Offset(r.layout, o, I, t)]!, -8);
      // precision limited by the smallest LnsI4F3 magnitude 2^(1/8 + EB)
      expect(Math.abs(sum - beta[o]!)).toBeLessThanOrEqual(Math.abs(beta[o]!) * 2 ** -10 + 2 ** -8);
    }
    expect(r.betaMaxRelError).toBeLessThan(2 ** -8 / 0.3);
  });

  it('Beta 3x3: nine LnsI4F3 taps approximate Beta far better than one', () => {
    const eb = -12; // max 9 x 2^(15.875 - 12) ~ 132, min magnitude 2^(0.125 - 12)
    const b = Float64Array.from([1.2345, -3.3, 100.5, 0.75]);
    const r = beta3x3Kernels(b, eb);
    let worst = 0;
    for (let o = 0; o < b.length; o++) {
      let sum = 0;
      for (let t = 0; t < 9; t++) sum += lnsVal(r.kernels[o * 9 + t]!, eb);
      const rel = Math.abs(sum - b[o]!) / Math.abs(b[o]!);
      worst = Math.max(worst, rel);
      expect(rel).toBeLessThan(2 ** -11); // better than LnsI5F10's 10 fraction bits
      const one = Math.abs(lnsVal(lnsRef(b[o]!, eb), eb) - b[o]!) / Math.abs(b[o]!);
      expect(rel).toBeLessThan(one);
      const taps = Array.from(r.kernels.subarray(o * 9, o * 9 + 9), (c) => Math.abs(lnsVal(c, eb)));
      expect(taps[4]).toBe(Math.max(...taps)); // CC holds the largest term
    }
    expect(r.maxRelError).toBeCloseTo(worst, 12);
  });

  it('1x1 databases from floats; Beta as LnsI5F10', () => {
    const O = 9, I = 5;
    const w = Float32Array.from({ length: O * I }, (_, k) => (k - 20) / 16);
    const beta = Float32Array.from({ length: O }, (_, o) => o - 4);
    const r8 = pack1x1I4F3DatabaseFromFloats(w, [O, I], { eb: -6, beta, betaEb: -15 });
    for (let o = 0; o < O; o++) {
      for (let i = 0; i < I; i++) expect(r8.bytes[linear1x1Offset(r8.layout, o, i)]).toBe(lnsRef(w[o * I + i]!, -6));
      const off = linear1x1Offset(r8.layout, o, I);
      const code = r8.bytes[off]! | (r8.bytes[off + 1]! << 8);
      const v = (code & 0x7fff) === 0 ? 0 : (code & 0x8000 ? -1 : 1) * 2 ** ((code & 0x7fff) / 1024 - 15);
      expect(v).toBeCloseTo(beta[o]!, 2);
    }
    const r16 = pack1x1I5F10DatabaseFromFloats(w, [O, I], { eb: -10 });
    const off = linear1x1Offset(r16.layout, 8, 4);
    const code = r16.bytes[off]! | (r16.bytes[off + 1]! << 8);
    expect(2 ** ((code & 0x7fff) / 1024 - 10)).toBeCloseTo(w[8 * I + 4]!, 3);
  });
});
