import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Pex8Datapath, OP_DOT, OP_L1, OP_L2, OP_SV, type DatapathConfig } from '@pyxis/target-xnu';
import { RMODES, refAdd, refMul, refSub } from './fp32ref.js';

const u = (x: number) => x >>> 0;
const cfgInt = (op: number, l1Abs = false): DatapathConfig => ({ op, useInt: true, rounding: 0, tininess: 1, l1Abs });

/** A beat where every PE sees the same inputs (the spec's waveform tests: "ALL PE modules have the same set of inputs"). */
function beat(x0: number, y0: number, x1: number, y1: number): { x: Uint32Array; y: Uint32Array } {
  const x = new Uint32Array(16);
  const y = new Uint32Array(16);
  for (let p = 0; p < 8; p++) {
    x[2 * p] = u(x0);
    y[2 * p] = u(y0);
    x[2 * p + 1] = u(x1);
    y[2 * p + 1] = u(y1);
  }
  return { x, y };
}

/** io_out = PE_0's out_0 + out_1 before the aggregation and after each of its three waves: the partials the waveforms show. */
function partials(dp: Pex8Datapath): number[] {
  return [...dp.waves].map((w) => w | 0);
}

describe('the spec waveforms (int, use_int = 1)', () => {
  // Set 1: Xi_0 23, Yi_0 11, Xi_1 -55, Yi_1 -11 (io values 23, 11, 4294967241, 4294967285).
  // Set 2: Xi_0 9, Yi_0 -13, Xi_1 -19, Yi_1 -3.
  const set1 = beat(23, 11, -55, -11);
  const set2 = beat(9, -13, -19, -3);
  const cases: Array<[string, number, ReturnType<typeof beat>, number[]]> = [
    // L2: (23-11)^2 + (-55+11)^2 = 144 + 1936 = 2080 per PE, doubling up the tree (waveform: 2080, 4160, 8320, 16640).
    ['L2 set 1', OP_L2, set1, [2080, 4160, 8320, 16640]],
    ['L2 set 2', OP_L2, set2, [740, 1480, 2960, 5920]], // 22^2 + 16^2
    // L1 signed: 12 + (-44) = -32 per PE (waveform: 4294967264 = -32, -64, -128, -256).
    ['L1 set 1', OP_L1, set1, [-32, -64, -128, -256]],
    ['L1 set 2', OP_L1, set2, [6, 12, 24, 48]], // 22 + (-16)
    // DOT: 23*11 + (-55)(-11) = 253 + 605 = 858 (waveform: 858, 1716, 3432, 6864).
    ['DOT set 1', OP_DOT, set1, [858, 1716, 3432, 6864]],
    ['DOT set 2', OP_DOT, set2, [-60, -120, -240, -480]], // -117 + 57
    // S-V: X0*Y0 + X1*Y1 inside the PE, out_1 = 0 (waveform: 1716, 3432, 6864 as for DOT).
    ['S-V set 1', OP_SV, set1, [858, 1716, 3432, 6864]],
    ['S-V set 2', OP_SV, set2, [-60, -120, -240, -480]],
  ];
  for (const [name, op, b, want] of cases)
    it(name, () => {
      const dp = new Pex8Datapath(cfgInt(op));
      dp.operate(b.x, 0, b.y, 0);
      dp.aggregate();
      expect(partials(dp)).toEqual(want);
    });

  it('L1 with the textbook |x - y| (l1_mode = abs): 12 + 44 = 56 per PE', () => {
    const dp = new Pex8Datapath(cfgInt(OP_L1, true));
    dp.operate(set1.x, 0, set1.y, 0);
    dp.aggregate();
    expect(partials(dp)).toEqual([56, 112, 224, 448]);
  });

  it('integers wrap modulo 2^32 (the 64-bit product is cut to the 32-bit register)', () => {
    const dp = new Pex8Datapath(cfgInt(OP_DOT));
    const b = beat(0x10000, 0x10000, 0, 0); // 2^32 per PE wraps to 0
    dp.operate(b.x, 0, b.y, 0);
    expect(dp.aggregate()).toBe(0);
    const b2 = beat(0x7fffffff, 1, 0, 0); // 8 * (2^31 - 1) = 2^34 - 8 -> -8 mod 2^32
    dp.operate(b2.x, 0, b2.y, 0);
    expect(dp.aggregate() | 0).toBe(-8);
  });
});

