/**
 * The one place where the results of a chip's clusters run as partitions (clusterPartition.ts) become the report of
 * the single-partition run (run.ts buildReport), field by field:
 *
 * - a cluster's engines, ports, barrier table, trip manager, DPE, AMEM and its warnings come from its partition (the
 *   other partitions hold the same engines idle; a cluster without work has no partition and is idle everywhere);
 * - chip-wide counters are sums (trips by kind, barrier events, MPE, HBM traffic and uninitialised reads); keys in
 *   name order as run.ts writes them;
 * - the host agent, which serves every cluster: busy = the cycles at which it enqueued or acted for any cluster (the
 *   union), stall = the rest of the cycles it had work (from cycle 0 to its last progress, or to the end when work
 *   was left), idle = the remainder, as the kernel accounts a passive engine;
 * - the APM: from the partition of the only cluster whose trips request power (clusterPlan.ts), the others' APM saw
 *   nothing;
 * - the wait graph: the busy engines' lines in registration order (the host's: the group whose record comes first in
 *   the image), then the barrier explainer lines by cluster; warnings in buildReport's order.
 *
 * `kernel_steps` is the sum of the partitions' kernel steps: host work, not a simulated figure (it also changes with
 * --quantum).
 */
import type { StopReason } from '@pyxis/sim';
import type { Diagnostic } from '@pyxis/diagnostics';
import { chipWarnings, sortedKeys, type EngineReport, type SimReport } from '../run.js';
import type { ClusterPartitionResult } from './clusterPartition.js';

export interface MergeInput {
  stop: StopReason;
  cycles: number;
  /** Enqueue records of the image (all clusters). */
  records: number;
  apmCluster: number;
}

const clusterOf = (name: string): number => {
  const m = /^c(\d+)\./.exec(name);
  return m ? Number(m[1]) : -1;
};

function sum(parts: Array<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p)) out[k] = (out[k] ?? 0) + v;
  return sortedKeys(out);
}

function hostStats(parts: ClusterPartitionResult[], base: EngineReport, cycles: number): EngineReport {
  const progress = new Set<number>();
  let last = -1;
  let busyAtEnd = false;
  for (const p of parts) {
    for (const t of p.hostProgress) progress.add(t);
    if (p.hostProgress.length) last = Math.max(last, p.hostProgress[p.hostProgress.length - 1]!);
    if (p.hostBusyAtEnd) busyAtEnd = true;
  }
  const busy = progress.size;
  const held = busyAtEnd ? cycles : last + 1;
  const stall = Math.max(0, held - busy);
  return {
    ...base,
    busy,
    stall,
    idle: cycles - busy - stall,
    utilization: cycles > 0 ? busy / cycles : 0,
    occupancy: cycles > 0 ? Math.min(1, (busy + stall) / cycles) : 0,
    stall_reasons: stall > 0 ? { stalled: stall } : {},
  };
}

