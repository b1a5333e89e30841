/**
 * Weights path through the simulator (AMEM Weights Read -> decompressor -> WDP -> Hbufs), non-transposed modes:
 * seq Figure 9-2 (fine-grained 1x1, LD_2ROWS_8B) on a linker-built database, the §9.3 row-shifted table
 * (LD_1ROW_16B, 8 partitions per H-lane) with and without wsw_ptn_rot_en, the H-lane tables of §9.6, zero masks,
 * post-final Read_Const pads (seq §7.3), block credits stalling and resuming (seq §9.1.5) with cycles derived from
 * sim_config.json, and the SIM062x rule diagnostics. Expected values come from the spec tables and the references
 * in compute-weights-ref.ts.
 */
import { fp8ToLnsI5F3, linToLog } from '@pyxis/formats';
import { describe, expect, it } from 'vitest';
import { linear1x1Offset, pack1x1I4F3Database, pack1x1I5F10Database, pack3x3Database } from '../../src/ld/weights/index.js';
import { hb, i4toI5, i5f10Adj, P, readLoop, rig, rnd, runTicks, wdpLoop, WR_WDP } from './compute-weights-ref.js';
import { strides } from './uie-fixture.js';

const FIRST_WR = P.amem_read_latency_cycles + P.wdc_latency_cycles; // word 0 read at cycle 0

describe('WDP fine-grained 1x1 weights (seq §9.2.1, Figure 9-2)', () => {
  it('a linker 1x1 LnsI4F3 database lands as Cout x 8 bytes per grid-row, one Hbuf block per 8 words', () => {
    const O = 128;
    const I = 16;
    const codes = rnd(O * I, 7);
    const db = pack1x1I4F3Database(codes, [O, I]);
    expect(db.bytes.length).toBe(2048);
    const r = rig();
    r.amem.writeBytes(0x2000, db.bytes);
    readLoop(r, [{ n: 16 }], { iter_stride: strides(8) });
    const EB = -3;
    // Figure 9-2: for hblock: for cout_iter in range(8): LD_2ROWS_8B, block 4 (64 B), dim1 stride 1 on cout_iter
    wdpLoop(r, [{ n: 2 }, { n: 8 }], {
      hbuf_wr_control: 'LD_2ROWS_8B', log2_ptns_per_hlane: 0, hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1,
      hbuf_block_iter_mask: 1 << 1, hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1, lin2log_config_vld: 1, dsbl_mapping_corr: 1, eb_adj: EB,
    });
    r.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: 0x2000 >> 4 });
    const { wr } = runTicks(r);
    // one WR_HBUF per cycle from the first word on
    expect(wr).toEqual(Array.from({ length: 16 }, (_, i) => FIRST_WR + i));
    // Figure 9-2 table: Cout c (0..7 of a grid-row) at addr_in_bank c >> 1, bank c & 1 -> logical byte 8c; block k at 64k
    for (let o = 0; o < O; o++)
      for (let i = 0; i < I; i++) {
        const q = o >> 3;
        const c = o & 7;
        const block = i >> 3;
        const aib = c >> 1;
        const bank = c & 1;
        const addr = 64 * block + ((aib << 4) | (bank << 3)) + (i & 7);
        expect(hb(r, q, addr)).toBe(i4toI5(codes[o * I + i]!, EB));
        // the database really put (o, i) where the word/partition arithmetic says
        expect(db.bytes[linear1x1Offset(db.layout, o, i)]).toBe(codes[o * I + i]);
      }
    const h = r.uie.cmp.hbuf;
    expect(h.wrBase).toBe(128);
    expect(h.wrCredits).toBe(4096 - 128);
    expect(r.uie.cmp.stats.hbufBytesWritten).toBe(16 * 128);
  });
});

