/**
 * `queue` statements and their `trip`s (chip Table 11-1, §11.4), datagram
 * rings (chip §11.5.2), `after` statements; DMA endpoint checks and padding.
 */
import { didYouMean, type SourceSpan } from '@pyxis/diagnostics';
import { alignUp } from '@pyxis/container';
import { clusterCount, queueGroup } from '../common/nocMap.js';
import { checkIntegerTensors, checkSizeRules } from './checks.js';
import { descTables } from './descriptorLists.js';
import { CHIP, tensorNames, tensorOrDb, type DgramRing, type LinkContext, type QueueDef } from './context.js';
import { QUEUE_NAMES, icdmaDestination, queueByName } from './image.js';
import type { TensorDef, TripDef } from './linkTypes.js';
import { defaultRegion, regionRef } from './regions.js';
import { checkDmaView, checkUieView, resolveSlice, viewSize } from './slices.js';

/** Grid operations a UIE trip may declare with `op` (seq §1 size rules, checks.ts). */
const UIE_OPS = ['conv3x3_s1', 'conv3x3_s2', 'conv1x1', 'matmul', 'copy'];

export function declareQueues(ctx: LinkContext): void {
  const { err, attrsOf, num, ident, named } = ctx.r;
  const { bag, queues, trips, tripByName, dgramRings, placements, programs, blobs, memoryMap } = ctx;
  const uieSeqNames = (): string[] => memoryMap().sequencers.map((s) => s.name);
  const UIE_ATTRS_BASE = ['read', 'write', 'weights', 'read_indirect', 'write_indirect', 'trip_power', 'rmw_source', 'after', 'op'];
  const DMA_ATTRS = ['src', 'dst', 'length', 'trip_power', 'after', 'plane_mask'];
  const MPE_ATTRS = ['blob', 'src', 'dst', 'length', 'after'];
  const RDMA_TX_ATTRS = ['src', 'tjid', 'rjid', 'dest_voq', 'page_size_words', 'after'];
  const RDMA_RX_ATTRS = ['dst', 'tjid', 'rjid', 'msg_voq', 'after'];
  const seenQueue = new Map<string, SourceSpan>();
  const itfeCommands = (region: string) => {
    const r = memoryMap().regions.get(region);
    if (!r) throw new Error(`grammars/pyxis/memory_map.json has no region \`${region}\``);
    return r.words;
  };
  for (const qb of ctx.blocks('queue')) {
    const qname = named(qb, '`queue`');
    if (!qname) continue;
    const a = attrsOf(qb, ['cluster', 'region'], `queue \`${qname}\``);
    const cluster = num(a.get('cluster')?.value, '`cluster`', 0, clusterCount() - 1) ?? 0;
    // `icdma_to<D>`: the ICDMA queue of this cluster whose destination is cluster D (chip Table 11-1)
    const dg = /^dgram_(tx|rx)(\d)$/.exec(qname);
    const dgGroup = dg ? queueGroup(`dgram_${dg[1]}`) : undefined;
    if (dg && dgGroup && +dg[2]! < dgGroup.count) {
      // Datagram rings (chip §11.5.2): descriptors without the common header, ring pointers
      // managed by software; the linker builds and places the ring, no enqueue record, no barriers.
      const tx = dg[1] === 'tx';
      const id = dgGroup.first + +dg[2]!;
      const key = `${cluster}:${id}`;
      if (seenQueue.has(key)) err('LD0121', `queue \`${qname}\` of cluster ${cluster} is declared twice`, qb.nameSpan, { secondary: [{ span: seenQueue.get(key)!, label: 'first declared here' }] });
      seenQueue.set(key, qb.nameSpan!);
      const region = a.has('region') ? regionRef(ctx, a.get('region')!.value, '`region`') : defaultRegion(ctx, cluster);
      const ring: DgramRing = { name: qname, id, tx, cluster, span: qb.nameSpan!, entries: [] };
      for (const db of qb.children) {
        if (db.kind !== 'datagram') {
          err('LD0123', `expected \`datagram\` inside datagram queue \`${qname}\`, found \`${db.kind}\``, db.kindSpan, { spec: `${CHIP} §11.5.2` });
          continue;
        }
        const dname = named(db, '`datagram`');
        if (!dname) continue;
        const key2 = tx ? 'src' : 'dst';
        const da = attrsOf(db, tx ? ['src', 'dest_voq', 'rxq_index', 'bytes'] : ['dst', 'bytes'], `datagram \`${dname}\``);
        const v = da.get(key2)?.value;
        if (!v) {
          err('LD0132', `datagram \`${dname}\` needs \`${key2}\``, db.nameSpan, { spec: `${CHIP} §11.4.${tx ? 8 : 9}` });
          continue;
        }
        const n = ident(v, `\`${key2}\``);
        const t = n === undefined ? undefined : tensorOrDb(ctx, n);
        if (n !== undefined && !t) err('LD0126', `no tensor or weight database \`${n}\``, v.span, { notes: didYouMean(n, tensorNames(ctx)) });
        const bytesV = da.get('bytes')?.value;
        const bytes = num(bytesV, '`bytes`', 1, 16256);
        const voq = tx ? num(da.get('dest_voq')?.value, '`dest_voq`', 0, 8191) ?? 0 : 0;
        const rxq = tx ? num(da.get('rxq_index')?.value, '`rxq_index`', 0, 1) ?? 0 : 0;
        if (t && t.placed.fixed === undefined) t.placed.align = Math.max(t.placed.align, 128); // AMEM address [26:7]
        if (t) ring.entries.push({ name: dname, span: db.nameSpan!, t, tSpan: v.span, voq, rxq, ...(bytes !== undefined ? { bytes, bytesSpan: bytesV!.span } : {}) });
      }
      if (region && region.space === 'amem' && region.cluster !== cluster) {
        err('LD0504', `datagram ring ${qname} (cluster ${cluster}) cannot live in memory \`${region.name}\` of cluster ${region.cluster}: the DPE window reaches only its own cluster's AMEM (and HBM)`, a.get('region')?.value.span ?? qb.nameSpan, { spec: `${CHIP} §11.5.2, §12.7` });
        continue;
      }
      if (region && ring.entries.length) {
        // a ring of N descriptors holds N-1 entries (§11.5.2.1): one spare slot
        ring.placed = { name: `.dgram.c${cluster}.${qname}`, what: 'datagram ring', region, size: (ring.entries.length + 1) * descTables()[tx ? 'dgram_tx' : 'dgram_rx'].bytes, align: 8, address: 0, span: qb.nameSpan! };
        placements.push(ring.placed);
      }
      dgramRings.push(ring);
      continue;
    }
    const to = /^icdma_to(\d)$/.exec(qname);
    let q = queueByName(qname);
    if (to) {
      const idx = [0, 1, 2].find((i) => icdmaDestination(cluster, i) === +to[1]!);
      if (idx === undefined) {
        err('LD0120', `cluster ${cluster} has no ICDMA queue to cluster ${to[1]} (chip Table 11-1)`, qb.nameSpan, { spec: `${CHIP} §11.5, §12.2` });
        continue;
      }
      q = { ...queueByName(`icdma${idx}`)!, name: qname };
    }
    if (!q) {
      err('LD0120', `unknown queue \`${qname}\` (chip Table 11-1)`, qb.nameSpan, { notes: didYouMean(qname, [...QUEUE_NAMES, ...Array.from({ length: clusterCount() }, (_, c) => `icdma_to${c}`), 'barrier']), spec: `${CHIP} §11.5` });
      continue;
    }
    const key = `${cluster}:${q.id}`;
    if (seenQueue.has(key)) err('LD0121', `queue \`${qname}\` of cluster ${cluster} is declared twice`, qb.nameSpan, { secondary: [{ span: seenQueue.get(key)!, label: 'first declared here' }] });
    seenQueue.set(key, qb.nameSpan!);
    if (q.kind === 'barrier') err('LD0122', 'the barrier-config queue is filled by the linker from the `after` dependencies; it cannot be declared', qb.nameSpan, { spec: `${CHIP} §11.4.11` });
    const region = a.has('region') ? regionRef(ctx, a.get('region')!.value, '`region`') : defaultRegion(ctx, cluster);
    const qd: QueueDef = { q, cluster, span: qb.nameSpan!, trips: [], ...(region ? { region } : {}) };
    queues.push(qd);
    for (const tb of qb.children) {
      if (tb.kind !== 'trip') {
        err('LD0123', `expected \`trip\` inside a queue, found \`${tb.kind}\``, tb.kindSpan);
        continue;
      }
      const tname = named(tb, '`trip`');
      if (!tname) continue;
      const allowed = q.kind === 'uie' ? [...uieSeqNames(), ...UIE_ATTRS_BASE] : q.kind === 'mpe' ? MPE_ATTRS : q.kind === 'rdma_tx' ? RDMA_TX_ATTRS : q.kind === 'rdma_rx' ? RDMA_RX_ATTRS : DMA_ATTRS;
      const ta = attrsOf(tb, allowed, `${q.kind} trip \`${tname}\``);
      const trip: TripDef = { name: tname, span: tb.nameSpan!, queue: q, cluster, block: tb, afters: [], programs: new Map(), tensors: new Map(), nums: new Map() };
      if (tripByName.has(tname)) err('LD0125', `trip \`${tname}\` is declared twice`, tb.nameSpan, { secondary: [{ span: tripByName.get(tname)!.span, label: 'first declared here' }] });
      tripByName.set(tname, trip);
      const tensorRef = (key: string) => {
        const v = ta.get(key)?.value;
        const n = ident(v && v.kind === 'ident' ? { ...v, slice: undefined } : v, `\`${key}\``);
        if (n === undefined) return;
        const t = tensorOrDb(ctx, n);
        if (!t) err('LD0126', `no tensor or weight database \`${n}\``, v!.span, { notes: didYouMean(n, tensorNames(ctx)) });
        else {
          const sl = v!.kind === 'ident' ? v!.slice : undefined;
          if (sl && (q.kind === 'rdma_tx' || q.kind === 'rdma_rx')) err('LD0136', `${q.kind} trip \`${tname}\`: an RDMA buffer cannot be a slice (its length is the whole tensor)`, sl.span, { spec: `${CHIP} §11.4.6, §11.4.7` });
          const view = sl ? resolveSlice(ctx.r, t, sl) : undefined;
          if (view && q.kind === 'uie') checkUieView(ctx.r, t, view);
          else if (view) checkDmaView(ctx.r, t, view, q.kind);
          trip.tensors.set(key, { t, span: v!.span, ...(view ? { view } : {}) });
        }
      };
      const numAttr = (key: string, min: number, max: number) => {
        const v = ta.get(key)?.value;
        const n = num(v, `\`${key}\``, min, max);
        if (n !== undefined) trip.nums.set(key, { v: n, span: v!.span });
      };
      const av = ta.get('after')?.value;
      if (av) {
        const items = av.kind === 'list' ? av.items : [av];
        for (const it of items) {
          const n = ident(it, '`after`');
          if (n !== undefined) trip.afters.push({ name: n, span: it.span });
        }
      }
      if (q.kind === 'uie') {
        for (const s of uieSeqNames()) {
          const v = ta.get(s)?.value;
          const n = ident(v, `\`${s}\``);
          if (n === undefined) continue;
          const p = programs.get(n);
          if (!p) err('LD0127', `no program \`${n}\` in the input objects`, v!.span, { notes: didYouMean(n, programs.keys()) });
          else if (p.seq !== s) err('LD0128', `program \`${n}\` is ${p.seq} microcode (from ${p.file}); it cannot run on the ${s} sequencer`, v!.span);
          else trip.programs.set(s, { prog: p, span: v!.span });
        }
        for (const k of ['read', 'write', 'weights', 'rmw_source']) {
          tensorRef(k);
          const x = trip.tensors.get(k);
          if (x && (x.t.placed.region.space !== 'amem' || x.t.placed.region.cluster !== cluster))
            err('LD0508', `UIE trip \`${tname}\`: \`${k}\` tensor \`${x.t.name}\` is in ${x.t.placed.region.space === 'hbm' ? 'HBM' : `the AMEM of cluster ${x.t.placed.region.cluster}`}; a UIE reads and writes its own cluster's AMEM (cluster ${cluster})`, x.span, { spec: `${CHIP} §11.4.2` });
        }
        // one of the ITFE command registers (memory_map.json itfe_read.cmd / itfe_write.cmd, seq §8.1)
        numAttr('read_indirect', 0, itfeCommands('itfe_read.cmd') - 1);
        numAttr('write_indirect', 0, itfeCommands('itfe_write.cmd') - 1);
        numAttr('trip_power', 0, 127);
        const opV = ta.get('op')?.value;
        const opName = ident(opV, '`op`');
        if (opName !== undefined) {
          if (!UIE_OPS.includes(opName)) err('LD0134', `unknown UIE operation \`${opName}\``, opV!.span, { notes: didYouMean(opName, UIE_OPS).concat([`note: one of ${UIE_OPS.join(', ')}`]) });
          else trip.op = { name: opName, span: opV!.span };
        }
        for (const [k, seqName] of [['read_indirect', 'amem_read'], ['write_indirect', 'amem_write']] as const)
          if (trip.nums.has(k) && !trip.programs.has(seqName))
            err('LD0129', `\`${k}\` enables an ITFE but the trip has no ${seqName} program`, trip.nums.get(k)!.span, { spec: `${CHIP} §11.4.2` });
      } else if (q.kind === 'rdma_tx' || q.kind === 'rdma_rx') {
        // chip §11.4.6 / §11.4.7: the AMEM buffer is in the queue's own cluster, 128-byte words
        const key = q.kind === 'rdma_tx' ? 'src' : 'dst';
        tensorRef(key);
        const x = trip.tensors.get(key);
        if (!ta.has(key)) err('LD0132', `${q.kind} trip \`${tname}\` needs \`${key}\``, tb.nameSpan, { spec: `${CHIP} §11.4.6, §11.4.7` });
        else if (x && (x.t.placed.region.space !== 'amem' || x.t.placed.region.cluster !== cluster))
          err('LD0501', `${q.kind} trip \`${tname}\`: tensor \`${x.t.name}\` must be in the AMEM of cluster ${cluster}`, x.span, { spec: `${CHIP} §11.4.6, §11.4.7` });
        else if (x) {
          x.t.placed.align = Math.max(x.t.placed.align, 128);
          x.t.placed.size = alignUp(x.t.placed.size, 128);
          if (x.t.placed.size / 128 > 65536) err('LD0509', `${q.kind} trip \`${tname}\`: ${x.t.placed.size} bytes exceed 2^16 words of 128 bytes`, x.span, { spec: `${CHIP} §11.4.6` });
        }
        numAttr('tjid', 0, 255);
        numAttr('rjid', 0, 255);
        numAttr(q.kind === 'rdma_tx' ? 'dest_voq' : 'msg_voq', 0, 8191);
        if (q.kind === 'rdma_tx') numAttr('page_size_words', 32, 127);
      } else if (q.kind === 'mpe') {
        const bv = ta.get('blob')?.value;
        if (bv) {
          const n = ident(bv, '`blob`');
          const bl = n !== undefined ? blobs.get(n) : undefined;
          if (n !== undefined && !bl) err('LD0130', `no blob \`${n}\``, bv.span, { notes: didYouMean(n, blobs.keys()) });
          if (bl) {
            trip.blob = bl;
            if (bl.placed.region.space === 'amem' && bl.placed.region.cluster !== cluster)
              err('LD0501', `MPE trip \`${tname}\`: blob \`${bl.name}\` is in the AMEM of cluster ${bl.placed.region.cluster}; the patch blob must be cluster-local`, bv.span, { spec: `${CHIP} §12.6.1.1, §12.7` });
          }
          if (ta.has('src') || ta.has('dst')) err('LD0131', 'an MPE trip is either patch mode (`blob`) or DMA mode (`src`, `dst`)', bv.span, { spec: `${CHIP} §11.4.10` });
        } else {
          tensorRef('src');
          tensorRef('dst');
          if (!ta.has('src') || !ta.has('dst')) err('LD0132', `MPE trip \`${tname}\` needs \`blob\` (patch mode) or \`src\` and \`dst\` (DMA mode)`, tb.nameSpan, { spec: `${CHIP} §11.4.10` });
        }
        numAttr('length', 8, 65536 * 8);
      } else {
        tensorRef('src');
        tensorRef('dst');
        if (!ta.has('src') || !ta.has('dst')) err('LD0132', `${q.kind} trip \`${tname}\` needs \`src\` and \`dst\` tensors`, tb.nameSpan);
        numAttr('length', 1, 2 ** 40);
        numAttr('trip_power', 0, 127);
        numAttr('plane_mask', 1, 15);
      }
      qd.trips.push(trip);
      trips.push(trip);
    }
  }
  for (const t of trips) {
    if (t.op) checkSizeRules(t, bag);
    checkIntegerTensors(t, bag);
  }
  for (const st of ctx.script.afters)
    for (const c of st.consumers) {
      const t = tripByName.get(c.name);
      if (!t) err('LD0133', `no trip \`${c.name}\``, c.span, { notes: didYouMean(c.name, tripByName.keys()) });
      else t.afters.push(...st.producers);
    }
  bag.throwIfErrors();
}

