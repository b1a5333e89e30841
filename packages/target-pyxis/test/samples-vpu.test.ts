/**
 * VPU samples run end to end (assemble + link + simulate, samples/pyxis): the ReLU through the Vbuffer and the VPU,
 * and the fused linear layer ReLU(A x B + bias) with the bias add and ReLU on the grid's writeback stream (chip
 * §6.1.4). References are float64 computations written here from the .npy inputs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { npy, runSample, SAMPLES } from './samples-compute.harness.js';

/** erf by its Taylor series (|x| <= 6 / sqrt 2 here; 120 terms keep the series exact to double precision). */
function erf(x: number): number {
  const a = Math.abs(x);
  let t = a;
  let s = a;
  for (let n = 1; n < 120; n++) {
    t *= (-a * a) / n;
    s += t / (2 * n + 1);
  }
  return Math.sign(x) * Math.min(1, (2 / Math.sqrt(Math.PI)) * s);
}

describe('VPU samples (chip §6.1.4, §6.4; seq §12-§14)', () => {
  it('vpu_relu: y = ReLU(x) exactly on the FP16 values, 16 rows x 128 lanes', () => {
    const run = runSample('vpu_relu.pasm', 'vpu_relu.ld');
    const x = run.tensor('x'); // the FP16 values the UIE read (the linker rounded the floats to FP16)
    const y = run.tensor('y');
    for (let i = 0; i < x.length; i++) expect(y[i], `element ${i}`).toBe(Math.max(x[i]!, 0));
    expect(run.report.stop).toBe('done');
  });

  it('vpu_gelu: GELU through a LUT loaded from a .npy (config vpu.lut data), error against erf-GELU', () => {
    const run = runSample('vpu_gelu.pasm', 'vpu_gelu.ld');
    const x = run.tensor('x');
    const y = run.tensor('y');
    let maxErr = 0;
    let se = 0;
    for (let i = 0; i < x.length; i++) {
      const g = 0.5 * x[i]! * (1 + erf(x[i]! / Math.SQRT2));
      const e = Math.abs(y[i]! - g);
      se += e * e;
      maxErr = Math.max(maxErr, e);
    }
    // Bound: linear interpolation over a segment of width h errs by at most h^2/8 max|f''|; on [-6, 6] the widest
    // segments with curvature are h = 0.5 on [2, 4) where |GELU''| < 0.11 (0.0034), h = 0.25 on [1, 2) where
    // |GELU''| < 0.4 (0.0031); plus the FP16 rounding of base, slope and result (2^-11 relative, < 0.003 at |y| <= 6).
    expect(maxErr).toBeLessThan(0.0034 + 0.003);
    expect(Math.sqrt(se / x.length)).toBeLessThan(0.002);
    expect(maxErr).toBeGreaterThan(0); // a LUT is an approximation: exact equality would mean the test computes nothing
  });

  it('matmul_bias_relu: ReLU(A x B + bias) within the grid error bound; the VPU is the writeback bottleneck', () => {
    if (!['mbr_a.npy', 'mbr_b.npy', 'mbr_bias.npy'].every((f) => existsSync(SAMPLES + f))) execFileSync(process.execPath, [SAMPLES + 'make-fused-inputs.mjs', SAMPLES]);
    const run = runSample('matmul_bias_relu.pasm', 'matmul_bias_relu.ld');
    const A = npy('mbr_a.npy').data;
    const B = npy('mbr_b.npy').data;
    const bias = npy('mbr_bias.npy').data;
    const K = 256;
    const c = run.tensor('c');
    let se = 0;
    let sr = 0;
    for (let r = 0; r < 128; r++)
      for (let j = 0; j < 128; j++) {
        let s = 0;
        for (let k = 0; k < K; k++) s += A[r * K + k]! * B[k * 128 + j]!;
        const want = Math.max(s + bias[j]!, 0);
        se += (c[r * 128 + j]! - want) ** 2;
        sr += want * want;
      }
    // Bound: A enters the grid as LnsI5F3 (chip §6.2.4.4): each element rounded to the nearest 2^(i/8), a relative
    // error within +-(2^(1/16) - 1) = 4.4%, RMS 4.4%/sqrt(3) = 2.6% for log-uniform rounding; the dot products of
    // random-sign terms keep that normwise RMS (B in LnsI5F10 and the FP16 outputs add < 0.1%). 4% leaves margin.
    const normwise = Math.sqrt(se / sr);
    expect(normwise).toBeLessThan(0.04);
    expect(normwise).toBeGreaterThan(0.005); // the LNS rounding is really there (an exact float path would fail this)
    // cycles: the writeback starts after the K Exec_Valid cycles and the VPU takes 2 instructions per row (plus one
    // for the bias): at least K + 2 x 128; at most that plus the first Hbuf block fill (128 AMEM words), the write
    // commit latency (100 cycles, sim_config) and 2 x 64 cycles of pipeline slack.
    const cycles = run.report.cycles;
    expect(cycles).toBeGreaterThanOrEqual(K + 2 * 128);
    expect(cycles).toBeLessThanOrEqual(K + 2 * 128 + 128 + 100 + 128);
    const cf = run.compute();
    expect(cf.exec_valid).toBe(K);
    expect(cf.wb_flits).toBe(128);
  });
});
