/**
 * The datapath fast paths (UieOptions.fastPaths: deferred switchbox flits, composed conversion tables,
 * identity switch entries skipped, whole AMEM words moved as blocks) must be invisible: random copy
 * programs run with and without them give byte-identical AMEM contents, identical statistics, cycle
 * counts and trip completions.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rig, loops, strides, bytes, observe } from './uie-fixture.js';

const RD_OPS = ['Read_SRAM', 'Read_SRAM_with_ReLU', 'Read_Const'] as const;
const WR_OPS = ['Write', 'RMW_Add', 'Discard'] as const;
const TYPES = ['Recogni_FP8', 'OCP_FP8_E4M3', 'OCP_FP8_E5M2', 'Opaque_8bit', 'Recogni_FP16', 'IEEE_FP16', 'Opaque_16bit'] as const;
const wideType = (t: number) => t >= 4;

const switchSide = fc.record({
  pswVld: fc.boolean(),
  pswIdentity: fc.boolean(),
  pswSrc: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 8, maxLength: 8 }),
  pswZero: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 8, maxLength: 8 }),
  rot: fc.integer({ min: 0, max: 1 }),
  cswVld: fc.boolean(),
  cswIdentity: fc.boolean(),
  cswSeed: fc.integer({ min: 1, max: 1000 }),
  maskIdx: fc.integer({ min: 0, max: 3 }),
  maskActive: fc.boolean(),
  zsw: fc.integer({ min: 0, max: 2 }),
});

const program = fc.record({
  rows: fc.integer({ min: 1, max: 5 }),
  reps: fc.integer({ min: 1, max: 2 }),
  rdOp: fc.constantFrom(0, 0, 0, 1, 2),
  wrOp: fc.constantFrom(0, 0, 0, 1, 2),
  rdType: fc.integer({ min: 0, max: 6 }),
  wrType: fc.integer({ min: 0, max: 6 }),
  sameType: fc.boolean(),
  rdAdj: fc.integer({ min: -32, max: 31 }),
  wrAdj: fc.integer({ min: -32, max: 31 }),
  zeroAdj: fc.boolean(),
  ptns: fc.constantFrom(8, 8, 8, 1, 3, 5, 7),
  colOff: fc.integer({ min: 0, max: 15 }),
  nCols: fc.integer({ min: 1, max: 128 }),
  fullCols: fc.boolean(),
  rdBase: fc.integer({ min: 0, max: 255 }),
  wrBase: fc.integer({ min: 0, max: 255 }),
  aligned: fc.boolean(),
  overlap: fc.boolean(),
  rdView: fc.boolean(),
  wrView: fc.boolean(),
  constV: fc.integer({ min: 0, max: 0xffff }),
  rd: switchSide,
  wr: switchSide,
  seed: fc.integer({ min: 1, max: 1 << 30 }),
  // strides on all six iterators (multiples of the row step) and a third loop level: the per-pc non-zero-stride masks
  // of the decode templates, and addresses that jump back at the inner loop's wrap
  nest: fc.boolean(),
  outer: fc.integer({ min: 1, max: 2 }),
  rdStrides: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 6, maxLength: 6 }),
  wrStrides: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 6, maxLength: 6 }),
  // steady: a copy the run-ahead steady-state batch (Uie.steadyBatch) can take — aligned 8-bit Read_SRAM(+ReLU) ->
  // Write of whole words, identity or no switch entries, longer loops — with some of it randomly broken again
  steady: fc.boolean(),
  longRows: fc.integer({ min: 16, max: 48 }),
  breakOne: fc.constantFrom('none', 'none', 'none', 'wide', 'cols', 'psw', 'pad', 'adj'),
  quantum: fc.constantFrom(16, 64, 256),
});
type Program = typeof program extends fc.Arbitrary<infer T> ? T : never;

/** The `steady` variant of a program: the fields the batch path needs, minus the one named by `breakOne`. */
function steadied(q: Program): Program {
  if (!q.steady) return q;
  const b = q.breakOne;
  // no partition / column switch configuration (an identity entry held from before is allowed: 'psw' sets one)
  const side = (s: Program['rd']) => ({ ...s, pswVld: b === 'psw', pswIdentity: true, cswVld: false, maskActive: false, zsw: 0 });
  return {
    ...q,
    rows: q.longRows,
    rdOp: q.rdOp === 2 ? 0 : q.rdOp,
    wrOp: 0,
    rdType: b === 'wide' ? 4 : q.rdType % 4,
    sameType: true,
    zeroAdj: b !== 'adj',
    ptns: 8,
    fullCols: b !== 'cols',
    aligned: true,
    // overlapping: in place (read and write at the same aligned rows)
    wrBase: q.overlap ? q.wrBase - (q.wrBase % 3) : q.wrBase,
    rd: side(q.rd),
    wr: side(q.wr),
  };
}

