/**
 * Additive bias "Beta" through the grid (chip §15.5): "This appears as one extra input channel per output channel, and
 * we can program the weights with this value. Then the UIE is programmed to effectively multiply this by '1' in the
 * grid to effectively add the Beta value"; for 1x1 "program the Beta as an LnsI5F10 (16-bit) value".
 *
 * The linker puts Beta at input channel I of a 16-bit (linear16) database (docs/spec-notes.md "weights: Beta in 1x1
 * databases"), padded to a multiple of 4 channels (seq §1.2 rule 2). The 1x1 linear16 flow of pyxis-gen for 12 input
 * channels therefore runs an 8-channel layer with Beta unchanged, given the input channels 8 = 1 (the Beta channel)
 * and 9..11 = 0 (pads). Expected: Y = W X + Beta against a float64 reference written here.
 */
import { describe, expect, it } from 'vitest';
import { conv1x1 } from '../../src/gen/conv1x1.js';
import { runKernel } from './gen.harness.js';

const CIN = 8; // real input channels; the database adds Beta at channel 8 and pads to 12
const COUT = 128;
const P = 2; // pixel rows (one trip each)

describe('Beta through the grid (chip §15.5, 1x1 / linear16)', () => {
  it('Y = W X + Beta: the linker\'s Beta channel times a ones input channel, through WDP, GH, GV, GX and GWB', () => {
    const k = conv1x1({ name: 'bt', images: 1, cin: CIN + 4, rows: P, weights: 'linear16', seed: 7 });
    const xf = k.inputs.find((f) => f.file === 'bt_x.npy')!;
    const wf = k.inputs.find((f) => f.file === 'bt_w.npy')!;
    expect(xf.shape).toEqual([CIN + 4, P, 128]);
    expect(wf.shape).toEqual([COUT, CIN + 4]);
    // the first 8 weight columns stay (exact LnsI5F10 values of the generator); Beta = +-2^e, e in -1..3: exact in
    // LnsI5F10 and larger than most W X terms, so a missing or misplaced Beta cannot pass the bound
    const W = new Float32Array(COUT * CIN);
    for (let o = 0; o < COUT; o++) for (let i = 0; i < CIN; i++) W[o * CIN + i] = wf.data[o * (CIN + 4) + i]!;
    const beta = Float32Array.from({ length: COUT }, (_, o) => (o % 3 === 0 ? -1 : 1) * 2 ** ((o % 5) - 1));
    const X = Float32Array.from(xf.data);
    for (let p = 0; p < P; p++)
      for (let c = 0; c < 128; c++) {
        X[(CIN * P + p) * 128 + c] = 1; // the Beta channel
        for (let i = CIN + 1; i < CIN + 4; i++) X[(i * P + p) * 128 + c] = 0;
      }
    k.inputs = [
      { ...xf, data: X },
      { file: 'bt_w.npy', shape: [COUT, CIN], data: W },
      { file: 'bt_beta.npy', shape: [COUT], data: beta },
    ];
    const ld = k.ld.replace('data = "bt_w.npy";', 'data = "bt_w.npy"; beta = "bt_beta.npy";');
    expect(ld).not.toBe(k.ld);
    k.ld = ld;
    const run = runKernel(k);
    expect(run.report.stop).toBe('done');
    const y = run.tensor('y_hbm'); // [COUT, P, 128]
    let worst = 0;
    let beyondWx = 0;
    for (let o = 0; o < COUT; o++)
      for (let p = 0; p < P; p++)
        for (let c = 0; c < 128; c++) {
          let ref = beta[o]!;
          let mag = Math.abs(beta[o]!);
          let wx = 0;
          for (let i = 0; i < CIN; i++) {
            const t = W[o * CIN + i]! * X[(i * P + p) * 128 + c]!;
            ref += t;
            wx += t;
            mag += Math.abs(t);
          }
          const got = y[(o * P + p) * 128 + c]!;
          worst = Math.max(worst, Math.abs(got - ref) / mag);
          beyondWx = Math.max(beyondWx, Math.abs(got - wx) / mag);
        }
    // the FP16 bound of the generator's linear16 check (docs/generators.md): normwise per element
    expect(worst).toBeLessThan(0.01);
    // and Beta is really there: without it some outputs would be off by far more than the bound
    expect(beyondWx).toBeGreaterThan(0.1);
  });
});
