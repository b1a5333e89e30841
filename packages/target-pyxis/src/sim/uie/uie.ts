/**
 * One UIE's sequencers and data-movement datapath (pyxis-uie-sequencers-fspec.md
 * §2-§8; pyxis-chip-fspec.md §6.2.1-§6.2.3, §7, §11.7.1):
 *
 *   13 sequencer cores (§2.1.4) -> per-sequencer decoder-metadata FIFO (§3)
 *   AMEM Read: address calc (§5.2, ITFE §8) -> AMEM (§7) -> RPSW -> 8b->16b
 *              -> RZSW -> RCSW + column mask -> switchbox FIFO (chip §6.2.3)
 *   AMEM Write: switchbox FIFO -> WZSW -> WCSW + mask -> 16b->8b -> WPSW
 *              -> AMEM write / partial merge / RMW_Add (§6) -> completion tracking (§6.8)
 *
 * The grid and VPU are not modelled yet: flits sent to them are counted and
 * dropped (warning), their sequencers run their loop programs without a
 * datapath (warning), and AMEM Write reading from their switchbox FIFOs waits
 * forever (reported by `blockedReason`, so the kernel's deadlock report names it).
 *
 * This file is the engine core (trips, the cycle, run-ahead, diagnostics); the concerns live in
 * records.ts (state records and word layouts), codes.ts (enum codepoints by name), opFields.ts (op-field binding),
 * config.ts (config loading), addressGen.ts (address generation), readPath.ts / writePath.ts (the datapaths),
 * switches.ts (PSW/ZSW/CSW), sequencing.ts (per-sequencer trip start and issue), weightsRead.ts (AMEM Weights Read)
 * and steadyBatch.ts (the steady-state batch path).
 * The datapath state fields below without `private` are shared with those modules (functions taking the Uie).
 */
import { DiagnosticError, error, warning, type Diagnostic } from '@pyxis/diagnostics';
import type { SimEngine } from '@pyxis/sim';
import type { Amem } from '../amem/amem.js';
import { PORT_WEIGHTS, uieClient } from '../amem/clients.js';
import { tryTable, UieConfig } from './config.js';
import { defaultSimConfig, type UieParams } from '../config.js';
import type { ItfeCommand } from './itfe.js';
import type { UieObserver } from './observer.js';
import { CommitRing } from './commits.js';
import { Compute } from './compute/index.js';
import { bindSeq } from './opFields.js';
import { ReadPath } from './readPath.js';
import type { SeqState, TripSlot, UieOptions, UieStats, UieTripParams } from './records.js';
import * as records from './records.js';
import { ControlStore, emptyControlStore, SequencerCore } from './sequencerCore.js';
import * as sequencing from './sequencing.js';
import * as steadyBatchM from './steadyBatch.js';
import * as stallRunM from './stallRun.js';
import { SwitchboxFifo } from './switchbox.js';
import { VpuBatchState } from './vpuBatch.js';
import { updateSwitchSummaries, type OpStore, type SwitchTables } from './tables.js';
import { TripTable } from './trips.js';
import { WeightsPort } from './weightsRead.js';
import { WritePath } from './writePath.js';
import { dbl } from '@pyxis/sim';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { CHIP_SPEC_F, NUM_SEQUENCERS, RW_ACTIVE, SEQ_AMEM_READ, SEQ_AMEM_WEIGHTS_READ, SEQ_AMEM_WRITE, SEQ_QUEUE, TRIP_SLOTS, UieCodes } = records;
/** seqActive bits of the sequencers feeding the compute half (all but AMEM Read / Write). */
const COMPUTE_SEQS = ((1 << NUM_SEQUENCERS) - 1) & ~((1 << SEQ_AMEM_READ) | (1 << SEQ_AMEM_WRITE));
/** `seqActive` bits of the sequencers whose datapaths claim AMEM banks. */
const CLAIM_SEQS = RW_ACTIVE | (1 << SEQ_AMEM_WEIGHTS_READ);
const { BATCH_MIN, BATCH_RETRY, SteadyBatchState, steadyBatch } = steadyBatchM;
const { stepSeq } = sequencing;
const { drainRun, markStall, StallRunState, stallRun } = stallRunM;

export * from './records.js';
export { applyCsw, applyPsw, applyZsw } from './switches.js';