function programRig(p0: Program, fastPaths: boolean, data: Uint8Array): Rig {
  const p = steadied(p0);
  const r = new Rig({ fastPaths });
  r.amem.writeBytes(0, data); // sources at partitions < 0x800, destinations from partition 0x800 (some overwrite data)
  const rdType = p.rdType;
  const wrType = p.sameType ? rdType : p.wrType;
  const wide = wideType(rdType) || wideType(wrType);
  // 16-bit accesses start at even partitions (seq §1.1): aligned / even bases and strides
  const step = wide ? 16 : 8;
  const rdBase = p.aligned ? p.rdBase * 8 : p.rdBase * 2;
  // overlap: write over the rows being read (in place or a few partitions further: read-after-write through the pipeline)
  const wrBase = p.overlap ? rdBase + (p.wrBase % 3) * 2 : (p.aligned ? p.wrBase * 8 : p.wrBase * 2) + 0x800;
  const sides = [
    { s: p.rd, psw: 'rpsw.config', csw: 'rcsw.config', mask: 'rcsw.col_mask' },
    { s: p.wr, psw: 'wpsw.config', csw: 'wcsw.config', mask: 'wcsw.col_mask' },
  ];
  for (const { s, psw, csw, mask } of sides) {
    for (let e = 0; e < 8; e++)
      r.table(psw, e, s.pswIdentity ? { src_ptn: [0, 1, 2, 3, 4, 5, 6, 7] } : { src_ptn: s.pswSrc.map((v, o) => (v + e + o) % 8), ptn_zero: s.pswZero });
    const cb = bytes(256, s.cswSeed);
    r.table(csw, 3, s.cswIdentity ? { col_src: Array.from({ length: 128 }, (_, c) => c & 15) } : { col_src: Array.from({ length: 128 }, (_, c) => cb[c]! & 15), col_mux_sel: Array.from({ length: 128 }, (_, c) => cb[128 + c]! % 3) });
    if (s.maskActive) r.table(mask, s.maskIdx, { col_override: Array.from({ length: 128 }, (_, c) => (c * 7 + s.cswSeed) % 5 === 0 ? 1 + (c & 1) : 0) });
  }
  const rd = p.rd;
  const wr = p.wr;
  const ctl = loops(p.nest ? [{ n: p.rows }, { n: p.reps }, { n: p.outer }] : [{ n: p.rows }, { n: p.reps }]);
  // -1: the row step itself; iterator 0 always steps by at least one row when nested
  const nestStrides = (k: number[]) => k.map((v, i) => (v < 0 ? step : i === 0 ? Math.max(v, 1) * step : v * step));
  const rdStrides = p.nest ? nestStrides(p.rdStrides) : strides(step, 0);
  const wrStrides = p.nest ? nestStrides(p.wrStrides) : strides(step, 0);
  r.prog('amem_read', 0, ctl, {
    opcd: RD_OPS[p.rdOp]!,
    data_type: TYPES[rdType]!,
    tgt_fifo: 'AMEM_write',
    num_logical_ptns: p.ptns,
    eb_adj: p.zeroAdj ? 0 : p.rdAdj,
    rd_const_value: p.constV,
    iter_stride: rdStrides,
    ...(p0.steady && p0.breakOne === 'pad' ? { start_row_pad: 1, pad_row_iter_mask: 1 } : {}),
    rpsw_config_vld: rd.pswVld ? 1 : 0,
    rpsw_rot_enbl: rd.rot,
    rpsw_config_idx_base: 0,
    rcsw_switch_config_vld: rd.cswVld ? 1 : 0,
    rcsw_switch_config_idx_base: 3,
    rcsw_col_mask_config_idx: rd.maskIdx,
    rzsw_config: rd.zsw,
  });
  const colOff = p.fullCols ? 0 : p.colOff;
  const nCols = p.fullCols ? 128 : Math.min(p.nCols, 128 - colOff);
  r.prog('amem_write', 0, ctl, {
    opcd: WR_OPS[p.wrOp]!,
    data_type: TYPES[wrType]!,
    src_fifo: 'AMEM_read',
    eb_adj: p.zeroAdj ? 0 : p.wrAdj,
    logical_col_offset: colOff,
    num_logical_cols: nCols,
    rmw_rd_addr_offset: 0,
    iter_stride: wrStrides,
    wpsw_config_vld: wr.pswVld ? 1 : 0,
    wpsw_rot_enbl: wr.rot,
    wpsw_config_idx_base: 0,
    wcsw_switch_config_vld: wr.cswVld ? 1 : 0,
    wcsw_switch_config_idx_base: 3,
    wcsw_col_mask_config_idx: wr.maskIdx,
    wzsw_config: wr.zsw,
  });
  r.trip({ amem_read_base_address: rdBase, amem_write_base_address: wrBase, amem_read_bank_hash_dsbl: p.rdView ? 1 : 0, amem_write_bank_hash_dsbl: p.wrView ? 1 : 0 });
  return r;
}

