/**
 * Whether the clusters of ONE chip can run as partitions (issue 22; docs/architecture.md "Parallel runs"), decided
 * statically from the linked image. The lookahead of a partitioned run is the smallest latency of the cross-partition
 * paths that carry messages; a path the image cannot use carries none. This module lists the paths the image CAN use
 * between clusters, from what the image holds before the run:
 *
 * - every descriptor list the host enqueues (the `.enqueue` records and host actions writing the enqueue CSR), read
 *   where the DPE reads it (its remap windows, the NoC map) and decoded with the descriptor tables (control.ts);
 * - per trip: barrier notifications to another cluster (`notify_list`, chip §11.6.4: link latency
 *   `trip_manager.notify_latency_cycles`), ICDMA (chip §12.3: commit report latency 1), MPE trips (NoC reads are
 *   synchronous, chip §12.6: not analysed), RDMA (a system's fabric);
 * - HBM: the ranges each cluster's H2A reads and A2H writes (chip §11.4.3/§11.4.4) and the descriptor lists it
 *   reads from HBM; a range written by one cluster and read or written by another couples them (HBM is one memory);
 * - host actions (the host performs them one after the other: actions of two clusters couple them);
 * - the APM (chip §13): RequestedPower is the sum over the chip and a throttle (AllowedUtilization < 1) slows every
 *   engine of the chip, so while APM is enabled the clusters split only if the trips of at most one cluster request
 *   power, and at most apm.min_granted_power in all (the sum over its engines of their largest TripPower): then
 *   GrantedPower never falls below RequestedPower and the APM never throttles.
 *
 * Every coupling path found is one whose lookahead is below `minUsefulLookahead` or that is not behind a timed link,
 * so the rule is: clusters split only when the image uses no cross-cluster path at all (the windows are then
 * unbounded); otherwise the run stays in one partition and `reason` names the first path found (trip, list,
 * cluster). Descriptors written at run time are covered by the run-time guard of clusterPartition.ts.
 */
import { remapEngineAddress, defaultWindows, type NocMap, type RemapWindow } from '../noc.js';
import { decode, loadTable } from '@pyxis/codec';
import { queueKind } from '../queues.js';
import { decodeTrip, descriptorBytes } from '../control.js';
import { CLUSTER_CSRS } from '../clusterCsr.js';
import { CFG_ENGINE_BASE } from '../cfgSpace.js';
import type { EnqueueRecord, HostAction } from '../chip.js';
import type { SimConfig } from '../config.js';

/** [start, end) byte ranges. */
export type Ranges = Array<[number, number]>;

export interface ClusterSplitPlan {
  ok: true;
  clusters: number;
  /** Per cluster: HBM ranges its trips read (H2A, descriptor lists) and write (A2H). */
  hbmReads: Ranges[];
  hbmWrites: Ranges[];
  /** The cluster whose trips request APM power (its partition carries the APM's figures), or 0. */
  apmCluster: number;
}

export type ClusterSplit = ClusterSplitPlan | { ok: false; reason: string };

export interface ClusterPlanInput {
  clusters: number;
  records: readonly EnqueueRecord[];
  hostActions: readonly HostAction[];
  remap?: Array<{ dpe: RemapWindow[]; mpe: RemapWindow[] }>;
  config: SimConfig;
  /** The NoC view of the loaded image (a chip with the image loaded and not run). */
  noc: NocMap;
}

const hex = (n: number) => `0x${n.toString(16)}`;

function overlaps(a: Ranges, b: Ranges): [number, number] | undefined {
  for (const x of a) for (const y of b) if (x[0] < y[1] && y[0] < x[1]) return [Math.max(x[0], y[0]), Math.min(x[1], y[1])];
  return undefined;
}

/** The enqueue record a host action writes, when it writes the enqueue CSR (chip §11.5.1.1). */
function actionEnqueue(a: HostAction): EnqueueRecord | undefined {
  if (a.address - CFG_ENGINE_BASE !== CLUSTER_CSRS.enqueue.offset) return undefined;
  const word = new Uint8Array(8);
  new DataView(word.buffer).setBigUint64(0, a.value, true);
  const v = decode(loadTable('pyxis', CLUSTER_CSRS.enqueue.table), word);
  return { cluster: a.cluster, queue_id: Number(v['queue_id']), descriptor_list_address: Number(v['descriptor_list_address']), descriptor_list_length: Number(v['descriptor_list_length']) };
}

/**
 * Where the lists the host enqueues lie (the enqueue records and host actions writing the enqueue CSR), as the DPE
 * reads them: what a chip must hold of the image for `planClusterSplit` (undefined targets are reported by it).
 */
export function listTargets(inp: Omit<ClusterPlanInput, 'config'>): Array<{ space: 'hbm' | 'amem' | 'cfg'; cluster: number; addr: number; len: number }> {
  const out: Array<{ space: 'hbm' | 'amem' | 'cfg'; cluster: number; addr: number; len: number }> = [];
  for (const r of [...inp.records, ...inp.hostActions.flatMap((a) => actionEnqueue(a) ?? [])]) {
    const len = r.descriptor_list_length * 8;
    const t = r.cluster < inp.clusters ? inp.noc.resolve(remapEngineAddress(r.descriptor_list_address, inp.remap?.[r.cluster]?.dpe ?? defaultWindows(r.cluster)), len) : undefined;
    if (t) out.push({ space: t.space, cluster: t.cluster, addr: t.addr, len });
  }
  return out;
}

