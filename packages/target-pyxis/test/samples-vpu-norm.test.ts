/**
 * VPU row reductions run end to end (assemble + link + simulate, samples/pyxis): row softmax, RMSNorm and LayerNorm
 * over the 128 lanes of a row (chip §6.1.4, §6.4; the project's VPU model ISA, grammars/pyxis/vpu_instr.json).
 * References are float64 computations written here from the FP16 values the UIE read; the error bounds are derived
 * in the comments from the FP16 unit roundoff and the piecewise-linear LUT interpolation error.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNpyFile } from '@pyxis/container';
import fc from 'fast-check';
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

/** The documented timing parameters (grammars/pyxis/sim_config.json amem, vpu_instr.json meta), read as data. */
const GRAMMARS = SAMPLES + '../../grammars/pyxis/';
const AMEM = (JSON.parse(readFileSync(GRAMMARS + 'sim_config.json', 'utf8')) as { amem: Record<string, number> }).amem;
const VPU_LATENCY = (JSON.parse(readFileSync(GRAMMARS + 'vpu_instr.json', 'utf8')) as { meta: { latency_cycles: number } }).meta.latency_cycles;

/**
 * Cycle window of a trip whose VPU program of n instructions per row is the bottleneck (after `setup` one-time
 * instructions): the VPU executes one instruction per cycle (vpu_instr.json meta latency_cycles, docs/timing-model.md
 * "VI + VPU"; AMEM moves an FP16 row in 2 cycles, the Vbuffer sequencers one row per cycle), so the trip takes
 * (setup + ROWS x n) x latency VPU cycles, plus the write commit (amem.write_commit_latency_cycles), plus at most the
 * first row's fill (AMEM read: request shim + bank read + switch convert; SB2VB and VB2VPU 1 each) and the last row's
 * drain (VPU2VB and VB2SB 1 each, the FP16 AMEM Write 2: two 128-byte words, chip §7.3).
 */
function vpuBoundWindow(setup: number, n: number, paramRows = 0): [number, number] {
  const busy = (setup + ROWS * n) * VPU_LATENCY + AMEM['write_commit_latency_cycles']!;
  const fill = AMEM['request_shim_cycles']! + AMEM['read_latency_cycles']! + AMEM['switch_convert_cycles']! + 1 + 1;
  const drain = 1 + 1 + 2;
  if (paramRows === 0) return [busy, busy + fill + drain];
  // a parameter trip before it (`after = [...]` in the .ld: the scratchpad rows it writes carry no count, so the
  // norm trip must not start before it completed): its FP16 rows through the AMEM read port (2 cycles each) and
  // its own fill; the barrier between the trips is not an active cycle of the UIE
  const params = 2 * paramRows;
  return [busy + params, busy + params + 2 * fill + drain];
}