export class Uie implements SimEngine {
  readonly name: string;
  readonly cluster: number;
  readonly index: number;
  readonly amem: Amem;
  readonly stats: UieStats;
  readonly warnings: Diagnostic[] = [];
  readonly seqs: SeqState[] = [];
  /** Switchbox FIFO AMEM Read -> AMEM Write (chip §6.2.3), 128 x FP16 per entry. */
  /** Switchbox FIFOs (chip §6.2.3), 128 x RFP16 per entry. */
  readonly sbReadToWrite: SwitchboxFifo;
  readonly sbReadToGrid: SwitchboxFifo;
  readonly sbReadToVbuffer: SwitchboxFifo;
  readonly sbGridToWrite: SwitchboxFifo;
  readonly sbVbufferToWrite: SwitchboxFifo;
  /** Grid writeback -> Vbuffer (GWB tgt_fifo=VPU, SB2VB src Grid) and Vbuffer -> Grid (VB2SB tgt Grid, GV Read_VPU_FIFO), chip Table 6-3. */
  readonly sbGridToVbuffer: SwitchboxFifo;
  readonly sbVbufferToGrid: SwitchboxFifo;
  /** Whether a grid / VPU model consumes and produces the grid / vbuffer FIFOs (else: dropped / never filled). */
  readonly attachGrid: boolean;
  readonly attachVbuffer: boolean;
  /** The compute half: weights path, grid, writeback (compute/index.ts). */
  readonly cmp: Compute;
  /** See UieOptions.fastPaths. */
  readonly fastPaths: boolean;
  /** The AMEM Read and AMEM Write datapaths with the state they own (readPath.ts, writePath.ts). */
  readonly rd: ReadPath;
  readonly wr: WritePath;
  /** Per sbReadToWrite entry: the cycle its data is there (read pipeline, docs/timing-model.md; = sbReadToWrite.readyAt). */
  readonly sbReadyAt: Float64Array;
  /** The AMEM Weights Read port (weightsRead.ts). */
  readonly wt: WeightsPort;
  /** Microcode, switch-table and ITFE-command loading from the config space (config.ts). */
  readonly config: UieConfig;
  /** ITFE command registers set directly (tests/tools without a cfg space), by side and index 0..3. */
  readonly itfeOverride: { read: Array<ItfeCommand | undefined>; write: Array<ItfeCommand | undefined> };
  /** This machine instance's UIE parameters (sim_config.json `uie`, `grid`, `weights_path`). */
  readonly params: UieParams;
  /** Statistics and traces (observer.ts): called at trip acceptance, around every simulated cycle and at retirement; undefined: none (one flag check per cycle). */
  readonly observer: UieObserver | undefined;
  private readonly onTripDone: ((tripId: number, cycle: number) => void) | undefined;
  private readonly onDiagnostic: ((d: Diagnostic) => void) | undefined;
  readonly onPartialWrite: ((byteAddr: number, tripId: number, cycle: number, rmw?: boolean) => void) | undefined;
  /** Tracking IDs and in-order retirement (trips.ts). */
  readonly trips = new TripTable();
  /** Posted AMEM writes until they commit (commits.ts). */
  readonly commits: CommitRing;
  lastDidWork = false;
  /** Set by `tick`: the only progress of the cycle was VI executing a VPU instruction (vpuBatch.ts). */
  onlyVpu = false;
  /** Steady-state batches (steadyBatch.ts, batchMove.ts). */
  readonly batch = new SteadyBatchState();
  /** Stall runs (stallRun.ts). */
  readonly stall = new StallRunState();
  /** VPU-only batches (vpuBatch.ts). */
  readonly vpuBatch = new VpuBatchState();
  /** Bumped by every `tick`, trip start and batch: the batch's cached addresses are valid while it is unchanged. */
  stateGen = 0;
  /** `csr.convert_mode` as sampled at the last trip start (chip §4.9, §4.10; convert.ts), and where it is read. */
  convertMode = 0;
  convertModeSource: () => number = () => 0;
  /** Bit id set while sequencer id has a running core or a queued trip (the tick loop visits only these; Compute.tick
   * reads it: no grid work can arrive while no grid sequencer is active). Written here only. */
  seqActive = 0;
  portWake = Infinity;
  now = dbl(0);
  // run-ahead (temporal decoupling, docs/simulator.md "Quantum"): retirements captured instead of reported
  private deferring = false;
  private readonly deferredIds = new Float64Array(TRIP_SLOTS);
  private deferredAt = dbl(0);
  private deferredN = 0;
  /** Set by a retirement (always) or a descriptor-FIFO pop (when `stopOnPop`) during run-ahead: ends the run-ahead after the cycle. */
  visible = false;
  stopOnPop = false;
  blocked: string | undefined;
  private readonly warned = new Set<string>();

