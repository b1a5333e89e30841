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
import { RunAheadWindow, Simulator, type SimEngine } from '@pyxis/sim';
import { Apm } from '../../src/sim/apm.js';
import { defaultSimConfig } from '../../src/sim/config.js';
import { PHASE } from '../../src/sim/engines.js';
import type { Trip } from '../../src/sim/trip.js';
import type { Uie, UieOptions } from '../../src/sim/uie/index.js';
import { UieSlot } from '../../src/sim/uieSlot.js';
import { UieTripStats } from '../../src/sim/uieTripStats.js';
import { AMEM_VIEW_BIT } from '../../src/sim/amem/index.js';
import { Rig, loops, observe, strides } from './uie-fixture.js';
import { Vpu } from '../../src/sim/uie/compute/vpu.js';
import { chainDiag } from '../../src/sim/uie/compute/vpuChain.js';

const RUNS = Number(process.env['FC_RUNS'] ?? 12);
const SEQ = { amem_read: 0, amem_write: 1, vi: 8, sb2vb: 9, vb2sb: 10, vpu2vb: 11, vb2vpu: 12 };
const ALL = Object.values(SEQ).reduce((m, s) => m | (1 << s), 0);

type Kind = 'add' | 'mul' | 'max' | 'nop' | 'lut' | 'mov' | 'peek' | 'bad' | 'relu' | 'neg' | 'r5';
interface Case {
  rows: number;
  pre: Kind[];
  mid: Kind[];
  post: Kind[];
  commit: number;
  seed: number;
  /** The OutFIFO push by a chain link (MUL r1 <- r1 x 0.75, compute/vpuChain.ts) instead of MOV r4 <- r1. */
  pushLink?: boolean;
}

/** Pure (or, `peek`, InFIFO-reading) instructions on r1; `r5`: r5 <- max(r1, -1), then r5 <- r5 + 0.25 (a chain on
 * another register, reading r1 in the middle of r1's chain). */
