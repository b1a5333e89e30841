/**
 * Grid writeback (seq §11; chip §6.2.2.1): WBA slots of each grid-row leave as flits of 128 FP16 columns, one slot
 * per cycle, after MNS2FP, EB adjustment, diagonal and column masks; the writeback kick / done handshake and the
 * writeback credits of seq §10.3.2. Expected values come from a reference written here (not from the model).
 */
import { describe, expect, it } from 'vitest';
import { Rig, loops } from './uie-fixture.js';

const GWB = 7;
const SLOTS = 8;
const COLS = 128;
const start = (pcGwb = 0) => ({ trip_valid_mask: 1 << GWB, start_pc: Array.from({ length: 13 }, (_, i) => (i === GWB ? pcGwb : 0)) });

/** Deterministic MNS 5.1.18 values in units of 2^EB (E5 exponent field 1..30, 18-bit fraction, both signs). */
function wbaValue(i: number): number {
  let x = (i * 2654435761) >>> 0;
  x ^= x >>> 13;
  const E = 1 + (x % 30);
  const F = (x >>> 5) & ((1 << 18) - 1);
  const neg = (x >>> 23) & 1;
  const m = neg ? F - (1 << 19) : (1 << 18) + F; // two's complement mantissa in units of 2^-18
  return m * 2 ** (E - 18);
}

/**
 * Reference MNS value -> Pyxis FP16 code (chip §4.2, §6.2.2.1.1-2): sign-magnitude, mantissa rounded to 10 bits
 * (nearest, ties to even), exponent E + ebAdj, E > 31 saturates to max, E < 0 (or the zero magnitude code) gives zero;
 * NaN -> 0x8000;
 * sticky max (±Infinity here) -> the max value of MNS 5.1.18 converted the same way.
 */
function refFp16(v: number, ebAdj: number): number {
  if (Number.isNaN(v)) return 0x8000;
  if (v === Infinity) v = (2 - 2 ** -18) * 2 ** 31;
  if (v === -Infinity) v = -(2 - 2 ** -18) * 2 ** 31;
  if (v === 0) return 0;
  const s = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  const scaled = (a / 2 ** e) * 1024; // [1024, 2048)
  let m = Math.floor(scaled);
  const frac = scaled - m;
  if (frac > 0.5 || (frac === 0.5 && m % 2 === 1)) m++;
  if (m === 2048) {
    m = 1024;
    e++;
  }
  const E = e + ebAdj;
  // E < 0 underflows; magnitude code 0 (1.0 * 2^0) is the zero code (its negative is the NaN code, chip §4.2): zero
  if (E < 0 || (E === 0 && m === 1024)) return 0;
  if (E > 31) return s | 0x7fff;
  return s | (E << 10) | (m - 1024);
}

/** Runs the rig until idle, popping every flit of the grid->AMEM-write FIFO (cycle, columns). */
function drain(r: Rig, max = 10000): Array<{ cycle: number; cols: Uint16Array }> {
  const out: Array<{ cycle: number; cols: Uint16Array }> = [];
  const f = r.uie.sbGridToWrite;
  for (let c = 0; c < max && r.uie.busy; c++) {
    r.uie.tick(c);
    while (!f.empty) {
      const cols = new Uint16Array(COLS);
      f.headColumns(cols);
      f.pop();
      out.push({ cycle: c, cols });
    }
  }
  return out;
}

