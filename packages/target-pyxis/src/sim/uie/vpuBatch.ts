/**
 * VPU-only cycles (a fast path of `Uie.tick`, UieOptions.fastPaths; docs/uie-model.md "Performance", issue 23): while
 * VI executes pure VPU instructions (compute/vi.ts `pure`: no InFIFO operand or pop, no OutFIFO push, not the last of
 * its program) and nothing else in the UIE makes progress, every other unit sees the same inputs each cycle (the
 * VPU's FIFO occupancies do not move) and so repeats the stall it made the cycle before: the only effects of such a
 * cycle outside the VPU's registers are stall counters. A probed cycle (`probe` before the full tick, `record` after
 * it) records those counters' increments and the UIE's next timed event; the following cycles, while no trip starts
 * and nothing else ticks the UIE (`stateGen` unchanged) and before that event, are replayed: VI executes its next
 * instruction and the increments are added again. In lockstep the kernel does not even tick the UIE in such a run
 * (Uie.vpuSkipUntil / settleDeferred, UieSlot: the run is deferred and replayed at the UIE's next tick or before a trip
 * starts on it). Checked against the full tick (fastPaths off) by vpu-batch.test.ts, also under the kernel.
 */
import type { Fifo } from '@pyxis/sim';
import { ComputeStats } from './compute/stats.js';
import type { Uie } from './uie.js';
import { dbl } from '@pyxis/sim';

/** ComputeStats counters a replay does not repeat: the VPU's own, counted by the instructions it executes. */
const VPU_OWN = new Set<string>(['vpuBusy', 'vpuInstructions', 'vpuLaneOps', 'vpuPrograms']);

/** ComputeStats counters outside the VPU's own, in declaration order (checked at load: `checkKeys`). */
const KEYS = [
  'macs', 'execValid', 'execBubble', 'execConfig', 'execNop', 'splits',
  'writebacks', 'wbFlits', 'wdcWords', 'wdpWords', 'hbufBytesWritten', 'hbufReads',
  'stallHbufWrCredits', 'stallHbufRdCredits', 'stallWdcEmpty', 'stallStaging', 'stallHData', 'stallVData',
  'stallWbCredits', 'stallWbPending', 'vbufRowsWritten', 'vbufRowsRead', 'vbufStalls', 'sb2vbRows',
  'sb2vbEmpty', 'sb2vbFull', 'vpu2vbRows', 'vpu2vbEmpty', 'vpu2vbFull', 'vb2sbRows',
  'vb2sbEmpty', 'vb2sbFull', 'vb2sbScratchpad', 'vb2vpuRows', 'vb2vpuEmpty', 'vb2vpuFull',
  'vb2vpuScratchpad', 'stallVpuIn', 'stallVpuOut', 'stallWbKick', 'stallSwitchboxFull', 'stallAmemPort',
  'wdcOutWords', 'wdcCompressedWords', 'stallWdcFull', 'stallHlaneBusy', 'tbufFlushes', 'weightsPads',
] as const satisfies ReadonlyArray<keyof ComputeStats>;

