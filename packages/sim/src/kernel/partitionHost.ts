/**
 * The partition side of a threaded run (threaded.ts): a host owns some partitions of a run (all of them on one thread,
 * or its share on a worker thread), builds them from serialisable specs, and executes the coordinator's windows. The
 * same class runs in-process (`--threads 1`) and inside a worker (partitionWorker.ts), so the two paths share every
 * line that touches the model.
 *
 * A partition is built INSIDE its host by a builder function named by a module and an export name, from
 * structured-cloneable arguments (`PartitionSpec`): nothing but data crosses a thread. The builder returns the
 * partition's Simulator, the cross-partition links it receives on (registered with its Simulator) and the stand-ins
 * it sends on (unregistered TimedLinks with the same system-wide ids, `crossPartition = true`), and optionally a
 * `collect()` giving its results (dumps, trace events...) after the run.
 */
import { readFileSync } from 'node:fs';
import type { TimedLink } from './link.js';
import type { EngineStats, RunOptions, Simulator, StopReason } from './simulator.js';

/** How to build one partition, from data only (it may be sent to a worker thread or, later, another process). */
export interface PartitionSpec {
  /** A name for reports (`chip3`, `cluster 2`): errors name the partition by it. */
  name: string;
  /** The module exporting the builder: a file URL or a bare specifier resolvable from @pyxis/sim. */
  module: string;
  /** The builder's export name in `module`. */
  builder: string;
  /** The builder's arguments: structured-cloneable (they are copied to the worker). */
  args: unknown;
}

/** What a builder returns. Link ids name the RECEIVING link system-wide (the sender's stand-in has the same id). */
export interface PartitionBuild {
  sim: Simulator;
  /** Cross-partition links this partition receives on: registered with `sim`, `crossPartition = true`. */
  inbound: Record<string, TimedLink<unknown>>;
  /** Stand-ins for other partitions' inbound links (`crossPartition = true`, not registered): sends are shipped. */
  outbound: Record<string, TimedLink<unknown>>;
  /** Results after the run (structured-cloneable): dumps, trace events, model counters; told how the run ended. */
  collect?: (end: RunEnd) => unknown;
}

/** How the whole run ended (every partition's `collect` is told). */
export interface RunEnd {
  reason: StopReason;
  cycles: number;
}

export interface PartitionContext {
  /** The partition's index in the run (its place in every result list). */
  index: number;
  name: string;
}

export type PartitionBuilder = (args: never, ctx: PartitionContext) => PartitionBuild | Promise<PartitionBuild>;

/** Messages crossing partitions in one exchange: link id, then the (at, key, msg) triples, flattened. */
export type CrossMessages = Array<[link: string, at: number, key: number, msg: unknown]>;

export interface HostReady {
  /** Per partition of this host: its index, inbound and outbound link ids, the smallest cross-link latency. */
  parts: Array<{ index: number; inbound: string[]; outbound: string[]; minLatency: number }>;
  /** Messages sent while building (initial tokens, host writes). */
  outbound: CrossMessages;
  /** The earliest cycle any partition of this host can act at (Infinity: none, unless a message comes). */
  next: number;
  /** The latest cycle any partition of this host has reached (the run's end when every partition is done). */
  clock: number;
}

export interface HostWindowReply {
  outbound: CrossMessages;
  next: number;
  clock: number;
  /** Host milliseconds each partition of this host spent simulating in this window (by position in `parts`). */
  busyMs: number[];
}

export interface PartitionResult {
  index: number;
  name: string;
  steps: number;
  busy: boolean;
  waitGraph: string[];
  stats: EngineStats[];
  /** What the partition's `collect` returned (filled in after the run's end is known). */
  collected: unknown;
  /** Host milliseconds spent simulating (all windows). */
  busyMs: number;
  /** Work-queue runs (queued.ts): the thread that ran it and the milliseconds it took to build. */
  thread?: number;
  buildMs?: number;
}

