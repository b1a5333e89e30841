/**
 * The steady-state batch's AMEM moves (uie/batchMove.ts) against the per-cycle path: random small whole-word copies
 * (rows read once or repeated by a stride-0 inner loop, strided inner loops, disjoint / in-place / shifted
 * destinations, either view, read pipelines and switchbox depths) run cycle by cycle without fast paths and in
 * run-ahead windows with them give identical AMEM bytes, statistics, cycles and trip completions; both the direct
 * (AMEM -> AMEM) and the staged (through the switchbox) moves are exercised.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rig, loops, strides, bytes, observe } from './uie-fixture.js';
import { Amem } from '../../src/sim/amem/index.js';
import { moveCounts } from '../../src/sim/uie/batchMove.js';

const copy = fc.record({
  rows: fc.integer({ min: 1, max: 160 }),
  reps: fc.integer({ min: 1, max: 20 }),
  // inner (repeat) loop stride in words: 0 = the row is read / written reps times
  innerR: fc.constantFrom(0, 0, 1, 3),
  innerW: fc.constantFrom(0, 0, 1, 2),
  rowR: fc.constantFrom(1, 1, 2, 5),
  rowW: fc.constantFrom(1, 1, 2),
  rdWord: fc.integer({ min: 0, max: 300 }),
  dest: fc.constantFrom('disjoint', 'disjoint', 'inplace', 'shifted'),
  shift: fc.integer({ min: -4, max: 4 }),
  wrWord: fc.integer({ min: 0, max: 300 }),
  rdView: fc.boolean(),
  wrView: fc.boolean(),
  latency: fc.integer({ min: 0, max: 5 }),
  sbDepth: fc.constantFrom(4, 6, 8),
  quantum: fc.constantFrom(16, 64, 256),
  seed: fc.integer({ min: 1, max: 1 << 30 }),
});
type Copy = typeof copy extends fc.Arbitrary<infer T> ? T : never;

function rig(p: Copy, fastPaths: boolean): Rig {
  const amem = new Amem('amem', { read_latency_cycles: p.latency });
  const r = new Rig({ fastPaths, amem, switchboxFifoDepth: p.sbDepth });
  r.amem.writeBytes(0, bytes(0x10000, p.seed));
  r.amem.writeBytes(0x10000 | (p.rdView ? 1 << 26 : 0), bytes(0x8000, p.seed + 1));
  const ctl = loops([{ n: p.rows }, { n: p.reps }]);
  r.prog('amem_read', 0, ctl, { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(8 * p.rowR, 8 * p.innerR) });
  r.prog('amem_write', 0, ctl, { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: strides(8 * p.rowW, 8 * p.innerW) });
  // partition addresses (16 B): words of 8 partitions
  const rd = 8 * p.rdWord;
  const wr = p.dest === 'inplace' ? rd : p.dest === 'shifted' ? Math.max(0, rd + 8 * p.shift) : 0x1000 + 8 * (p.wrWord + 64);
  r.trip({ amem_read_base_address: rd, amem_write_base_address: wr, amem_read_bank_hash_dsbl: p.rdView ? 1 : 0, amem_write_bank_hash_dsbl: p.wrView ? 1 : 0 });
  return r;
}

describe('steady-state batch moves (uie/batchMove.ts) are invisible', () => {
  it('random whole-word copies: per-cycle path and run-ahead batches agree on AMEM bytes, statistics, cycles and completions', () => {
    const before = { ...moveCounts };
    let batched = 0;
    fc.assert(
      fc.property(copy, (p) => {
        const ahead = rig(p, true);
        const a = observe(ahead, p.quantum, 0x40000);
        batched += ahead.uie.batchedCycles;
        expect(a).toEqual(observe(rig(p, false), 0, 0x40000));
      }),
      { numRuns: 150 },
    );
    expect(batched).toBeGreaterThan(0);
    // both kinds of move were compared
    expect(moveCounts.direct).toBeGreaterThan(before.direct);
    expect(moveCounts.staged).toBeGreaterThan(before.staged);
  });

  it('a direct window writing data, then zeros from never-written memory, over the same words of a block it creates', () => {
    // loops: 2 blocks x 2 passes x 64 words. The writes cover 64 words of block 7, twice, then of block 8, twice; the
    // reads move on: words 576-767 hold data, 768- were never written. Block 8 is created inside a batched window,
    // pass 0 writes it data and pass 1 zeros over the same words: zeros into a block the window created are skipped
    // only while it holds no data (batchMove.ts `liveWrite`)
    const run = (fastPaths: boolean): unknown => {
      const r = new Rig({ fastPaths, amem: new Amem('amem', { read_latency_cycles: 2 }), switchboxFifoDepth: 4 });
      r.amem.writeBytes(0, bytes(0x18000, 13));
      const ctl = loops([{ n: 2 }, { n: 2 }, { n: 64 }]);
      r.prog('amem_read', 0, ctl, { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(8 * 128, 8 * 64, 8) });
      r.prog('amem_write', 0, ctl, { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: strides(8 * 128, 0, 8) });
      r.trip({ amem_read_base_address: 8 * 576, amem_write_base_address: 8 * 896 });
      const o = observe(r, fastPaths ? 256 : 0, 0x40000);
      if (fastPaths) expect(r.uie.batchedCycles).toBeGreaterThan(128);
      return o;
    };
    const before = moveCounts.direct;
    const a = run(true);
    expect(moveCounts.direct).toBeGreaterThan(before);
    expect(a).toEqual(run(false));
  });

  it('blocks written with zeros only (no storage: Amem.touchZero) are written blocks to later windows and ticks', () => {
    // a copy of never-written memory (zeros) whose writes run 300 words ahead of its reads: each word read was
    // written (zeros, into blocks without storage) one or two windows before, so no read of a block the writes reached
    // is uninitialised; in lockstep the blocks get storage. Same statistics and bytes either way
    const run = (fastPaths: boolean, quantum: number): unknown => {
      const r = new Rig({ fastPaths, amem: new Amem('amem', { read_latency_cycles: 2 }), switchboxFifoDepth: 4 });
      const ctl = loops([{ n: 900 }]);
      r.prog('amem_read', 0, ctl, { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(8) });
      r.prog('amem_write', 0, ctl, { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: strides(8) });
      r.trip({ amem_read_base_address: 8 * 1024, amem_write_base_address: 8 * 1324 });
      const o = observe(r, quantum, 0x80000) as { stats: { amem: { uninitReads: number } } };
      // blocks of 128 words: reads of blocks 8 and 9 (words 1024-1279) only; block 10 onwards was written first
      expect(o.stats.amem.uninitReads).toBe(8 * 256);
      if (fastPaths) expect(r.uie.batchedCycles).toBeGreaterThan(600);
      return o;
    };
    const lockstep = run(false, 0);
    for (const q of [64, 256]) expect(run(true, q)).toEqual(lockstep);
  });

  it('a direct window reading a never-written 16 KiB block that its own writes create: the same uninitialised reads', () => {
    // writes from 0x1b800 (block 6, never written) cross into block 7 at their 17th row, inside a batched window;
    // reads from 0x1e000 (other words of block 7): those before that write find no block, the later ones find the
    // block it created (batchMove.ts directMoves: the first write cycle per block)
    const p: Copy = { rows: 48, reps: 4, innerR: 0, innerW: 0, rowR: 1, rowW: 1, rdWord: 960, dest: 'disjoint', shift: 0, wrWord: 304, rdView: false, wrView: false, latency: 2, sbDepth: 4, quantum: 256, seed: 7 };
    const before = moveCounts.direct;
    const ahead = rig(p, true);
    const a = observe(ahead, p.quantum, 0x40000) as { stats: { amem: { uninitReads: number } } };
    expect(ahead.uie.batchedCycles).toBeGreaterThan(0);
    expect(moveCounts.direct).toBeGreaterThan(before);
    expect(a.stats.amem.uninitReads).toBeGreaterThan(0);
    expect(a.stats.amem.uninitReads).toBeLessThan(8 * 48 * 4);
    expect(a).toEqual(observe(rig(p, false), 0, 0x40000));
  });
});
