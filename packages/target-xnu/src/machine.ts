/**
 * The PEx8 module and its controller on the shared kernel. One engine, ticked
 * every cycle, walks the controller FSM of the spec ("Validation cycles for
 * PEx8 module"): Startup once, then per 16-element beat Init -> Operation ->
 * Aggregation -> Addition -> Output -> Init, each phase lasting the cycles of
 * the spec's table (grammars/xnu/pex8_fsm.json; `--timing rtl` takes the
 * controller's own aggregation counter instead). `dbg_fsm` carries the spec's
 * debug IDs and is a VCD signal and a Perfetto track.
 *
 * What the figures model: the phase timing is cycle-level (the controller
 * FSM); the datapath values are computed once per beat at its Output cycle,
 * bit-exact (datapath.ts) but not per pipeline register. The hot loop touches
 * typed arrays only.
 */
import type { Simulator, SimEngine, TraceTrack, TraceWriter, VcdWriter } from '@pyxis/sim';
import { LANES, Pex8Datapath } from './datapath.js';
import { fpFlags, resetFpFlags } from './fp32.js';
import { dbgFsm, defaultXnuTiming, opName, phaseCycles, type Job, type PhaseCycles, type TimingModel, type XnuTimingParams } from './grammar.js';

export const PHASES = ['startup', 'init', 'operation', 'aggregation', 'addition', 'output'] as const;
export type Phase = (typeof PHASES)[number];
const P_STARTUP = 0, P_INIT = 1, P_OP = 2, P_AGGR = 3, P_ADD = 4, P_OUT = 5;

export interface MachineJob {
  name: string;
  job: Job;
  /** Local-memory vector (Y), vec_len words. */
  query: Uint32Array;
  /** DDR vectors (X), num_vectors x vec_len words. */
  database: Uint32Array;
  /** Result words, one per database vector (filled by the run). */
  results: Uint32Array;
  /** First and last cycle of the job (filled by the run). */
  startCycle: number;
  endCycle: number;
  /** HardFloat's sticky exception flags of this job's operations (fp32.ts FLAG_*; filled by the run). */
  fpFlags: number;
}

export class Pex8Engine implements SimEngine {
  readonly name = 'pex8';
  readonly group = 'XNU PEx8';
  /** Cycles spent per phase (index: PHASES). */
  readonly phaseTotals = new Float64Array(PHASES.length);
  private readonly paths: Pex8Datapath[];
  private readonly cycles: Int32Array; // per job x phase
  private jobIdx = 0;
  private vec = 0;
  private beat = 0;
  private fsmPhase = P_STARTUP;
  private left = 1;
  private phaseStart = 0;
  private acc = 0;
  private done = false;
  private vcdFsm = -1;
  private vcdOp = -1;
  private vcdOut = -1;
  private track: TraceTrack | undefined;
  private jobTrack: TraceTrack | undefined;
  dbg = 0;

  constructor(
    readonly jobs: MachineJob[],
    timing: TimingModel,
    private readonly trace?: TraceWriter,
    private readonly vcd?: VcdWriter,
    params: XnuTimingParams = defaultXnuTiming(),
  ) {
    loadDbgIds();
    this.paths = jobs.map((j) => new Pex8Datapath({ op: j.job.op_type, useInt: j.job.use_int === 1, rounding: j.job.rounding, tininess: j.job.tininess, l1Abs: j.job.l1_mode === 1 }));
    this.cycles = new Int32Array(jobs.length * PHASES.length);
    jobs.forEach((j, i) => {
      const c: PhaseCycles = phaseCycles(j.job.op_type, timing, params);
      PHASES.forEach((p, k) => (this.cycles[i * PHASES.length + k] = c[p]));
    });
    this.done = jobs.length === 0;
    this.left = this.cycles[P_STARTUP] ?? 1;
    this.dbg = dbgFsm('startup');
    if (trace) {
      this.track = trace.track(this.group, 'dbg_fsm');
      this.jobTrack = trace.track(this.group, 'jobs');
    }
    if (vcd) {
      this.vcdFsm = vcd.signal(['xnu', 'pex8'], 'dbg_fsm', 4);
      this.vcdOp = vcd.signal(['xnu', 'pex8'], 'op_type', 2);
      this.vcdOut = vcd.signal(['xnu', 'pex8'], 'out', 32);
    }
  }

  get busy(): boolean {
    return !this.done;
  }

  nextWake(now: number): number {
    return this.done ? Infinity : now;
  }

  blockedReason(): string | undefined {
    return undefined;
  }