describe('WDP fine-grained 1x1, 16-bit and Hbuf wrap-around (seq §9.2.1, §9.1.4, §9.1.5)', () => {
  it('a linker LnsI5F10 database: 4 values per 8-byte Cout row, little-endian logical byte pairs, EB_Adj_I5I5 applied', () => {
    const O = 128;
    const I = 8;
    const raw = rnd(O * I * 2, 8);
    const codes = new Uint16Array(O * I);
    for (let k = 0; k < codes.length; k++) codes[k] = raw[2 * k]! | (raw[2 * k + 1]! << 8);
    const db = pack1x1I5F10Database(codes, [O, I]);
    const r = rig();
    r.amem.writeBytes(0x1000, db.bytes);
    readLoop(r, [{ n: db.bytes.length / 128 }], { is_16bit: 1, iter_stride: strides(8) });
    wdpLoop(r, [{ n: 2 }, { n: 8 }], {
      is_16bit: 1, hbuf_wr_control: 'LD_2ROWS_8B', hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 1 << 1,
      hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1, lin2log_config_vld: 1, dsbl_mapping_corr: 1, eb_adj: -2,
    });
    r.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: 0x1000 >> 4 });
    runTicks(r);
    for (let o = 0; o < O; o++)
      for (let i = 0; i < I; i++) {
        const a = 64 * (i >> 2) + 8 * (o & 7) + 2 * (i & 3);
        expect(hb(r, o >> 3, a) | (hb(r, o >> 3, a + 1) << 8)).toBe(i5f10Adj(codes[o * I + i]!, -2));
      }
  });

  it('FP16 data with mapping correction goes through lin2log to LnsI5F10 (chip §6.2.4.4)', () => {
    const r = rig();
    const w = rnd(128, 12);
    r.amem.writeBytes(0, w);
    readLoop(r, [{ n: 1 }], { is_16bit: 1 });
    wdpLoop(r, [{ n: 1 }], { is_16bit: 1, hbuf_wr_control: 'LD_2ROWS_8B', lin2log_config_vld: 1, dsbl_mapping_corr: 0, eb_adj: 1 });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    for (let k = 0; k < 64; k++) {
      const v = w[2 * k]! | (w[2 * k + 1]! << 8);
      const q = 2 * (k >> 3) + ((k >> 2) & 1);
      const a = 2 * (k & 3);
      expect(hb(r, q, a) | (hb(r, q, a + 1) << 8)).toBe(linToLog(v, { ebAdj: 1 }));
    }
  });

  it('hbuf_base wraps modulo the 4 KiB Hbuf: a block starting at 4032 continues at 0', () => {
    const r = rig();
    const words = rnd(16 * 128, 13);
    r.amem.writeBytes(0, words);
    readLoop(r, [{ n: 16 }], { iter_stride: strides(8) });
    wdpLoop(r, [{ n: 2 }, { n: 8 }], {
      hbuf_wr_control: 'LD_2ROWS_8B', hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 1 << 1,
      hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1, hbuf_addr_offset: 4, lin2log_config_vld: 1, dsbl_mapping_corr: 1,
    });
    r.uie.cmp.hbuf.wrBase = 4096 - 64;
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    for (let w = 0; w < 16; w++) {
      // block w >> 3 at base 4032 + 64 (w >> 3), + hbuf_addr_offset 4 (x 8 bytes), + 8 per Cout, modulo 4096
      const a = (4032 + 64 * (w >> 3) + 32 + 8 * (w & 7)) % 4096;
      for (let b = 0; b < 8; b++) expect(hb(r, 5, a + b)).toBe(i4toI5(words[w * 128 + 2 * 16 + 8 + b]!, 0));
    }
    expect(r.uie.cmp.hbuf.wrBase).toBe(64);
  });
});

