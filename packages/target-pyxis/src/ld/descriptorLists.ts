/**
 * Descriptor lists (chip §11.5.1): the planned descriptors of each queue cut
 * into lists placed in memory and named by enqueue records. The descriptor
 * layouts are the grammars/pyxis/desc_*.json tables.
 */
import { loadTable, type CompiledTable } from '@pyxis/codec';
import { CHIP, type LinkContext } from './context.js';
import { queueByName, type QueueInfo } from './image.js';
import type { Placed, Region } from './placement.js';
import { defaultRegion } from './regions.js';
import type { TripGraph } from './tripGraph.js';

/** Default descriptors per list: bounded contiguous allocations, 4 lists (16K trips) in flight per ring. */
export const DEFAULT_LIST_DESCRIPTORS = 4096;

/** One descriptor list: `trips` are plan trip indices (plan barrier indices for the barrier-config queue). */
export interface ListDef {
  cluster: number;
  queue: QueueInfo;
  trips: number[];
  placed: Placed;
  part: number;
}

type DescTables = Record<'uie' | 'h2a' | 'a2h' | 'icdma' | 'mpe_patch' | 'mpe_dma' | 'barrier' | 'enqueue' | 'rdma_tx' | 'dgram_tx' | 'dgram_rx' | 'rdma_rx', CompiledTable>;
let tables: DescTables | undefined;

/** The descriptor tables by engine kind. */
export function descTables(): DescTables {
  return (tables ??= {
    uie: loadTable('pyxis', 'desc_uie'),
    h2a: loadTable('pyxis', 'desc_h2a'),
    a2h: loadTable('pyxis', 'desc_a2h'),
    icdma: loadTable('pyxis', 'desc_icdma'),
    mpe_patch: loadTable('pyxis', 'desc_mpe_patch'),
    mpe_dma: loadTable('pyxis', 'desc_mpe_dma'),
    barrier: loadTable('pyxis', 'desc_barrier_config'),
    enqueue: loadTable('pyxis', 'desc_enqueue_record'),
    rdma_tx: loadTable('pyxis', 'desc_rdma_tx'),
    dgram_tx: loadTable('pyxis', 'desc_dgram_tx'),
    dgram_rx: loadTable('pyxis', 'desc_dgram_rx'),
    rdma_rx: loadTable('pyxis', 'desc_rdma_rx'),
  });
}

/** Bytes of one descriptor of an engine kind (every DMA kind has the 32-byte common size of desc_h2a). */
export function descBytes(kind: string): number {
  const t = descTables();
  return kind === 'uie' ? t.uie.bytes : kind === 'barrier' ? t.barrier.bytes : kind === 'mpe' ? t.mpe_patch.bytes : t.h2a.bytes;
}

/** Largest descriptor_list_length of an enqueue record, in 8-byte units (16 bits, N-1 encoded: chip Table 11-2). */
function maxListUnits(): number {
  return Number(descTables().enqueue.byName.get('descriptor_list_length')!.max);
}

/**
 * Splits every queue's planned descriptors into lists of at most
 * `maxListDescriptors` (and what descriptor_list_length can address), barrier
 * config queues first, then queues by cluster and id; each list is a placement.
 */
export function planDescriptorLists(ctx: LinkContext, graph: TripGraph): ListDef[] {
  const { err } = ctx.r;
  const { plan } = graph;
  const { opts, placements, queues } = ctx;
  const lists: ListDef[] = [];
  const plannedByQueue = new Map<string, number[]>();
  plan.trips.forEach((pt, i) => {
    const k = `${pt.cluster}:${pt.queue}`;
    if (!plannedByQueue.has(k)) plannedByQueue.set(k, []);
    plannedByQueue.get(k)!.push(i);
  });
  // barrier-config queues: one per cluster with barriers
  const barriersByCluster = new Map<number, number[]>();
  plan.barriers.forEach((b, i) => {
    if (!barriersByCluster.has(b.cluster)) barriersByCluster.set(b.cluster, []);
    barriersByCluster.get(b.cluster)!.push(i);
  });
  const MAX_LIST_UNITS = maxListUnits();
  // Lists per queue are unbounded: the 4-entry ring (chip §11.5.1) limits lists in flight, and the
  // host enqueues the next list of a queue when a ring slot frees (docs/spec-notes.md).
  const listMax = Math.max(1, opts.maxListDescriptors ?? DEFAULT_LIST_DESCRIPTORS);
  const makeLists = (cluster: number, q: QueueInfo, items: number[], region: Region) => {
    const per = Math.min(listMax, Math.floor((MAX_LIST_UNITS * 8) / descBytes(q.kind)));
    const parts = Math.ceil(items.length / per);
    if (region.space === 'amem' && region.cluster !== cluster)
      err('LD0504', `descriptor lists of queue ${q.name} (cluster ${cluster}) cannot live in memory \`${region.name}\` of cluster ${region.cluster}: the DPE window reaches only its own cluster's AMEM`, region.span, { spec: `${CHIP} §12.7` });
    for (let p = 0; p < parts; p++) {
      const chunk = items.slice(p * per, (p + 1) * per);
      const name = `.desc.c${cluster}.q${q.id.toString(16).padStart(2, '0')}.${p}`;
      const placed: Placed = { name, what: 'descriptor list', region, size: chunk.length * descBytes(q.kind), align: 8, address: 0 };
      placements.push(placed);
      lists.push({ cluster, queue: q, trips: chunk, placed, part: p });
    }
  };
  for (const [c, bs] of [...barriersByCluster].sort((x, y) => x[0] - y[0])) makeLists(c, queueByName('barrier')!, bs, defaultRegion(ctx, c));
  const queueOrder = [...queues].sort((a, b) => a.cluster - b.cluster || a.q.id - b.q.id);
  for (const qd of queueOrder) {
    const items = plannedByQueue.get(`${qd.cluster}:${qd.q.id}`) ?? [];
    if (items.length) makeLists(qd.cluster, qd.q, items, qd.region ?? defaultRegion(ctx, qd.cluster));
  }
  return lists;
}
