/**
 * Exact cycle counts of VPU trips (AMEM -> Vbuffer -> VPU -> Vbuffer -> AMEM), derived in this file from the
 * documented parameters — never from the model:
 *
 *  - VPU: one instruction per cycle, an instruction's result visible `latency_cycles` later
 *    (grammars/pyxis/vpu_instr.json meta, chip §6.4 "one cycle per instruction"); the InFIFO and OutFIFO hold 4 rows
 *    (docs/spec-notes.md "vbuffer: FIFO depths between the Vbuffer and the VPU"); an instruction popping the InFIFO
 *    waits for its row, one pushing the OutFIFO for room; VI starts the next program the cycle after the last
 *    instruction of the previous one (docs/timing-model.md "Pyxis grid writeback, Vbuffer and VPU");
 *  - Vbuffer sequencers: one row per cycle each, a FIFO-mode tile holds 128 rows (seq §13.1);
 *  - AMEM ports: one 128-byte word per port per cycle, a 16-bit (FP16) row of 128 columns holds its port 2 cycles
 *    (chip §7, §7.3); trip retirement = last write + `amem.write_commit_latency_cycles` (chip §11.7.2; the rig's own
 *    value);
 *  - pipeline (docs/uie-model.md, docs/timing-model.md): a sequencer core issues one record per cycle into a 4-deep
 *    decoder FIFO, a unit takes it the cycle after; units tick downstream first (AMEM Write, then VB2SB, VPU2VB, VI,
 *    VB2VPU, SB2VB, then AMEM Read), so a row produced in a cycle is consumed the next cycle at the earliest and room
 *    freed in a cycle is usable by an upstream unit in the same cycle; switchbox FIFOs are 4 deep.
 *
 * The expected schedule comes from the small event model `schedule` below, written from those rules only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FieldValues } from '@pyxis/codec';
import { Rig, loops, strides } from './uie-fixture.js';
import { OPS, RefVpu, SRC, type RefInstr } from './vpu-ref.js';

const grammar = (f: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../grammars/pyxis/${f}`, import.meta.url)), 'utf8'));
const VPU_LATENCY: number = grammar('vpu_instr.json').meta.latency_cycles;
const COMMIT = 10; // the rig's write commit latency (Rig: writeCommitLatency 10)
const FP16_PORT_CYCLES = (128 * 2) / 128; // 128 FP16 columns = 256 bytes = 2 AMEM words
const SB_DEPTH = 4; // switchbox FIFOs
const VPU_FIFO = 4; // VPU InFIFO / OutFIFO

/**
 * Retirement cycle of an R-row trip whose VPU program has n instructions per row (the first pops the InFIFO, each
 * next one reads the previous one's result, the last pushes the OutFIFO).
 */
interface Schedule {
  retire: number;
  vpuFirst: number;
  vpuLast: number;
  /** Wait cycles by unit and reason, counted like docs/timing-model.md "Pyxis VPU and Vbuffer statistics". */
  waits: Record<string, number>;
}

/**
 * Wait cycles of a unit's record k: it is at the head from `avail` (taken the cycle after issue, after the unit's
 * previous record) to `exec`; cycles before `inputAt` wait for the source (`empty`), the rest for room (`full`).
 */
function waits(avail: number, inputAt: number, exec: number): [number, number] {
  const empty = Math.max(0, Math.min(exec, inputAt) - avail);
  return [empty, exec - avail - empty];
}