/** What a work-queue run (queued.ts) gives every host: the partitions, the counter they take indexes from. */
export interface QueueGrant {
  /** In the order the queue hands them out (queued.ts `order`), each with its partition index. */
  specs: Array<PartitionSpec & { index: number }>;
  /** Shared by every host (a SharedArrayBuffer's Int32Array): element 0 is the next partition to take. */
  counter: Int32Array;
  maxCycles: number;
}

/** A partition of a work-queue run that ran to its own end on its host. */
export interface QueuedPart {
  index: number;
  /** Its cycle at the end (its done cycle when quiescent). */
  clock: number;
  /** Its next event (Infinity: done or waiting for nothing; >= maxCycles: stopped there). */
  next: number;
  /** Host milliseconds spent simulating it, and building it; the thread's CPU milliseconds for both (NaN: unknown). */
  busyMs: number;
  buildMs: number;
  cpuMs: number;
}

/** A host's report during a work-queue run: it took a partition (at: epoch milliseconds), or one ran. */
export type QueueEvent = { t: 'took'; index: number; at: number } | { t: 'ran'; part: QueuedPart };

/** Thrown (or reported from a worker) when a partition's builder or model throws: the partition is named. */
export class PartitionFailure extends Error {
  constructor(
    readonly partition: string,
    readonly index: number,
    readonly detail: string,
    readonly stackText = '',
    /** The diagnostics of a model error that carried some (a DiagnosticError thrown inside the partition): input errors. */
    readonly diagnostics: unknown[] | null = null,
  ) {
    super(`partition ${partition}${index >= 0 ? ` (#${index})` : ''} failed: ${detail}`);
    this.name = 'PartitionFailure';
  }
}

/**
 * CPU milliseconds this thread has used (Linux: utime + stime of /proc/thread-self/stat, in 10 ms ticks); NaN where
 * that is not available. Unlike wall time it does not grow when other processes take the core.
 */
export function threadCpuMs(): number {
  try {
    const f = readFileSync('/proc/thread-self/stat', 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Builder modules already loaded under their specifier (a bundled worker entry: scripts/bundle.mjs). */
const registered = new Map<string, Record<string, unknown>>();

/**
 * Makes `specifier` resolve to `mod` for the partitions of this thread: a bundled worker entry carries the builders'
 * modules inside it (one file to load instead of the package's ~100 modules) and registers them before any spec
 * arrives.
 */
export function registerPartitionModule(specifier: string, mod: Record<string, unknown>): void {
  registered.set(specifier, mod);
}

/** Whether `specifier` is registered on this thread (a worker then does not load it again ahead of the run). */
export function partitionModuleRegistered(specifier: string): boolean {
  return registered.has(specifier);
}

const loadBuilder = async (spec: PartitionSpec): Promise<PartitionBuilder> => {
  const mod = registered.get(spec.module) ?? ((await import(spec.module)) as Record<string, unknown>);
  const f = mod[spec.builder];
  if (typeof f !== 'function') throw new Error(`module ${spec.module} exports no builder function \`${spec.builder}\``);
  return f as PartitionBuilder;
};

interface Hosted {
  index: number;
  name: string;
  build: PartitionBuild;
  inIds: string[];
  inbound: Array<TimedLink<unknown>>;
  outIds: string[];
  outbound: Array<TimedLink<unknown>>;
  busyMs: number;
  buildMs: number;
}

export class PartitionHost {
  private parts: Hosted[] = [];
  private inboundById = new Map<string, TimedLink<unknown>>();
  /** While a partition's code runs: its position (errors name it). */
  private current = -1;

  /** Builds the partitions (in index order) and reports their links and the messages sent while building. */
  async start(specs: Array<PartitionSpec & { index: number }>): Promise<HostReady> {
    for (const spec of specs) await this.add(spec);
    const outbound = this.exchange();
    return {
      parts: this.parts.map((p) => ({
        index: p.index,
        inbound: p.inIds,
        outbound: p.outIds,
        minLatency: Math.min(...p.inbound.map((l) => l.minLatency), ...p.outbound.map((l) => l.minLatency)),
      })),
      outbound,
      next: this.next(),
      clock: this.clock(),
    };
  }

  /** Builds one partition and checks its links. */
  private async add(spec: PartitionSpec & { index: number }): Promise<Hosted> {
    this.current = -1;
    const b0 = performance.now();
    let build: PartitionBuild;
    try {
      build = await (await loadBuilder(spec))(spec.args as never, { index: spec.index, name: spec.name });
    } catch (e) {
      throw failure(spec.name, spec.index, e);
    }
    const outIds = Object.keys(build.outbound).sort();
    const inIds = Object.keys(build.inbound).sort();
    for (const id of inIds) {
      const l = build.inbound[id]!;
      if (!l.crossPartition) throw new PartitionFailure(spec.name, spec.index, `inbound link ${id} is not marked crossPartition`);
      if (this.inboundById.has(id)) throw new PartitionFailure(spec.name, spec.index, `inbound link id ${id} is used twice`);
      this.inboundById.set(id, l);
    }
    for (const id of outIds) {
      if (!build.outbound[id]!.crossPartition) throw new PartitionFailure(spec.name, spec.index, `outbound link ${id} is not marked crossPartition`);
      if (build.inbound[id]) throw new PartitionFailure(spec.name, spec.index, `link ${id} is both inbound and outbound (send on the inbound link itself)`);
    }
    const h: Hosted = { index: spec.index, name: spec.name, build, inIds, inbound: inIds.map((id) => build.inbound[id]!), outIds, outbound: outIds.map((id) => build.outbound[id]!), busyMs: 0, buildMs: performance.now() - b0 };
    this.parts.push(h);
    return h;
  }

  /**
   * Work-queue run of independent partitions (queued.ts): takes the next partition index from the shared counter
   * (every host of the run takes from the same one, so a free thread always takes the next partition), builds it and
   * runs it to its own end (quiescent, or `maxCycles`), until no partition is left. `on` hears which partition this
   * host took and, once it ran, its clock. `progress`: the partition advances in chunks of `progress.chunk` cycles and
   * `progress.at` hears the cycle reached after each (results do not depend on the chunks: partitioned.ts).
   */
  async drain(q: QueueGrant, on: (e: QueueEvent) => void, progress?: { chunk: number; at: (cycle: number) => void }): Promise<void> {
    const limit = Math.min(q.maxCycles, Number.MAX_SAFE_INTEGER);
    const opts: RunOptions = { maxCycles: q.maxCycles };
    for (;;) {
      // a turn of the event loop: on the calling thread, the workers' reports (and failures) are heard meanwhile
      await new Promise((r) => setImmediate(r));
      const i = Atomics.add(q.counter, 0, 1);
      if (i >= q.specs.length) return;
      const spec = q.specs[i]!;
      on({ t: 'took', index: spec.index, at: performance.timeOrigin + performance.now() });
      const c0 = threadCpuMs();
      const p = await this.add(spec);
      if (p.inIds.length || p.outIds.length) throw new PartitionFailure(p.name, p.index, `has cross-partition links (${[...p.inIds, ...p.outIds].join(', ')}): it is not independent, a work-queue run cannot take it`);
      this.current = this.parts.length - 1;
      const t0 = performance.now();
      try {
        const sim = p.build.sim;
        if (progress)
          for (let at = sim.nextEventAt(); at < limit; at = sim.nextEventAt()) {
            sim.advance(Math.min(limit, Math.max(at, sim.now) + progress.chunk), opts);
            progress.at(sim.now);
          }
        else while (sim.nextEventAt() < limit) sim.advance(limit, opts);
      } catch (e) {
        throw failure(p.name, p.index, e);
      }
      p.busyMs = performance.now() - t0;
      this.current = -1;
      on({ t: 'ran', part: { index: p.index, clock: p.build.sim.now, next: p.build.sim.nextEventAt(), busyMs: p.busyMs, buildMs: p.buildMs, cpuMs: threadCpuMs() - c0 } });
    }
  }

  /** One window: the messages from other hosts enter the heaps, every partition simulates its cycles < `end`. */
  window(end: number, inbound: CrossMessages, opts: RunOptions): HostWindowReply {
    this.accept(inbound);
    const busyMs: number[] = [];
    for (let k = 0; k < this.parts.length; k++) {
      const p = this.parts[k]!;
      this.current = k;
      const t0 = performance.now();
      try {
        p.build.sim.advance(end, opts);
      } catch (e) {
        throw failure(p.name, p.index, e);
      }
      const ms = performance.now() - t0;
      p.busyMs += ms;
      busyMs.push(ms);
    }
    this.current = -1;
    return { outbound: this.exchange(), next: this.next(), clock: this.clock(), busyMs };
  }

  /** The run ends at `end`: every partition accounts its remaining cycles; the results, in partition order. */
  finish(end: number, inbound: CrossMessages): PartitionResult[] {
    this.accept(inbound);
    return this.parts.map((p) => {
      try {
        p.build.sim.finishAt(end);
        return {
          index: p.index,
          name: p.name,
          steps: p.build.sim.steps,
          busy: p.build.sim.anyBusy(),
          waitGraph: p.build.sim.anyBusy() ? p.build.sim.waitGraph() : [],
          stats: p.build.sim.engineStats(),
          collected: null,
          busyMs: p.busyMs,
          buildMs: p.buildMs,
        };
      } catch (e) {
        throw failure(p.name, p.index, e);
      }
    });
  }

  /** After `finish`: every partition's `collect` (null without one), in partition order. */
  collect(end: RunEnd): unknown[] {
    return this.parts.map((p) => {
      try {
        return p.build.collect?.(end) ?? null;
      } catch (e) {
        throw failure(p.name, p.index, e);
      }
    });
  }

  /** The partition whose code was running when an error escaped (for worker crash reports), or null. */
  running(): { name: string; index: number } | null {
    const p = this.parts[this.current];
    return p ? { name: p.name, index: p.index } : null;
  }

  private accept(inbound: CrossMessages): void {
    for (const [id, at, key, msg] of inbound) {
      const l = this.inboundById.get(id);
      if (!l) throw new Error(`cross message for link ${id}, which no partition of this host receives on`);
      l.acceptRemote(at, key, msg);
    }
    for (const p of this.parts) for (const l of p.inbound) l.flushOutbox();
  }

  /** After a window: local cross sends enter their heaps; sends to other hosts are collected (link id order). */
  private exchange(): CrossMessages {
    const out: CrossMessages = [];
    for (const p of this.parts) {
      for (const l of p.inbound) l.flushOutbox();
      for (let k = 0; k < p.outbound.length; k++) {
        const id = p.outIds[k]!;
        for (const m of p.outbound[k]!.takeOutbox()) out.push([id, m.at, m.key, m.msg]);
      }
    }
    return out;
  }

  private clock(): number {
    let t = 0;
    for (const p of this.parts) t = Math.max(t, p.build.sim.now);
    return t;
  }

  private next(): number {
    let t = Infinity;
    for (const p of this.parts) t = Math.min(t, p.build.sim.nextEventAt());
    return t;
  }
}

function failure(name: string, index: number, e: unknown): PartitionFailure {
  if (e instanceof PartitionFailure) return e;
  return new PartitionFailure(name, index, e instanceof Error ? e.message : String(e), e instanceof Error ? (e.stack ?? '') : '', diagnosticsOf(e));
}

/** The diagnostics a DiagnosticError carries (duck-typed: the kernel names no diagnostics package), or null. */
export function diagnosticsOf(e: unknown): unknown[] | null {
  const d = (e as { diagnostics?: unknown } | null)?.diagnostics;
  return Array.isArray(d) ? (structuredClone(d) as unknown[]) : null;
}
