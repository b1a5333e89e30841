/**
 * More compute samples of samples/pyxis end to end (assemble + link + simulate in-process), against float64
 * references computed here from the float inputs; bounds in docs/spec-notes.md "error figures and bounds".
 */
import { describe, expect, it } from 'vitest';
import { PEAK_TFLOPS_FP8, decompressCinPerCout8, ensureInputs, errors, matmul64, npy, runSample, transpose } from './samples-compute.harness.js';

const MAX_ERR_FP8 = 0.06;
const RMS_ERR_FP8 = 0.04;
const MAX_ERR_FP16 = 0.01;
const RMS_ERR_FP16 = 0.005;
const WB_FLITS = 128;
/** Write-commit latency before a trip retires (chip §11.7.2 "~100 cycles", sim_config.json). */
const COMMIT = 100;
const SLACK = 64;

describe('samples/pyxis/matmul_fp16: FP16 MatMul 128x128x256 (chip §6.1.3.2)', () => {
  it('C = A x B within the FP16 bound; 2K Exec_Valid cycles, half the FP8 rate', () => {
    const K = 256;
    ensureInputs(['mm_fp16_a.npy', 'mm_fp16_b.npy']);
    const r = runSample('matmul_fp16.pasm', 'matmul_fp16.ld');
    expect(r.report.stop).toBe('done');
    const { c, abs } = matmul64(npy('mm_fp16_a.npy').data, npy('mm_fp16_b.npy').data, 128, K, 128);
    const e = errors(r.tensor('c'), c, abs);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(MAX_ERR_FP16);
    expect(e.rms).toBeLessThanOrEqual(RMS_ERR_FP16);
    const t = r.compute().trips[0]!;
    expect(t.macs).toBe(128 * 128 * K);
    expect(t.exec_valid).toBe(2 * K);
    // fill: one Hbuf block = 128 AMEM words (64 values of K); writeback 128 FP16 rows at 2 write cycles each
    expect(t.cycles).toBeGreaterThanOrEqual(2 * K + 128 + 2 * WB_FLITS + COMMIT - 16);
    expect(t.cycles).toBeLessThanOrEqual(2 * K + 128 + 2 * WB_FLITS + COMMIT + SLACK);
    // rate while computing: 4 MACs per LLC per Exec_Valid = half of FP8 (chip §1: 22 TFLOPS FP16 per UIE)
    expect(t.macs / t.exec_valid).toBe((2048 * 8) / 2);
    expect(t.tflops).toBeLessThanOrEqual(PEAK_TFLOPS_FP8 / 2);
  });
});

describe('matmul_fp16 at K = 4096, 4 tiles back to back (timing-only)', () => {
  it('the UIE reaches at least 95% of the 22 TFLOPS FP16 of chip §1 (half the FP8 rate)', () => {
    const K = 4096;
    const r = runSample('matmul_fp16.pasm', 'matmul_fp16.ld', {
      timingOnly: true,
      edit: (t, f) => {
        let x = t.replace(/^\.const K = \d+/m, `.const K = ${K}`);
        if (!f.endsWith('.ld')) return x;
        x = x.replace('[128, 256]', `[128, ${K}]`).replace('[256, 128]', `[${K}, 128]`).replace(/data = "mm_fp16_\w+\.npy"; /g, 'zero = true; ');
        const trip = x.slice(x.indexOf('  trip matmul16'), x.indexOf('op = matmul; trip_power = 32; }') + 'op = matmul; trip_power = 32; }'.length);
        const more = [1, 2, 3].map((n) => trip.replace('trip matmul16', `trip matmul16_${n}`).replace('write = c;', `write = c${n};`));
        const tensors = [1, 2, 3].map((n) => `tensor c${n} { format = RFP16; shape = [128, 128]; eb = -8; region = amem0; zero = true; }`);
        return x.replace(trip, [trip, ...more].join('\n')).replace('queue uie0', `${tensors.join('\n')}\nqueue uie0`);
      },
    });
    expect(r.report.stop).toBe('done');
    const s = r.compute();
    expect(s.trips).toHaveLength(4);
    expect(s.exec_valid).toBe(4 * 2 * K);
    expect(s.macs).toBe(4 * 128 * 128 * K);
    expect(s.tflops).toBeGreaterThanOrEqual(0.95 * 22);
    expect(s.tflops).toBeLessThanOrEqual(PEAK_TFLOPS_FP8 / 2);
  });
});

