/**
 * The VPU's lane arithmetic (compute/vpu.ts executes the instructions; the one definition of the lane rules, docs/isa/pyxis
 * "VPU semantics" and docs/spec-notes.md "vpu: arithmetic"): FP16 lanes are RFP16 codes at the fixed VPU exponent bias
 * EB_VPU = -15 (the IEEE-like range of chip §4.9, so the imported FP16 convention of Table 6-4 carries over);
 * ADD/SUB/MUL use @pyxis/formats rfpAdd/rfpSub/rfpMul (exact result rounded once to nearest-even, saturating, NaN
 * sticky); MAC = ADD(rd, MUL(a, b)) (two roundings). INT16 lanes are two's complement with saturating add/sub/mul
 * (@pyxis/formats fixedAdd/fixedMul on Int16). Split from vpu.ts (file size); the per-opcode rows (`fpRow`) and the
 * per-lane functions (`fpOp`, `intOp`) the result tables are built from.
 */
import { loadGrammarJson } from '@pyxis/codec';
import { ebAdjust, fixedAdd, fixedMul, Int16, RFP16, rfp16Encode } from '@pyxis/formats';
import type { Vpu } from './vpu.js';

/** The model's parameters as grammars/pyxis/vpu_instr.json states them (meta), written once there. */
export const META = loadGrammarJson<{ meta: { lanes: number; gprs: number; eb: number } }>('pyxis', 'vpu_instr').meta;
// the hot loops read module-local constants: an exported binding is a module cell that V8 checks for TDZ on every
// read (the profile showed these reads inside the lane loops); exported under other names
const LN = META.lanes;
const EB = META.eb;
export const LANE_COUNT = LN;
export const LANE_EB = EB;

const FP16_SIGN = 1 << (RFP16.bits - 1);
const FP16_NAN = FP16_SIGN;
const FP16_MAG = RFP16.maxCode;

// opcodes and selector codepoints (grammars/pyxis/vpu_instr.json)
export const VpuOp = {
  NOP: 0, MOV: 1, ADD: 2, SUB: 3, MUL: 4, MAC: 5, MIN: 6, MAX: 7, ABS: 8, NEG: 9, RELU: 10, CMP: 11, SEL: 12, LUT: 13,
  CVT_F2I: 14, CVT_I2F: 15, SCALE: 16, AND: 17, OR: 18, XOR: 19, SHL: 20, SHR: 21, RMAX: 22, RSUM: 23,
} as const;

/** FP16 code -> value at EB (NaN for the NaN code), one table for the whole process. */
const DEC = new Float64Array(1 << 16);
for (let c = 0; c < 1 << 16; c++) DEC[c] = RFP16.decode(c, EB);

/** RFP16.encodeWith(x, EB, true, false) (nearest-even, saturating), the lane-loop form of @pyxis/formats. */
const enc = (x: number): number => rfp16Encode(x, EB);
const FP16_MAXN = FP16_SIGN | FP16_MAG;
const s16 = (c: number): number => (c << 16) >> 16;
export const encFp16 = enc;
export const signed16 = s16;
const u16 = (v: number): number => v & 0xffff;
const i16 = (v: number): number => Int16.fromSigned(Math.max(-32768, Math.min(32767, v)));

/**
 * The FP16 arithmetic rows (one loop per opcode, the per-lane rules of fpOp): a + b, a - b, a * b, old + a * b
 * (two roundings), MIN / MAX, MOV, RELU into d[db ..] (d may be the GPR file, rd a source: lane l is read first). NaN is sticky; (+max) + (-max) is NaN (chip §4, rfpAdd). Returns
 * false for an opcode without a row (fpOp lane by lane).
 */
export function fpRow(op: number, A: Uint16Array, ab: number, B: Uint16Array, bb: number, G: Uint16Array, gb: number, d: Uint16Array, db: number): boolean {
  switch (op) {
    case VpuOp.ADD:
      for (let l = 0; l < LN; l++) d[db + l] = add16(A[ab + l]!, B[bb + l]!);
      return true;
    case VpuOp.SUB:
      for (let l = 0; l < LN; l++) {
        const y = B[bb + l]!;
        d[db + l] = y === FP16_NAN ? FP16_NAN : add16(A[ab + l]!, y === 0 ? 0 : y ^ FP16_SIGN);
      }
      return true;
    case VpuOp.MUL:
      for (let l = 0; l < LN; l++) d[db + l] = mul16(A[ab + l]!, B[bb + l]!);
      return true;
    case VpuOp.MAC:
      for (let l = 0; l < LN; l++) d[db + l] = add16(G[gb + l]!, mul16(A[ab + l]!, B[bb + l]!));
      return true;
    case VpuOp.MIN:
    case VpuOp.MAX: {
      // branch-free on the data (random signs mispredict): the sign-magnitude code orders like its value at one EB
      // (no -0: that code is NaN), so the signed key +-magnitude compares the values; NaN in -> NaN out
      const min = op === VpuOp.MIN ? 1 : 0;
      for (let l = 0; l < LN; l++) {
        const x = A[ab + l]!;
        const y = B[bb + l]!;
        const kx = (x & FP16_MAG) * (1 - 2 * (x >>> 15));
        const ky = (y & FP16_MAG) * (1 - 2 * (y >>> 15));
        // takeX: MAX x >= y, MIN x <= y
        const takeX = (((min ? ky - kx : kx - ky) >>> 31) ^ 1) & 1;
        const nan = ((((x ^ FP16_SIGN) - 1) >>> 31) | (((y ^ FP16_SIGN) - 1) >>> 31)) & 1;
        const r = y ^ ((x ^ y) & -takeX);
        d[db + l] = (r & (nan - 1)) | (FP16_NAN & -nan);
      }
      return true;
    }
    case VpuOp.MOV:
      for (let l = 0; l < LN; l++) d[db + l] = A[ab + l]!;
      return true;
    case VpuOp.RELU:
      for (let l = 0; l < LN; l++) {
        const x = A[ab + l]!;
        // x when positive or NaN, else 0 (branch-free)
        const keep = (1 - (x >>> 15)) | ((((x ^ FP16_SIGN) - 1) >>> 31) & 1);
        d[db + l] = x & -keep;
      }
      return true;
    default:
      return false;
  }
}