describe('3x3 kernels database (chip §15.1; seq §9.5 "similar to writing 1x1 weights")', () => {
  it('LD_2ROWS_8B of the chunk-major database: grid-row q holds its packed kernel array, K(i, j) tap t at byte 9 (i N + j) + t', () => {
    const O = 32;
    const I = 8;
    const N = 2;
    const codes = rnd(O * I * 9, 17);
    const db = pack3x3Database(codes, [O, I, 3, 3], { filtersPerGridRow: N });
    const chunks = db.layout.chunks;
    expect(db.layout.chunkStride).toBe(128);
    const r = rig();
    r.amem.writeBytes(0x3000, db.bytes);
    readLoop(r, [{ n: chunks }], { iter_stride: strides(8) });
    wdpLoop(r, [{ n: chunks }], { hbuf_wr_control: 'LD_2ROWS_8B', hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 0, lin2log_config_vld: 1, dsbl_mapping_corr: 1, eb_adj: -1 });
    r.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: 0x3000 >> 4 });
    runTicks(r);
    for (let q = 0; q < 16; q++)
      for (let j = 0; j < N; j++)
        for (let i = 0; i < I; i++)
          for (let t = 0; t < 9; t++) expect(hb(r, q, 9 * (i * N + j) + t)).toBe(i4toI5(codes[((q * N + j) * I + i) * 9 + t]!, -1));
  });

  it('6 grid-rows: 48-byte chunk steps read as 3 partitions, un-rotated by wsw_ptn_rot_en; H-lanes 3..7 get zeros', () => {
    const O = 12;
    const I = 4;
    const N = 2;
    const codes = rnd(O * I * 9, 19);
    for (let k = 0; k < codes.length; k++) if ((codes[k]! & 0x7f) === 0) codes[k] = 0x31;
    const db = pack3x3Database(codes, [O, I, 3, 3], { filtersPerGridRow: N });
    expect(db.layout.chunkStride).toBe(48);
    const chunks = db.layout.chunks;
    const r = rig();
    r.uie.cmp.hbuf.data.fill(0x1ff);
    r.amem.writeBytes(0, db.bytes);
    readLoop(r, [{ n: chunks }], { num_ptns: 3, iter_stride: strides(3) });
    wdpLoop(r, [{ n: chunks }], { wsw_ptn_rot_en: 1, hbuf_wr_control: 'LD_2ROWS_8B', hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 0, lin2log_config_vld: 1, dsbl_mapping_corr: 1 });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    for (let q = 0; q < 6; q++)
      for (let j = 0; j < N; j++)
        for (let i = 0; i < I; i++)
          for (let t = 0; t < 9; t++) expect(hb(r, q, 9 * (i * N + j) + t)).toBe(i4toI5(codes[((q * N + j) * I + i) * 9 + t]!, 0));
    for (let q = 6; q < 16; q++) for (let a = 0; a < 8 * chunks; a++) expect(hb(r, q, a)).toBe(0);
  });
});

describe('WDP row-shifted MatMul (seq §9.3 table, LD_1ROW_16B, 8 partitions per H-lane)', () => {
  function rowShifted(rotEn: number, basePtn: number) {
    const r = rig();
    const words = rnd(128 * 128, 11);
    r.amem.writeBytes(basePtn * 16, words);
    // one Hbuf block of 1024 bytes: vgr (8) x grid-row-in-pair (2) x H-lane (8) = 128 words
    readLoop(r, [{ n: 128 }], { iter_stride: strides(8) });
    wdpLoop(r, [{ n: 1 }, { n: 8 }, { n: 2 }, { n: 8 }], {
      hbuf_wr_control: 'LD_1ROW_16B', log2_ptns_per_hlane: 3, hlane_iter_id: 3, grip_iter_id: 2, wsw_ptn_rot_en: rotEn,
      hbuf_stride_dim1: 16, hbuf_stride_iter_id_dim1: 1, hbuf_block_size: 64, hbuf_block_start_en: 1, hbuf_block_end_en: 1,
      hbuf_block_iter_mask: 0b1110, lin2log_config_vld: 1, dsbl_mapping_corr: 0, eb_adj: 1,
    });
    r.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: basePtn });
    const t = runTicks(r);
    return { r, words, ...t };
  }

  it('each 128-byte word becomes one virtual grid-row: Addr = 8*vgr + ptn in both banks of grid-row 2*hlane + grip', () => {
    const { r, words, wr } = rowShifted(0, 0);
    expect(wr.length).toBe(128);
    // an H-lane takes a word every 8 cycles and the table visits the 8 H-lanes in turn: no stall
    expect(wr[127]! - wr[0]!).toBe(127);
    expect(r.uie.cmp.stats.stallHlaneBusy).toBe(0);
    for (let vgr = 0; vgr < 8; vgr++)
      for (let grip = 0; grip < 2; grip++)
        for (let hl = 0; hl < 8; hl++) {
          const w = vgr * 16 + grip * 8 + hl; // table row order: Loop 0 VGR, Loop 1 GR in H-lane, Loop 2 H-lane
          const gr = 2 * hl + grip; // "Grid Row" column
          for (let ptn = 0; ptn < 8; ptn++)
            for (let b = 0; b < 16; b++)
              // "Addr = 8*vgr + ptn", banks 0 & 1: logical byte (8 vgr + ptn) << 4 | b
              expect(hb(r, gr, ((8 * vgr + ptn) << 4) + b)).toBe(fp8ToLnsI5F3(words[w * 128 + ptn * 16 + b]!, { ebAdj: 1 }));
        }
    expect(r.uie.cmp.hbuf.wrBase).toBe(1024);
  });

  it('wsw_ptn_rot_en undoes a partition-misaligned read (chip §6.2.4.2); without it the partitions stay rotated', () => {
    const rot = 3;
    const a = rowShifted(1, rot);
    const b = rowShifted(0, rot);
    // logical partition L of word w arrived in lane (L + rot) & 7
    for (const w of [0, 9, 77]) {
      const vgr = w >> 4;
      const gr = 2 * (w & 7) + ((w >> 3) & 1);
      for (let L = 0; L < 8; L++) {
        const exp = fp8ToLnsI5F3(a.words[w * 128 + L * 16 + 5]!, { ebAdj: 1 });
        expect(hb(a.r, gr, ((8 * vgr + L) << 4) + 5)).toBe(exp);
        // not rotated back: physical lane L holds logical partition (L - rot) & 7 (of this read's 128 bytes)
        const phys = (L - rot + 8) & 7;
        expect(hb(b.r, gr, ((8 * vgr + L) << 4) + 5)).toBe(fp8ToLnsI5F3(b.words[w * 128 + phys * 16 + 5]!, { ebAdj: 1 }));
      }
    }
  });
});