  constructor(opts: UieOptions) {
    this.cluster = opts.cluster;
    this.index = opts.index;
    this.name = `c${opts.cluster}.uie${opts.index}`;
    this.amem = opts.amem;
    this.config = new UieConfig(opts.cfg, opts.index, opts.cfgBase);
    this.itfeOverride = this.config.itfeOverride;
    this.onTripDone = opts.onTripDone;
    this.observer = opts.observer;
    this.onDiagnostic = opts.onDiagnostic;
    this.onPartialWrite = opts.onPartialWrite;
    this.params = opts.params ?? defaultSimConfig();
    const decDepth = opts.decoderFifoDepth ?? this.params.uie.amem_dec_fifo_depth;
    const sbDepth = opts.switchboxFifoDepth ?? this.params.uie.switchbox_fifo_depth;
    this.sbReadToWrite = new SwitchboxFifo(`${this.name}.sb.amem_read->amem_write`, sbDepth);
    this.sbReadyAt = this.sbReadToWrite.readyAt;
    this.wt = new WeightsPort(uieClient(opts.index, PORT_WEIGHTS));
    this.sbReadToGrid = new SwitchboxFifo(`${this.name}.sb.amem_read->grid`, sbDepth);
    this.sbReadToVbuffer = new SwitchboxFifo(`${this.name}.sb.amem_read->vbuffer`, sbDepth);
    this.sbGridToWrite = new SwitchboxFifo(`${this.name}.sb.grid->amem_write`, sbDepth);
    this.sbVbufferToWrite = new SwitchboxFifo(`${this.name}.sb.vbuffer->amem_write`, sbDepth);
    this.sbGridToVbuffer = new SwitchboxFifo(`${this.name}.sb.grid->vbuffer`, sbDepth);
    this.sbVbufferToGrid = new SwitchboxFifo(`${this.name}.sb.vbuffer->grid`, sbDepth);
    this.attachGrid = opts.attachGrid ?? true;
    this.attachVbuffer = opts.attachVbuffer ?? true;
    this.fastPaths = opts.fastPaths ?? true;
    const idxDepth = opts.indexFifoDepth ?? this.params.uie.itfe_index_fifo_depth;
    this.rd = new ReadPath(this, decDepth, idxDepth);
    this.wr = new WritePath(this, decDepth, idxDepth);
    this.commits = new CommitRing(opts.writeCommitLatency ?? defaultSimConfig().amem.write_commit_latency_cycles, this.trips.slots);
    for (let id = 0; id < NUM_SEQUENCERS; id++) {
      const m = this.config.seqMem[id];
      this.seqs.push({
        id,
        name: m?.name ?? `seq${id}`,
        core: new SequencerCore(emptyControlStore()),
        control: emptyControlStore(),
        op: undefined,
        controlTable: tryTable(m?.ctrl.table),
        opTable: tryTable(m?.op.table),
        queue: new Int32Array(SEQ_QUEUE),
        qHead: 0,
        qCount: 0,
        slot: -1,
        gen: -1,
        rawCtl: undefined,
        rawOp: undefined,
        rf: undefined,
        wf: undefined,
        kf: undefined,
        warnedNoDatapath: false,
        usesPsw: false,
        usesCsw: false,
        base: 0,
        view: 0,
        tmpl: undefined,
        aux: undefined,
        tmplId: 0,
      });
    }
    this.cmp = new Compute(this, { timingOnly: opts.timingOnly ?? false });
    this.stats = {
      busyCycles: new Float64Array(NUM_SEQUENCERS),
      stallCycles: new Float64Array(NUM_SEQUENCERS),
      datapathStallCycles: new Float64Array(2),
      instructions: new Float64Array(NUM_SEQUENCERS),
      bytesRead: 0,
      bytesWritten: 0,
      weightsBytesRead: 0,
      flitsToAmemWrite: 0,
      flitsDropped: 0,
      padsInserted: 0,
      discards: 0,
      rmwAdds: 0,
      partialWrites: 0,
      indirectReads: 0,
      indirectWrites: 0,
      tripsDone: 0,
    };
    this.observer?.attach(this);
  }