function schedule(R: number, n: number): Schedule {
  const rd: number[] = [];
  const sb2vb: number[] = [];
  const vb2vpu: number[] = [];
  const first: number[] = []; // VPU: instruction 0 of row k (pops the InFIFO)
  const last: number[] = []; // VPU: instruction n-1 of row k (pushes the OutFIFO)
  const vpu2vb: number[] = [];
  const vb2sb: number[] = [];
  const wr: number[] = [];
  let readFree = 0;
  let writeFree = 0;
  const w: Record<string, number> = { sb2vbEmpty: 0, sb2vbFull: 0, vb2vpuEmpty: 0, vb2vpuFull: 0, vpu2vbEmpty: 0, vpu2vbFull: 0, vb2sbEmpty: 0, vb2sbFull: 0, vpuIn: 0, vpuOut: 0 };
  const count = (unit: string, a: number[], k: number, inputAt: number) => {
    const [e, f] = waits(Math.max(k + 1, prev(a, k)), inputAt, a[k]!);
    w[`${unit}Empty`]! += e;
    w[`${unit}Full`]! += f;
  };
  // each unit: after its record (issued at cycle k, taken at k + 1), after its input (+1), after its own previous row
  const prev = (a: number[], k: number) => (k > 0 ? a[k - 1]! + 1 : 0);
  const room = (a: number[], k: number, depth: number) => (k >= depth ? a[k - depth]! : 0);
  for (let k = 0; k < R; k++) {
    rd.push(Math.max(k + 1, readFree, room(sb2vb, k, SB_DEPTH)));
    readFree = rd[k]! + FP16_PORT_CYCLES;
    sb2vb.push(Math.max(k + 1, rd[k]! + 1, prev(sb2vb, k)));
    vb2vpu.push(Math.max(k + 1, sb2vb[k]! + 1, prev(vb2vpu, k), room(first, k, VPU_FIFO)));
    // VI's program k (record k): after program k-1 ended, the InFIFO row present
    const f = Math.max(k + 1, vb2vpu[k]! + 1, prev(last, k));
    first.push(f);
    // the chain of n instructions; the pushing one waits for OutFIFO room (row k - 4 popped by VPU2VB)
    let t = f + (n - 1) * VPU_LATENCY;
    t = Math.max(t, room(vpu2vb, k, VPU_FIFO));
    last.push(t);
    w['vpuIn']! += f - Math.max(k + 1, prev(last, k));
    w['vpuOut']! += t - (f + (n - 1) * VPU_LATENCY);
    vpu2vb.push(Math.max(k + 1, last[k]! + 1, prev(vpu2vb, k)));
    vb2sb.push(Math.max(k + 1, vpu2vb[k]! + 1, prev(vb2sb, k), room(wr, k, SB_DEPTH)));
    wr.push(Math.max(k + 1, vb2sb[k]! + 1, writeFree));
    writeFree = wr[k]! + FP16_PORT_CYCLES;
    count('sb2vb', sb2vb, k, rd[k]! + 1);
    count('vb2vpu', vb2vpu, k, sb2vb[k]! + 1);
    count('vpu2vb', vpu2vb, k, last[k]! + 1);
    count('vb2sb', vb2sb, k, vpu2vb[k]! + 1);
  }
  return { retire: wr[R - 1]! + COMMIT, vpuFirst: first[0]!, vpuLast: last[R - 1]!, waits: w };
}

const SEQ = { amem_read: 0, amem_write: 1, vi: 8, sb2vb: 9, vb2sb: 10, vpu2vb: 11, vb2vpu: 12 };
const ALL = Object.values(SEQ).reduce((m, s) => m | (1 << s), 0);
const one = 0x3c00; // 1.0 at the VPU's EB -15

