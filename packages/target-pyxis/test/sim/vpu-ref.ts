/**
 * Reference VPU model ISA for the tests (grammars/pyxis/vpu_instr.json field docs; docs/spec-notes.md "vpu:
 * arithmetic"), written from the documentation only, never importing the simulator: FP16 lanes are Pyxis FP16 codes
 * (chip §4.2) at EB -15, decoded and rounded by hand (nearest-even, saturating to +-max, underflow to zero, NaN
 * sticky, +max + -max = NaN); Int16 lanes saturate. `RefVpu` interprets whole instructions (operand sources, pred_en,
 * GPR write, OutFIFO push, InFIFO pop, counter) on plain arrays.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OPS = ['NOP', 'MOV', 'ADD', 'SUB', 'MUL', 'MAC', 'MIN', 'MAX', 'ABS', 'NEG', 'RELU', 'CMP', 'SEL', 'LUT', 'CVT_F2I', 'CVT_I2F', 'SCALE', 'AND', 'OR', 'XOR', 'SHL', 'SHR', 'RMAX', 'RSUM'];
export const op = (name: string) => OPS.indexOf(name);
export const NAN = 0x8000;

// ---- reference FP16 (Pyxis sign-magnitude, E5 F10, EB -15)
export const dec = (c: number) => {
  if (c === NAN) return NaN;
  if ((c & 0x7fff) === 0) return 0;
  const v = (1 + (c & 1023) / 1024) * 2 ** (((c >> 10) & 31) - 15);
  return c & 0x8000 ? -v : v;
};
export function enc(x: number): number {
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
export const isMax = (c: number) => (c & 0x7fff) === 0x7fff && c !== NAN;
export const fadd = (a: number, b: number) => (a === NAN || b === NAN ? NAN : isMax(a) && isMax(b) && (a ^ b) === 0x8000 ? NAN : enc(dec(a) + dec(b)));
export const fneg = (b: number) => (b === 0 || b === NAN ? b : b ^ 0x8000);
export const fmul = (a: number, b: number) => (a === NAN || b === NAN ? NAN : enc(dec(a) * dec(b)));
export const s16 = (c: number) => (c << 16) >> 16;
export const sat = (v: number) => Math.max(-32768, Math.min(32767, v)) & 0xffff;
export const rne = (v: number) => {
  const f = Math.floor(v);
  return v - f > 0.5 || (v - f === 0.5 && f % 2 !== 0) ? f + 1 : f;
};
export function cmp(cond: number, u: number, v: number): boolean {
  if (Number.isNaN(u) || Number.isNaN(v)) return cond === 1;
  return [u === v, u !== v, u < v, u <= v, u > v, u >= v][cond]!;
}

export function refFp(name: string, a: number, b: number, old: number, pred: number, cond: number, eb: number, lut: Uint16Array, lutIdx = 0): { d: number; p?: number } {
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
      const e = (lutIdx * 256 + (a >>> 8)) * 2;
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

export function refInt(name: string, a: number, b: number, old: number, pred: number, cond: number, eb: number): { d: number; p?: number } {
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

// ---- whole instructions

const grammar = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/vpu_instr.json', import.meta.url)), 'utf8')) as { meta: { lanes: number; gprs: number }; fields: Array<{ name: string; enum?: Record<string, number> }> };
const enumOf = (f: string) => grammar.fields.find((x) => x.name === f)!.enum!;
/** Selector and counter-control codes as the grammar encodes them. */
export const SRC = enumOf('src1_sel') as { GPR: number; IMM: number; IN_FIFO: number; CNTR: number };
export const CNTR = enumOf('cntr_ctrl') as { CNTR_CTRL_NOP: number; CNTR_CTRL_INCR: number; CNTR_CTRL_DECR: number; CNTR_CTRL_SET_TO_0: number };
export const LANES = grammar.meta.lanes;

/** One instruction word's fields as numbers (the names of vpu_instr.json). */
export interface RefInstr {
  opcode: number;
  dtype: number;
  rd: number;
  rs1: number;
  rs2: number;
  src1_sel: number;
  src2_sel: number;
  wr_gpr_en: number;
  out_fifo_push: number;
  in_fifo_pop: number;
  pred_en: number;
  cmp_cond: number;
  lut_idx: number;
  eb_adj: number;
  cntr_ctrl: number;
  imm: number;
}

const BINARY = new Set(['ADD', 'SUB', 'MUL', 'MAC', 'MIN', 'MAX', 'CMP', 'SEL', 'AND', 'OR', 'XOR', 'SHL', 'SHR']);