  // ------------------------------------------------------------------ trips

  /** True when a new trip can be accepted (a free tracking ID / scoreboard entry, chip §11.7.1, and room in every sequencer's descriptor FIFO). */
  canStartTrip(): boolean {
    if (!this.trips.free) return false;
    for (const s of this.seqs) if (s.qCount >= SEQ_QUEUE) return false;
    return true;
  }

  /**
   * Queues a trip (chip §11.4.2). Returns false (nothing queued) when
   * `canStartTrip()` is false; the caller retries later.
   */
  startTrip(trip: UieTripParams): boolean {
    if (!this.canStartTrip()) return false;
    // csr.convert_mode (chip §4.9, §4.10) is sampled when a trip is accepted (docs/spec-notes.md "cov: converter modes")
    this.convertMode = this.convertModeSource();
    // (deferred VPU-only cycles: the caller settles them first, `settleDeferred`, knowing the cycle)
    this.stateGen++;
    const mask = trip.trip_valid_mask & ((1 << NUM_SEQUENCERS) - 1);
    const slotId = this.trips.accept(trip, mask);
    for (let id = 0; id < NUM_SEQUENCERS; id++) {
      if (!((mask >> id) & 1)) continue;
      const s = this.seqs[id]!;
      s.queue[(s.qHead + s.qCount) % SEQ_QUEUE] = slotId;
      s.qCount++;
      this.seqActive |= 1 << id;
    }
    this.amem.banks.sched.setActive(this.index, true);
    this.lastDidWork = true;
    this.observer?.tripAccepted(trip.trip_id, slotId);
    return true;
  }

  get busy(): boolean {
    return this.trips.active > 0;
  }

  /** The trip slots (tracking IDs, chip §11.7.1), read-only for observers and probes. */
  get slots(): readonly TripSlot[] {
    return this.trips.slots;
  }

  nextWake(now: number): number {
    if (!this.busy) return Infinity;
    if (this.lastDidWork) return now;
    let w = Infinity;
    if (this.commits.count > 0) w = Math.max(now, this.commits.nextAt);
    // a datapath that waited for its AMEM port (16-bit serialization) wakes when the port frees
    if (this.portWake < w) w = Math.max(now, this.portWake);
    // a compute unit with a timed event (pipeline latency) wakes at it
    const ce = this.cmp.nextEvent(now);
    if (ce < w) w = Math.max(now, ce);
    // A stalled tick counts stall statistics (decoder full, switchbox empty/full, index FIFO): such a UIE asks to be
    // ticked every cycle until it wakes, so its counters do not depend on whether other engines kept the kernel stepping
    // (and run-ahead, which ticks it alone, counts the same cycles). Blocked for good (Infinity): left to the deadlock check.
    if (this.blocked !== undefined && w !== Infinity) return now;
    return w;
  }

  // blockedReason texts, built once (the tick records which one applies without building strings)
  private readonly seqMsgs = new Map<SeqState, string[]>();
  private readonly sbMsgs = new Map<SwitchboxFifo, string>();
  blockMsg(s: SeqState, kind: 0 | 1 | 2 | 3): string {
    let m = this.seqMsgs.get(s);
    if (!m) {
      m = [
        `${s.name}: next trip waits for the previous trip's indirect accesses to drain`,
        `${s.name}: decoder FIFO full (datapath backpressure)`,
        `${s.name}: waiting for ITFE index FIFO`,
        `${s.name}: AMEM port held by an access served late (bank conflict)`,
      ];
      this.seqMsgs.set(s, m);
    }
    return m[kind]!;
  }
  fifoMsg(f: SwitchboxFifo, readSide: boolean): string {
    let m = this.sbMsgs.get(f);
    if (!m) {
      if (readSide) m = `amem_read: switchbox FIFO ${f.name} full`;
      else {
        const grid = f === this.sbGridToWrite;
        const unmodelled = (grid && !this.attachGrid) || (f === this.sbVbufferToWrite && !this.attachVbuffer);
        m = `amem_write: waiting switchbox FIFO ${f.name} (empty${unmodelled ? `; the ${grid ? 'grid' : 'VPU'} is not modelled yet` : ''})`;
      }
      this.sbMsgs.set(f, m);
    }
    return m;
  }