/**
 * DMA endpoints (chip §12.1, §12.2, §12.7) and transfer padding: H2A/A2H move
 * whole 1 KiB units, ICDMA 128-byte words, MPE 8-byte words (16-bit N-1
 * lengths); both allocations are grown to cover the padded transfer.
 */
export function checkDmaEndpoints(ctx: LinkContext): void {
  const { err } = ctx.r;
  const { bag, trips } = ctx;
  for (const t of trips) {
    const k = t.queue.kind;
    if (k !== 'h2a' && k !== 'a2h' && k !== 'icdma' && !(k === 'mpe' && !t.blob)) continue;
    const src = t.tensors.get('src');
    const dst = t.tensors.get('dst');
    if (!src || !dst) continue;
    const want = (x: { t: TensorDef; span: SourceSpan }, space: 'amem' | 'hbm', cluster: number | undefined, role: string) => {
      const r = x.t.placed.region;
      if (r.space !== space || (cluster !== undefined && r.cluster !== cluster))
        err('LD0501', `${k} trip \`${t.name}\`: ${role} tensor \`${x.t.name}\` is in ${r.space}${r.space === 'amem' ? ` of cluster ${r.cluster}` : ''}; it must be in ${space}${cluster !== undefined ? ` of cluster ${cluster}` : ''}`, x.span, { spec: `${CHIP} §12.1, §12.2` });
    };
    const unit = k === 'h2a' || k === 'a2h' ? 1024 : k === 'icdma' ? 128 : 8;
    if (k === 'h2a') {
      want(src, 'hbm', undefined, 'source');
      want(dst, 'amem', t.cluster, 'destination');
    } else if (k === 'a2h') {
      want(src, 'amem', t.cluster, 'source');
      want(dst, 'hbm', undefined, 'destination');
    } else if (k === 'icdma') {
      want(src, 'amem', t.cluster, 'source');
      want(dst, 'amem', icdmaDestination(t.cluster, t.queue.index), 'destination');
    } else {
      // MPE DMA mode: 32-bit engine addresses reach this cluster's AMEM and HBM [0, 2 GiB) (chip §12.7)
      for (const [x, role] of [[src, 'source'], [dst, 'destination']] as const)
        if (x.t.placed.region.space === 'amem' && x.t.placed.region.cluster !== t.cluster)
          err('LD0501', `MPE trip \`${t.name}\`: ${role} tensor \`${x.t.name}\` is in the AMEM of cluster ${x.t.placed.region.cluster}; the MPE windows reach only cluster ${t.cluster}'s AMEM and HBM`, x.span, { spec: `${CHIP} §12.7` });
    }
    const len = t.nums.get('length')?.v ?? Math.max(src.view ? src.view.layout.size : src.t.layout.size, dst.view ? dst.view.layout.size : dst.t.layout.size);
    const padded = alignUp(len, unit);
    if (padded / unit > 65536) {
      err('LD0509', `${k} trip \`${t.name}\` moves ${padded} bytes; one descriptor moves at most ${65536 * unit} (16-bit length in ${unit}-byte units, N-1 encoded): split the transfer`, t.span, { spec: k === 'mpe' ? `${CHIP} §12.6.2.1` : k === 'icdma' ? `${CHIP} §11.4.5` : `${CHIP} §11.4.3, §11.4.4` });
      continue;
    }
    // Transfers are whole units: make both allocations cover them.
    for (const x of [src, dst]) {
      const off = x.view?.offset ?? 0;
      if (x.t.placed.size < off + padded) x.t.placed.size = off + padded;
      if (x.view && padded > viewSize(x) && x.view.offset + padded > x.t.layout.size)
        err('LD0509', `${k} trip \`${t.name}\` moves ${padded} bytes from slice \`${x.t.name}${x.view.text}\` (${viewSize(x)} bytes), past the end of the tensor`, x.view.span, { spec: `${CHIP} §11.4.3, §11.4.4` });
      const al = x.t.placed.region.space === 'hbm' ? (k === 'mpe' ? 8 : 1024) : k === 'mpe' ? 8 : 128;
      if (x.view && x.view.offset % al)
        err('LD0502', `${k} trip \`${t.name}\`: slice \`${x.t.name}${x.view.text}\` starts ${x.view.offset} bytes into the tensor, not a multiple of ${al} bytes`, x.view.span, { spec: k === 'mpe' ? `${CHIP} §12.6.2.2` : `${CHIP} §12.1, §12.2` });
      if (x.t.placed.fixed !== undefined && x.t.placed.fixed % al)
        err('LD0502', `${k} trip \`${t.name}\`: tensor \`${x.t.name}\` at 0x${x.t.placed.fixed.toString(16)} is not ${al}-byte aligned`, x.span, { spec: k === 'mpe' ? `${CHIP} §12.6.2.2` : `${CHIP} §12.1, §12.2` });
      x.t.placed.align = Math.max(x.t.placed.align, al);
    }
    t.nums.set('length', { v: padded, span: t.span });
  }
  bag.throwIfErrors();
}