/** rfpAdd(RFP16, x, y, EB): NaN sticky, (+max) + (-max) = NaN, else the exact sum rounded once, saturating. */
function add16(x: number, y: number): number {
  if (x === FP16_NAN || y === FP16_NAN) return FP16_NAN;
  if ((x === FP16_MAG && y === FP16_MAXN) || (x === FP16_MAXN && y === FP16_MAG)) return FP16_NAN;
  return rfp16Encode(DEC[x]! + DEC[y]!, EB); // exact: both at EB, 43 bits at most
}

/** rfpMul(RFP16, x, y, EB, EB, EB): NaN sticky, the exact product rounded once, saturating. */
function mul16(x: number, y: number): number {
  if (x === FP16_NAN || y === FP16_NAN) return FP16_NAN;
  // in integers (issue 23: no table loads, no double-to-bits round trip): the 22-bit product of the 11-bit
  // significands, normalised to [2^21, 2^22) (hi = its top bit), rounded to 11 bits at nearest-even with the carry of
  // rest + odd + 0x3ff out of 11 bits (as rfp16Encode), exponent field ex + ey + EB + hi; a zero operand gives zero
  const mx = x & FP16_MAG;
  const my = y & FP16_MAG;
  const p = ((mx & 0x3ff) | 0x400) * ((my & 0x3ff) | 0x400);
  const hi = p >>> 21;
  const pn = p << (1 - hi);
  const t = ((((mx >>> 10) + (my >>> 10) + EB + hi) << 10) | ((pn >>> 11) & 0x3ff)) + (((pn & 0x7ff) + ((pn >>> 11) & 1) + 0x3ff) >>> 11);
  const nz = ((mx + FP16_MAG) >>> 15) & ((my + FP16_MAG) >>> 15); // 1 when both operands are non-zero
  if (t <= 0 || nz === 0) return 0;
  const sign = (x ^ y) & FP16_SIGN;
  return t >= 0x8000 ? sign | FP16_MAG : sign | t;
}

/** `u <cond> v` for cmp_cond 0..5 (EQ NE LT LE GT GE); NaN compares false except NE. */
function compareValues(cond: number, u: number, v: number): boolean {
  if (u !== u || v !== v) return cond === 1;
  switch (cond) {
    case 0:
      return u === v;
    case 1:
      return u !== v;
    case 2:
      return u < v;
    case 3:
      return u <= v;
    case 4:
      return u > v;
    default:
      return u >= v;
  }
}
const fpCompare = (cond: number, x: number, y: number): boolean => compareValues(cond, DEC[x]!, DEC[y]!);
const intCompare = (cond: number, x: number, y: number): boolean => compareValues(cond, s16(x), s16(y));

