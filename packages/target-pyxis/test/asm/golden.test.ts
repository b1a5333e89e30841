/**
 * The spec's worked examples, assembled from samples/pyxis/*.pasm and checked
 * field by field against values derived by hand from the spec text, then
 * executed by the reference interpreter (interp.ts, §2.1.4) and compared
 * with the iteration tables printed in the spec.
 */
import { describe, expect, test } from 'vitest';
import type { DecodedValues } from '@pyxis/codec';
import { programs, sample, isa } from './helpers.js';
import { run } from './interp.js';

/** Expected control fields of one instruction; every other iterator must be inactive (is_eol 0, numloops 1, mask 0, pf 0). */
type It = { eol?: 0 | 1; sol?: number; n?: number; nf?: number; mask?: number; pf?: 0 | 1 };
function expectCtrl(c: DecodedValues, its: Record<number, It>, eopgm: 0 | 1): void {
  for (let i = 0; i < 6; i++) {
    const e = its[i] ?? {};
    expect(c[`iter${i}_is_eol`], `iter${i}_is_eol`).toBe(e.eol ?? 0);
    if (e.eol) expect(c[`iter${i}_sol_pc`], `iter${i}_sol_pc`).toBe(e.sol ?? 0);
    expect(c[`iter${i}_numloops`], `iter${i}_numloops`).toBe(e.n ?? 1);
    if (i > 0) {
      expect(c[`iter${i}_final_iter_mask`], `iter${i}_final_iter_mask`).toBe(e.mask ?? 0);
      if (e.mask) expect(c[`iter${i}_numloops_final`], `iter${i}_numloops_final`).toBe(e.nf);
      if (`iter${i}_post_final_enbl` in c) expect(c[`iter${i}_post_final_enbl`], `iter${i}_post_final_enbl`).toBe(e.pf ?? 0);
    }
  }
  expect(c['eopgm']).toBe(eopgm);
}

/** Reads raw bits of a field from the word, to check the N-1 encoding is in the bytes. */
function rawBits(bytes: Uint8Array, lsb: number, width: number): number {
  let v = 0;
  for (let b = 0; b < width; b++) if (bytes[(lsb + b) >> 3]! & (1 << ((lsb + b) & 7))) v |= 1 << b;
  return v;
}

describe('§2.1.1 / §2.1.2: 3x3 read, 22 rows in groups of 10, final 6, post-final padding', () => {
  const p = programs(sample('conv3x3_read.pasm'));
  test('control fields', () => {
    const a = p.get('conv3x3_rows')!;
    expect(a.ctrl).toHaveLength(1);
    expectCtrl(a.ctrl[0]!, { 0: { eol: 1, sol: 0, n: 3 }, 1: { eol: 1, sol: 0, n: 10, nf: 6, mask: 0b1, pf: 1 } }, 1);
    const b = p.get('conv3x3_rows_short')!;
    expectCtrl(b.ctrl[0]!, { 0: { eol: 1, sol: 0, n: 3 }, 1: { eol: 1, sol: 0, n: 10, nf: 6, mask: 0b1 } }, 1);
    // "Encoded as N-1" (Table 2-1): numloops=10 is stored as 9, numloops_final=6 as 5.
    const t = a.seq.control;
    expect(rawBits(a.ctrlBytes, t.byName.get('iter1_numloops')!.lsb, 12)).toBe(9);
    expect(rawBits(a.ctrlBytes, t.byName.get('iter1_numloops_final')!.lsb, 12)).toBe(5);
    expect(rawBits(a.ctrlBytes, t.byName.get('iter0_numloops')!.lsb, 12)).toBe(2);
    // op: Read_SRAM, strides 8 rows per group, 1 per row
    expect(a.seq.op.byName.get('opcd')!.enumNames!.get(a.op[0]!['opcd'] as number)).toBe('Read_SRAM');
    expect((a.op[0]!['iter_stride'] as number[]).slice(0, 2)).toEqual([8, 1]);
  });
  test('execution: 10, 10, 6 rows; post-final pads the last group with 4 Read_Const(0)', () => {
    const short = run(p.get('conv3x3_rows_short')!.ctrl);
    const exp: [number, number][] = [];
    for (let g = 0; g < 3; g++) for (let r = 0; r < (g === 2 ? 6 : 10); r++) exp.push([g, r]);
    expect(short.map((s) => [s.counts[0], s.counts[1]])).toEqual(exp);
    expect(short.some((s) => s.postFinal)).toBe(false);
    const pf = run(p.get('conv3x3_rows')!.ctrl);
    expect(pf).toHaveLength(30);
    expect(pf.map((s) => [s.counts[0], s.counts[1], s.postFinal])).toEqual(
      Array.from({ length: 30 }, (_, k) => [Math.floor(k / 10), k % 10, k >= 26]),
    );
  });
});

