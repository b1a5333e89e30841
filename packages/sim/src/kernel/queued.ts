/**
 * Work-queue runs of INDEPENDENT partitions (no cross-partition link at all: e.g. the clusters of a chip whose image
 * uses no cross-cluster path, target-pyxis sim/parallel/threadedChip.ts). No message can cross, so no window needs to
 * end before a partition's own end: each partition is built and run to its end (quiescent, or `maxCycles`) by
 * whichever thread is free, the calling thread included. The calling thread starts on the first partition at once,
 * while the workers start (a worker's start-up, ~0.1-0.3 s, is then no longer time every thread waits); each thread
 * takes the next partition index from one shared counter (`Atomics.add` on a SharedArrayBuffer) when it is done, so
 * the work balances itself, and a worker builds only the partitions it runs. Once every partition ran, the run ends
 * as the windowed run (threaded.ts) would: at the latest done cycle, or at maxCycles, every partition accounting up
 * to it. A partition's result depends on its own build and cycles only, never on the thread that ran it or on when,
 * and the results are returned in partition order: identical for any thread count (and to runThreaded's).
 */
import { claimEarlyWorkers, InProcessTransport, partitionWorkerUrl, WorkerTransport, finishHosts, releaseWorkers, type PartitionTransport, type PrestartedWorker, type ThreadedRunResult } from './threaded.js';
import type { PartitionSpec, QueuedPart, QueueEvent } from './partitionHost.js';

export interface QueuedRunOptions {
  /** Threads to use, the calling thread included: 1 runs every partition on the calling thread. */
  threads: number;
  maxCycles?: number;
  /** Workers started ahead (prestartWorkers): used for threads 1..N-1; the run terminates them all at its end. */
  workers?: PrestartedWorker[];
  /** Transport factory for the worker hosts (tests); by default worker threads. Host 0 is always the calling thread. */
  transport?: (host: number) => PartitionTransport;
  /**
   * Progress: the calling thread advances its partitions in chunks of `progressChunk` cycles (default 65536) and
   * reports the highest cycle any partition reached so far and how many partitions are done.
   */
  onProgress?: (cycle: number, done: number, total: number) => void;
  progressChunk?: number;
  /**
   * The order in which the queue hands the partitions out (a permutation of their indexes; default index order):
   * largest first balances the threads' ends when the partitions are uneven (the last one taken is then a small
   * one). Results are in partition order whatever the order, and never depend on it.
   */
  order?: number[];
}

