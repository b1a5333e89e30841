/**
 * One cluster of a chip as a partition of a threaded run (issue 22; kernel/threaded.ts), for images that
 * clusterPlan.ts found free of cross-cluster paths. The partition builds the whole chip (every cluster's engines, so
 * names, engine keys, NoC windows and barrier ids are those of the single-partition run) and loads the HBM sections
 * and the sections of its own cluster, its cluster's enqueue records and host actions. The other clusters stay
 * empty: idle passive engines cost nothing per cycle.
 *
 * Run-time guard: the static plan sees the descriptors the image holds; anything the image does at run time that
 * reaches another cluster (a barrier notify, ICDMA or MPE write to another cluster, a NoC access of another
 * cluster's AMEM/config window, HBM written by one cluster and used by another) throws `SplitViolation` in the
 * partition, and the driver (threadedChip.ts) reruns the image in one partition saying why.
 *
 * `collect` returns this cluster's share of the report (the merge is clusterMerge.ts) and the bytes of the dump spans
 * it owns.
 */
import type { PartitionBuild, RunEnd } from '@pyxis/sim';
import { readContainer } from '@pyxis/container';
import type { PyxisChip } from '../chip.js';
import type { HostAgent } from '../host.js';
import { chipFor } from '../imageChip.js';
import type { SimConfig } from '../config.js';
import { inspectImage, loadImage, type ImageInfo } from '../image.js';
import { PyxisObserver } from '../observer.js';
import { buildReport, type SimReport } from '../run.js';
import { resetMemoryCounters } from '../imageChip.js';
import { makeUieFactory } from '../uieDefault.js';
import type { UieFactory } from '../uieSlot.js';
import type { Ranges } from './clusterPlan.js';

export const CLUSTER_PARTITION_MODULE = '@pyxis/target-pyxis/parallel';
export const CLUSTER_PARTITION_BUILDER = 'buildClusterPartition';

/** A memory span a dump reads: HBM (cluster -1) or a cluster's AMEM / config window (cfg offsets). */
export interface DumpSpan {
  space: 'hbm' | 'amem' | 'cfg';
  cluster: number;
  addr: number;
  len: number;
}

export interface ClusterPartitionArgs {
  image: Uint8Array;
  file: string;
  cluster: number;
  clusters: number;
  uies: number;
  config: SimConfig;
  timingOnly: boolean;
  quantum: number;
  hbmReads: Ranges[];
  hbmWrites: Ranges[];
  /** Clusters whose UIEs get a model here: this one, and for the first partition the clusters without work (the merge reads their idle UIE figures from it). */
  models: number[];
  /** Global indexes (in the image's record order) of this cluster's enqueue records. */
  recordIndex: number[];
  /** Every dump span of the run; the partition returns the bytes of those it owns (HBM: every span, for the ranges it writes). */
  spans: DumpSpan[];
}

export interface ClusterPartitionResult {
  cluster: number;
  report: SimReport;
  /** Warnings of report.warnings by origin (run.ts buildReport order): counts of each segment. */
  segments: { timeouts: number; chip: number; amem: number; uie: number };
  /** Cycles at which the host enqueued or performed an action for this cluster; whether it still had work at the end. */
  hostProgress: number[];
  hostBusyAtEnd: boolean;
  /** The host's blocked reason and the global index of the first record of the group it waits on (-1: an action). */
  hostBlocked: { line: string; record: number } | null;
  /** Dump span bytes (null where not owned). */
  spans: Array<Uint8Array | null>;
}

/** The image did something at run time that reaches another cluster. */
export class SplitViolation extends Error {
  constructor(cluster: number, what: string) {
    super(`cluster ${cluster} ${what} at run time: clusters are not independent`);
    this.name = 'SplitViolation';
  }
}

const hit = (rs: Ranges | undefined, a: number, b: number) => !!rs?.some((r) => r[0] < b && a < r[1]);