/** The VPU state on plain arrays: 16 GPRs x 128 lanes, predicates, counter, LUTs, InFIFO / OutFIFO of rows. */
export class RefVpu {
  readonly gpr: number[][] = Array.from({ length: grammar.meta.gprs }, () => new Array<number>(LANES).fill(0));
  readonly pred: number[] = new Array<number>(LANES).fill(0);
  cntr = 0;
  readonly inQ: number[][] = [];
  readonly outQ: number[][] = [];
  constructor(
    readonly depth: number,
    readonly lut: Uint16Array,
  ) {}

  /**
   * 'in' when the instruction needs the InFIFO head and it is empty: a selector names it (src2_sel too on a one-operand
   * opcode: the selector fields are decoded whatever the opcode) or it pops; 'out' when it pushes into a full OutFIFO.
   */
  waits(i: RefInstr): 'in' | 'out' | undefined {
    const name = OPS[i.opcode]!;
    const readsIn = name !== 'NOP' && (i.src1_sel === SRC.IN_FIFO || i.src2_sel === SRC.IN_FIFO);
    if ((readsIn || i.in_fifo_pop === 1) && this.inQ.length === 0) return 'in';
    if (i.out_fifo_push === 1 && this.outQ.length === this.depth) return 'out';
    return undefined;
  }

  private operand(sel: number, r: number, imm: number, fp: boolean): number[] {
    if (sel === SRC.GPR) return this.gpr[r]!.slice();
    if (sel === SRC.IMM) return new Array<number>(LANES).fill(imm & 0xffff);
    if (sel === SRC.IN_FIFO) return this.inQ[0]!.slice();
    // the counter: its value as a signed integer (FP16 lanes: converted and rounded)
    return new Array<number>(LANES).fill(fp ? enc(s16(this.cntr)) : this.cntr & 0xffff);
  }

  /** Executes one instruction (`waits` must be undefined); `forceZero`: the VI's counter_zero_iter_mask override. */
  exec(i: RefInstr, forceZero = false): void {
    const name = OPS[i.opcode]!;
    const fp = i.dtype === 0;
    if (name !== 'NOP') {
      const a = this.operand(i.src1_sel, i.rs1, i.imm, fp);
      const b = BINARY.has(name) ? this.operand(i.src2_sel, i.rs2, i.imm, fp) : new Array<number>(LANES).fill(0);
      const old = this.gpr[i.rd]!.slice();
      const pred0 = this.pred.slice();
      let d: number[];
      if (name === 'RMAX' || name === 'RSUM') {
        let v: number;
        if (!fp) v = name === 'RMAX' ? a.reduce((m, x) => (s16(x) > s16(m) ? x : m)) : sat(a.reduce((t, x) => t + s16(x), 0));
        else if (a.includes(NAN)) v = NAN;
        else if (name === 'RMAX') v = a.reduce((m, x) => (dec(x) > dec(m) ? x : m));
        else v = a.some((x) => isMax(x) && x & 0x8000) && a.some((x) => isMax(x) && !(x & 0x8000)) ? NAN : enc(a.reduce((t, x) => t + dec(x), 0));
        d = new Array<number>(LANES).fill(v);
      } else {
        d = a.map((x, l) => {
          const r = fp ? refFp(name, x, b[l]!, old[l]!, pred0[l]!, i.cmp_cond, i.eb_adj, this.lut, i.lut_idx) : refInt(name, x, b[l]!, old[l]!, pred0[l]!, i.cmp_cond, i.eb_adj);
          if (r.p !== undefined) this.pred[l] = r.p; // CMP writes the predicate of every lane
          return r.d;
        });
      }
      // pred_en: the lanes whose predicate (as it is after this instruction) is clear keep the old rd
      if (i.pred_en === 1) d = d.map((x, l) => (this.pred[l] ? x : old[l]!));
      if (i.wr_gpr_en === 1 && name !== 'CMP') this.gpr[i.rd] = d;
      if (i.out_fifo_push === 1) this.outQ.push(d);
    }
    if (i.in_fifo_pop === 1 && this.inQ.length > 0) this.inQ.shift();
    const cc = forceZero ? CNTR.CNTR_CTRL_SET_TO_0 : i.cntr_ctrl;
    if (cc === CNTR.CNTR_CTRL_INCR) this.cntr = (this.cntr + 1) & 0xffff;
    else if (cc === CNTR.CNTR_CTRL_DECR) this.cntr = (this.cntr - 1) & 0xffff;
    else if (cc === CNTR.CNTR_CTRL_SET_TO_0) this.cntr = 0;
  }
}
