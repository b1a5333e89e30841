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

const OPS = ['NOP', 'MOV', 'ADD', 'SUB', 'MUL', 'MAC', 'MIN', 'MAX', 'ABS', 'NEG', 'RELU', 'CMP', 'SEL', 'LUT', 'CVT_F2I', 'CVT_I2F', 'SCALE', 'AND', 'OR', 'XOR', 'SHL', 'SHR', 'RMAX', 'RSUM'];
const op = (name: string) => OPS.indexOf(name);
const NAN = 0x8000;

// ---- reference FP16 (Pyxis sign-magnitude, E5 F10, EB -15)
const dec = (c: number) => {
  if (c === NAN) return NaN;
  if ((c & 0x7fff) === 0) return 0;
  const v = (1 + (c & 1023) / 1024) * 2 ** (((c >> 10) & 31) - 15);
  return c & 0x8000 ? -v : v;
};
function enc(x: number): number {
  if (Number.isNaN(x)) return NAN;
  if (x === 0) return 0;
  const s = x < 0 ? 0x8000 : 0;
  if (!Number.isFinite(x)) return s | 0x7fff;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  const q = (a / 2 ** e) * 1024;
  let m = Math.floor(q);
  const r = q - m;
  if (r > 0.5 || (r === 0.5 && m % 2 === 1)) m++;
  if (m === 2048) {
    m = 1024;
    e++;
  }
  const t = (e + 15) * 1024 + (m - 1024);
  if (t >= 0x8000) return s | 0x7fff;
  if (t <= 0) return 0;
  return s | t;
}
const isMax = (c: number) => (c & 0x7fff) === 0x7fff && c !== NAN;
const fadd = (a: number, b: number) => (a === NAN || b === NAN ? NAN : isMax(a) && isMax(b) && (a ^ b) === 0x8000 ? NAN : enc(dec(a) + dec(b)));
const fneg = (b: number) => (b === 0 || b === NAN ? b : b ^ 0x8000);
const fmul = (a: number, b: number) => (a === NAN || b === NAN ? NAN : enc(dec(a) * dec(b)));
const s16 = (c: number) => (c << 16) >> 16;
const sat = (v: number) => Math.max(-32768, Math.min(32767, v)) & 0xffff;
const rne = (v: number) => {
  const f = Math.floor(v);
  return v - f > 0.5 || (v - f === 0.5 && f % 2 !== 0) ? f + 1 : f;
};
function cmp(cond: number, u: number, v: number): boolean {
  if (Number.isNaN(u) || Number.isNaN(v)) return cond === 1;
  return [u === v, u !== v, u < v, u <= v, u > v, u >= v][cond]!;
}

function refFp(name: string, a: number, b: number, old: number, pred: number, cond: number, eb: number, lut: Uint16Array): { d: number; p?: number } {
  switch (name) {
    case 'MOV':
      return { d: a };
    case 'ADD':
      return { d: fadd(a, b) };
    case 'SUB':
      return { d: b === NAN ? NAN : fadd(a, fneg(b)) };
    case 'MUL':
      return { d: fmul(a, b) };
    case 'MAC':
      return { d: fadd(old, fmul(a, b)) };
    case 'MIN':
    case 'MAX': {
      if (a === NAN || b === NAN) return { d: NAN };
      const pick = name === 'MIN' ? dec(a) <= dec(b) : dec(a) >= dec(b);
      return { d: pick ? a : b };
    }
    case 'ABS':
      return { d: a === NAN ? a : a & 0x7fff };
    case 'NEG':
      return { d: fneg(a) };
    case 'RELU':
      return { d: a === NAN ? a : a & 0x8000 ? 0 : a };
    case 'CMP':
      return { d: a, p: cmp(cond, dec(a), dec(b)) ? 1 : 0 };
    case 'SEL':
      return { d: pred ? a : b };
    case 'LUT': {
      if (a === NAN) return { d: NAN };
      const e = (a >>> 8) * 2;
      return { d: enc(dec(lut[e]!) + dec(lut[e + 1]!) * ((a & 255) / 256)) };
    }
    case 'CVT_F2I':
      return { d: a === NAN ? 0 : sat(rne(dec(a) * 2 ** eb)) };
    case 'CVT_I2F':
      return { d: enc(s16(a) * 2 ** eb) };
    case 'SCALE': {
      if ((a & 0x7fff) === 0) return { d: a };
      const E = ((a >> 10) & 31) + eb;
      if (E > 31) return { d: (a & 0x8000) | 0x7fff };
      if (E < 0 || (E === 0 && (a & 1023) === 0)) return { d: 0 };
      return { d: (a & 0x8000) | (E << 10) | (a & 1023) };
    }
  }
  throw new Error(name);
}

function refInt(name: string, a: number, b: number, old: number, pred: number, cond: number, eb: number): { d: number; p?: number } {
  const x = s16(a);
  const y = s16(b);
  switch (name) {
    case 'MOV':
      return { d: a };
    case 'ADD':
      return { d: sat(x + y) };
    case 'SUB':
      return { d: sat(x - y) };
    case 'MUL':
      return { d: sat(x * y) };
    case 'MAC':
      return { d: sat(s16(old) + s16(sat(x * y))) };
    case 'MIN':
      return { d: x <= y ? a : b };
    case 'MAX':
      return { d: x >= y ? a : b };
    case 'ABS':
      return { d: sat(Math.abs(x)) };
    case 'NEG':
      return { d: sat(-x) };
    case 'RELU':
      return { d: x < 0 ? 0 : a };
    case 'CMP':
      return { d: a, p: cmp(cond, x, y) ? 1 : 0 };
    case 'SEL':
      return { d: pred ? a : b };
    case 'LUT':
      return { d: a };
    case 'CVT_F2I':
      return { d: a === NAN ? 0 : sat(rne(dec(a) * 2 ** eb)) };
    case 'CVT_I2F':
      return { d: enc(x * 2 ** eb) };
    case 'SCALE':
      return { d: sat(rne(x * 2 ** eb)) };
    case 'AND':
      return { d: a & b };
    case 'OR':
      return { d: a | b };
    case 'XOR':
      return { d: a ^ b };
    case 'SHL':
      return { d: (a << (b & 15)) & 0xffff };
    case 'SHR':
      return { d: (x >> (b & 15)) & 0xffff };
  }
  throw new Error(name);
}

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