describe('GWB writeback (seq §11, chip §6.2.2.1)', () => {
  it('offloads 16 grid-rows x 8 slots in 128 cycles after the kick, MNS2FP with eb_adj, returning 8 writeback credits', () => {
    const r = new Rig();
    const acc = r.uie.cmp.acc;
    for (let i = 0; i < acc.wba.length; i++) acc.wba[i] = wbaValue(i);
    acc.wba[5] = NaN;
    acc.wba[6] = Infinity;
    acc.wba[7] = -Infinity;
    acc.wbPending = 1;
    acc.wbCredits = 0;
    r.prog('gwb', 0, loops([{ n: 16 }]), { opcd: 'Read_WBA', tgt_fifo: 'AMEM', eb_adj: -3, grid_row_iter_id: 0, wb_done_iter_mask: 1 });
    r.trip(start());
    const flits = drain(r);
    expect(flits.length).toBe(16 * SLOTS);
    // one slot per cycle: the 128 flits leave on 128 consecutive cycles
    expect(flits[127]!.cycle - flits[0]!.cycle).toBe(127);
    for (let k = 0; k < 128; k++) {
      const row = k >> 3;
      const slot = k & 7;
      for (let c = 0; c < COLS; c++) expect(flits[k]!.cols[c]).toBe(refFp16(acc.wba[(row * SLOTS + slot) * COLS + c]!, -3));
    }
    expect(acc.wbPending).toBe(0);
    expect(acc.wbCredits).toBe(SLOTS);
    expect(r.uie.cmp.stats.writebacks).toBe(1);
    expect(r.done.length).toBe(1);
  });

  it('waits for the writeback kick (seq §11.4): no flit leaves while wbPending is 0', () => {
    const r = new Rig();
    r.prog('gwb', 0, loops([{ n: 1 }]), { opcd: 'Read_WBA', grid_row_iter_id: 0, wb_done_iter_mask: 1 });
    r.trip(start());
    for (let c = 0; c < 50; c++) r.uie.tick(c);
    expect(r.uie.sbGridToWrite.occupancy).toBe(0);
    expect(r.uie.blockedReason()).toMatch(/writeback kick/);
    expect(r.uie.cmp.stats.stallWbKick).toBeGreaterThan(40);
    r.uie.cmp.acc.wbPending = 1;
    const flits = drain(r);
    expect(flits.length).toBe(SLOTS);
  });

  it.each([
    [1, (c: number, row: number) => c <= row],
    [2, (c: number, row: number) => c < row],
    [3, (c: number, row: number) => c === row],
    [4, (c: number, row: number) => c !== row],
    [5, (c: number, row: number) => c >= row],
    [6, (c: number, row: number) => c > row],
  ])('diagonal mask mode %i (chip §6.2.2.1.3) with -max override; column mask takes precedence', (mode, pred) => {
    const r = new Rig();
    const acc = r.uie.cmp.acc;
    acc.wba.fill(1.5); // FP16 1.5 = E 0, F 512
    acc.wbPending = 1;
    // column mask 2: columns 0..3 forced to zero, column 127 forced to -max
    const override = new Array(COLS).fill('No_Mask');
    for (let c = 0; c < 4; c++) override[c] = 'Zero';
    override[127] = 'Max_Negative';
    r.table('gwb.col_mask', 2, { col_override: override });
    r.prog('gwb', 0, loops([{ n: 16 }]), { opcd: 'Read_WBA', grid_row_iter_id: 0, wb_done_iter_mask: 1, diagonal_mask_mode: mode, diagonal_mask_override_sel: 'Max_Negative', col_mask_idx: 2 });
    r.trip(start());
    const flits = drain(r);
    expect(flits.length).toBe(128);
    for (let k = 0; k < 128; k++) {
      for (let c = 0; c < COLS; c++) {
        const want = c < 4 ? 0 : c === 127 ? 0xffff : pred(c, k) ? 0xffff : (0 << 10) | 512;
        expect(flits[k]!.cols[c]).toBe(want);
      }
    }
  });

  it('grid_row_offset + iterator beyond grid-row 15 is a programming error citing seq §11.3', () => {
    const r = new Rig();
    r.uie.cmp.acc.wbPending = 1;
    r.prog('gwb', 0, loops([{ n: 4 }]), { opcd: 'Read_WBA', grid_row_offset: 14, grid_row_iter_id: 0, wb_done_iter_mask: 1 });
    r.trip(start());
    expect(() => drain(r)).toThrow(/outside 0\.\.15/);
  });
});