describe('weights switch H-lane programming (seq §9.6 tables, Table 9-6 address adjustment)', () => {
  // §9.6 "Target H-lane for each of Ptn 7..0" per hlane iterator value, and "H-lane delay for each Ptn 7..0"
  const TABLE: Record<number, { h: number[][]; dly: number[] }> = {
    0: { h: [[7, 6, 5, 4, 3, 2, 1, 0]], dly: [0, 0, 0, 0, 0, 0, 0, 0] },
    1: { h: [[3, 3, 2, 2, 1, 1, 0, 0], [7, 7, 6, 6, 5, 5, 4, 4]], dly: [1, 0, 1, 0, 1, 0, 1, 0] },
    2: { h: [[1, 1, 1, 1, 0, 0, 0, 0], [3, 3, 3, 3, 2, 2, 2, 2], [5, 5, 5, 5, 4, 4, 4, 4], [7, 7, 7, 7, 6, 6, 6, 6]], dly: [3, 2, 1, 0, 3, 2, 1, 0] },
    3: { h: Array.from({ length: 8 }, (_, i) => new Array(8).fill(i)), dly: [7, 6, 5, 4, 3, 2, 1, 0] },
  };
  for (const log2 of [0, 1, 2, 3])
    it(`log2_ptns_per_hlane ${log2}, LD_2ROWS_8B: ptn p -> H-lane h[p], {addr_in_bank, bank} + dly[p] on grid-rows 2h, 2h+1`, () => {
      const r = rig();
      const n = 1 << log2; // rows of the §9.6 table: one H-lane group per iteration
      const words = rnd(n * 128, 100 + log2);
      r.amem.writeBytes(0, words);
      readLoop(r, [{ n }], { iter_stride: strides(8) });
      wdpLoop(r, [{ n }], {
        hbuf_wr_control: 'LD_2ROWS_8B', log2_ptns_per_hlane: log2, hlane_iter_id: 0, hbuf_addr_offset: 6,
        lin2log_config_vld: 1, dsbl_mapping_corr: 1, eb_adj: 0,
      });
      r.trip({ trip_valid_mask: WR_WDP });
      const { wr } = runTicks(r);
      // each iteration uses its own H-lanes: one word per cycle
      expect(wr[wr.length - 1]! - wr[0]!).toBe(n - 1);
      const T = TABLE[log2]!;
      for (let it = 0; it < n; it++)
        for (let p = 0; p < 8; p++) {
          const h = T.h[it]![7 - p]!;
          const d = T.dly[7 - p]!;
          const a = (6 + d) * 8; // logical address of the 8-byte word {addr_in_bank, bank} = 6 + delay
          for (let b = 0; b < 8; b++) {
            expect(hb(r, 2 * h, a + b)).toBe(i4toI5(words[it * 128 + p * 16 + b]!, 0));
            expect(hb(r, 2 * h + 1, a + b)).toBe(i4toI5(words[it * 128 + p * 16 + 8 + b]!, 0));
          }
        }
    });

  it('LD_1ROW_16B with 4 partitions per H-lane: addr_in_bank + ptn index, both banks, grid-row from grip_iter_id', () => {
    const r = rig();
    const words = rnd(8 * 128, 5);
    r.amem.writeBytes(0, words);
    readLoop(r, [{ n: 8 }], { iter_stride: strides(8) });
    // iter0: grid-row-in-pair (2), iter1: H-lane group (4)
    wdpLoop(r, [{ n: 2 }, { n: 4 }], {
      hbuf_wr_control: 'LD_1ROW_16B', log2_ptns_per_hlane: 2, hlane_iter_id: 1, grip_iter_id: 0, hbuf_addr_offset: 2 * 10,
      lin2log_config_vld: 1, dsbl_mapping_corr: 1,
    });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    for (let w = 0; w < 8; w++) {
      const grip = w >> 2;
      const it = w & 3;
      for (let p = 0; p < 8; p++) {
        const h = 2 * it + (p >> 2);
        const aib = 10 + (p & 3); // Table 9-6: ptn k of the H-lane at hbuf_addr_in_bank + k
        for (let b = 0; b < 16; b++) expect(hb(r, 2 * h + grip, (aib << 4) + b)).toBe(i4toI5(words[w * 128 + p * 16 + b]!, 0));
      }
    }
  });

  it('an H-lane reloaded before its unload buffer drained stalls (8 partitions per H-lane on one H-lane)', () => {
    const r = rig();
    r.amem.writeBytes(0, rnd(3 * 128, 3));
    readLoop(r, [{ n: 3 }], { iter_stride: strides(8) });
    // hlane iterator 6 (no iterator, value 0): all three words go to H-lane 0
    wdpLoop(r, [{ n: 3 }], { hbuf_wr_control: 'LD_1ROW_16B', log2_ptns_per_hlane: 3, hlane_iter_id: 6, hbuf_stride_dim1: 16, hbuf_stride_iter_id_dim1: 0 });
    r.trip({ trip_valid_mask: WR_WDP });
    const { wr } = runTicks(r);
    expect(wr).toEqual([FIRST_WR, FIRST_WR + 8, FIRST_WR + 16]);
    expect(r.uie.cmp.stats.stallHlaneBusy).toBe(14);
  });
});