/** A runSample edit pointing vpu_softmax.pasm's VI program at the VPU program `name`. */
function useProgram(name: string): (text: string, file: string) => string {
  return (t, f) => (f.endsWith('.pasm') ? t.replace('vpv_pgm_start_addr=softmax_row\n', `vpv_pgm_start_addr=${name}\n`) : t);
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

/**
 * Checks a softmax output p against the float64 softmax of the FP16 logits x, element by element, against the bound
 * derived here (first order in U; d = x - max <= 0, p_ref = exp(d) / s):
 *  - SUB d = x - max rounds once: |error| <= U |d| absolute in d, so U |d| relative in exp(d) (intrinsic to FP16).
 *  - exp(d) = LUT(d_hi) x LUT(d_lo): LUT(d_hi) is the FP16 rounding of exp at a breakpoint (U); LUT(d_lo)
 *    interpolates over a segment of width h <= |d_lo| / 4 < |d| / 16 (d_lo lies in d's quarter-octave segment):
 *    chord error <= h^2/8 max exp'' / min exp <= I(d) = (|d|/16)^2 / 8 e^(|d|/16) relative, plus the roundings of
 *    slope x frac and base + (2 U); the MUL rounds (U). So e_j is within E_j = U |d_j| + I(d_j) + 4 U.
 *  - RSUM rounds the exact sum once (U): s is within S = sum_j p_j E_j + U (computed per row).
 *  - 1/s: LUT 1's chord error <= h^2 / (4 x^2) = 1/64 (h = x/4), squared by one Newton step (2.4e-4 = 0.5 U); the
 *    step's roundings s y0, 2 - t, y0 (2 - t): 3 U. p = e / s: the final MUL (U).
 * Total relative: E_j + S + 4.5 U; plus FP16_MIN absolute (results below 2^-15 flush to zero). Each row's sum of p is
 * within the sum of its elements' bounds of 1.
 * `compensated` (program softmax_row_2sum): TwoSum gives the SUB's rounding error t exactly (Knuth's six-operation
 * sum is exact in any round-to-nearest binary arithmetic without overflow; a t below 2^-15 flushes: U/16) and it is
 * added to d_lo, where that ADD rounds to U |d_lo + t| <= U (|d|/4 + U |d|): the U |d| term becomes U (|d|/4 + 1/16)
 * (+ 0.01 U |d| for U |d|^2, |d| < 20 where it matters).
 */
function checkSoftmax(x: Float32Array, p: Float32Array, compensated = false): { worst: number; worstSum: number; rowSumErr: number; figures: { maxAbs: number; rmsRel: number } } {
  const ref = new Float64Array(x.length);
  const e = new Float64Array(COLS);
  let worst = 0;
  let worstSum = 0;
  let rowSumErr = 0;
  for (let r = 0; r < x.length / COLS; r++) {
    let m = -Infinity;
    for (let c = 0; c < COLS; c++) m = Math.max(m, x[r * COLS + c]!);
    let s = 0;
    for (let c = 0; c < COLS; c++) s += Math.exp(x[r * COLS + c]! - m);
    let S = U;
    for (let c = 0; c < COLS; c++) {
      const d = m - x[r * COLS + c]!;
      const arg = compensated ? U * (0.26 * d + 1 / 16) : U * d;
      e[c] = arg + ((d / 16) ** 2 / 8) * Math.exp(d / 16) + 4 * U;
      ref[r * COLS + c] = Math.exp(-d) / s;
      S += ref[r * COLS + c]! * e[c]!;
    }
    let ps = 0;
    let sumBound = 0;
    for (let c = 0; c < COLS; c++) {
      const i = r * COLS + c;
      const bound = ref[i]! * (e[c]! + S + 4.5 * U) + FP16_MIN;
      worst = Math.max(worst, Math.abs(p[i]! - ref[i]!) / bound);
      ps += p[i]!;
      sumBound += bound;
    }
    rowSumErr = Math.max(rowSumErr, Math.abs(ps - 1));
    worstSum = Math.max(worstSum, Math.abs(ps - 1) / sumBound);
  }
  return { worst, worstSum, rowSumErr, figures: figures(p, ref, 1e-3) };
}

/** ROWS x COLS values N(mean, sd) from a seeded LCG (Box-Muller). */
function normalRows(seed: number, mean: number, sd: number): Float32Array {
  let a = seed;
  const rnd = () => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296);
  return Float32Array.from({ length: ROWS * COLS }, () => mean + sd * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd()));
}

/** eps of the normalisation samples: the immediate 0x0400 (2^-14) of vpu_rmsnorm.pasm / vpu_layernorm.pasm. */
const EPS = 2 ** -14;

/**
 * RMSNorm y = x / sqrt(mean x^2 + eps) x gamma against float64, element by element. Bound, first order in U:
 * v = sum(x^2)/128 + eps: the squares (U; a square below 2^-15 flushes: F = (flushed squares) 2^-15 / sum x^2), RSUM's
 * one rounding (U), SCALE 2^-7 exact, the eps ADD (U): 3 U + F, half of it in 1/sqrt(v). LUT 0's chord error on
 * x^-1/2 over a quarter-octave segment (h <= x/4): h^2/8 x (3/4) x^-2 <= 0.0059, plus its rounding; the Newton step
 * leaves 1.5 e^2 < 0.13 U and adds its roundings: (v/2) y0^2 (2 U on t ~ 1/2: U absolute), 1.5 - t (U), the MUL by
 * y0 (U): 3.1 U. Then x r (U) and x gamma (U): 6.6 U + F/2 relative, rounded up to 7 U; FP16_MIN absolute for flushes.
 */
