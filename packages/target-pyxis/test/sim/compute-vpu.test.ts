/**
 * The VPU path (chip §6.1.4, §6.4; seq §12-§14): AMEM -> Vbuffer -> VPU -> Vbuffer -> AMEM through the four Vbuffer
 * sequencers and VI, on the project's VPU model ISA (grammars/pyxis/vpu_instr.json). Expected values come from
 * references written here (FP16 at EB -15 decoded by hand), not from the model.
 */
import { describe, expect, it } from 'vitest';
import type { FieldValues } from '@pyxis/codec';
import { Rig, loops, strides } from './uie-fixture.js';

const SEQ = { amem_read: 0, amem_write: 1, vi: 8, sb2vb: 9, vb2sb: 10, vpu2vb: 11, vb2vpu: 12 };
const mask = (...names: Array<keyof typeof SEQ>) => names.reduce((m, n) => m | (1 << SEQ[n]), 0);
/** RFP16 code of +-2^e at the VPU's EB -15 (E field = e + 15, fraction 0). */
const pow2 = (e: number, neg = false) => (neg ? 0x8000 : 0) | ((e + 15) << 10);

/** Deterministic FP16 codes with exponent fields 5..25 and both signs. */
function inputs(n: number): Uint16Array {
  const a = new Uint16Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const E = 5 + ((x >>> 8) % 21);
    a[i] = ((x >>> 30) & 1 ? 0x8000 : 0) | (E << 10) | ((x >>> 16) & 1023);
  }
  return a;
}

/** Value of an RFP16 code at EB -15 (chip §4.2). */
const val = (c: number) => (c & 0x7fff ? (c & 0x8000 ? -1 : 1) * (1 + (c & 1023) / 1024) * 2 ** (((c >> 10) & 31) - 15) : 0);

