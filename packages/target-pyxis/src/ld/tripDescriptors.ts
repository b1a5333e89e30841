/**
 * Descriptor encoding (chip §11.4, §11.5): trip ids, every trip's descriptor
 * through its grammars/pyxis/desc_*.json table, barrier-config descriptors,
 * datagram rings (chip §11.5.2) and the enqueue records (chip §11.5.1.1).
 * Field values are never masked: a value a field cannot hold is a codec range
 * error reported as LD0506, not a wrapped field.
 */
import type { SourceSpan } from '@pyxis/diagnostics';
import { encode, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { PyxisSectionFlags } from '../flags.js';
import { amemPartitionAddress, amemWordAddress, engineAddress } from './addresses.js';
import { CHIP, type LinkContext } from './context.js';
import { descBytes, descTables as tables, type ListDef } from './descriptorLists.js';
import type { ImageBuilder } from './emit.js';
import { queueByName, queueName } from './image.js';
import type { MicrocodeLayout } from './overlays.js';
import type { Placed } from './placement.js';
import type { TripGraph } from './tripGraph.js';
import { viewAddress, viewPlaced } from './slices.js';

/** Sequencer ids by name (the bit of trip_valid_mask and the start_pc slot), when any UIE trip exists. */
export function sequencerIds(ctx: LinkContext, mc: MicrocodeLayout): Map<string, number> {
  return new Map<string, number>(mc.hasUie ? ctx.memoryMap().sequencers.map((s) => [s.name, s.id] as [string, number]) : []);
}

export interface EncodedDescriptors {
  /** The `.enqueue` section: one enqueue record per descriptor list, in list order. */
  enq: Uint8Array;
  /** Per list (then per datagram ring): the map's `lists` rows. */
  listMeta: Array<Record<string, unknown>>;
  /** Trip_id of each plan trip. */
  tripIds: number[];
}

/** Encodes `values` through `table` at `out[off]`; a value its field cannot hold is LD0506 (never a wrapped field). */
function encodeOrReport(ctx: LinkContext, table: CompiledTable, values: FieldValues, out: Uint8Array, off: number, what: string, span: SourceSpan | undefined): void {
  try {
    encode(table, values, out, off);
  } catch (e) {
    ctx.r.err('LD0506', `${what}: cannot encode its ${table.name} descriptor: ${(e as Error).message}`, span, { spec: `${CHIP} §11.4` });
  }
}

/** Encodes every descriptor list and datagram ring into sections of `out`. */
export function encodeDescriptors(ctx: LinkContext, graph: TripGraph, mc: MicrocodeLayout, lists: readonly ListDef[], out: ImageBuilder): EncodedDescriptors {
  const { err } = ctx.r;
  const { bag, dgramRings } = ctx;
  const { plan, orderedTrips } = graph;
  const { startPc } = mc;
  const { addSection, symbols } = out;
  const descTables = tables();
  const engineAddr = (p: Placed) => engineAddress(ctx, p);
  let tripId = 0;
  const tripIds = new Array<number>(plan.trips.length);
  plan.trips.forEach((_, i) => (tripIds[i] = ++tripId));
  const barrierTripIds = plan.barriers.map(() => ++tripId);
  if (tripId > Number(descTables.uie.byName.get('trip_id')!.max)) err('LD0505', `${tripId} trips exceed the ${descTables.uie.byName.get('trip_id')!.width}-bit Trip_id`, undefined, { spec: `${CHIP} §11.4.1` });
  const header = (i: number): FieldValues => {
    const pt = plan.trips[i]!;
    const nl = [...pt.notify];
    while (nl.length < 8) nl.push(0);
    return { wait_barrier_id: pt.wait, notify_list: nl, trip_id: tripIds[i]! };
  };
  const seqIds = sequencerIds(ctx, mc);
  const startPcSlots = Number(descTables.uie.byName.get('start_pc')!.count ?? 0);
  const encodeTrip = (i: number, out: Uint8Array, off: number) => {
    const pt = plan.trips[i]!;
    const q = queueByName(queueName(pt.queue))!;
    const t = pt.origin >= 0 ? orderedTrips[pt.origin]! : undefined;
    const h = header(i);
    const enc = (tab: CompiledTable, v: FieldValues) => {
      try {
        encode(tab, v, out, off);
      } catch (e) {
        err('LD0506', `trip \`${pt.name}\`: cannot encode its ${tab.name} descriptor: ${(e as Error).message}`, t?.span, { spec: `${CHIP} §11.4` });
      }
    };
    if (q.kind === 'uie') {
      const v: FieldValues = { ...h };
      if (t) {
        let mask = 0;
        const pcs = new Array<number>(startPcSlots).fill(0);
        const sp = startPc.get(t);
        for (const [seq] of t.programs) {
          const id = seqIds.get(seq)!;
          mask |= 1 << id;
          pcs[id] = sp?.get(seq) ?? 0;
        }
        v['trip_valid_mask'] = mask;
        v['start_pc'] = pcs;
        for (const [port, field] of [['read', 'amem_read'], ['write', 'amem_write'], ['weights', 'amem_weights']] as const) {
          const x = t.tensors.get(port);
          if (!x) continue;
          v[`${field}_base_address`] = amemPartitionAddress({ address: viewAddress(x) });
          v[`${field}_bank_hash_dsbl`] = x.t.placed.region.unhashed ? 1 : 0;
        }
        const ri = t.nums.get('read_indirect');
        if (ri) {
          v['amem_read_indirect_vld'] = 1;
          v['amem_read_indirect_cmd_index'] = ri.v;
        }
        const wi = t.nums.get('write_indirect');
        if (wi) {
          v['amem_write_indirect_vld'] = 1;
          v['amem_write_indirect_cmd_index'] = wi.v;
        }
        v['trip_power'] = t.nums.get('trip_power')?.v ?? 0;
      }
      enc(descTables.uie, v);
    } else if (q.kind === 'h2a' || q.kind === 'a2h') {
      const src = viewPlaced(t!.tensors.get('src')!);
      const dst = viewPlaced(t!.tensors.get('dst')!);
      const [am, hb] = q.kind === 'h2a' ? [dst, src] : [src, dst];
      enc(q.kind === 'h2a' ? descTables.h2a : descTables.a2h, { ...h, amem_start_address: amemWordAddress(am), hbm_base_address: Math.floor(hb.address / 1024), length: t!.nums.get('length')!.v / 1024, trip_power: t!.nums.get('trip_power')?.v ?? 0 });
    } else if (q.kind === 'icdma') {
      const src = viewPlaced(t!.tensors.get('src')!);
      const dst = viewPlaced(t!.tensors.get('dst')!);
      enc(descTables.icdma, { ...h, amem_source_start_address: amemWordAddress(src), amem_dest_start_address: amemWordAddress(dst), length: t!.nums.get('length')!.v / 128, core_switch_plane_mask: t!.nums.get('plane_mask')?.v ?? 15, trip_power: t!.nums.get('trip_power')?.v ?? 0 });
    } else if (q.kind === 'rdma_tx' || q.kind === 'rdma_rx') {
      const x = t!.tensors.get(q.kind === 'rdma_tx' ? 'src' : 'dst')!.t.placed;
      const v: FieldValues = { ...h, tjid: t!.nums.get('tjid')?.v ?? 0, rjid: t!.nums.get('rjid')?.v ?? 0, amem_address: amemWordAddress(x), num_words: x.size / 128 };
      if (q.kind === 'rdma_tx') {
        v['dest_voq'] = t!.nums.get('dest_voq')?.v ?? 0;
        v['page_size_words'] = t!.nums.get('page_size_words')?.v ?? 125;
        enc(descTables.rdma_tx, v);
      } else {
        v['msg_voq'] = t!.nums.get('msg_voq')?.v ?? 0;
        enc(descTables.rdma_rx, v);
      }
    } else if (q.kind === 'mpe') {
      if (t!.blob) {
        const b = t!.blob;
        enc(descTables.mpe_patch, { ...h, blob_address: engineAddr(b.placed), blob_length: Math.ceil(b.bytes.length / 8), num_patches: b.patches });
      } else {
        const src = viewPlaced(t!.tensors.get('src')!);
        const dst = viewPlaced(t!.tensors.get('dst')!);
        enc(descTables.mpe_dma, { ...h, source_address: engineAddr(src), target_address: engineAddr(dst), length: t!.nums.get('length')!.v / 8 });
      }
    }
  };
  const enqueue: number[][] = [];
  const listMeta: Array<Record<string, unknown>> = [];
  for (const l of lists) {
    const bytes = new Uint8Array(l.placed.size);
    const db = descBytes(l.queue.kind);
    l.trips.forEach((idx, k) => {
      if (l.queue.kind === 'barrier') {
        const b = plan.barriers[idx]!;
        encodeOrReport(ctx, descTables.barrier, { wait_barrier_id: b.config_wait, notify_list: [0, 0, 0, 0, 0, 0, 0, 0], trip_id: barrierTripIds[idx]!, barrier_id: b.id, notify_count: b.notify_count, wait_count: b.wait_count }, bytes, k * db, `barrier ${b.id} of cluster ${b.cluster}`, undefined);
      } else encodeTrip(idx, bytes, k * db);
    });
    const si = addSection({
      name: l.placed.name, kind: 'descriptors', space: l.placed.region.space, address: l.placed.address, size: bytes.length, align: 8,
      flags: l.placed.region.unhashed ? PyxisSectionFlags.unhashed : 0, data: bytes, cluster: l.placed.region.space === 'amem' ? l.placed.region.cluster : -1,
    });
    symbols.push({ name: l.placed.name, kind: 'queue', section: si, offset: 0, size: bytes.length, global: true });
    const ea = engineAddr(l.placed);
    enqueue.push([l.cluster, l.queue.id, ea, bytes.length / 8]);
    listMeta.push({ cluster: l.cluster, queue_id: l.queue.id, engine: l.queue.name, section: l.placed.name, space: l.placed.region.space, address: l.placed.address, engine_address: ea, descriptors: l.trips.length, bytes: bytes.length });
  }
  // datagram rings (chip §11.5.2): no enqueue record; software owns the head/tail pointers
  for (const r of dgramRings) {
    if (!r.placed) continue;
    const bytes = new Uint8Array(r.placed.size);
    r.entries.forEach((e, k) => {
      const x = e.t.placed;
      const spec = `${CHIP} §11.4.${r.tx ? 8 : 9}`;
      if (x.region.space !== 'amem' || x.region.cluster !== r.cluster) {
        err('LD0501', `datagram \`${e.name}\`: tensor \`${e.t.name}\` must be in the AMEM of cluster ${r.cluster}`, e.tSpan, { spec });
        return;
      }
      if (x.address % 128) {
        err('LD0502', `datagram \`${e.name}\`: tensor \`${e.t.name}\` at 0x${x.address.toString(16)} is not 128-byte aligned (AMEM address [26:7])`, e.tSpan, { spec });
        return;
      }
      const n = e.bytes ?? x.size;
      if (n > 16256 || n > x.size) {
        err('LD0509', `datagram \`${e.name}\`: ${n} bytes ${n > x.size ? `exceed tensor \`${e.t.name}\` (${x.size} bytes)` : 'exceed the 16256-byte maximum'}`, e.bytesSpan ?? e.tSpan, { spec });
        return;
      }
      if (r.tx) encodeOrReport(ctx, descTables.dgram_tx, { dest_voq: e.voq, amem_address: amemWordAddress(x), num_bytes: n, rxq_index: e.rxq }, bytes, k * descTables.dgram_tx.bytes, `datagram \`${e.name}\``, e.span);
      else encodeOrReport(ctx, descTables.dgram_rx, { amem_address: amemWordAddress(x), buffer_size_bytes: n }, bytes, k * descTables.dgram_rx.bytes, `datagram \`${e.name}\``, e.span);
    });
    const p = r.placed;
    const si = addSection({ name: p.name, kind: 'descriptors', space: p.region.space, address: p.address, size: bytes.length, align: 8, flags: p.region.unhashed ? PyxisSectionFlags.unhashed : 0, data: bytes, cluster: p.region.space === 'amem' ? r.cluster : -1 });
    symbols.push({ name: p.name, kind: 'queue', section: si, offset: 0, size: bytes.length, global: true });
    listMeta.push({ cluster: r.cluster, queue_id: r.id, engine: r.name, section: p.name, space: p.region.space, address: p.address, engine_address: engineAddr(p), descriptors: r.entries.length, bytes: bytes.length });
  }
  bag.throwIfErrors();
  const et = descTables.enqueue;
  const enq = new Uint8Array(enqueue.length * et.bytes);
  enqueue.forEach(([cluster, qid, addr, units], i) => encodeOrReport(ctx, et, { cluster: cluster!, queue_id: qid!, descriptor_list_address: addr!, descriptor_list_length: units! }, enq, i * et.bytes, `the enqueue record of list ${lists[i]?.placed.name ?? i}`, undefined));
  bag.throwIfErrors();
  return { enq, listMeta, tripIds };
}
