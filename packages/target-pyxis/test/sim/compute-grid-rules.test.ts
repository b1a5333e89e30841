/**
 * Programs that break the grid's rules end with a diagnostic (SIM0630..SIM0639) citing the section and the
 * sequencer/pc, never with a hang (seq §1.2-§1.4, §10.1.2, §10.2, §10.3, §10.3.1-§10.3.2).
 */
import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { linToLog } from '@pyxis/formats';
import { GridCodes } from '../../src/sim/uie/compute/grid.js';
import { toOp } from '../../src/sim/uie/compute/llc.js';
import { GH, GV, GX, gloops, Rig, runFeed, seqMask, thrownCode } from './compute-grid-rig.js';

const CONFIG = { opcd: 'Exec_Config', end_grid_row_idx: 15, log2_active_ptns: 3, odd_col_exec_en: 1, even_col_exec_en: 1 };
const RD8 = { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_1X1_MATMUL_FP8', end_grid_row_idx: 15 };

/** A 1x1 trip of `groups` groups of 8 with zero data; `gx` overrides the Exec_Valid fields. */
function oneByOne(groups: number, gx: Record<string, number | string>, gxLoops = [{ n: groups }, { n: 8 }]): Rig {
  const r = new Rig();
  r.prog('gh', 0, gloops([{ n: groups }, { n: 8 }]), RD8);
  r.prog('gv', 0, gloops([{ n: groups }, { n: 8 }]), { opcd: 'Read_Zero', staging_start_iter_mask: 0b10 });
  r.prog('gx', 0, { eopgm: 0 }, CONFIG);
  r.prog('gx', 1, gloops(gxLoops, 1, 1), { opcd: 'Exec_Valid', accum_idx_iter_id: 1, front_staging_done_iter_mask: 0b10, ...gx });
  r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
  return r;
}

describe('LLC grid: rule violations', () => {
  it('a well-formed program runs (control for the cases below)', () => {
    const r = oneByOne(3, { zero_accum_iter_mask: 0b01, split_accum_iter_mask: 0b11 });
    expect(() => runFeed(r)).not.toThrow();
    expect(r.uie.cmp.stats.execValid).toBe(24);
  });

  it('SIM0633: an AA read within 8 executions after a split (zero_accum missing, seq §10.3.1)', () => {
    expect(thrownCode(() => runFeed(oneByOne(2, { split_accum_iter_mask: 0b10 })))).toBe(GridCodes.aaPort);
  });

  it('SIM0637: a split after an accumulation that wrote only 4 of the 8 accumulator slots (seq §1.3)', () => {
    const gx = { front_staging_done_iter_mask: 0b110, split_accum_iter_mask: 0b100, zero_accum_iter_mask: 0b001 };
    expect(thrownCode(() => runFeed(oneByOne(1, gx, [{ n: 1 }, { n: 2 }, { n: 4 }])))).toBe(GridCodes.slots);
  });

  it('SIM0632: accumulator slot outside 0..7', () => {
    expect(thrownCode(() => runFeed(oneByOne(1, {}, [{ n: 1 }, { n: 16 }])))).toBe(GridCodes.slot);
  });

  it('SIM0635: a second writeback kick with no GWB program to return the credits', () => {
    const r = oneByOne(2, { zero_accum_iter_mask: 0b10, split_accum_iter_mask: 0b10, wb_kick_iter_mask: 0b10 }, [{ n: 2 }, { n: 8 }]);
    // zero_accum on slot 0 only would read the AA during the split: zero the whole group instead (iter1 == 0 is one exec)
    r.prog('gx', 1, gloops([{ n: 2 }, { n: 8 }], 1, 1), {
      opcd: 'Exec_Valid', accum_idx_iter_id: 1, front_staging_done_iter_mask: 0b10, zero_accum_iter_mask: 0b100, split_accum_iter_mask: 0b10, wb_kick_iter_mask: 0b10,
    });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.wbCredits);
  });

  it('SIM0634: GH waits for Hbuf credits and no WDP program can deliver them', () => {
    const r = new Rig();
    r.prog('gh', 0, gloops([{ n: 1 }]), { ...RD8, hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_iter_mask: 0 });
    r.trip({ trip_valid_mask: seqMask(GH) });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.hbufCredits);
  });

  it('SIM0636: hbuf_block_size 0 with a block start', () => {
    const r = new Rig();
    r.uie.cmp.hbuf.rdCredits = 64;
    r.prog('gh', 0, gloops([{ n: 1 }]), { ...RD8, hbuf_block_size: 0, hbuf_block_start_en: 1 });
    r.trip({ trip_valid_mask: seqMask(GH) });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.blockSize);
  });

  it('SIM0631: staging start in the middle of a fill, and a trip ending mid-fill (seq §1.2 multiples of 8)', () => {
    const r = new Rig();
    r.prog('gv', 0, gloops([{ n: 2 }, { n: 6 }]), { opcd: 'Read_Zero', staging_start_iter_mask: 0b10 });
    r.trip({ trip_valid_mask: seqMask(GV) });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.stagingFill);
    const r2 = new Rig();
    r2.prog('gv', 0, gloops([{ n: 4 }]), { opcd: 'Read_Zero' });
    r2.trip({ trip_valid_mask: seqMask(GV) });
    expect(thrownCode(() => runFeed(r2))).toBe(GridCodes.stagingFill);
  });

  it('GV Read_VPU_FIFO pops the Vbuffer -> grid switchbox FIFO (chip Table 6-3) into v_staging', () => {
    const r = new Rig();
    const rows: Uint16Array[] = [];
    for (let k = 0; k < 8; k++) rows.push(Uint16Array.from({ length: 128 }, (_, c) => (c * 37 + k * 1000) & 0x7fff));
    r.prog('gv', 0, gloops([{ n: 8 }]), { opcd: 'Read_VPU_FIFO', staging_start_iter_mask: 0b1, eb_adj: -3 });
    r.trip({ trip_valid_mask: seqMask(GV) });
    const u = r.uie;
    let i = 0;
    while (u.busy && r.now < 1000) {
      if (i < rows.length && !u.sbVbufferToGrid.full) u.sbVbufferToGrid.pushColumns(rows[i++]!);
      u.tick(r.now++);
    }
    const g = u.cmp.gh.grid;
    expect(g.vBackFull).toBe(true);
    for (let k = 0; k < 8; k++) for (let c = 0; c < 128; c += 17) expect(g.vBack[c * 8 + k]).toBe(toOp(linToLog(rows[k]![c]!, { ebAdj: -3 })));
  });

  it('SIM0638: 3x3 Exec_Valid before 3 data-rows reached the window (no bubbles)', () => {
    const r = new Rig();
    r.uie.cmp.hbuf.rdCredits = 16;
    r.prog('gh', 0, gloops([{ n: 1 }]), { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', h_staging_done_en: 1, h_staging_filter_iter_id: 0 });
    r.prog('gv', 0, gloops([{ n: 8 }]), { opcd: 'Read_Zero', conv3x3_mode: 1 });
    r.prog('gx', 0, gloops([{ n: 8 }]), { opcd: 'Exec_Valid', conv3x3_mode: 1, accum_idx_iter_id: 0 });
    r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.window);
  });

  it('SIM0638: the second input channel starts with one Exec_Bubble only (window holds a row of the previous channel)', () => {
    const r = new Rig();
    r.prog('gh', 0, gloops([{ n: 2 }, { n: 1 }]), { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', h_staging_done_en: 1, h_staging_filter_iter_id: 1, hbuf_stride_dim1: 9 });
    r.prog('gv', 0, gloops([{ n: 19 }]), { opcd: 'Read_Zero', conv3x3_mode: 1 });
    const x3 = { conv3x3_mode: 1, accum_idx_iter_id: 2 };
    r.prog('gx', 0, { eopgm: 0, iter1_is_eol: 1, iter1_sol_pc: 0, iter1_numloops: 2, iter1_numloops_final: 2 }, { opcd: 'Exec_Bubble', conv3x3_mode: 1 });
    r.prog('gx', 1, { eopgm: 0, iter2_is_eol: 1, iter2_sol_pc: 1, iter2_numloops: 8, iter2_numloops_final: 8 }, { opcd: 'Exec_Valid', ...x3, front_staging_done_iter_mask: 0b100 });
    r.prog('gx', 2, { eopgm: 0 }, { opcd: 'Exec_Bubble', conv3x3_mode: 1 });
    r.prog('gx', 3, { eopgm: 1, iter2_is_eol: 1, iter2_sol_pc: 3, iter2_numloops: 8, iter2_numloops_final: 8 }, { opcd: 'Exec_Valid', ...x3 });
    r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.window);
  });

  it('SIM0630: conv3x3_mode changed within a GX trip', () => {
    const r = new Rig();
    r.prog('gx', 0, { eopgm: 0 }, { ...CONFIG, conv3x3_mode: 0 });
    r.prog('gx', 1, gloops([{ n: 1 }], 1, 1), { opcd: 'Exec_Config', conv3x3_mode: 1 });
    r.trip({ trip_valid_mask: seqMask(GX) });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.mode);
  });

  it('SIM0639: RD_3X3 kernels while GX runs 1x1', () => {
    const r = new Rig();
    r.prog('gh', 0, gloops([{ n: 1 }]), { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', h_staging_done_en: 1 });
    r.prog('gv', 0, gloops([{ n: 8 }]), { opcd: 'Read_Zero', staging_start_iter_mask: 0b1 });
    r.prog('gx', 0, gloops([{ n: 1 }]), { opcd: 'Exec_Valid' });
    r.trip({ trip_valid_mask: seqMask(GH, GV, GX) });
    expect(thrownCode(() => runFeed(r))).toBe(GridCodes.readCmd);
  });

  it('a 3x3 trip followed by a 1x1 trip: the next trip GH may run ahead without a mode error', () => {
    const r = new Rig();
    // trip 1: one 3x3 input channel (pc 0..1 of GX)
    r.prog('gh', 0, gloops([{ n: 1 }, { n: 1 }]), { opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', h_staging_done_en: 1, h_staging_filter_iter_id: 1 });
    r.prog('gv', 0, gloops([{ n: 10 }]), { opcd: 'Read_Zero', conv3x3_mode: 1 });
    r.prog('gx', 0, { eopgm: 0, iter1_is_eol: 1, iter1_sol_pc: 0, iter1_numloops: 2, iter1_numloops_final: 2 }, { opcd: 'Exec_Bubble', conv3x3_mode: 1 });
    r.prog('gx', 1, { eopgm: 1, iter2_is_eol: 1, iter2_sol_pc: 1, iter2_numloops: 8, iter2_numloops_final: 8 }, {
      opcd: 'Exec_Valid', conv3x3_mode: 1, accum_idx_iter_id: 2, front_staging_done_iter_mask: 0b100, zero_accum_iter_mask: 0b001, split_accum_iter_mask: 0b100,
    });
    // trip 2: one 1x1 group (pc 4)
    r.prog('gh', 4, gloops([{ n: 1 }, { n: 8 }], 1, 4), RD8);
    r.prog('gv', 4, gloops([{ n: 1 }, { n: 8 }], 1, 4), { opcd: 'Read_Zero', staging_start_iter_mask: 0b10 });
    r.prog('gx', 4, gloops([{ n: 1 }, { n: 8 }], 1, 4), { opcd: 'Exec_Valid', accum_idx_iter_id: 1, front_staging_done_iter_mask: 0b10, zero_accum_iter_mask: 0b01 });
    const pcs = (pc: number): number[] => Array.from({ length: 13 }, (_, i) => (i === GH || i === GV || i === GX ? pc : 0));
    expect(r.trip({ trip_id: 1, trip_valid_mask: seqMask(GH, GV, GX), start_pc: pcs(0) })).toBe(true);
    expect(r.trip({ trip_id: 2, trip_valid_mask: seqMask(GH, GV, GX), start_pc: pcs(4) })).toBe(true);
    expect(() => runFeed(r)).not.toThrow();
    expect(r.uie.cmp.stats.execValid).toBe(16);
    expect(r.done.map((d) => d.trip)).toEqual([1, 2]);
  });

  it('diagnostics name the sequencer and pc', () => {
    try {
      runFeed(oneByOne(2, { split_accum_iter_mask: 0b10 }));
    } catch (e) {
      expect(e).toBeInstanceOf(DiagnosticError);
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.notes?.join(' ')).toMatch(/sequencer gx, pc 1/);
      expect(d.spec).toMatch(/§10\.3\.1/);
      return;
    }
    expect.unreachable();
  });
});
