/**
 * Microcode layout: programs placed in the 32-word sequencer memories per UIE
 * (preloaded phase 0, later phases loaded by overlay patches, chip §11.1,
 * §12.6), VPU programs (seq §12), relocations applied; then the overlay patch
 * blobs and the MPE trips that load them, ordered between the trips of the
 * phases before and after (chip §12.6.3: MPE queue mpe<uie> of the cluster).
 */
import type { SourceSpan } from '@pyxis/diagnostics';
import { encodePatchBlob, PatchBlobError, type MicroPatch } from '../common/patchBlob.js';
import type { MemoryMapRegion } from '../common/memoryMap.js';
import { CHIP, SEQ, type LinkContext } from './context.js';
import { queueByName } from './image.js';
import type { BlobDef, TripDef } from './linkTypes.js';
import { placeVpu, planMicrocode, relocate, type AppliedRelocation, type MicrocodePlacement, type ProgramDef, type VpuProgramDef } from './microcode.js';
import type { Placed } from './placement.js';
import { defaultRegion } from './regions.js';

/** Phase-0 words of one sequencer of one UIE, preloaded in cfg space. */
export interface PreloadImage {
  cluster: number;
  uie: number;
  seq: string;
  ctrl: Uint8Array;
  op: Uint8Array;
  words: number;
}

/** The patches loading phase `phase` of a UIE, run between trips `before` and `after`. */
export interface OverlayPatch {
  cluster: number;
  uie: number;
  phase: number;
  before: TripDef | undefined;
  after: TripDef;
  bytes: Uint8Array;
  patches: number;
  list: MicroPatch[];
}

export interface VpuImage {
  cluster: number;
  uie: number;
  prog: VpuProgramDef;
  addr: number;
}

export interface MicrocodeLayout {
  placement: MicrocodePlacement[];
  /** Start PC per trip per sequencer. */
  startPc: Map<TripDef, Map<string, number>>;
  /** By `cluster:uie:seq`. */
  cfgImages: Map<string, PreloadImage>;
  overlayPatches: OverlayPatch[];
  vpuImages: VpuImage[];
  appliedRelocs: AppliedRelocation[];
  /** Whether any UIE trip exists (sequencer ids are needed for the UIE descriptors). */
  hasUie: boolean;
  /** The VPU instruction memory (memory_map.json `vpu.imem`). */
  imem: MemoryMapRegion | undefined;
}

export function placeMicrocode(ctx: LinkContext): MicrocodeLayout {
  const { err } = ctx.r;
  const { trips, vpuPrograms, memoryMap } = ctx;
  const placement: MicrocodePlacement[] = [];
  const uieTrips = new Map<string, TripDef[]>(); // cluster:uie -> trips in queue order
  for (const t of trips) if (t.queue.kind === 'uie') {
    const k = `${t.cluster}:${t.queue.index}`;
    if (!uieTrips.has(k)) uieTrips.set(k, []);
    uieTrips.get(k)!.push(t);
  }
  // startPc per trip per seq
  const startPc = new Map<TripDef, Map<string, number>>();
  const cfgImages = new Map<string, PreloadImage>();
  const overlayPatches: OverlayPatch[] = [];
  const vpuImages: VpuImage[] = [];
  const appliedRelocs: AppliedRelocation[] = [];
  const imem = memoryMap().regions.get('vpu.imem');
  for (const [key, list] of uieTrips) {
    const [cluster, uie] = key.split(':').map(Number) as [number, number];
    const plan = planMicrocode(list, memoryMap());
    if (typeof plan === 'string') {
      err('LD0601', plan, list[0]!.span, { spec: `${CHIP} §11.1, §12.6; ${SEQ} §2` });
      continue;
    }
    // VPU programs referenced by the UIE's VI op words: preloaded, no overlays (seq §12)
    const vpuAt = placeVpu(list, vpuPrograms, imem?.words ?? 0, (code, msg, span) => err(code, msg, span, { spec: `${SEQ} §12` }));
    for (const [name, addr] of vpuAt) {
      const prog = vpuPrograms.get(name)!;
      vpuImages.push({ cluster, uie, prog, addr });
      placement.push({ cluster, uie, seq: 'vpu', program: name, pc: addr, words: prog.words, phase: 0 });
    }
    const firstUse = new Map<ProgramDef, SourceSpan>();
    for (const t of list) for (const { prog, span } of t.programs.values()) if (!firstUse.has(prog)) firstUse.set(prog, span);
    for (const ph of plan.phases) {
      for (const [seq, progs] of ph.bySeq) {
        const sm = memoryMap().byName.get(seq)!;
        const img = { ctrl: new Uint8Array(sm.ctrl.words * sm.ctrl.stride), op: new Uint8Array(sm.op.words * sm.op.stride), words: 0 };
        for (const { prog, pc } of progs) {
          placement.push({ cluster, uie, seq, program: prog.name, pc, words: prog.words, phase: ph.index });
          const { ctrl, op } = relocate(prog, pc, sm, (sym) => (sym === prog.name ? pc : vpuAt.get(sym)), (r, value, msg) => {
            if (msg === undefined) appliedRelocs.push({ cluster, uie, phase: ph.index, seq, program: prog.name, mem: r.mem, pc: pc + r.word, kind: r.kind, symbol: r.symbol, value: value! });
            else if (value !== undefined || !vpuPrograms.has(r.symbol)) // unplaced VPU programs already have LD0602
              err('LD0603', `program \`${prog.name}\` (${prog.file}) word ${r.word}: relocation ${r.kind} against \`${r.symbol}\`: ${msg}`, firstUse.get(prog), { notes: vpuPrograms.size || !r.symbol.startsWith('vpu.') ? [] : ['note: no input object defines a VPU program (`.vpu name { ... }`)'], spec: `${SEQ} §12` });
          });
          img.ctrl.set(ctrl, pc * sm.ctrl.stride);
          img.op.set(op, pc * sm.op.stride);
          img.words = Math.max(img.words, pc + prog.words);
        }
        if (ph.index === 0) cfgImages.set(`${cluster}:${uie}:${seq}`, { cluster, uie, seq, ctrl: img.ctrl.subarray(0, img.words * sm.ctrl.stride), op: img.op.subarray(0, img.words * sm.op.stride), words: img.words });
        else {
          // accumulate into the overlay patch of this phase
          let op = overlayPatches.find((o) => o.cluster === cluster && o.uie === uie && o.phase === ph.index);
          if (!op) overlayPatches.push((op = { cluster, uie, phase: ph.index, before: ph.prevLast, after: ph.first, bytes: new Uint8Array(0), patches: 0, list: [] }));
          const base = memoryMap().uieStride * uie;
          // One micro_patch per program and memory; register elements are whole words
          // (memory_map strides are already multiples of 8 bytes, chip §12.6.1.2).
          for (const { prog, pc } of progs) {
            op.list.push({ target_address: sm.ctrl.address + base + pc * sm.ctrl.stride, reg_size: sm.ctrl.stride, reg_repeat: prog.words, data: img.ctrl.slice(pc * sm.ctrl.stride, (pc + prog.words) * sm.ctrl.stride) });
            op.list.push({ target_address: sm.op.address + base + pc * sm.op.stride, reg_size: sm.op.stride, reg_repeat: prog.words, data: img.op.slice(pc * sm.op.stride, (pc + prog.words) * sm.op.stride) });
          }
        }
      }
    }
    for (const [t, m] of plan.startPc) startPc.set(t, m);
  }
  ctx.bag.throwIfErrors();
  return { placement, startPc, cfgImages, overlayPatches, vpuImages, appliedRelocs, hasUie: uieTrips.size > 0, imem };
}