describe('zero masks (chip §6.2.4.3, seq §9.1.6; wdp_zero_mask layout of docs/spec-notes.md)', () => {
  it('entry zero_mask_idx_a zeroes VGR v (byte lane v) of H-lane h; zero_mask_config_vld keeps the config for later instructions', () => {
    const r = rig();
    const words = rnd(2 * 128, 21);
    for (let i = 0; i < words.length; i++) if ((words[i]! & 0x7f) === 0) words[i] = 0x11;
    r.amem.writeBytes(0, words);
    const masks = [0x0001, 0x8000, 0x00f0, 0, 0xffff, 0x0101, 0x4002, 0x0800];
    r.table('wdp.zero_mask', 2, { hlane_zero_mask: masks });
    r.table('wdp.zero_mask', 0, { hlane_zero_mask: [0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff] });
    readLoop(r, [{ n: 2 }], { iter_stride: strides(8) });
    // pc 0 sets the zero-mask configuration (entry 2); pc 1 has zero_mask_config_vld = 0 and keeps it
    r.prog('wdp', 0, { eopgm: 0 }, { opcd: 'WR_HBUF', hbuf_wr_control: 'LD_2ROWS_8B', zero_mask_config_vld: 1, zero_mask_en: 1, zero_mask_idx_a: 2, lin2log_config_vld: 1, dsbl_mapping_corr: 1 });
    r.prog('wdp', 1, { eopgm: 1 }, { opcd: 'WR_HBUF', hbuf_wr_control: 'LD_2ROWS_8B', hbuf_addr_offset: 1, zero_mask_idx_a: 0 });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    for (let w = 0; w < 2; w++)
      for (let h = 0; h < 8; h++)
        for (let v = 0; v < 16; v++) {
          const exp = (masks[h]! >> v) & 1 ? 0 : i4toI5(words[w * 128 + h * 16 + v]!, 0);
          expect(hb(r, 2 * h + (v >> 3), w * 8 + (v & 7))).toBe(exp);
        }
  });
});

