/**
 * A single-chip image with its clusters as partitions on threads (issue 22; `pyxis-sim run IMAGE --threads N`).
 * clusterPlan.ts decides from the image whether its clusters are independent; when they are, each cluster is a
 * partition (clusterPartition.ts) and, no cross link carrying any message, the kernel's work queue (queued.ts) runs
 * each to its end on the next free thread, the calling thread included; clusterMerge.ts makes the single-partition report of the results. Otherwise, and for runs that
 * sample the whole chip per cycle (--trace, --vcd, --warn-uninit) or dump raw regions, the image runs in one
 * partition (run.ts) and `note` says why. The split depends on the image only, never on the thread count, so every
 * `--threads` gives the same report.
 */
import { defaultThreads, PartitionFailure, prestartWorkers, registerPartitionModule, releaseWorkers, runQueued, type PartitionSpec, type PrestartedWorker, type ThreadedRunResult } from '@pyxis/sim';
import type { Container } from '@pyxis/container';
import { writeContainer } from '@pyxis/container';
import type { PyxisChip } from '../chip.js';
import { chipFor } from '../imageChip.js';
import { loadSimConfig, type SimConfig } from '../config.js';
import { inspectImage, loadImage, type ImageInfo } from '../image.js';
import type { NocMap } from '../noc.js';
import { resolveDump } from '../dump.js';
import { simulateImage, DEFAULT_QUANTUM, type SimReport, type SimulateOptions, type SimulationResult } from '../run.js';
import { listTargets, planClusterSplit, type ClusterSplit, type ClusterSplitPlan } from './clusterPlan.js';
import { buildClusterPartition, rememberImage, CLUSTER_PARTITION_BUILDER, CLUSTER_PARTITION_MODULE, SplitViolation, type ClusterPartitionArgs, type ClusterPartitionResult, type DumpSpan } from './clusterPartition.js';
import { mergeClusterReports } from './clusterMerge.js';

/** The note of a run of a one-cluster image (the single-thread path: no partition to spread, no cost). */
export const ONE_CLUSTER = 'one partition (a single-chip image of one cluster)';

/** The chunk (cycles) in which the calling thread advances a cluster partition when the run reports progress. */
export const PROGRESS_WINDOW = 1 << 16;

export interface ChipThreadsOptions extends SimulateOptions {
  /** `--threads`; absent: defaultThreads(clusters). */
  threads?: number;
  timingOnly?: boolean;
  /** Tensor symbols read after the run (--dump, --compare). */
  symbols?: string[];
  /** The run dumps raw regions (--dump-region): it stays in one partition. */
  regions?: boolean;
  /** Tests: the module the workers load (the built package by default). */
  module?: string;
  /** Benchmarks: the worker entry (by default the kernel's partitionWorkerUrl()). */
  workerUrl?: URL;
  /** Tests: the progress chunk of a run with progress (PROGRESS_WINDOW by default). */
  progressWindow?: number;
}

/** What dumpSymbol reads of a chip: the final memory state (a whole chip, or the spans a split run returned). */
export type ChipMemoryView = Pick<PyxisChip, 'clusters' | 'hbm' | 'amem' | 'cfg'>;

export interface ChipThreadsResult {
  report: SimReport;
  /** The chip (single-partition run) or a view of the dumped spans (split run). */
  memory: ChipMemoryView;
  chip: PyxisChip | null;
  parallel: ThreadedRunResult | null;
  /** Why the run used one partition, or null. */
  note: string | null;
}

function onePartition(image: ImageInfo, file: string, o: ChipThreadsOptions, note: string): ChipThreadsResult {
  const r: SimulationResult = simulateImage(image, file, o);
  return { report: r.report, memory: r.chip, chip: r.chip, parallel: null, note };
}

export async function runChipThreaded(image: Container | ImageInfo, file: string, o: ChipThreadsOptions): Promise<ChipThreadsResult> {
  const info = 'placed' in image ? image : inspectImage(image, file);
  const clusters = o.clusters ?? info.clusters;
  const uies = o.uies ?? info.uies;
  if (clusters < 2) return onePartition(info, file, o, ONE_CLUSTER);
  if (o.trace || o.vcd || o.warnUninit) return onePartition(info, file, o, `${o.trace ? '--trace' : o.vcd ? '--vcd' : '--warn-uninit'} samples the whole chip`);
  if (o.regions) return onePartition(info, file, o, '--dump-region reads raw memory of the whole chip');
  const threads = o.threads ?? defaultThreads(clusters);
  const module = o.module ?? CLUSTER_PARTITION_MODULE;
  const config: SimConfig = o.config ?? loadSimConfig(o.clockHz !== undefined ? { clockHz: o.clockHz } : {});
  // clusters with work (enqueue records, host actions): one partition each; the others stay idle in every partition
  const active = [...new Set([...info.records.map((r) => r.cluster), ...info.hostActions.map((a) => a.cluster)])].sort((a, b) => a - b);
  if (active.length < 2) return onePartition(info, file, o, active.length ? `only cluster ${active[0]} has work` : 'no cluster has work');
  // The workers start now (a V8 isolate and the builders' module each: 60-150 ms), so that a worker is ready when the
  // work queue opens: in a queue run its start-up is on the critical path. A run that stays in one partition ends
  // them before it runs. (Starting them before planning measured no gain with windows, where the calling thread
  // built its share meanwhile; with the queue the calling thread simulates at once, so the worker's start counts.)
  const workers: PrestartedWorker[] = threads > 1 ? prestartWorkers(Math.min(threads, active.length) - 1, [module], o.workerUrl) : [];
  try {
    return await splitRun(info, file, o, { clusters, uies, threads, module, config, active, workers });
  } finally {
    // runQueued ends the workers it was given; this ends them on every path that did not reach it
    await releaseWorkers(workers);
  }
}