/** The KEYS counters into out[0 ..] (plain property loads, unrolled: a keyed loop costs a stub-cache look-up per name). */
function readStats(st: ComputeStats, out: Float64Array): void {
  out[0] = st.macs;
  out[1] = st.execValid;
  out[2] = st.execBubble;
  out[3] = st.execConfig;
  out[4] = st.execNop;
  out[5] = st.splits;
  out[6] = st.writebacks;
  out[7] = st.wbFlits;
  out[8] = st.wdcWords;
  out[9] = st.wdpWords;
  out[10] = st.hbufBytesWritten;
  out[11] = st.hbufReads;
  out[12] = st.stallHbufWrCredits;
  out[13] = st.stallHbufRdCredits;
  out[14] = st.stallWdcEmpty;
  out[15] = st.stallStaging;
  out[16] = st.stallHData;
  out[17] = st.stallVData;
  out[18] = st.stallWbCredits;
  out[19] = st.stallWbPending;
  out[20] = st.vbufRowsWritten;
  out[21] = st.vbufRowsRead;
  out[22] = st.vbufStalls;
  out[23] = st.sb2vbRows;
  out[24] = st.sb2vbEmpty;
  out[25] = st.sb2vbFull;
  out[26] = st.vpu2vbRows;
  out[27] = st.vpu2vbEmpty;
  out[28] = st.vpu2vbFull;
  out[29] = st.vb2sbRows;
  out[30] = st.vb2sbEmpty;
  out[31] = st.vb2sbFull;
  out[32] = st.vb2sbScratchpad;
  out[33] = st.vb2vpuRows;
  out[34] = st.vb2vpuEmpty;
  out[35] = st.vb2vpuFull;
  out[36] = st.vb2vpuScratchpad;
  out[37] = st.stallVpuIn;
  out[38] = st.stallVpuOut;
  out[39] = st.stallWbKick;
  out[40] = st.stallSwitchboxFull;
  out[41] = st.stallAmemPort;
  out[42] = st.wdcOutWords;
  out[43] = st.wdcCompressedWords;
  out[44] = st.stallWdcFull;
  out[45] = st.stallHlaneBusy;
  out[46] = st.tbufFlushes;
  out[47] = st.weightsPads;
}

/** Adds d[i] * times to the KEYS counters (plain property updates, unrolled as readStats; zeros add nothing). */
function addStats(st: ComputeStats, d: Float64Array, times: number): void {
  st.macs += d[0]! * times;
  st.execValid += d[1]! * times;
  st.execBubble += d[2]! * times;
  st.execConfig += d[3]! * times;
  st.execNop += d[4]! * times;
  st.splits += d[5]! * times;
  st.writebacks += d[6]! * times;
  st.wbFlits += d[7]! * times;
  st.wdcWords += d[8]! * times;
  st.wdpWords += d[9]! * times;
  st.hbufBytesWritten += d[10]! * times;
  st.hbufReads += d[11]! * times;
  st.stallHbufWrCredits += d[12]! * times;
  st.stallHbufRdCredits += d[13]! * times;
  st.stallWdcEmpty += d[14]! * times;
  st.stallStaging += d[15]! * times;
  st.stallHData += d[16]! * times;
  st.stallVData += d[17]! * times;
  st.stallWbCredits += d[18]! * times;
  st.stallWbPending += d[19]! * times;
  st.vbufRowsWritten += d[20]! * times;
  st.vbufRowsRead += d[21]! * times;
  st.vbufStalls += d[22]! * times;
  st.sb2vbRows += d[23]! * times;
  st.sb2vbEmpty += d[24]! * times;
  st.sb2vbFull += d[25]! * times;
  st.vpu2vbRows += d[26]! * times;
  st.vpu2vbEmpty += d[27]! * times;
  st.vpu2vbFull += d[28]! * times;
  st.vb2sbRows += d[29]! * times;
  st.vb2sbEmpty += d[30]! * times;
  st.vb2sbFull += d[31]! * times;
  st.vb2sbScratchpad += d[32]! * times;
  st.vb2vpuRows += d[33]! * times;
  st.vb2vpuEmpty += d[34]! * times;
  st.vb2vpuFull += d[35]! * times;
  st.vb2vpuScratchpad += d[36]! * times;
  st.stallVpuIn += d[37]! * times;
  st.stallVpuOut += d[38]! * times;
  st.stallWbKick += d[39]! * times;
  st.stallSwitchboxFull += d[40]! * times;
  st.stallAmemPort += d[41]! * times;
  st.wdcOutWords += d[42]! * times;
  st.wdcCompressedWords += d[43]! * times;
  st.stallWdcFull += d[44]! * times;
  st.stallHlaneBusy += d[45]! * times;
  st.tbufFlushes += d[46]! * times;
  st.weightsPads += d[47]! * times;
}

