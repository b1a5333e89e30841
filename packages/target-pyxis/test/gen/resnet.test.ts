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
 * (E_p = u8 |p| + (1 + u8) eps a_p + 2^-12 added to E_y), against a strided float64 block written here.
 */
import { describe, expect, it } from 'vitest';
import { resnetBlock, resnetDownBlock } from '../../src/gen/index.js';
import { input, runKernel } from './gen.harness.js';

const N = 8;
const H = 16;
const W = 128;

/** float64 3x3, stride 1, zero padding 1, 16 -> 16 channels; also sum |w| |x| per output. */
function conv(x: ArrayLike<number>, w: ArrayLike<number>): { y: Float64Array; a: Float64Array } {
  const y = new Float64Array(N * 16 * H * W);
  const a = new Float64Array(y.length);
  for (let b = 0; b < N; b++)
    for (let o = 0; o < 16; o++)
      for (let i = 0; i < 16; i++)
        for (let t = 0; t < 9; t++) {
          const wt = w[(o * 16 + i) * 9 + t]!;
          const dy = Math.floor(t / 3) - 1;
          const dx = (t % 3) - 1;
          for (let r = Math.max(0, -dy); r < Math.min(H, H - dy); r++)
            for (let q = Math.max(0, -dx); q < Math.min(W, W - dx); q++) {
              const p = wt * x[((b * 16 + i) * H + r + dy) * W + q + dx]!;
              y[((b * 16 + o) * H + r) * W + q]! += p;
              a[((b * 16 + o) * H + r) * W + q]! += Math.abs(p);
            }
        }
  return { y, a };
}

