/**
 * Stall runs (fast path, inside `Uie.runAhead` only; docs/uie-model.md "Performance"): the cycles a UIE in a plain
 * AMEM Read -> AMEM Write copy spends waiting — its ports held by accesses served late (amem/banks.ts), the switchbox
 * head's data not there yet, a decoder FIFO full — are ticked one by one only to count their stall statistics (the
 * UIE asks for every such cycle: `Uie.nextWake`). When a tick made no progress, the following ticks repeat it exactly
 * until the first cycle at which one of its waits can end: the earlier of the port releases and switchbox-ready
 * cycles the tick gathered in `portWake`, the next write commit and the compute units' next event (as `nextWake`
 * would give without the blocked rule). Those cycles are done here at once: their stall counters grow by the first
 * tick's increments times their number. Checked against lockstep (quantum 1, every cycle ticked) by
 * packages/targets/test/quantum.test.ts (statistics, bank statistics, cycles).
 *
 * Why nothing else can change in between: a tick without progress issues no access, so it makes no bank claim (the
 * shared arbitration state and the cluster's schedules see nothing of it; its own `freeAt` only changes by its own
 * claims), commits nothing (no commit is due before the next one, `commits.nextAt`), moves no FIFO entry and starts no
 * sequencer; every other test of the tick is on state only progress changes (FIFO empty / full, credits) or on `now`
 * against a cycle the tick put in `portWake`. The gate excludes what this argument does not cover: compute units with
 * work or running compute / weights sequencers, ITFEs, indirect trips.
 */
import { dbl } from '@pyxis/sim';
import * as records from './records.js';
import type { Uie } from './uie.js';

// Hot-path bindings as module-local constants (V8 checks every read of an imported binding for TDZ; see steadyBatch.ts).
const { RW_ACTIVE, SEQ_AMEM_READ, SEQ_AMEM_WRITE } = records;

/** The stall counters a copy UIE's tick may move, before the tick (`mark`), per UIE. */
export class StallRunState {
  /** stallCycles of AMEM Read / Write, datapathStallCycles 0 / 1, the three AMEM Read switchboxes' fullStalls. */
  readonly before = new Float64Array(7);
  // doubles from the start (kernel dbl): the runs add cycle counts computed in doubles; a Smi field generalised then
  // deprecated this map, so a thread's next partition re-typed `Uie.stall` and dropped runAhead, stallRun, markStall
  /** Cycles skipped by stall runs (diagnostics for tests and benchmarks; not a statistic of the model). */
  cycles = dbl(0);
  /** Cycles done by drain runs (`drainRun`; diagnostics as above). */
  drained = dbl(0);
}

/**
 * True when a stall run may follow the coming tick (the gate above; `seqActive` the UIE's running sequencers); then
 * `markStall` has taken the counters.
 */
export function markStall(u: Uie, seqActive: number): boolean {
  if (!u.fastPaths || seqActive !== RW_ACTIVE || !u.cmp.quiet || u.rd.itfe.active || u.wr.itfe.active || u.rd.tripIndirect || u.wr.tripIndirect) return false;
  const b = u.stall.before;
  const st = u.stats;
  b[0] = st.stallCycles[SEQ_AMEM_READ]!;
  b[1] = st.stallCycles[SEQ_AMEM_WRITE]!;
  b[2] = st.datapathStallCycles[0]!;
  b[3] = st.datapathStallCycles[1]!;
  b[4] = u.sbReadToWrite.fullStalls;
  b[5] = u.sbReadToGrid.fullStalls;
  b[6] = u.sbReadToVbuffer.fullStalls;
  return true;
}

/**
 * After a tick of cycle `c - 1` that made no progress (and `markStall` before it returned true; `seqActive` after
 * it): the end (exclusive, at most `limit`) of the run of cycles from `c` whose ticks would repeat it, which are accounted here; `c` when none.
 */
export function stallRun(u: Uie, c: number, limit: number, seqActive: number): number {
  if (seqActive !== RW_ACTIVE || !u.cmp.quiet) return c;
  let w = limit;
  if (u.commits.count > 0 && u.commits.nextAt < w) w = u.commits.nextAt;
  if (u.portWake < w) w = u.portWake;
  const ce = u.cmp.nextEvent(c);
  if (ce < w) w = ce;
  const n = w - c;
  if (n <= 0) return c;
  const b = u.stall.before;
  const st = u.stats;
  st.stallCycles[SEQ_AMEM_READ]! += n * (st.stallCycles[SEQ_AMEM_READ]! - b[0]!);
  st.stallCycles[SEQ_AMEM_WRITE]! += n * (st.stallCycles[SEQ_AMEM_WRITE]! - b[1]!);
  st.datapathStallCycles[0]! += n * (st.datapathStallCycles[0]! - b[2]!);
  st.datapathStallCycles[1]! += n * (st.datapathStallCycles[1]! - b[3]!);
  u.sbReadToWrite.fullStalls += n * (u.sbReadToWrite.fullStalls - b[4]!);
  u.sbReadToGrid.fullStalls += n * (u.sbReadToGrid.fullStalls - b[5]!);
  u.sbReadToVbuffer.fullStalls += n * (u.sbReadToVbuffer.fullStalls - b[6]!);
  u.now = w - 1;
  u.stateGen++;
  u.stall.cycles += n;
  return w;
}

/**
 * Drain runs: a UIE whose trip has nothing left but its posted writes (no sequencer running or queued, decoder FIFOs
 * empty, no ITFE, no claim to settle, compute units quiet, one trip) does nothing in a tick but the commits due then
 * (tick step 1: progress in that cycle) until the last one, whose cycle also retires the trip. From cycle `c`, the
 * cycles before that last commit (at most `limit`) are done here: the commits at their cycles (`CommitRing.commitDue`,
 * entries pop in order), `did` 1 exactly at those cycles. Returns the next cycle to tick (`c` when none is done).
 */
export function drainRun(u: Uie, c: number, limit: number, did: Uint8Array, mask: number): number {
  const cm = u.commits;
  if (cm.count === 0 || !u.cmp.quiet || u.trips.active !== 1 || !u.rd.dec.empty || !u.wr.dec.empty || u.rd.itfe.active || u.wr.itfe.active) return c;
  if (u.rd.lastAt >= 0 || u.wr.lastAt >= 0 || u.wt.lastAt >= 0 || u.vpuBatch.deferFrom >= 0) return c;
  const last = cm.lastAt;
  const stop = last < limit ? last : limit;
  if (stop <= c) return c;
  let t = c;
  let any = false;
  for (;;) {
    const due = cm.nextAt;
    const p = due > t ? due : t;
    if (p >= stop) break;
    while (t < p) did[t++ & mask] = 0;
    cm.commitDue(p);
    did[t++ & mask] = 1;
    any = true;
  }
  while (t < stop) did[t++ & mask] = 0;
  u.now = stop - 1;
  u.stateGen++;
  u.blocked = undefined;
  u.portWake = Infinity;
  u.lastDidWork = any && did[(stop - 1) & mask] === 1;
  u.stall.drained += stop - c;
  return stop;
}
