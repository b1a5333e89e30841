/**
 * Diagnostics of VPU programs (issue 11 "Checks"): a VPU program that reads a register no instruction wrote
 * (SIM0655, chip §6.4), runs past the 1K-word instruction memory (SIM0656, seq §12) or leaves a Vbuffer tile's
 * scratchpad_count non-zero at trip end (SIM0652, seq §13.2) gets an error carrying the spec section and the
 * sequencer program counter (note "sequencer <name>, pc <n>" and a span into the op words), plus the VPU
 * instruction address where one exists. Programs start at non-zero PCs so a PC of 0 cannot pass by accident.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '@pyxis/diagnostics';
import type { FieldValues } from '@pyxis/codec';
import { Rig, loops, mm, strides } from './uie-fixture.js';

const SEQ = { amem_read: 0, amem_write: 1, vi: 8, sb2vb: 9, vb2sb: 10, vpu2vb: 11, vb2vpu: 12 };
const mask = (...names: Array<keyof typeof SEQ>) => names.reduce((m, n) => m | (1 << SEQ[n]), 0);

function rig(): { r: Rig; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  return { r: new Rig({ onDiagnostic: (d) => diags.push(d) }), diags };
}

/** The op-word byte offset of `pc` of sequencer `name` in the cfg space (the span a diagnostic points at). */
function opOffset(name: string, pc: number): number {
  const s = mm.sequencers.find((q) => q.name === name)!;
  return s.op.offset + pc * s.op.stride;
}

function startPcs(pcs: Partial<Record<keyof typeof SEQ, number>>): number[] {
  const a = new Array(13).fill(0);
  for (const [k, v] of Object.entries(pcs)) a[SEQ[k as keyof typeof SEQ]] = v;
  return a;
}