describe('AMEM Weights Read into the decompressor FIFO (seq §7)', () => {
  it('post-final reads become Read_Const(0) pads; Read_Const fills the partitions with rd_const_value', () => {
    const r = rig();
    r.uie.cmp.hbuf.data.fill(0x1ff);
    const words = rnd(8 * 128, 9);
    for (let i = 0; i < words.length; i++) if ((words[i]! & 0x7f) === 0) words[i] = 0x21;
    r.amem.writeBytes(0, words);
    // iter1 counts 8 rows, only 3 in the final (only) pass of iter0: rows 3..7 are post-final pads
    r.prog('amem_weights_read', 0, { eopgm: 0, iter0_is_eol: 0, iter1_is_eol: 1, iter1_sol_pc: 0, iter1_numloops: 8, iter1_numloops_final: 3, iter1_final_iter_mask: 1, iter1_post_final_enbl: 1, iter0_numloops: 1 },
      { opcd: 'Read_SRAM', num_ptns: 8, iter_stride: strides(0, 8) });
    r.prog('amem_weights_read', 1, { eopgm: 1 }, { opcd: 'Read_Const', rd_const_value: 0x1238, num_ptns: 8 });
    wdpLoop(r, [{ n: 9 }], { hbuf_wr_control: 'LD_2ROWS_8B', hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 0, lin2log_config_vld: 1, dsbl_mapping_corr: 1 });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    expect(r.uie.stats.weightsBytesRead).toBe(3 * 128);
    expect(r.uie.cmp.stats.weightsPads).toBe(5);
    for (let w = 0; w < 9; w++)
      for (let q = 0; q < 16; q++)
        for (let b = 0; b < 8; b++) {
          const exp = w < 3 ? i4toI5(words[w * 128 + q * 8 + b]!, 0) : w < 8 ? 0 : i4toI5(0x38, 0);
          expect(hb(r, q, w * 8 + b)).toBe(exp);
        }
  });

  it('Read_SRAM_with_ReLU zeroes negative 8-bit codes and keeps NaN (seq §5.1.1 rule on the weights port)', () => {
    const r = rig();
    const w = new Uint8Array(128);
    for (let i = 0; i < 128; i++) w[i] = (i * 37) & 0xff;
    r.amem.writeBytes(0, w);
    readLoop(r, [{ n: 1 }], { opcd: 'Read_SRAM_with_ReLU' });
    wdpLoop(r, [{ n: 1 }], { hbuf_wr_control: 'LD_2ROWS_8B', lin2log_config_vld: 1, dsbl_mapping_corr: 1 });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    for (let i = 0; i < 128; i++) {
      const c = w[i]!;
      const relu = c & 0x80 && c & 0x7f ? 0 : c;
      expect(hb(r, 2 * (i >> 4) + ((i >> 3) & 1), i & 7)).toBe(i4toI5(relu, 0));
    }
  });
});