interface SplitSetup {
  clusters: number;
  uies: number;
  threads: number;
  module: string;
  config: SimConfig;
  active: number[];
  workers: PrestartedWorker[];
}

async function splitRun(info: ImageInfo, file: string, o: ChipThreadsOptions, s: SplitSetup): Promise<ChipThreadsResult> {
  const { clusters, uies, threads, module, config, active, workers } = s;
  const container = info.container;
  const single = async (note: string) => {
    await releaseWorkers(workers);
    return onePartition(info, file, o, note);
  };
  let plan: ClusterSplit;
  try {
    // the descriptor lists as the DPE will find them: a chip (never run) holding the sections the lists lie in
    const probe = imageChip(info, config, clusters, (noc) => listTargets({ clusters, records: info.records, hostActions: info.hostActions, noc, ...(info.remap ? { remap: info.remap } : {}) }));
    plan = planClusterSplit({ clusters, records: info.records, hostActions: info.hostActions, config, noc: probe.noc, ...(info.remap ? { remap: info.remap } : {}) });
  } catch {
    plan = { ok: false as const, reason: 'the image does not load (the single-partition run reports why)' };
  }
  if (!plan.ok) return single(`clusters are not independent: ${plan.reason}`);
  const spans: DumpSpan[] = (o.symbols ?? []).map((s) => {
    const t = resolveDump(container, s, clusters);
    return { space: t.loc.space, cluster: t.loc.cluster, addr: t.loc.addr, len: t.span };
  });
  // the image's bytes of the dumped HBM no cluster writes and of the clusters without work
  const imageView = spans.length ? imageChip(info, config, clusters, () => spans.filter((x) => x.space === 'hbm' || !active.includes(x.cluster))) : undefined;
  // one copy per worker: every spec holds this same array, and a message clones an object once
  const bytes = writeContainer(container);
  rememberImage(bytes, info);
  const specs: PartitionSpec[] = active.map((c) => {
    const recordIndex: number[] = [];
    info.records.forEach((r, i) => r.cluster === c && recordIndex.push(i));
    const args: ClusterPartitionArgs = {
      image: bytes, file, cluster: c, clusters, uies, config, timingOnly: !!o.timingOnly, quantum: o.quantum ?? DEFAULT_QUANTUM,
      hbmReads: plan.hbmReads, hbmWrites: plan.hbmWrites, recordIndex, spans,
      models: c === active[0] ? [c, ...Array.from({ length: clusters }, (_, d) => d).filter((d) => !active.includes(d))] : [c],
    };
    return { name: `cluster${c}`, module, builder: CLUSTER_PARTITION_BUILDER, args };
  });
  // Largest first (workOrder): the thread that takes the last cluster then takes a small one.
  const order = workOrder(active, info.records, info.hostActions);
  // The clusters share nothing, so no window has to end before a partition's own end: a work queue (kernel
  // queued.ts). The calling thread starts on the first cluster at once; each thread then takes the next cluster when
  // done. The calling thread builds its partitions with this very module (not a second copy of the package loaded by
  // specifier: the CLI runs from a bundle, where that would load and compile the simulator's code again).
  registerPartitionModule(CLUSTER_PARTITION_MODULE, { [CLUSTER_PARTITION_BUILDER]: buildClusterPartition });
  let r: ThreadedRunResult;
  try {
    const progress = o.onProgress;
    r = await runQueued(specs, {
      threads, workers, order,
      ...(o.maxCycles !== undefined ? { maxCycles: o.maxCycles } : {}),
      ...(progress ? { progressChunk: o.progressWindow ?? PROGRESS_WINDOW, onProgress: (cycle: number, done: number, total: number) => progress(cycle, { done, total, unit: 'cluster partitions' }) } : {}),
    });
  } catch (e) {
    // A guard fired (the image reached another cluster at run time): the single-partition run gives the right result.
    // Bad input found in a partition (diagnostics): the single-partition run reports it exactly as without threads.
    // Anything else is a fault of the model: the run ends naming the partition (SIM0800, exit 3), never hidden by a
    // rerun.
    if (!(e instanceof PartitionFailure)) throw e;
    const split = e.detail.includes(SplitViolation.name) || /not independent/.test(e.detail);
    if (!split && !e.diagnostics) throw e;
    return single(split ? e.detail.slice(Math.max(0, e.detail.search(/cluster \d+ /))) : `partition ${e.partition} found bad input`);
  }
  const parts = r.parts.map((p) => p.collected as ClusterPartitionResult);
  const report = mergeClusterReports(parts, { stop: r.reason, cycles: r.cycles, records: info.records.length, apmCluster: plan.apmCluster });
  return { report, memory: memoryView(parts, spans, plan, clusters, imageView), chip: null, parallel: r, note: r.note };
}

