/**
 * The AMEM read pipeline's latency seen by the grid (docs/timing-model.md "AMEM banks", "Pyxis grid"): an AMEM Read
 * flit is pushed into the AMEM -> grid switchbox FIFO in its issue cycle but may be consumed (by GV, like AMEM Write
 * and SB2VB) only L = request_shim_cycles + read_latency_cycles + switch_convert_cycles after its bank access
 * (grammars/pyxis/sim_config.json `amem`). Expected cycles are derived here:
 *
 *  - the AMEM Read core issues record i in cycle i, the read datapath reads row i in cycle i + 1 (uie-timing.test.ts);
 *  - a unit ticks before the read datapath in a cycle, so a flit read in cycle c is consumable from c + max(L, 1);
 *    the AMEM -> grid FIFO is 4 deep: a read needs a free entry (one GV frees in the same cycle counts);
 *  - GV pops one row per cycle; its back buffer of 8 rows becomes the front 1 + grid_fill_latency_cycles after its
 *    8th row when the grid was idle; GX then issues its Exec_Valid; the trip is done llc_pipeline_latency_cycles
 *    after its last Exec (compute-grid-matmul.test.ts), the count being the cycles ticked until the UIE is idle.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Amem } from '../../src/sim/amem/index.js';
import { loops, strides } from './uie-fixture.js';
import { AR, GH, GV, GX, gloops, Rig, runFeed, seqMask } from './compute-grid-rig.js';

const cfg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/sim_config.json', import.meta.url)), 'utf8')) as {
  amem: { read_latency_cycles: number; request_shim_cycles: number; switch_convert_cycles: number; write_commit_latency_cycles: number };
  grid: { grid_fill_latency_cycles: number; llc_pipeline_latency_cycles: number };
};
const EXEC_CONFIG = { opcd: 'Exec_Config', end_grid_row_idx: 0, log2_active_ptns: 3, odd_col_exec_en: 1, even_col_exec_en: 1 };

/** One 8-row group: AMEM Read -> grid FIFO -> GV, one Exec_Valid. `amem` with or without the read pipeline. */
function trip(timing: typeof cfg.amem | undefined): number {
  const amem = timing ? new Amem('c0.amem', timing) : new Amem();
  const r = new Rig({ amem });
  r.uie.cmp.hbuf.rdCredits = 1024;
  r.prog('amem_read', 0, loops([{ n: 8 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP8', tgt_fifo: 'Grid', iter_stride: strides(8) });
  r.prog('gh', 0, gloops([{ n: 1 }]), { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_1X1_MATMUL_FP8', end_grid_row_idx: 0, hbuf_stride_dim1: 8, hbuf_stride_iter_id_dim1: 0 });
  r.prog('gv', 0, gloops([{ n: 1 }, { n: 8 }]), { opcd: 'Read_AMEM_FIFO', staging_start_iter_mask: 0b10, eb_adj: 4 });
  r.prog('gx', 0, { eopgm: 0 }, EXEC_CONFIG);
  r.prog('gx', 1, gloops([{ n: 1 }, { n: 1 }], 1, 1), { opcd: 'Exec_Valid', accum_idx_iter_id: 1, front_staging_done_iter_mask: 0b10, zero_accum_iter_mask: 0b01 });
  r.trip({ trip_valid_mask: seqMask(AR, GH, GV, GX) });
  return runFeed(r);
}

describe('switchbox read latency in a compute trip (AMEM Read -> GV)', () => {
  const expected = (L: number) => {
    // row i read at r_i (needs a credit of the 4-deep switchbox FIFO: a slot GV freed in the same cycle counts),
    // popped by GV at p_i = max(r_i + max(L, 1), p_{i-1} + 1)
    const DEPTH = 4;
    const r: number[] = [];
    const p: number[] = [];
    for (let i = 0; i < 8; i++) {
      r.push(Math.max(i + 1, i >= DEPTH ? p[i - DEPTH]! : 0));
      p.push(Math.max(r[i]! + Math.max(L, 1), i > 0 ? p[i - 1]! + 1 : 0));
    }
    const firstExec = p[7]! + 1 + cfg.grid.grid_fill_latency_cycles;
    return firstExec + 1 + cfg.grid.llc_pipeline_latency_cycles;
  };
  it('idealised AMEM (no read pipeline): GV takes row i the cycle after its read', () => {
    expect(trip(undefined)).toBe(expected(0));
  });
  it('with the sim_config read pipeline, GV cannot consume a flit before its data is there (L - 1 cycles longer; a latency beyond the FIFO depth throttles the reads)', () => {
    const L = cfg.amem.request_shim_cycles + cfg.amem.read_latency_cycles + cfg.amem.switch_convert_cycles;
    expect(L).toBeGreaterThan(1);
    expect(trip(cfg.amem)).toBe(expected(L));
    // perturbed: a longer bank read latency (beyond the 4-deep FIFO: the reads wait for credits)
    expect(trip({ ...cfg.amem, read_latency_cycles: cfg.amem.read_latency_cycles + 5 })).toBe(expected(L + 5));
  });
});
