/**
 * Split accumulation vs writeback (seq §10.3.2) with the GWB unit: two short tiles back to back. Tile 1's first split
 * may only overwrite a WBA slot after GWB offloaded that slot of the last grid-row (writeback credits), so tile 0's
 * results reach AMEM intact although tile 1's computation is much shorter than the 128-flit offload.
 */
import { describe, expect, it } from 'vitest';
import { fp16ToFp8Raw, linToLog, lnsI5F3ToI5F10 } from '@pyxis/formats';
import { wbaToFp16 } from '../../src/sim/uie/compute/gwb.js';
import { strides } from './uie-fixture.js';
import { llcRef, splitRef } from './compute-grid-ref.js';
import { AR, GH, GV, GWB, GX, gloops, i5f3, Rig, rfp16, rng, runFeed, seqMask } from './compute-grid-rig.js';

const AW = 1;

describe('LLC grid: split accumulation and writeback credits', () => {
  it('two tiles: the second tile waits for writeback credits and both tiles are written back exactly', () => {
    const tiles = 2;
    const K = 16; // 2 groups of 8 per tile: 16 Exec_Valid, far shorter than a 128-flit writeback
    const r = new Rig();
    const u = r.uie;
    const hb = u.cmp.hbuf;
    const rnd = rng(2024);
    // A[t][m][k] in grid-row m >> 3 at tile * 1024 + vgr * 128 + k
    const A: number[][][] = [];
    for (let t = 0; t < tiles; t++) {
      A.push([]);
      for (let m = 0; m < 128; m++) {
        const row = Array.from({ length: K }, () => i5f3(rnd, 12, 4));
        A[t]!.push(row);
        for (let k = 0; k < K; k++) hb.data[(m >> 3) * 4096 + t * 1024 + (m & 7) * 128 + k] = row[k]!;
      }
    }
    const B: Uint16Array[] = [];
    for (let k = 0; k < tiles * K; k++) B.push(Uint16Array.from({ length: 128 }, () => rfp16(rnd, 0, 10)));
    r.prog('gh', 0, gloops([{ n: tiles }, { n: K / 8 }, { n: 8 }]), {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_1X1_MATMUL_FP8', hbuf_stride_dim1: 1024, hbuf_stride_iter_id_dim1: 0, hbuf_stride_dim2: 8,
      hbuf_stride_iter_id_dim2: 1, hbuf_stride_dim3: 128, hbuf_stride_iter_id_dim3: 2,
    });
    r.prog('gv', 0, gloops([{ n: (tiles * K) / 8 }, { n: 8 }]), { opcd: 'Read_AMEM_FIFO', staging_start_iter_mask: 0b10 });
    r.prog('gx', 0, gloops([{ n: tiles }, { n: K / 8 }, { n: 8 }]), {
      opcd: 'Exec_Valid', accum_idx_iter_id: 2, front_staging_done_iter_mask: 0b100, zero_accum_iter_mask: 0b010,
      split_accum_iter_mask: 0b110, wb_kick_iter_mask: 0b110,
    });
    r.prog('gwb', 0, gloops([{ n: tiles }, { n: 16 }]), { opcd: 'Read_WBA', tgt_fifo: 'AMEM', grid_row_iter_id: 1, wb_done_iter_mask: 0b10 });
    r.prog('amem_write', 0, gloops([{ n: tiles * 128 }]), { opcd: 'Write', data_type: 'Recogni_FP8', src_fifo: 'Grid', iter_stride: strides(8) });
    r.trip({ trip_valid_mask: seqMask(GH, GV, GX, GWB, AW), amem_write_base_address: 0x10000 });
    runFeed(r, B);
    const st = u.cmp.stats;
    expect(st.splits).toBe(tiles);
    expect(st.writebacks).toBe(tiles);
    expect(st.stallWbCredits).toBeGreaterThan(0); // tile 1's split waited for the offload of tile 0
    expect(u.cmp.acc.wbCredits).toBe(8);
    expect(u.cmp.acc.wbPending).toBe(0);
    // expected AMEM bytes: row t * 128 + m, column c = FP8(FP16(WBA))
    const bad: string[] = [];
    const out = r.amem.readBytes(0x10000 * 16, tiles * 128 * 128);
    for (let t = 0; t < tiles; t++)
      for (let m = 0; m < 128; m++)
        for (let c = 0; c < 128; c++) {
          let acc = 0;
          for (let g = 0; g < K / 8; g++) {
            const hs = A[t]![m]!.slice(g * 8, g * 8 + 8).map(lnsI5F3ToI5F10);
            const vs = hs.map((_, i) => linToLog(B[t * K + g * 8 + i]![c]!));
            acc = llcRef(acc, hs, vs, true);
          }
          const want = fp16ToFp8Raw(wbaToFp16(splitRef(acc, 0), 0), 0);
          const got = out[(t * 128 + m) * 128 + c]!;
          if (got !== want && bad.length < 5) bad.push(`tile ${t} row ${m} col ${c}: ${got} != ${want}`);
        }
    expect(bad).toEqual([]);
  });
});