  blockedReason(): string | undefined {
    if (!this.busy) return undefined;
    if (this.blocked) return this.blocked;
    if (this.commits.count > 0) return `waiting for ${this.commits.count} AMEM write commit(s) (seq §6.8)`;
    return undefined;
  }

  // ---------------------------------------------------------- diagnostics

  private report(d: Diagnostic): void {
    if (this.onDiagnostic) {
      this.onDiagnostic(d);
      return;
    }
    if (d.severity === 'error') throw new DiagnosticError(d);
    this.warnings.push(d);
  }

  ruleError(code: string, msg: string, spec: string, seq: SeqState | undefined, pc: number): void {
    const span = seq ? { file: `${this.name}.${seq.name}.op`, offset: this.config.opAddr(seq.id) + pc * this.config.opStride(seq.id) } : undefined;
    this.report(error(code, `${this.name}: cycle ${this.now}: ${msg}`, { spec, ...(span ? { span } : {}), ...(seq ? { notes: [`sequencer ${seq.name}, pc ${pc}`] } : {}) }));
  }

  warnOnce(key: string, code: string, msg: string, spec?: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.report(warning(code, `${this.name}: ${msg}`, spec ? { spec } : {}));
  }

  // ------------------------------------------------------------- microcode and tables

  /** Installs decoded microcode directly (tests/tools without a cfg space). */
  loadMicrocode(id: number, control: ControlStore, op?: OpStore): void {
    const s = this.seqs[id]!;
    s.control = control;
    s.op = op;
    s.gen = Number.POSITIVE_INFINITY;
    bindSeq(s);
  }

  /** Installs switch tables directly (tests/tools without a cfg space). */
  loadSwitchTables(side: 'read' | 'write', t: SwitchTables): void {
    const dst = side === 'read' ? this.rd.sw : this.wr.sw;
    dst.pswSrc.set(t.pswSrc);
    dst.pswZero.set(t.pswZero);
    dst.cswMux.set(t.cswMux);
    dst.cswSrc.set(t.cswSrc);
    dst.colMask.set(t.colMask);
    updateSwitchSummaries(dst);
    this.config.swGen = Number.POSITIVE_INFINITY;
  }

  // ------------------------------------------------------------ the cycle

  /** Whether `vpuSkipUntil` may defer cycles (off while traces or VCD sample the UIE's counters every cycle). */
  deferVpu = true;

  /**
   * After `tick(now)` returned true (lockstep): the end (exclusive) of the following VPU-only cycles the kernel need
   * not tick (vpuBatch.ts `VpuBatchState.defer`), now + 1 when none; `settleDeferred` simulates them.
   */
  vpuSkipUntil(now: number): number {
    return this.deferVpu ? this.vpuBatch.defer(this, now) : now + 1;
  }

  /** Simulates the deferred VPU-only cycles before `now` (before the tick at `now`, and before a trip starts at `now`). */
  settleDeferred(now: number): void {
    if (this.vpuBatch.deferFrom >= 0) this.vpuBatch.settle(this, now);
  }

