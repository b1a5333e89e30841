/**
 * The LLC grid through the simulator, 1x1 / MatMul flows (chip §6.1.2-§6.1.3.2, §6.3; seq §10.1.3, §10.1.4, §10.3):
 * Hbufs preloaded as WDP writes them, vertical data through AMEM Read or fed into the switchbox, GH / GV / GX programs,
 * accumulators checked against the independent reference (compute-grid-ref.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fp8ToFp16Raw, fp8ToLnsI5F3Raw, linToLog, lnsI5F3ToI5F10 } from '@pyxis/formats';
import { loops, strides } from './uie-fixture.js';
import { llcRef, splitRef } from './compute-grid-ref.js';
import { AR, GH, GV, GX, gloops, i5f3, Rig, rfp16, rng, runFeed, seqMask } from './compute-grid-rig.js';

const EXEC_CONFIG = { opcd: 'Exec_Config', end_grid_row_idx: 15, log2_active_ptns: 3, odd_col_exec_en: 1, even_col_exec_en: 1 };

interface MatMulCase {
  K: number;
  /** Horizontal data: FP8 / FP16 row-shifted (Figure 10-1), FP8 transposed (Figure 10-2), FP16 transposed (Figure 10-3). */
  kind: 'fp8' | 'fp16' | 'trans' | 'trans16';
  /** GX: execs per split chunk (default K/8*8: one split at the end). */
  chunk?: number;
  corr?: boolean;
  gxConfig?: Record<string, number | string>;
  timingOnly?: boolean;
  /** Exponent ranges of A (LnsI5F3 / LnsI5F10 integer part) and B (RFP16 exponent): [first, count]. */
  aRange?: [number, number];
  bRange?: [number, number];
  /** GV fbits_truncate_amt (seq §10.2). */
  trunc?: number;
}

/**
 * C = A x B with A: 128 x K (horizontal, Hbuf), B: K x 128 (vertical, fed as RFP16 rows). Returns the rig, the
 * reference AA/WBA and the cycles.
 */