function elementwiseRig(rows: number, program: FieldValues[]): Rig {
  const r = new Rig();
  const bytesPerRow = 256; // 128 FP16 columns
  r.prog('amem_read', 0, loops([{ n: rows }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(bytesPerRow / 16) });
  r.prog('sb2vb', 0, loops([{ n: rows }]), { opcd: 'WR_VLD', wr_tile_idx: 0, src_select: 'AMEM_FIFO' });
  r.prog('vb2vpu', 0, loops([{ n: rows }]), { opcd: 'RD_VLD', rd_tile_idx: 0 });
  r.prog('vi', 0, loops([{ n: rows }]), { opcd: 'Generate_VPU_Program', vpv_pgm_start_addr: 0, vpv_pgm_instr_count: program.length });
  program.forEach((ins, i) => r.table('vpu.imem', i, ins));
  r.prog('vpu2vb', 0, loops([{ n: rows }]), { opcd: 'WR_VLD', wr_tile_idx: 2 });
  r.prog('vb2sb', 0, loops([{ n: rows }]), { opcd: 'RD_VLD', rd_tile_idx: 2, tgt_select: 'AMEM_FIFO' });
  r.prog('amem_write', 0, loops([{ n: rows }]), { opcd: 'Write', data_type: 'Recogni_FP16', src_fifo: 'Vbuffer', num_logical_cols: 128, iter_stride: strides(bytesPerRow / 16) });
  return r;
}

describe('VPU path: AMEM -> Vbuffer -> VPU -> Vbuffer -> AMEM (seq §12-§14)', () => {
  it('y = max(x * -0.5, 0.25) on 16 rows x 128 lanes: bit-exact, one VPU instruction per cycle', () => {
    const rows = 16;
    const x = inputs(rows * 128);
    const r = elementwiseRig(rows, [
      { opcode: 'MUL', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', src2_sel: 'IMM', imm: pow2(-1, true), wr_gpr_en: 1, in_fifo_pop: 1 },
      { opcode: 'MAX', dtype: 'FP16', rd: 2, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: pow2(-2), out_fifo_push: 1 },
    ]);
    r.amem.writeBytes(0x1000, new Uint8Array(x.buffer));
    r.trip({ trip_valid_mask: mask('amem_read', 'amem_write', 'vi', 'sb2vb', 'vb2sb', 'vpu2vb', 'vb2vpu'), amem_read_base_address: 0x1000 >> 4, amem_write_base_address: 0x8000 >> 4 });
    const cycles = r.run();
    const out = new Uint16Array(r.amem.readBytes(0x8000, rows * 256).slice().buffer);
    for (let i = 0; i < x.length; i++) {
      // -0.5 * x is exact (exponent - 1, sign flipped); compare with 0.25 by value
      const h = x[i]! & 0x8000 ? (x[i]! & 0x7fff) - (1 << 10) : x[i]! | 0x8000;
      const want = val(h) >= 0.25 ? h : pow2(-2);
      expect(out[i], `element ${i}`).toBe(want);
    }
    // VPU-bound: 2 instructions per row, one per cycle; plus the AMEM write commit latency (10 in the rig)
    expect(cycles).toBeGreaterThanOrEqual(2 * rows + 10);
    expect(cycles).toBeLessThan(2 * rows + 40);
    expect(r.uie.cmp.vpu.laneOps).toBe(2 * rows * 128);
  });

  it('reading a GPR no instruction wrote is an error citing the VPU model ISA (chip §6.4)', () => {
    const r = elementwiseRig(1, [{ opcode: 'ADD', dtype: 'FP16', rd: 1, rs1: 7, src1_sel: 'GPR', src2_sel: 'IN_FIFO', in_fifo_pop: 1, out_fifo_push: 1 }]);
    r.trip({ trip_valid_mask: mask('amem_read', 'amem_write', 'vi', 'sb2vb', 'vb2sb', 'vpu2vb', 'vb2vpu') });
    expect(() => r.run()).toThrow(/r7 before any instruction wrote it/);
  });

  it('a trip leaving scratchpad_count non-zero is an error (seq §13.2)', () => {
    const r = new Rig();
    r.prog('amem_read', 0, loops([{ n: 2 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
    // two scratchpad writes, each incrementing the count by 1; nobody reads them
    r.prog('sb2vb', 0, loops([{ n: 2 }]), { opcd: 'WR_VLD', wr_tile_idx: 3, src_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_incr_amt: 1, wr_addr_iter_vld: 1, wr_addr_iter_id: 0 });
    r.trip({ trip_valid_mask: mask('amem_read', 'sb2vb') });
    expect(() => r.run()).toThrow(/scratchpad_count 2 on Vbuffer tile 3/);
  });

  it('scratchpad reads wait for scratchpad_count (RAW protection, seq §13.2) and max snooping keeps per-column maxima (seq §14.1)', () => {
    const rows = 4;
    const r = new Rig();
    const x = inputs(rows * 128);
    r.amem.writeBytes(0, new Uint8Array(x.buffer));
    r.prog('amem_read', 0, loops([{ n: rows }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP16', tgt_fifo: 'Vbuffer', num_logical_ptns: 8, iter_stride: strides(16) });
    // write rows to scratchpad entries 0..3 with snooping (signed), count += 4 at the end of the loop
    r.prog('sb2vb', 0, loops([{ n: rows }]), { opcd: 'WR_VLD', wr_tile_idx: 4, src_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_iter_mask: 1, scratchpad_count_incr_amt: rows, wr_addr_iter_vld: 1, wr_addr_iter_id: 0, snoop_vld: 1, snoop_signed: 1, snoop_start_iter_mask: 1 });
    // then the snoop register as a fifth row to tile 6 (FIFO mode)
    r.prog('sb2vb', 1, loops([{ n: 1 }], 1, 1), { opcd: 'WR_VLD', wr_tile_idx: 6, src_select: 'Snoop_Register' });
    // read them back in reverse order, each decrementing the count
    r.prog('vb2sb', 0, loops([{ n: rows }]), { opcd: 'RD_VLD', rd_tile_idx: 4, tgt_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_decr: 1, rd_addr_base: 0, rd_addr_iter_vld: 1, rd_addr_iter_id: 0 });
    r.prog('vb2sb', 1, loops([{ n: 1 }], 1, 1), { opcd: 'RD_VLD', rd_tile_idx: 6, tgt_select: 'AMEM_FIFO' });
    r.prog('amem_write', 0, loops([{ n: rows + 1 }]), { opcd: 'Write', data_type: 'Recogni_FP16', src_fifo: 'Vbuffer', num_logical_cols: 128, iter_stride: strides(16) });
    // the ctrl words above end at pc 0 (eopgm=1 in loops()); chain pc 0 -> pc 1 by clearing eopgm at pc 0
    r.prog('sb2vb', 0, loops([{ n: rows }], 0), { opcd: 'WR_VLD', wr_tile_idx: 4, src_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_iter_mask: 1, scratchpad_count_incr_amt: rows, wr_addr_iter_vld: 1, wr_addr_iter_id: 0, snoop_vld: 1, snoop_signed: 1, snoop_start_iter_mask: 1 });
    r.prog('vb2sb', 0, loops([{ n: rows }], 0), { opcd: 'RD_VLD', rd_tile_idx: 4, tgt_select: 'AMEM_FIFO', scratchpad_mode: 1, scratchpad_count_decr: 1, rd_addr_iter_vld: 1, rd_addr_iter_id: 0 });
    r.trip({ trip_valid_mask: mask('amem_read', 'amem_write', 'sb2vb', 'vb2sb'), amem_write_base_address: 0x4000 >> 4 });
    r.run();
    const out = new Uint16Array(r.amem.readBytes(0x4000, (rows + 1) * 256).slice().buffer);
    expect(Array.from(out.subarray(0, rows * 128))).toEqual(Array.from(x));
    for (let c = 0; c < 128; c++) {
      let best = x[c]!;
      for (let k = 1; k < rows; k++) if (val(x[k * 128 + c]!) > val(best)) best = x[k * 128 + c]!;
      expect(out[rows * 128 + c], `column ${c}`).toBe(best);
    }
    expect(r.uie.cmp.vbuffer.spCount[4]).toBe(0);
  });
});
