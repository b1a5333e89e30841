/**
 * The LLC grid through the simulator, 3x3 convolution stride 1 with padding (chip §6.1.1, §6.3.1-§6.3.3.1; seq §10.1
 * RD_3X3 / h_staging, §10.2 conv3x3_mode, §10.3 partition edges): kernels preloaded in the packed Hbuf layout of
 * docs/spec-notes.md (kernel (i, j) of a grid-row at byte (i * N + j) * 9), one input channel per 10-cycle group
 * (2 Exec_Bubble + 8 Exec_Valid), accumulators against the independent reference.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { linToLog, lnsI5F3ToI5F10 } from '@pyxis/formats';
import { decodeExecConfig, PtnConfig } from '../../src/sim/uie/compute/grid.js';
import { llcRef, splitRef } from './compute-grid-ref.js';
import { GH, GV, GX, gloops, i5f3, Rig, rfp16, rng, runFeed, seqMask } from './compute-grid-rig.js';

interface ConvCase {
  Cin: number;
  /** Filters per grid-row (1, 2, 4, 8). */
  N: number;
  timingOnly?: boolean;
}

function conv3x3({ Cin, N, timingOnly }: ConvCase) {
  const r = new Rig({ timingOnly: timingOnly ?? false });
  const u = r.uie;
  const hb = u.cmp.hbuf;
  const rnd = rng(Cin * 31 + N);
  const Wt = 128 / N; // tensor width: the read datapath duplicates it N times across the 128 columns (chip §6.1.1 item 2)
  const log2 = (x: number): number => 31 - Math.clz32(x);
  // kernels W[f][i][t] (f = 16 filters x N), LnsI5F3
  const W: number[][][] = [];
  for (let f = 0; f < 16 * N; f++) W.push(Array.from({ length: Cin }, () => Array.from({ length: 9 }, () => i5f3(rnd, 14, 5))));
  W[0]![0]![4] = 0; // a zero tap
  for (let gr = 0; gr < 16; gr++)
    for (let i = 0; i < Cin; i++)
      for (let j = 0; j < N; j++)
        for (let t = 0; t < 9; t++) hb.data[gr * 4096 + (i * N + j) * 9 + t] = W[gr * N + j]![i]![t]!;
  const units = Math.ceil((Cin * N * 9) / 16);
  hb.rdCredits = units * 16;
  // input X[i][y][x], 8 rows, RFP16
  const X: number[][][] = [];
  for (let i = 0; i < Cin; i++) X.push(Array.from({ length: 8 }, () => Array.from({ length: Wt }, () => rfp16(rnd, 0, 14))));
  X[0]![0]![0] = 0;
  const feed: Uint16Array[] = [];
  for (let i = 0; i < Cin; i++)
    for (let y = -1; y <= 8; y++) {
      const row = new Uint16Array(128);
      if (y >= 0 && y < 8) for (let c = 0; c < 128; c++) row[c] = X[i]![y]![c % Wt]!;
      feed.push(row);
    }
  const eb = 4;
  r.prog('gh', 0, gloops([{ n: Cin }, { n: N }]), {
    opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', end_grid_row_idx: 15, log2_filters_per_row: log2(N), h_staging_filter_iter_id: 1,
    h_staging_done_en: 1, hbuf_block_size: units, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b11,
    hbuf_stride_dim1: 9 * N, hbuf_stride_iter_id_dim1: 0, hbuf_stride_dim2: 9, hbuf_stride_iter_id_dim2: 1,
  });
  r.prog('gv', 0, gloops([{ n: Cin * 10 }]), { opcd: 'Read_AMEM_FIFO', conv3x3_mode: 1, eb_adj: eb });
  r.prog('gx', 0, { eopgm: 0 }, { opcd: 'Exec_Config', conv3x3_mode: 1, end_grid_row_idx: 15, log2_active_ptns: 3, log2_ptns_per_filter: log2(8 / N), odd_col_exec_en: 1, even_col_exec_en: 1 });
  // for i in Cin: 2 x Exec_Bubble (pc 1), 8 x Exec_Valid (pc 2, slot = output row)
  r.prog('gx', 1, { eopgm: 0, iter1_is_eol: 1, iter1_sol_pc: 1, iter1_numloops: 2, iter1_numloops_final: 2 }, { opcd: 'Exec_Bubble', conv3x3_mode: 1 });
  r.prog(
    'gx', 2,
    { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 1, iter0_numloops: Cin, iter0_numloops_final: Cin, iter2_is_eol: 1, iter2_sol_pc: 2, iter2_numloops: 8, iter2_numloops_final: 8 },
    { opcd: 'Exec_Valid', conv3x3_mode: 1, accum_idx_iter_id: 2, zero_accum_iter_mask: 0b001, front_staging_done_iter_mask: 0b100, split_accum_iter_mask: 0b101 },
  );
  r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
  const cycles = runFeed(r, feed);
  // reference: out[f][y][x] = sum_i sum_t W[f][i][t] * X[i][y + dy - 1][x + dx - 1], zero outside the tensor
  const V = (i: number, y: number, x: number): number => (y < 0 || y >= 8 || x < 0 || x >= Wt ? 0 : linToLog(X[i]![y]![x]!, { ebAdj: eb }));
  const aa = new Float64Array(16 * 8 * 128);
  const wba = new Float64Array(16 * 8 * 128);
  for (let gr = 0; gr < 16; gr++)
    for (let y = 0; y < 8; y++)
      for (let c = 0; c < 128; c++) {
        const f = gr * N + Math.floor(c / Wt);
        const x = c % Wt;
        let acc = 0;
        for (let i = 0; i < Cin; i++) {
          const hs = W[f]![i]!.map(lnsI5F3ToI5F10);
          const vs: number[] = [];
          for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) vs.push(V(i, y + dy - 1, x + dx - 1));
          acc = llcRef(acc, hs, vs, true);
        }
        aa[(gr * 8 + y) * 128 + c] = acc;
        wba[(gr * 8 + y) * 128 + c] = splitRef(acc, 0);
      }
  return { r, aa, wba, cycles };
}