function matmul(c: MatMulCase) {
  const { K, kind } = c;
  const corr = c.corr ?? true;
  const wide = kind === 'fp16' || kind === 'trans16';
  const per = wide ? 4 : 8; // products per exec
  const groups = K / per;
  const r = new Rig({ timingOnly: c.timingOnly ?? false });
  const u = r.uie;
  const hb = u.cmp.hbuf;
  const rnd = rng(K * 7 + (wide ? 3 : 1) + (kind === 'trans' ? 11 : 0));
  // A as LnsI5F10 codes (reference) and its Hbuf image per grid-row
  const A: number[][] = [];
  for (let m = 0; m < 128; m++) {
    const row: number[] = [];
    const [a0, an] = c.aRange ?? [14, 5];
    for (let k = 0; k < K; k++) row.push(wide ? (((rnd() & 1) << 15) | ((a0 + (rnd() % an)) << 10) | (rnd() & 0x3ff)) : lnsI5F3ToI5F10(i5f3(rnd, a0, an)));
    A.push(row);
  }
  A[3]![5] = wide ? 0 : 0; // a zero weight
  for (let m = 0; m < 128; m++) {
    const gr = m >> 3;
    const vgr = m & 7;
    for (let k = 0; k < K; k++) {
      const code = A[m]![k]!;
      let addr: number;
      if (kind === 'trans16') {
        // seq §9.4.2 Table 9-9: block b of 4 k's; bank = k[1]; word = vgr & 3; bytes (vgr >> 2) * 4 + k[0] * 2
        const b = k >> 2, kk = k & 3;
        addr = b * 64 + (vgr & 3) * 16 + (kk >> 1) * 8 + (vgr >> 2) * 4 + (kk & 1) * 2;
      } else if (kind === 'trans') {
        // seq §9.4 Table 9-7: block b of 8 k's; bank = k[2], word = vgr >> 1, byte = (vgr & 1) * 4 + k[1:0]
        const b = k >> 3, kk = k & 7;
        addr = b * 64 + (vgr >> 1) * 16 + (kk >> 2) * 8 + (vgr & 1) * 4 + (kk & 3);
      } else {
        // Figure 10-1: 128 k-bytes (or 64 FP16 values) per virtual grid-row per 1024-byte block
        const perBlk = wide ? 64 : 128;
        const blk = Math.floor(k / perBlk);
        const kk = k % perBlk;
        addr = blk * 1024 + vgr * 128 + (wide ? 2 * kk : kk);
      }
      const base = gr * 4096;
      if (wide) {
        hb.data[base + addr] = code & 0xff;
        hb.data[base + addr + 1] = code >> 8;
      } else {
        // LnsI5F3 byte: recover the 9-bit code from the widened reference value
        hb.data[base + addr] = ((code >> 7) & 0x100) | (((code >> 10) & 31) << 3) | ((code >> 7) & 7);
      }
    }
  }
  const blockBytes = kind === 'trans' || kind === 'trans16' ? 64 : 1024;
  const nBlocks = kind === 'trans' ? K / 8 : kind === 'trans16' ? K / 4 : Math.ceil(K / (wide ? 64 : 128));
  hb.rdCredits = blockBytes * nBlocks;
  // B rows (vertical), RFP16, and the v_staging entries they become
  const B: Uint16Array[] = [];
  for (let k = 0; k < K; k++) {
    const row = new Uint16Array(128);
    for (let col = 0; col < 128; col++) row[col] = rfp16(rnd, c.bRange?.[0] ?? 0, c.bRange?.[1] ?? 16);
    B.push(row);
  }
  B[2]![9] = 0x8000; // one NaN datum: column 9 goes NaN
  if (K > 4) B[4]![10] = 0; // a zero datum (K = 4: the FP16 property's smallest K has no row 4)
  const eb = 4;
  const feed: Uint16Array[] = [];
  const zeroRow = new Uint16Array(128);
  for (let g = 0; g < groups; g++) {
    if (wide) {
      // chip §6.3.1: 16-bit horizontal data: 3 rows of zeros, 4 rows of data, 1 row of zeros per 8 entries
      feed.push(zeroRow, zeroRow, zeroRow, B[4 * g]!, B[4 * g + 1]!, B[4 * g + 2]!, B[4 * g + 3]!, zeroRow);
    } else for (let i = 0; i < 8; i++) feed.push(B[8 * g + i]!);
  }
  // programs
  const execsPerChunk = c.chunk ?? groups * 8;
  const chunks = (groups * 8) / execsPerChunk;
  const groupsPerChunk = execsPerChunk / 8;
  if (kind === 'trans16') {
    // Figure 10-3: quad-byte outer, word-in-bank inner
    r.prog('gh', 0, gloops([{ n: K / 4 }, { n: 2 }, { n: 4 }]), {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_TRANS_1X1_MATMUL_FP16', end_grid_row_idx: 15, hbuf_block_size: 4, hbuf_block_start_en: 1,
      hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b110, hbuf_stride_dim1: 4, hbuf_stride_iter_id_dim1: 1, hbuf_stride_dim2: 16, hbuf_stride_iter_id_dim2: 2,
    });
  } else if (kind === 'trans') {
    r.prog('gh', 0, gloops([{ n: K / 8 }, { n: 4 }, { n: 2 }]), {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_TRANS_1X1_MATMUL_FP8', end_grid_row_idx: 15, hbuf_block_size: 4, hbuf_block_start_en: 1,
      hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b110, hbuf_stride_dim1: 4, hbuf_stride_iter_id_dim1: 2, hbuf_stride_dim2: 16, hbuf_stride_iter_id_dim2: 1,
    });
  } else {
    const octs = wide ? 16 : 16;
    r.prog('gh', 0, gloops([{ n: nBlocks }, { n: Math.min(octs, groups) }, { n: 8 }]), {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: wide ? 'RD_1X1_MATMUL_FP16' : 'RD_1X1_MATMUL_FP8', end_grid_row_idx: 15, hbuf_block_size: 64,
      hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b110, hbuf_stride_dim1: 8, hbuf_stride_iter_id_dim1: 1,
      hbuf_stride_dim2: 128, hbuf_stride_iter_id_dim2: 2,
    });
  }
  r.prog('gv', 0, gloops([{ n: groups }, { n: 8 }]), {
    opcd: 'Read_AMEM_FIFO', conv3x3_mode: 0, staging_start_iter_mask: 0b10, dsbl_mapping_corr: corr ? 0 : 1, eb_adj: eb, fbits_truncate_amt: c.trunc ?? 0,
  });
  r.prog('gx', 0, { eopgm: 0 }, { ...EXEC_CONFIG, ...(c.gxConfig ?? {}) });
  r.prog('gx', 1, gloops([{ n: chunks }, { n: groupsPerChunk }, { n: 8 }], 1, 1), {
    opcd: 'Exec_Valid', accum_idx_iter_id: 2, front_staging_done_iter_mask: 0b100, zero_accum_iter_mask: 0b010,
    split_accum_iter_mask: 0b110, llc_dsbl_mapping_corr: corr ? 0 : 1,
  });
  r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
  const cycles = runFeed(r, feed);
  // reference
  const V = (k: number, col: number): number => linToLog(B[k]![col]!, { ebAdj: eb, mappingCorrection: corr, fbitsTruncateAmt: c.trunc ?? 0 });
  const cfg = { ...EXEC_CONFIG, ...(c.gxConfig ?? {}) } as unknown as Record<string, number>;
  const colOn = (col: number): boolean =>
    col < 16 * (1 << cfg.log2_active_ptns!) && ((col & 1) === 0 ? cfg.even_col_exec_en === 1 : cfg.odd_col_exec_en === 1);
  const rows = cfg.end_grid_row_idx! + 1;
  const aa = new Float64Array(128 * 128);
  const wba = new Float64Array(128 * 128);
  for (let m = 0; m < rows * 8; m++)
    for (let col = 0; col < 128; col++) {
      if (!colOn(col)) continue;
      let acc = 0;
      let w = 0;
      for (let g = 0; g < groups; g++) {
        const hs = A[m]!.slice(g * per, g * per + per);
        const vs = hs.map((_, i) => V(g * per + i, col));
        if (g % groupsPerChunk === 0) acc = 0;
        acc = llcRef(acc, hs, vs, corr);
        if (g % groupsPerChunk === groupsPerChunk - 1) w = splitRef(acc, g < groupsPerChunk ? 0 : w);
      }
      aa[m * 128 + col] = acc;
      wba[m * 128 + col] = w;
    }
  return { r, aa, wba, cycles, colOn, rows };
}