describe('pyxis-gen resnet: ReLU(conv2(ReLU(conv1(x))) + x) chained on chip', () => {
  it('8 images [16, 16, 128] on 2 clusters x 2 UIEs (2 per UIE, both AMEM buffers): bit-exact run against a float64 block', () => {
    const k = resnetBlock({ images: N, height: H, clusters: [0, 1], uies: 2 });
    const r = runKernel(k);
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    const x = input(k, 'resnet_x.npy');
    const w1 = input(k, 'resnet_w1.npy');
    const w2 = input(k, 'resnet_w2.npy');
    const u8 = 2 ** -4;
    const eps = 2 ** -8;
    const { y: h, a: a1 } = conv(x, w1);
    const sum = conv(h.map((v) => Math.max(v, 0)), w2).y.map((v, i) => v + x[i]!);
    const ref = sum.map((v) => Math.max(v, 0));
    const eh = h.map((v, i) => u8 * Math.abs(v) + (1 + u8) * eps * a1[i]! + 2 ** -12);
    const aw2 = Array.from(w2, Math.abs);
    const s1 = conv(eh, aw2).y;
    const s2 = conv(h.map((v, i) => Math.abs(v) + eh[i]!), aw2).y;
    const out = r.tensor('y_hbm');
    expect(out.length).toBe(ref.length);
    let worst = 0;
    let num = 0;
    let den = 0;
    let zeros = 0;
    let negative = 0;
    let notZeroed = 0;
    for (let i = 0; i < ref.length; i++) {
      const d = Math.abs(out[i]! - ref[i]!);
      const B = u8 * ref[i]! + 2 ** -12 + (1 + u8) * ((1 + 2 ** -11) * (s1[i]! + eps * s2[i]!) + 2 ** -11 * Math.abs(sum[i]!));
      worst = Math.max(worst, d / B);
      num += d * d;
      den += ref[i]! * ref[i]!;
      // the final ReLU ran on chip: nothing negative, and exact zeros where the block's sum is negative beyond B
      if (out[i]! < 0) negative++;
      if (sum[i]! < -B) {
        if (out[i] !== 0) notZeroed++;
        zeros++;
      }
    }
    expect(negative).toBe(0);
    expect(notZeroed).toBe(0);
    expect(zeros).toBeGreaterThan(ref.length / 4);
    expect(worst).toBeLessThanOrEqual(1);
    expect(Math.sqrt(num / den)).toBeLessThanOrEqual(0.04);

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
    const r = runKernel(k);
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    const x = input(k, 'resnet_x.npy');
    const w1 = input(k, 'resnet_w1.npy');
    const w2 = input(k, 'resnet_w2.npy');
    const wp = input(k, 'resnet_wp.npy');
    // float64, written out: h = conv1 at (2r, 2c) of the zero-padded input; conv2 over the [16, 8, 64] image
    const h = new Float64Array(ND * 16 * HO * 64);
    const a1 = new Float64Array(h.length);
    for (let b = 0; b < ND; b++)
      for (let o = 0; o < 16; o++)
        for (let rr = 0; rr < HO; rr++)
          for (let q = 0; q < 64; q++) {
            let sum = 0;
            let a = 0;
            for (let i = 0; i < 16; i++)
              for (let t = 0; t < 9; t++) {
                const y = 2 * rr + Math.floor(t / 3) - 1;
                const xx = 2 * q + (t % 3) - 1;
                if (y < 0 || y >= HI || xx < 0 || xx >= 128) continue;
                const v = w1[(o * 16 + i) * 9 + t]! * x[((b * 16 + i) * HI + y) * 128 + xx]!;
                sum += v;
                a += Math.abs(v);
              }
            h[((b * 16 + o) * HO + rr) * 64 + q] = sum;
            a1[((b * 16 + o) * HO + rr) * 64 + q] = a;
          }
    const conv2 = (src: ArrayLike<number>, w: ArrayLike<number>) => {
      const y = new Float64Array(src.length);
      for (let b = 0; b < ND; b++)
        for (let o = 0; o < 16; o++)
          for (let rr = 0; rr < HO; rr++)
            for (let q = 0; q < 64; q++) {
              let sum = 0;
              for (let i = 0; i < 16; i++)
                for (let t = 0; t < 9; t++) {
                  const yy = rr + Math.floor(t / 3) - 1;
                  const xx = q + (t % 3) - 1;
                  if (yy >= 0 && yy < HO && xx >= 0 && xx < 64) sum += w[(o * 16 + i) * 9 + t]! * src[((b * 16 + i) * HO + yy) * 64 + xx]!;
                }
              y[((b * 16 + o) * HO + rr) * 64 + q] = sum;
            }
      return y;
    };
    const u8 = 2 ** -4;
    const eps = 2 ** -8;
    const eh = h.map((v, i) => u8 * Math.abs(v) + (1 + u8) * eps * a1[i]! + 2 ** -12);
    const aw2 = Array.from(w2, Math.abs);
    const c2 = conv2(h.map((v) => Math.max(v, 0)), w2);
    const s1 = conv2(eh, aw2);
    const s2 = conv2(h.map((v, i) => Math.abs(v) + eh[i]!), aw2);
    const out = r.tensor('y_hbm');
    expect(out.length).toBe(h.length);
    let worst = 0;
    let num = 0;
    let den = 0;
    let negative = 0;
    for (let b = 0; b < ND; b++)
      for (let o = 0; o < 16; o++)
        for (let rr = 0; rr < HO; rr++)
          for (let q = 0; q < 64; q++) {
            let pv = 0;
            let pa = 0;
            for (let i = 0; i < 16; i++) {
              const v = wp[o * 16 + i]! * x[((b * 16 + i) * HI + 2 * rr) * 128 + 2 * q]!;
              pv += v;
              pa += Math.abs(v);
            }
            const j = ((b * 16 + o) * HO + rr) * 64 + q;
            const sum = c2[j]! + pv;
            const ref = Math.max(sum, 0);
            const ep = u8 * Math.abs(pv) + (1 + u8) * eps * pa + 2 ** -12;
            const B = u8 * ref + 2 ** -12 + (1 + u8) * ((1 + 2 ** -11) * (s1[j]! + eps * s2[j]! + ep) + 2 ** -11 * Math.abs(sum));
            const d = Math.abs(out[j]! - ref);
            worst = Math.max(worst, d / B);
            num += d * d;
            den += ref * ref;
            if (out[j]! < 0) negative++;
          }
    expect(negative).toBe(0);
    expect(worst).toBeLessThanOrEqual(1);
    // two RFP8 roundings on the shortcut path (p, out) besides h: RMS relative <= 0.06
    expect(Math.sqrt(num / den)).toBeLessThanOrEqual(0.06);
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