export function mergeClusterReports(parts: ClusterPartitionResult[], m: MergeInput): SimReport {
  const first = parts[0]!.report;
  // a cluster without work has no partition: it is idle and untouched in every partition, as in the single run
  const of = (c: number) => (parts.find((p) => p.cluster === c) ?? parts[0]!).report;
  const engineOrder = first.engines.map((e) => e.name);
  const engines = first.engines.map((e) => {
    const c = clusterOf(e.name);
    if (c >= 0) return of(c).engines.find((x) => x.name === e.name)!;
    if (e.name === 'host') return hostStats(parts, e, m.cycles);
    if (e.name === 'apm') return of(m.apmCluster).engines.find((x) => x.name === 'apm')!;
    return e;
  });
  // warnings, in buildReport's order (run.ts)
  const seg = parts.map((p) => {
    const w = p.report.warnings;
    const s = p.segments;
    let i = 0;
    const take = (n: number) => w.slice(i, (i += n));
    return { timeouts: take(s.timeouts), chip: take(s.chip), amem: take(s.amem), uie: take(s.uie) };
  });
  const chipW = new Map<string, Diagnostic>();
  for (const s of seg) for (const d of s.chip) if (!chipW.has(d.message)) chipW.set(d.message, d);
  const tripsByKind = sum(parts.map((p) => p.report.trips_by_kind));
  const hbmRead = parts.reduce((a, p) => a + p.report.memory.hbm_bytes_read, 0);
  const hbmUninit = parts.reduce((a, p) => a + p.report.memory.hbm_uninit_bytes_read, 0);
  const warnings: Diagnostic[] = [
    ...seg.flatMap((s) => s.timeouts),
    ...[...chipW.values()].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)),
    ...seg.flatMap((s) => s.amem),
    ...seg.flatMap((s) => s.uie),
    ...chipWarnings(m.records, Object.keys(tripsByKind).length, hbmUninit),
  ];
  return {
    ...first,
    stop: m.stop,
    cycles: m.cycles,
    kernel_steps: parts.reduce((a, p) => a + p.report.kernel_steps, 0),
    trips_by_kind: tripsByKind,
    trips_total: Object.values(tripsByKind).reduce((a, b) => a + b, 0),
    engines,
    ports: first.ports.map((p) => of(clusterOf(p.name) >= 0 ? clusterOf(p.name) : 0).ports.find((x) => x.name === p.name)!),
    barriers: first.barriers.map((b) => of(b.cluster).barriers[b.cluster]!),
    barrier_events: sum(parts.map((p) => p.report.barrier_events)),
    trip_flush: parts.flatMap((p) => p.report.trip_flush.filter((t) => t.cluster === p.cluster)),
    dpe: first.dpe.map((d) => of(d.cluster).dpe[d.cluster]!),
    mpe: { patches: parts.reduce((a, p) => a + p.report.mpe.patches, 0), trips: parts.reduce((a, p) => a + p.report.mpe.trips, 0) },
    apm: of(m.apmCluster).apm,
    trip_power: parts.flatMap((p) => p.report.trip_power.filter((t) => clusterOf(t.engine) === p.cluster)),
    memory: {
      hbm_bytes_read: hbmRead,
      hbm_bytes_written: parts.reduce((a, p) => a + p.report.memory.hbm_bytes_written, 0),
      hbm_uninit_bytes_read: hbmUninit,
      amem_uninit_reads: parts.reduce((a, p) => a + p.report.memory.amem_uninit_reads, 0),
      amem_view_conflicts: parts.reduce((a, p) => a + p.report.memory.amem_view_conflicts, 0),
      amem: first.memory.amem.map((a) => of(a.cluster).memory.amem[a.cluster]!),
    },
    wait_graph: m.stop === 'done' ? [] : waitGraph(parts, engineOrder),
    warnings,
  };
}

/** Busy engines' lines in registration order (one host line), then each cluster's barrier lines. */
function waitGraph(parts: ClusterPartitionResult[], order: string[]): string[] {
  const rank = new Map(order.map((n, i) => [n, i]));
  const engineLines: Array<[number, string]> = [];
  const explain: string[] = [];
  parts.forEach((p) => {
    const c = p.cluster;
    for (const l of p.report.wait_graph) {
      const name = l.slice(0, l.indexOf(': '));
      if (name === 'host') continue;
      const r = rank.get(name);
      if (r !== undefined && clusterOf(name) === c) engineLines.push([r, l]);
      else if (r === undefined) explain.push(l);
    }
  });
  const blocked = parts.map((p) => p.hostBlocked).filter((b): b is NonNullable<typeof b> => !!b);
  // HostAgent reports its first open (cluster, queue) group in record order, else its pending action
  const withRecord = blocked.filter((b) => b.record >= 0).sort((a, b) => a.record - b.record);
  const host = withRecord[0] ?? blocked[0];
  if (host) engineLines.push([rank.get('host') ?? -1, host.line]);
  engineLines.sort((a, b) => a[0] - b[0]);
  return [...engineLines.map((x) => x[1]), ...explain];
}
