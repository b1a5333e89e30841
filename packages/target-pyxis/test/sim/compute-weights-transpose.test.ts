/**
 * Transposed MatMul through the weights path: seq Figure 9-3 + Tables 9-7 / 9-8 (FP8, LD_2ROWS_8B_TRANS) and
 * Figure 9-4 + Tables 9-9 / 9-10 (FP16, LD_1ROW_16B_TRANS, 2 partitions per H-lane, zero masks A / B). The expected
 * Hbuf words are the spec tables written out literally ("D1 C1 B1 A1 D0 C0 B0 A0"), filled with the tensor values.
 */
import { describe, expect, it } from 'vitest';
import { hb, i4toI5, i5f10Adj, rig, rnd, runTicks, wdpLoop, WR_WDP, P } from './compute-weights-ref.js';
import { strides } from './uie-fixture.js';

/** Table 9-7 HBUF part: per (bank, word in bank) the byte offsets 7..0. */
const T97: Record<string, string> = {
  '0,0': 'D1 C1 B1 A1 D0 C0 B0 A0',
  '0,1': 'D3 C3 B3 A3 D2 C2 B2 A2',
  '0,2': 'D5 C5 B5 A5 D4 C4 B4 A4',
  '0,3': 'D7 C7 B7 A7 D6 C6 B6 A6',
  '1,0': 'H1 G1 F1 E1 H0 G0 F0 E0',
  '1,1': 'H3 G3 F3 E3 H2 G2 F2 E2',
  '1,2': 'H5 G5 F5 E5 H4 G4 F4 E4',
  '1,3': 'H7 G7 F7 E7 H6 G6 F6 E6',
};
/** Table 9-9 HBUF part: per (bank, word in bank) the 16-bit values at byte offsets 7,6 .. 1,0. */
const T99: Record<string, string> = {
  '0,0': 'B4 A4 B0 A0',
  '0,1': 'B5 A5 B1 A1',
  '0,2': 'B6 A6 B2 A2',
  '0,3': 'B7 A7 B3 A3',
  '1,0': 'D4 C4 D0 C0',
  '1,1': 'D5 C5 D1 C1',
  '1,2': 'D6 C6 D2 C2',
  '1,3': 'D7 C7 D3 C3',
};
const cell = (s: string) => ({ row: s.charCodeAt(0) - 65, col: Number(s.slice(1)) });

