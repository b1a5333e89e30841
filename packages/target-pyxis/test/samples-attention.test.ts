/**
 * samples/pyxis/attn_causal: one causal attention head (128 tokens, d_k = 64, d_v = 128) end to end on one UIE —
 * S^T = K Q^T / 8 on the grid with the diagonal mask of chip §6.2.2.1.3 and a column mask (§6.2.2.1.4), softmax down
 * the columns on the VPU (max from the SB2VB snooping register, exp and 1/x through LUTs), O^T = V^T P^T on the grid
 * with P^T streamed from the VPU through the Vbuffer (docs/simulator.md "Causal attention tile",
 * docs/spec-notes.md). The reference is float64 softmax(Q K^T / 8 + causal mask) V computed here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { npy, runSample, SAMPLES } from './samples-compute.harness.js';

const N = 128; // tokens (grid columns = queries i, grid rows of S^T = keys j)
const DK = 64;
const DV = 128;
/** Query columns >= L are padding (column mask 0 forces their scores, and their outputs, to zero). */
const L = 120;
const U = 2 ** -11; // unit roundoff of FP16 (10 fraction bits, round to nearest)

/**
 * Exact float64 reference: scores x_ij = s_ij - max_j s_ij (-Infinity where masked), P, O = P V, and per score the
 * normwise scale sum_c |q_ic k_jc| / sqrt(d_k) and |s_ij|.
 */
function reference(qt: Float64Array, kt: Float64Array, v: Float64Array) {
  const x = new Float64Array(N * N);
  const p = new Float64Array(N * N);
  const sAbs = new Float64Array(N * N);
  const sMag = new Float64Array(N * N);
  for (let i = 0; i < N; i++) {
    let m = -Infinity;
    for (let j = 0; j < N; j++) {
      let s = 0;
      let a = 0;
      for (let c = 0; c < DK; c++) {
        s += qt[c * N + i]! * kt[c * N + j]!;
        a += Math.abs(qt[c * N + i]! * kt[c * N + j]!);
      }
      sAbs[i * N + j] = a / Math.sqrt(DK);
      sMag[i * N + j] = Math.abs(s) / Math.sqrt(DK);
      // padding query: every score forced to 0 by the column mask (precedence over the diagonal mask)
      s = i >= L ? 0 : j > i ? -Infinity : s / Math.sqrt(DK);
      x[i * N + j] = s;
      m = Math.max(m, s);
    }
    let sum = 0;
    for (let j = 0; j < N; j++) sum += Math.exp((x[i * N + j]! -= m));
    for (let j = 0; j < N; j++) p[i * N + j] = Math.exp(x[i * N + j]!) / sum;
  }
  return { x, p, sAbs, sMag, o: matmulPV(p, v) };
}

function matmulPV(p: ArrayLike<number>, v: Float64Array): { o: Float64Array; abs: Float64Array } {
  const o = new Float64Array(N * DV);
  const abs = new Float64Array(N * DV);
  for (let i = 0; i < N; i++)
    for (let j = 0; j < N; j++) {
      const w = p[i * N + j]!;
      if (w === 0) continue;
      for (let c = 0; c < DV; c++) {
        o[i * DV + c]! += w * v[j * DV + c]!;
        abs[i * DV + c]! += Math.abs(w * v[j * DV + c]!);
      }
    }
  return { o, abs };
}

/**
 * Relative error bound of the exp LUT at x <= 0 (scripts/make-vpu-lut.mjs, grammars/pyxis/vpu_lut_entry.json): the
 * segment holding x spans a quarter octave, width h <= |x|/4, and linear interpolation of exp over it errs by at most
 * h^2/8 max exp'' <= h^2/8 e^h times exp(x) (always upward: exp is convex).
 */
/**
 * Relative error of one grid product when one operand is +-2^e (its LnsI5F3 code has fraction 0): the other's
 * lin2log (chip §4.8 map, 10 bits) and the product's log2lin are inverse maps, and lin -> log -> lin moves a value by
 * at most one LSB (docs/spec-notes.md "formats: lin<->log mapping precision and rounding", verified exhaustively there): 2^-10.
 */
