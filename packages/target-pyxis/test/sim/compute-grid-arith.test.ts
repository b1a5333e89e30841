/**
 * LLC arithmetic of the grid (chip §4.6, §4.7, §6.3.3; docs/spec-notes.md "adder tree"): the product table, the
 * fast MNS rounding, one LLC row and the split sum against the independent reference of compute-grid-ref.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { llcProduct, lnsI5F3ToI5F10, MNS13, MNS18, mnsRoundValue, twoSum } from '@pyxis/formats';
import { I5F3_OP, llcRow1x1, llcRow3x3, opSpan, productTables, splitSum, toOp, WIN_PTN, WIN_ROW, ZERO_OP } from '../../src/sim/uie/compute/llc.js';
import { accumulate, codeValue, llcRef, splitRef } from './compute-grid-ref.js';

const IDX = 0x3ffff;
const SIGN = 0x40000;
function prod(T: Float32Array, a: number, b: number): number {
  return T[((a + b) & IDX) | ((a ^ b) & SIGN)]!;
}

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

describe('grid arithmetic', () => {
  it('product table = llcProduct (all LnsI5F3 weights x sampled LnsI5F10 data, both corrections, specials)', () => {
    const [Tc, Tn] = productTables();
    const r = rng(7);
    const data = [0, 0x8000, 0x7fff, 0xffff, 1, 0x8001, 0x4000, 0xc3ff];
    for (let i = 0; i < 300; i++) data.push(r() & 0xffff);
    const bad: string[] = [];
    const check = (a: number, b: number): void => {
      for (const corr of [true, false]) {
        const got = prod(corr ? Tc : Tn, toOp(a), toOp(b));
        const want = llcProduct(a, b, corr);
        if (!Object.is(got, want) && bad.length < 5) bad.push(`${a.toString(16)} x ${b.toString(16)} corr=${corr}: ${got} != ${want}`);
      }
    };
    for (let w = 0; w < 512; w++) {
      const a = lnsI5F3ToI5F10(w);
      if (I5F3_OP[w] !== toOp(a)) bad.push(`I5F3_OP[${w}]`);
      for (const b of data) check(a, b);
    }
    // LnsI5F10 x LnsI5F10 (16-bit horizontal data)
    for (let i = 0; i < 20000; i++) check(r() & 0xffff, r() & 0xffff);
    expect(bad).toEqual([]);
  });

  it('mnsRoundValue = MNS encode/decode on doubles (random, powers of two, ties, range edges)', () => {
    const r = rng(11);
    const xs: number[] = [0, 1, -1, 2, -2, 0.5, -0.5, 1 + 2 ** -13, -(1 + 2 ** -13), 2 ** 31, -(2 ** 31), 2 ** 32, -(2 ** 32), 1.9999 * 2 ** 31, -1.99999 * 2 ** 31];
    for (let e = -3; e <= 34; e++) {
      xs.push(2 ** e, -(2 ** e), 2 ** e * (1 + 2 ** -14), -(2 ** e) * (1 + 2 ** -14), 2 ** e * (1 + 3 * 2 ** -14), -(2 ** e) * (1 + 3 * 2 ** -14));
      xs.push(2 ** e * (2 - 2 ** -14), -(2 ** e) * (2 - 2 ** -14), 2 ** e * (1 + 2 ** -19), -(2 ** e) * (1 + 3 * 2 ** -19));
    }
    for (let i = 0; i < 20000; i++) {
      const m = (r() / 2 ** 32) * 2 - 1;
      xs.push(m * 2 ** ((r() % 40) - 4));
    }
    const bad: string[] = [];
    for (const x of xs) {
      if (!Object.is(mnsRoundValue(x, 0, 13), codeValue(MNS13, MNS13.encode(x))) && bad.length < 5) bad.push(`13: ${x}`);
      if (!Object.is(mnsRoundValue(x, 0, 18), codeValue(MNS18, MNS18.encode(x))) && bad.length < 5) bad.push(`18: ${x}`);
    }
    expect(bad).toEqual([]);
  });

  it('mnsRoundValue breaks exact MNS ties with the TwoSum residual', () => {
    const out = new Float64Array(1);
    // 1 + 2^-14 is a tie for MNS13 at E = 0; +-2^-60 decides
    for (const [a, b] of [[1 + 2 ** -14, 2 ** -60], [1 + 2 ** -14, -(2 ** -60)], [-(1 + 3 * 2 ** -14), 2 ** -70], [-(1 + 3 * 2 ** -14), -(2 ** -70)], [2 ** 20 * (1 + 2 ** -14), 2 ** -40]] as const) {
      const s = twoSum(a, b, out);
      expect(s).toBe(a); // the residual is lost in the double sum
      expect(mnsRoundValue(s, out[0]!, 13)).toBe(accumulate(MNS13, 0, [a, b]));
    }
  });

  it('mnsRoundValue(TwoSum(a, b)) = the exact a + b rounded once (property, both formats)', () => {
    const out = new Float64Array(1);
    const dy = fc.tuple(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), fc.integer({ min: -40, max: 20 })).map(([m, e]) => m * 2 ** e);
    fc.assert(
      fc.property(dy, dy, fc.boolean(), (a, b, wide) => {
        const s = twoSum(a, b, out);
        const fmt = wide ? MNS18 : MNS13;
        expect(mnsRoundValue(s, out[0]!, wide ? 18 : 13)).toBe(accumulate(fmt, 0, [a, b]));
      }),
      { numRuns: 3000 },
    );
  });

  it('one LLC row (8 FP8 / 4 FP16 products) = the reference, exact sum then one rounding (property)', () => {
    const [Tc, Tn] = productTables();
    const aa = new Float64Array(4);
    const vSpan = new Uint8Array(4);
    const h = new Int32Array(8);
    const v = new Int32Array(4 * 8);
    const code = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0x3000, max: 0x5fff }), fc.integer({ min: 0xb000, max: 0xdfff }), fc.constantFrom(0, 0x8000, 0x7fff, 0xffff));
    const acc = fc.oneof(fc.constant(0), fc.constantFrom(Infinity, -Infinity, NaN), fc.double({ min: -(2 ** 30), max: 2 ** 30, noNaN: true }).map((x) => codeValue(MNS13, MNS13.encode(x))));
    fc.assert(
      fc.property(fc.array(code, { minLength: 8, maxLength: 8 }), fc.array(code, { minLength: 32, maxLength: 32 }), fc.array(acc, { minLength: 4, maxLength: 4 }), fc.boolean(), fc.boolean(), (hs, vs, as, corr, wide) => {
        const nh = wide ? 4 : 8;
        const voff = wide ? 3 : 0;
        for (let k = 0; k < 8; k++) h[k] = toOp(hs[k]!);
        for (let i = 0; i < 32; i++) v[i] = toOp(vs[i]!);
        // both the exact plain-sum fast path (real spans) and the integer/fraction split (spans forced to 255)
        for (const forceSlow of [false, true]) {
          for (let c = 0; c < 4; c++) {
            aa[c] = as[c]!;
            vSpan[c] = forceSlow ? 255 : opSpan(v, c * 8, 8, 1);
          }
          llcRow1x1(corr ? Tc : Tn, h, 0, nh, voff, v, vSpan, aa, 0, false, 0, 4, 1);
          for (let c = 0; c < 4; c++) {
            const want = llcRef(as[c]!, hs.slice(0, nh), vs.slice(c * 8 + voff, c * 8 + voff + nh), corr);
            expect(aa[c]).toBe(want);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('one 3x3 LLC partition row = the reference (9 products over the padded window)', () => {
    const [Tc] = productTables();
    const r = rng(5);
    const k = new Int32Array(8 * 9);
    const kc: number[] = [];
    for (let t = 0; t < 72; t++) {
      const c = (r() & 0x1ff) | 0x80; // I5 >= 16: products stay in range
      kc.push(lnsI5F3ToI5F10(c));
      k[t] = I5F3_OP[c]!;
    }
    const w = new Int32Array(3 * WIN_ROW).fill(ZERO_OP);
    const wc = new Array<number>(3 * WIN_ROW).fill(0);
    for (let i = 0; i < 3 * WIN_ROW; i++) {
      const narrow = i % WIN_ROW < 4 * WIN_PTN;
      const c = narrow ? 0x4000 + (r() & 0x1fff) + (r() & 0x8000) : 0x2000 + (r() & 0x5fff) + (r() & 0x8000);
      wc[i] = c;
      w[i] = toOp(c);
    }
    const aa = new Float64Array(128);
    const wSpan = new Uint8Array(8);
    // partitions 0..3: the real exponent span of their window (fast path when small enough); 4..7 forced slow
    const rowsOf = new Int32Array(54);
    for (let p = 0; p < 8; p++) {
      for (let q = 0; q < 3; q++) for (let i = 0; i < 18; i++) rowsOf[q * 18 + i] = w[q * WIN_ROW + p * WIN_PTN + i]!;
      wSpan[p] = p < 4 ? opSpan(rowsOf, 0, 54, 1) : 255;
    }
    llcRow3x3(Tc, k, 0, w, wSpan, aa, 0, true, 8, 0, 1);
    for (let p = 0; p < 8; p++)
      for (let j = 0; j < 16; j++) {
        const hh = kc.slice(p * 9, p * 9 + 9);
        const vv: number[] = [];
        for (let row = 0; row < 3; row++) for (let dx = 0; dx < 3; dx++) vv.push(wc[row * WIN_ROW + p * WIN_PTN + j + dx]!);
        expect(aa[p * 16 + j]).toBe(llcRef(0, hh, vv, true));
      }
  });

  it('split sum AA(5.1.13) + WBA(5.1.18) -> 5.1.18 = the reference, sticky and NaN rules', () => {
    const r = rng(3);
    const vals: number[] = [0, Infinity, -Infinity, NaN];
    for (let i = 0; i < 3000; i++) {
      const x = ((r() / 2 ** 32) * 2 - 1) * 2 ** (r() % 33);
      vals.push(codeValue(MNS13, MNS13.encode(x)));
    }
    for (let i = 0; i < 3000; i++) {
      const aa = vals[r() % vals.length]!;
      const wba = codeValue(MNS18, MNS18.encode(((r() / 2 ** 32) * 2 - 1) * 2 ** (r() % 33)));
      expect(splitSum(aa, wba)).toBe(splitRef(aa, wba));
    }
    expect(splitSum(Infinity, -Infinity)).toBeNaN();
    expect(splitSum(Infinity, 5)).toBe(Infinity);
  });

  it('hot loop throughput: >= 100 M MAC/s target (reported; asserted >= 10 M on a loaded machine)', () => {
    const [Tc] = productTables();
    const r = rng(9);
    const h = new Int32Array(16 * 8);
    for (let i = 0; i < h.length; i++) h[i] = toOp(0x3c00 + (r() & 0x7ff) + (r() & 0x8000));
    const v = new Int32Array(128 * 8);
    for (let i = 0; i < v.length; i++) v[i] = toOp(0x3800 + (r() & 0xfff) + (r() & 0x8000));
    const aa = new Float64Array(16 * 8 * 128);
    const vSpan = new Uint8Array(128);
    for (let c = 0; c < 128; c++) vSpan[c] = opSpan(v, c * 8, 8, 1);
    const run = (n: number): void => {
      for (let it = 0; it < n; it++) for (let row = 0; row < 16; row++) llcRow1x1(Tc, h, row * 8, 8, 0, v, vSpan, aa, (row * 8 + (it & 7)) * 128, (it & 63) === 0, 0, 128, 1);
    };
    run(200); // warm-up
    const n = 1500;
    const t0 = process.cpuUsage(); // CPU time: the machine is shared
    run(n);
    const dt = process.cpuUsage(t0);
    const s = (dt.user + dt.system) / 1e6;
    const macs = (n * 16 * 128 * 8) / s;
    console.log(`grid hot loop: ${(macs / 1e6).toFixed(0)} M MAC/s (${((n / s) | 0)} Exec_Valid/s)`);
    expect(macs).toBeGreaterThan(10e6);
  });
});