describe('samples/pyxis/transpose_identity: A^T x I = A^T (chip §17.1)', () => {
  it('every code of A^T comes back unchanged through the simulator', () => {
    ensureInputs(['tr_a.npy', 'tr_i.npy']);
    const r = runSample('transpose_identity.pasm', 'transpose_identity.ld');
    expect(r.report.stop).toBe('done');
    const at = transpose(npy('tr_a.npy').data, 128, 128);
    const c = r.tensor('c');
    let diff = 0;
    for (let i = 0; i < at.length; i++) if (c[i] !== at[i]) diff++;
    expect(diff).toBe(0);
    // "execution time approximately the same as a mem-copy of the same size": 128 rows in, 128 out, plus pipeline
    const t = r.compute().trips[0]!;
    expect(t.exec_valid).toBe(128);
    expect(t.cycles).toBeLessThanOrEqual(128 + 8 + WB_FLITS + COMMIT + SLACK);
  });
});

describe('samples/pyxis/conv1x1_residual: 1x1 convolution + InMemAdd residual (chip §6.1.2, §7.4.1)', () => {
  it('y = W x x + r within the FP8 bound (+ one RFP16 rounding of the add)', () => {
    ensureInputs(['c1_x.npy', 'c1_w.npy', 'c1_r.npy']);
    const r = runSample('conv1x1_residual.pasm', 'conv1x1_residual.ld');
    expect(r.report.stop).toBe('done');
    const w = npy('c1_w.npy').data;
    const x = npy('c1_x.npy').data;
    const res = npy('c1_r.npy').data;
    const { c, abs } = matmul64(w, x, 128, 64, 128);
    for (let i = 0; i < c.length; i++) {
      c[i] = c[i]! + res[i]!;
      abs[i] = abs[i]! + Math.abs(res[i]!);
    }
    const e = errors(r.tensor('y'), c, abs);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(MAX_ERR_FP8 + 2 ** -11);
    expect(e.rms).toBeLessThanOrEqual(RMS_ERR_FP8);
    const s = r.compute();
    expect(s.macs).toBe(128 * 128 * 64);
    expect(r.report.engines.find((x) => x.name === 'c0.uie0')?.uie?.['rmw_adds']).toBe(128);
  });
});

describe('samples/pyxis/conv1x1_compressed: 1x1 convolution with compressed 4-bit weights (chip §6.2.4.1, §14, §15.4)', () => {
  it('y = W\' x x for the weights W\' decompressed here from the database bytes, within the FP8 bound', () => {
    ensureInputs(['c1_x.npy', 'c1_w.npy']);
    const r = runSample('conv1x1_compressed.pasm', 'conv1x1_compressed.ld');
    expect(r.report.stop).toBe('done');
    const w = decompressCinPerCout8(r.raw('wz'), 128, 64, -12);
    // the decompressed weights are a 4-bit approximation of the float weights, not something else
    const wf = npy('c1_w.npy').data;
    let num = 0, den = 0;
    for (let i = 0; i < w.length; i++) {
      num += (w[i]! - wf[i]!) ** 2;
      den += wf[i]! ** 2;
    }
    expect(Math.sqrt(num / den)).toBeLessThan(0.25);
    const { c, abs } = matmul64(w, npy('c1_x.npy').data, 128, 64, 128);
    const e = errors(r.tensor('y'), c, abs);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(MAX_ERR_FP8);
    expect(e.rms).toBeLessThanOrEqual(RMS_ERR_FP8);
    const s = r.compute();
    expect(s.macs).toBe(128 * 128 * 64);
    expect(s.exec_valid).toBe(64);
  });
});

