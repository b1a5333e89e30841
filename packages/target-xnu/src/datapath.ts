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
 * - Aggregation follows the PE_8IP netlist (rtl/PE_CTRL_8IP.v of the published
 *   design, hand-traced in docs/spec-notes.md "order in which PE_0 sums"): in
 *   the aggregation state every PE adds its aggr inputs (out_0 = aggr_0 + aggr_1,
 *   out_1 = aggr_2 + aggr_3); PE_0's aggr ports loop back its own out_0/out_1
 *   next to PE_1's out_1/out_0, PE_1 collects PE_2/PE_3, PE_2 PE_4/PE_5, PE_3
 *   PE_6/PE_7, PE_4..7 collect constant 0. Three waves reach PE_0, then
 *   io_out = PE_0's out_0 + out_1 (waveform partials 2080, 4160, 8320, 16640).
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
  /** io_out of the last beat before the aggregation (PE_0's out_0 + out_1) and after each of the three waves. */
  readonly waves = new Uint32Array(4);

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

  /**
   * The aggregation of `peOut` through PE_0; returns the beat's `out` word.
   * p_k / q_k = out_0 / out_1 of PE k (lanes 2k, 2k+1). Wave by wave:
   *   wave 1: PE_0 (p0+q1, q0+p1); PE_1 (p2+q2, p3+q3); PE_2 (p4+q4, p5+q5); PE_3 (p6+q6, p7+q7); PE_4..7 (0, 0)
   *   wave 2: PE_0 (w1.PE_0.out_0 + w1.PE_1.out_1, w1.PE_0.out_1 + w1.PE_1.out_0); PE_1 (w1.PE_2 sum, w1.PE_3 sum)
   *   wave 3: PE_0 (w2.PE_0.out_0 + w2.PE_1.out_1, w2.PE_0.out_1 + w2.PE_1.out_0)
   * then io_out = out_0 + out_1 (PE_8IP's addsubModule_0). Later waves add PE_1's +0 to PE_0 and are not
   * modelled: the 38-cycle window holds three 12-cycle loop trips (docs/spec-notes.md).
   */
  aggregate(): number {
    const o = this.peOut;
    const w = this.waves;
    w[0] = this.add(o[0]!, o[1]!);
    // wave 1
    let a0 = this.add(o[0]!, o[3]!); // PE_0 out_0 = aggr_0 (own out_0) + aggr_1 (PE_1 out_1)
    let a1 = this.add(o[1]!, o[2]!); // PE_0 out_1 = aggr_2 (own out_1) + aggr_3 (PE_1 out_0)
    const b0 = this.add(o[4]!, o[5]!); // PE_1 out_0 = PE_2 out_0 + out_1
    const b1 = this.add(o[6]!, o[7]!); // PE_1 out_1 = PE_3 out_0 + out_1
    const c0 = this.add(o[8]!, o[9]!); // PE_2 (PE_4)
    const c1 = this.add(o[10]!, o[11]!); // PE_2 (PE_5)
    const d0 = this.add(o[12]!, o[13]!); // PE_3 (PE_6)
    const d1 = this.add(o[14]!, o[15]!); // PE_3 (PE_7)
    w[1] = this.add(a0, a1);
    // wave 2
    a0 = this.add(a0, b1);
    a1 = this.add(a1, b0);
    const e0 = this.add(c0, c1); // PE_1 out_0 = PE_2's wave-1 out_0 + out_1
    const e1 = this.add(d0, d1); // PE_1 out_1 = PE_3's wave-1 out_0 + out_1
    w[2] = this.add(a0, a1);
    // wave 3
    a0 = this.add(a0, e1);
    a1 = this.add(a1, e0);
    w[3] = this.add(a0, a1);
    return w[3]!;
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
