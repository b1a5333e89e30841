/**
 * Threaded partitioned runs: the conservative windows of partitioned.ts, with the partitions spread over N hosts
 * (worker threads; one host in-process for N = 1) behind one small interface, `PartitionTransport`, so that a host
 * could later be another process or machine (docs/architecture.md "Parallel runs").
 *
 * The coordinator (this module, on the calling thread) grants time: window [T, E) with T = the earliest cycle any
 * partition can act at (the hosts' `next`, and the due cycles of the messages it routes) and E = T + L, L the
 * lookahead (<= the smallest minimum latency of a cross link). Every host simulates its partitions' cycles < E and
 * returns the messages they sent across; the coordinator routes them by link id to the receiving hosts with the next
 * grant. A message sent inside [T, E) is due at >= E, so no partition can miss one. The partitions, their links and
 * their sender keys are fixed by the model; only their mapping to hosts changes with N, and a link orders what it
 * receives by (cycle, sender key, send order per sender) whatever host or window it came from (link.ts), so the
 * results are identical for any N.
 *
 * Partition p of P goes to host floor(p * H / P) (H = min(N, P)): contiguous blocks, fixed by the index.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PartitionFailure, PartitionHost, type CrossMessages, type HostReady, type HostWindowReply, type PartitionResult, type PartitionSpec, type QueueEvent, type QueueGrant, type RunEnd } from './partitionHost.js';
import type { RunOptions, StopReason } from './simulator.js';

/** One host of partitions, as the coordinator sees it: every call is a message exchange. */
export interface PartitionTransport {
  /** Builds the host's partitions from their specs. */
  start(specs: Array<PartitionSpec & { index: number }>): Promise<HostReady>;
  /** Grants the cycles < `end` with the messages due to this host's links. */
  window(end: number, inbound: CrossMessages, opts: { maxCycles: number }): Promise<HostWindowReply>;
  /** Ends the run at `end`; the host's partition results, in partition order. */
  finish(end: number, inbound: CrossMessages): Promise<PartitionResult[]>;
  /** Then: every partition's collected results (how the run ended is known only once every host finished). */
  collect(end: RunEnd): Promise<unknown[]>;
  close(): Promise<void>;
  /**
   * Work-queue runs of independent partitions (queued.ts), instead of `start` and `window`: the host takes partitions
   * from the shared counter until none is left, building and running each to its own end; resolves when drained.
   */
  queue?(q: QueueGrant, on: (e: QueueEvent) => void, progress?: { chunk: number; at: (cycle: number) => void }): Promise<void>;
}

