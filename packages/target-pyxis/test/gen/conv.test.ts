/**
 * pyxis-gen conv3x3 (packages/target-pyxis/src/gen/conv.ts): 3x3 convolution, stride 1, zero padding 1, images
 * streamed from HBM over UIEs, assembled, linked without warnings and simulated bit-exact; Y against a float64
 * convolution written here. Bound: the FP8 bound of the conv3x3_pad sample (samples-compute-more.test.ts),
 * max |y - ref| / sum |w x| <= 0.06, RMS relative <= 0.04. Cycles (chip §6.1.1 step 8): per input channel of a
 * row-group, 2 Exec_Bubble + 8 Exec_Valid, so Exec_Valid = images x H/8 x Cin x 8 per UIE. Stride 2 (the native row
 * flow, seq §1.2 rule 1): per input channel of a group of 8 output rows, 9 Exec_Bubble + 8 Exec_Valid on 17 input
 * rows, even columns only.
 */
import { describe, expect, it } from 'vitest';
import { conv3x3, type ConvParams } from '../../src/gen/index.js';
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { computeTotal, errors, input, linkOnly, runKernel } from './gen.harness.js';
import { conv3x3Ref } from './conv.ref.js';

describe('pyxis-gen conv3x3: stride 1, pad 1, images streamed from HBM', () => {
  const cases: Array<[string, ConvParams]> = [
    ['one 8-row image, Cin 16 (the conv3x3_pad sample generalised)', { images: 1, cin: 16, height: 8 }],
    ['Cin 224: the kernels fill 2016 of the 2048 Hbuf bytes the LD_2ROWS_8B flow addresses per grid-row', { images: 1, cin: 224, height: 8 }],
    ['3 images of 24 rows (top, middle, bottom row-groups), Cin 32, 2 UIEs of 2 clusters, residual add', { images: 3, cin: 32, height: 24, clusters: [0, 1], residual: true }],
    // image 2 reuses image 0's buffer: its load waits for every trip of image 0 (else LD0813: the trips overlap)
    ['3 images of 16 rows on one UIE (a double buffer reused), Cin 16', { images: 3, cin: 16, height: 16 }],
  ];
  for (const [title, p] of cases)
    it(title, () => {
      const k = conv3x3(p);
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      expect(r.warnings).toEqual([]);
      const { y: ref, a: abs } = conv3x3Ref(input(k, `${k.name}_x.npy`), input(k, `${k.name}_w.npy`), { images: p.images, cin: p.cin, height: p.height, width: 128 });
      if (p.residual) {
        const rr = input(k, `${k.name}_r.npy`);
        for (let i = 0; i < ref.length; i++) ref[i]! += rr[i]!;
      }
      const e = errors(r.tensor('y_hbm'), ref, abs);
      expect(e.bad).toBe(0);
      expect(e.max).toBeLessThanOrEqual(0.06);
      expect(e.rms).toBeLessThanOrEqual(0.04);
      expect(computeTotal(r.report, 'exec_valid')).toBe(p.images * (p.height / 8) * p.cin * 8);
    });

  // the native stride-2 row flow (seq §1.2 rule 1: 16N + 1 = 17 input rows per trip of 8 output rows, pad included;
  // GX even_col_exec_en 1 / odd_col_exec_en 0, Exec_Valid on the odd rows): H = 16 one full group; H = 40 the top,
  // middle and last groups, the last with 9 input rows + 8 Read_Const rows and 4 of its 8 output rows Discarded
  // (seq §1.3); H = 8 a single padded group
  const s2: Array<[string, ConvParams]> = [
    ['2 images of 16 rows, Cin 32, 2 UIEs -> [16, 8, 64]', { images: 2, cin: 32, height: 16, stride: 2, uies: 2 }],
    ['1 image of 40 rows, Cin 16 (top, middle, padded last group) -> [16, 20, 64]', { images: 1, cin: 16, height: 40, stride: 2 }],
    ['1 image of 8 rows, Cin 16 (one group, 8 pad rows read, 4 output rows discarded) -> [16, 4, 64]', { images: 1, cin: 16, height: 8, stride: 2 }],
  ];
  for (const [title, p] of s2)
    it(`stride 2 (pad 1): ${title} RFP8, against a float64 strided convolution`, () => {
      const k = conv3x3(p);
      expect(k.ld).toMatch(/op = conv3x3_s2;/);
      const r = runKernel(k);
      expect(r.report.stop).toBe('done');
      // the linker's LD0820 rule for op = conv3x3_s2 (16N + 1 input rows, a multiple of 8 output rows) holds: no diagnostics
      expect(r.warnings).toEqual([]);
      const { images: N, cin: CI, height: H } = p;
      const HO = H / 2;
      const WO = 64;
      // out[o][r][c] = sum_i sum_dy,dx w[o][i][dy+1][dx+1] x[i][2r+dy][2c+dx], rows 0..H/2-1, columns 0..63
      const { y: ref, a: abs } = conv3x3Ref(input(k, `${k.name}_x.npy`), input(k, `${k.name}_w.npy`), { images: N, cin: CI, height: H, width: 128, stride: 2 });
      const e = errors(r.tensor('y_hbm'), ref, abs);
      expect(e.bad).toBe(0);
      // the FP8 bound + one RFP8 rounding of the output (2^-4 |y| <= 2^-4 sum |w x|)
      expect(e.max).toBeLessThanOrEqual(0.125);
      expect(e.rms).toBeLessThanOrEqual(0.05);
      // per trip and input channel 8 Exec_Valid (one per output row of the group, pad rows of the last group included),
      // each 16 grid-rows x 64 even columns x 9 MACs: a quarter of the stride-1 flow's 128 columns x 2 x the rows
      const groups = Math.ceil(H / 16);
      const ev = computeTotal(r.report, 'exec_valid');
      const macs = computeTotal(r.report, 'macs');
      expect(ev).toBe(N * groups * CI * 8);
      expect(macs).toBe(N * groups * 8 * 64 * 16 * CI * 9);
      if (H % 16 === 0) expect(macs).toBe(N * HO * WO * 16 * CI * 9); // = the useful MACs (rows x columns x kernel)
    });

  it('stride 2: the trips are checked by LD0820 (a top group read without its pad row has 16 rows, not 16N + 1)', () => {
    const k = conv3x3({ images: 1, cin: 16, height: 16, stride: 2 });
    // drop the Read_Const row above the image from the top group's AMEM Read: 16 rows per channel reach the grid
    const pasm = k.pasm.replace(/(\.program conv3x3_rd_s2_1_16 amem_read \{\n  loop i0 conv3x3_CIN \{\n)    loop i1 1 \{\n      Read_Const[^\n]*\n    \}\n/, '$1');
    expect(pasm).not.toBe(k.pasm);
    let d: Diagnostic[] = [];
    try {
      runKernel({ ...k, pasm });
    } catch (e) {
      if (!(e instanceof DiagnosticError)) throw e;
      d = e.diagnostics;
    }
    expect(d.map((x) => x.code)).toEqual(['LD0820']);
    expect(d[0]!.message).toContain('input `x0_0[:, 0:16]` has 16 rows');
    expect(JSON.stringify(d[0])).toContain('16N + 1');
  });

  it('stride 2: every row-group shape links without diagnostics (LD0820 counts 17 input rows and 8 output rows per trip)', () => {
    // H = 8: one group (1 pad + 8 rows + 8 pad rows); 24: top + a 9-row last group; 40: + a middle group (17 rows);
    // 248: the largest height (15 full groups and a 4-row last group)
    for (const H of [8, 24, 40, 248]) {
      const k = conv3x3({ images: 1, cin: 16, height: H, stride: 2 });
      expect(k.ld.match(/op = conv3x3_s2;/g)?.length).toBe(Math.ceil(H / 16));
      expect(linkOnly(k)).toEqual([]);
    }
  });

  it('bad parameters name the parameter and the rule', () => {
    expect(() => conv3x3({ images: 1, cin: 16, height: 8, stride: 3 })).toThrow(/GEN0002: stride: must be 1 or 2/);
    expect(() => conv3x3({ images: 24, cin: 224, height: 248, uies: 12 })).toThrow(/GEN0008: height: 12 UIE\(s\) .* bytes of AMEM in cluster 0/);
    expect(() => conv3x3({ images: 1, cin: 16, height: 8, stride: 2, residual: true })).toThrow(/GEN0007: residual: the stride-2 flow/);
    expect(() => conv3x3({ images: 1, cin: 24, height: 8 })).toThrow(/GEN0003: cin: must be a multiple of 16/);
    expect(() => conv3x3({ images: 1, cin: 16, height: 12 })).toThrow(/GEN0003: height: must be a multiple of 8 .*seq §1.3 rule 1/);
    expect(() => conv3x3({ images: 1, cin: 16, height: 256 })).toThrow(/GEN0002: height: must be in 8..248/);
    expect(() => conv3x3({ images: 1, cin: 240, height: 8 })).toThrow(/GEN0009: cin: 240 input channels need 2160 bytes .* addresses 2048/);
  });
});