describe('FP8 transpose (seq §9.4.1, Figure 9-3, Tables 9-7 and 9-8)', () => {
  it('8 tensor rows A..H through the ping-pong tbufs become Table 9-7 on every grid-row, block after block', () => {
    const r = rig();
    const blocks = 2;
    const words = rnd(blocks * 8 * 128, 31);
    r.amem.writeBytes(0x4000, words);
    r.prog('amem_weights_read', 0, { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: blocks * 8 }, { opcd: 'Read_SRAM', num_ptns: 8, iter_stride: strides(8) });
    // Figure 9-3: for hblock: for tbuf_idx_iter in range(2): for tbuf_col_idx_iter in range(4)
    wdpLoop(r, [{ n: blocks }, { n: 2 }, { n: 4 }], {
      hbuf_wr_control: 'LD_2ROWS_8B_TRANS', log2_ptns_per_hlane: 0, tbuf_idx_iter_id: 1, tbuf_col_idx_iter_id: 2,
      hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1, hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1,
      hbuf_block_iter_mask: 0b110, lin2log_config_vld: 1, dsbl_mapping_corr: 1, eb_adj: 2,
    });
    r.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: 0x4000 >> 4 });
    const { wr } = runTicks(r);
    expect(wr.length).toBe(blocks * 8);
    expect(wr[wr.length - 1]! - wr[0]!).toBe(blocks * 8 - 1);
    expect(r.uie.cmp.stats.tbufFlushes).toBe(blocks * 2 * 16);
    for (let blk = 0; blk < blocks; blk++)
      for (let q = 0; q < 16; q++)
        for (const [k, bytes] of Object.entries(T97)) {
          const [bank, wib] = k.split(',').map(Number) as [number, number];
          const names = bytes.split(' ').reverse(); // byte offset 0 first
          names.forEach((nm, b) => {
            const { row, col } = cell(nm);
            // Table 9-8: tensor row R = word 8 blk + R; partition p = H-lane p carries bytes 0-7 to grid-row 2p, 8-15 to 2p+1
            const src = words[(8 * blk + row) * 128 + (q >> 1) * 16 + (q & 1) * 8 + col]!;
            const addr = 64 * blk + ((wib << 4) | (bank << 3)) + b;
            expect(hb(r, q, addr)).toBe(i4toI5(src, 2));
          });
        }
  });

  it('zero mask bit v of H-lane h zeroes tensor element v of grid-row 2h (v < 8) or v - 8 of 2h + 1 in every row', () => {
    const r = rig();
    const words = rnd(8 * 128, 32);
    for (let i = 0; i < words.length; i++) if ((words[i]! & 0x7f) === 0) words[i] = 0x42;
    r.amem.writeBytes(0, words);
    r.table('wdp.zero_mask', 3, { hlane_zero_mask: [0x0008, 0, 0, 0x8100, 0, 0, 0, 0] });
    r.prog('amem_weights_read', 0, { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 8 }, { opcd: 'Read_SRAM', num_ptns: 8, iter_stride: strides(8) });
    wdpLoop(r, [{ n: 2 }, { n: 4 }], {
      hbuf_wr_control: 'LD_2ROWS_8B_TRANS', tbuf_idx_iter_id: 0, tbuf_col_idx_iter_id: 1, hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 0,
      zero_mask_config_vld: 1, zero_mask_en: 1, zero_mask_idx_a: 3, lin2log_config_vld: 1, dsbl_mapping_corr: 1,
    });
    r.trip({ trip_valid_mask: WR_WDP });
    runTicks(r);
    const zeroed = (q: number, col: number) => (q === 0 && col === 3) || (q === 7 && col === 0) || (q === 7 && col === 7);
    for (let q = 0; q < 16; q++)
      for (const [k, bytes] of Object.entries(T97)) {
        const [bank, wib] = k.split(',').map(Number) as [number, number];
        bytes.split(' ').reverse().forEach((nm, b) => {
          const { row, col } = cell(nm);
          const src = words[row * 128 + (q >> 1) * 16 + (q & 1) * 8 + col]!;
          expect(hb(r, q, ((wib << 4) | (bank << 3)) + b)).toBe(zeroed(q, col) ? 0 : i4toI5(src, 0));
        });
      }
  });
});