/** At load: KEYS are ComputeStats' counters outside VPU_OWN in declaration order, and `readStats` reads each at its index. */
function checkKeys(): void {
  const st = new ComputeStats();
  const rec = st as unknown as Record<string, number>;
  const names = Object.keys(st).filter((k) => typeof rec[k] === 'number' && !VPU_OWN.has(k));
  if (names.join(' ') !== KEYS.join(' ')) throw new Error(`vpuBatch.ts: KEYS is not the list of ComputeStats counters outside the VPU's own (${names.join(' ')})`);
  names.forEach((k, i) => (rec[k] = i + 1));
  const out = new Float64Array(KEYS.length);
  readStats(st, out);
  out.forEach((v, i) => {
    if (v !== i + 1) throw new Error(`vpuBatch.ts: readStats reads ${KEYS[i]} at the wrong index`);
  });
  const st2 = new ComputeStats();
  addStats(st2, out, 2);
  const rec2 = st2 as unknown as Record<string, number>;
  KEYS.forEach((k, i) => {
    if (rec2[k] !== 2 * (i + 1)) throw new Error(`vpuBatch.ts: addStats adds to ${k} from the wrong index`);
  });
  for (const k of VPU_OWN) if (rec2[k] !== 0) throw new Error(`vpuBatch.ts: addStats adds to ${k}`);
}
checkKeys();

/**
 * Whether no write commit can make a trip retirable while the UIE only replays VPU-only cycles: retirement is in order
 * and needs the oldest trip's sequencers done (`pending` 0, trips.ts `retirable`), which no replayed cycle changes
 * (a sequencer finishing is progress outside VI; a trip start ends the run). Then a commit changes nothing any unit
 * reads (only `retirable` reads a slot's `writes`; the UIE's wake and blocked reason read the ring when it ticks), so a
 * replay run need not stop at it: the replay makes the commits of its cycles. (docs/uie-model.md "VPU-only cycles")
 */
function commitsRetireNothing(u: Uie): boolean {
  const t = u.trips;
  if (t.active === 0) return false;
  const sl = t.slots[t.oldest]!;
  return sl.active && sl.pending !== 0;
}

/** The stall counters of one UIE outside the VPU, snapshot before a probed cycle and differenced after it. */
export class VpuBatchState {
  /** Process-wide switch (benchmarks compare with and without; tests use UieOptions.fastPaths). */
  static enabled = true;
  private arrays: Float64Array[] = [];
  private fifos: Array<{ fullStalls: number }> = [];
  private before = new Float64Array(0);
  private delta = new Float64Array(0);
  private bound = false;
  /** Cycles replayed; of them, cycles the kernel did not tick (Uie.vpuSkipUntil); deferrals ended early by an input
   * (a trip start, an APM utilisation drop). Diagnostics for tests and benchmarks, not statistics of the model. */
  cycles = 0;
  deferred = 0;
  cut = 0;
  /** Replay runs recorded in a cycle with a write commit (Uie.tick: the commit is no obstacle; diagnostics as above). */
  commitRuns = 0;
  /** Replayed cycles (or deferred runs) that made write commits (`commitsRetireNothing`; diagnostics as above). */
  commitsReplayed = 0;

  private bind(u: Uie): void {
    // (busy cycles and instructions move only with progress, which `record` excludes)
    this.arrays = [u.stats.stallCycles, u.stats.datapathStallCycles];
    const fifos: Array<{ fullStalls: number }> = [u.rd.dec, u.wr.dec, u.sbReadToWrite, u.sbReadToGrid, u.sbReadToVbuffer, u.sbGridToWrite, u.sbVbufferToWrite, u.sbGridToVbuffer, u.sbVbufferToGrid];
    for (const x of u.cmp.bySeq) if (x) fifos.push(x.dec as Fifo);
    this.fifos = fifos;
    let n = KEYS.length + fifos.length;
    for (const a of this.arrays) n += a.length;
    this.before = new Float64Array(n);
    this.delta = new Float64Array(n);
    this.bound = true;
  }