/** A host on the calling thread. Messages are structured-cloned like a worker's, so no object is shared. */
export class InProcessTransport implements PartitionTransport {
  private readonly host = new PartitionHost();
  start(specs: Array<PartitionSpec & { index: number }>): Promise<HostReady> {
    return this.host.start(specs);
  }
  window(end: number, inbound: CrossMessages, opts: { maxCycles: number }): Promise<HostWindowReply> {
    return Promise.resolve(this.host.window(end, structuredClone(inbound), opts));
  }
  finish(end: number, inbound: CrossMessages): Promise<PartitionResult[]> {
    return Promise.resolve(this.host.finish(end, structuredClone(inbound)));
  }
  collect(end: RunEnd): Promise<unknown[]> {
    return Promise.resolve(structuredClone(this.host.collect(end)));
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
  queue(q: QueueGrant, on: (e: QueueEvent) => void, progress?: { chunk: number; at: (cycle: number) => void }): Promise<void> {
    return this.host.drain(q, on, progress);
  }
}

/** The worker script: next to this module once built; from the sources (tests) or the CLI bundle, in dist. */
export function partitionWorkerUrl(): URL {
  const here = new URL('./partitionWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  if (/\/src\/kernel\/threaded\.ts$/.test(import.meta.url)) return new URL(import.meta.url.replace(/\/src\/kernel\/threaded\.ts$/, '/dist/kernel/partitionWorker.js'));
  // the CLI bundle sits in packages/targets/bundle/
  return new URL('../../sim/dist/kernel/partitionWorker.js', import.meta.url);
}

type WorkerReply =
  | { t: 'ready'; ready: HostReady }
  | { t: 'window'; reply: HostWindowReply }
  | { t: 'results'; results: PartitionResult[] }
  | { t: 'collected'; collected: unknown[] }
  | { t: 'drained' }
  | QueueEvent
  | { t: 'error'; partition: string; index: number; detail: string; stack: string; diagnostics: unknown[] | null };

/**
 * A partition worker started ahead of a run (`prestartWorkers`): it loads the builders' modules while the caller
 * prepares the run, and builds its partitions when `runThreaded` hands it their specs. Its early failure is kept.
 */
export interface PrestartedWorker {
  worker: Worker;
  failure: Error | null;
}

/**
 * Starts `n` partition workers that load `modules` meanwhile: a thread's start-up (~0.1-0.2 s: a V8 isolate and the
 * package) then overlaps the caller's own preparation (docs/architecture.md "Parallel runs"). Pass them to
 * runThreaded (`workers`); runThreaded terminates those it does not use. `releaseWorkers` ends unused ones. `url`: the
 * worker entry (by default partitionWorkerUrl(); a benchmark may name the bundled one).
 */
export function prestartWorkers(n: number, modules: string[], url: URL = partitionWorkerUrl()): PrestartedWorker[] {
  const early = claimEarlyWorkers(n, url);
  return early.concat(Array.from({ length: n - early.length }, () => {
    const p: PrestartedWorker = { worker: new Worker(url, { workerData: { preload: modules } }), failure: null };
    p.worker.on('error', (e) => (p.failure ??= e instanceof Error ? e : new Error(String(e))));
    p.worker.on('exit', (code) => (p.failure ??= new Error(`its worker thread exited (code ${code}) before the run`)));
    return p;
  }));
}

/**
 * Workers a launcher started before the program was even loaded (packages/targets/src/launch.ts: `pyxis-sim run ...
 * --threads N`, N >= 2): the worker's own start-up (a V8 isolate, reading the bundled entry) then overlaps the calling
 * thread's start-up instead of the run (docs/architecture.md "Parallel runs"). Kept under this global symbol (the
 * launcher loads none of this package) as PrestartedWorker objects with the entry's URL, `unref`'d so that a run that
 * needs none never waits for them; a run claims them here for the same entry (each one once): prestartWorkers, and
 * runThreaded / runQueued when given no workers.
 */
export const EARLY_WORKERS = Symbol.for('sim-kernel.earlyWorkers');

export interface EarlyWorker extends PrestartedWorker {
  /** The worker entry it runs (href). */
  href: string;
}

export function claimEarlyWorkers(n: number, url: URL): PrestartedWorker[] {
  const pool = (globalThis as Record<symbol, EarlyWorker[] | undefined>)[EARLY_WORKERS];
  const out: PrestartedWorker[] = [];
  if (!pool) return out;
  for (let i = 0; i < pool.length && out.length < n; )
    if (pool[i]!.href === url.href) {
      const [w] = pool.splice(i, 1);
      w!.worker.ref();
      out.push(w!);
    } else i++;
  return out;
}

export async function releaseWorkers(ws: readonly PrestartedWorker[]): Promise<void> {
  await Promise.all(ws.map((p) => p.worker.terminate().catch(() => undefined)));
}

/** A host on a worker thread. A worker that throws or exits rejects the pending call with the partition named. */
export class WorkerTransport implements PartitionTransport {
  private worker: Worker | null = null;
  private pending: { resolve: (r: WorkerReply) => void; reject: (e: Error) => void } | null = null;
  private failed: Error | null = null;
  private names = '';
  private onEvent: ((e: QueueEvent) => void) | null = null;

  constructor(private readonly pre?: PrestartedWorker) {}

  start(specs: Array<PartitionSpec & { index: number }>): Promise<HostReady> {
    this.names = specs.map((s) => s.name).join(', ');
    if (!this.attach(this.pre ? null : { specs })) return Promise.reject(this.failed);
    if (this.pre) this.worker!.postMessage({ t: 'start', specs });
    return this.call<HostReady>(null, (m) => (m.t === 'ready' ? m.ready : undefined));
  }

  queue(q: QueueGrant, on: (e: QueueEvent) => void): Promise<void> {
    // a failure names the partition the worker took last (it may die inside it), or every one it ran
    const took: string[] = [];
    let running = '';
    this.names = "(this thread's partitions: none taken yet)";
    this.onEvent = (e) => {
      if (e.t === 'took') took.push((running = q.specs.find((s) => s.index === e.index)!.name));
      else running = '';
      this.names = running || took.join(', ') || this.names;
      on(e);
    };
    if (!this.attach(this.pre ? null : { preload: [] })) return Promise.reject(this.failed);
    return this.call<null>({ t: 'queue', specs: q.specs, counter: q.counter, maxCycles: q.maxCycles }, (m) => (m.t === 'drained' ? null : undefined)).then(() => undefined);
  }

  /** Starts the worker (or takes the prestarted one) and listens; false when the prestarted worker already failed. */
  private attach(data: unknown): boolean {
    const w = this.pre?.worker ?? new Worker(partitionWorkerUrl(), { workerData: data });
    this.worker = w;
    if (this.pre?.failure) {
      this.failed = new PartitionFailure(this.names, -1, this.pre.failure.message, this.pre.failure.stack ?? '');
      return false;
    }
    w.on('message', (m: WorkerReply) => {
      if (m.t === 'took' || m.t === 'ran') return this.onEvent?.(m);
      const p = this.pending;
      this.pending = null;
      if (m.t === 'error') this.fail(new PartitionFailure(m.partition, m.index, m.detail, m.stack, m.diagnostics), p);
      else p?.resolve(m);
    });
    w.on('error', (e) => this.fail(new PartitionFailure(this.names, -1, e instanceof Error ? e.message : String(e), e instanceof Error ? (e.stack ?? '') : ''), this.pending));
    w.on('exit', (code) => {
      this.worker = null;
      this.fail(new PartitionFailure(this.names, -1, `its worker thread exited (code ${code}) during the run`), this.pending);
    });
    return true;
  }

  window(end: number, inbound: CrossMessages, opts: { maxCycles: number }): Promise<HostWindowReply> {
    return this.call({ t: 'window', end, inbound, maxCycles: opts.maxCycles }, (m) => (m.t === 'window' ? m.reply : undefined));
  }

  finish(end: number, inbound: CrossMessages): Promise<PartitionResult[]> {
    return this.call({ t: 'finish', end, inbound }, (m) => (m.t === 'results' ? m.results : undefined));
  }

  collect(end: RunEnd): Promise<unknown[]> {
    return this.call({ t: 'collect', end }, (m) => (m.t === 'collected' ? m.collected : undefined));
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private fail(e: Error, p: { reject: (e: Error) => void } | null): void {
    if (!this.failed) this.failed = e;
    this.pending = null;
    p?.reject(this.failed);
  }

  private call<R>(msg: unknown, pick: (m: WorkerReply) => R | undefined): Promise<R> {
    if (this.failed) return Promise.reject(this.failed);
    if (!this.worker) return Promise.reject(new PartitionFailure(this.names, -1, 'its worker thread is not running'));
    return new Promise<R>((resolve, reject) => {
      this.pending = {
        resolve: (m) => {
          const r = pick(m);
          if (r === undefined) reject(new PartitionFailure(this.names, -1, `unexpected reply ${m.t} from its worker thread`));
          else resolve(r);
        },
        reject,
      };
      if (msg !== null) this.worker!.postMessage(msg);
    });
  }
}

export interface ThreadedRunOptions extends Pick<RunOptions, 'maxCycles' | 'onProgress'> {
  /** Threads (hosts) to spread the partitions over: 1 runs them all on the calling thread. */
  threads: number;
  /** The window length; by default the smallest minimum latency of the cross links. */
  lookahead?: number;
  /**
   * Below this lookahead (cycles) a window is too short to pay for a thread exchange: the run stays on the calling
   * thread and says so (`note`). Default 8 (MODEL: a window round trip costs ~0.1 ms of host time, docs/simulator.md).
   */
  minUsefulLookahead?: number;
  /** Transport factory (tests, other processes); by default worker threads for N > 1. */
  transport?: (host: number) => PartitionTransport;
  /** Workers started ahead (prestartWorkers): used for the worker hosts; the run terminates them all at its end. */
  workers?: PrestartedWorker[];
  /**
   * Host 0 runs on the calling thread (which otherwise only waits for the workers): one worker fewer to start, and
   * the caller's already compiled code. Windows are granted to the workers first, so they run meanwhile.
   */
  mainThreadHost?: boolean;
}

export interface ThreadedRunResult {
  reason: StopReason;
  cycles: number;
  /** Hosts actually used (1 when the run stayed on the calling thread). */
  threads: number;
  lookahead: number;
  windows: number;
  crossMessages: number;
  /** Per partition, in partition order. */
  parts: PartitionResult[];
  /** Host (wall) milliseconds of the windowed part of the run, from the first grant to the last reply. */
  wallMs: number;
  /** Per host: milliseconds its partitions simulated, and milliseconds it waited (wallMs minus that). */
  hostBusyMs: number[];
  hostWaitMs: number[];
  /** Sum of the partitions' simulating time over threads x wallMs (1 = every thread always simulating). */
  efficiency: number;
  /** Why the run used fewer threads than asked (no partitions to spread, no useful lookahead), or null. */
  note: string | null;
  /**
   * 'windows': conservative windows (this module); 'queue': independent partitions, each run to its end by the next
   * free thread, the calling thread included (queued.ts). Absent: 'windows'.
   */
  schedule?: 'windows' | 'queue';
  /** Work-queue runs, per host: milliseconds spent building partitions, and from the run's start to its first partition (a worker's start-up). */
  hostBuildMs?: number[];
  hostStartMs?: number[];
  /** Work-queue runs, per host: the thread's CPU milliseconds for building and simulating its partitions (NaN: unknown). */
  hostCpuMs?: number[];
}

/** Runs the partitions built from `specs` in conservative windows on `opts.threads` hosts. */
export async function runThreaded(specs: PartitionSpec[], opts: ThreadedRunOptions): Promise<ThreadedRunResult> {
  const P = specs.length;
  if (P === 0) throw new RangeError('threaded run: no partitions');
  if (!(Number.isInteger(opts.threads) && opts.threads >= 1)) throw new RangeError(`threaded run: threads must be an integer >= 1, got ${opts.threads}`);
  const minUseful = opts.minUsefulLookahead ?? 8;
  let note: string | null = null;
  let H = Math.min(opts.threads, P);
  if (opts.threads > P) note = `${opts.threads} threads asked, ${P} partition${P === 1 ? '' : 's'} to run: ${H} thread${H === 1 ? '' : 's'} used`;
  const indexed = specs.map((s, index) => ({ ...s, index }));
  const assign = (h: number, hosts: number) => indexed.filter((s) => Math.floor((s.index * hosts) / P) === h);
  const main = opts.mainThreadHost ? 1 : 0;
  // none given: those a launcher started early for this entry, if any (the others start when their host does)
  const pre = opts.workers ?? (opts.transport ? [] : claimEarlyWorkers(H - main, partitionWorkerUrl()));
  const make = (h: number, hosts: number) => (opts.transport ? opts.transport(h) : hosts === 1 || h < main ? new InProcessTransport() : new WorkerTransport(pre[h - main]));
  // workers first: a host on the calling thread runs its share synchronously inside its call
  const calls = <T>(f: (t: PartitionTransport, h: number) => Promise<T>): Promise<T[]> => {
    const out: Array<Promise<T>> = new Array(hosts.length);
    for (let h = hosts.length - 1; h >= 0; h--) out[h] = f(hosts[h]!, h);
    return Promise.all(out);
  };
  let hosts: PartitionTransport[] = [];
  try {
    hosts = Array.from({ length: H }, (_, h) => make(h, H));
    let readies = await calls((t, h) => t.start(assign(h, H)));
    let minLatency = Math.min(...readies.flatMap((r) => r.parts.map((p) => p.minLatency)));
    if (H > 1 && minLatency < minUseful) {
      // No useful lookahead: rebuild on the calling thread (the partitions' state is still at cycle 0).
      note = `the cross-partition links allow a lookahead of ${minLatency} cycle${minLatency === 1 ? '' : 's'}, below the ${minUseful} a thread exchange needs to pay off: ran on 1 thread`;
      await Promise.all(hosts.map((t) => t.close()));
      H = 1;
      hosts = [make(0, 1)];
      readies = [await hosts[0]!.start(assign(0, 1))];
      minLatency = Math.min(...readies[0]!.parts.map((p) => p.minLatency));
    }
    const L = opts.lookahead ?? (minLatency === Infinity ? Number.MAX_SAFE_INTEGER : minLatency);
    if (!(Number.isInteger(L) && L >= 1)) throw new RangeError(`threaded run: the lookahead must be an integer >= 1 cycle, got ${L}`);
    if (L > minLatency) throw new RangeError(`threaded run: a cross-partition link has a minimum latency of ${minLatency} cycles, below the lookahead ${L}`);
    // Routing: link id -> host that receives on it.
    const route = new Map<string, number>();
    readies.forEach((r, h) => r.parts.forEach((p) => p.inbound.forEach((id) => route.set(id, h))));
    for (const [h, r] of readies.entries())
      for (const p of r.parts)
        for (const id of p.outbound)
          if (!route.has(id)) throw new PartitionFailure(specs[p.index]!.name, p.index, `sends on link ${id}, which no partition receives on`);
    const inbox: CrossMessages[] = hosts.map(() => []);
    let crossMessages = 0;
    let inboxNext = Infinity;
    const post = (out: CrossMessages) => {
      for (const m of out) {
        inbox[route.get(m[0])!]!.push(m);
        if (m[1] < inboxNext) inboxNext = m[1];
      }
      crossMessages += out.length;
    };
    const next = readies.map((r) => r.next);
    const clock = readies.map((r) => r.clock);
    readies.forEach((r) => post(r.outbound));
    const maxCycles = opts.maxCycles ?? Infinity;
    const hostBusyMs = hosts.map(() => 0);
    let windows = 0;
    const t0 = performance.now();
    for (;;) {
      const T = Math.min(inboxNext, ...next);
      if (T === Infinity || T >= maxCycles) {
        const ended = T === Infinity;
        // Every partition's clock: the latest done cycle (as in partitioned.ts); finish accounts up to it.
        const end = ended ? Math.max(0, ...clock) : maxCycles;
        const { reason, parts } = await finishHosts(hosts, end, ended, (h) => takeInbox(inbox, h));
        const wallMs = performance.now() - t0;
        const busySum = hostBusyMs.reduce((a, b) => a + b, 0);
        return {
          reason,
          cycles: end,
          threads: H,
          lookahead: L,
          windows,
          crossMessages,
          parts,
          wallMs,
          hostBusyMs,
          hostWaitMs: hostBusyMs.map((b) => Math.max(0, wallMs - b)),
          efficiency: wallMs > 0 ? busySum / (H * wallMs) : 1,
          note,
        };
      }
      const E = Math.min(T + L, maxCycles);
      const replies = await calls((t, h) => t.window(E, takeInbox(inbox, h), { maxCycles }));
      inboxNext = Infinity;
      replies.forEach((r, h) => {
        next[h] = r.next;
        clock[h] = r.clock;
        hostBusyMs[h] += r.busyMs.reduce((a, b) => a + b, 0);
        post(r.outbound);
      });
      windows++;
      opts.onProgress?.(E);
    }
  } finally {
    await Promise.all(hosts.map((t) => t.close().catch(() => undefined)));
    await releaseWorkers(pre);
  }
}

/**
 * The end of a run at `end` (`ended`: every partition ran out of work, else a stop at maxCycles): every host accounts
 * its partitions up to `end`, then collects their results; the partitions in partition order.
 */
export async function finishHosts(hosts: PartitionTransport[], end: number, ended: boolean, inbound: (h: number) => CrossMessages = () => []): Promise<{ reason: StopReason; parts: PartitionResult[] }> {
  // workers first: a host on the calling thread does its share synchronously inside its call
  const all = <T>(f: (t: PartitionTransport, h: number) => Promise<T>): Promise<T[]> => {
    const out: Array<Promise<T>> = new Array(hosts.length);
    for (let h = hosts.length - 1; h >= 0; h--) out[h] = f(hosts[h]!, h);
    return Promise.all(out);
  };
  const perHost = await all((t, h) => t.finish(end, inbound(h)));
  const reason: StopReason = !ended ? 'max-cycles' : perHost.flat().some((p) => p.busy) ? 'deadlock' : 'done';
  const collected = await all((t) => t.collect({ reason, cycles: end }));
  perHost.forEach((ps, h) => ps.forEach((p, k) => (p.collected = collected[h]![k])));
  return { reason, parts: perHost.flat().sort((a, b) => a.index - b.index) };
}

function takeInbox(inbox: CrossMessages[], h: number): CrossMessages {
  const m = inbox[h]!;
  inbox[h] = [];
  return m;
}
