/**
 * VPU row reductions run end to end (assemble + link + simulate, samples/pyxis): row softmax, RMSNorm and LayerNorm
 * over the 128 lanes of a row (chip §6.1.4, §6.4; the project's VPU model ISA, grammars/pyxis/vpu_instr.json).
 * References are float64 computations written here from the FP16 values the UIE read; the error bounds are derived
 * in the comments from the FP16 unit roundoff and the piecewise-linear LUT interpolation error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSample, SAMPLES } from './samples-compute.harness.js';

/** Unit roundoff of FP16 (10 fraction bits, round to nearest): 2^-11. */
const U = 2 ** -11;
/** The smallest non-zero FP16 magnitude at the VPU's EB -15 (no subnormals: results below it flush to zero). */
const FP16_MIN = 2 ** -15;
const ROWS = 64;
const COLS = 128;

/** Instructions of the `.vpu NAME { ... }` block of a sample (non-blank, non-comment lines). */
function vpuLength(pasm: string, name: string): number {
  const text = readFileSync(SAMPLES + pasm, 'utf8');
  const body = text.slice(text.indexOf(`.vpu ${name} {`) + name.length + 7);
  return body
    .slice(0, body.indexOf('}'))
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#')).length;
}

/** Error figures over a set of elements: max |got - ref|, RMS of |got - ref| / |ref| over |ref| >= floor. */
function figures(got: ArrayLike<number>, ref: Float64Array, floor: number): { maxAbs: number; rmsRel: number } {
  let maxAbs = 0;
  let se = 0;
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const e = Math.abs(got[i]! - ref[i]!);
    maxAbs = Math.max(maxAbs, e);
    if (Math.abs(ref[i]!) >= floor) {
      se += (e / ref[i]!) ** 2;
      n++;
    }
  }
  return { maxAbs, rmsRel: Math.sqrt(se / n) };
}

describe('VPU row reductions (chip §6.1.4, §6.4; VPU model ISA RMAX / RSUM)', () => {
  it('vpu_softmax: 64 rows x 128 columns within the FP16 + LUT error bound, 13 VPU cycles per row', () => {
    const run = runSample('vpu_softmax.pasm', 'vpu_softmax.ld');
    const x = run.tensor('x'); // the FP16 logits the UIE read (the linker rounded the N(0, 3) floats)
    const p = run.tensor('p');
    expect(run.report.stop).toBe('done');
    const ref = new Float64Array(ROWS * COLS);
    const dist = new Float64Array(ROWS * COLS); // |x_j - max x| in float64
    let worstRowSum = 0;
    for (let r = 0; r < ROWS; r++) {
      let m = -Infinity;
      for (let c = 0; c < COLS; c++) m = Math.max(m, x[r * COLS + c]!);
      let s = 0;
      for (let c = 0; c < COLS; c++) s += Math.exp(x[r * COLS + c]! - m);
      let ps = 0;
      for (let c = 0; c < COLS; c++) {
        const i = r * COLS + c;
        ref[i] = Math.exp(x[i]! - m) / s;
        dist[i] = m - x[i]!;
        ps += p[i]!;
      }
      worstRowSum = Math.max(worstRowSum, Math.abs(ps - 1));
    }
    // Per-element bound, first order in U (d = x - max <= 0, p_ref = exp(d) / s):
    //  - SUB d = x - max rounds once: |error| <= |d| U absolute in d, so |d| U relative in exp(d) (intrinsic to FP16).
    //  - exp(d) = LUT(d_hi) x LUT(d_lo): LUT(d_hi) is the FP16 rounding of exp at a breakpoint (U); LUT(d_lo)
    //    interpolates over a segment of width h <= |d_lo| / 4 < |d| / 16 (d_lo lies in d's quarter-octave segment),
    //    chord error <= h^2/8 max exp'' / min exp <= (|d|/16)^2 / 8 x e^(|d|/16) relative, plus the roundings of
    //    base + slope x frac (2 U); the MUL rounds (U): 4 U.
    //  - RSUM rounds the exact sum once (U) of terms each within the bound above: the relative error of s is at
    //    most their maximum weighted by p, dominated by the large p (small |d|): <= 4 U + (the |d| terms of the
    //    p-weighted mean, < 2 U for these rows since sum p |d| is small) — counted as 2 U + the element's own terms.
    //  - 1/s: LUT 1 chord error <= h^2 / (4 x^2) = 1/64 for h = x/4; one Newton step squares it (2.4e-4 = 0.5 U),
    //    its three roundings (3 U): 3.5 U; the final MUL (U).
    // Total relative: (|d| + 10) U + (|d|/16)^2/8 e^(|d|/16), plus FP16_MIN absolute (results below 2^-15 flush).
    let worst = 0;
    for (let i = 0; i < ref.length; i++) {
      const d = dist[i]!;
      const bound = ref[i]! * ((d + 10) * U + ((d / 16) ** 2 / 8) * Math.exp(d / 16)) + FP16_MIN;
      worst = Math.max(worst, Math.abs(p[i]! - ref[i]!) / bound);
    }
    expect(worst).toBeLessThanOrEqual(1);
    const f = figures(p, ref, 1e-3);
    // the figures recorded in vpu_softmax.pasm and docs/simulator.md
    expect(f.maxAbs).toBeLessThan(5e-4);
    expect(f.rmsRel).toBeLessThan(1.5e-3);
    expect(f.rmsRel).toBeGreaterThan(U / 4); // FP16 rounding is really there
    // each row sums to 1 within 128 elements' absolute errors: sum_j p_ref_j x rel bound_j + 128 FP16_MIN; with
    // |d| <= 16 in these rows and p weighted to small |d|: < 0.002
    expect(worstRowSum).toBeLessThan(0.002);
    // cycles: the VPU executes one instruction per cycle (vpu_instr.json meta latency_cycles 1, docs/timing-model.md
    // "VI + VPU") and is the bottleneck (AMEM moves an FP16 row in 2 cycles), so the trip takes ROWS x n VPU cycles,
    // plus the first row's fill (AMEM read: request shim + bank read + switch convert = 3, sim_config amem; SB2VB
    // and VB2VPU 1 each), the last row's drain (VPU2VB, VB2SB 1 each, the FP16 AMEM Write 2) and the write commit
    // (amem.write_commit_latency_cycles 100). The fill and drain may overlap the first / last instruction by a cycle.
    const n = vpuLength('vpu_softmax.pasm', 'softmax_row');
    expect(n).toBe(13);
    const cycles = run.compute().cycles;
    expect(cycles).toBeGreaterThanOrEqual(ROWS * n + 100);
    expect(cycles).toBeLessThanOrEqual(ROWS * n + 100 + (3 + 1 + 1) + (1 + 1 + 2));
    console.log(`vpu_softmax: max |p - p_ref| ${f.maxAbs.toExponential(2)}, RMS relative (p >= 1e-3) ${f.rmsRel.toExponential(2)}, worst |sum p - 1| ${worstRowSum.toExponential(2)}, worst error / bound ${worst.toFixed(2)}, trip ${run.compute().cycles} cycles`);
  });
});
