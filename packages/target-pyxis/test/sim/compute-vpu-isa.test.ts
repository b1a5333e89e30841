/**
 * The VPU model ISA (grammars/pyxis/vpu_instr.json; docs/spec-notes.md "vpu: arithmetic"), every opcode on both
 * data types, against a reference written here: FP16 lanes are Pyxis FP16 codes (chip §4.2) at EB -15, decoded and
 * rounded by hand (nearest-even, saturating to +-max, underflow to zero, NaN sticky, +max + -max = NaN); Int16 lanes
 * saturate. Random lane values through fast-check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Vpu } from '../../src/sim/uie/compute/vpu.js';
import { defaultSimConfig } from '../../src/sim/config.js';

import { cmp, dec, enc, isMax, NAN, op, OPS, refFp, refInt, s16, sat } from './vpu-ref.js';

/** FP16 codes: mostly moderate values, some extremes (max, tiny, NaN, zero). */
const fpCode = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 0xffff }) },
  { weight: 1, arbitrary: fc.constantFrom(0, NAN, 0x7fff, 0xffff, 0x0001, 0x8001, 0x3c00, 0xbc00) },
);

describe('VPU model ISA: every opcode against an independent reference (grammars/pyxis/vpu_instr.json)', () => {
  for (const dtype of [0, 1] as const) {
    const names = OPS.filter((n) => n !== 'NOP' && (dtype === 1 || !['AND', 'OR', 'XOR', 'SHL', 'SHR'].includes(n)));
    for (const name of names) {
      it(`${name} ${dtype === 0 ? 'FP16' : 'INT16'}`, () => {
        fc.assert(
          fc.property(fc.array(fpCode, { minLength: 384, maxLength: 384 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: -8, max: 8 }), (vals, cond, eb) => {
            const v = new Vpu(defaultSimConfig().uie.vpu_fifo_depth);
            for (let l = 0; l < 128; l++) {
              v.gpr[1 * 128 + l] = vals[l]!;
              v.gpr[2 * 128 + l] = vals[128 + l]!;
              v.gpr[3 * 128 + l] = vals[256 + l]!;
              v.pred[l] = vals[l]! & 1;
            }
            v.written = 0b1110;
            for (let e = 0; e < 512; e++) v.lut[e] = (e * 7919) & 0x7bff;
            const m = v.imem;
            m.opcode[0] = op(name);
            m.dtype[0] = dtype;
            m.rd[0] = 3;
            m.rs1[0] = 1;
            m.rs2[0] = 2;
            m.wr_gpr_en[0] = 1;
            m.cmp_cond[0] = cond;
            m.eb_adj[0] = eb;
            const pred0 = Uint8Array.from(v.pred);
            const old = v.gpr.slice(3 * 128, 4 * 128);
            expect(v.execute(0, false)).toBeUndefined();
            if (name === 'RMAX' || name === 'RSUM') {
              const lanes = vals.slice(0, 128);
              let want: number;
              if (dtype === 1) {
                want = name === 'RMAX' ? lanes.reduce((m, x) => (s16(x) > s16(m) ? x : m)) : sat(lanes.reduce((t, x) => t + s16(x), 0));
              } else if (lanes.includes(NAN)) want = NAN;
              else if (name === 'RMAX') want = lanes.reduce((m, x) => (dec(x) > dec(m) ? x : m));
              else want = lanes.some((x) => isMax(x) && x & 0x8000) && lanes.some((x) => isMax(x) && !(x & 0x8000)) ? NAN : enc(lanes.reduce((t, x) => t + dec(x), 0));
              for (let l = 0; l < 128; l++) expect(v.gpr[3 * 128 + l], `lane ${l}: ${name}`).toBe(want);
              return;
            }
            for (let l = 0; l < 128; l++) {
              const a = vals[l]!;
              const b = vals[128 + l]!;
              const want = dtype === 0 ? refFp(name, a, b, old[l]!, pred0[l]!, cond, eb, v.lut) : refInt(name, a, b, old[l]!, pred0[l]!, cond, eb);
              if (name === 'CMP') {
                expect(v.pred[l], `lane ${l} pred`).toBe(want.p);
                expect(v.gpr[3 * 128 + l], `lane ${l} rd unchanged`).toBe(old[l]);
              } else expect(v.gpr[3 * 128 + l], `lane ${l}: ${name}(${a.toString(16)}, ${b.toString(16)})`).toBe(want.d);
            }
          }),
          { numRuns: 20 },
        );
      });
    }
  }

  it('pred_en keeps the old rd in lanes whose predicate is clear; the counter steps and the VI override zeroes it', () => {
    const v = new Vpu(defaultSimConfig().uie.vpu_fifo_depth);
    v.written = 0b10;
    for (let l = 0; l < 128; l++) {
      v.gpr[128 + l] = 0x3c00; // 1.0 at EB -15
      v.pred[l] = l & 1;
    }
    const m = v.imem;
    m.opcode[0] = op('MOV');
    m.src1_sel[0] = 1; // IMM
    m.imm[0] = 0x4000; // 2.0
    m.rd[0] = 1;
    m.wr_gpr_en[0] = 1;
    m.pred_en[0] = 1;
    m.cntr_ctrl[0] = 1; // INCR
    v.execute(0, false);
    v.execute(0, false);
    for (let l = 0; l < 128; l++) expect(v.gpr[128 + l]).toBe(l & 1 ? 0x4000 : 0x3c00);
    expect(v.cntr).toBe(2);
    v.execute(0, true);
    expect(v.cntr).toBe(0);
  });

  it('bit operations on FP16 lanes are a program error', () => {
    const v = new Vpu(defaultSimConfig().uie.vpu_fifo_depth);
    v.written = 0b110;
    v.imem.opcode[0] = op('AND');
    v.imem.rs1[0] = 1;
    v.imem.rs2[0] = 2;
    expect(v.execute(0, false)).toMatch(/Int16-only/);
  });
});