describe('§2.1.1.1 / §2.1.2.1: cascaded numloops_final, 4x4x4 -> 58', () => {
  const p = programs(sample('cascade_58.pasm'));
  test('control fields (default `when` = all enclosing loops)', () => {
    const a = p.get('cascade58')!;
    expectCtrl(a.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 4, nf: 3, mask: 0b1 }, 2: { eol: 1, n: 4, nf: 2, mask: 0b11 } }, 1);
    const b = p.get('cascade58_pf')!;
    expectCtrl(b.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 4, nf: 3, mask: 0b1, pf: 1 }, 2: { eol: 1, n: 4, nf: 2, mask: 0b11, pf: 1 } }, 1);
  });
  test('execution matches the evaluation tables', () => {
    const s = run(p.get('cascade58')!.ctrl);
    expect(s).toHaveLength(58);
    // Table after Figure 2-4: iter0=3 runs iter1 0..2; iter2 0..3, 0..3, 0..1.
    expect(s.slice(48).map((x) => [x.counts[0], x.counts[1], x.counts[2]])).toEqual([
      [3, 0, 0], [3, 0, 1], [3, 0, 2], [3, 0, 3], [3, 1, 0], [3, 1, 1], [3, 1, 2], [3, 1, 3], [3, 2, 0], [3, 2, 1],
    ]);
    const q = run(p.get('cascade58_pf')!.ctrl);
    expect(q).toHaveLength(64);
    expect(q.filter((x) => x.postFinal).map((x) => [x.counts[1], x.counts[2]])).toEqual([
      [2, 2], [2, 3], [3, 0], [3, 1], [3, 2], [3, 3],
    ]);
    expect(q.slice(0, 58).every((x) => !x.postFinal)).toBe(true);
  });
});

describe('§9.2.1: WDP fine-grained 1x1 weights loading', () => {
  const p = programs(sample('wdp_1x1_weights.pasm')).get('weights_1x1')!;
  test('control and op fields', () => {
    expectCtrl(p.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 8 } }, 1);
    const o = p.op[0]!;
    const en = (f: string) => p.seq.op.byName.get(f)!.enumNames!.get(o[f] as number);
    expect(en('opcd')).toBe('WR_HBUF');
    expect(en('hbuf_wr_control')).toBe('LD_2ROWS_8B');
    expect(o['hbuf_block_size']).toBe(4);
    expect(o['hbuf_block_start_en']).toBe(1);
    expect(o['hbuf_block_end_en']).toBe(1);
    expect(o['hbuf_block_iter_mask']).toBe(0b10);
    expect(o['hbuf_stride_dim1']).toBe(1);
    expect(o['hbuf_stride_iter_id_dim1']).toBe(1);
    expect(o['log2_ptns_per_hlane']).toBe(0);
  });
  test('execution: 4 blocks x 8 output channels', () => {
    const s = run(p.ctrl);
    expect(s.map((x) => x.counts[0]! * 8 + x.counts[1]!)).toEqual(Array.from({ length: 32 }, (_, k) => k));
  });
});

describe('§9.3 / §10.1.3: row-shifted FP8 MatMul, WDP and GH', () => {
  const p = programs(sample('matmul_rowshift_fp8.pasm'));
  test('WDP: 4 nested loops on one instruction, 128 cycles per block', () => {
    const w = p.get('mm_rowshift_wdp')!;
    expectCtrl(w.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 8 }, 2: { eol: 1, n: 2 }, 3: { eol: 1, n: 8 } }, 1);
    const o = w.op[0]!;
    expect(o['hbuf_block_size']).toBe(64);
    expect(o['hbuf_block_iter_mask']).toBe(0b1110);
    expect(o['log2_ptns_per_hlane']).toBe(3);
    expect([o['hlane_iter_id'], o['grip_iter_id'], o['hbuf_stride_iter_id_dim1']]).toEqual([3, 2, 1]);
    const s = run(w.ctrl);
    expect(s).toHaveLength(4 * 128);
    // table §9.3: h-lane innermost, then grid-row-in-pair, then VGR
    expect(s.slice(0, 10).map((x) => [x.counts[1], x.counts[2], x.counts[3]])).toEqual([
      [0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3], [0, 0, 4], [0, 0, 5], [0, 0, 6], [0, 0, 7], [0, 1, 0], [0, 1, 1],
    ]);
  });
  test('GH: 16 octobytes x 8 VGRs per block', () => {
    const g = p.get('mm_rowshift_gh')!;
    expectCtrl(g.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 16 }, 2: { eol: 1, n: 8 } }, 1);
    const o = g.op[0]!;
    expect(g.seq.op.byName.get('hbuf_rd_cmd')!.enumNames!.get(o['hbuf_rd_cmd'] as number)).toBe('RD_1X1_MATMUL_FP8');
    expect([o['hbuf_block_size'], o['hbuf_block_iter_mask'], o['hbuf_stride_dim1'], o['hbuf_stride_dim2'], o['hbuf_stride_iter_id_dim1'], o['hbuf_stride_iter_id_dim2']]).toEqual([64, 0b110, 8, 128, 1, 2]);
    expect(run(g.ctrl)).toHaveLength(4 * 128);
  });
});

