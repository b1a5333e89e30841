/**
 * Emitting the image (docs/image-layout.md): data, patch, config and weight
 * sections with their symbols, microcode preloads, the `.enqueue` section,
 * the `pyxis` metadata block and the link map.
 */
import { FORMAT_VERSION, type Container, type Section, type SymbolEntry } from '@pyxis/container';
import { PyxisSectionFlags } from '../flags.js';
import { CHIP, SEQ, type LinkContext } from './context.js';
import type { ListDef } from './descriptorLists.js';
import { NOC, queueByName, queueName, remapWindows } from './image.js';
import type { LinkMap } from './map.js';
import type { MicrocodeLayout } from './overlays.js';
import { viewAddress } from './slices.js';
import { byteStrides, PARTITION } from './tensors.js';
import { sequencerIds, type EncodedDescriptors } from './tripDescriptors.js';
import type { TripGraph } from './tripGraph.js';

/** Sections and symbols of the image being built, in emission order. */
export class ImageBuilder {
  readonly sections: Section[] = [];
  readonly symbols: SymbolEntry[] = [];
  /** Appends a section; returns its index. */
  readonly addSection = (s: Section): number => this.sections.push(s) - 1;
}

/** Tensors, patch blobs, config preloads and weight databases (LD0804: database alignment, seq §1.1). */
export function emitDataSections(ctx: LinkContext, out: ImageBuilder): void {
  const { err } = ctx.r;
  const { bag, tensors, blobs, cfgPreloads, weightDbs } = ctx;
  const { addSection, symbols } = out;
  for (const t of tensors.values()) {
    const p = t.placed;
    const si = addSection({
      name: `.tensor.${t.name}`, kind: t.bytes ? 'data' : 'zero', space: p.region.space, address: p.address, size: p.size, align: p.align,
      flags: p.region.unhashed ? PyxisSectionFlags.unhashed : 0, data: t.bytes ? padTo(t.bytes, p.size) : new Uint8Array(0), cluster: p.region.space === 'amem' ? p.region.cluster : -1,
    });
    symbols.push({ name: t.name, kind: 'tensor', section: si, offset: 0, size: p.size, global: true, tensor: { shape: [...t.shape], format: t.format, eb: t.eb, strides: byteStrides(t.shape, t.layout) } });
  }
  for (const b of blobs.values()) {
    const p = b.placed;
    const si = addSection({
      name: b.name.startsWith('__overlay') ? `.patch.${b.name.slice(10)}` : `.patch.${b.name}`, kind: 'patch', space: p.region.space, address: p.address, size: b.bytes.length, align: 8,
      flags: p.region.unhashed ? PyxisSectionFlags.unhashed : 0, data: b.bytes, cluster: p.region.space === 'amem' ? p.region.cluster : -1,
    });
    symbols.push({ name: b.name, kind: 'blob', section: si, offset: 0, size: b.bytes.length, global: true });
  }
  for (const c of cfgPreloads) addSection({ name: c.name, kind: 'table', space: 'cfg', address: c.address, size: c.data.length, align: 8, flags: 0, data: c.data, cluster: c.cluster });
  for (const wdb of weightDbs) {
    const p = wdb.placed;
    if (p.address % 128) err('LD0804', `weight database \`${wdb.name}\` at 0x${p.address.toString(16)} is not 128-byte aligned`, p.span, { spec: `${SEQ} §1.1; ${CHIP} §14.2` });
    const si = addSection({
      name: `.wdb.${wdb.name}`, kind: 'data', space: p.region.space, address: p.address, size: wdb.bytes.length, align: 128,
      flags: p.region.unhashed ? PyxisSectionFlags.unhashed : 0, data: wdb.bytes, cluster: p.region.space === 'amem' ? p.region.cluster : -1,
    });
    symbols.push({ name: wdb.name, kind: 'data', section: si, offset: 0, size: wdb.bytes.length, global: true });
    for (const part of wdb.parts) symbols.push({ name: `${wdb.name}.${part.name}`, kind: 'data', section: si, offset: part.offset, size: part.size, global: true });
  }
  bag.throwIfErrors();
}