/** A one-row AMEM -> Vbuffer -> VPU path with VI at pc `viPc` issuing `program` placed at VPU address `at`. */
function vpuRow(r: Rig, viPc: number, at: number, program: FieldValues[], count = program.length): void {
  r.prog('amem_read', 0, loops([{ n: 1 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
  r.prog('sb2vb', 0, loops([{ n: 1 }]), { opcd: 'WR_VLD', wr_tile_idx: 0, src_select: 'AMEM_FIFO' });
  r.prog('vb2vpu', 0, loops([{ n: 1 }]), { opcd: 'RD_VLD', rd_tile_idx: 0 });
  r.prog('vi', viPc, loops([{ n: 1 }], 1, viPc), { opcd: 'Generate_VPU_Program', vpv_pgm_start_addr: at, vpv_pgm_instr_count: count });
  program.forEach((ins, i) => r.table('vpu.imem', at + i, ins));
  r.trip({ trip_valid_mask: mask('amem_read', 'sb2vb', 'vb2vpu', 'vi'), start_pc: startPcs({ vi: viPc }) });
}

describe('VPU program diagnostics carry the spec section and the PC', () => {
  it('SIM0655: reading a GPR no instruction wrote (chip §6.4): VPU address and VI pc', () => {
    const { r, diags } = rig();
    vpuRow(r, 3, 20, [
      { opcode: 'MOV', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', wr_gpr_en: 1, in_fifo_pop: 1 },
      { opcode: 'ADD', dtype: 'FP16', rd: 2, rs1: 1, rs2: 7, src1_sel: 'GPR', src2_sel: 'GPR', wr_gpr_en: 1 },
    ]);
    r.run();
    const d = diags.find((x) => x.code === 'SIM0655');
    expect(d, JSON.stringify(diags)).toBeDefined();
    expect(d!.severity).toBe('error');
    expect(d!.message).toMatch(/VPU instruction 21 reads GPR r7 before any instruction wrote it/);
    expect(d!.spec).toMatch(/§6\.4/);
    expect(d!.notes).toContain('sequencer vi, pc 3');
    expect(d!.span).toMatchObject({ offset: opOffset('vi', 3) });
  });

  it('SIM0655 also for the accumulator of MAC and the old rd of a predicated instruction', () => {
    const bads: FieldValues[] = [
      { opcode: 'MAC', dtype: 'FP16', rd: 9, rs1: 1, rs2: 1, src1_sel: 'GPR', src2_sel: 'GPR', wr_gpr_en: 1 },
      { opcode: 'ADD', dtype: 'FP16', rd: 9, rs1: 1, rs2: 1, src1_sel: 'GPR', src2_sel: 'GPR', wr_gpr_en: 1, pred_en: 1 },
    ];
    for (const bad of bads) {
      const { r, diags } = rig();
      vpuRow(r, 1, 0, [{ opcode: 'MOV', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', wr_gpr_en: 1, in_fifo_pop: 1 }, bad]);
      r.run();
      const d = diags.find((x) => x.code === 'SIM0655');
      expect(d?.message, String(bad['opcode'])).toMatch(/VPU instruction 1 reads GPR r9/);
      expect(d!.notes).toContain('sequencer vi, pc 1');
    }
  });

  it('no diagnostic once an earlier instruction wrote the register', () => {
    const { r, diags } = rig();
    vpuRow(r, 2, 4, [
      { opcode: 'MOV', dtype: 'FP16', rd: 7, src1_sel: 'IN_FIFO', wr_gpr_en: 1, in_fifo_pop: 1 },
      { opcode: 'ADD', dtype: 'FP16', rd: 2, rs1: 7, rs2: 7, src1_sel: 'GPR', src2_sel: 'GPR', wr_gpr_en: 1 },
    ]);
    r.run();
    expect(diags).toEqual([]);
  });

  it('SIM0656: a program running past the 1K-word instruction memory (seq §12): start, count and VI pc', () => {
    const { r, diags } = rig();
    vpuRow(r, 5, 1000, [{ opcode: 'MOV', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', wr_gpr_en: 1, in_fifo_pop: 1 }], 30);
    r.run();
    const d = diags.find((x) => x.code === 'SIM0656');
    expect(d, JSON.stringify(diags)).toBeDefined();
    expect(d!.severity).toBe('error');
    expect(d!.message).toMatch(/VPU program at 1000 with 30 instructions runs past the 1K-word instruction memory/);
    expect(d!.spec).toMatch(/§12/);
    expect(d!.notes).toContain('sequencer vi, pc 5');
    expect(d!.span).toMatchObject({ offset: opOffset('vi', 5) });
  });

  it('SIM0656 not raised for a program ending exactly at the last word (1000 + 24 = 1024)', () => {
    const { r, diags } = rig();
    const prog: FieldValues[] = [{ opcode: 'MOV', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', wr_gpr_en: 1, in_fifo_pop: 1 }];
    for (let i = 1; i < 24; i++) prog.push({ opcode: 'NOP' });
    vpuRow(r, 5, 1000, prog);
    r.run();
    expect(diags.filter((x) => x.code === 'SIM0656')).toEqual([]);
  });

  it('SIM0652: scratchpad_count left non-zero (seq §13.2): the incrementing writer pc, never decremented', () => {
    const { r, diags } = rig();
    r.prog('amem_read', 0, loops([{ n: 2 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
    r.prog('sb2vb', 2, loops([{ n: 2 }], 1, 2), { opcd: 'WR_VLD', wr_tile_idx: 3, src_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_incr_amt: 1, wr_addr_iter_vld: 1, wr_addr_iter_id: 0 });
    r.trip({ trip_id: 7, trip_valid_mask: mask('amem_read', 'sb2vb'), start_pc: startPcs({ sb2vb: 2 }) });
    r.run();
    const d = diags.find((x) => x.code === 'SIM0652');
    expect(d, JSON.stringify(diags)).toBeDefined();
    expect(d!.message).toMatch(/trip 7 ended with scratchpad_count 2 on Vbuffer tile 3 \(must return to zero\); last incremented by sb2vb pc 2, never decremented/);
    expect(d!.spec).toMatch(/§13\.2/);
    expect(d!.notes).toContain('sequencer sb2vb, pc 2');
    expect(d!.span).toMatchObject({ offset: opOffset('sb2vb', 2) });
    expect(r.uie.cmp.vbuffer.spCount[3]).toBe(0); // reset so the run can go on
  });

  it('SIM0652 names the last decrementing reader when reads took back only part of the count', () => {
    const { r, diags } = rig();
    r.prog('amem_read', 0, loops([{ n: 3 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
    r.prog('sb2vb', 1, loops([{ n: 3 }], 1, 1), { opcd: 'WR_VLD', wr_tile_idx: 5, src_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_incr_amt: 1, wr_addr_iter_vld: 1, wr_addr_iter_id: 0 });
    r.prog('vb2sb', 4, loops([{ n: 1 }], 1, 4), { opcd: 'RD_VLD', rd_tile_idx: 5, tgt_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_decr: 1 });
    r.prog('amem_write', 0, loops([{ n: 1 }]), { opcd: 'Write', data_type: 'Recogni_FP16', src_fifo: 'Vbuffer', num_logical_cols: 128, iter_stride: strides(16) });
    r.trip({ trip_id: 8, trip_valid_mask: mask('amem_read', 'sb2vb', 'vb2sb', 'amem_write'), start_pc: startPcs({ sb2vb: 1, vb2sb: 4 }), amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const d = diags.find((x) => x.code === 'SIM0652');
    expect(d?.message, JSON.stringify(diags)).toMatch(/scratchpad_count 2 on Vbuffer tile 5 .*last incremented by sb2vb pc 1, last decremented by vb2sb pc 4/);
    expect(d!.notes).toContain('sequencer sb2vb, pc 1');
  });
});