/** Sorted, overlapping and touching ranges joined. */
function merged(rs: Ranges): Ranges {
  const out: Ranges = [];
  for (const r of [...rs].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * The image model of the bytes a partition was given, read once per thread: every spec of a run holds the same array
 * (one structured clone per message to a worker; the very array the driver made on the calling thread, which hands
 * over the model it already read, `rememberImage`). The model is read-only to the chips built from it.
 */
const images = new WeakMap<Uint8Array, ImageInfo>();

export function rememberImage(bytes: Uint8Array, info: ImageInfo): void {
  images.set(bytes, info);
}

function imageOf(a: ClusterPartitionArgs): ImageInfo {
  let info = images.get(a.image);
  if (!info) images.set(a.image, (info = inspectImage(readContainer(a.image, a.file), a.file)));
  return info;
}

export function buildClusterPartition(a: ClusterPartitionArgs): PartitionBuild {
  const k = a.cluster;
  const info = imageOf(a);
  const chip = chipFor(info, { clusters: a.clusters, uies: a.uies, config: a.config, observer: new PyxisObserver(), quantum: a.quantum, uieFactory: ownUies(a.models, makeUieFactory({ timingOnly: a.timingOnly })) });
  // Only this cluster's sections (another cluster's config window may hold CSRs with side effects) and the HBM
  // sections its trips read (the coordinator keeps the image for the rest: no copy of the whole HBM per partition).
  const reads = a.hbmReads[k] ?? [];
  const placed = info.placed.filter((p) => (p.space === 'hbm' ? hit(reads, p.addr, p.addr + p.section.size) : p.cluster === k));
  loadImage(chip, { ...info, placed, records: info.records.filter((r) => r.cluster === k), hostActions: info.hostActions.filter((x) => x.cluster === k) });
  resetMemoryCounters(chip);
  const unguard = guard(chip, k, a);
  const host = chip.host;
  const progress: number[] = [];
  const tick = host.tick.bind(host);
  host.tick = (now: number) => {
    const did = tick(now);
    if (did) progress.push(now);
    return did;
  };
  return {
    sim: chip.sim,
    inbound: {},
    outbound: {},
    collect: (end: RunEnd): ClusterPartitionResult => {
      unguard();
      chip.apm.finish(end.cycles); // as run.ts: energy up to the run's last cycle
      const wait = end.reason === 'done' ? [] : chip.sim.waitGraph();
      const report = buildReport(chip, a.config, end.reason, end.cycles, chip.sim.steps, wait);
      const walkEnd = end.reason === 'deadlock' ? Infinity : end.cycles;
      const amem = chip.amem[k]!;
      return {
        cluster: k,
        report,
        segments: {
          timeouts: chip.barriers.reduce((s, b) => s + b.timeoutsUpTo(walkEnd).length, 0),
          chip: chip.warnings.length,
          amem: (amem.stats.uninitReads > 0 ? 1 : 0) + (amem.firstViewConflict ? 1 : 0),
          uie: chip.uies.reduce((s, u) => s + (u.model?.warnings?.length ?? 0), 0),
        },
        hostProgress: progress,
        hostBusyAtEnd: host.busy,
        hostBlocked: hostBlocked(host, a.recordIndex),
        spans: a.spans.map((s) =>
          s.space === 'hbm' ? chip.hbm.readBytes(s.addr, s.len) : s.cluster !== k ? null : s.space === 'amem' ? chip.amem[k]!.readBytes(s.addr, s.len) : chip.cfg[k]!.readBytes(s.addr, s.len),
        ),
      };
    },
  };
}

/** UIE models for these clusters only: the other clusters' UIEs never get a trip here (no model: no build cost). */
function ownUies(clusters: number[], f: UieFactory): UieFactory {
  return ((o) => (clusters.includes(o.cluster) ? f(o) : undefined)) as UieFactory;
}

/** The host's wait line and the record it waits on (its first open (cluster, queue) group, as HostAgent reports). */
function hostBlocked(host: HostAgent, recordIndex: number[]): ClusterPartitionResult['hostBlocked'] {
  const line = host.blockedReason();
  if (!line) return null;
  const h = host as unknown as { open: number[]; pending: Array<{ recs: number[]; next: number }> };
  const g = h.open.length ? h.pending[h.open[0]!] : undefined;
  return { line: `host: ${line}`, record: g ? recordIndex[g.recs[0]!]! : -1 };
}

/** Throws SplitViolation when cluster k reaches another cluster at run time (see the module comment); returns the undo. */
function guard(chip: PyxisChip, k: number, a: ClusterPartitionArgs): () => void {
  for (let d = 0; d < a.clusters; d++) {
    if (d === k) continue;
    const stop = (what: string) => () => {
      throw new SplitViolation(k, what);
    };
    chip.notifyLinks[d]!.send = stop(`notifies a barrier of cluster ${d}`);
    chip.icdmaLinks[d]!.send = stop(`sends ICDMA data to cluster ${d}`);
    chip.nocLinks[d]!.send = stop(`writes cluster ${d} through the NoC`);
  }
  const others = (rs: Ranges[], also?: Ranges[]) => rs.flatMap((r, d) => (d === k ? [] : [...r, ...(also?.[d] ?? [])]));
  const foreignWrites = others(a.hbmWrites);
  const foreignUse = others(a.hbmWrites, a.hbmReads);
  const hbm = chip.hbm;
  const read = hbm.read.bind(hbm);
  const write = hbm.write.bind(hbm);
  const mine = merged([...(a.hbmReads[k] ?? []), ...(a.hbmWrites[k] ?? [])]);
  hbm.read = (addr, dst, off, len) => {
    if (hit(foreignWrites, addr, addr + len)) throw new SplitViolation(k, `reads HBM 0x${addr.toString(16)} that another cluster writes`);
    if (!mine.some((r) => r[0] <= addr && addr + len <= r[1])) throw new SplitViolation(k, `reads HBM 0x${addr.toString(16)}, outside the ranges its descriptors name`);
    read(addr, dst, off, len);
  };
  hbm.write = (addr, src, off, len) => {
    if (hit(foreignUse, addr, addr + len)) throw new SplitViolation(k, `writes HBM 0x${addr.toString(16)} that another cluster uses`);
    write(addr, src, off, len);
  };
  const noc = chip.noc;
  const nread = noc.read.bind(noc);
  const nwrite = noc.write.bind(noc);
  noc.read = (t, len, client) => {
    if (t.space !== 'hbm' && t.cluster !== k) throw new SplitViolation(k, `reads cluster ${t.cluster}'s ${t.space} through the NoC`);
    return nread(t, len, client);
  };
  noc.write = (t, data, client) => {
    if (t.space !== 'hbm' && t.cluster !== k) throw new SplitViolation(k, `writes cluster ${t.cluster}'s ${t.space} through the NoC`);
    nwrite(t, data, client);
  };
  return () => {
    hbm.read = read;
    hbm.write = write;
    noc.read = nread;
    noc.write = nwrite;
  };
}