describe('§9.4 / §10.1.4: transposed MatMul FP8 and FP16', () => {
  const p = programs(sample('matmul_transposed.pasm'));
  test('FP8 WDP (Figure 9-3) and GH (Figure 10-2)', () => {
    const w = p.get('mm_trans_fp8_wdp')!;
    expectCtrl(w.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 2 }, 2: { eol: 1, n: 4 } }, 1);
    expect([w.op[0]!['hbuf_block_size'], w.op[0]!['hbuf_block_iter_mask'], w.op[0]!['tbuf_idx_iter_id'], w.op[0]!['tbuf_col_idx_iter_id'], w.op[0]!['log2_ptns_per_hlane']]).toEqual([4, 0b110, 1, 2, 0]);
    const g = p.get('mm_trans_fp8_gh')!;
    expectCtrl(g.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 4 }, 2: { eol: 1, n: 2 } }, 1);
    expect([g.op[0]!['hbuf_stride_dim1'], g.op[0]!['hbuf_stride_dim2'], g.op[0]!['hbuf_stride_iter_id_dim1'], g.op[0]!['hbuf_stride_iter_id_dim2']]).toEqual([4, 16, 2, 1]);
    // 8 cycles per 64-byte block (§9.4.1.1)
    expect(run(w.ctrl)).toHaveLength(32);
    expect(run(g.ctrl)).toHaveLength(32);
  });
  test('FP16 WDP (Figure 9-4) and GH (Figure 10-3)', () => {
    const w = p.get('mm_trans_fp16_wdp')!;
    expectCtrl(w.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 2 }, 2: { eol: 1, n: 2 }, 3: { eol: 1, n: 2 } }, 1);
    expect([w.op[0]!['is_16bit'], w.op[0]!['log2_ptns_per_hlane'], w.op[0]!['hlane_iter_id'], w.op[0]!['hbuf_block_iter_mask']]).toEqual([1, 1, 3, 0b1110]);
    const g = p.get('mm_trans_fp16_gh')!;
    expectCtrl(g.ctrl[0]!, { 0: { eol: 1, n: 4 }, 1: { eol: 1, n: 2 }, 2: { eol: 1, n: 4 } }, 1);
    expect(g.seq.op.byName.get('hbuf_rd_cmd')!.enumNames!.get(g.op[0]!['hbuf_rd_cmd'] as number)).toBe('RD_TRANS_1X1_MATMUL_FP16');
    expect(run(w.ctrl)).toHaveLength(32);
    expect(run(g.ctrl)).toHaveLength(32);
  });
});

describe('loops starting and ending on any instruction (§2.1)', () => {
  const p = programs(sample('multi_insn.pasm'));
  test('GX tile: numloops on every instruction inside a loop, is_eol only on the last', () => {
    const g = p.get('gx_tile')!;
    expect(g.ctrl).toHaveLength(3);
    expectCtrl(g.ctrl[0]!, {}, 0);
    // pc1 is inside i0, i1, i2 and ends i2 (sol_pc 1)
    expectCtrl(g.ctrl[1]!, { 0: { n: 2 }, 1: { n: 4 }, 2: { eol: 1, sol: 1, n: 8 } }, 0);
    // pc2 ends i1 and i0 (both start at pc1)
    expectCtrl(g.ctrl[2]!, { 0: { eol: 1, sol: 1, n: 2 }, 1: { eol: 1, sol: 1, n: 4 } }, 1);
    const s = run(g.ctrl);
    const exp: number[] = [0];
    for (let t = 0; t < 2; t++) for (let c = 0; c < 4; c++) exp.push(1, 1, 1, 1, 1, 1, 1, 1, 2);
    expect(s.map((x) => x.pc)).toEqual(exp);
  });
  test('raw ctrl form equals the structured form', () => {
    const raw = p.get('raw_rows')!;
    const structured = programs(sample('conv3x3_read.pasm')).get('conv3x3_rows_short')!;
    expect([...raw.ctrlBytes]).toEqual([...structured.ctrlBytes]);
    expect(isa.iterators).toBe(6);
  });
});