  private read(u: Uie, out: Float64Array): void {
    readStats(u.cmp.stats, out);
    let i = KEYS.length;
    const arrays = this.arrays;
    for (let a = 0; a < arrays.length; a++) {
      const x = arrays[a]!;
      for (let j = 0; j < x.length; j++) out[i++] = x[j]!;
    }
    const f = this.fifos;
    for (let j = 0; j < f.length; j++) out[i++] = f[j]!.fullStalls;
  }

  /** Before `tick(c)`: the counters as they are. */
  probe(u: Uie): void {
    if (!this.bound) this.bind(u);
    this.read(u, this.before);
  }

  /** The probed cycle's increments (`delta[nz[j]]`, j < nzN: the counters that moved). */
  private nz = new Int32Array(0);
  private nzN = 0;
  /**
   * The first cycle worth a probe (Uie.tick): not the one after a cycle with progress outside VI (write, read,
   * sequencer step, another compute unit), which in VPU-bound loops is followed by more such progress or a port
   * event (the probe's counter reads, ~80 loads, were wasted on 2/3 of the probes of bench-vpu.mjs); a skipped probe
   * only delays a replay run by a cycle (the replays themselves are checked by `record` as before).
   */
  probeAt = dbl(0);
  /** Replays are valid while the UIE's `stateGen` is `gen` (no trip started, no other tick) and the cycle is < `until`. */
  gen = -1;
  until = 0;

  /**
   * After a probed `tick(now)`: when its only progress was a pure VPU instruction, records the stall counters'
   * increments and the cycle of the UIE's next timed event (Uie.nextWake without its progress and blocked shortcuts:
   * no stalled unit's input changes before it), so that the next cycles can be replayed (`replay`).
   */
  record(u: Uie, now: number, committed: boolean): void {
    this.gen = -1;
    if (!u.onlyVpu || !u.cmp.vi.lastPure || u.rd.lastAt >= 0 || u.wr.lastAt >= 0 || u.wt.lastAt >= 0) return;
    let w = u.portWake;
    // write commits end the run only where one could let the oldest trip retire (`commitsRetireNothing`); otherwise
    // the replay makes them (`replayCycle`, `settle`): nothing but retirement reads them (commits.ts, trips.ts)
    if (u.commits.count > 0 && u.commits.nextAt < w && !commitsRetireNothing(u)) w = u.commits.nextAt;
    const ce = u.cmp.nextEvent(now + 1);
    if (ce < w) w = ce;
    if (w <= now + 1) return;
    const d = this.delta;
    this.read(u, d);
    const b = this.before;
    if (this.nz.length < d.length) this.nz = new Int32Array(d.length);
    let n = 0;
    for (let i = 0; i < d.length; i++) {
      d[i] = d[i]! - b[i]!;
      if (d[i] !== 0) this.nz[n++] = i;
    }
    this.nzN = n;
    this.until = w;
    this.gen = u.stateGen;
    if (committed) this.commitRuns++;
  }

  /** Whether cycle `now` repeats the recorded one outside the VPU (`record`; the caller checks the VPU's next instruction). */
  valid(u: Uie, now: number): boolean {
    return this.gen === u.stateGen && now < this.until && now === u.now + 1;
  }

