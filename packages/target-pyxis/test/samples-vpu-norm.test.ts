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

/**
 * Cycle window of a trip whose VPU program of n instructions per row is the bottleneck (after `setup` one-time
 * instructions): the VPU executes one instruction per cycle (vpu_instr.json meta latency_cycles 1, docs/timing-model.md
 * "VI + VPU"; AMEM moves an FP16 row in 2 cycles, the Vbuffer sequencers one row per cycle), so the trip takes
 * setup + ROWS x n VPU cycles, plus the write commit (amem.write_commit_latency_cycles 100, sim_config.json), plus at
 * most the first row's fill (AMEM read: request shim + bank read + switch convert = 3, sim_config amem; SB2VB and
 * VB2VPU 1 each) and the last row's drain (VPU2VB and VB2SB 1 each, the FP16 AMEM Write 2).
 */
function vpuBoundWindow(setup: number, n: number): [number, number] {
  const busy = setup + ROWS * n;
  return [busy + 100, busy + 100 + (3 + 1 + 1) + (1 + 1 + 2)];
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
    const n = vpuLength('vpu_softmax.pasm', 'softmax_row');
    expect(n).toBe(13);
    const [lo, hi] = vpuBoundWindow(0, n);
    const cycles = run.compute().cycles;
    expect(cycles).toBeGreaterThanOrEqual(lo);
    expect(cycles).toBeLessThanOrEqual(hi);
    console.log(`vpu_softmax: max |p - p_ref| ${f.maxAbs.toExponential(2)}, RMS relative (p >= 1e-3) ${f.rmsRel.toExponential(2)}, worst |sum p - 1| ${worstRowSum.toExponential(2)}, worst error / bound ${worst.toFixed(2)}, trip ${run.compute().cycles} cycles`);
  });

  it('vpu_rmsnorm: x / rms(x) x gamma within 7 U relative (U = 2^-11), gamma per lane, 12 VPU cycles per row', () => {
    const run = runSample('vpu_rmsnorm.pasm', 'vpu_rmsnorm.ld');
    const x = run.tensor('x');
    const g = run.tensor('gamma');
    const y = run.tensor('y');
    expect(run.report.stop).toBe('done');
    const EPS = 2 ** -14; // the imm 0x0400 of vpu_rmsnorm.pasm
    const ref = new Float64Array(ROWS * COLS);
    for (let r = 0; r < ROWS; r++) {
      let ss = 0;
      for (let c = 0; c < COLS; c++) ss += x[r * COLS + c]! ** 2;
      const inv = 1 / Math.sqrt(ss / COLS + EPS);
      for (let c = 0; c < COLS; c++) ref[r * COLS + c] = x[r * COLS + c]! * inv * g[c]!;
    }
    // Bound, first order in U: v = sum(x^2)/128 + eps: the squares (U), RSUM's one rounding (U), SCALE 2^-7 exact,
    // the eps ADD (U): 3 U, so 1.5 U in 1/sqrt(v). LUT 0's chord error on x^-1/2 over a quarter-octave segment
    // (h <= x/4): h^2/8 x (3/4) x^-2 <= 0.0059, plus its rounding; the Newton step leaves 1.5 e^2 < 0.13 U and adds
    // its roundings: (v/2) y0^2 (2 U on t ~ 1/2: U absolute), 1.5 - t (U), the MUL by y0 (U): 3.1 U. Then x r (U) and
    // x gamma (U): 6.6 U relative; results below 2^-15 flush to zero (FP16_MIN absolute).
    let worst = 0;
    for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(y[i]! - ref[i]!) / (7 * U * Math.abs(ref[i]!) + FP16_MIN));
    expect(worst).toBeLessThanOrEqual(1);
    const f = figures(y, ref, FP16_MIN * 2);
    expect(f.rmsRel).toBeLessThan(1.5 * U); // recorded in vpu_rmsnorm.pasm and docs/simulator.md
    expect(f.rmsRel).toBeGreaterThan(U / 8);
    const n = vpuLength('vpu_rmsnorm.pasm', 'rmsnorm_row');
    expect(n).toBe(12);
    // the UIE's active cycles (union of its two trips): the gamma trip's row is the first one the VPU waits for (its
    // fill is the window's fill), rn_load_gamma is one MOV
    const [lo, hi] = vpuBoundWindow(1, n);
    const cycles = run.compute().cycles;
    expect(cycles).toBeGreaterThanOrEqual(lo);
    expect(cycles).toBeLessThanOrEqual(hi);
    console.log(`vpu_rmsnorm: max |y - y_ref| ${f.maxAbs.toExponential(2)}, RMS relative ${f.rmsRel.toExponential(2)} (${(f.rmsRel / U).toFixed(2)} U), worst error / bound ${worst.toFixed(2)}, ${cycles} cycles`);
  });

  it('vpu_layernorm: (x - mean) / sd x gamma + beta within the FP16 error bound, 16 VPU cycles per row', () => {
    const run = runSample('vpu_layernorm.pasm', 'vpu_layernorm.ld');
    const x = run.tensor('x');
    const gb = run.tensor('gb'); // row 0 gamma, row 1 beta
    const y = run.tensor('y');
    expect(run.report.stop).toBe('done');
    const EPS = 2 ** -14; // the imm 0x0400 of vpu_layernorm.pasm
    const ref = new Float64Array(ROWS * COLS);
    let worst = 0;
    for (let r = 0; r < ROWS; r++) {
      let s = 0;
      for (let c = 0; c < COLS; c++) s += x[r * COLS + c]!;
      const mu = s / COLS;
      let v = 0;
      for (let c = 0; c < COLS; c++) v += (x[r * COLS + c]! - mu) ** 2;
      const sd = Math.sqrt(v / COLS + EPS);
      for (let c = 0; c < COLS; c++) {
        const i = r * COLS + c;
        const z = (x[i]! - mu) / sd;
        ref[i] = z * gb[c]! + gb[COLS + c]!;
        // Bound, first order in U: the mean's rounding (RSUM once; SCALE exact) shifts every d = x - mean by the same
        // c <= U |mean| (which cancels from the variance to first order: sum d = 0) and SUB rounds d (U |d|). The
        // variance: d^2 (2 U from d's rounding + U), RSUM (U), eps ADD (U): 5 U, 2.5 U in 1/sd; the LUT + Newton
        // step as in RMSNorm (3.1 U): 5.6 U. z = d / sd: U |mean| / sd + (1 + 5.6 + 1) U |z|; x gamma (U) and
        // + beta (U |y|): |gamma| U (|mean| / sd + 8.6 |z|) + U |y|, rounded up to 9 |z|; FP16_MIN for flushes.
        const bound = U * (Math.abs(gb[c]!) * (Math.abs(mu) / sd + 9 * Math.abs(z)) + Math.abs(ref[i]!)) + FP16_MIN;
        worst = Math.max(worst, Math.abs(y[i]! - ref[i]!) / bound);
      }
    }
    expect(worst).toBeLessThanOrEqual(1);
    let se = 0;
    let sr = 0;
    for (let i = 0; i < ref.length; i++) {
      se += (y[i]! - ref[i]!) ** 2;
      sr += ref[i]! ** 2;
    }
    const normwise = Math.sqrt(se / sr); // recorded in vpu_layernorm.pasm and docs/simulator.md
    expect(normwise).toBeLessThan(1.5 * U);
    expect(normwise).toBeGreaterThan(U / 8);
    const f = figures(y, ref, Infinity);
    const n = vpuLength('vpu_layernorm.pasm', 'layernorm_row');
    expect(n).toBe(16);
    // union of the two trips as for RMSNorm; ln_load_params is two MOVs (the beta row follows gamma by a cycle,
    // inside the second MOV's slot)
    const [lo, hi] = vpuBoundWindow(2, n);
    const cycles = run.compute().cycles;
    expect(cycles).toBeGreaterThanOrEqual(lo);
    expect(cycles).toBeLessThanOrEqual(hi);
    console.log(`vpu_layernorm: max |y - y_ref| ${f.maxAbs.toExponential(2)}, normwise RMS ${normwise.toExponential(2)} (${(normwise / U).toFixed(2)} U), worst error / bound ${worst.toFixed(2)}, ${cycles} cycles`);
  });
});
