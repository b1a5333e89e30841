/**
 * `--timing-only` on the AMEM Weights Read port (docs/timing-model.md "Pyxis grid", timing-only): an uncompressed word's
 * bytes are not moved (nothing that decides timing reads them), only its AMEM bookkeeping is done (`Amem.readWordAt`
 * for an aligned whole word, partition reads into scratch otherwise). Property: random Weights Read shapes — words,
 * num_ptns, partition offset (aligned or not, spanning two AMEM words), stride, 8/16-bit, ReLU or not, hashed or
 * unhashed view, AMEM blocks partly never written (uninitialised reads), a view conflict — give the full run's cycles,
 * UIE / compute statistics and AMEM / bank statistics. Planted bugs each made this test fail when tried: the
 * bookkeeping call dropped for aligned words (bytesRead, bankAccesses, uninitReads differ); `readWordAt` given the
 * logical instead of the physical address (bankAccesses differ in the hashed view).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLoop, wdpLoop, WR_WDP } from './compute-weights-ref.js';
import { Rig, strides } from './uie-fixture.js';

interface Shape {
  groups: number;
  ptns: number;
  offset: number;
  stride: number;
  is16: boolean;
  relu: boolean;
  unhashed: boolean;
  written: number[];
  otherView: boolean;
}

function run(s: Shape, timingOnly: boolean) {
  const r = new Rig({ attachGrid: false, timingOnly });
  const base = 0x4000;
  // some 16 KiB blocks of the region written (the others read as uninitialised), one maybe through the other view
  for (const b of s.written) r.amem.writeBytes(base + b * 0x4000, new Uint8Array(256).fill(b + 1));
  if (s.otherView) r.amem.writeBytes((base | (s.unhashed ? 0 : 1 << 26)) + 0x80, new Uint8Array(16).fill(9));
  const words = 8 * s.groups;
  readLoop(r, [{ n: words }], { opcd: s.relu ? 'Read_SRAM_with_ReLU' : 'Read_SRAM', num_ptns: s.ptns, is_16bit: s.is16 ? 1 : 0, amem_addr_offset: s.offset, iter_stride: strides(s.stride) });
  wdpLoop(r, [{ n: s.groups }, { n: 8 }], {
    is_16bit: s.is16 ? 1 : 0, hbuf_wr_control: 'LD_2ROWS_8B', log2_ptns_per_hlane: 0, hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1,
    hbuf_block_iter_mask: 1 << 1, hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1,
  });
  r.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: base >> 4, amem_weights_bank_hash_dsbl: s.unhashed ? 1 : 0 });
  let c = 0;
  for (; c < 20000 && r.uie.busy; c++) r.uie.tick(c);
  expect(r.uie.busy).toBe(false);
  const a = r.amem;
  return {
    cycles: c,
    uie: r.uie.stats,
    cmp: { ...r.uie.cmp.stats },
    amem: { ...a.stats, bankAccesses: Array.from(a.stats.bankAccesses) },
    banks: Object.fromEntries(Object.entries(a.banks.stats).map(([k, v]) => [k, Array.from(v as Float64Array)])),
    warnings: r.uie.warnings.map((w) => w.code),
  };
}

describe('--timing-only Weights Read: bookkeeping without bytes gives the full run', () => {
  it('random shapes, alignment, views and uninitialised blocks (FC_RUNS)', () => {
    const runs = Math.max(8, Math.round(Number(process.env['FC_RUNS'] ?? 200) / 5));
    const shape = fc
      .record({
        groups: fc.integer({ min: 1, max: 6 }),
        ptns: fc.oneof(fc.constant(8), fc.integer({ min: 1, max: 8 })),
        offset: fc.oneof(fc.constantFrom(0, 8), fc.integer({ min: 0, max: 15 })),
        stride: fc.constantFrom(8, 16, 8 * 64, 3, 1024),
        is16: fc.boolean(),
        relu: fc.boolean(),
        unhashed: fc.boolean(),
        written: fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
        otherView: fc.boolean(),
      })
      // 16-bit weights read at even partition addresses with an even count (seq §1.1, §7.1)
      .map((s) => (s.is16 ? { ...s, offset: s.offset & ~1, stride: s.stride & ~1 || 2, ptns: Math.max(2, s.ptns & ~1) } : s));
    let aligned = 0;
    let uninit = 0;
    let conflicts = 0;
    fc.assert(
      fc.property(shape, (s) => {
        if (s.ptns === 8 && (s.offset & 7) === 0 && (s.stride & 7) === 0) aligned++;
        const fast = run(s, true);
        expect(fast).toEqual(run(s, false));
        if (fast.amem.uninitReads > 0) uninit++;
        if (fast.amem.viewConflicts > 0) conflicts++;
      }),
      { numRuns: runs },
    );
    // the whole-word path (`Amem.readWordAt`) was exercised, not only the partition fallback; uninitialised reads and
    // view conflicts were among the compared statistics
    expect(aligned).toBeGreaterThan(0);
    expect(uninit).toBeGreaterThan(0);
    expect(conflicts).toBeGreaterThan(0);
  });
});