const G_POW2 = 2 ** -10;
/**
 * General operands: lin2log of the F10 operand errs by up to 0.0051 in log2 (0.36%) and the product's log2lin by up to
 * 0.35% (same note), with the LnsI5F3 operand taken as its rounding (the reference uses the rounded values): 0.71%.
 */
const G_GENERAL = 2 ** 0.0051 - 1 + 0.0035;
const lutEta = (x: number) => (x * x) / 128 * Math.exp(Math.abs(x) / 4);

/** The chip's P[i][j] and O[i][c] from a run (it stores the transposes P^T, O^T). */
function chipResult(r: ReturnType<typeof runSample>): { P: Float64Array; O: Float64Array } {
  const pt = r.tensor('pt');
  const ot = r.tensor('ot');
  const P = new Float64Array(N * N);
  const O = new Float64Array(N * DV);
  for (let a = 0; a < N; a++) for (let b = 0; b < N; b++) P[b * N + a] = pt[a * N + b]!;
  for (let c = 0; c < DV; c++) for (let i = 0; i < N; i++) O[i * DV + c] = ot[c * N + i]!;
  return { P, O };
}

/**
 * The weights path's LnsI5F3 (chip §6.2.4.4, docs/spec-notes.md "error figures and bounds"): log2 |x| rounded to 3
 * fraction bits, i.e. x to the nearest signed 2^(n/8). Written here from the format's definition.
 */
const lnsF3 = (x: number) => (x === 0 ? 0 : Math.sign(x) * 2 ** (Math.round(8 * Math.log2(Math.abs(x))) / 8));

/** RMS relative error ||got - ref|| / ||ref|| over the valid queries (rows i < L of [N, cols] matrices). */
function rmsRel(got: Float64Array, ref: Float64Array, cols: number): number {
  let num = 0;
  let den = 0;
  for (let k = 0; k < L * cols; k++) {
    num += (got[k]! - ref[k]!) ** 2;
    den += ref[k]! ** 2;
  }
  return Math.sqrt(num / den);
}

/**
 * Softmax bounds against the reference of the values the grid really multiplied: per-row sums and per-element errors.
 * `g` is the relative error bound of one grid product q k (lin2log of q in GV, log2lin of the product). The score
 * error is then |ds_ij| <= (g + 8 x 2^-14) sum_c |q_ic k_jc| / 8 (8 Exec_Valid roundings of the partial sums to MNS
 * 5.1.13) + U |s_ij| (FP16 writeback), and since softmax is invariant to a common shift, |ln(p^_j / p_j)| <=
 * |ds_j| + max_k |ds_k|. Returns the figures (max |P - p|, RMS relative) and the RMS of the LUT bound on the reference.
 */