/** One FP16 lane operation (RFP16 codes at EB). */
export function fpOp(op: number, x: number, y: number, old: number, cond: number, vpu: Vpu, lane: number, lutIdx: number, eb: number): number {
  switch (op) {
    case VpuOp.MOV:
      return x;
    case VpuOp.ADD:
      return add16(x, y);
    case VpuOp.SUB:
      return y === FP16_NAN ? FP16_NAN : add16(x, y === 0 ? 0 : y ^ FP16_SIGN);
    case VpuOp.MUL:
      return mul16(x, y);
    case VpuOp.MAC:
      return add16(old, mul16(x, y));
    case VpuOp.MIN:
    case VpuOp.MAX: {
      const u = DEC[x]!;
      const v = DEC[y]!;
      if (u !== u || v !== v) return FP16_NAN;
      return (op === VpuOp.MIN ? u <= v : u >= v) ? x : y;
    }
    case VpuOp.ABS:
      return x === FP16_NAN ? x : x & FP16_MAG;
    case VpuOp.NEG:
      return x === FP16_NAN || x === 0 ? x : x ^ FP16_SIGN;
    case VpuOp.RELU:
      return x === FP16_NAN ? x : x & FP16_SIGN ? 0 : x;
    case VpuOp.CMP:
      vpu.pred[lane] = fpCompare(cond, x, y) ? 1 : 0;
      return x;
    case VpuOp.SEL:
      return vpu.pred[lane] ? x : y;
    case VpuOp.LUT: {
      if (x === FP16_NAN) return FP16_NAN;
      const e = (lutIdx * 256 + (x >>> 8)) * 2;
      return enc(DEC[vpu.lut[e]!]! + DEC[vpu.lut[e + 1]!]! * ((x & 0xff) / 256));
    }
    case VpuOp.CVT_F2I:
      return cvtF2I(x, eb);
    case VpuOp.CVT_I2F:
      return enc(s16(x) * 2 ** eb);
    case VpuOp.SCALE:
      return x === FP16_NAN ? x : ebAdjust('RFP16', x, eb);
    default:
      return 0;
  }
}

/** CVT_F2I: FP16 code -> Int16 at 2^eb, round to nearest even, saturating; NaN gives 0 (the same in either lane mode). */
function cvtF2I(x: number, eb: number): number {
  const v = DEC[x]!;
  if (v !== v) return 0;
  return i16(roundEven(v * 2 ** eb));
}

/** One Int16 lane operation (two's complement codes, saturating arithmetic). */
export function intOp(op: number, x: number, y: number, old: number, cond: number, vpu: Vpu, lane: number, eb: number): number {
  switch (op) {
    case VpuOp.MOV:
      return x;
    case VpuOp.ADD:
      return fixedAdd(Int16, x, y);
    case VpuOp.SUB:
      return i16(s16(x) - s16(y));
    case VpuOp.MUL:
      return fixedMul(Int16, x, y);
    case VpuOp.MAC:
      return fixedAdd(Int16, old, fixedMul(Int16, x, y));
    case VpuOp.MIN:
      return s16(x) <= s16(y) ? x : y;
    case VpuOp.MAX:
      return s16(x) >= s16(y) ? x : y;
    case VpuOp.ABS:
      return i16(Math.abs(s16(x)));
    case VpuOp.NEG:
      return i16(-s16(x));
    case VpuOp.RELU:
      return s16(x) < 0 ? 0 : x;
    case VpuOp.CMP:
      vpu.pred[lane] = intCompare(cond, x, y) ? 1 : 0;
      return x;
    case VpuOp.SEL:
      return vpu.pred[lane] ? x : y;
    case VpuOp.LUT:
      return x; // LUTs index FP16 operands; on Int16 the operand passes through (documented)
    case VpuOp.CVT_F2I:
      return cvtF2I(x, eb);
    case VpuOp.CVT_I2F:
      return enc(s16(x) * 2 ** eb);
    case VpuOp.SCALE:
      return i16(roundEven(s16(x) * 2 ** eb));
    case VpuOp.AND:
      return x & y;
    case VpuOp.OR:
      return x | y;
    case VpuOp.XOR:
      return x ^ y;
    case VpuOp.SHL:
      return u16(x << (y & 15));
    case VpuOp.SHR:
      return u16(s16(x) >> (y & 15));
    default:
      return 0;
  }
}

/** RMAX over the lanes: FP16 NaN if any lane is NaN, else the largest value's code; Int16 signed. */
export function reduceMax(a: Uint16Array, ab: number, fp: boolean): number {
  let best = a[ab]!;
  for (let l = 0; l < LN; l++) {
    const x = a[ab + l]!;
    if (fp) {
      if (x === FP16_NAN) return FP16_NAN;
      if (DEC[x]! > DEC[best]!) best = x;
    } else if (s16(x) > s16(best)) best = x;
  }
  return best;
}

/** RSUM over the lanes: FP16 exact sum rounded once (NaN sticky, +max with -max is NaN, saturating); Int16 saturating. */
export function reduceSum(a: Uint16Array, ab: number, fp: boolean): number {
  if (!fp) {
    let s = 0;
    for (let l = 0; l < LN; l++) s += s16(a[ab + l]!);
    return i16(s);
  }
  let s = 0;
  let pmax = false;
  let nmax = false;
  for (let l = 0; l < LN; l++) {
    const x = a[ab + l]!;
    if (x === FP16_NAN) return FP16_NAN;
    if ((x & FP16_MAG) === FP16_MAG) {
      if (x & FP16_SIGN) nmax = true;
      else pmax = true;
    }
    s += DEC[x]!; // exact: 128 FP16 values at one EB fit in a double's 53 bits (range 2^37, 11-bit mantissas)
  }
  if (pmax && nmax) return FP16_NAN;
  return enc(s);
}

function roundEven(v: number): number {
  const f = Math.floor(v);
  const r = v - f;
  if (r > 0.5) return f + 1;
  if (r < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
