/**
 * 3x3 Beta through the grid (chip §15.5): "it is possible to configure a 3x3 kernel with 9 LnsI4F3 values which, when
 * added together, can approximate the precision of a single LnsI5F10 value". The linker's Beta kernels
 * (`beta3x3Kernels`, placed as input channel I of the §15.1 database by `pack3x3Database`) are loaded into the Hbufs
 * from the database bytes, the Beta input channel reads 1 in every row (pad rows included), and the accumulators are
 * compared with the independent LLC reference (compute-grid-ref.ts), bit-exact. Interior columns then hold
 * ~Beta; the first / last column of the tensor lose the W / E taps to the grid's edge zeros (docs/spec-notes.md
 * "cov: finding, 3x3 Beta at the left / right tensor edge").
 */
import { describe, expect, it } from 'vitest';
import { LnsI4F3, linToLog, lnsI4F3ToI5F3, lnsI5F3ToI5F10, llcProduct } from '@pyxis/formats';
import { beta3x3Kernels, pack3x3Database } from '../../src/ld/weights/index.js';
import { llcRef } from './compute-grid-ref.js';
import { GH, GV, GX, gloops, Rig, rng, runFeed, seqMask } from './compute-grid-rig.js';

const O = 16; // one filter per grid-row
const I = 1; // one real input channel (zero data), then the Beta channel
const M = I + 1;

describe('3x3 Beta kernels through the grid (chip §15.5)', () => {
  it('interior columns ~ Beta (within the linker\'s 9-tap error), edge columns = the six taps inside the grid', () => {
    // Beta per filter: mixed signs and magnitudes, not exact in one LnsI4F3 code
    const beta = Float64Array.from({ length: O }, (_, f) => (f % 3 === 0 ? -1 : 1) * (1 + (f * 7) / 64) * 2 ** ((f % 5) - 2));
    const EB = -8; // LnsI4F3 codes start at 2^(1 + EB): 1.0 needs a negative EB (chip §4.3, §4.5)
    const bk = beta3x3Kernels(beta, EB);
    const rnd = rng(11);
    const w = Uint8Array.from({ length: O * I * 9 }, () => (rnd() & 0x7f) | ((rnd() & 1) << 7));
    const db = pack3x3Database(w, [O, I, 3, 3], { filtersPerGridRow: 1, gridRows: 16, beta: bk.kernels });
    const L = db.layout;
    expect(L.M).toBe(M);
    // the WDP's load (seq §9.2, LD_2ROWS_8B: chunk k of grid-row r = 8 bytes at k * chunkStride + 8 r), EB adjust 0
    const r = new Rig();
    const hb = r.uie.cmp.hbuf;
    const taps: number[][] = []; // taps[gr][s]: LnsI5F3 code of byte s of grid-row gr (s = i * 9 + t)
    for (let gr = 0; gr < 16; gr++) {
      taps.push([]);
      for (let s = 0; s < M * 9; s++) {
        const c = lnsI4F3ToI5F3(db.bytes[(s >>> 3) * L.chunkStride + gr * 8 + (s & 7)]!, 0);
        hb.data[gr * 4096 + s] = c;
        taps[gr]!.push(c);
      }
    }
    const units = Math.ceil((M * 9) / 16);
    hb.rdCredits = units * 16;
    // the ones channel: RFP16 1.0 x 2^k (E = 15, F = 0). Every product with it is the weight times one power of two
    // (the EB bookkeeping of chip §4.5 / §4.6), the same for W x X terms: `scale` = that power, from 1.0 in LnsI4F3
    const one = 15 << 10;
    const unit = lnsI5F3ToI5F10(lnsI4F3ToI5F3(LnsI4F3.encodeWith(1, EB, true, false), 0));
    const scale = llcProduct(unit, linToLog(one), true);
    expect(Math.log2(scale) % 1).toBe(0);
    // feed: channel 0 all zero, channel 1 (Beta) = 1 in the 8 rows and both pad rows (10-row groups)
    const feed: Uint16Array[] = [];
    for (let i = 0; i < M; i++) for (let y = -1; y <= 8; y++) feed.push(new Uint16Array(128).fill(i === I ? one : 0));
    r.prog('gh', 0, gloops([{ n: M }, { n: 1 }]), {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', end_grid_row_idx: 15, log2_filters_per_row: 0, h_staging_filter_iter_id: 1,
      h_staging_done_en: 1, hbuf_block_size: units, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b11,
      hbuf_stride_dim1: 9, hbuf_stride_iter_id_dim1: 0,
    });
    r.prog('gv', 0, gloops([{ n: M * 10 }]), { opcd: 'Read_AMEM_FIFO', conv3x3_mode: 1, eb_adj: 0 });
    r.prog('gx', 0, { eopgm: 0 }, { opcd: 'Exec_Config', conv3x3_mode: 1, end_grid_row_idx: 15, log2_active_ptns: 3, log2_ptns_per_filter: 3, odd_col_exec_en: 1, even_col_exec_en: 1 });
    r.prog('gx', 1, { eopgm: 0, iter1_is_eol: 1, iter1_sol_pc: 1, iter1_numloops: 2, iter1_numloops_final: 2 }, { opcd: 'Exec_Bubble', conv3x3_mode: 1 });
    r.prog(
      'gx', 2,
      { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 1, iter0_numloops: M, iter0_numloops_final: M, iter2_is_eol: 1, iter2_sol_pc: 2, iter2_numloops: 8, iter2_numloops_final: 8 },
      { opcd: 'Exec_Valid', conv3x3_mode: 1, accum_idx_iter_id: 2, zero_accum_iter_mask: 0b001, front_staging_done_iter_mask: 0b100, split_accum_iter_mask: 0b101 },
    );
    r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
    runFeed(r, feed);
    const aa = r.uie.cmp.acc.aa;
    const V1 = linToLog(one);
    const V0 = linToLog(0);
    for (let gr = 0; gr < 16; gr++)
      for (const c of [0, 1, 64, 126, 127]) {
        // reference: the 3x3 window, zero outside the grid's 128 columns (chip §6.3.1; seq §10.3 edges)
        let acc = 0;
        for (let i = 0; i < M; i++) {
          const hs = taps[gr]!.slice(i * 9, i * 9 + 9).map(lnsI5F3ToI5F10);
          const vs: number[] = [];
          for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) vs.push(c + dx - 1 < 0 || c + dx - 1 > 127 || i !== I ? V0 : V1);
          acc = llcRef(acc, hs, vs, true);
        }
        for (let y = 0; y < 8; y++) expect(aa[(gr * 8 + y) * 128 + c], `grid-row ${gr} row ${y} col ${c}`).toBe(acc);
        if (c > 0 && c < 127) {
          // ~Beta: the linker's 9-tap error plus the log-to-linear conversion of each tap (chip §4.7, 10-bit)
          expect(Math.abs(acc / scale - beta[gr]!)).toBeLessThanOrEqual(Math.abs(beta[gr]!) * (bk.maxRelError + 9 * 2 ** -9));
        }
      }
    // the edge loss is visible: some filter's W taps are non-zero, so its column 0 differs from its interior
    let differs = 0;
    for (let gr = 0; gr < 16; gr++) if (aa[gr * 8 * 128] !== aa[gr * 8 * 128 + 64]) differs++;
    expect(differs).toBeGreaterThan(0);
  });
});
