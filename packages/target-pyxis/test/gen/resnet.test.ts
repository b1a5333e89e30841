/**
 * pyxis-gen resnet (packages/target-pyxis/src/gen/resnet.ts) at a small bit-exact configuration (4 images [16, 16, 128]
 * on 2 clusters x 2 UIEs): both convolutions assembled, linked without warnings, simulated bit-exact and checked
 * against a float64 convolution written here (the FP8 bound of conv.test.ts). The default (96 images of 32 rows on
 * 48 UIEs) is the documented command of docs/generators.md.
 */
import { describe, expect, it } from 'vitest';
import { resnetBlock } from '../../src/gen/index.js';
import { errors, input, runKernel } from './gen.harness.js';

describe('pyxis-gen resnet: a ResNet-style block, small bit-exact configuration', () => {
  const c = resnetBlock({ images: 4, height: 16, clusters: [0, 1], uies: 2 });
  for (const s of c.stages)
    it(s.label, () => {
      const k = s.kernel;
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      const x = input(k, `${k.name}_x.npy`);
      const w = input(k, `${k.name}_w.npy`);
      const rr = k.meta['residual'] ? input(k, `${k.name}_r.npy`) : undefined;
      const H = 16;
      const ref = new Float64Array(4 * 16 * H * 128);
      const abs = new Float64Array(ref.length);
      for (let b = 0; b < 4; b++)
        for (let o = 0; o < 16; o++)
          for (let i = 0; i < 16; i++)
            for (let t = 0; t < 9; t++) {
              const wt = w[(o * 16 + i) * 9 + t]!;
              const dy = Math.floor(t / 3) - 1;
              const dx = (t % 3) - 1;
              for (let y = Math.max(0, -dy); y < Math.min(H, H - dy); y++)
                for (let q = Math.max(0, -dx); q < Math.min(128, 128 - dx); q++) {
                  const p = wt * x[((b * 16 + i) * H + y + dy) * 128 + q + dx]!;
                  ref[((b * 16 + o) * H + y) * 128 + q]! += p;
                  abs[((b * 16 + o) * H + y) * 128 + q]! += Math.abs(p);
                }
            }
      if (rr) for (let i = 0; i < ref.length; i++) ref[i]! += rr[i]!;
      const e = errors(r.tensor('y_hbm'), ref, abs);
      expect(e.bad).toBe(0);
      expect(e.max).toBeLessThanOrEqual(0.06);
    });
});