describe('samples/pyxis/conv3x3_pad: 3x3 convolution, stride 1, padding 1 (chip §6.1.1)', () => {
  it('y = conv3x3(x, W) within the FP8 bound; 10 cycles per input channel per 8 output rows', () => {
    ensureInputs(['c3_x.npy', 'c3_w.npy']);
    const r = runSample('conv3x3_pad.pasm', 'conv3x3_pad.ld');
    expect(r.report.stop).toBe('done');
    const x = npy('c3_x.npy').data;
    const w = npy('c3_w.npy').data;
    const [C, H, W] = [16, 8, 128];
    const ref = new Float64Array(C * H * W);
    const abs = new Float64Array(C * H * W);
    for (let o = 0; o < C; o++)
      for (let i = 0; i < C; i++)
        for (let ky = 0; ky < 3; ky++)
          for (let kx = 0; kx < 3; kx++) {
            const k = w[((o * C + i) * 3 + ky) * 3 + kx]!;
            for (let row = 0; row < H; row++) {
              const ry = row + ky - 1;
              if (ry < 0 || ry >= H) continue;
              for (let col = 0; col < W; col++) {
                const cx = col + kx - 1;
                if (cx < 0 || cx >= W) continue;
                const v = x[(i * H + ry) * W + cx]!;
                ref[(o * H + row) * W + col]! += k * v;
                abs[(o * H + row) * W + col]! += Math.abs(k * v);
              }
            }
          }
    const e = errors(r.tensor('y'), ref, abs);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(MAX_ERR_FP8);
    expect(e.rms).toBeLessThanOrEqual(RMS_ERR_FP8);
    const t = r.compute().trips[0]!;
    expect(t.macs).toBe(C * C * H * W * 9);
    expect(t.exec_valid).toBe(C * 8);
    // chip §6.1.1 step 8: 2 bubbles + 8 computations per input channel = 10 cycles per 8 output rows
    expect(t.exec_bubble).toBe(C * 2);
    expect(t.cycles).toBeGreaterThanOrEqual(C * 10 + 2 * WB_FLITS + COMMIT);
    expect(t.cycles).toBeLessThanOrEqual(C * 10 + 18 + 2 * WB_FLITS + COMMIT + SLACK);
  });
});

describe('samples/pyxis/pipeline_2uie: two UIEs synchronised by barriers', () => {
  it('D_t = (A_t x B) x B2 for both tiles; stage 2 of a tile starts after stage 1 of it, the UIEs overlap', () => {
    ensureInputs(['pl_a0.npy', 'pl_a1.npy', 'pl_b.npy', 'pl_b2.npy']);
    const r = runSample('pipeline_2uie.pasm', 'pipeline_2uie.ld');
    expect(r.report.stop).toBe('done');
    const b = npy('pl_b.npy').data;
    const b2 = npy('pl_b2.npy').data;
    for (const [t, a] of [[0, 'pl_a0.npy'], [1, 'pl_a1.npy']] as const) {
      // stage 1 against float64 A_t x B: the FP8 bound plus the RFP8 rounding of C1 (2^-4 of |c1| <= sum |a b|)
      const c1 = matmul64(npy(a).data, b, 128, 256, 128);
      const got1 = r.tensor(`c1${t}`);
      const e1 = errors(got1, c1.c, c1.abs);
      expect(e1.bad).toBe(0);
      expect(e1.max).toBeLessThanOrEqual(MAX_ERR_FP8 + 2 ** -4);
      // stage 2 against float64 C1 x B2 of the C1 that stage 1 stored (the input stage 2 really read)
      const d = matmul64(Float64Array.from(got1), b2, 128, 128, 128);
      const e2 = errors(r.tensor(`d${t}`), d.c, d.abs);
      expect(e2.bad).toBe(0);
      expect(e2.max).toBeLessThanOrEqual(MAX_ERR_FP8);
      expect(e2.rms).toBeLessThanOrEqual(RMS_ERR_FP8);
    }
    const s0 = r.compute(0).trips;
    const s1 = r.compute(1).trips;
    expect(s0).toHaveLength(2);
    expect(s1).toHaveLength(2);
    // per-trip work is the trip's own even where the two trips of a UIE overlap (uieDefault.ts attribution)
    for (const t of s0) expect([t.exec_valid, t.macs, t.wb_flits]).toEqual([256, 128 * 128 * 256, WB_FLITS]);
    for (const t of s1) expect([t.exec_valid, t.macs, t.wb_flits]).toEqual([128, 128 * 128 * 128, WB_FLITS]);
    // barriers: stage 2 of tile t after stage 1 of tile t; stage 1 of tile 1 overlaps stage 2 of tile 0
    expect(s1[0]!.start_cycle).toBeGreaterThan(s0[0]!.end_cycle);
    expect(s1[1]!.start_cycle).toBeGreaterThan(s0[1]!.end_cycle);
    expect(s1[0]!.start_cycle).toBeLessThan(s0[1]!.end_cycle);
    const b0 = r.report.barriers.find((x) => x.cluster === 0)!;
    expect(b0.waits).toBeGreaterThanOrEqual(2);
  });
});