function program(n: number): FieldValues[] {
  if (n === 1) return [{ opcode: 'ADD', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', src2_sel: 'IMM', imm: one, in_fifo_pop: 1, out_fifo_push: 1 }];
  const p: FieldValues[] = [{ opcode: 'ADD', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', src2_sel: 'IMM', imm: one, wr_gpr_en: 1, in_fifo_pop: 1 }];
  for (let j = 1; j < n - 1; j++) p.push({ opcode: 'ADD', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: one, wr_gpr_en: 1 });
  p.push({ opcode: 'ADD', dtype: 'FP16', rd: 2, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: one, out_fifo_push: 1 });
  return p;
}

function run(R: number, n: number, prog: FieldValues[] = program(n), input = new Uint8Array(R * 256)): { retire: number; rig: Rig } {
  const r = new Rig({ writeCommitLatency: COMMIT });
  r.prog('amem_read', 0, loops([{ n: R }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
  r.prog('sb2vb', 0, loops([{ n: R }]), { opcd: 'WR_VLD', wr_tile_idx: 0, src_select: 'AMEM_FIFO' });
  r.prog('vb2vpu', 0, loops([{ n: R }]), { opcd: 'RD_VLD', rd_tile_idx: 0 });
  r.prog('vi', 0, loops([{ n: R }]), { opcd: 'Generate_VPU_Program', vpv_pgm_start_addr: 0, vpv_pgm_instr_count: n });
  prog.forEach((ins, i) => r.table('vpu.imem', i, ins));
  r.prog('vpu2vb', 0, loops([{ n: R }]), { opcd: 'WR_VLD', wr_tile_idx: 2 });
  r.prog('vb2sb', 0, loops([{ n: R }]), { opcd: 'RD_VLD', rd_tile_idx: 2, tgt_select: 'AMEM_FIFO' });
  r.prog('amem_write', 0, loops([{ n: R }]), { opcd: 'Write', data_type: 'Recogni_FP16', src_fifo: 'Vbuffer', num_logical_cols: 128, iter_stride: strides(16) });
  r.amem.writeBytes(0x1000, input);
  r.trip({ trip_id: 3, trip_valid_mask: ALL, amem_read_base_address: 0x1000 >> 4, amem_write_base_address: 0x40000 >> 4 });
  r.run();
  expect(r.done).toHaveLength(1);
  return { retire: r.done[0]!.cycle, rig: r };
}

describe('VPU trip cycle counts from the documented latencies (chip §6.4, §7.3; seq §12-§14)', () => {
  it('the reference schedule: one row per n VPU cycles once the VPU is the bottleneck, one per 2 cycles (FP16 AMEM ports) otherwise', () => {
    const a = schedule(40, 8);
    expect(a.vpuLast - a.vpuFirst + 1).toBe(40 * 8 * VPU_LATENCY);
    const b = schedule(40, 1);
    expect(schedule(41, 1).retire - b.retire).toBe(FP16_PORT_CYCLES);
  });

  for (const R of [1, 3, 16, 40])
    for (const n of [1, 2, 3, 5, 8])
      it(`${R} rows x ${n} VPU instructions per row retire at the reference cycle`, () => {
        const { retire, rig } = run(R, n);
        const want = schedule(R, n);
        expect(retire).toBe(want.retire);
        // the counters behind --stats: every instruction one busy cycle, n x 128 lane-operations per row
        const st = rig.uie.cmp.stats;
        expect(st.vpuBusy).toBe(R * n);
        expect(st.vpuInstructions).toBe(R * n);
        expect(st.vpuLaneOps).toBe(R * n * 128);
        expect(st.vpuPrograms).toBe(R);
        expect(st.sb2vbRows + st.vb2vpuRows + st.vpu2vbRows + st.vb2sbRows).toBe(4 * R);
        // wait cycles per Vbuffer sequencer and of the VPU, by reason
        const { waits: ws } = want;
        expect({ sb2vbEmpty: st.sb2vbEmpty, sb2vbFull: st.sb2vbFull, vb2vpuEmpty: st.vb2vpuEmpty, vb2vpuFull: st.vb2vpuFull, vpu2vbEmpty: st.vpu2vbEmpty, vpu2vbFull: st.vpu2vbFull, vb2sbEmpty: st.vb2sbEmpty, vb2sbFull: st.vb2sbFull, vpuIn: st.stallVpuIn, vpuOut: st.stallVpuOut }).toEqual(ws);
        expect(st.vb2sbScratchpad + st.vb2vpuScratchpad).toBe(0);
      });

  it('a VPU-bound trip: the VPU runs its R x n instructions back to back after the first row arrives (no InFIFO stall)', () => {
    const R = 24;
    const n = 6;
    const { rig } = run(R, n);
    const st = rig.uie.cmp.stats;
    const s = schedule(R, n);
    expect(s.vpuLast - s.vpuFirst + 1).toBe(R * n);
    // VI holds its first record from cycle 1 (issued at 0) and waits for the first row until vpuFirst
    expect(st.stallVpuIn).toBe(s.vpuFirst - 1);
    expect(st.stallVpuOut).toBe(0);
  });

  it('every opcode in the row program (NOP included): one cycle each, the reference schedule, the reference results', () => {
    // row k: r1 = InFIFO row, r2 = 0.75, then every opcode in turn on r1, r2 into r3 (bit operations on Int16), and a
    // last ADD r4 = r3 + r1 pushing the OutFIFO; the cycle rule of the schedule does not depend on the opcode
    const ops = OPS.filter((o) => o !== 'RMAX' && o !== 'RSUM').concat(['RMAX', 'RSUM']);
    const prog: RefInstr[] = [
      { opcode: OPS.indexOf('MOV'), dtype: 0, rd: 1, rs1: 0, rs2: 0, src1_sel: SRC.IN_FIFO, src2_sel: SRC.GPR, wr_gpr_en: 1, out_fifo_push: 0, in_fifo_pop: 1, pred_en: 0, cmp_cond: 0, lut_idx: 0, eb_adj: 0, cntr_ctrl: 0, imm: 0 },
      { opcode: OPS.indexOf('MOV'), dtype: 0, rd: 2, rs1: 0, rs2: 0, src1_sel: SRC.IMM, src2_sel: SRC.GPR, wr_gpr_en: 1, out_fifo_push: 0, in_fifo_pop: 0, pred_en: 0, cmp_cond: 0, lut_idx: 0, eb_adj: 0, cntr_ctrl: 0, imm: 0x3a00 },
      ...ops.map((o, j): RefInstr => ({ opcode: OPS.indexOf(o), dtype: ['AND', 'OR', 'XOR', 'SHL', 'SHR'].includes(o) ? 1 : 0, rd: 3, rs1: 1, rs2: 2, src1_sel: SRC.GPR, src2_sel: SRC.GPR, wr_gpr_en: 1, out_fifo_push: 0, in_fifo_pop: 0, pred_en: 0, cmp_cond: j % 6, lut_idx: 0, eb_adj: (j % 5) - 2, cntr_ctrl: 0, imm: 0 })),
      { opcode: OPS.indexOf('ADD'), dtype: 0, rd: 4, rs1: 3, rs2: 1, src1_sel: SRC.GPR, src2_sel: SRC.GPR, wr_gpr_en: 0, out_fifo_push: 1, in_fifo_pop: 0, pred_en: 0, cmp_cond: 0, lut_idx: 0, eb_adj: 0, cntr_ctrl: 0, imm: 0 },
    ];
    const R = 6;
    const n = prog.length;
    const x = new Uint16Array(R * 128);
    let a = 7;
    for (let i = 0; i < x.length; i++) x[i] = ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) >>> 16) & 0xbfff;
    const { retire, rig } = run(R, n, prog as unknown as FieldValues[], new Uint8Array(x.buffer));
    const want = schedule(R, n);
    expect(retire).toBe(want.retire);
    const st = rig.uie.cmp.stats;
    expect(st.vpuBusy).toBe(R * n);
    expect(st.vpuInstructions).toBe(R * n);
    expect(st.vpuLaneOps).toBe(R * (n - 1) * 128); // NOP: no lane-operation
    expect({ vpuIn: st.stallVpuIn, vpuOut: st.stallVpuOut }).toEqual({ vpuIn: want.waits['vpuIn'], vpuOut: want.waits['vpuOut'] });
    // the rows written back, against the reference interpreter
    const ref = new RefVpu(VPU_FIFO, new Uint16Array(2048));
    const out = new Uint16Array(rig.amem.readBytes(0x40000, R * 256).slice().buffer);
    for (let k = 0; k < R; k++) {
      ref.inQ.push(Array.from(x.subarray(k * 128, (k + 1) * 128)));
      for (const ins of prog) ref.exec(ins);
      expect(Array.from(out.subarray(k * 128, (k + 1) * 128)), `row ${k}`).toEqual(ref.outQ.shift());
    }
  });
});
