/**
 * pyxis-gen conv3x3 --width W (packages/target-pyxis/src/gen/convWide.ts): the width-wise tiling of chip §17.2.1
 * (Table 17-1) as an end-to-end flow: images [Cin, H, W] streamed from HBM, each row-group of 8 output rows computed in
 * tiles of 8 input partitions stepping 7 (reads at partition offset 7t rotated back by the RPSW, the overlapping
 * columns masked on the RFP16 write), assembled, linked with no diagnostic and simulated. Expected values from
 * references written here / in conv.ref.ts (never from src/gen):
 *  - bit-exact: one nonzero tap per filter (filter o: input channel o, tap o mod 9, so the W and E taps that cross a
 *    tile seam are all used), powers of two in x and w: every output is one exact product w x (or 0 outside the
 *    image), compared code for code with the float64 value; a seam column computed with the grid's edge zero instead
 *    of the neighbouring pixel (an unmasked or mis-placed tile) gives 0 there.
 *  - random data: the float64 convolution within the conv3x3 FP8 bound (normwise <= 0.06, RMS <= 0.04).
 * --residual: R preloaded into the Y buffer, each tile RMW_Adds only its written columns.
 * Cycles: every tile is a conv3x3 row-group trip, 2 Exec_Bubble + 8 Exec_Valid per input channel (chip §6.1.1), so
 * Exec_Valid = images x H/8 x tiles x Cin x 8, tiles = 1 + ceil((W/16 - 8) / 7) (chip §17.2.1).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { conv3x3, GenError, type ConvParams } from '../../src/gen/index.js';
import { computeTotal, errors, input, runKernel } from './gen.harness.js';
import { conv3x3Ref } from './conv.ref.js';
import { gen, withTempDir } from './cli.harness.js';

/** chip §17.2.1: tiles of a W-column tensor, from the 7-partition step (Table 17-1 for W = 512). */
const tilesOf = (W: number) => 1 + Math.ceil((W / 16 - 8) / 7);

