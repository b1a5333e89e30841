/**
 * Conservative, windowed parallel discrete-event simulation over partitions (SST / ns-3 style; YAWNS windows): each
 * partition is a Simulator of its own (a chip of a system, later a cluster), and partitions affect each other only
 * through cross-partition TimedLinks (`link.crossPartition = true`, registered with the receiving Simulator) whose
 * minimum latency is at least the lookahead L. Every window starts at T, the earliest cycle at which any partition can
 * act, and ends at E = T + L: a message sent inside [T, E) is due at >= E, so every partition can simulate its cycles
 * < E alone. Messages sent in a window reach the receiving heaps only between windows (`flushOutbox`), so a window's
 * result never depends on the order in which the partitions ran, nor (later) on the thread that ran them.
 *
 * The run's length is that of a single simulator: a partition that runs out of work is quiescent at its own done
 * cycle and accounts nothing further until a message wakes it; at the end every partition accounts up to the
 * latest done cycle, so each engine's busy + stall + idle equals the run's cycles.
 */
import type { TimedLink } from './link.js';
import type { RunOptions, Simulator, StopReason } from './simulator.js';

export interface PartitionedRunOptions extends RunOptions {
  /** The window length in cycles; at most the smallest minimum latency of the cross-partition links. */
  lookahead: number;
}

export interface PartitionedRunResult {
  reason: StopReason;
  cycles: number;
  /** Windows executed (each: every partition advanced once, then one exchange). */
  windows: number;
  /** Messages that crossed partitions. */
  crossMessages: number;
  /** Per partition: its kernel steps. */
  steps: number[];
}

/** Runs the partitions together until all are done, a deadlock (some engine busy, nothing can move) or `maxCycles`. */
export function runPartitioned(parts: Simulator[], crossLinks: Array<TimedLink<unknown>>, opts: PartitionedRunOptions): PartitionedRunResult {
  const L = opts.lookahead;
  if (!(Number.isInteger(L) && L >= 1)) throw new RangeError(`partitioned run: the lookahead must be an integer >= 1 cycle, got ${L}`);
  for (const l of crossLinks) {
    if (!l.crossPartition) throw new RangeError(`partitioned run: link ${l.name} is not marked crossPartition`);
    if (l.minLatency < L) throw new RangeError(`partitioned run: link ${l.name} has a minimum latency of ${l.minLatency} cycles, below the lookahead ${L}`);
  }
  const maxCycles = opts.maxCycles ?? Infinity;
  let windows = 0;
  let crossMessages = 0;
  const advanceOpts: RunOptions = { maxCycles };
  for (;;) {
    let T = Infinity;
    for (const p of parts) {
      const t = p.nextEventAt();
      if (t < T) T = t;
    }
    if (T === Infinity || T >= maxCycles) {
      const ended = T === Infinity;
      let end = 0;
      if (ended) for (const p of parts) end = Math.max(end, p.now);
      else end = maxCycles;
      for (const p of parts) p.finishAt(end);
      const busy = parts.some((p) => p.anyBusy());
      const reason: StopReason = !ended ? 'max-cycles' : busy ? 'deadlock' : 'done';
      return { reason, cycles: end, windows, crossMessages, steps: parts.map((p) => p.steps) };
    }
    const E = Math.min(T + L, maxCycles);
    for (const p of parts) p.advance(E, advanceOpts);
    for (const l of crossLinks) crossMessages += l.flushOutbox();
    windows++;
    opts.onProgress?.(E);
  }
}