  private stateId(): number {
    switch (this.fsmPhase) {
      case P_STARTUP: return dbgStartup;
      case P_INIT: return dbgInit;
      case P_OP: return dbgOp[this.jobs[this.jobIdx]!.job.op_type]!;
      case P_AGGR: return this.left === this.cycles[this.jobIdx * PHASES.length + P_AGGR] ? dbgAggrStart : dbgAggr;
      case P_ADD: return dbgAdd;
      default: return dbgOut;
    }
  }

  tick(now: number): boolean {
    if (this.done) return false;
    const j = this.jobs[this.jobIdx]!;
    if (this.fsmPhase === P_STARTUP && this.left === this.cycles[P_STARTUP] && this.jobIdx === 0) {
      j.startCycle = now;
      if (this.vcd) this.vcd.set(this.vcdOp, j.job.op_type, now);
    }
    this.dbg = this.stateId();
    if (this.vcd) this.vcd.set(this.vcdFsm, this.dbg, now);
    this.phaseTotals[this.fsmPhase]! += 1;
    if (--this.left > 0) return true;
    // Last cycle of the phase.
    if (this.track) this.trace!.slice(this.track, this.phaseStart, now + 1, PHASES[this.fsmPhase]!, { job: j.name, vector: this.vec, beat: this.beat }, 'dbg_fsm');
    this.phaseStart = now + 1;
    if (this.fsmPhase === P_OUT) this.finishBeat(j, now);
    if (this.done) return true;
    const next = this.fsmPhase === P_OUT || this.fsmPhase === P_STARTUP ? P_INIT : this.fsmPhase + 1;
    this.fsmPhase = next;
    this.left = this.cycles[this.jobIdx * PHASES.length + next]!;
    return true;
  }

  /** The Output cycle: the beat's value leaves PE_0; a vector's last beat completes its result. */
  private finishBeat(j: MachineJob, now: number): void {
    const dp = this.paths[this.jobIdx]!;
    const len = j.job.vec_len;
    resetFpFlags(); // per job: the flags of this beat are ORed into its job below
    dp.operate(j.database, this.vec * len + this.beat * LANES, j.query, this.beat * LANES);
    const r = dp.aggregate();
    this.acc = this.beat === 0 ? r : dp.add(this.acc, r);
    j.fpFlags |= fpFlags;
    if (this.vcd) this.vcd.set(this.vcdOut, this.acc, now);
    if (++this.beat * LANES < len) return;
    j.results[this.vec] = this.acc;
    this.beat = 0;
    if (++this.vec < j.job.num_vectors) return;
    j.endCycle = now + 1;
    if (this.jobTrack) this.trace!.slice(this.jobTrack, j.startCycle, j.endCycle, `${j.name} (${opName(j.job.op_type)})`, { vectors: j.job.num_vectors, vec_len: len }, 'job');
    this.vec = 0;
    if (++this.jobIdx >= this.jobs.length) {
      this.done = true;
      return;
    }
    const nj = this.jobs[this.jobIdx]!;
    nj.startCycle = now + 1;
    if (this.vcd) this.vcd.set(this.vcdOp, nj.job.op_type, now + 1);
  }
}

// dbg_fsm IDs, read once from the table.
let dbgStartup = 9, dbgInit = 1, dbgAggrStart = 7, dbgAggr = 8, dbgAdd = 10, dbgOut = 11;
let dbgOp: number[] = [2, 3, 4, 5];
let loaded = false;
export function loadDbgIds(): void {
  if (loaded) return;
  dbgStartup = dbgFsm('startup');
  dbgInit = dbgFsm('init');
  dbgAggrStart = dbgFsm('aggr_start');
  dbgAggr = dbgFsm('aggregation');
  dbgAdd = dbgFsm('final_addition');
  dbgOut = dbgFsm('output');
  dbgOp = ['L2', 'L1', 'DOT', 'SV'].map(dbgFsm);
  loaded = true;
}

/** Cycles a job takes by the cycle table (startup counted once per run, by the first job). */
export function jobCycles(job: Job, timing: TimingModel, first: boolean, params: XnuTimingParams = defaultXnuTiming()): number {
  const c = phaseCycles(job.op_type, timing, params);
  const perBeat = c.init + c.operation + c.aggregation + c.addition + c.output;
  return (first ? c.startup : 0) + job.num_vectors * (job.vec_len / LANES) * perBeat;
}

export function addEngine(sim: Simulator, e: Pex8Engine): void {
  loadDbgIds();
  sim.add(e);
}