describe('datapath fast paths are invisible (UieOptions.fastPaths)', () => {
  it('random copy programs: same AMEM bytes, statistics, cycles and trip completions with and without fast paths', () => {
    const errors: string[] = [];
    let runs = 0;
    let batched = 0;
    /** Runs `p` three ways (general path, fast paths, fast paths in run-ahead windows); all must agree. */
    const check = (p: Program) => {
      let fastErr: unknown;
      let slowErr: unknown;
      let aheadErr: unknown;
      let fast: unknown;
      let slow: unknown;
      let ahead: unknown;
      const data = bytes(0x10000, p.seed);
      try {
        fast = observe(programRig(p, true, data));
      } catch (e) {
        fastErr = e instanceof Error ? e.message : e;
      }
      // fast paths in run-ahead windows (steady-state batches, Uie.steadyBatch)
      const ra = programRig(p, true, data);
      try {
        ahead = observe(ra, p.quantum);
      } catch (e) {
        aheadErr = e instanceof Error ? e.message : e;
      }
      batched += ra.uie.batchedCycles;
      try {
        slow = observe(programRig(p, false, data));
      } catch (e) {
        slowErr = e instanceof Error ? e.message : e;
      }
      runs++;
      if (fastErr) errors.push(String(fastErr));
      expect(fastErr).toEqual(slowErr);
      expect(fast).toEqual(slow);
      expect(aheadErr).toEqual(slowErr);
      expect(ahead).toEqual(slow);
    };
    fc.assert(fc.property(program, check), { numRuns: 100 });
    // Whether the random programs above reach the batch path is luck (about 1 seed in 7 does not), so the
    // property always also runs steady programs from a fixed seed until batches have been compared.
    if (batched === 0) {
      const steadyPrograms = fc.sample(program.map((q) => ({ ...q, steady: true, breakOne: 'none' as const })), { seed: 7, numRuns: 40 });
      for (const q of steadyPrograms) {
        check(q);
        if (batched > 0) break;
      }
    }
    // the property is only meaningful if most programs run to completion (rule errors end a run early)
    if (process.env.UIE_FASTPATH_DEBUG) console.log(runs, errors.length, [...new Set(errors.map((e) => e.slice(0, 100)))]);
    expect(errors.length).toBeLessThan(runs / 3);
    // and the batch path was exercised
    expect(batched).toBeGreaterThan(0);
  });

  it('an aligned 8-bit identity copy takes the block-move path and still matches the general path', () => {
    const mk = (fastPaths: boolean) => {
      const r = new Rig({ fastPaths });
      r.amem.writeBytes(0x10000, bytes(1280, 3));
      r.prog('amem_read', 0, loops([{ n: 10 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP8', tgt_fifo: 'AMEM_write', iter_stride: strides(8) });
      r.prog('amem_write', 0, loops([{ n: 10 }]), { opcd: 'Write', data_type: 'Recogni_FP8', src_fifo: 'AMEM_read', iter_stride: strides(8) });
      r.trip({ amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x30000 >> 4 });
      return r;
    };
    const a = mk(true);
    const b = mk(false);
    expect(observe(a)).toEqual(observe(b));
    expect(a.amem.readBytes(0x30000, 1280)).toEqual(bytes(1280, 3));
  });
});