describe('FP16 transpose (seq §9.4.2, Figure 9-4, Tables 9-9 and 9-10)', () => {
  function fp16Trip(zm: boolean) {
    const r = rig();
    // rows A..D, 128 FP16 values each = 2 AMEM words ("A 63:0", "A 127:64")
    const words = rnd(8 * 128, 41);
    r.amem.writeBytes(0, words);
    if (zm) {
      r.table('wdp.zero_mask', 1, { hlane_zero_mask: [0x0004, 0, 0, 0, 0, 0x0080, 0, 0] });
      r.table('wdp.zero_mask', 2, { hlane_zero_mask: [0x2000, 0, 0, 0, 0, 0x0100, 0, 0] });
    }
    r.prog('amem_weights_read', 0, { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 8 }, { opcd: 'Read_SRAM', is_16bit: 1, num_ptns: 8, iter_stride: strides(8) });
    // Figure 9-4: for tbuf_idx_iter (2): for tbuf_col_idx_iter (2): for hlane_group_iter (2)
    wdpLoop(r, [{ n: 1 }, { n: 2 }, { n: 2 }, { n: 2 }], {
      is_16bit: 1, hbuf_wr_control: 'LD_1ROW_16B_TRANS', log2_ptns_per_hlane: 1, hlane_iter_id: 3, tbuf_idx_iter_id: 1, tbuf_col_idx_iter_id: 2,
      hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1, hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b1110,
      lin2log_config_vld: 1, dsbl_mapping_corr: 1, eb_adj: -1,
      ...(zm ? { zero_mask_config_vld: 1, zero_mask_en: 1, zero_mask_idx_a: 1, zero_mask_idx_b: 2 } : {}),
    });
    r.trip({ trip_valid_mask: WR_WDP });
    const t = runTicks(r);
    return { r, words, ...t };
  }
  /** Tensor row R value j as seen by grid-row q: word 2R + (q >> 3) ("R 63:0" to H-lanes 0-3), partition q & 7. */
  const val = (words: Uint8Array, R: number, q: number, j: number) => {
    const o = (2 * R + (q >> 3)) * 128 + (q & 7) * 16 + 2 * j;
    return words[o]! | (words[o + 1]! << 8);
  };

  it('rows A, B share tbuf 0 (cols 0 and 2) and C, D tbuf 1: every grid-row holds Table 9-9 (Table 9-10 row B read as tbuf 0)', () => {
    const { r, words, wr } = fp16Trip(false);
    expect(wr.length).toBe(8);
    // 2 partitions per H-lane, alternating H-lane groups: an H-lane takes a word every 2 cycles, no stall
    expect(wr[7]! - wr[0]!).toBe(7);
    for (let q = 0; q < 16; q++)
      for (const [k, vals] of Object.entries(T99)) {
        const [bank, wib] = k.split(',').map(Number) as [number, number];
        vals.split(' ').reverse().forEach((nm, i) => {
          const { row, col } = cell(nm);
          const v = i5f10Adj(val(words, row, q, col), -1);
          const a = ((wib << 4) | (bank << 3)) + 2 * i;
          expect(hb(r, q, a) | (hb(r, q, a + 1) << 8)).toBe(v);
        });
      }
    // the block's read credits: 64 bytes, wdp_latency + 1 unload-delay cycle after the last WR_HBUF
    expect(r.uie.cmp.hbuf.wrBase).toBe(64);
  });

  it('zero masks: index A for partitions to grid_row_in_pair 0, index B for grid_row_in_pair 1 (VGRs 8..15)', () => {
    const { r, words } = fp16Trip(true);
    // A (entry 1): H-lane 0 bit 2 -> grid-row 0 value 2; H-lane 5 bit 7 -> grid-row 10 value 7
    // B (entry 2): H-lane 0 bit 13 -> grid-row 1 value 5; H-lane 5 bit 8 -> grid-row 11 value 0
    const zeroed = (q: number, col: number) => (q === 0 && col === 2) || (q === 10 && col === 7) || (q === 1 && col === 5) || (q === 11 && col === 0);
    let zeros = 0;
    for (let q = 0; q < 16; q++)
      for (const [k, vals] of Object.entries(T99)) {
        const [bank, wib] = k.split(',').map(Number) as [number, number];
        vals.split(' ').reverse().forEach((nm, i) => {
          const { row, col } = cell(nm);
          const a = ((wib << 4) | (bank << 3)) + 2 * i;
          const got = hb(r, q, a) | (hb(r, q, a + 1) << 8);
          if (zeroed(q, col)) {
            expect(got).toBe(0);
            zeros++;
          } else expect(got).toBe(i5f10Adj(val(words, row, q, col), -1));
        });
      }
    expect(zeros).toBe(4 * 4);
  });

  it('SIM0625: a tbuf slot written twice before the tbuf is full', () => {
    const r = rig();
    r.prog('amem_weights_read', 0, { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 2 }, { opcd: 'Read_SRAM', num_ptns: 8 });
    wdpLoop(r, [{ n: 2 }], { hbuf_wr_control: 'LD_2ROWS_8B_TRANS', tbuf_idx_iter_id: 6, tbuf_col_idx_iter_id: 6 });
    r.trip({ trip_valid_mask: WR_WDP });
    // the run stops on the second write of a slot with the diagnostic's own code (not any error mentioning the tbuf)
    expect(codeOf(() => runTicks(r))).toBe('SIM0625');
  });
});

/** The code of the diagnostic `f` throws (undefined when it throws something else or nothing). */
function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return (e as { diagnostics?: Array<{ code?: string }> }).diagnostics?.[0]?.code;
  }
  return undefined;
}
