/**
 * Trip descriptors (chip §11.4): the grammar table of each queue kind's descriptor (grammars/pyxis, docs/image-layout.md),
 * its size at rest, and the decoding of one descriptor into a Trip with the common header of §11.4.1. The DPE (dpe.ts)
 * decodes each descriptor it fetches; the host's enqueue checks and the parallel cluster plan size and read them too.
 */
import { alignUp } from '@pyxis/container';
import { decode, loadTable, readField, type CompiledTable } from '@pyxis/codec';
import { SimCodes, tripError, type MemLocation } from './diagnostics.js';
import type { QueueKind } from './queues.js';
import type { Trip } from './trip.js';
import { dbl } from '@pyxis/sim';

/** Descriptor table per queue kind (docs/image-layout.md); MPE chooses patch/dma by `mode`. */
const KIND_TABLE: Partial<Record<QueueKind, string>> = {
  uie: 'desc_uie',
  rdma_tx: 'desc_rdma_tx',
  rdma_rx: 'desc_rdma_rx',
  h2a: 'desc_h2a',
  a2h: 'desc_a2h',
  icdma: 'desc_icdma',
  mpe: 'desc_mpe_patch',
  barrier_config: 'desc_barrier_config',
};

export function descriptorTable(kind: QueueKind): CompiledTable | undefined {
  const n = KIND_TABLE[kind];
  return n ? loadTable('pyxis', n) : undefined;
}

/** Bytes of one descriptor at rest (table size rounded up to 8 bytes, §11.4). */
export function descriptorBytes(kind: QueueKind): number {
  const t = descriptorTable(kind);
  if (!t) return 0;
  const meta = t.meta?.['bytes'];
  return typeof meta === 'number' ? meta : alignUp(t.bytes, 8);
}

/** Decodes one descriptor of a queue into a Trip (common header per §11.4.1). */
export function decodeTrip(kind: QueueKind, cluster: number, qid: number, bytes: Uint8Array, address: number, now: number, source?: MemLocation): Trip {
  const where = { ...(source ? { source, sourceBytes: bytes.length } : {}) };
  let t = descriptorTable(kind)!;
  if (kind === 'mpe') {
    const mode = Number(readField(t, bytes, 'mode'));
    if (mode === 1) t = loadTable('pyxis', 'desc_mpe_dma');
    else if (mode !== 0)
      throw tripError(SimCodes.badDescriptor, `MPE descriptor at 0x${address.toString(16)} (cluster ${cluster}) has mode ${mode}; 0 = patch, 1 = DMA`, '§11.4.10', now, where);
  }
  const fields = decode(t, bytes);
  const fmt = Number(fields['descriptor_format'] ?? 0);
  if (fmt !== 0)
    throw tripError(SimCodes.badDescriptor, `descriptor at 0x${address.toString(16)} (cluster ${cluster}, queue 0x${qid.toString(16)}) has Descriptor Format ${fmt}; must be 2'b00`, '§11.4.1', now, where);
  const notify = (fields['notify_list'] as number[]).filter((x) => Number(x) !== 0).map(Number);
  return {
    cluster,
    qid,
    kind,
    fields,
    table: t.name,
    tripId: Number(fields['trip_id']),
    waitBarrierId: Number(fields['wait_barrier_id']),
    notifyList: notify,
    address,
    ...where,
    trip_power: Number(fields['trip_power'] ?? 0),
    fetchedAt: now,
    waitAt: -1,
    goAt: -1,
    startAt: -1,
    doneAt: dbl(-1),
  };
}