function checkSoftmax(P: Float64Array, ref: ReturnType<typeof reference>, g: number): { maxAbs: number; rms: number; lutRms: number } {
  const { x, p } = ref;
  const ds = (k: number) => (g + 8 * 2 ** -14) * ref.sAbs[k]! + U * ref.sMag[k]!;
  let maxAbs = 0;
  let den = 0;
  let predicted = 0;
  for (let i = 0; i < L; i++) {
    // normalisation: sum_j P = (sum_j e^_j) r^ with the sum accumulated in FP16 over i+1 terms (each addition rounds
    // by <= U of a partial sum <= the sum, errors of random sign: 4 sigma of sqrt((i+1)/3) U), the 1/x LUT after one
    // Newton step ((h^2/8 * 2)^2 <= (1/64)^2 relative: 2.5e-4) and the final MUL (U)
    let rowSum = 0;
    for (let j = 0; j <= i; j++) rowSum += P[i * N + j]!;
    const sumBound = 4 * Math.sqrt((i + 1) / 3) * U + 2.5e-4 + 2 * U;
    expect(Math.abs(rowSum - 1), `row ${i}`).toBeLessThanOrEqual(sumBound);
    // shape: P^/rowSum = p_j (1 + eta_j) / (1 + mean_p(eta)), so |P^/rowSum - p| <= p max(eta_j, mean eta); plus
    // the score error (ds above), the SUB's rounding (U |x| absolute in x, i.e. relative in exp), the FP16 LUT
    // base/slope and MUL roundings (3U), the LUT's 8-bit position (16U), and an absolute floor 2^-15 (the smallest
    // FP16 normal at the VPU's EB -15: smaller probabilities flush to zero)
    let etaBar = 0;
    let dsMax = 0;
    for (let j = 0; j <= i; j++) {
      etaBar += p[i * N + j]! * lutEta(x[i * N + j]!);
      dsMax = Math.max(dsMax, ds(i * N + j));
    }
    for (let j = 0; j <= i; j++) {
      const k = i * N + j;
      const xi = x[k]!;
      const shift = Math.exp(ds(k) + dsMax);
      const bound = p[k]! * ((1 + Math.max(lutEta(xi), etaBar) + U * (Math.abs(xi) + 16 + 3)) * shift - 1) + 2 ** -15;
      const err = Math.abs(P[k]! / rowSum - p[k]!);
      expect(err, `P[${i}][${j}] = ${P[k]} vs ${p[k]}`).toBeLessThanOrEqual(bound);
      maxAbs = Math.max(maxAbs, Math.abs(P[k]! - p[k]!));
      den += p[k]! ** 2;
      predicted += (p[k]! * Math.max(lutEta(xi), etaBar)) ** 2;
    }
  }
  return { maxAbs, rms: rmsRel(P, p, N), lutRms: Math.sqrt(predicted / den) };
}

/**
 * O^T = V^T P^T on the grid: normwise per element against (the VPU's P) x V (docs/spec-notes.md "error figures and
 * bounds"), at most `g` (a product's relative error) + 16 Exec_Valid roundings of the partial sums to MNS 5.1.13
 * (16 x 2^-14 = 0.1%) + the FP16 output (U). GV eb_adj 8 keeps every product above 2^EB_MNS (products below it
 * vanish: with eb_adj 0 that alone is a 0.24% error, docs/spec-notes.md). End to end against the
 * reference: the propagated P error (|P^ - p| summed against |V|) plus the same bound.
 */
function checkPV(P: Float64Array, O: Float64Array, v: Float64Array, ref: ReturnType<typeof reference>, g: number): { gridMax: number; rms: number } {
  const bound = g + 16 * 2 ** -14 + U;
  const { o, abs } = matmulPV(P, v);
  let gridMax = 0;
  for (let i = 0; i < L; i++) for (let c = 0; c < DV; c++) gridMax = Math.max(gridMax, Math.abs(O[i * DV + c]! - o[i * DV + c]!) / abs[i * DV + c]!);
  expect(gridMax).toBeLessThanOrEqual(bound);
  for (let i = 0; i < L; i++)
    for (let c = 0; c < DV; c++) {
      let prop = 0;
      for (let j = 0; j <= i; j++) prop += Math.abs(P[i * N + j]! - ref.p[i * N + j]!) * Math.abs(v[j * DV + c]!);
      expect(Math.abs(O[i * DV + c]! - ref.o.o[i * DV + c]!), `O[${i}][${c}]`).toBeLessThanOrEqual(prop + bound * abs[i * DV + c]!);
    }
  return { gridMax, rms: rmsRel(O, ref.o.o, DV) };
}

