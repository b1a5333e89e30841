/**
 * The PEx8 datapath, bit-exact: eight PEs, each fed two (X, Y) pairs per beat
 * (`Xi_p_in_0/Yi_p_in_0`, `Xi_p_in_1/Yi_p_in_1`: 8 bytes of DDR and 8 bytes of
 * XNU local memory, spec "PE microarchitecture", "Input ports"), then the tree
 * aggregation through PE_0 (spec "Aggregation logic").
 *
 * One place decides every disagreement (docs/spec-notes.md, `## xnu:` entries):
 * - PE outputs per op_type follow the controller's mux settings (PE_CTRL):
 *   L2 out_k = (X_k - Y_k)^2; L1 out_k = X_k - Y_k (signed, no absolute value:
 *   the waveforms' -32/-64/-128/-256; `l1_abs` is the textbook |X_k - Y_k|);
 *   DOT out_k = X_k * Y_k; S-V out_0 = X_0*Y_0 + X_1*Y_1 inside the PE, out_1 = 0.
 * - Aggregation is a balanced pairwise tree: each PE's out_0 + out_1, then PE
 *   pairs (0+1, 2+3, 4+5, 6+7), then quads, then the final addition in PE_0 —
 *   the only order that gives the waveforms' partials 2080, 4160, 8320, 16640.
 * - Integers (`use_int`): 32-bit two's complement, every add/sub/mul wraps
 *   modulo 2^32 (Chisel SInt +/- keep 32 bits; the 64-bit product is cut to the
 *   32-bit output register). Rounding and tininess are unused (spec "ONLY for INT inputs").
 * - Vectors longer than one beat (16 elements): beat results accumulate in
 *   order, acc = acc + beat_k, with the same adder semantics (a model
 *   extension: the spec's aggregation ends at one beat, "Aggregation logic ... is WIP").
 */
import { f32Add, f32Mul, f32Sub } from './fp32.js';

export const OP_L2 = 0;
export const OP_L1 = 1;
export const OP_DOT = 2;
export const OP_SV = 3;

/** Lanes per beat: 8 PEs x 2 inputs of 32 bits. */
export const LANES = 16;
export const PES = 8;

export interface DatapathConfig {
  /** `op_type`: 0 L2, 1 L1, 2 dot product, 3 scalar-vector product. */
  op: number;
  /** `use_int`: integer (true) or fp32 (false). */
  useInt: boolean;
  /** `rounding` (HardFloat codepoint). */
  rounding: number;
  /** `tininess`: 0 before rounding, 1 after. */
  tininess: number;
  /** Textbook |x - y| for L1 instead of the hardware's signed difference. */
  l1Abs: boolean;
}

/** The PEx8 datapath for one configuration; scratch registers are allocated once. */
export class Pex8Datapath {
  /** out_0/out_1 of each PE for the last beat (lane 2p = out_0 of PE p). */
  readonly peOut = new Uint32Array(LANES);
  /** Tree partials of the last beat: [PE sums 0..7, pairs 0..3, quads 0..1, total] (15 words). */
  readonly tree = new Uint32Array(15);

  constructor(readonly cfg: DatapathConfig) {}

  add(a: number, b: number): number {
    return this.cfg.useInt ? (a + b) >>> 0 : f32Add(a, b, this.cfg.rounding, this.cfg.tininess);
  }

  private sub(a: number, b: number): number {
    return this.cfg.useInt ? (a - b) >>> 0 : f32Sub(a, b, this.cfg.rounding, this.cfg.tininess);
  }

  private mul(a: number, b: number): number {
    return this.cfg.useInt ? Math.imul(a, b) >>> 0 : f32Mul(a, b, this.cfg.rounding, this.cfg.tininess);
  }

  /** The PEs' outputs for one beat of 16 X (DDR) and 16 Y (local memory) words. */
  operate(x: Uint32Array, xo: number, y: Uint32Array, yo: number): void {
    const out = this.peOut;
    const { op, useInt, l1Abs } = this.cfg;
    for (let p = 0; p < PES; p++) {
      const l = 2 * p;
      const x0 = x[xo + l]!, y0 = y[yo + l]!, x1 = x[xo + l + 1]!, y1 = y[yo + l + 1]!;
      switch (op) {
        case OP_L2: {
          const d0 = this.sub(x0, y0);
          const d1 = this.sub(x1, y1);
          out[l] = this.mul(d0, d0);
          out[l + 1] = this.mul(d1, d1);
          break;
        }
        case OP_L1: {
          let d0 = this.sub(x0, y0);
          let d1 = this.sub(x1, y1);
          if (l1Abs) {
            // fp32: clear the sign (a NaN stays the canonical NaN); int: |d| wraps at -2^31.
            d0 = useInt ? Math.abs(d0 | 0) >>> 0 : d0 === 0x7fc00000 ? d0 : (d0 & 0x7fffffff) >>> 0;
            d1 = useInt ? Math.abs(d1 | 0) >>> 0 : d1 === 0x7fc00000 ? d1 : (d1 & 0x7fffffff) >>> 0;
          }
          out[l] = d0;
          out[l + 1] = d1;
          break;
        }
        case OP_DOT:
          out[l] = this.mul(x0, y0);
          out[l + 1] = this.mul(x1, y1);
          break;
        default:
          out[l] = this.add(this.mul(x0, y0), this.mul(x1, y1));
          out[l + 1] = 0; // m_9_sel = 3: the second output is the constant 0
      }
    }
  }

  /** Tree aggregation of `peOut` through PE_0; returns the beat's `out` word. */
  aggregate(): number {
    const o = this.peOut;
    const t = this.tree;
    for (let p = 0; p < PES; p++) t[p] = this.add(o[2 * p]!, o[2 * p + 1]!);
    for (let k = 0; k < 4; k++) t[8 + k] = this.add(t[2 * k]!, t[2 * k + 1]!);
    t[12] = this.add(t[8]!, t[9]!);
    t[13] = this.add(t[10]!, t[11]!);
    t[14] = this.add(t[12]!, t[13]!);
    return t[14]!;
  }

  /** One database vector of `len` words (a multiple of 16) against the local-memory vector: the result word. */
  vector(x: Uint32Array, xo: number, y: Uint32Array, len: number): number {
    let acc = 0;
    for (let b = 0; b < len; b += LANES) {
      this.operate(x, xo + b, y, b);
      const r = this.aggregate();
      acc = b === 0 ? r : this.add(acc, r);
    }
    return acc;
  }
}