/** Runs independent partitions on `opts.threads` threads (the calling one and threads - 1 workers) from one queue. */
export async function runQueued(specs: PartitionSpec[], opts: QueuedRunOptions): Promise<ThreadedRunResult> {
  const P = specs.length;
  if (P === 0) throw new RangeError('queued run: no partitions');
  if (!(Number.isInteger(opts.threads) && opts.threads >= 1)) throw new RangeError(`queued run: threads must be an integer >= 1, got ${opts.threads}`);
  const H = Math.min(opts.threads, P);
  const note = opts.threads > P ? `${opts.threads} threads asked, ${P} partition${P === 1 ? '' : 's'} to run: ${H} thread${H === 1 ? '' : 's'} used` : null;
  // none given: those a launcher started early for this entry, if any (threaded.ts claimEarlyWorkers)
  const pre = opts.workers ?? (opts.transport ? [] : claimEarlyWorkers(H - 1, partitionWorkerUrl()));
  const maxCycles = opts.maxCycles ?? Infinity;
  const order = opts.order ?? specs.map((_, i) => i);
  if (order.length !== P || new Set(order).size !== P || !order.every((i) => Number.isInteger(i) && i >= 0 && i < P))
    throw new RangeError(`queued run: order must be a permutation of the partition indexes 0..${P - 1}, got [${order.join(', ')}]`);
  // the queue's position k holds partition order[k]; every report names the partition by its index
  const grant = { specs: order.map((index) => ({ ...specs[index]!, index })), counter: new Int32Array(new SharedArrayBuffer(4)), maxCycles };
  const ran: Array<QueuedPart & { thread: number }> = new Array(P);
  let startAt = performance.timeOrigin + performance.now();
  const firstTook: number[] = new Array(H).fill(NaN);
  let done = 0;
  let reached = 0;
  const on = (h: number) => (e: QueueEvent) => {
    if (e.t === 'took') {
      if (Number.isNaN(firstTook[h]!)) firstTook[h] = e.at;
    } else {
      ran[e.part.index] = { ...e.part, thread: h };
      done++;
      if (e.part.clock > reached && e.part.clock <= maxCycles) reached = e.part.clock;
    }
  };
  let hosts: PartitionTransport[] = [];
  try {
    hosts = Array.from({ length: H }, (_, h) => (h === 0 ? new InProcessTransport() : opts.transport ? opts.transport(h) : new WorkerTransport(pre[h - 1])));
    hosts.forEach((t, h) => {
      if (!t.queue) throw new RangeError(`queued run: the transport of thread ${h} cannot run a work queue (no queue())`);
    });
    let failed: unknown = null;
    const stop = (e: unknown) => {
      failed ??= e;
      Atomics.store(grant.counter, 0, P); // nobody takes another partition
    };
    const t0 = performance.now();
    startAt = performance.timeOrigin + t0;
    // the workers first (they start at once), then the calling thread's share, synchronously between its awaits
    const drains: Array<Promise<void>> = [];
    for (let h = H - 1; h >= 1; h--) drains.push(hosts[h]!.queue!(grant, on(h)).catch(stop));
    const progress = opts.onProgress;
    const chunk = opts.progressChunk ?? 1 << 16;
    const mine = hosts[0]!.queue!(grant, on(0), progress ? { chunk, at: (c) => progress((reached = Math.max(reached, c)), done, P) } : undefined);
    drains.push(mine.catch(stop));
    await Promise.all(drains);
    if (failed) throw failed;
    // As the windowed run: T = the earliest next event; none: every partition ran out of work at its done cycle
    let T = Infinity;
    let latest = 0;
    for (const p of ran) {
      T = Math.min(T, p.next);
      latest = Math.max(latest, p.clock);
    }
    const ended = T === Infinity;
    const end = ended ? latest : maxCycles;
    const { reason, parts } = await finishHosts(hosts, end, ended);
    const wallMs = performance.now() - t0;
    const hostBusyMs = hosts.map(() => 0);
    const hostBuildMs = hosts.map(() => 0);
    const hostCpuMs = hosts.map(() => 0);
    for (const p of ran) {
      hostBusyMs[p.thread] += p.busyMs;
      hostBuildMs[p.thread] += p.buildMs;
      hostCpuMs[p.thread] += p.cpuMs;
    }
    for (const p of parts) {
      p.thread = ran[p.index]!.thread;
      p.buildMs = ran[p.index]!.buildMs;
    }
    const busySum = hostBusyMs.reduce((a, b) => a + b, 0);
    return {
      reason,
      cycles: end,
      threads: H,
      lookahead: Number.MAX_SAFE_INTEGER,
      // one grant of every cycle: no window ends before a partition's own end
      windows: 1,
      crossMessages: 0,
      parts,
      wallMs,
      hostBusyMs,
      hostWaitMs: hostBusyMs.map((b, h) => Math.max(0, wallMs - b - hostBuildMs[h]!)),
      efficiency: wallMs > 0 ? busySum / (H * wallMs) : 1,
      note,
      schedule: 'queue',
      hostBuildMs,
      hostCpuMs,
      // a thread that took no partition (more threads than the queue needed): its whole wall time
      hostStartMs: firstTook.map((t) => (Number.isNaN(t) ? wallMs : Math.max(0, t - startAt))),
    };
  } finally {
    await Promise.all(hosts.map((t) => t.close().catch(() => undefined)));
    await releaseWorkers(pre);
  }
}
