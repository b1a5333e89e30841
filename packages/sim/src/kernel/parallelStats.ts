/**
 * What a run says about its parallelism (`--stats` "parallel", the summary line): threads asked and used, the
 * synchronisation windows, cross-partition messages, each partition's simulating (busy) host time and each thread's
 * waiting time, and the parallel efficiency. Host times are measured wall-clock milliseconds of this run (they vary
 * from run to run; the simulated results never do).
 */
import { availableParallelism, loadavg } from 'node:os';
import type { ThreadedRunResult } from './threaded.js';

/**
 * The default thread count: one per partition, at most one per FREE host core: the cores minus the 1-minute load
 * average, rounded (on a machine whose cores are taken by other jobs, threads only slow a run down; 1 for a single
 * partition). Results never depend on it.
 */
export function defaultThreads(partitions: number, cores = availableParallelism(), load = loadavg()[0] ?? 0): number {
  return Math.max(1, Math.min(partitions, cores, Math.round(cores - load)));
}

const ms = (x: number) => Math.round(x * 1000) / 1000;

export function parallelStats(r: ThreadedRunResult, asked: number | undefined): Record<string, unknown> {
  const queue = r.schedule === 'queue';
  return {
    model: 'host wall-clock times of this run (performance.now); they vary run to run, the simulated results do not',
    threads_asked: asked ?? null,
    threads_used: r.threads,
    partitions: r.parts.length,
    // windows: conservative windows of one lookahead; queue: independent partitions, each run to its end by the next
    // free thread (thread 0 is the calling thread, which simulates too)
    schedule: queue ? 'queue' : 'windows',
    // null: no cross link at all (unbounded windows, e.g. independent clusters of one chip)
    lookahead_cycles: r.lookahead >= Number.MAX_SAFE_INTEGER ? null : r.lookahead,
    windows: r.windows,
    mean_window_cycles: r.windows ? Math.round((r.cycles / r.windows) * 100) / 100 : 0,
    cross_messages: r.crossMessages,
    wall_ms: ms(r.wallMs),
    parallel_efficiency: Math.round(r.efficiency * 1000) / 1000,
    per_partition: r.parts.map((p) => ({ name: p.name, ...(queue ? { thread: p.thread ?? null, build_ms: ms(p.buildMs ?? 0) } : {}), busy_ms: ms(p.busyMs), kernel_steps: p.steps })),
    // queue: busy = simulating; build = building its partitions; first_partition_ms = from the run's start to its first
    // partition (a worker's start-up); waiting = the rest of wall_ms; cpu_ms = the thread's CPU time for building and
    // simulating (Linux /proc/thread-self, 10 ms ticks; null elsewhere): it does not grow when other jobs take the core
    per_thread: r.hostBusyMs.map((b, h) => ({
      thread: h,
      ...(queue ? { first_partition_ms: ms(r.hostStartMs?.[h] ?? 0), build_ms: ms(r.hostBuildMs?.[h] ?? 0), cpu_ms: Number.isFinite(r.hostCpuMs?.[h]) ? r.hostCpuMs![h]! : null } : {}),
      busy_ms: ms(b),
      waiting_ms: ms(r.hostWaitMs[h]!),
    })),
    note: r.note,
  };
}

/** A run that stayed on the single-thread path (one partition): says why. */
export function singlePartitionStats(asked: number | undefined, what = 'one partition (a single-chip image)'): Record<string, unknown> {
  return { threads_asked: asked ?? null, threads_used: 1, partitions: 1, note: `${what}: the single-thread path` };
}

/** The summary line of a parallel run. */
export function parallelSummary(r: ThreadedRunResult): string {
  const mean = r.windows ? (r.cycles / r.windows).toFixed(1) : '0';
  return (
    (r.schedule === 'queue'
      ? `parallel: ${r.parts.length} partitions on ${r.threads} thread${r.threads === 1 ? '' : 's'}, no cross link (work queue: each partition runs to its end on the next free thread), `
      : `parallel: ${r.parts.length} partitions on ${r.threads} thread${r.threads === 1 ? '' : 's'}, ${r.lookahead >= Number.MAX_SAFE_INTEGER ? 'no cross link (unbounded windows)' : `lookahead ${r.lookahead} cycles`}, ${r.windows} windows (mean ${mean} cycles), ${r.crossMessages} cross messages, `) +
    `efficiency ${(r.efficiency * 100).toFixed(0)}%${r.note ? ` (${r.note})` : ''}\n`
  );
}