/** Phase-0 microcode preloads, VPU instruction memories and the `.enqueue` section; returns the map's program rows. */
export function emitMicrocode(ctx: LinkContext, mc: MicrocodeLayout, enq: Uint8Array, out: ImageBuilder): Array<Record<string, unknown>> {
  const { memoryMap } = ctx;
  const { placement, cfgImages, vpuImages, imem } = mc;
  const { addSection, symbols } = out;
  const seqIds = sequencerIds(ctx, mc);
  const programMeta: Array<Record<string, unknown>> = [];
  for (const img of [...cfgImages.values()].sort((a, b) => a.cluster - b.cluster || a.uie - b.uie || seqIds.get(a.seq)! - seqIds.get(b.seq)!)) {
    const sm = memoryMap().byName.get(img.seq)!;
    const base = memoryMap().uieStride * img.uie;
    const ci = addSection({ name: `.ucode.c${img.cluster}.uie${img.uie}.${img.seq}.ctrl`, kind: 'code', space: 'cfg', address: sm.ctrl.address + base, size: img.ctrl.length, align: 8, flags: 0, data: new Uint8Array(img.ctrl), cluster: img.cluster });
    addSection({ name: `.ucode.c${img.cluster}.uie${img.uie}.${img.seq}.op`, kind: 'code', space: 'cfg', address: sm.op.address + base, size: img.op.length, align: 8, flags: 0, data: new Uint8Array(img.op), cluster: img.cluster });
    for (const pl of placement.filter((p) => p.cluster === img.cluster && p.uie === img.uie && p.seq === img.seq && p.phase === 0)) {
      const many = placement.filter((p) => p.program === pl.program).length > 1;
      symbols.push({ name: many ? `c${pl.cluster}.uie${pl.uie}.${pl.seq}.${pl.program}` : pl.program, kind: 'program', section: ci, offset: pl.pc * sm.ctrl.stride, size: pl.words * sm.ctrl.stride, global: true });
    }
  }
  // VPU instruction memories (seq §12): one section per placed VPU program
  for (const v of vpuImages.sort((a, b) => a.cluster - b.cluster || a.uie - b.uie || a.addr - b.addr)) {
    const address = imem!.address + memoryMap().uieStride * v.uie + v.addr * imem!.stride;
    const si = addSection({ name: `.ucode.c${v.cluster}.uie${v.uie}.vpu.${v.prog.name.replace(/^vpu\./, '')}`, kind: 'code', space: 'cfg', address, size: v.prog.data.length, align: 8, flags: 0, data: new Uint8Array(v.prog.data), cluster: v.cluster });
    const many = vpuImages.filter((x) => x.prog === v.prog).length > 1;
    symbols.push({ name: many ? `c${v.cluster}.uie${v.uie}.${v.prog.name}` : v.prog.name, kind: 'label', section: si, offset: 0, size: v.prog.data.length, global: true });
  }
  for (const pl of placement) programMeta.push({ ...pl, name: pl.program });
  addSection({ name: '.enqueue', kind: 'meta', space: 'none', address: 0, size: enq.length, align: 8, flags: 0, data: enq, cluster: -1 });
  return programMeta;
}