/** splitmix-style deterministic generator in [0, 1) */
function rnd(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

describe('pyxis-gen conv3x3 --width: width-wise tiling (chip §17.2.1)', () => {
  /** one nonzero power-of-two tap per filter, power-of-two x: run, and compare every output with the exact product */
  function bitExact(p: ConvParams): void {
    const k = conv3x3(p);
    const W = p.width!;
    const H = p.height;
    const r = rnd(1721 + W);
    const x = new Float32Array(16 * H * W);
    for (let i = 0; i < x.length; i++) x[i] = (r() < 0.5 ? -1 : 1) * 2 ** (Math.floor(r() * 5) - 3);
    const w = new Float32Array(16 * 16 * 9);
    const wo = (o: number) => (o % 2 ? -1 : 1) * 2 ** -(o % 4);
    for (let o = 0; o < 16; o++) w[(o * 16 + o) * 9 + (o % 9)] = wo(o);
    k.inputs.find((f) => f.file.endsWith('_x.npy'))!.data.set(x);
    k.inputs.find((f) => f.file.endsWith('_w.npy'))!.data.set(w);
    const run = runKernel(k);
    expect(run.report.stop).toBe('done');
    expect(run.warnings).toEqual([]);
    const y = run.tensor('y_hbm');
    let bad = 0;
    let first = '';
    for (let o = 0; o < 16; o++) {
      const dy = Math.floor((o % 9) / 3) - 1;
      const dx = ((o % 9) % 3) - 1;
      for (let row = 0; row < H; row++)
        for (let c = 0; c < W; c++) {
          const sr = row + dy;
          const sc = c + dx;
          const want = sr < 0 || sr >= H || sc < 0 || sc >= W ? 0 : wo(o) * x[(o * H + sr) * W + sc]!;
          const got = y[(o * H + row) * W + c]!;
          if (got !== want && !(got === 0 && want === 0)) {
            if (!bad) first = `filter ${o} row ${row} column ${c}: ${got} != ${want}`;
            bad++;
          }
        }
    }
    expect(first).toBe('');
    expect(bad).toBe(0);
    expect(computeTotal(run.report, 'exec_valid')).toBe((H / 8) * tilesOf(W) * 16 * 8);
  }

  it('512 columns (Table 17-1: 5 tiles), one product per output: bit-exact at every column, seams included', () => {
    const k = conv3x3({ images: 1, cin: 16, height: 8, width: 512 });
    expect(k.meta['tiles']).toBe(5);
    // Table 17-1 read at partition offsets 0, 7, 14, 21, 28 (columns 112t), written as the table lists (tile 3: 351-462)
    for (const c of ['0:128', '112:240', '224:352', '336:464', '448:512']) expect(k.ld).toContain(`x0_0[:, 0:8, ${c}]`);
    expect(k.notes?.join('\n')).toContain('written columns 0-126, 127-238, 239-350, 351-462, 463-511');
    bitExact({ images: 1, cin: 16, height: 8, width: 512 });
  });

  it('272 columns (tiles 0-7, 7-14, 14-16: a 3-partition last tile), 16 rows: bit-exact, the east edge included', () => {
    bitExact({ images: 1, cin: 16, height: 16, width: 272 });
  });

  const cases: Array<[string, ConvParams]> = [
    // 17 partitions: tiles 0-7, 7-14, 14-16 (a 3-partition last tile read with num_logical_ptns 3); rows 0..15 as
    // top / bottom groups; 2 images on 2 UIEs (each UIE its own rotation tables)
    ['272 columns, 2 images of 16 rows, Cin 32, 2 UIEs', { images: 2, cin: 32, height: 16, width: 272, uies: 2 }],
    // 9 partitions: the last tile is 2 partitions (7-8), every column of partition 7 is in both tiles
    // --residual: R preloaded into the Y buffer, every tile RMW_Adds only its written columns (masked InMemAdd)
    ['144 columns, 3 images of 24 rows (a double buffer reused), Cin 16, residual add', { images: 3, cin: 16, height: 24, width: 144, residual: true }],
    // 7 row-groups x 5 tiles = 35 trips per image: more than one barrier's 31 notifiers, so trip k waits for trip k - 3
    // and the store for the last 3 (the chain of convWide.ts)
    ['512 columns, 56 rows (35 trips per image), Cin 16', { images: 1, cin: 16, height: 56, width: 512 }],
  ];
  for (const [title, p] of cases)
    it(`${title}: within the FP8 bound of the float64 convolution`, () => {
      const k = conv3x3(p);
      const run = runKernel(k);
      expect(run.report.stop).toBe('done');
      expect(run.warnings).toEqual([]);
      const W = p.width!;
      const { y: ref, a: abs } = conv3x3Ref(input(k, `${k.name}_x.npy`), input(k, `${k.name}_w.npy`), { images: p.images, cin: p.cin, height: p.height, width: W });
      if (p.residual) {
        const rr = input(k, `${k.name}_r.npy`);
        for (let i = 0; i < ref.length; i++) ref[i]! += rr[i]!;
      }
      const e = errors(run.tensor('y_hbm'), ref, abs);
      expect(e.bad).toBe(0);
      expect(e.max).toBeLessThanOrEqual(0.06);
      expect(e.rms).toBeLessThanOrEqual(0.04);
      const trips = p.images * (p.height / 8) * tilesOf(W);
      expect(computeTotal(run.report, 'exec_valid')).toBe(trips * p.cin * 8);
      // each Exec_Valid: 8 rows x 128 grid columns x 16 filters x 9 taps per input channel, the masked columns included
      // (the useful share is W / (128 x tiles): 272 / 384, 144 / 256)
      expect(computeTotal(run.report, 'macs')).toBe(trips * p.cin * 8 * 128 * 16 * 9);
      // per trip, the GX issues one Exec (bubble or valid) a cycle: 10 per input channel; the AMEM Write's 16 x 8 RFP16
      // flits are all partial writes (column 127 or 0-14 masked) or RMW_Adds, two bank accesses each, so the write port
      // is busy 4 cycles a flit (docs/timing-model.md, chip §7.3, §7.4): a trip takes at least max(10 Cin, 512) cycles
      const perUie = Math.ceil(p.images / (p.uies ?? 1)) * (p.height / 8) * tilesOf(W) * Math.max(p.cin * 10, 16 * 8 * 4);
      expect(run.report.cycles).toBeGreaterThan(perUie);
    });

  // any width: the tiles read from the generated link script (read views) and microcode (the write programs' masks)
  // write every output column exactly once, each from a tile whose grid saw its whole 3-column window (or the image
  // edge), the tiles starting at partition offsets 7t (chip §17.2.1)
  it('property: for any width, every column written once, by a tile that saw its 3x3 window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 9, max: 211 }), (P) => {
        const W = 16 * P;
        const k = conv3x3({ images: 1, cin: 16, height: 8, width: W });
        const masks = new Map<string, [number, number]>();
        for (const m of k.pasm.matchAll(/\.program (\w+) amem_write \{[^}]*?logical_col_offset=(\d+) num_logical_cols=(\d+)/g)) masks.set(m[1]!, [Number(m[2]), Number(m[3])]);
        const seen = new Uint8Array(W);
        let t = 0;
        for (const m of k.ld.matchAll(/amem_write = (\w+);[^}]*read = x0_0\[:, 0:8, (\d+):(\d+)\]/g)) {
          const [c0, c1] = [Number(m[2]), Number(m[3])];
          expect(c0).toBe(112 * t++);
          expect(c1 - c0).toBeLessThanOrEqual(128);
          const [off, n] = masks.get(m[1]!)!;
          for (let g = off; g < off + n; g++) {
            const c = c0 + g;
            expect(c).toBeLessThan(c1);
            // the grid's column g sees g - 1 and g + 1 of the tile (zero past grid columns 0 and 127 and past the read)
            expect(g > 0 || c === 0).toBe(true);
            expect(c + 1 < c1 || c === W - 1).toBe(true);
            seen[c]!++;
          }
        }
        expect(t).toBe(tilesOf(W));
        expect(seen.every((v) => v === 1)).toBe(true);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 20), seed: 1721 },
    );
  });

  it('bad widths and combinations: GEN0090-GEN0092 naming the limit (exit 1, nothing written)', () => {
    const code = (p: ConvParams) => {
      try {
        conv3x3(p);
      } catch (e) {
        if (e instanceof GenError) return `${e.code} ${e.message}`;
        throw e;
      }
      return 'ok';
    };
    const base = { images: 1, cin: 16, height: 8 };
    expect(code({ ...base, width: 200 })).toMatch(/^GEN0090 .*width: must be a multiple of 16 and at least 128 \(got 200\).*§17\.2\.1/);
    expect(code({ ...base, width: 64 })).toMatch(/^GEN0090 /);
    expect(code({ ...base, width: 128 })).toBe('ok'); // the one-pass flow
    expect(code({ ...base, width: 512, stride: 2 })).toMatch(/^GEN0091 .*stride.*§17\.2\.1/);
    expect(code({ ...base, width: 512, residual: true })).toBe('ok');
    // the RFP16 output channel pitch H x W/8 partitions is a 16-bit iter_stride: at 512 columns at most 1016 rows (whole row-groups)
    expect(code({ ...base, width: 512, height: 1016 })).toBe('ok');
    expect(code({ ...base, width: 1_600_000_000 })).toMatch(/^GEN0092 .*at most 65520 columns \(8 rows\)/); // refused before any tile is listed
    expect(code({ ...base, width: 512, height: 1024 })).toMatch(/^GEN0092 .*1024 rows x 64 partitions = 65536.*16 bits.*at most 1016 rows at width 512/);
    withTempDir('wide', (tmp) => {
      const dir = join(tmp, 'out');
      const r = gen(['conv3x3', '--width', '520', '--out', dir]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/error\[GEN0090\]: width: must be a multiple of 16/);
      expect(existsSync(dir)).toBe(false);
    });
  });
});