describe('samples/pyxis/attn_causal: causal attention tile (chip §6.1.4, §6.2.2.1.3-4, §6.4; seq §11, §13-§14)', () => {
  if (!['attn_qt.npy', 'attn_kt.npy', 'attn_v.npy'].every((f) => existsSync(SAMPLES + f))) execFileSync(process.execPath, [SAMPLES + 'attn_make_inputs.mjs', SAMPLES]);
  let cached: ReturnType<typeof runSample> | undefined;
  const run = () => (cached ??= runSample('attn_causal.pasm', 'attn_causal.ld'));
  const qt = npy('attn_qt.npy').data;
  const kt = npy('attn_kt.npy').data;
  const v = npy('attn_v.npy').data;
  const ref = reference(qt, kt, v);
  const chip = () => chipResult(run());

  it('masks: future keys get probability exactly 0; padding queries get exactly 1/128 and an output of exactly 0', () => {
    const { P, O } = chip();
    expect(run().report.stop).toBe('done');
    let masked = 0;
    for (let i = 0; i < L; i++)
      for (let j = i + 1; j < N; j++) {
        // -max - m saturates to -max (chip §4.2), whose exp LUT segment is (0, 0)
        expect(P[i * N + j], `P[${i}][${j}]`).toBe(0);
        masked++;
      }
    expect(masked).toBe((L * (L - 1)) / 2 + L * (N - L));
    for (let i = L; i < N; i++) {
      // all 128 scores 0: exp(0) = 1 (LUT segment 0 rounds to 1.0), sum 128 exact, 1/128 exact at a LUT breakpoint
      for (let j = 0; j < N; j++) expect(P[i * N + j]).toBe(1 / 128);
      for (let c = 0; c < DV; c++) expect(O[i * DV + c]).toBe(0);
    }
  });

  it('softmax on the VPU: per-row sums and per-element errors within the LUT + FP16 bounds', () => {
    const f = checkSoftmax(chip().P, ref, G_POW2);
    // RMS relative error within the LUT's own bound evaluated on the reference (plus 1% for the normalisation)
    expect(f.rms).toBeLessThanOrEqual(f.lutRms + 0.01);
    expect(f.rms).toBeGreaterThan(U); // a LUT exp is an approximation: exact probabilities would mean nothing was computed
    console.log(`attn_causal P: max |P - p| = ${f.maxAbs.toExponential(2)}, RMS relative ${(f.rms * 100).toFixed(2)}% (LUT bound ${((f.lutRms + 0.01) * 100).toFixed(2)}%)`);
  });

  it('P V on the grid: O^T = V^T P^T within the LnsI5F10 / MNS / FP16 bound of the probabilities the VPU produced', () => {
    const { P, O } = chip();
    const f = checkPV(P, O, v, ref, G_POW2);
    console.log(`attn_causal O: grid normwise max ${(f.gridMax * 100).toFixed(3)}%, end-to-end RMS relative ${(f.rms * 100).toFixed(2)}%`);
  });

  it('general FP8 K and V: against float64 the LnsI5F3 weight rounding dominates; against K, V so rounded, the same bounds', () => {
    if (!['attn_gen_qt.npy', 'attn_gen_kt.npy', 'attn_gen_v.npy'].every((f) => existsSync(SAMPLES + f))) execFileSync(process.execPath, [SAMPLES + 'attn_make_inputs.mjs', SAMPLES, '--general']);
    const r = runSample('attn_causal.pasm', 'attn_causal.ld', { edit: (t) => t.replace(/"attn_(qt|kt|v)\.npy"/g, '"attn_gen_$1.npy"') });
    expect(r.report.stop).toBe('done');
    const { P, O } = chipResult(r);
    const gq = npy('attn_gen_qt.npy').data;
    const gk = npy('attn_gen_kt.npy').data;
    const gv = npy('attn_gen_v.npy').data;
    const exact = reference(gq, gk, gv);
    // K and V enter the grid through the weights path as LnsI5F3: with them so rounded the reference is what the grid
    // multiplies, and the same bounds apply with the general product error
    const kq = gk.map(lnsF3);
    const vq = gv.map(lnsF3);
    const rounded = reference(gq, kq, vq);
    const fp = checkSoftmax(P, rounded, G_GENERAL);
    expect(fp.rms).toBeLessThanOrEqual(fp.lutRms + 0.01);
    const fo = checkPV(P, O, vq, rounded, G_GENERAL);
    // against float64 of the unrounded FP8 data: a rounding of up to 2^(1/16) - 1 = 4.4% per K element moves the
    // logits (RMS ~3% of each product, random signs), and V's own rounding adds ~3% to O; report, and bound loosely
    const pRms = rmsRel(P, exact.p, N);
    const oRms = rmsRel(O, exact.o.o, DV);
    expect(pRms).toBeLessThan(0.1);
    expect(oRms).toBeLessThan(0.1);
    expect(oRms).toBeGreaterThan(fo.rms); // the weight rounding is really there
    console.log(`attn_causal general FP8: vs float64 P RMS ${(pRms * 100).toFixed(2)}%, O RMS ${(oRms * 100).toFixed(2)}%; vs LnsI5F3-rounded K, V: P RMS ${(fp.rms * 100).toFixed(2)}% (max ${fp.maxAbs.toExponential(2)}), O RMS ${(fo.rms * 100).toFixed(2)}%, grid normwise max ${(fo.gridMax * 100).toFixed(3)}%`);
  });

  it('cycles: the grid phases and the VPU program, derived from the documented latencies', () => {
    const r = run();
    expect(r.report.stop).toBe('done');
    const s = r.compute();
    // the compute statistics list every trip that ran compute units: scores and pv use the grid, pdump only moves
    // Vbuffer rows to AMEM (no Exec)
    expect(s.trips.map((t) => t.trip_id)).toEqual([1, 2, 3]);
    const [sc, pv, pd] = s.trips as [(typeof s.trips)[0], (typeof s.trips)[0], (typeof s.trips)[0]];
    expect(pd.exec_valid).toBe(0);
    // chip §6.1.3: one Exec_Valid per inner-dimension step of a 128 x 128 tile; seq §11: 16 grid-rows x 8 slots
    expect(sc.exec_valid).toBe(DK);
    expect(pv.exec_valid).toBe(N);
    expect(sc.macs).toBe(N * N * DK);
    expect(pv.macs).toBe(N * N * N);
    expect(sc.wb_flits).toBe(128);
    expect(pv.wb_flits).toBe(128);
    // VPU (chip §6.4, grammars/pyxis/vpu_instr.json: one instruction per cycle): sm_init 2 + 128 x sm_sum 3 + sm_recip
    // 4 + 128 x sm_out 2. Pass A waits for the snoop row, i.e. after the 64 Exec_Valid of S^T and its 128 writeback
    // flits (one per cycle into SB2VB) and the snoop-register write (1).
    const VPU = 2 + 3 * 128 + 4 + 2 * 128;
    const scores = DK + 128 + 1 + VPU;
    // the pv trip ends after the last P^T row: its staging group's 8 Exec_Valid, 128 O^T rows in FP16 through the AMEM
    // write port (2 cycles per row, chip §6.2.2.2) and the write-commit latency (sim_config write_commit_latency_cycles)
    const tail = 8 + 2 * 128 + 100;
    // slack: the first K^T Hbuf block (8 AMEM words, read + WDP latency), grid fill and LLC pipeline latencies
    // (grid_fill_latency_cycles, llc_pipeline_latency_cycles: 4 each, both tiles) and the FIFO hops between units
    const SLACK = 64;
    expect(sc.end_cycle - sc.start_cycle).toBeGreaterThanOrEqual(scores);
    expect(sc.end_cycle - sc.start_cycle).toBeLessThanOrEqual(scores + SLACK);
    expect(pv.end_cycle - sc.start_cycle).toBeGreaterThanOrEqual(scores + tail);
    expect(pv.end_cycle - sc.start_cycle).toBeLessThanOrEqual(scores + tail + SLACK);
    // the P^T copy to AMEM (trip pdump, the run's last) follows O^T on the write port: 128 more FP16 rows
    expect(r.report.cycles - pv.end_cycle).toBeGreaterThanOrEqual(2 * 128);
    expect(r.report.cycles - pv.end_cycle).toBeLessThanOrEqual(2 * 128 + SLACK);
    // the timing does not depend on the data: --timing-only (no values computed) gives the same cycles
    expect(runSample('attn_causal.pasm', 'attn_causal.ld', { timingOnly: true }).report.cycles).toBe(r.report.cycles);
    console.log(`attn_causal cycles: scores ${sc.end_cycle - sc.start_cycle} (derived >= ${scores}), O^T done ${pv.end_cycle - sc.start_cycle} (>= ${scores + tail}), total ${r.report.cycles}`);
  });
});