/** Grid accumulator (grid-row, slot) = matrix row m = 8 * grid-row + slot (seq §9.3 table). */
function expectAcc(r: Rig, want: Float64Array, which: 'aa' | 'wba', rows: number, colOn: (c: number) => boolean): void {
  const got = r.uie.cmp.acc[which];
  const bad: string[] = [];
  let n = 0;
  for (let m = 0; m < rows * 8; m++)
    for (let col = 0; col < 128; col++) {
      if (!colOn(col) || Object.is(got[m * 128 + col], want[m * 128 + col])) continue;
      if (n++ < 6) bad.push(`${which}[${m}][${col}] = ${got[m * 128 + col]}, want ${want[m * 128 + col]}`);
    }
  expect(bad, `${n} mismatches`).toEqual([]);
}

describe('LLC grid: 1x1 / MatMul', () => {
  it('FP8 row-shifted MatMul (Figure 10-1): AA and WBA bit-exact, one exec per cycle after the fill, credits', () => {
    const K = 256;
    const { r, aa, wba, cycles, colOn, rows } = matmul({ K, kind: 'fp8' });
    expectAcc(r, aa, 'aa', rows, colOn);
    expectAcc(r, wba, 'wba', rows, colOn);
    const st = r.uie.cmp.stats;
    expect(st.execValid).toBe(K);
    expect(st.execConfig).toBe(1);
    expect(st.macs).toBe(K * 128 * 128);
    expect(st.splits).toBe(1);
    expect(st.hbufReads).toBe((K / 8) * 8 * 16);
    const hb = r.uie.cmp.hbuf;
    expect(hb.rdCredits).toBe(0);
    expect(hb.rdBase).toBe(2048);
    expect(hb.wrCredits).toBe(4096 + 2048);
    expect(Number.isNaN(wba[2 * 128 + 9])).toBe(true); // the NaN datum reached the accumulators
    // cycles, derived: the sequencers issue their first record in cycle 0 (visible to the units in cycle 1); GV pops one
    // fed row per cycle, so the back buffer is complete in cycle 8 and, the grid being idle, becomes the front
    // 1 + grid_fill_latency_cycles later; then K Exec_Valid back to back (the double-buffered swap is free), the
    // 8-cycle split, llc_pipeline_latency_cycles of drain, and the cycle in which the trip retires.
    const p = r.uie.cmp.gh.grid.p;
    const firstExec = 8 + 1 + p.grid_fill_latency_cycles;
    expect(st.stallHData).toBe(0);
    expect(st.stallVData).toBe(firstExec - 2); // Exec_Config runs in cycle 1, Exec_Valid waits from cycle 2 to the first exec
    expect(cycles).toBe(firstExec + K + 8 + p.llc_pipeline_latency_cycles);
  });

  it('FP8 transposed MatMul (Figure 10-2, Table 9-7 Hbuf layout)', () => {
    const { r, aa, wba, colOn, rows } = matmul({ K: 64, kind: 'trans' });
    expectAcc(r, aa, 'aa', rows, colOn);
    expectAcc(r, wba, 'wba', rows, colOn);
    expect(r.uie.cmp.hbuf.rdBase).toBe(64 * 8);
  });

  it('FP16 transposed MatMul (Figure 10-3, Table 9-9 Hbuf layout)', () => {
    const { r, aa, wba, colOn, rows } = matmul({ K: 32, kind: 'trans16' });
    expectAcc(r, aa, 'aa', rows, colOn);
    expectAcc(r, wba, 'wba', rows, colOn);
    expect(r.uie.cmp.hbuf.rdBase).toBe(64 * 8);
  });

  it('FP16 horizontal MatMul / 16-bit 1x1: 4 products per exec, v entries 3..6 of the 3-4-1 pattern', () => {
    const { r, aa, wba, colOn, rows } = matmul({ K: 64, kind: 'fp16' });
    expectAcc(r, aa, 'aa', rows, colOn);
    expectAcc(r, wba, 'wba', rows, colOn);
    expect(r.uie.cmp.stats.macs).toBe(16 * 8 * 16 * 128 * 4); // groups x execs x grid-rows x columns x products
  });

  it('split accumulation in chunks of 64 channels: AA restarts at zero, WBA accumulates in MNS 5.1.18', () => {
    const { r, aa, wba, colOn, rows } = matmul({ K: 128, kind: 'fp8', chunk: 64 });
    expectAcc(r, aa, 'aa', rows, colOn);
    expectAcc(r, wba, 'wba', rows, colOn);
    expect(r.uie.cmp.stats.splits).toBe(2);
  });

  it('wide exponent ranges (exact-sum slow path, underflow to zero, sticky overflow) stay bit-exact', () => {
    const { r, aa, wba, colOn, rows } = matmul({ K: 32, kind: 'fp8', aRange: [0, 32], bRange: [0, 32] });
    expectAcc(r, aa, 'aa', rows, colOn);
    expectAcc(r, wba, 'wba', rows, colOn);
    const got = r.uie.cmp.acc.aa;
    expect(got.some((x) => x === Infinity) && got.some((x) => x === -Infinity)).toBe(true); // sticky values reached
    const w = matmul({ K: 16, kind: 'fp16', aRange: [0, 32], bRange: [0, 32] });
    expectAcc(w.r, w.aa, 'aa', w.rows, w.colOn);
  });

  it('GV fbits_truncate_amt = 7 (LnsI5F10 with 3 fraction bits into the grid)', () => {
    const { r, aa, colOn, rows } = matmul({ K: 16, kind: 'fp8', trunc: 7 });
    expectAcc(r, aa, 'aa', rows, colOn);
    const full = matmul({ K: 16, kind: 'fp8' });
    expect(r.uie.cmp.acc.aa.some((x, i) => x !== full.r.uie.cmp.acc.aa[i])).toBe(true); // the field has an effect
  });

  it('mapping correction disabled (llc_dsbl_mapping_corr, GV dsbl_mapping_corr)', () => {
    const { r, aa, colOn, rows } = matmul({ K: 32, kind: 'fp8', corr: false });
    expectAcc(r, aa, 'aa', rows, colOn);
  });

  it('Exec_Config: partial grid (end_grid_row_idx, log2_active_ptns, even columns only) leaves the rest untouched', () => {
    const gxConfig = { end_grid_row_idx: 5, log2_active_ptns: 2, odd_col_exec_en: 0 };
    const { r, aa, colOn, rows } = matmul({ K: 32, kind: 'fp8', gxConfig });
    expectAcc(r, aa, 'aa', rows, colOn);
    const got = r.uie.cmp.acc.aa;
    expect(got[0 * 128 + 1]).toBe(0); // odd column
    expect(got[0 * 128 + 64]).toBe(0); // partition 4
    expect(got[6 * 8 * 128]).toBe(0); // grid-row 6
    expect(r.uie.cmp.stats.macs).toBe(32 * 6 * 8 * 32);
  });

  it('timingOnly: same cycles and statistics, no arithmetic', () => {
    const a = matmul({ K: 64, kind: 'fp8' });
    const b = matmul({ K: 64, kind: 'fp8', timingOnly: true });
    expect(b.cycles).toBe(a.cycles);
    expect(b.r.uie.cmp.stats).toEqual(a.r.uie.cmp.stats);
    expect(b.r.uie.cmp.acc.aa.every((x) => x === 0)).toBe(true);
  });

  it('timingOnly on random shapes: every kind of horizontal data, K and split chunk give the full run\'s cycles and statistics (FC_RUNS)', () => {
    const runs = Math.max(1, Math.round(Number(process.env['FC_RUNS'] ?? 200) / 50));
    fc.assert(
      fc.property(fc.constantFrom('fp8', 'fp16', 'trans', 'trans16') as fc.Arbitrary<MatMulCase['kind']>, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 3 }), fc.boolean(), (kind, m, cdiv, corr) => {
        const per = kind === 'fp16' || kind === 'trans16' ? 4 : 8;
        const K = per * m * (kind === 'trans16' ? 2 : 1);
        const groups = K / per;
        const chunk = 8 * (groups % (cdiv + 1) === 0 ? groups / (cdiv + 1) : groups);
        const a = matmul({ K, kind, chunk, corr });
        const b = matmul({ K, kind, chunk, corr, timingOnly: true });
        expect(b.cycles).toBe(a.cycles);
        expect(b.r.uie.cmp.stats).toEqual(a.r.uie.cmp.stats);
        expect(b.r.uie.stats).toEqual(a.r.uie.stats);
      }),
      { numRuns: runs },
    );
  });

  it('chip §17.1: A^T x I with mapping correction disabled gives A^T exactly (FP8 A through lin2log, transposed reads)', () => {
    const r = new Rig();
    const u = r.uie;
    const hb = u.cmp.hbuf;
    const rnd = rng(99);
    // A: 128 x 128 FP8; the transposed read delivers column j of an 8-row block to virtual grid-row j
    const A: number[][] = [];
    for (let i = 0; i < 128; i++) A.push(Array.from({ length: 128 }, () => { const x = rnd() & 0xff; return x === 0x80 ? 0x81 : x; }));
    // MatMul A^T (128 x K=128) x I: output m = A^T row m; h value for k = A^T[m][k] = A[k][m]
    for (let m = 0; m < 128; m++)
      for (let k = 0; k < 128; k++) {
        const b = k >> 3, kk = k & 7, vgr = m & 7;
        const addr = b * 64 + (vgr >> 1) * 16 + (kk >> 2) * 8 + (vgr & 1) * 4 + (kk & 3);
        hb.data[(m >> 3) * 4096 + addr] = fp8ToLnsI5F3Raw(A[k]![m]!, 1, false); // EB_Adj_I4I5 = +1 keeps E >= 1
      }
    hb.rdCredits = 64 * 16;
    // identity rows, RFP16 1.0 * 2^16 nominal (EB_w = -16, docs/spec-notes.md "LLC product")
    const feed: Uint16Array[] = [];
    for (let k = 0; k < 128; k++) {
      const row = new Uint16Array(128);
      row[k] = 16 << 10;
      feed.push(row);
    }
    r.prog('gh', 0, gloops([{ n: 16 }, { n: 4 }, { n: 2 }]), {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_TRANS_1X1_MATMUL_FP8', hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1,
      hbuf_block_iter_mask: 0b110, hbuf_stride_dim1: 4, hbuf_stride_iter_id_dim1: 2, hbuf_stride_dim2: 16, hbuf_stride_iter_id_dim2: 1,
    });
    r.prog('gv', 0, gloops([{ n: 16 }, { n: 8 }]), { opcd: 'Read_AMEM_FIFO', staging_start_iter_mask: 0b10, dsbl_mapping_corr: 1 });
    r.prog('gx', 0, { eopgm: 0 }, EXEC_CONFIG);
    r.prog('gx', 1, gloops([{ n: 16 }, { n: 8 }], 1, 1), {
      opcd: 'Exec_Valid', accum_idx_iter_id: 1, front_staging_done_iter_mask: 0b10, zero_accum_iter_mask: 0b01, split_accum_iter_mask: 0b11, llc_dsbl_mapping_corr: 1,
    });
    r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
    runFeed(r, feed);
    const wba = u.cmp.acc.wba;
    for (let m = 0; m < 128; m++)
      for (let col = 0; col < 128; col++) {
        // the FP8 value of A[col][m] (RFP16 code with EB 0, E + 1), exactly
        const f16 = fp8ToFp16Raw(A[col]![m]!, 1);
        const mag = f16 & 0x7fff;
        const v = mag === 0 ? 0 : (1 + (mag & 0x3ff) / 1024) * 2 ** (mag >> 10) * (f16 & 0x8000 ? -1 : 1);
        if (wba[m * 128 + col] !== v) expect(wba[m * 128 + col], `A^T[${m}][${col}]`).toBe(v);
      }
  });

  it('through AMEM Read: FP8 tensor rows -> read datapath -> sbReadToGrid -> GV (integration)', () => {
    const r = new Rig();
    const u = r.uie;
    const rnd = rng(5);
    const K = 16;
    const bytes = new Uint8Array(K * 128);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (rnd() & 0x7f) | (rnd() & 0x80 ? 0x80 : 0) || 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x80) bytes[i] = 0x81;
    r.amem.writeBytes(0, bytes);
    const h: number[] = [];
    for (let k = 0; k < K; k++) h.push(i5f3(rnd, 14, 5));
    for (let k = 0; k < K; k++) u.cmp.hbuf.data[(k >> 3) * 8 + (k & 7)] = h[k]!; // grid-row 0, vgr 0
    u.cmp.hbuf.rdCredits = 1024;
    r.prog('amem_read', 0, loops([{ n: K }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP8', tgt_fifo: 'Grid', iter_stride: strides(8) });
    r.prog('gh', 0, gloops([{ n: K / 8 }]), { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_1X1_MATMUL_FP8', end_grid_row_idx: 0, hbuf_stride_dim1: 8, hbuf_stride_iter_id_dim1: 0 });
    r.prog('gv', 0, gloops([{ n: K / 8 }, { n: 8 }]), { opcd: 'Read_AMEM_FIFO', staging_start_iter_mask: 0b10, eb_adj: 4 });
    r.prog('gx', 0, { eopgm: 0 }, { ...EXEC_CONFIG, end_grid_row_idx: 0 });
    // one exec per group (slot 0): front_staging_done on every exec
    r.prog('gx', 1, gloops([{ n: K / 8 }, { n: 1 }], 1, 1), { opcd: 'Exec_Valid', accum_idx_iter_id: 1, front_staging_done_iter_mask: 0b10, zero_accum_iter_mask: 0b01 });
    r.trip({ trip_valid_mask: seqMask(AR, GH, GV, GX) });
    runFeed(r);
    const aa = u.cmp.acc.aa;
    for (let col = 0; col < 128; col++) {
      let acc = 0;
      for (let g = 0; g < K / 8; g++) {
        const hs = h.slice(g * 8, g * 8 + 8).map(lnsI5F3ToI5F10);
        const vs = hs.map((_, i) => linToLog(fp8ToFp16Raw(bytes[(g * 8 + i) * 128 + col]!, 0), { ebAdj: 4 }));
        acc = llcRef(acc, hs, vs, true);
      }
      expect(aa[col], `col ${col}`).toBe(acc);
    }
  });
});
