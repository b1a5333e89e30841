/**
 * samples/pyxis/attn_causal: one causal attention head (128 tokens, d_k = 64, d_v = 128) end to end on one UIE —
 * S^T = K Q^T / 8 on the grid with the diagonal mask of chip §6.2.2.1.3 and a column mask (§6.2.2.1.4), softmax down
 * the columns on the VPU (max from the SB2VB snooping register, exp and 1/x through LUTs), O^T = V^T P^T on the grid
 * with P^T streamed from the VPU through the Vbuffer (docs/simulator.md "Causal attention tile",
 * docs/spec-notes.d/attention.md). The reference is float64 softmax(Q K^T / 8 + causal mask) V computed here.
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

/** Exact float64 reference: scores x_ij = s_ij - max_j s_ij (-Infinity where masked), P, O = P V. */
function reference(qt: Float64Array, kt: Float64Array, v: Float64Array) {
  const x = new Float64Array(N * N);
  const p = new Float64Array(N * N);
  for (let i = 0; i < N; i++) {
    let m = -Infinity;
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let c = 0; c < DK; c++) s += qt[c * N + i]! * kt[c * N + j]!;
      // padding query: every score forced to 0 by the column mask (precedence over the diagonal mask)
      s = i >= L ? 0 : j > i ? -Infinity : s / Math.sqrt(DK);
      x[i * N + j] = s;
      m = Math.max(m, s);
    }
    let sum = 0;
    for (let j = 0; j < N; j++) sum += Math.exp((x[i * N + j]! -= m));
    for (let j = 0; j < N; j++) p[i * N + j] = Math.exp(x[i * N + j]!) / sum;
  }
  return { x, p, o: matmulPV(p, v) };
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
const lutEta = (x: number) => (x * x) / 128 * Math.exp(Math.abs(x) / 4);