function checkRmsNorm(x: Float32Array, g: Float32Array, y: Float32Array): { ref: Float64Array; worst: number } {
  const ref = new Float64Array(x.length);
  let worst = 0;
  for (let r = 0; r < x.length / COLS; r++) {
    let ss = 0;
    let flushed = 0;
    for (let c = 0; c < COLS; c++) {
      const q = x[r * COLS + c]! ** 2;
      ss += q;
      if (q < FP16_MIN) flushed++;
    }
    const inv = 1 / Math.sqrt(ss / COLS + EPS);
    const rel = 7 * U + (flushed * FP16_MIN) / ss / 2;
    for (let c = 0; c < COLS; c++) {
      const i = r * COLS + c;
      ref[i] = x[i]! * inv * g[c]!;
      worst = Math.max(worst, Math.abs(y[i]! - ref[i]!) / (rel * Math.abs(ref[i]!) + FP16_MIN));
    }
  }
  return { ref, worst };
}

/**
 * LayerNorm y = (x - mean) / sqrt(var + eps) x gamma + beta (gb: row 0 gamma, row 1 beta) against float64. Bound,
 * first order in U: the mean's rounding (RSUM once; SCALE exact) shifts every d = x - mean by the same c <= U |mean|
 * (which cancels from the variance to first order: sum d = 0) and SUB rounds d (U |d|). The variance: d^2 (2 U from
 * d's rounding + U; flushed squares F as in RMSNorm), RSUM (U), eps ADD (U): 5 U + F, half in 1/sd; the LUT + Newton
 * step as in RMSNorm (3.1 U): 5.6 U + F/2. z = d / sd: U |mean| / sd + (1 + 5.6 + 1 + F/2 / U) U |z|; x gamma (U) and
 * + beta (U |y|): |gamma| U (|mean| / sd + (8.6 + F/2 / U) |z|) + U |y|, 8.6 rounded up to 9; FP16_MIN for flushes.
 */
function checkLayerNorm(x: Float32Array, gb: Float32Array, y: Float32Array): { ref: Float64Array; worst: number } {
  const ref = new Float64Array(x.length);
  let worst = 0;
  for (let r = 0; r < x.length / COLS; r++) {
    let s = 0;
    for (let c = 0; c < COLS; c++) s += x[r * COLS + c]!;
    const mu = s / COLS;
    let v = 0;
    let flushed = 0;
    for (let c = 0; c < COLS; c++) {
      const q = (x[r * COLS + c]! - mu) ** 2;
      v += q;
      if (q < FP16_MIN) flushed++;
    }
    const sd = Math.sqrt(v / COLS + EPS);
    const zTerm = 9 + (flushed * FP16_MIN) / v / 2 / U;
    for (let c = 0; c < COLS; c++) {
      const i = r * COLS + c;
      const z = (x[i]! - mu) / sd;
      ref[i] = z * gb[c]! + gb[COLS + c]!;
      const bound = U * (Math.abs(gb[c]!) * (Math.abs(mu) / sd + zTerm * Math.abs(z)) + Math.abs(ref[i]!)) + FP16_MIN;
      worst = Math.max(worst, Math.abs(y[i]! - ref[i]!) / bound);
    }
  }
  return { ref, worst };
}