function mismatches(got: Float64Array, want: Float64Array): string[] {
  const bad: string[] = [];
  for (let i = 0; i < want.length; i++)
    if (!Object.is(got[i], want[i]) && bad.length < 6) bad.push(`[grid-row ${i >> 10} slot ${(i >> 7) & 7} col ${i & 127}] = ${got[i]}, want ${want[i]}`);
  return bad;
}

describe('LLC grid: 3x3 convolution', () => {
  it('GX Exec_Config decode (seq §10.3 pseudo-code): partition edges and exec enables', () => {
    const bits = (a: Uint8Array): number => a.reduce((m, v, i) => m | (v << i), 0);
    // [log2_ptns_per_filter] -> west edges, east edges (bit = partition)
    const edges: Array<[number, number]> = [[0xff, 0xff], [0b01010101, 0b10101010], [0b00010001, 0b10001000], [0b00000001, 0b10000000]];
    for (let l = 0; l < 4; l++) {
      const c = decodeExecConfig(3, l, 1, 1, new PtnConfig());
      expect([bits(c.ptnEdgeWest), bits(c.ptnEdgeEast)]).toEqual(edges[l]);
    }
    for (let a = 0; a < 4; a++) {
      const c = decodeExecConfig(a, 0, 1, 0, new PtnConfig());
      expect(bits(c.oddColExecEn)).toBe((1 << (1 << a)) - 1);
      expect(bits(c.evenColExecEn)).toBe(0);
    }
  });

  it('one filter per grid-row (128 columns), 4 input channels: bit-exact, 10 cycles per channel', () => {
    const Cin = 4;
    const { r, aa, wba, cycles } = conv3x3({ Cin, N: 1 });
    expect(mismatches(r.uie.cmp.acc.aa, aa)).toEqual([]);
    expect(mismatches(r.uie.cmp.acc.wba, wba)).toEqual([]);
    const st = r.uie.cmp.stats;
    expect(st.execValid).toBe(8 * Cin);
    expect(st.execBubble).toBe(2 * Cin);
    expect(st.macs).toBe(Cin * 8 * 16 * 128 * 9);
    expect(st.splits).toBe(1);
    expect(r.uie.cmp.hbuf.rdCredits).toBe(0);
    // 10 cycles per input channel (chip §6.1.1 item 8) after the first row arrives; the kernel swap never stalls
    // in steady state (GH loads the next kernels during the 10-cycle group)
    expect(st.stallHData).toBeLessThanOrEqual(2);
    const p = r.uie.cmp.gh.grid.p;
    // derived: the first data row is popped by GV in cycle 1 and, the grid being idle, usable 1 +
    // grid_fill_latency_cycles later (the first kernel, read by GH in cycle 1, is in the front buffer by then); then
    // 10 Exec per input channel back to back, the 8-cycle split and the drain
    const firstExec = 2 + p.grid_fill_latency_cycles;
    expect(st.stallHData).toBe(0);
    expect(st.stallVData).toBe(firstExec - 2); // from the first Exec_Bubble record (cycle 2) to the first exec
    expect(cycles).toBe(firstExec + 10 * Cin + 8 + p.llc_pipeline_latency_cycles);
  });

  it('4 filters per grid-row (32-column tensors, log2_ptns_per_filter = 1): partition edges break the column sharing', () => {
    const { r, aa, wba } = conv3x3({ Cin: 3, N: 4 });
    expect(mismatches(r.uie.cmp.acc.aa, aa)).toEqual([]);
    expect(mismatches(r.uie.cmp.acc.wba, wba)).toEqual([]);
  });

  it('8 filters per grid-row (16-column tensors, one partition each)', () => {
    const { r, aa } = conv3x3({ Cin: 2, N: 8 });
    expect(mismatches(r.uie.cmp.acc.aa, aa)).toEqual([]);
  });

  it('timingOnly keeps the cycles and statistics (random input channels and filters per grid-row, FC_RUNS)', () => {
    const runs = Math.max(1, Math.round(Number(process.env['FC_RUNS'] ?? 200) / 50));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.constantFrom(1, 2, 4, 8), (Cin, N) => {
        const a = conv3x3({ Cin, N });
        const b = conv3x3({ Cin, N, timingOnly: true });
        expect(b.cycles).toBe(a.cycles);
        expect(b.r.uie.cmp.stats).toEqual(a.r.uie.cmp.stats);
        expect(b.r.uie.stats).toEqual(a.r.uie.stats);
      }),
      { numRuns: runs },
    );
  });

  it('stride 2 (even columns, Exec_Bubble on odd rows): 8 output rows from 17 input rows per channel', () => {
    const Cin = 2;
    const r = new Rig();
    const hb = r.uie.cmp.hbuf;
    const rnd = rng(77);
    const W: number[][][] = [];
    for (let f = 0; f < 16; f++) W.push(Array.from({ length: Cin }, () => Array.from({ length: 9 }, () => i5f3(rnd, 14, 5))));
    for (let gr = 0; gr < 16; gr++) for (let i = 0; i < Cin; i++) for (let t = 0; t < 9; t++) hb.data[gr * 4096 + i * 9 + t] = W[gr]![i]![t]!;
    hb.rdCredits = 4096;
    const H = 16;
    const X: number[][][] = [];
    for (let i = 0; i < Cin; i++) X.push(Array.from({ length: H }, () => Array.from({ length: 128 }, () => rfp16(rnd, 0, 14))));
    // per channel: input rows -1 .. 16 (pad, 16 rows, pad): 2 bubbles + 8 x (valid, bubble) = 18 rows
    const feed: Uint16Array[] = [];
    for (let i = 0; i < Cin; i++)
      for (let y = -1; y <= 16; y++) feed.push(Uint16Array.from({ length: 128 }, (_, c) => (y >= 0 && y < H ? X[i]![y]![c]! : 0)));
    r.prog('gh', 0, gloops([{ n: Cin }, { n: 1 }]), {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', h_staging_filter_iter_id: 1, h_staging_done_en: 1, hbuf_stride_dim1: 9, hbuf_stride_iter_id_dim1: 0,
    });
    r.prog('gv', 0, gloops([{ n: Cin * 18 }]), { opcd: 'Read_AMEM_FIFO', conv3x3_mode: 1, eb_adj: 4 });
    r.prog('gx', 0, { eopgm: 0 }, { opcd: 'Exec_Config', conv3x3_mode: 1, end_grid_row_idx: 15, log2_active_ptns: 3, log2_ptns_per_filter: 3, odd_col_exec_en: 0, even_col_exec_en: 1 });
    r.prog('gx', 1, { eopgm: 0, iter1_is_eol: 1, iter1_sol_pc: 1, iter1_numloops: 2, iter1_numloops_final: 2 }, { opcd: 'Exec_Bubble', conv3x3_mode: 1 });
    r.prog('gx', 2, { eopgm: 0 }, { opcd: 'Exec_Valid', conv3x3_mode: 1, accum_idx_iter_id: 2, zero_accum_iter_mask: 0b001 });
    r.prog(
      'gx', 3,
      { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 1, iter0_numloops: Cin, iter0_numloops_final: Cin, iter2_is_eol: 1, iter2_sol_pc: 2, iter2_numloops: 8, iter2_numloops_final: 8 },
      { opcd: 'Exec_Bubble', conv3x3_mode: 1, front_staging_done_iter_mask: 0b100, split_accum_iter_mask: 0b101 },
    );
    r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
    const cycles = runFeed(r, feed);
    const V = (i: number, y: number, x: number): number => (y < 0 || y >= H || x < 0 || x >= 128 ? 0 : linToLog(X[i]![y]![x]!, { ebAdj: 4 }));
    const want = new Float64Array(16 * 8 * 128);
    for (let gr = 0; gr < 16; gr++)
      for (let y = 0; y < 8; y++)
        for (let c = 0; c < 128; c += 2) {
          let acc = 0;
          for (let i = 0; i < Cin; i++) {
            const vs: number[] = [];
            for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) vs.push(V(i, 2 * y + dy - 1, c + dx - 1));
            acc = llcRef(acc, W[gr]![i]!.map(lnsI5F3ToI5F10), vs, true);
          }
          want[(gr * 8 + y) * 128 + c] = acc;
        }
    expect(mismatches(r.uie.cmp.acc.aa, want)).toEqual([]);
    const st = r.uie.cmp.stats;
    expect(st.execValid).toBe(8 * Cin);
    expect(st.execBubble).toBe(10 * Cin);
    expect(st.macs).toBe(Cin * 8 * 16 * 64 * 9);
    const p = r.uie.cmp.gh.grid.p;
    expect(cycles).toBe(2 + p.grid_fill_latency_cycles + 18 * Cin + 8 + p.llc_pipeline_latency_cycles);
  });
});
