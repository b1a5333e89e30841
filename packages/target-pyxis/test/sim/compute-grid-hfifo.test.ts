/**
 * The GH -> GX h_data FIFO depth (grammars/pyxis/sim_config.json grid.h_fifo_depth, seq §10.1; docs/timing-model.md
 * "Pyxis grid"): GH pushes one h_data entry per HBUF_RD_VLD and stalls when `h_fifo_depth` entries wait for GX. Here
 * GX is held (its v_staging front buffer never fills: GV gets no rows for the first cycles), GH has 8 reads to issue,
 * so the FIFO holds exactly min(depth, 8) entries while GX waits, at the shipped depth and at perturbed ones. A mutation of the depth (e.g. depth 1, which changes nothing on the
 * samples) fails this test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultSimConfig } from '../../src/sim/config.js';
import { GH, GV, GX, gloops, Rig, seqMask } from './compute-grid-rig.js';

const shipped = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/sim_config.json', import.meta.url)), 'utf8')) as { grid: { h_fifo_depth: number } };
const EXEC_CONFIG = { opcd: 'Exec_Config', end_grid_row_idx: 0, log2_active_ptns: 3, odd_col_exec_en: 1, even_col_exec_en: 1 };
const READS = 8;
const HOLD = 40;

/** Max h_data FIFO occupancy while GX waits. */
function occupancy(depth: number): number {
  const base = defaultSimConfig();
  const r = new Rig({ params: { ...base, grid: { ...base.grid, h_fifo_depth: depth } } });
  r.uie.cmp.hbuf.rdCredits = 1024;
  r.prog('gh', 0, gloops([{ n: READS }]), { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_1X1_MATMUL_FP8', end_grid_row_idx: 0, hbuf_stride_dim1: 8, hbuf_stride_iter_id_dim1: 0 });
  r.prog('gv', 0, gloops([{ n: 1 }, { n: 8 }]), { opcd: 'Read_AMEM_FIFO', staging_start_iter_mask: 0b10, eb_adj: 4 });
  r.prog('gx', 0, { eopgm: 0 }, EXEC_CONFIG);
  r.prog('gx', 1, gloops([{ n: READS }, { n: 1 }], 1, 1), { opcd: 'Exec_Valid', accum_idx_iter_id: 1, front_staging_done_iter_mask: 0b10, zero_accum_iter_mask: 0b01 });
  r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
  const u = r.uie;
  const grid = u.cmp.gh.grid;
  let max = 0;
  for (let c = 0; c < HOLD; c++) {
    u.tick(r.now++);
    max = Math.max(max, grid.hCount);
  }
  return max;
}

describe('GH -> GX h_data FIFO depth (sim_config grid.h_fifo_depth)', () => {
  for (const depth of [shipped.grid.h_fifo_depth, 1, 2, 6]) {
    it(`depth ${depth}: GH fills exactly min(depth, ${READS}) entries while GX waits, GH stalls`, () => {
      expect(occupancy(depth)).toBe(Math.min(depth, READS));
    });
  }
});