/** The image metadata (`pyxis` block: NoC map, remap windows, queues, trips, barriers, programs) and the link map. */
export function buildImageAndMap(ctx: LinkContext, graph: TripGraph, mc: MicrocodeLayout, lists: readonly ListDef[], desc: EncodedDescriptors, programMeta: Array<Record<string, unknown>>, out: ImageBuilder): { image: Container; map: LinkMap } {
  const { tensors, weightDbs, regions, scriptFile } = ctx;
  const { orderedTrips, plan } = graph;
  const { placement, appliedRelocs } = mc;
  const { tripIds, listMeta } = desc;
  const { sections, symbols } = out;
  const clustersUsed = Math.max(0, ...orderedTrips.map((t) => t.cluster + 1), ...[...tensors.values()].map((t) => t.placed.region.cluster + 1));
  const uiesUsed = Math.max(0, ...orderedTrips.filter((t) => t.queue.kind === 'uie').map((t) => t.queue.index + 1));
  const hex = (n: number) => '0x' + n.toString(16);
  const clusterIds = [...new Set([0, ...orderedTrips.map((t) => t.cluster)])].sort();
  const remap = clusterIds.map((c) => {
    const w = remapWindows(c).map((x) => ({ base: hex(x.base), mask: hex(x.mask) }));
    return { cluster: c, dpe: w, mpe: w };
  });
  const tripMeta = plan.trips.map((pt, i) => ({ cluster: pt.cluster, queue_id: pt.queue, name: pt.name, trip_id: tripIds[i], kind: queueByName(queueName(pt.queue))!.kind, noop: pt.origin < 0 && !(orderedTrips[pt.origin]?.generated), wait: pt.wait, notify: pt.notify }));
  const barrierMeta = plan.barriers.map((b) => ({ cluster: b.cluster, id: b.id, notify_count: b.notify_count, wait_count: b.wait_count, config_wait: b.config_wait, producers: b.producers.map((i) => plan.trips[i]!.name), consumers: b.consumers.map((i) => plan.trips[i]!.name) }));
  const queueMeta = lists.reduce<Array<Record<string, unknown>>>((acc, l, i) => {
    let q = acc.find((x) => x['cluster'] === l.cluster && x['queue_id'] === l.queue.id);
    if (!q) acc.push((q = { cluster: l.cluster, queue_id: l.queue.id, engine: l.queue.name, lists: [] }));
    (q['lists'] as unknown[]).push(listMeta[i]);
    return acc;
  }, []);
  const image: Container = {
    kind: 'pimg',
    version: FORMAT_VERSION,
    target: 'pyxis',
    sections,
    symbols,
    relocations: [],
    metadata: {
      producer: 'pyxis-ld',
      script: scriptFile,
      pyxis: {
        clusters: clustersUsed,
        uies: uiesUsed,
        noc: { hbm: hex(NOC.hbm), amem: hex(NOC.amem), amemStride: hex(NOC.amemStride), cfg: hex(NOC.cfg), cfgStride: hex(NOC.cfgStride) },
        remap,
        queues: queueMeta,
        trips: tripMeta,
        barriers: barrierMeta,
        programs: programMeta,
        relocations: appliedRelocs,
        weights: weightDbs.map((w) => ({ name: w.name, kind: w.kind, address: w.placed.address, bytes: w.bytes.length, ...w.report })),
      },
    },
  };
  const map: LinkMap = {
    script: scriptFile,
    regions: [...regions.values()].map((r) => ({ name: r.name, space: r.space, cluster: r.cluster, view: r.unhashed ? 'unhashed' : 'hashed', origin: r.origin, length: r.length, used: r.items.reduce((s, x) => s + (x.end - x.start), 0) })),
    sections: sections.map((s) => ({ name: s.name, kind: s.kind, space: s.space, cluster: s.cluster ?? -1, address: s.address, size: s.size, unhashed: !!(s.flags & PyxisSectionFlags.unhashed) })),
    symbols: symbols.map((s) => ({ name: s.name, kind: s.kind, address: (sections[s.section]?.address ?? 0) + s.offset, size: s.size, space: sections[s.section]?.space ?? 'none', cluster: sections[s.section]?.cluster ?? -1, ...(s.tensor ? { tensor: s.tensor } : {}) })),
    barriers: barrierMeta,
    microcode: placement,
    relocations: appliedRelocs,
    lists: listMeta as LinkMap['lists'],
    trips: tripMeta as LinkMap['trips'],
    weights: weightDbs.map((w) => ({ name: w.name, kind: w.kind, address: w.placed.address, bytes: w.bytes.length, report: w.report })),
    quantisation: [...tensors.values()].flatMap((t) => (t.quant ? [t.quant] : [])),
    slices: graph.orderedTrips.flatMap((t) =>
      [...t.tensors].flatMap(([key, x]) =>
        x.view ? [{ trip: t.name, key, tensor: x.t.name, slice: x.view.text, address: viewAddress(x), bytes: x.view.layout.size, shape: x.view.shape, row_pitch: x.view.layout.rowStride * PARTITION, chan_pitch: x.view.layout.chanStride * PARTITION }] : [],
      ),
    ),
  };
  return { image, map };
}

function padTo(b: Uint8Array, size: number): Uint8Array {
  if (b.length === size) return b;
  const out = new Uint8Array(size);
  out.set(b.subarray(0, size));
  return out;
}