  /**
   * One replayed cycle (VI executes its instruction): adds the recorded increments `times` times to the counters,
   * the ComputeStats ones by the unrolled `addStats`, the others by index; a run deferred by the kernel (`Uie.vpuSkipUntil`) adds the whole
   * run's increments at its first cycle and 0 at the others (nothing reads the counters in between).
   */
  replay(u: Uie, times: number): void {
    this.cycles++;
    if (times === 0) return;
    const d = this.delta;
    const nz = this.nz;
    const nk = KEYS.length;
    // ComputeStats: every KEYS counter at once when any moved (unrolled plain updates: a keyed update by name is a
    // megamorphic store); then the sequencer and FIFO counters that moved
    if (this.nzN > 0 && nz[0]! < nk) addStats(u.cmp.stats, d, times);
    for (let j = 0; j < this.nzN; j++) {
      let i = nz[j]!;
      if (i < nk) continue;
      const v = d[i]! * times;
      i -= nk;
      let a = 0;
      const arrays = this.arrays;
      while (a < arrays.length && i >= arrays[a]!.length) i -= arrays[a++]!.length;
      if (a < arrays.length) arrays[a]![i]! += v;
      else this.fifos[i]!.fullStalls += v;
    }
  }
  /** Replays cycle `now` (`valid`, VI's next instruction pure): VI executes it, the increments added `times` times. */
  replayCycle(u: Uie, now: number, times: number): void {
    const obs = u.observer;
    const vi = u.cmp.vi;
    u.now = now;
    u.stateGen++;
    if (u.commits.count > 0 && u.commits.commitDue(now)) this.commitsReplayed++;
    if (obs !== undefined && obs.vpuCycle !== undefined) {
      const vpu = u.cmp.vpu;
      const l0 = vpu.laneOps;
      this.replay(u, times);
      vi.runPure(now);
      obs.vpuCycle(now, vpu.laneOps - l0);
    } else {
      if (obs !== undefined) obs.beforeCycle(now);
      this.replay(u, times);
      vi.runPure(now);
      if (obs !== undefined) obs.afterCycle(now);
    }
    this.gen = u.stateGen;
  }

  /** Cycles `deferFrom` .. < `deferTo` are replays the kernel did not tick, not simulated yet (`defer`; -1: none). */
  deferFrom = -1;
  private deferTo = -1;

  /**
   * After `tick(now)` returned true (lockstep): when the replay is valid for now + 1, defers the following cycles up
   * to the recorded event whose VI instructions are pure and cannot report a program error (vi.ts deferrableAhead: an
   * error must be reported at its own cycle) and returns their end (exclusive), else now + 1. They stay replays as
   * long as no trip starts on the UIE (the only outside input that ends a replay run: `stateGen`); the caller has them
   * simulated (`settle`) before it ticks the UIE again or starts a trip on it.
   */
  defer(u: Uie, now: number): number {
    if (this.gen !== u.stateGen || !this.valid(u, now + 1)) return now + 1;
    const k = u.cmp.vi.deferrableAhead(this.until - now - 1);
    if (k <= 0) return now + 1;
    this.deferFrom = now + 1;
    this.deferTo = now + 1 + k;
    return this.deferTo;
  }

  /** Simulates the deferred cycles before `now` (all of them when `now` >= their end) and ends the deferral. */
  settle(u: Uie, now: number): void {
    const from = this.deferFrom;
    const to = now < this.deferTo ? now : this.deferTo;
    this.deferFrom = -1;
    if (to < this.deferTo) this.cut++;
    if (to <= from) return;
    this.deferred += to - from;
    const obs = u.observer;
    if (obs === undefined || obs.vpuCycles !== undefined) {
      // the whole run at once: the counter increments, VI's instructions, one observer call (nothing reads the
      // counters in between; VI's head record, hence the trip it counts for, is the same in every cycle of the run)
      const vi = u.cmp.vi;
      const vpu = u.cmp.vpu;
      const l0 = vpu.laneOps;
      this.replay(u, to - from);
      this.cycles += to - from - 1;
      for (let c = from; c < to; c++) {
        u.stateGen++;
        vi.runPure(c);
      }
      if (obs !== undefined) obs.vpuCycles!(from, to - from, vpu.laneOps - l0);
      // the run's write commits at once (nothing reads them in between: `commitsRetireNothing`)
      if (u.commits.count > 0 && u.commits.commitDue(to - 1)) this.commitsReplayed++;
      this.gen = u.stateGen;
    } else if (obs.vpuCycle !== undefined) {
      // the counter increments of the whole run at once (nothing reads them in between)
      this.replayCycle(u, from, to - from);
      for (let c = from + 1; c < to; c++) this.replayCycle(u, c, 0);
    } else for (let c = from; c < to; c++) this.replayCycle(u, c, 1);
  }
}