const f = (x: number) => u(new Uint32Array(new Float32Array([x]).buffer)[0]!);

describe('fp32 aggregation order (the PE_8IP netlist, PE_0 loop-back)', () => {
  const dot = (rounding: number) => new Pex8Datapath({ op: OP_DOT, useInt: false, rounding, tininess: 1, l1Abs: false });
  const ones = new Uint32Array(16).fill(f(1));

  // Hand trace of rtl/PE_CTRL_8IP.v (imocanu/pe_fpu): PE_8IP wires PE_0's aggr_0..3 to its own out_0, PE_1's out_1,
  // its own out_1, PE_1's out_0; PE_1's to PE_2's and PE_3's out_0/out_1, PE_2's to PE_4/5, PE_3's to PE_6/7, PE_4..7's
  // to 0; in the aggregation state every PE's out_0 = aggr_0 + aggr_1 and out_1 = aggr_2 + aggr_3 (m_4..m_7 = 2,
  // m_8/m_9 = 0, adders add); io_out = PE_0's out_0 + out_1. With p_k, q_k the out_0, out_1 of PE k after the
  // operation, PE_0 ends with out_0 = ((p0+q1) + (p3+q3)) + ((p6+q6) + (p7+q7)) and
  // out_1 = ((q0+p1) + (p2+q2)) + ((p4+q4) + (p5+q5)).
  it('PE_0 adds its out_0 to PE_1 out_1 (not to its own out_1): lanes 2^24, 1, 1 give 2^24 + 2', () => {
    // p0 = 2^24, q0 = 1, p1 = 1: out_0 = 2^24 + q1 (0) = 2^24, out_1 = q0 + p1 = 2, io_out = 2^24 + 2 (exact).
    // The balanced tree (p0+q0 first) loses q0 to a tie-to-even and ends at 2^24.
    const x = new Uint32Array(16);
    x[0] = f(2 ** 24);
    x[1] = f(1);
    x[2] = f(1);
    const dp = dot(RMODES.near_even);
    dp.operate(x, 0, ones, 0);
    expect(dp.aggregate()).toBe(f(2 ** 24 + 2));
  });

  it('PE 6 joins the out_0 half and PE 4 the out_1 half: lanes p0 = 2^24, p4 = 1, p6 = 1 give 2^24', () => {
    // out_0 = 2^24 + p6 = 2^24 + 1 -> 2^24 (tie to even); out_1 = p4 = 1; io_out = 2^24 + 1 -> 2^24.
    // The balanced tree adds PE 4..7 first (1 + 1 = 2) and ends at 2^24 + 2.
    const x = new Uint32Array(16);
    x[0] = f(2 ** 24);
    x[8] = f(1);
    x[12] = f(1);
    const dp = dot(RMODES.near_even);
    dp.operate(x, 0, ones, 0);
    expect(dp.aggregate()).toBe(f(2 ** 24));
  });

  it('the waves on io_out: p0 + q0, then the first wave of PE_0, then the second, then the result', () => {
    // Every lane k holds 2^k (exact sums): wave 0 = p0+q0 = 3; wave 1 = (p0+q1) + (q0+p1) = 1+8 + 2+4 = 15;
    // wave 2 adds PE_1's first wave (p2+q2, p3+q3): 15 + 16+32 + 64+128 = 255; wave 3 adds PE 4..7: 65535.
    const x = Uint32Array.from({ length: 16 }, (_, k) => f(2 ** k));
    const dp = dot(RMODES.near_even);
    dp.operate(x, 0, ones, 0);
    expect(dp.aggregate()).toBe(f(65535));
    expect([...dp.waves]).toEqual([3, 15, 255, 65535].map(f));
  });

  it('S-V adds the constant 0 of out_1: a -0 PE sum becomes +0 (except under round_min)', () => {
    const x = new Uint32Array(16).fill(0x80000000);
    const y = new Uint32Array(16).fill(f(1));
    for (const [rm, want] of [[RMODES.near_even, 0], [RMODES.min, 0x80000000]] as const) {
      const sv = new Pex8Datapath({ op: OP_SV, useInt: false, rounding: rm, tininess: 1, l1Abs: false });
      sv.operate(x, 0, y, 0);
      expect(sv.aggregate()).toBe(want);
    }
    const d = dot(RMODES.near_even);
    d.operate(x, 0, y, 0);
    expect(d.aggregate()).toBe(0x80000000); // -0 + -0 stays -0 all the way through PE_0
  });

  // The independent reference: the documented composition (docs/xnu.md) over the BigInt operations.
  function refVector(op: number, rm: number, x: Uint32Array, y: Uint32Array, len: number): number {
    let acc = 0;
    for (let b = 0; b < len; b += 16) {
      const pe: number[] = [];
      for (let p = 0; p < 8; p++) {
        const i = b + 2 * p;
        let o0: number, o1: number;
        if (op === OP_L2) {
          const d0 = refSub(x[i]!, y[i]!, rm), d1 = refSub(x[i + 1]!, y[i + 1]!, rm);
          o0 = refMul(d0, d0, rm);
          o1 = refMul(d1, d1, rm);
        } else if (op === OP_L1) {
          o0 = refSub(x[i]!, y[i]!, rm);
          o1 = refSub(x[i + 1]!, y[i + 1]!, rm);
        } else if (op === OP_DOT) {
          o0 = refMul(x[i]!, y[i]!, rm);
          o1 = refMul(x[i + 1]!, y[i + 1]!, rm);
        } else {
          o0 = refAdd(refMul(x[i]!, y[i]!, rm), refMul(x[i + 1]!, y[i + 1]!, rm), rm);
          o1 = 0;
        }
        pe.push(o0, o1);
      }
      // The hand-traced netlist order (see above): p_k = pe[2k], q_k = pe[2k+1].
      const A = (a: number, c: number) => refAdd(a, c, rm);
      const p = (k: number) => pe[2 * k]!, q = (k: number) => pe[2 * k + 1]!;
      const out0 = A(A(A(p(0), q(1)), A(p(3), q(3))), A(A(p(6), q(6)), A(p(7), q(7))));
      const out1 = A(A(A(q(0), p(1)), A(p(2), q(2))), A(A(p(4), q(4)), A(p(5), q(5))));
      const total = A(out0, out1);
      acc = b === 0 ? total : refAdd(acc, total, rm);
    }
    return acc;
  }

  const word = fc.oneof(
    fc.float({ min: -1e6, max: 1e6, noNaN: true }).map(f),
    fc.integer({ min: 0, max: 0xffffffff }),
    fc.constantFrom(0, 0x80000000, 0x00000001, 0x7f7fffff, 0x7f800000, 0x00800000),
  );
  for (const op of [OP_L2, OP_L1, OP_DOT, OP_SV])
    it(`op_type ${op}: bit-exact against the reference for every rounding mode`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...Object.values(RMODES)), fc.array(word, { minLength: 64, maxLength: 64 }), (rm, words) => {
          const x = Uint32Array.from(words.slice(0, 32));
          const y = Uint32Array.from(words.slice(32));
          const dp = new Pex8Datapath({ op, useInt: false, rounding: rm, tininess: 1, l1Abs: false });
          expect(dp.vector(x, 0, y, 32).toString(16)).toBe(refVector(op, rm, x, y, 32).toString(16));
        }),
        { numRuns: 60 },
      );
    });
});