describe('VPU row reductions (chip §6.1.4, §6.4; VPU model ISA RMAX / RSUM)', () => {
  it('vpu_softmax: 64 rows x 128 columns within the FP16 + LUT error bound, 13 VPU cycles per row', () => {
    const run = runSample('vpu_softmax.pasm', 'vpu_softmax.ld');
    expect(run.report.stop).toBe('done');
    // the FP16 logits the UIE read (the linker rounded the N(0, 3) floats)
    const c = checkSoftmax(run.tensor('x'), run.tensor('p'));
    expect(c.worst).toBeLessThanOrEqual(1);
    expect(c.worstSum).toBeLessThanOrEqual(1);
    const f = c.figures;
    // the figures recorded in vpu_softmax.pasm and docs/simulator.md
    expect(f.maxAbs).toBeLessThan(5e-4);
    expect(f.rmsRel).toBeLessThan(1.5e-3);
    expect(f.rmsRel).toBeGreaterThan(U / 4); // FP16 rounding is really there
    expect(c.rowSumErr).toBeLessThan(1.2e-3);
    const n = vpuLength('vpu_softmax.pasm', 'softmax_row');
    expect(n).toBe(13);
    const [lo, hi] = vpuBoundWindow(0, n);
    const cycles = run.compute().cycles;
    expect(cycles).toBeGreaterThanOrEqual(lo);
    expect(cycles).toBeLessThanOrEqual(hi);
    console.log(`vpu_softmax: max |p - p_ref| ${f.maxAbs.toExponential(2)}, RMS relative (p >= 1e-3) ${f.rmsRel.toExponential(2)}, worst |sum p - 1| ${c.rowSumErr.toExponential(2)}, worst error / bound ${c.worst.toFixed(2)}, ${cycles} cycles`);

    // the compensated program (TwoSum of x - max): within the tighter bound, 19 cycles per row. The bound's slack (the
    // plain program's output also meets it: its worst elements are the flushes below 2^-15) makes the RMS error the
    // discriminating check: the compensation must remove most of the U |d| term (9.4e-4 of the 1.24e-3).
    const run2 = runSample('vpu_softmax.pasm', 'vpu_softmax.ld', { edit: useProgram('softmax_row_2sum') });
    expect(run2.report.stop).toBe('done');
    const c2 = checkSoftmax(run2.tensor('x'), run2.tensor('p'), true);
    expect(c2.worst).toBeLessThanOrEqual(1);
    expect(c2.worstSum).toBeLessThanOrEqual(1);
    expect(c2.figures.rmsRel).toBeLessThan(0.75 * f.rmsRel);
    const n2 = vpuLength('vpu_softmax.pasm', 'softmax_row_2sum');
    expect(n2).toBe(19);
    const [lo2, hi2] = vpuBoundWindow(0, n2);
    const cycles2 = run2.compute().cycles;
    expect(cycles2).toBeGreaterThanOrEqual(lo2);
    expect(cycles2).toBeLessThanOrEqual(hi2);
    console.log(`vpu_softmax (softmax_row_2sum): max |p - p_ref| ${c2.figures.maxAbs.toExponential(2)}, RMS relative (p >= 1e-3) ${c2.figures.rmsRel.toExponential(2)}, worst |sum p - 1| ${c2.rowSumErr.toExponential(2)}, worst error / bound ${c2.worst.toFixed(2)}, ${cycles2} cycles`);
  });

  it('vpu_softmax: numerically stable for any scale and offset of the logits (property, within the same bound)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpu-softmax-'));
    try {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 0x7fffffff }), fc.integer({ min: 1, max: 160 }), fc.integer({ min: -240, max: 240 }), (seed, sd20, mean4) => {
          const sd = sd20 / 20; // 0.05 .. 8
          const mean = mean4 / 4; // -60 .. 60
          // logits N(mean, sd): exp(x) alone would overflow FP16 (max 131008 = e^11.8) for most of these rows
          const file = join(dir, 'x.npy');
          writeNpyFile(file, { dtype: 'float32', shape: [ROWS, COLS], data: normalRows(seed, mean, sd) });
          for (const compensated of [false, true]) {
            const prog = useProgram(compensated ? 'softmax_row_2sum' : 'softmax_row');
            const run = runSample('vpu_softmax.pasm', 'vpu_softmax.ld', { edit: (t, f) => (f.endsWith('.ld') ? t.replace('"sm_x.npy"', JSON.stringify(file)) : prog(t, f)) });
            expect(run.report.stop).toBe('done');
            const x = run.tensor('x');
            expect(Math.abs(x.reduce((t, v) => t + v, 0) / x.length - mean)).toBeLessThan(sd / 10 + 0.05); // these logits ran
            const c = checkSoftmax(x, run.tensor('p'), compensated);
            expect(c.worst).toBeLessThanOrEqual(1);
            expect(c.worstSum).toBeLessThanOrEqual(1);
          }
        }),
        { numRuns: 8, seed: 20261124 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('vpu_rmsnorm: x / rms(x) x gamma within 7 U relative (U = 2^-11), gamma per lane, 12 VPU cycles per row', () => {
    const run = runSample('vpu_rmsnorm.pasm', 'vpu_rmsnorm.ld');
    expect(run.report.stop).toBe('done');
    const y = run.tensor('y');
    const { ref, worst } = checkRmsNorm(run.tensor('x'), run.tensor('gamma'), y);
    expect(worst).toBeLessThanOrEqual(1);
    const f = figures(y, ref, FP16_MIN * 2);
    expect(f.rmsRel).toBeLessThan(1.5 * U); // recorded in vpu_rmsnorm.pasm and docs/simulator.md
    expect(f.rmsRel).toBeGreaterThan(U / 8);
    const n = vpuLength('vpu_rmsnorm.pasm', 'rmsnorm_row');
    expect(n).toBe(12);
    // the UIE's active cycles (union of its two trips): the gamma trip's row is the first one the VPU waits for (its
    // fill is the window's fill), rn_load_gamma is one MOV
    const [lo, hi] = vpuBoundWindow(1, n, 1);
    const cycles = run.compute().cycles;
    expect(cycles).toBeGreaterThanOrEqual(lo);
    expect(cycles).toBeLessThanOrEqual(hi);
    console.log(`vpu_rmsnorm: max |y - y_ref| ${f.maxAbs.toExponential(2)}, RMS relative ${f.rmsRel.toExponential(2)} (${(f.rmsRel / U).toFixed(2)} U), worst error / bound ${worst.toFixed(2)}, ${cycles} cycles`);
  });

  it('vpu_layernorm: (x - mean) / sd x gamma + beta within the FP16 error bound, 16 VPU cycles per row', () => {
    const run = runSample('vpu_layernorm.pasm', 'vpu_layernorm.ld');
    expect(run.report.stop).toBe('done');
    const y = run.tensor('y');
    const { ref, worst } = checkLayerNorm(run.tensor('x'), run.tensor('gb'), y);
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
    const [lo, hi] = vpuBoundWindow(2, n, 2);
    const cycles = run.compute().cycles;
    expect(cycles).toBeGreaterThanOrEqual(lo);
    expect(cycles).toBeLessThanOrEqual(hi);
    console.log(`vpu_layernorm: max |y - y_ref| ${f.maxAbs.toExponential(2)}, normwise RMS ${normwise.toExponential(2)} (${(normwise / U).toFixed(2)} U), worst error / bound ${worst.toFixed(2)}, ${cycles} cycles`);
  });

  it('vpu_rmsnorm, vpu_layernorm: within their bounds for rows of any scale and offset (property)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpu-norm-'));
    try {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 0x7fffffff }), fc.integer({ min: 1, max: 32 }), fc.integer({ min: -32, max: 32 }), (seed, sd4, mean4) => {
          // rows N(mean, sd), sd 0.25 .. 8, mean -8 .. 8: the sums of squares stay below the FP16 maximum (RMS < 32)
          const file = join(dir, 'x.npy');
          writeNpyFile(file, { dtype: 'float32', shape: [ROWS, COLS], data: normalRows(seed, mean4 / 4, sd4 / 4) });
          const data = (name: string) => (t: string, f: string) => (f.endsWith('.ld') ? t.replace(`"${name}"`, JSON.stringify(file)) : t);
          const rn = runSample('vpu_rmsnorm.pasm', 'vpu_rmsnorm.ld', { edit: data('rn_x.npy') });
          expect(rn.report.stop).toBe('done');
          const xs = rn.tensor('x');
          expect(Math.abs(xs.reduce((t, v) => t + v, 0) / xs.length - mean4 / 4)).toBeLessThan(sd4 / 40 + 0.05); // these rows ran
          expect(checkRmsNorm(rn.tensor('x'), rn.tensor('gamma'), rn.tensor('y')).worst).toBeLessThanOrEqual(1);
          const ln = runSample('vpu_layernorm.pasm', 'vpu_layernorm.ld', { edit: data('ln_x.npy') });
          expect(ln.report.stop).toBe('done');
          expect(checkLayerNorm(ln.tensor('x'), ln.tensor('gb'), ln.tensor('y')).worst).toBeLessThanOrEqual(1);
        }),
        { numRuns: 5, seed: 20261124 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
