/**
 * Vbuffer bank ownership (seq §13.3): "Each bank can have only one vbuff-writing sequencer (swbox-to-vbuff or
 * vpu-to-vbuff) which owns the write access to that bank - and both tiles in the bank" and likewise one reading
 * sequencer (vbuff-to-swbox or vbuff-to-vpu). 4 banks x 2 tiles: tile t is in bank floor(t / 2). A second owner in
 * the same trip is error SIM0650 (spec section, sequencer pc); tiles of different banks, or the same sequencer on both
 * tiles of a bank, are legal.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '@pyxis/diagnostics';
import type { FieldValues } from '@pyxis/codec';
import { Rig, loops, strides } from './uie-fixture.js';

const SEQ = { amem_read: 0, amem_write: 1, vi: 8, sb2vb: 9, vb2sb: 10, vpu2vb: 11, vb2vpu: 12 };
const mask = (...names: Array<keyof typeof SEQ>) => names.reduce((m, n) => m | (1 << SEQ[n]), 0);
const bankOf = (tile: number) => tile >> 1; // seq §13.3: two logical tiles per bank

/**
 * AMEM -> SB2VB -> tile `a` -> VB2VPU -> VPU (MOV, push) -> VPU2VB -> tile `b`: two writers (SB2VB on `a`, VPU2VB on `b`).
 */
function writers(a: number, b: number): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const r = new Rig({ onDiagnostic: (d) => diags.push(d) });
  r.prog('amem_read', 0, loops([{ n: 1 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
  r.prog('sb2vb', 0, loops([{ n: 1 }]), { opcd: 'WR_VLD', wr_tile_idx: a, src_select: 'AMEM_FIFO' });
  r.prog('vb2vpu', 0, loops([{ n: 1 }]), { opcd: 'RD_VLD', rd_tile_idx: a });
  r.prog('vi', 3, loops([{ n: 1 }], 1, 3), { opcd: 'Generate_VPU_Program', vpv_pgm_start_addr: 0, vpv_pgm_instr_count: 1 });
  const mov: FieldValues = { opcode: 'MOV', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', wr_gpr_en: 1, in_fifo_pop: 1, out_fifo_push: 1 };
  r.table('vpu.imem', 0, mov);
  r.prog('vpu2vb', 5, loops([{ n: 1 }], 1, 5), { opcd: 'WR_VLD', wr_tile_idx: b });
  const start = new Array(13).fill(0);
  start[SEQ.vi] = 3;
  start[SEQ.vpu2vb] = 5;
  r.trip({ trip_valid_mask: mask('amem_read', 'sb2vb', 'vb2vpu', 'vi', 'vpu2vb'), start_pc: start });
  try {
    r.run(5000);
  } catch (e) {
    // after the error the refused write never happens: the bare UIE rig reports it stuck (a chip run stops at the error)
    if (!diags.some((x) => x.code === 'SIM0650')) throw e;
  }
  return diags;
}

describe('Vbuffer bank ownership (seq §13.3)', () => {
  it('SB2VB writing tile 0 and VPU2VB writing tile 1 share bank 0: SIM0650 names the bank, the owner and the pc', () => {
    expect(bankOf(0)).toBe(bankOf(1));
    const d = writers(0, 1).filter((x) => x.code === 'SIM0650');
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe('error');
    // whichever writer reaches the bank second is refused (VPU2VB claims the bank when its WR_VLD issues)
    const m = d[0]!.message.match(/: (sb2vb|vpu2vb) writes Vbuffer bank 0 \(tile ([01])\) while (sb2vb|vpu2vb) owns its write port/);
    expect(m, d[0]!.message).not.toBeNull();
    expect(m![1]).not.toBe(m![3]);
    expect(Number(m![2])).toBe(m![1] === 'sb2vb' ? 0 : 1);
    expect(d[0]!.spec).toMatch(/§13\.3/);
    expect(d[0]!.notes).toContain(m![1] === 'sb2vb' ? 'sequencer sb2vb, pc 0' : 'sequencer vpu2vb, pc 5');
  });
  it('tiles 0 and 2 are in different banks: no diagnostic', () => {
    expect(bankOf(0)).not.toBe(bankOf(2));
    expect(writers(0, 2).filter((x) => x.severity === 'error')).toEqual([]);
  });
  it('tiles 6 and 7 share bank 3 (the last bank)', () => {
    expect(writers(6, 7).filter((x) => x.code === 'SIM0650').map((x) => x.message)).toEqual([expect.stringMatching(/writes Vbuffer bank 3 \(tile [67]\)/)]);
  });
});