/** Overlay patch blobs, their MPE trips inserted into the queues, and the extra (consumer, producer) dependencies. */
export function addOverlayTrips(ctx: LinkContext, mc: MicrocodeLayout): Array<[TripDef, TripDef]> {
  // Overlay patch trips go to MPE queue mpe<uie> of the cluster (chip §12.6.3: one MPE per UIE).
  const { queues, trips, tripByName, blobs, placements } = ctx;
  const genTrips: TripDef[] = [];
  const extraDeps: Array<[TripDef, TripDef]> = [];
  for (const o of mc.overlayPatches) {
    const q = queueByName(`mpe${o.uie}`);
    if (!q) {
      ctx.r.err('LD0604', `UIE ${o.uie} of cluster ${o.cluster} has no MPE queue mpe${o.uie} to load its overlay patch (chip Table 11-1)`, o.after.span, { spec: `${CHIP} §12.6.3` });
      continue;
    }
    try {
      o.bytes = encodePatchBlob(o.list); // micro_patch_t through grammars/pyxis/patch_micro_patch_t.json
    } catch (e) {
      if (!(e instanceof PatchBlobError)) throw e;
      for (const is of e.issues) ctx.r.err('LD0604', `overlay patch ${o.phase} of UIE ${o.uie} (cluster ${o.cluster}): ${is.message}`, o.after.span, { spec: `${CHIP} ${is.spec.split(' ').pop()}` });
      continue;
    }
    o.patches = o.list.length;
    const region = defaultRegion(ctx, o.cluster);
    const name = `__overlay.c${o.cluster}.uie${o.uie}.${o.phase}`;
    const placed: Placed = { name, what: 'overlay patch blob', region, size: o.bytes.length, align: 8, address: 0 };
    const blob: BlobDef = { name, span: o.after.span, bytes: o.bytes, patches: o.patches, placed };
    blobs.set(name, blob);
    placements.push(placed);
    const t: TripDef = { name, span: o.after.span, queue: q, cluster: o.cluster, block: o.after.block, afters: [], programs: new Map(), tensors: new Map(), nums: new Map(), blob, generated: true };
    genTrips.push(t);
    if (o.before) extraDeps.push([t, o.before]);
    extraDeps.push([o.after, t]);
  }
  // Insert generated trips into their queues (MPE queues keep script trips first in order of phases).
  for (const t of genTrips) {
    let qd = queues.find((x) => x.cluster === t.cluster && x.q.id === t.queue.id);
    if (!qd) queues.push((qd = { q: t.queue, cluster: t.cluster, region: defaultRegion(ctx, t.cluster), span: t.span, trips: [] }));
    qd.trips.push(t);
    trips.push(t);
    tripByName.set(t.name, t);
  }
  ctx.bag.throwIfErrors();
  return extraDeps;
}
