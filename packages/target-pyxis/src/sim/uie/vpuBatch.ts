/**
 * VPU-only cycles (a fast path of `Uie.tick`, UieOptions.fastPaths; docs/uie-model.md "Performance", issue 23): while
 * VI executes pure VPU instructions (compute/vi.ts `pure`: no InFIFO operand or pop, no OutFIFO push, not the last of
 * its program) and nothing else in the UIE makes progress, every other unit sees the same inputs each cycle (the
 * VPU's FIFO occupancies do not move) and so repeats the stall it made the cycle before: the only effects of such a
 * cycle outside the VPU's registers are stall counters. A probed cycle (`probe` before the full tick, `record` after
 * it) records those counters' increments and the UIE's next timed event; the following cycles, while no trip starts
 * and nothing else ticks the UIE (`stateGen` unchanged) and before that event, are replayed: VI executes its next
 * instruction and the increments are added again. Checked against the full tick (fastPaths off) by vpu-batch.test.ts.
 */
import type { Fifo } from '@pyxis/sim';
import type { ComputeStats } from './compute/stats.js';
import type { Uie } from './uie.js';

/** ComputeStats counters a replay does not repeat: the VPU's own, counted by the instructions it executes. */
const VPU_OWN = new Set<string>(['vpuBusy', 'vpuInstructions', 'vpuLaneOps', 'vpuPrograms']);

type Adder = (st: ComputeStats, arr: Float64Array[], fifos: Array<{ fullStalls: number }>, d: Float64Array) => void;
const ADDERS_MAX = 64;

/** The stall counters of one UIE outside the VPU, snapshot before a probed cycle and differenced after it. */
export class VpuBatchState {
  /** Process-wide switch (benchmarks compare with and without; tests use UieOptions.fastPaths). */
  static enabled = true;
  private keys: Array<keyof ComputeStats> = [];
  private arrays: Float64Array[] = [];
  private fifos: Array<{ fullStalls: number }> = [];
  private before = new Float64Array(0);
  private delta = new Float64Array(0);
  private bound = false;
  private readStats: (st: ComputeStats, out: Float64Array) => number = () => 0;
  /** Cycles replayed (diagnostics for tests and benchmarks; not a statistic of the model). */
  cycles = 0;

  private bind(u: Uie): void {
    const st = u.cmp.stats;
    this.keys = (Object.keys(st) as Array<keyof ComputeStats>).filter((k) => typeof st[k] === 'number' && !VPU_OWN.has(k));
    // one unrolled function of plain property loads (a loop of keyed loads over ~60 names costs a stub-cache look-up
    // each, more than the cycle it would save)
    this.readStats = new Function('st', 'out', `${this.keys.map((k, i) => `out[${i}] = st.${k};`).join('\n')}\nreturn ${this.keys.length};`) as (st: ComputeStats, out: Float64Array) => number;
    // (busy cycles and instructions move only with progress, which `record` excludes)
    this.arrays = [u.stats.stallCycles, u.stats.datapathStallCycles];
    const fifos: Array<{ fullStalls: number }> = [u.rd.dec, u.wr.dec, u.sbReadToWrite, u.sbReadToGrid, u.sbReadToVbuffer, u.sbGridToWrite, u.sbVbufferToWrite, u.sbGridToVbuffer, u.sbVbufferToGrid];
    for (const x of u.cmp.bySeq) if (x) fifos.push(x.dec as Fifo);
    this.fifos = fifos;
    let n = this.keys.length + fifos.length;
    for (const a of this.arrays) n += a.length;
    this.before = new Float64Array(n);
    this.delta = new Float64Array(n);
    this.bound = true;
  }

  private read(u: Uie, out: Float64Array): void {
    let i = this.readStats(u.cmp.stats, out);
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
  private lastNz = new Int32Array(0);
  private readonly adders = new Map<string, Adder>();
  private add: Adder = () => {};
  /** Replays are valid while the UIE's `stateGen` is `gen` (no trip started, no other tick) and the cycle is < `until`. */
  gen = -1;
  until = 0;

  /**
   * After a probed `tick(now)`: when its only progress was a pure VPU instruction, records the stall counters'
   * increments and the cycle of the UIE's next timed event (Uie.nextWake without its progress and blocked shortcuts:
   * no stalled unit's input changes before it), so that the next cycles can be replayed (`replay`).
   */
  record(u: Uie, now: number): void {
    this.gen = -1;
    if (!u.onlyVpu || !u.cmp.vi.lastPure || u.rd.lastAt >= 0 || u.wr.lastAt >= 0 || u.wt.lastAt >= 0) return;
    let w = u.portWake;
    if (u.commits.count > 0 && u.commits.nextAt < w) w = u.commits.nextAt;
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
    this.adder();
    this.until = w;
    this.gen = u.stateGen;
  }

  /** Whether cycle `now` repeats the recorded one outside the VPU (`record`; the caller checks the VPU's next instruction). */
  valid(u: Uie, now: number): boolean {
    return this.gen === u.stateGen && now < this.until && now === u.now + 1;
  }

  /** Adds the recorded increments to the counters once (cycle `now` replayed; VI executes its instruction). */
  replay(u: Uie): void {
    this.add(u.cmp.stats, this.arrays, this.fifos, this.delta);
    this.cycles++;
  }

  /**
   * The adder of the recorded pattern of moving counters: one unrolled function of plain property updates per
   * pattern (keyed updates over several names cost a stub-cache look-up each, more than the tick they replace); a
   * run has few patterns (one per kind of stall run), kept in `adders` (at most ADDERS_MAX).
   */
  private adder(): void {
    const n = this.nzN;
    const nz = this.nz;
    const last = this.lastNz;
    if (last.length === n) {
      let same = true;
      for (let j = 0; j < n; j++) if (last[j] !== nz[j]) { same = false; break; }
      if (same) return;
    }
    this.lastNz = nz.slice(0, n);
    const sig = this.lastNz.join(',');
    let f = this.adders.get(sig);
    if (f === undefined) {
      const nk = this.keys.length;
      const lines: string[] = [];
      for (let j = 0; j < n; j++) {
        let i = nz[j]!;
        if (i < nk) {
          lines.push(`st.${this.keys[i]} += d[${i}];`);
          continue;
        }
        const di = i;
        i -= nk;
        let a = 0;
        while (a < this.arrays.length && i >= this.arrays[a]!.length) i -= this.arrays[a++]!.length;
        lines.push(a < this.arrays.length ? `arr[${a}][${i}] += d[${di}];` : `fifos[${i}].fullStalls += d[${di}];`);
      }
      if (this.adders.size >= ADDERS_MAX) this.adders.clear();
      f = new Function('st', 'arr', 'fifos', 'd', lines.join('\n')) as Adder;
      this.adders.set(sig, f);
    }
    this.add = f;
  }
}