  tick(now: number): boolean {
    const obs = this.observer;
    const vb = this.vpuBatch;
    const vi = this.cmp.vi;
    if (vb.deferFrom >= 0) vb.settle(this, now);
    // VPU-only cycles (vpuBatch.ts): the cycle repeats the recorded one outside the VPU, whose next instruction is pure
    if (vb.gen === this.stateGen && vb.valid(this, now) && vi.pureAhead(1) === 1) {
      vb.replayCycle(this, now, 1);
      return true;
    }
    // (no probe right after progress outside VI, where it would not record: vpuBatch.ts `probeAt`)
    const probe = this.fastPaths && VpuBatchState.enabled && vb.probeAt <= now && vi.pureAhead(2) === 2;
    if (probe) vb.probe(this);
    if (obs !== undefined) obs.beforeCycle(now);
    this.now = now;
    this.stateGen++;
    this.blocked = undefined;
    this.portWake = Infinity;
    this.amem.banks.sync(now); // last cycle's bank claims resolved before anyone issues (amem/banks.ts)
    const rd = this.rd;
    const wr = this.wr;
    if (rd.lastAt >= 0 || wr.lastAt >= 0 || this.wt.lastAt >= 0) this.settleClaims();
    // `other`: progress outside the compute half; the compute half's own goes to `cmpDid` (vpuBatch.ts needs both)
    let other = false;
    let cmpDid = false;
    // 1. write commits (chip §11.7.1)
    const commits = this.commits;
    const committed = commits.count > 0 && commits.commitDue(now);
    // 2. datapaths, downstream first
    if (wr.issue(now)) other = true;
    // the compute half only while a compute sequencer runs or one of its units still holds work
    if ((this.seqActive & COMPUTE_SEQS) !== 0 || !this.cmp.quiet) {
      cmpDid = this.cmp.tick(now);
    }
    if (rd.issue(now)) other = true;
    const ir = rd.itfe;
    const iw = wr.itfe;
    if (ir.active && ir.tick(now)) other = true;
    else if (ir.wakeAt > now && ir.wakeAt < this.portWake) this.portWake = ir.wakeAt;
    if (iw.active && iw.tick(now)) other = true;
    else if (iw.wakeAt > now && iw.wakeAt < this.portWake) this.portWake = iw.wakeAt;
    // 3. sequencer cores
    // (only sequencers with a running core or a queued trip: bit id of seqActive, visited in id order)
    let act = this.seqActive;
    while (act !== 0) {
      const bit = act & -act;
      act ^= bit;
      const sq = this.seqs[31 - Math.clz32(bit)]!;
      if (stepSeq(this, sq)) other = true;
      if (!sq.core.running && sq.qCount === 0) this.seqActive &= ~bit;
    }
    // 4. in-order trip retirement
    const trips = this.trips;
    // the observer's `afterCycle` comes before the cycle's retirements (as in a run-ahead window, whose retirements
    // it hears at the window's end): the cycle's work, e.g. the VPU instruction that ended the trip's program, is
    // the trip's (nothing below changes a counter it reads)
    let observed = false;
    for (let sl = trips.retirable(); sl !== undefined; sl = trips.retirable()) {
      if (obs !== undefined && !observed) {
        observed = true;
        obs.afterCycle(now);
      }
      this.cmp.tripRetired(trips.oldest);
      trips.retireOldest();
      if (trips.active === 0) this.amem.banks.sched.setActive(this.index, false);
      this.stats.tripsDone++;
      other = true;
      if (this.amem.stats.viewConflicts > 0 && this.amem.firstViewConflict)
        this.warnOnce('view', UieCodes.viewConflict, this.amem.firstViewConflict, `${CHIP_SPEC_F} §7.5`);
      if (this.deferring) {
        this.deferredIds[this.deferredN++] = sl.tripId;
        this.deferredAt = now;
        this.visible = true;
      } else {
        obs?.tripRetired(sl.tripId, now);
        this.onTripDone?.(sl.tripId, now);
      }
    }
    // AMEM banks: no more claims in the current trips once the claiming sequencers, their decoder FIFOs and the ITFEs
    // are done (amem/schedules.ts setQuiet: other UIEs' joint batches then ignore this one)
    if ((this.seqActive & CLAIM_SEQS) === 0 && trips.active > 0 && rd.dec.empty && wr.dec.empty && !ir.active && !iw.active)
      this.amem.banks.sched.setQuiet(this.index, now);
    if (other || (cmpDid && !this.cmp.viOnly)) vb.probeAt = now + 2;
    // a write commit (step 1, before every unit) is VPU-only progress for the replay: it moves no counter and no unit
    // sees it but through the state it leaves, the same in the cycles after it (a retirement it allows is `other`)
    this.onlyVpu = !other && cmpDid && this.cmp.viOnly;
    if (committed) other = true;
    const did = other || cmpDid;
    this.lastDidWork = did;
    if (probe) vb.record(this, now, committed);
    if (obs !== undefined && !observed) obs.afterCycle(now);
    return did;
  }

  /** The bank claims of the previous cycle, settled after `AmemBanks.sync` (amem/banks.ts) by the ports that made them. */
  private settleClaims(): void {
    if (this.rd.lastAt >= 0) this.rd.settle();
    if (this.wt.lastAt >= 0) this.wt.settle(this);
    if (this.wr.lastAt >= 0) this.wr.settle();
  }

