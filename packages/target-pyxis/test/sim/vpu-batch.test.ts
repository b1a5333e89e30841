/**
 * The VPU-only cycle replay (uie/vpuBatch.ts, issue 23) must be invisible: random VPU-bound trips (program length,
 * where the InFIFO pop and the OutFIFO push sit, InFIFO reads without a pop, LUT / NOP / MOV instructions, rows,
 * commit latency, input data) run with the fast paths on and off (UieOptions.fastPaths: off = every cycle a full
 * tick) and, on, also in run-ahead windows, and must agree on cycles, trip retirements, every UIE / compute / AMEM /
 * FIFO statistic, the per-trip records of the statistics observer, the VPU's registers and the AMEM contents.
 * FC_RUNS (default 12) sets the number of random trips.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldValues } from '@pyxis/codec';
import { UieTripStats } from '../../src/sim/uieTripStats.js';
import { Rig, loops, observe, strides } from './uie-fixture.js';

const RUNS = Number(process.env['FC_RUNS'] ?? 12);
const SEQ = { amem_read: 0, amem_write: 1, vi: 8, sb2vb: 9, vb2sb: 10, vpu2vb: 11, vb2vpu: 12 };
const ALL = Object.values(SEQ).reduce((m, s) => m | (1 << s), 0);

type Kind = 'add' | 'mul' | 'max' | 'nop' | 'lut' | 'mov' | 'peek';
interface Case {
  rows: number;
  pre: Kind[];
  mid: Kind[];
  post: Kind[];
  commit: number;
  seed: number;
}

/** A pure (or, `peek`, InFIFO-reading) instruction on r1. */
function ins(k: Kind): FieldValues {
  switch (k) {
    case 'add':
      return { opcode: 'ADD', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: 0x3400, wr_gpr_en: 1 };
    case 'mul':
      return { opcode: 'MUL', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: 0x3a00, wr_gpr_en: 1 };
    case 'max':
      return { opcode: 'MAX', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: 0xbc00, wr_gpr_en: 1 };
    case 'lut':
      return { opcode: 'LUT', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', lut_idx: 1, wr_gpr_en: 1 };
    case 'mov':
      return { opcode: 'MOV', dtype: 'FP16', rd: 2, src1_sel: 'IMM', imm: 0x3c00, wr_gpr_en: 1, cntr_ctrl: 'CNTR_CTRL_INCR' };
    case 'peek':
      return { opcode: 'MOV', dtype: 'FP16', rd: 3, src1_sel: 'IN_FIFO', wr_gpr_en: 1 };
    default:
      return { opcode: 'NOP' };
  }
}

/** pre (before the pop: no r1 use) + pop into r1 + mid + push of r1 + post. */
function program(c: Case): FieldValues[] {
  const safePre = c.pre.map((k) => (k === 'add' || k === 'mul' || k === 'max' || k === 'lut' ? 'mov' : k));
  return [
    ...safePre.map(ins),
    { opcode: 'MUL', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', src2_sel: 'IMM', imm: 0x3800, wr_gpr_en: 1, in_fifo_pop: 1 },
    ...c.mid.map(ins),
    { opcode: 'MOV', dtype: 'FP16', rd: 4, rs1: 1, src1_sel: 'GPR', out_fifo_push: 1 },
    ...c.post.map(ins),
  ];
}

function run(c: Case, fastPaths: boolean, quantum: number): unknown {
  const obs = new UieTripStats(false);
  const r = new Rig({ writeCommitLatency: c.commit, fastPaths, observer: obs });
  const R = c.rows;
  const prog = program(c);
  r.prog('amem_read', 0, loops([{ n: R }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
  r.prog('sb2vb', 0, loops([{ n: R }]), { opcd: 'WR_VLD', wr_tile_idx: 0, src_select: 'AMEM_FIFO' });
  r.prog('vb2vpu', 0, loops([{ n: R }]), { opcd: 'RD_VLD', rd_tile_idx: 0 });
  r.prog('vi', 0, loops([{ n: R }]), { opcd: 'Generate_VPU_Program', vpv_pgm_start_addr: 0, vpv_pgm_instr_count: prog.length });
  prog.forEach((x, i) => r.table('vpu.imem', i, x));
  for (let e = 0; e < 256; e++) r.table('vpu.lut', 256 + e, { base: (e * 37) & 0x3bff, slope: 0x3800 });
  r.prog('vpu2vb', 0, loops([{ n: R }]), { opcd: 'WR_VLD', wr_tile_idx: 2 });
  r.prog('vb2sb', 0, loops([{ n: R }]), { opcd: 'RD_VLD', rd_tile_idx: 2, tgt_select: 'AMEM_FIFO' });
  r.prog('amem_write', 0, loops([{ n: R }]), { opcd: 'Write', data_type: 'Recogni_FP16', src_fifo: 'Vbuffer', num_logical_cols: 128, iter_stride: strides(16) });
  const x = new Uint16Array(R * 128);
  let a = c.seed | 1;
  for (let i = 0; i < x.length; i++) x[i] = ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) >>> 16) & 0xbbff;
  r.amem.writeBytes(0x1000, new Uint8Array(x.buffer));
  r.trip({ trip_id: 3, trip_valid_mask: ALL, amem_read_base_address: 0x1000 >> 4, amem_write_base_address: 0x40000 >> 4 });
  const seen = observe(r, quantum, 0x48000);
  const u = r.uie;
  return {
    seen,
    compute: { ...u.cmp.stats },
    vpu: { gpr: Buffer.from(u.cmp.vpu.gpr.buffer).toString('base64'), cntr: u.cmp.vpu.cntr, pred: [...u.cmp.vpu.pred] },
    trips: obs.book.done,
    active: obs.book.activeCycles,
    units: [...u.cmp.bySeq].filter((x) => x).map((x) => [x!.dec.pushes, x!.dec.pops, x!.dec.fullStalls, x!.dec.maxOccupancy]),
    replayed: fastPaths ? u.vpuBatch.cycles : 0,
  };
}

// (an InFIFO read after the pop would wait forever after the last row: `peek` only before the pop)
const kinds = fc.constantFrom<Kind>('add', 'mul', 'max', 'nop', 'lut', 'mov');
const cases = fc.record({
  rows: fc.integer({ min: 1, max: 20 }),
  pre: fc.array(fc.constantFrom<Kind>('nop', 'mov', 'peek'), { maxLength: 3 }),
  mid: fc.array(kinds, { maxLength: 14 }),
  post: fc.array(kinds, { maxLength: 4 }),
  commit: fc.integer({ min: 1, max: 12 }),
  seed: fc.integer({ min: 1, max: 1 << 30 }),
});

describe('VPU-only cycle replay (uie/vpuBatch.ts) is exact', () => {
  it('random VPU-bound trips: fast paths on (lockstep and run-ahead) = off, cycle for cycle and counter for counter', () => {
    let replayed = 0;
    fc.assert(
      fc.property(cases, (c) => {
        const off = run(c, false, 0) as { replayed: number };
        const on = run(c, true, 0) as { replayed: number };
        replayed += on.replayed;
        expect({ ...on, replayed: 0 }).toEqual(off);
        // run-ahead windows: the same as lockstep, per-trip records included (the VPU instruction that ends a trip's
        // program in its retirement cycle is the trip's in both)
        const ahead = run(c, true, 64) as { replayed: number };
        expect({ ...ahead, replayed: 0 }).toEqual(off);
      }),
      { numRuns: RUNS, seed: 23 },
    );
    // the property is not vacuous: the replay ran
    expect(replayed).toBeGreaterThan(0);
  });

  it('a long pure run (rows x 16 instructions, the bench-vpu shape) is mostly replayed', () => {
    const c: Case = { rows: 12, pre: [], mid: ['add', 'max', 'mul', 'nop', 'add', 'max', 'mul', 'nop', 'add', 'max', 'mul', 'nop', 'add', 'max'], post: [], commit: 10, seed: 5 };
    const off = run(c, false, 0);
    const on = run(c, true, 0) as { replayed: number };
    expect({ ...on, replayed: 0 }).toEqual(off);
    expect(on.replayed).toBeGreaterThan(12 * 4);
  });
});
