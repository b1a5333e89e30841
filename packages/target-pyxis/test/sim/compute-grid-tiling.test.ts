/**
 * Width-wise tiling of a 3x3 stride-1 convolution (chip §17.2, §17.2.1, Table 17-1) through the grid: a 512-column
 * tensor (32 partitions) in 5 tiles of input partitions 0-7, 7-14, 14-21, 21-28, 28-31 (stepping 7 partitions = 112
 * columns, overlapping one partition). Each tile is one trip of the grid over its 128 columns (zero past the image
 * edge); the columns Table 17-1 writes ("Output columns to write") must equal the full-width convolution, bit-exact
 * against the independent LLC reference, and the masked columns ("Output column masking (dsbl)": grid ptn 7 col 15,
 * and ptn 0 cols 0-14 of the later tiles) are the ones the tile cannot compute (its last column sees the grid's edge
 * zero, not the next tile's pixel). The AMEM side of a tile (a read at partition offset 7t, seq §1.1; masked / partial
 * writes, chip §7.4.2) is covered by the AMEM tests; here the tile windows are fed to the grid directly.
 */
import { describe, expect, it } from 'vitest';
import { linToLog, lnsI5F3ToI5F10 } from '@pyxis/formats';
import { llcRef } from './compute-grid-ref.js';
import { GH, GV, GX, gloops, i5f3, Rig, rfp16, rng, runFeed, seqMask } from './compute-grid-rig.js';

const WIDTH = 512;
const H = 8;
const CIN = 2;
const EB = 4;

/** One 3x3 trip over grid columns 0..127 = image columns c0 .. c0 + 127 (zero outside the image): the AA. */
function tileTrip(W: number[][][], X: number[][][], c0: number): Float64Array {
  const r = new Rig();
  const hb = r.uie.cmp.hbuf;
  for (let gr = 0; gr < 16; gr++) for (let i = 0; i < CIN; i++) for (let t = 0; t < 9; t++) hb.data[gr * 4096 + i * 9 + t] = W[gr]![i]![t]!;
  const units = Math.ceil((CIN * 9) / 16);
  hb.rdCredits = units * 16;
  const feed: Uint16Array[] = [];
  for (let i = 0; i < CIN; i++)
    for (let y = -1; y <= H; y++) {
      const row = new Uint16Array(128);
      if (y >= 0 && y < H) for (let c = 0; c < 128; c++) row[c] = c0 + c < WIDTH ? X[i]![y]![c0 + c]! : 0;
      feed.push(row);
    }
  r.prog('gh', 0, gloops([{ n: CIN }, { n: 1 }]), {
    opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', end_grid_row_idx: 15, log2_filters_per_row: 0, h_staging_filter_iter_id: 1,
    h_staging_done_en: 1, hbuf_block_size: units, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b11,
    hbuf_stride_dim1: 9, hbuf_stride_iter_id_dim1: 0,
  });
  r.prog('gv', 0, gloops([{ n: CIN * 10 }]), { opcd: 'Read_AMEM_FIFO', conv3x3_mode: 1, eb_adj: EB });
  r.prog('gx', 0, { eopgm: 0 }, { opcd: 'Exec_Config', conv3x3_mode: 1, end_grid_row_idx: 15, log2_active_ptns: 3, log2_ptns_per_filter: 3, odd_col_exec_en: 1, even_col_exec_en: 1 });
  r.prog('gx', 1, { eopgm: 0, iter1_is_eol: 1, iter1_sol_pc: 1, iter1_numloops: 2, iter1_numloops_final: 2 }, { opcd: 'Exec_Bubble', conv3x3_mode: 1 });
  r.prog(
    'gx', 2,
    { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 1, iter0_numloops: CIN, iter0_numloops_final: CIN, iter2_is_eol: 1, iter2_sol_pc: 2, iter2_numloops: 8, iter2_numloops_final: 8 },
    { opcd: 'Exec_Valid', conv3x3_mode: 1, accum_idx_iter_id: 2, zero_accum_iter_mask: 0b001, front_staging_done_iter_mask: 0b100, split_accum_iter_mask: 0b101 },
  );
  r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
  runFeed(r, feed);
  return Float64Array.from(r.uie.cmp.acc.aa);
}

describe('3x3 stride-1 width-wise tiling (chip §17.2.1, Table 17-1)', () => {
  it('512 columns in 5 tiles: the written columns equal the full-width convolution; the masked ones are the wrong ones', () => {
    const rnd = rng(1721);
    const W: number[][][] = [];
    for (let f = 0; f < 16; f++) W.push(Array.from({ length: CIN }, () => Array.from({ length: 9 }, () => i5f3(rnd, 14, 5))));
    const X: number[][][] = [];
    for (let i = 0; i < CIN; i++) X.push(Array.from({ length: H }, () => Array.from({ length: WIDTH }, () => rfp16(rnd, 0, 14))));
    // full-width reference: zero only outside the 512-column image (the pad of chip §6.1.1)
    const V = (i: number, y: number, x: number) => (y < 0 || y >= H || x < 0 || x >= WIDTH ? 0 : linToLog(X[i]![y]![x]!, { ebAdj: EB }));
    const full = (f: number, y: number, x: number) => {
      let acc = 0;
      for (let i = 0; i < CIN; i++) {
        const vs: number[] = [];
        for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) vs.push(V(i, y + dy - 1, x + dx - 1));
        acc = llcRef(acc, W[f]![i]!.map(lnsI5F3ToI5F10), vs, true);
      }
      return acc;
    };
    // Table 17-1: input partitions, output columns to write, masked grid columns (dsbl) of each tile
    const tiles = [
      { ptns: [0, 7], write: [0, 126], dsbl: [127] },
      { ptns: [7, 14], write: [127, 238], dsbl: [...range(0, 14), 127] },
      { ptns: [14, 21], write: [239, 350], dsbl: [...range(0, 14), 127] },
      { ptns: [21, 28], write: [351, 462], dsbl: [...range(0, 14), 127] },
      { ptns: [28, 31], write: [463, 511], dsbl: range(0, 14) },
    ];
    const covered = new Uint8Array(WIDTH);
    let wrongMasked = 0;
    for (const t of tiles) {
      const c0 = t.ptns[0]! * 16;
      const aa = tileTrip(W, X, c0);
      const dsbl = new Set(t.dsbl);
      for (let g = 0; g < 128 && c0 + g < WIDTH; g++) {
        const x = c0 + g;
        const written = x >= t.write[0]! && x <= t.write[1]!;
        // Table 17-1 consistency: a column is written exactly when it is inside the tile and not masked
        expect(written, `tile at ptn ${t.ptns[0]}, grid col ${g}`).toBe(!dsbl.has(g));
        for (let f = 0; f < 16; f++)
          for (let y = 0; y < H; y++) {
            const got = aa[(f * 8 + y) * 128 + g]!;
            if (written) expect(got, `filter ${f} row ${y} col ${x}`).toBe(full(f, y, x));
            else if (g === 127 || g === 0) wrongMasked += got === full(f, y, x) ? 0 : 1;
          }
        if (written) covered[x]!++;
      }
    }
    // every output column written exactly once
    expect(Array.from(covered).every((n) => n === 1)).toBe(true);
    // the masks are needed: the tile-edge columns (grid col 127, and col 0 of the later tiles) come out wrong
    expect(wrongMasked).toBeGreaterThan(0);
  });
});

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, k) => a + k);
}