  /**
   * Temporal decoupling (docs/simulator.md "Quantum"): simulates this UIE alone for cycles `from` .. at most
   * `limit - 1`, exactly as `tick` would on each of them, and returns the next cycle to simulate. It stops after the
   * first cycle with an externally visible event: a trip retirement (held back and reported by `flushDeferred`, which
   * the caller invokes when the global clock reaches that cycle) and, with `stopOnPop`, a sequencer taking a trip from
   * its descriptor FIFO (which can change `canStartTrip`). `did[c & mask]` receives 1 for each cycle with progress.
   * Cycles in which the UIE would do nothing (waiting for write commits or an AMEM port, `nextWake`) are skipped
   * as the kernel skips them; a UIE stalled for good (nextWake Infinity while blocked) hands back to the kernel.
   * The caller guarantees that nothing outside can start a trip or change AMEM under it in the window (legal
   * programs, chip §11.7).
   */
  runAhead(from: number, limit: number, did: Uint8Array, mask: number, stopOnPop: boolean): number {
    this.settleDeferred(from);
    this.deferring = true;
    this.visible = false;
    this.stopOnPop = stopOnPop;
    let c = from;
    // AMEM banks (amem/banks.ts): the window may outrun other clients only when none can claim a bank in it: trips
    // may start (stopOnPop: a DMA could) -> this cycle only; other UIEs of the cluster active -> this cycle, or the
    // cluster's joint conflict-free batch (the same window for all of them), then hand back
    const banks = this.amem.banks;
    const shared = banks.sched.activeUies > 1;
    if (stopOnPop) limit = from + 1;
    const end = limit;
    try {
      while (c < limit) {
        if (this.fastPaths && this.seqActive === RW_ACTIVE && this.cmp.quiet && (shared || (c >= this.batch.retryAt && limit - c >= BATCH_MIN))) {
          const k = steadyBatch(this, c, limit);
          if (k > 0) {
            this.batch.cycles += k;
            // did[(c + j) & mask] = 1 for j < k, as at most two block fills of the ring (k <= its length: a window)
            const a = c & mask;
            const e = a + k;
            if (e <= mask + 1) did.fill(1, a, e);
            else {
              did.fill(1, a, mask + 1);
              did.fill(1, 0, e - mask - 1);
            }
            c += k;
            if (shared) break;
            continue;
          }
          this.batch.retryAt = c + BATCH_RETRY;
        }
        if (this.seqActive === 0 && this.fastPaths) {
          // only posted writes left (stallRun.ts drainRun): their commits up to the last one's cycle, at once
          const to = drainRun(this, c, end, did, mask);
          if (to > c) {
            c = to;
            // (shared: the tick of cycle `to` syncs the bank claims of the cluster: at the global clock, not here)
            if (shared) break;
            continue;
          }
        }
        if (shared) limit = c + 1;
        const marked = markStall(this, this.seqActive);
        const d = this.tick(c);
        did[c & mask] = d ? 1 : 0;
        c++;
        if (this.visible) break;
        if (!d && marked) {
          // the cycles that repeat this stalled tick, at once (stallRun.ts): also in a shared cluster (no claim in them)
          const to = stallRun(this, c, end, this.seqActive);
          while (c < to) did[c++ & mask] = 0;
        }
        if (!d) {
          const w = this.nextWake(c);
          if (w > c) {
            if (w === Infinity && this.blocked !== undefined) break;
            const to = w < limit ? w : limit;
            while (c < to) did[c++ & mask] = 0;
          }
        }
      }
    } finally {
      this.deferring = false;
      this.stopOnPop = false;
    }
    return c;
  }

  /** Cycles simulated by steady-state batches (diagnostics for tests and benchmarks; not a statistic of the model). */
  get batchedCycles(): number {
    return this.batch.cycles;
  }

  /** The cycle of the retirements held back by `runAhead`, or -1 when there are none. */
  get deferredCycle(): number {
    return this.deferredN > 0 ? this.deferredAt : -1;
  }

  /** Reports the retirements held back by `runAhead` (through `onTripDone`, at their cycle). */
  flushDeferred(): void {
    const n = this.deferredN;
    this.deferredN = 0;
    for (let i = 0; i < n; i++) {
      this.observer?.tripRetired(this.deferredIds[i]!, this.deferredAt);
      this.onTripDone?.(this.deferredIds[i]!, this.deferredAt);
    }
  }

  seqDone(id: number, slot: number): void {
    this.trips.seqDone(id, slot);
  }
}