describe('Hbuf block credits (seq §9.1.5)', () => {
  it('block start stalls while hbuf_wr_credits < hbuf_block_size and resumes in the cycle credits come back; rd credits follow block ends', () => {
    const r = rig();
    r.amem.writeBytes(0, rnd(24 * 128, 4));
    readLoop(r, [{ n: 24 }], { iter_stride: strides(8) });
    wdpLoop(r, [{ n: 3 }, { n: 8 }], {
      hbuf_wr_control: 'LD_2ROWS_8B', hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 1 << 1,
      hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1,
    });
    const h = r.uie.cmp.hbuf;
    h.wrCredits = 64; // room for one 64-byte block
    r.trip({ trip_valid_mask: WR_WDP });
    const GIVE = 60; // GH returns one block of credits before the tick of these cycles
    const GIVE2 = 100;
    const rdAt: number[] = [];
    let last = 0;
    const { wr } = runTicks(r, (c) => {
      if (c === GIVE || c === GIVE2) h.wrCredits += 64;
      if (h.rdCredits !== last) {
        rdAt.push(c - 1); // credits became visible during the tick of cycle c - 1
        last = h.rdCredits;
      }
    });
    // words 0..7 one per cycle; word 8 starts block 1 and waits for the credits returned at GIVE, word 16 for GIVE2
    const run8 = (t: number) => Array.from({ length: 8 }, (_, i) => t + i);
    expect(wr).toEqual([...run8(FIRST_WR), ...run8(GIVE), ...run8(GIVE2)]);
    expect(r.uie.cmp.stats.stallHbufWrCredits).toBe(GIVE - (FIRST_WR + 8) + GIVE2 - (GIVE + 8));
    expect(h.wrCredits).toBe(0);
    // back-pressure while WDP waited: wdc_fifo filled, then the decompressor FIFO, then the Weights Read sequencer stalled
    expect(r.uie.cmp.stats.stallWdcFull).toBeGreaterThan(0);
    expect(r.uie.stats.stallCycles[2]).toBeGreaterThan(0);
    // rd credits of a block reach GH wdp_latency_cycles after its last WR_HBUF (1 partition per H-lane: no unload delay)
    // (the trip retires with the last WR_HBUF; the UIE keeps delivering credits when ticked)
    for (let c = r.now; c < r.now + 10; c++) {
      r.uie.tick(c);
      if (h.rdCredits !== last) {
        rdAt.push(c);
        last = h.rdCredits;
      }
    }
    const L = P.wdp_latency_cycles;
    expect(rdAt).toEqual([FIRST_WR + 7 + L, GIVE + 7 + L, GIVE2 + 7 + L]);
    expect(h.rdCredits).toBe(3 * 64);
    expect(h.wrBase).toBe(3 * 64);
  });
});

describe('WDP rule diagnostics (SIM0620..SIM0629)', () => {
  it('SIM0620: LD_2ROWS_8B_TRANS with 2 partitions per H-lane is not in Table 9-3', () => {
    const r = rig();
    readLoop(r, [{ n: 1 }], {});
    wdpLoop(r, [{ n: 1 }], { hbuf_wr_control: 'LD_2ROWS_8B_TRANS', log2_ptns_per_hlane: 1 });
    r.trip({ trip_valid_mask: WR_WDP });
    expect(() => runTicks(r)).toThrow(/SIM0620|Table 9-3|supported combination/);
  });
  it('SIM0624: a block of 0 x 16 bytes', () => {
    const r = rig();
    readLoop(r, [{ n: 1 }], {});
    wdpLoop(r, [{ n: 1 }], { hbuf_block_size: 0, hbuf_block_start_en: 1, hbuf_block_iter_mask: 1 });
    r.trip({ trip_valid_mask: WR_WDP });
    expect(() => runTicks(r)).toThrow(/hbuf_block_size/);
  });
  it('SIM0623: WR_HBUF is_16bit on an 8-bit word is reported once (warning)', () => {
    const r = rig();
    readLoop(r, [{ n: 2 }], {});
    wdpLoop(r, [{ n: 2 }], { is_16bit: 1, hbuf_wr_control: 'LD_2ROWS_8B' });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    expect(r.uie.warnings.filter((d) => d.code === 'SIM0623').length).toBe(1);
  });
  it('SIM0626: Weights Read in a trip without WDP drops its words with a warning', () => {
    const r = rig();
    readLoop(r, [{ n: 12 }], { iter_stride: strides(8) });
    r.trip({ trip_valid_mask: 1 << 2 });
    runTicks(r);
    expect(r.uie.warnings.map((d) => d.code)).toContain('SIM0626');
    expect(r.uie.cmp.wdc.idle).toBe(true);
  });
});