describe('samples/pyxis/attn_causal: causal attention tile (chip §6.1.4, §6.2.2.1.3-4, §6.4; seq §11, §13-§14)', () => {
  if (!['attn_qt.npy', 'attn_kt.npy', 'attn_v.npy'].every((f) => existsSync(SAMPLES + f))) execFileSync(process.execPath, [SAMPLES + 'attn_make_inputs.mjs', SAMPLES]);
  let cached: ReturnType<typeof runSample> | undefined;
  const run = () => (cached ??= runSample('attn_causal.pasm', 'attn_causal.ld'));
  const qt = npy('attn_qt.npy').data;
  const kt = npy('attn_kt.npy').data;
  const v = npy('attn_v.npy').data;
  const ref = reference(qt, kt, v);
  /** The chip's P[i][j] and O[i][c] (it stores the transposes P^T, O^T). */
  const chip = () => {
    const r = run();
    const pt = r.tensor('pt');
    const ot = r.tensor('ot');
    const P = new Float64Array(N * N);
    const O = new Float64Array(N * DV);
    for (let a = 0; a < N; a++) for (let b = 0; b < N; b++) P[b * N + a] = pt[a * N + b]!;
    for (let c = 0; c < DV; c++) for (let i = 0; i < N; i++) O[i * DV + c] = ot[c * N + i]!;
    return { P, O };
  };

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
    const { P } = chip();
    const { x, p } = ref;
    let num = 0;
    let den = 0;
    let maxAbs = 0;
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
      // the roundings feeding the LUT (score to FP16 at the writeback, the SUB: U (|s| + |x|) absolute in x, i.e.
      // relative in exp), the FP16 LUT base/slope and MUL roundings (3U), and an absolute floor 2^-15 (the smallest
      // FP16 normal at the VPU's EB -15: smaller probabilities flush to zero)
      let etaBar = 0;
      for (let j = 0; j <= i; j++) etaBar += p[i * N + j]! * lutEta(x[i * N + j]!);
      for (let j = 0; j <= i; j++) {
        const k = i * N + j;
        const xi = x[k]!;
        const bound = p[k]! * (Math.max(lutEta(xi), etaBar) + U * (2 * Math.abs(xi) + 16 + 3)) + 2 ** -15;
        const err = Math.abs(P[k]! / rowSum - p[k]!);
        expect(err, `P[${i}][${j}] = ${P[k]} vs ${p[k]}`).toBeLessThanOrEqual(bound);
        const e = Math.abs(P[k]! - p[k]!);
        maxAbs = Math.max(maxAbs, e);
        num += e * e;
        den += p[k]! ** 2;
        predicted += (p[k]! * Math.max(lutEta(xi), etaBar)) ** 2;
      }
    }
    const rms = Math.sqrt(num / den);
    // RMS relative error within the LUT's own bound evaluated on the reference (plus 1% for the normalisation)
    expect(rms).toBeLessThanOrEqual(Math.sqrt(predicted / den) + 0.01);
    expect(rms).toBeGreaterThan(U); // a LUT exp is an approximation: exact probabilities would mean nothing was computed
    console.log(`attn_causal P: max |P - p| = ${maxAbs.toExponential(2)}, RMS relative ${(rms * 100).toFixed(2)}% (LUT bound ${((Math.sqrt(predicted / den) + 0.01) * 100).toFixed(2)}%)`);
  });

  it('P V on the grid: O^T = V^T P^T within the LnsI5F10 / MNS / FP16 bound of the probabilities the VPU produced', () => {
    const { P, O } = chip();
    const { o, abs } = matmulPV(P, v);
    // Normwise per element (docs/spec-notes.md "error figures and bounds"): V is +-2^e, exact in LnsI5F3; P^T enters
    // GV as LnsI5F10 (2^-11 octave: 0.034%), the product's log->lin mantissa has 10 bits (U), 16 Exec_Valid roundings
    // of the partial sums to MNS 5.1.13 (16 x 2^-14 = 0.1%), the FP16 output (U): 0.23%, bound 0.3%. GV eb_adj 8 keeps
    // every product above 2^EB_MNS (products below it vanish: with eb_adj 0 this error is 0.24%, see attention.md).
    let max = 0;
    for (let i = 0; i < L; i++) for (let c = 0; c < DV; c++) max = Math.max(max, Math.abs(O[i * DV + c]! - o[i * DV + c]!) / abs[i * DV + c]!);
    expect(max).toBeLessThanOrEqual(0.003);
    // end to end against softmax(Q K^T / 8) V: the propagated P error (|P^ - p| summed against |V|) plus the grid's
    let num = 0;
    let den = 0;
    for (let i = 0; i < L; i++)
      for (let c = 0; c < DV; c++) {
        let prop = 0;
        for (let j = 0; j <= i; j++) prop += Math.abs(P[i * N + j]! - ref.p[i * N + j]!) * Math.abs(v[j * DV + c]!);
        const e = Math.abs(O[i * DV + c]! - ref.o.o[i * DV + c]!);
        expect(e, `O[${i}][${c}]`).toBeLessThanOrEqual(prop + 0.003 * abs[i * DV + c]!);
        num += e * e;
        den += ref.o.o[i * DV + c]! ** 2;
      }
    console.log(`attn_causal O: grid normwise max ${(max * 100).toFixed(3)}%, end-to-end RMS relative ${((Math.sqrt(num / den)) * 100).toFixed(2)}%`);
  });

  it('cycles: the grid phases and the VPU program, derived from the documented latencies', () => {
    const r = run();
    expect(r.report.stop).toBe('done');
    const s = r.compute();
    // the compute statistics list the trips that used the grid: scores and pv (pdump only moves Vbuffer rows to AMEM)
    expect(s.trips.map((t) => t.trip_id)).toEqual([1, 2]);
    const [sc, pv] = s.trips as [(typeof s.trips)[0], (typeof s.trips)[0]];
    // chip §6.1.3: one Exec_Valid per inner-dimension step of a 128 x 128 tile; seq §11: 16 grid-rows x 8 slots
    expect(sc.exec_valid).toBe(DK);
    expect(pv.exec_valid).toBe(N);
    expect(sc.macs).toBe(N * N * DK);
    expect(pv.macs).toBe(N * N * N);
    expect(sc.wb_flits).toBe(128);
    expect(pv.wb_flits).toBe(128);
    // VPU (chip §6.4, grammars/pyxis/vpu_instr.json: one instruction per cycle): sm_init 2 + 128 x sm_sum 3 + sm_recip
    // 4 + 128 x sm_out 4. Pass A waits for the snoop row, i.e. after the 64 Exec_Valid of S^T and its 128 writeback
    // flits (one per cycle into SB2VB) and the snoop-register write (1).
    const VPU = 2 + 3 * 128 + 4 + 4 * 128;
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
    console.log(`attn_causal cycles: scores ${sc.end_cycle - sc.start_cycle} (derived >= ${scores}), O^T done ${pv.end_cycle - sc.start_cycle} (>= ${scores + tail}), total ${r.report.cycles}`);
  });
});
