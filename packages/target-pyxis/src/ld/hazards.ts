/**
 * Checks on placed objects: hashed/unhashed views (chip §7.5), tensor
 * alignment (chip §7.1, §7.3; seq §1.1), InMemAdd bank alignment (chip
 * §7.4.1), and unordered overlapping accesses of different engines (chip
 * §11.7, §7.4.2) found by a sweep over each memory's address ranges.
 */
import { warning } from '@pyxis/diagnostics';
import { AMEM_BLOCK_BYTES } from '../common/amem.js';
import { CHIP, SEQ, type LinkContext } from './context.js';
import type { TensorDef, TripDef } from './linkTypes.js';
import { checkPartitionRotation } from './checks.js';
import { checkViews } from './placement.js';
import { intervalsIntersect, rowIntervals } from './tensors.js';
import type { TripGraph } from './tripGraph.js';
import { viewAddress, type TensorView } from './slices.js';
import { tripFootprints } from './footprint.js';

export function checkPlacedObjects(ctx: LinkContext, graph: TripGraph): void {
  const { err } = ctx.r;
  const { bag, tensors, placements } = ctx;
  const { orderedTrips, ordered } = graph;
  checkViews(placements, bag);
  for (const t of tensors.values()) {
    const a = t.placed.address;
    if (t.placed.region.space === 'amem') {
      if (t.elemBytes === 2 && a % 32) err('LD0801', `16-bit tensor \`${t.name}\` at 0x${a.toString(16)} is not on an even partition (32-byte) boundary`, t.span, { spec: `${CHIP} §7.3; ${SEQ} §1.1` });
      else if (a % 16) err('LD0802', `tensor \`${t.name}\` at 0x${a.toString(16)} is not partition (16-byte) aligned`, t.span, { spec: `${CHIP} §7.1` });
      if (t.role !== 'data' && a % 128) err('LD0803', `${t.role === 'indirection' ? 'indirection table' : 'compressed weights'} \`${t.name}\` at 0x${a.toString(16)} is not 128-byte aligned`, t.span, { spec: `${SEQ} §1.1` });
    }
  }
  const uieIdx = orderedTrips.map((t, i) => (t.queue.kind === 'uie' ? i : -1)).filter((i) => i >= 0);
  // RMW / InMemAdd source-destination bank alignment (chip §7.4.1)
  for (const i of uieIdx) {
    const t = orderedTrips[i]!;
    const src = t.tensors.get('rmw_source');
    const dst = t.tensors.get('write');
    if (!src) continue;
    if (!dst) {
      err('LD0810', `trip \`${t.name}\`: \`rmw_source\` needs a \`write\` tensor`, src.span, { spec: `${CHIP} §7.4` });
      continue;
    }
    const s = src.t;
    const d = dst.t;
    if (s.placed.address === d.placed.address && s.placed.region === d.placed.region) continue; // same address: rules moot
    const problems: string[] = [];
    if (s.placed.address % AMEM_BLOCK_BYTES !== d.placed.address % AMEM_BLOCK_BYTES) problems.push(`start addresses differ modulo 16 KiB (0x${(s.placed.address % AMEM_BLOCK_BYTES).toString(16)} vs 0x${(d.placed.address % AMEM_BLOCK_BYTES).toString(16)})`);
    if (s.layout.rowStride !== d.layout.rowStride || s.layout.chanStride !== d.layout.chanStride) problems.push('row/channel strides differ');
    if (s.elemBytes !== d.elemBytes) problems.push('element widths differ');
    if (JSON.stringify(s.shape) !== JSON.stringify(d.shape)) problems.push('shapes differ');
    if (!s.placed.region.unhashed || !d.placed.region.unhashed) problems.push('bank hashing must be disabled (unhashed view) for RMW with different addresses');
    if (problems.length)
      err('LD0811', `trip \`${t.name}\`: InMemAdd source \`${s.name}\` and destination \`${d.name}\` are not bank-aligned: ${problems.join('; ')}`, src.span, { spec: `${CHIP} §7.4.1, §7.5` });
  }
  // Unordered overlapping accesses between different engines (chip §11.7, §7.4.2):
  // write/write of different tensors sharing a 16-byte partition is an error (the
  // partial-write RMW hazard); read/write of overlapping data is a warning (a race
  // the barrier graph does not order).
  interface Access { i: number; t: TensorDef; write: boolean; mem: string; iv: Array<[number, number]> }
  const accesses: Access[] = [];
  const ivCache = new Map<TensorDef, Array<[number, number]>>();
  const ivOf = (x: { t: TensorDef; view?: TensorView }) => {
    const t = x.t;
    if (x.view) return rowIntervals(x.view.layout).map(([a, b]) => [viewAddress(x) + a, viewAddress(x) + b] as [number, number]);
    let v = ivCache.get(t);
    if (!v) {
      const base = t.placed.address;
      ivCache.set(t, (v = rowIntervals(t.layout).map(([a, b]) => [base + a, base + b] as [number, number])));
    }
    return v;
  };
  orderedTrips.forEach((t, i) => {
    // the program's real footprint where the walker can compute it (footprint.ts, LD0832), else the slice
    const fps = tripFootprints(t, bag);
    const add = (key: string, write: boolean) => {
      const x = t.tensors.get(key);
      if (!x) return;
      const r = x.t.placed.region;
      accesses.push({ i, t: x.t, write, mem: r.space === 'amem' ? `amem${r.cluster}` : 'hbm', iv: fps.get(key) ?? ivOf(x) });
    };
    if (t.queue.kind === 'uie') {
      add('write', true);
      add('read', false);
      add('weights', false);
      add('rmw_source', false);
    } else {
      add('dst', true);
      add('src', false);
    }
  });
  const engineName = (t: TripDef) => `${t.queue.name}${t.cluster ? ` of cluster ${t.cluster}` : ''}`;
  let races = 0;
  // Sweep over bounding ranges per memory: only accesses whose extents overlap are compared.
  accesses.sort((p, q) => (p.mem < q.mem ? -1 : p.mem > q.mem ? 1 : (p.iv[0]?.[0] ?? 0) - (q.iv[0]?.[0] ?? 0)));
  const hi = (x: Access) => x.iv[x.iv.length - 1]?.[1] ?? 0;
  for (let x = 0; x < accesses.length; x++)
    for (let y = x + 1; y < accesses.length; y++) {
      const A = accesses[x]!;
      const B = accesses[y]!;
      if (A.mem !== B.mem || (B.iv[0]?.[0] ?? 0) >= hi(A)) break;
      if (!A.write && !B.write) continue;
      if (A.i === B.i) continue;
      const ta = orderedTrips[A.i]!;
      const tb = orderedTrips[B.i]!;
      if (ta.cluster === tb.cluster && ta.queue.id === tb.queue.id) continue; // one engine: ordered by its queue
      if (ordered(A.i, B.i) || !intervalsIntersect(A.iv, B.iv)) continue;
      if (A.write && B.write) {
        if (A.t === B.t) continue; // the microcode may write disjoint parts of one tensor
        err('LD0812', `trips \`${ta.name}\` (${engineName(ta)}) and \`${tb.name}\` (${engineName(tb)}) write tensors \`${A.t.name}\` and \`${B.t.name}\` that share 16-byte partitions, with no barrier between them`, ta.span, {
          secondary: [{ span: tb.span, label: 'other writer' }],
          notes: ['help: add `' + tb.name + ' after ' + ta.name + ';` (or the reverse), or move the tensors apart'],
          spec: `${CHIP} §11.7, §7.4.2`,
        });
      } else if (races++ < 20) {
        const [w, r] = A.write ? [A, B] : [B, A];
        bag.add(warning('LD0813', `trip \`${orderedTrips[r.i]!.name}\` reads \`${r.t.name}\` while trip \`${orderedTrips[w.i]!.name}\` may be writing \`${w.t.name}\` (overlapping, no dependency between them)`, {
          span: orderedTrips[r.i]!.span,
          secondary: [{ span: orderedTrips[w.i]!.span, label: 'writer' }],
          notes: [`help: add \`${orderedTrips[r.i]!.name} after ${orderedTrips[w.i]!.name};\` (or the reverse) if one needs the other's data`],
          spec: `${CHIP} §11.7`,
        }));
      }
    }
  bag.throwIfErrors();
  // partition rotation of copies without a compensating switch (seq §5.4, §6.7), after the errors above
  for (const i of uieIdx) checkPartitionRotation(orderedTrips[i]!, bag);
}
