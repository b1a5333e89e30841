/**
 * pyxis-gen resnet (packages/target-pyxis/src/gen/resnet.ts): the ResNet-style block chained on chip in one image,
 * out = ReLU(conv2(ReLU(conv1(x))) + x), at a small configuration (8 images [16, 16, 128] on 2 clusters x 2 UIEs),
 * assembled, linked without warnings, simulated bit-exact, and checked end to end against a float64 block written
 * here (never the generator's reference).
 * Bound (docs/generators.md "ResNet-style block"), per element, derived from the formats: u8 = 2^-4 (RFP8, 3 fraction
 * bits; 2^-12 absolute at the bottom of EB -12), eps = 2^-8 normwise for a 3x3 convolution of 16 input channels on the
 * grid (activations as LnsI5F10 2^-11, 16 MNS 5.1.13 roundings of 2^-14, RFP16 output 2^-11: 2^-9, doubled). With
 * a1 = sum |w1||x|:  e_h = u8 |h| + (1 + u8) eps a1 + 2^-12 (checked on the h buffer of the chip),
 * E_y = sum |w2| e_h + eps sum |w2| (|h| + e_h),  B = u8 |ref| + 2^-12 + (1 + u8) ((1 + 2^-11) E_y + 2^-11 |conv2 + x|);
 * ReLU is 1-Lipschitz and commutes with the sign-preserving roundings. Checked: |out - ref| <= B everywhere, RMS
 * relative <= 0.04. Cycles: two 3x3 convolutions of 16 input channels, 8 Exec_Valid per input channel per row-group
 * (chip §6.1.1 step 8).
 * `--downsample` (resnetDown.ts): the same bound with h = conv1_s2(x) and the RFP8-rounded shortcut p = proj_s2(x)
 * (E_p = u8 |p| + (1 + u8) eps a_p + 2^-12 added to E_y), against a strided float64 block written here; conv1_s2 is
 * the native stride-2 row flow (17 input rows -> 8 output rows per trip, seq §1.2 rule 1).
 */
import { describe, expect, it } from 'vitest';
import { resnetBlock, resnetDownBlock } from '../../src/gen/index.js';
import type { GenKernel } from '../../src/gen/kernel.js';
import { input, runKernel, type GenRun } from './gen.harness.js';
import { conv3x3Ref } from './conv.ref.js';

const u8 = 2 ** -4;
const eps = 2 ** -8;

/** float64 3x3 convolution, zero padding 1, 16 -> 16 channels, stride s, of n images [16, hIn, wIn] (conv.ref.ts). */
const conv = (x: ArrayLike<number>, w: ArrayLike<number>, n: number, hIn: number, wIn: number, s = 1) => conv3x3Ref(x, w, { images: n, cin: 16, height: hIn, width: wIn, stride: s });

/** Runs a block bit-exact (no link warnings, run done) and reads its input x and the two 3x3 weight sets. */
function setup(k: GenKernel): { r: GenRun; x: Float64Array; w1: Float64Array; w2: Float64Array } {
  const r = runKernel(k);
  expect(r.report.stop).toBe('done');
  expect(r.warnings).toEqual([]);
  return { r, x: input(k, 'resnet_x.npy'), w1: input(k, 'resnet_w1.npy'), w2: input(k, 'resnet_w2.npy') };
}

/**
 * The conv2 terms of the bound (header): e_h of h on chip, s1 = conv2 with |w2| of e_h, s2 = conv2 with |w2| of
 * |h| + e_h, and c2 = conv2(ReLU(h)); `conv2` is the block's second convolution at h's size.
 */
function conv2Terms(h: Float64Array, a1: Float64Array, w2: Float64Array, conv2: (src: ArrayLike<number>, w: ArrayLike<number>) => Float64Array) {
  const eh = h.map((v, i) => u8 * Math.abs(v) + (1 + u8) * eps * a1[i]! + 2 ** -12);
  const aw2 = Array.from(w2, Math.abs);
  return { eh, c2: conv2(h.map((v) => Math.max(v, 0)), w2), s1: conv2(eh, aw2), s2: conv2(h.map((v, i) => Math.abs(v) + eh[i]!), aw2) };
}

/** |out - ref| / B at worst, RMS relative error, negative outputs, and the zeros of the final ReLU (sum < -B). */
function score(out: Float32Array, sum: Float64Array, B: (i: number, ref: number) => number) {
  expect(out.length).toBe(sum.length);
  let worst = 0;
  let num = 0;
  let den = 0;
  let zeros = 0;
  let negative = 0;
  let notZeroed = 0;
  for (let i = 0; i < sum.length; i++) {
    const ref = Math.max(sum[i]!, 0);
    const b = B(i, ref);
    const d = Math.abs(out[i]! - ref);
    worst = Math.max(worst, d / b);
    num += d * d;
    den += ref * ref;
    // the final ReLU ran on chip: nothing negative, and exact zeros where the block's sum is negative beyond B
    if (out[i]! < 0) negative++;
    if (sum[i]! < -b) {
      if (out[i] !== 0) notZeroed++;
      zeros++;
    }
  }
  return { worst, rms: Math.sqrt(num / den), zeros, negative, notZeroed };
}