/**
 * The order in which the work queue hands out the clusters (positions in `active`): the most work first, so that the
 * thread that ends last ends on a small cluster (the longest-processing-time rule). The work of a cluster is
 * estimated from the image alone, before any cycle runs: the descriptor-list words its enqueue records hand its
 * UIEs, plus its host actions; equal estimates keep cluster order. An estimate only: it moves no result (every
 * order gives the same report, kernel queued.ts), at worst the threads' ends.
 */
export function workOrder(active: number[], records: ReadonlyArray<{ cluster: number; descriptor_list_length: number }>, hostActions: ReadonlyArray<{ cluster: number }>): number[] {
  const work = active.map((c) => {
    let w = 0;
    for (const r of records) if (r.cluster === c) w += r.descriptor_list_length;
    for (const a of hostActions) if (a.cluster === c) w++;
    return w;
  });
  return active.map((_, k) => k).sort((x, y) => work[y]! - work[x]! || x - y);
}

/**
 * A chip (never run) holding part of the image: the HBM sections that overlap the given places, and every section of
 * a cluster whose AMEM or config window holds one (AMEM views make byte ranges there ambiguous; a cluster's memory is
 * bounded). Not the whole image: a large coupled image is not loaded twice just to be told it is coupled.
 */
function imageChip(info: ImageInfo, config: SimConfig, clusters: number, places: (noc: NocMap) => Array<{ space: string; cluster: number; addr: number; len: number }>): PyxisChip {
  const chip = chipFor(info, { clusters, config }); // no UIE models: never run
  const at = places(chip.noc);
  const whole = new Set(at.filter((x) => x.space !== 'hbm').map((x) => x.cluster));
  const hbm = at.filter((x) => x.space === 'hbm');
  const placed = info.placed.filter((p) => (p.space !== 'hbm' ? whole.has(p.cluster) : hbm.some((x) => x.addr < p.addr + p.section.size && p.addr < x.addr + x.len)));
  loadImage(chip, { ...info, placed, records: [], hostActions: [] });
  return chip;
}

/** The dumped spans as a chip's memories: AMEM/config from the cluster's partition, HBM per byte from its writer (the image where none writes). */
function memoryView(parts: ClusterPartitionResult[], spans: DumpSpan[], plan: ClusterSplitPlan, clusters: number, image: PyxisChip | undefined): ChipMemoryView {
  const bytes = spans.map((s, j) => {
    if (s.space !== 'hbm') {
      const p = parts.find((x) => x.cluster === s.cluster);
      // a cluster without work holds the image's bytes
      return p ? p.spans[j]! : s.space === 'amem' ? image!.amem[s.cluster]!.readBytes(s.addr, s.len) : image!.cfg[s.cluster]!.readBytes(s.addr, s.len);
    }
    const out = image!.hbm.readBytes(s.addr, s.len);
    for (const p of parts)
      for (const [a, b] of plan.hbmWrites[p.cluster]!) {
        const lo = Math.max(a, s.addr);
        const hi = Math.min(b, s.addr + s.len);
        if (lo < hi) out.set(p.spans[j]!.subarray(lo - s.addr, hi - s.addr), lo - s.addr);
      }
    return out;
  });
  const reader = (space: DumpSpan['space'], cluster: number) => ({
    readBytes(addr: number, len: number): Uint8Array {
      const j = spans.findIndex((s) => s.space === space && (space === 'hbm' || s.cluster === cluster) && addr >= s.addr && addr + len <= s.addr + s.len);
      if (j < 0) throw new Error(`internal: ${space} 0x${addr.toString(16)} (+${len}) was not returned by the cluster partitions`);
      return bytes[j]!.slice(addr - spans[j]!.addr, addr - spans[j]!.addr + len);
    },
  });
  return {
    clusters,
    hbm: reader('hbm', -1),
    amem: Array.from({ length: clusters }, (_, c) => reader('amem', c)),
    cfg: Array.from({ length: clusters }, (_, c) => reader('cfg', c)),
  } as unknown as ChipMemoryView;
}