export function planClusterSplit(inp: ClusterPlanInput): ClusterSplit {
  const n = inp.clusters;
  if (n < 2) return { ok: false, reason: 'one cluster' };
  const no = (reason: string): ClusterSplit => ({ ok: false, reason });
  const hbmReads: Ranges[] = Array.from({ length: n }, () => []);
  const hbmWrites: Ranges[] = Array.from({ length: n }, () => []);
  const powered = new Map<number, string>();
  /** Per (cluster, queue): the largest TripPower of its trips (an engine reports one trip's power at a time, §13). */
  const power = new Map<number, number>();
  // host actions: performed in order by one host agent (chip.ts HostAgent)
  const actionClusters = [...new Set(inp.hostActions.map((a) => a.cluster))].sort((a, b) => a - b);
  if (actionClusters.length > 1) return no(`host actions touch clusters ${actionClusters.join(', ')} (the host performs them one after the other)`);
  const records: EnqueueRecord[] = [...inp.records];
  for (const a of inp.hostActions) {
    const r = actionEnqueue(a);
    if (r) records.push(r);
  }
  for (const r of records) {
    const c = r.cluster;
    if (c >= n) return no(`an enqueue record names cluster ${c}`);
    const qk = queueKind(r.queue_id);
    if (!qk) return no(`an enqueue record names queue ${hex(r.queue_id)}`);
    const where = `list ${hex(r.descriptor_list_address)} of queue ${hex(r.queue_id)} in cluster ${c}`;
    if (qk.kind === 'icdma' || qk.kind === 'mpe' || qk.kind === 'rdma_tx' || qk.kind === 'rdma_rx') {
      const why = qk.kind === 'icdma'
        ? 'ICDMA writes another cluster; its commit report returns after 1 cycle (chip §12.3), below a useful lookahead'
        : qk.kind === 'mpe'
          ? 'MPE trips read and write through the NoC synchronously (chip §12.6), not behind a timed link'
          : 'RDMA trips use the fabric adapter of the chip';
      return no(`${where} holds ${qk.kind} trips: ${why}`);
    }
    const len = r.descriptor_list_length * 8;
    const windows = inp.remap?.[c]?.dpe ?? defaultWindows(c);
    const t = inp.noc.resolve(remapEngineAddress(r.descriptor_list_address, windows), len);
    if (!t) return no(`${where} is not in a modelled memory`);
    if (t.space === 'hbm') hbmReads[c]!.push([t.addr, t.addr + len]);
    else if (t.cluster !== c) return no(`${where} is read by the DPE from cluster ${t.cluster}'s ${t.space} (a synchronous NoC read, chip §12.5)`);
    const bytes = inp.noc.read(t, len);
    const size = descriptorBytes(qk.kind);
    if (size <= 0) return no(`${where}: queue kind ${qk.kind} has no descriptor table`);
    for (let o = 0; o + size <= bytes.length; o += size) {
      let trip;
      try {
        trip = decodeTrip(qk.kind, c, r.queue_id, bytes.subarray(o, o + size), r.descriptor_list_address + o, 0);
      } catch {
        return no(`${where}: descriptor ${o / size} does not decode (the single-partition run reports it)`);
      }
      const name = `trip ${trip.tripId} (${qk.kind}, cluster ${c})`;
      for (const g of trip.notifyList) {
        const d = g >> 10;
        if (d !== c)
          return no(`${name} notifies barrier ${d}:${g & 1023} of cluster ${d}: the barrier link's latency (trip_manager.notify_latency_cycles = ${inp.config.trip_manager.notify_latency_cycles}) is below a useful lookahead`);
      }
      if (inp.config.apm.enabled && trip.trip_power > 0) {
        if (!powered.has(c)) powered.set(c, name);
        const q = c * 64 + r.queue_id;
        power.set(q, Math.max(power.get(q) ?? 0, trip.trip_power));
      }
      if (qk.kind === 'h2a' || qk.kind === 'a2h') {
        const h = Number(trip.fields['hbm_base_address']) * 1024;
        const span: [number, number] = [h, h + Number(trip.fields['length']) * 1024];
        (qk.kind === 'h2a' ? hbmReads : hbmWrites)[c]!.push(span);
      }
    }
  }
  if (powered.size > 1) {
    const [a, b] = [...powered.values()];
    return no(`APM is enabled and ${a} and ${b} request power: RequestedPower is the chip's sum (chip §13); run with --set apm.enabled=false or TripPower 0 to split`);
  }
  // AllowedUtilization < 1 throttles every engine of the chip (apm.ts allow()): it can only if RequestedPower can pass
  // GrantedPower, which never falls below min_granted_power
  const bound = [...power.values()].reduce((x, y) => x + y, 0);
  if (bound > inp.config.apm.min_granted_power)
    return no(`APM is enabled and ${[...powered.values()][0]} with the other trips of its cluster can request ${bound} > apm.min_granted_power = ${inp.config.apm.min_granted_power}: a throttle slows every cluster (chip §13); run with --set apm.enabled=false to split`);
  for (let c = 0; c < n; c++)
    for (let d = 0; d < n; d++) {
      if (c === d) continue;
      const w = overlaps(hbmWrites[c]!, [...hbmReads[d]!, ...(d > c ? hbmWrites[d]! : [])]);
      if (w) return no(`HBM ${hex(w[0])}..${hex(w[1])} is written by cluster ${c} and used by cluster ${d} (HBM is one memory)`);
    }
  return { ok: true, clusters: n, hbmReads, hbmWrites, apmCluster: powered.size ? [...powered.keys()][0]! : 0 };
}