function ins(k: Kind): FieldValues[] {
  if (k === 'r5')
    return [
      { opcode: 'MAX', dtype: 'FP16', rd: 5, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: 0xbc00, wr_gpr_en: 1 },
      { opcode: 'ADD', dtype: 'FP16', rd: 5, rs1: 5, src1_sel: 'GPR', src2_sel: 'IMM', imm: 0x3400, wr_gpr_en: 1 },
    ];
  return [ins1(k)];
}
function ins1(k: Kind): FieldValues {
  switch (k) {
    case 'relu':
      return { opcode: 'RELU', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', wr_gpr_en: 1 };
    case 'neg':
      return { opcode: 'NEG', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', wr_gpr_en: 1 };
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
    case 'bad':
      // reads r9, which nothing writes: a program error (chip §6.4, compute/vpu.ts)
      return { opcode: 'ADD', dtype: 'FP16', rd: 1, rs1: 1, rs2: 9, src1_sel: 'GPR', src2_sel: 'GPR', wr_gpr_en: 1 };
    default:
      return { opcode: 'NOP' };
  }
}

/** pre (before the pop: no r1 use) + pop into r1 + mid + push of r1 + post. */
function program(c: Case): FieldValues[] {
  const safePre = c.pre.map((k) => (k === 'add' || k === 'mul' || k === 'max' || k === 'lut' ? 'mov' : k));
  // (after the push, r1 may be read by `r5` only once the pop wrote it: `post` links and r5 wait for the next row)
  return [
    ...safePre.flatMap(ins),
    { opcode: 'MUL', dtype: 'FP16', rd: 1, src1_sel: 'IN_FIFO', src2_sel: 'IMM', imm: 0x3800, wr_gpr_en: 1, in_fifo_pop: 1 },
    ...c.mid.flatMap(ins),
    c.pushLink
      ? { opcode: 'MUL', dtype: 'FP16', rd: 1, rs1: 1, src1_sel: 'GPR', src2_sel: 'IMM', imm: 0x3a00, wr_gpr_en: 1, out_fifo_push: 1 }
      : { opcode: 'MOV', dtype: 'FP16', rd: 4, rs1: 1, src1_sel: 'GPR', out_fifo_push: 1 },
    ...c.post.flatMap(ins),
  ];
}

/** A Rig whose UIE runs the VPU-bound programs of `c` (trips: `r.trip` with `rigTrip`). */
function setup(c: Case, opts: Partial<UieOptions>): Rig {
  const r = new Rig({ writeCommitLatency: c.commit, ...opts });
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
  return r;
}
const rigTrip = { trip_valid_mask: ALL, amem_read_base_address: 0x1000 >> 4, amem_write_base_address: 0x40000 >> 4 };

/** What the UIE holds after a run: compute statistics, VPU registers, per-trip records, compute FIFO counters. */
function uieState(u: Uie, obs: UieTripStats): unknown {
  return {
    compute: { ...u.cmp.stats },
    vpu: { gpr: Buffer.from(u.cmp.vpu.gpr.buffer).toString('base64'), cntr: u.cmp.vpu.cntr, pred: [...u.cmp.vpu.pred], written: u.cmp.vpu.written },
    trips: obs.book.done,
    active: obs.book.activeCycles,
    units: [...u.cmp.bySeq].filter((x) => x).map((x) => [x!.dec.pushes, x!.dec.pops, x!.dec.fullStalls, x!.dec.maxOccupancy]),
  };
}

function run(c: Case, fastPaths: boolean, quantum: number): unknown {
  const obs = new UieTripStats(false);
  const r = setup(c, { fastPaths, observer: obs });
  r.trip({ trip_id: 3, ...rigTrip });
  const seen = observe(r, quantum, 0x48000);
  const u = r.uie;
  return {
    seen,
    ...(uieState(u, obs) as object),
    vpu: { gpr: Buffer.from(u.cmp.vpu.gpr.buffer).toString('base64'), cntr: u.cmp.vpu.cntr, pred: [...u.cmp.vpu.pred] },
    trips: obs.book.done,
    active: obs.book.activeCycles,
    replayed: fastPaths ? u.vpuBatch.cycles : 0,
    commitRuns: fastPaths ? u.vpuBatch.commitRuns : 0,
    commitsReplayed: fastPaths ? u.vpuBatch.commitsReplayed : 0,
  };
}

// (an InFIFO read after the pop would wait forever after the last row: `peek` only before the pop)
const kinds = fc.constantFrom<Kind>('add', 'mul', 'max', 'nop', 'lut', 'mov', 'relu', 'neg', 'r5');
const cases = fc.record({
  rows: fc.integer({ min: 1, max: 20 }),
  pre: fc.array(fc.constantFrom<Kind>('nop', 'mov', 'peek'), { maxLength: 3 }),
  mid: fc.array(kinds, { maxLength: 14 }),
  post: fc.array(kinds, { maxLength: 4 }),
  commit: fc.integer({ min: 1, max: 12 }),
  seed: fc.integer({ min: 1, max: 1 << 30 }),
  pushLink: fc.boolean(),
});

/**
 * Starts the scripted trips on the slot (trip-manager phase, as chip/control.ts does): each when due and accepted;
 * and changes the APM's RequestedPower at the scripted `pulses` cycles, as trips of other engines would (a rise can
 * drop the utilisation below 1 while the UIE defers VPU-only cycles).
 */
class Starter implements SimEngine {
  readonly name = 'starter';
  readonly phase = PHASE.tripManager;
  private k = 0;
  private p = 0;
  constructor(
    private readonly slot: UieSlot,
    private readonly apm: Apm,
    private readonly script: ReadonlyArray<{ at: number; power: number }>,
    private readonly pulses: ReadonlyArray<{ at: number; power: number }>,
  ) {}
  get busy(): boolean {
    return this.k < this.script.length || this.p < this.pulses.length;
  }
  tick(now: number): boolean {
    let did = false;
    for (; this.p < this.pulses.length && this.pulses[this.p]!.at <= now; this.p++) {
      this.apm.request(this.pulses[this.p]!.power, now);
      did = true;
    }
    const t = this.script[this.k];
    if (!t || t.at > now || !this.slot.canAccept()) return did;
    const fields = { ...rigTrip, trip_id: 10 + this.k, start_pc: new Array(13).fill(0) };
    this.slot.start({ tripId: 10 + this.k, trip_power: t.power, fields } as unknown as Trip, now);
    this.k++;
    return true;
  }
  nextWake(now: number): number {
    const t = this.script[this.k];
    const q = this.pulses[this.p];
    return Math.max(now, Math.min(t ? t.at : Infinity, q ? q.at : Infinity));
  }
  blockedReason(): string | undefined {
    return this.busy ? 'trips to start' : undefined;
  }
}

type KernelMode = 'full' | 'lockstep' | 'deferred' | 'ahead';
/** The last runKernel's deferral diagnostics (VpuBatchState.deferred / cut; not part of the compared results). */
const diag = { deferred: 0, cut: 0 };

/**
 * The UIE under the kernel (Simulator) through its chip slot (UieSlot: trip starts, APM admission, run-ahead windows,
 * the kernel-level deferral of VPU-only cycles, Uie.vpuSkipUntil), with trips started at scripted cycles (some while
 * the UIE replays VPU-only cycles) and an APM whose utilisation drops below 1 for trips with a high trip_power.
 * `full`: fast paths off; `lockstep`: replays in `tick` only (deferVpu off); `deferred`: replays the kernel does
 * not tick; `ahead`: deferred, and run-ahead windows of 64 cycles where the gate allows. `stops`: --max-cycles stops
 * before the final run (the deferral may not outlive a run).
 */
function runKernel(c: Case, trips: ReadonlyArray<{ at: number; power: number }>, pulses: ReadonlyArray<{ at: number; power: number }>, apmOn: boolean, stops: readonly number[], mode: KernelMode): unknown {
  const obs = new UieTripStats(false);
  const done: Array<[number, number]> = [];
  let slot: UieSlot | undefined;
  const r = setup(c, { fastPaths: mode !== 'full', observer: obs, onTripDone: (t, at) => slot!.retire(t, at) });
  r.uie.deferVpu = mode === 'deferred' || mode === 'ahead';
  const cfg = { ...defaultSimConfig().apm, enabled: apmOn, power_update_period: 16, max_delta_power: 8, min_granted_power: 32 };
  const apm = new Apm(cfg, 1);
  const sim = new Simulator();
  apm.kernel = sim;
  slot = new UieSlot(0, 0, (t, at) => done.push([t.tripId, at]), apm, 0);
  slot.kernel = sim;
  slot.model = r.uie;
  slot.window = new RunAheadWindow(mode === 'ahead' ? 64 : 1, sim);
  // the chip's gate without other engines (chip.ts runAheadGate): APM admitting every cycle, no trip can start
  slot.gate = { runAheadGate: (s) => (apm.utilization < 1 || s.canAccept() ? 0 : 2) };
  sim.add(new Starter(slot, apm, trips, pulses));
  sim.add(slot);
  sim.add(apm);
  let runs: unknown;
  try {
    runs = [...stops, 200_000].map((m) => {
      const x = sim.run({ maxCycles: m });
      // the state at a stop too: a deferral never outlives a run
      return { reason: x.reason, cycles: x.cycles, steps: x.steps, uie: uieState(r.uie, obs), engines: sim.engineStats() };
    });
  } catch (e) {
    // a program error stops the run where lockstep stops it (the kernel's cycle included)
    runs = { error: (e as Error).message, at: sim.now };
  }
  const u = r.uie;
  const st = u.stats;
  diag.deferred = u.vpuBatch.deferred;
  diag.cut = u.vpuBatch.cut;
  return {
    runs,
    done,
    engines: sim.engineStats(),
    apm: [apm.bubbles, apm.energy, apm.granted],
    uie: { ...st, busyCycles: [...st.busyCycles], stallCycles: [...st.stallCycles], datapathStallCycles: [...st.datapathStallCycles], instructions: [...st.instructions] },
    fifos: [u.rd.dec, u.wr.dec, u.sbReadToWrite, u.sbReadToVbuffer, u.sbVbufferToWrite].map((f) => [f.pushes, f.pops, f.fullStalls, f.maxOccupancy]),
    amem: { ...r.amem.stats, bankAccesses: [...r.amem.stats.bankAccesses] },
    mem: Buffer.from(r.amem.readBytes(AMEM_VIEW_BIT, 0x48000)).toString('base64'),
    ...(uieState(u, obs) as object),
  };
}

describe('VPU-only cycle replay (uie/vpuBatch.ts) is exact', () => {
  it('random VPU-bound trips: fast paths on (lockstep and run-ahead) = off, cycle for cycle and counter for counter', () => {
    let replayed = 0;
    let commitRuns = 0;
    let commitsReplayed = 0;
    fc.assert(
      fc.property(cases, (c) => {
        const off = run(c, false, 0) as { replayed: number };
        const on = run(c, true, 0) as { replayed: number; commitRuns: number; commitsReplayed: number };
        replayed += on.replayed;
        commitRuns += on.commitRuns;
        commitsReplayed += on.commitsReplayed;
        expect({ ...on, replayed: 0, commitRuns: 0, commitsReplayed: 0 }).toEqual(off);
        // run-ahead windows: the same as lockstep, per-trip records included (the VPU instruction that ends a trip's
        // program in its retirement cycle is the trip's in both)
        const ahead = run(c, true, 64) as { replayed: number };
        expect({ ...ahead, replayed: 0, commitRuns: 0, commitsReplayed: 0 }).toEqual(off);
      }),
      { numRuns: RUNS, seed: 23 },
    );
    // the property is not vacuous: the replay ran, also from cycles with a write commit (Uie.tick, issue 23 fifth round)
    // or through write commits, which the replay makes (vpuBatch.ts `commitsRetireNothing`, issue 23 eighth round)
    expect(replayed).toBeGreaterThan(0);
    expect(commitRuns + commitsReplayed).toBeGreaterThan(0);
    expect(commitsReplayed).toBeGreaterThan(0);
  });

  it('two trips back to back: the write commit that lets the first retire ends a replay run of the second (vpuBatch.ts commitsRetireNothing)', () => {
    // the second trip's VPU program runs pure instructions while the first trip's last writes commit (a long commit
    // latency): the commit that completes the first trip retires it in its own cycle, fast paths on as off
    const mid: Kind[] = Array.from({ length: 40 }, (_, i) => (['add', 'max', 'mul', 'nop'] as const)[i % 4]!);
    let replayedCommits = 0;
    for (const [rows, commit] of [[1, 30], [2, 45], [3, 60], [1, 90]] as const) {
      const c: Case = { rows, pre: [], mid, post: [], commit, seed: rows * 7 + commit };
      const two = (fastPaths: boolean): unknown => {
        const obs = new UieTripStats(false);
        const r = setup(c, { fastPaths, observer: obs });
        expect(r.trip({ trip_id: 3, ...rigTrip })).toBe(true);
        expect(r.trip({ trip_id: 4, ...rigTrip })).toBe(true);
        const seen = observe(r, 0, 0x48000);
        if (fastPaths) replayedCommits += r.uie.vpuBatch.commitsReplayed;
        return { seen, ...(uieState(r.uie, obs) as object) };
      };
      expect(two(true)).toEqual(two(false));
    }
    // not vacuous: some commits were made by replays (the others ended runs: the first trip's retirement)
    expect(replayedCommits).toBeGreaterThan(0);
  });

  it('fused chains of unary instructions (compute/vpuChain.ts): result tables at once, chains applied in turn and as composed tables = fast paths off', () => {
    const saved = [Vpu.tableAfter, Vpu.chainAfter];
    const d0 = { ...chainDiag };
    try {
      // tables from the first execution on both sides (the off side executes each instruction by its table); the
      // chains' composed tables after 0 or 2 flushes (new tables: the same chain shapes recur with other seeds)
      Vpu.tableAfter = 0;
      fc.assert(
        fc.property(cases, fc.constantFrom(0, 2), (c, after) => {
          Vpu.chainAfter = after;
          const off = run(c, false, 0);
          expect({ ...(run(c, true, 0) as object), replayed: 0, commitRuns: 0, commitsReplayed: 0 }).toEqual(off);
          expect({ ...(run(c, true, 64) as object), replayed: 0, commitRuns: 0, commitsReplayed: 0 }).toEqual(off);
        }),
        { numRuns: RUNS * 2, seed: 31 },
      );
      // not vacuous: chains of two or more links were flushed, and composed tables were built
      expect(chainDiag.flushes).toBeGreaterThan(d0.flushes);
      expect(chainDiag.composed).toBeGreaterThan(d0.composed);
    } finally {
      [Vpu.tableAfter, Vpu.chainAfter] = saved as [number, number];
    }
  });

  it('a long pure run (rows x 16 instructions, the bench-vpu shape) is mostly replayed', () => {
    const c: Case = { rows: 12, pre: [], mid: ['add', 'max', 'mul', 'nop', 'add', 'max', 'mul', 'nop', 'add', 'max', 'mul', 'nop', 'add', 'max'], post: [], commit: 10, seed: 5 };
    const off = run(c, false, 0);
    const on = run(c, true, 0) as { replayed: number };
    expect({ ...on, replayed: 0, commitRuns: 0, commitsReplayed: 0 }).toEqual(off);
    expect(on.replayed).toBeGreaterThan(12 * 4);
  });
  it('under the kernel: deferred VPU-only cycles (not ticked) = replays in tick = fast paths off, with trip starts, APM drops, stops and run-ahead', () => {
    let deferred = 0;
    let cut = 0;
    const trips = fc.array(fc.record({ at: fc.integer({ min: 0, max: 600 }), power: fc.constantFrom(0, 0, 20, 60, 127) }), { minLength: 1, maxLength: 4 });
    // RequestedPower steps of other engines' trips (each rise followed by its fall)
    const pulses = fc
      .array(fc.record({ at: fc.integer({ min: 0, max: 400 }), len: fc.integer({ min: 1, max: 300 }), power: fc.integer({ min: 1, max: 127 }) }), { minLength: 1, maxLength: 4 })
      .map((a) => a.flatMap((x) => [{ at: x.at, power: x.power }, { at: x.at + x.len, power: -x.power }]));
    fc.assert(
      fc.property(cases, trips, pulses, fc.constantFrom(true, true, true, false), fc.array(fc.integer({ min: 1, max: 900 }), { maxLength: 2 }), (c, t, pu, apmOn, stops) => {
        const script = [...t].sort((a, b) => a.at - b.at);
        const pul = [...pu].sort((a, b) => a.at - b.at);
        const st = [...stops].sort((a, b) => a - b);
        const full = runKernel(c, script, pul, apmOn, st, 'full');
        expect(runKernel(c, script, pul, apmOn, st, 'lockstep')).toEqual(full);
        expect(runKernel(c, script, pul, apmOn, st, 'deferred')).toEqual(full);
        deferred += diag.deferred;
        cut += diag.cut;
        expect(runKernel(c, script, pul, apmOn, st, 'ahead')).toEqual(full);
      }),
      { numRuns: RUNS, seed: 29, endOnFailure: true },
    );
    // not vacuous: cycles were deferred, and deferrals were ended early by trip starts or APM drops
    expect(deferred).toBeGreaterThan(0);
    expect(cut).toBeGreaterThan(0);
  });
  it('under the kernel: a program error in a pure run stops the run at the cycle lockstep stops it', () => {
    const c: Case = { rows: 2, pre: [], mid: [...(Array.from({ length: 24 }, (_, i) => (['add', 'max', 'mul'] as const)[i % 3]) as Kind[]), 'bad', 'add'], post: [], commit: 10, seed: 7 };
    const full = runKernel(c, [{ at: 0, power: 0 }], [], false, [], 'full') as { runs: { error?: string } };
    expect(full.runs.error).toMatch(/SIM0655|reads GPR r9/);
    expect(runKernel(c, [{ at: 0, power: 0 }], [], false, [], 'deferred')).toEqual(full);
    // (the deferral ran before the error: cycles of the rows' pure runs up to the bad instruction)
    expect(diag.deferred).toBeGreaterThan(0);
  });
});