describe('pyxis-gen resnet: ReLU(conv2(ReLU(conv1(x))) + x) chained on chip', () => {
  it('8 images [16, 16, 128] on 2 clusters x 2 UIEs (2 per UIE, both AMEM buffers): bit-exact run against a float64 block', () => {
    const N = 8;
    const H = 16;
    const W = 128;
    const { r, x, w1, w2 } = setup(resnetBlock({ images: N, height: H, clusters: [0, 1], uies: 2 }));
    const { y: h, a: a1 } = conv(x, w1, N, H, W);
    const { eh, c2, s1, s2 } = conv2Terms(h, a1, w2, (src, w) => conv(src, w, N, H, W).y);
    const sum = c2.map((v, i) => v + x[i]!);
    const sc = score(r.tensor('y_hbm'), sum, (i, ref) => u8 * ref + 2 ** -12 + (1 + u8) * ((1 + 2 ** -11) * (s1[i]! + eps * s2[i]!) + 2 ** -11 * Math.abs(sum[i]!)));
    expect(sc.negative).toBe(0);
    expect(sc.notZeroed).toBe(0);
    expect(sc.zeros).toBeGreaterThan(sum.length / 4);
    expect(sc.worst).toBeLessThanOrEqual(1);
    expect(sc.rms).toBeLessThanOrEqual(0.04);

    // the chain: conv1's RFP8 output h of worker 0's second image (image 1, buffer 1) is conv1 of that image's x
    const h1 = r.tensor('h0_1');
    const off = 1 * 16 * H * W;
    let hWorst = 0;
    for (let i = 0; i < h1.length; i++) hWorst = Math.max(hWorst, Math.abs(h1[i]! - h[off + i]!) / eh[off + i]!);
    expect(hWorst).toBeLessThanOrEqual(1);
    expect(hWorst).toBeGreaterThan(0);

    let ev = 0;
    for (const e of r.report.engines) ev += (e.uie?.['compute'] as { exec_valid?: number } | undefined)?.exec_valid ?? 0;
    expect(ev).toBe(2 * N * (H / 8) * 16 * 8);
  });

  it('--downsample: ReLU(conv2(ReLU(conv1_s2(x))) + proj_s2(x)), 4 images [16, 16, 128] -> [16, 8, 64] on 2 clusters', () => {
    const ND = 4;
    const HI = 16;
    const HO = 8;
    const k = resnetDownBlock({ images: ND, height: HI, clusters: [0, 1], uies: 1 });
    const { r, x, w1, w2 } = setup(k);
    const wp = input(k, 'resnet_wp.npy');
    // float64: h = conv1 at (2r, 2c) of the zero-padded input; conv2 over the [16, 8, 64] image
    const { y: h, a: a1 } = conv(x, w1, ND, HI, 128, 2);
    const { c2, s1, s2 } = conv2Terms(h, a1, w2, (src, w) => conv(src, w, ND, HO, 64).y);
    // the shortcut p = proj_s2(x): 1x1 at the even rows and columns, and sum |wp x|
    const pv = new Float64Array(h.length);
    const pa = new Float64Array(h.length);
    for (let b = 0; b < ND; b++)
      for (let o = 0; o < 16; o++)
        for (let rr = 0; rr < HO; rr++)
          for (let q = 0; q < 64; q++) {
            const j = ((b * 16 + o) * HO + rr) * 64 + q;
            for (let i = 0; i < 16; i++) {
              const v = wp[o * 16 + i]! * x[((b * 16 + i) * HI + 2 * rr) * 128 + 2 * q]!;
              pv[j]! += v;
              pa[j]! += Math.abs(v);
            }
          }
    const sum = c2.map((v, j) => v + pv[j]!);
    const sc = score(r.tensor('y_hbm'), sum, (j, ref) => {
      const ep = u8 * Math.abs(pv[j]!) + (1 + u8) * eps * pa[j]! + 2 ** -12;
      return u8 * ref + 2 ** -12 + (1 + u8) * ((1 + 2 ** -11) * (s1[j]! + eps * s2[j]! + ep) + 2 ** -11 * Math.abs(sum[j]!));
    });
    expect(sc.negative).toBe(0);
    expect(sc.worst).toBeLessThanOrEqual(1);
    // two RFP8 roundings on the shortcut path (p, out) besides h: RMS relative <= 0.06
    expect(sc.rms).toBeLessThanOrEqual(0.06);
    // Exec_Valid per image: the projection 16 per row (1x1, one per input channel) x HO rows; conv1_s2 the native
    // stride-2 flow, 8 per input channel per group of 8 output rows from 17 input rows (HI / 16 groups); conv2 8 per
    // input channel per row-group of the HO-row image
    let ev = 0;
    for (const e of r.report.engines) ev += (e.uie?.['compute'] as { exec_valid?: number } | undefined)?.exec_valid ?? 0;
    expect(ev).toBe(ND * (HO * 16 + (HI / 16) * 16 * 8 + (HO / 8) * 16 * 8));
  });

  it('bad parameters name the parameter and the limit', () => {
    expect(() => resnetDownBlock({ images: 1, height: 24 })).toThrow(/GEN0003: height: must be a multiple of 16/);
    expect(() => resnetDownBlock({ images: 1, height: 64 })).toThrow(/GEN0002: height: must be in 16..48/);
    expect(() => resnetBlock({ images: 1, height: 12 })).toThrow(/GEN0003: height: must be a multiple of 8 .*seq §1.3 rule 1/);
    expect(() => resnetBlock({ images: 1, height: 248 })).toThrow(/GEN0002: height: must be in 8..240/);
    expect(() => resnetBlock({ images: 0 })).toThrow(/GEN0002: images/);
    expect(() => resnetBlock({ images: 1, uies: 13 })).toThrow(/GEN0004: uies/);
  });
});
