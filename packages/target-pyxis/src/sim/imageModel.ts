/**
 * The image model: a `.pimg` (docs/image-layout.md) read and validated once into everything the simulator takes from
 * it — the chip size it needs, its memory sections placed in HBM / AMEM / CSR-config space, the enqueue records, remap
 * windows, host actions, datagram rings, and the metadata names (trips, barriers, programs) of the reports, the trace
 * and the VCD. The chip is built and loaded from the model (imageChip.ts, image.ts `loadImage`), the VCD declarations
 * read it (run.ts), and a runtime diagnostic about bytes in memory is pointed back at the image through it
 * (`locateInImage`, image.ts `attachImageSpan`). Every problem found here is a DiagnosticError with the byte span of the
 * offending section or record: its offset in the `.pimg` (section data offset + offset in the section).
 */
import { decode, loadTable } from '@pyxis/codec';
import type { Container, Section } from '@pyxis/container';
import { DiagnosticError, error, type ByteSpan } from '@pyxis/diagnostics';
import { PyxisSectionFlags } from '../flags.js';
import { imageError, SimCodes, type MemLocation } from './diagnostics.js';
import { AMEM_SIZE } from './amemAccess.js';
import { CFG_ENGINE_BASE, CFG_WINDOW_SIZE } from './cfgSpace.js';
import { HBM_SIZE } from './memory.js';
import type { RemapWindow } from './noc.js';
import type { EnqueueRecord, HostAction } from './host.js';
import { queueKind, TRIP_QUEUES } from './queues.js';
import { AMEM_VIEW_BIT } from '../common/amem.js';
import { checkPyxisMetadata } from '../common/metadata.js';
import { loadMemoryMap } from '../common/memoryMap.js';
import { loadNocMap } from '../common/nocMap.js';
import { parseHostActions, parseWindows } from './imageMetadata.js';

/** Clusters of a chip (chip §1, Table 12-1) and UIEs per cluster (chip §1). */
export const MAX_CLUSTERS = 4;
export const MAX_UIES = 12;

/** A memory section of the image at its place in the chip (`addr`: AMEM view address, cfg-window offset, HBM address). */
export interface PlacedSection {
  /** Index of the section in the image. */
  index: number;
  section: Section;
  space: 'hbm' | 'amem' | 'cfg';
  /** -1 for HBM (chip-wide). */
  cluster: number;
  addr: number;
}

/** A datagram descriptor ring the image places (chip §11.5.2): section `.dgram.c<C>.dgram_<tx|rx><n>`. */
export interface DatagramRingSection {
  cluster: number;
  /** Its descriptor queue id (noc_map.json queues: dgram_tx / dgram_rx). */
  queueId: number;
  space: 'hbm' | 'amem';
  /** The cluster of the memory holding the ring (-1 for HBM). */
  memCluster: number;
  address: number;
  /** 8-byte descriptor slots. */
  entries: number;
}

export interface BarrierInfo {
  cluster: number;
  id: number;
  producers?: string[];
  consumers?: string[];
}

export interface ImageModel {
  file: string;
  container: Container;
  /** Clusters/UIEs the image uses (max index + 1). */
  clusters: number;
  uies: number;
  /** Memory sections (not `none`) at their place, in image order. */
  placed: PlacedSection[];
  records: EnqueueRecord[];
  remap?: Array<{ dpe: RemapWindow[]; mpe: RemapWindow[] }>;
  /** Datagram rings placed by the linker (configured when the chip has a fabric adapter). */
  dgramRings: DatagramRingSection[];
  /** Barrier ids listed in metadata (for VCD signals), by cluster, with the linker's producer/consumer trip names. */
  barriers: BarrierInfo[];
  /** Producer / consumer trip names of the barriers that list them, by cluster * 1024 + id (deadlock explanations). */
  barrierRoles: Map<number, { producers: string[]; consumers: string[] }>;
  /** Trip names by trip_id (metadata.pyxis.trips), for reports. */
  tripNames: Map<number, string>;
  /** Linked programs by `c<cluster>.uie<n>.<sequencer>` (metadata.pyxis.programs): PC range and name, for trace names. */
  programs: Map<string, Array<{ pc: number; words: number; name: string }>>;
  /** Host CPU actions (metadata.pyxis.host_actions). */
  hostActions: HostAction[];
  /** Trips the image's descriptor lists hold (metadata.pyxis.queues[].lists[].descriptors; 0 when not listed). */
  listedTrips: number;
}

/** Former name of the model (the API and tests use both). */
export type ImageInfo = ImageModel;

/**
 * Span of bytes `within..within+length` of section `s` in the image file: the section's data offset in the
 * `.pimg` (`fileOffset`, set by the container reader) plus the offset inside the section. Sections built in
 * memory have no file offset: the span is then at offset 0 and the message names the section.
 */
export function sectionSpan(file: string, s: Section, within = 0, length?: number): ByteSpan {
  return { file, offset: s.fileOffset !== undefined ? s.fileOffset + within : 0, ...(length !== undefined ? { length } : {}) };
}

/** Address of a section in its memory: AMEM view address (view bit for unhashed sections), cfg offset, HBM address. */
export function sectionLocation(s: Section): { space: 'hbm' | 'amem' | 'cfg'; cluster: number; addr: number } | undefined {
  if (s.space === 'hbm') return { space: 'hbm', cluster: -1, addr: s.address };
  if (s.space === 'amem') return { space: 'amem', cluster: s.cluster ?? 0, addr: s.address | (s.flags & PyxisSectionFlags.unhashed ? AMEM_VIEW_BIT : 0) };
  if (s.space === 'cfg') return { space: 'cfg', cluster: s.cluster ?? 0, addr: s.address - CFG_ENGINE_BASE };
  return undefined;
}

/** Reads and validates a linked image into its model (the one read of the container the simulator makes). */
export function readImage(container: Container, file: string): ImageModel {
  if (container.kind !== 'pimg')
    throw imageError(file, SimCodes.badImage, `${file} is a .${container.kind} object, not a linked .pimg image (run pyxis-ld first)`);
  if (container.target !== 'pyxis') throw imageError(file, SimCodes.badImage, `${file} targets \`${container.target}\`; pyxis-sim runs pyxis images`);
  // Every property of the metadata read below has the type the schema gives it (CT0015 with the JSON path otherwise).
  checkPyxisMetadata(container, file);
  let clusters = 1;
  let uies = 0;
  const records: EnqueueRecord[] = [];
  const placed: PlacedSection[] = [];
  const enqT = loadTable('pyxis', 'desc_enqueue_record');
  container.sections.forEach((s, i) => {
    const where = `section ${i} \`${s.name}\``;
    const fail = (msg: string, spec?: string): never => {
      throw new DiagnosticError({ severity: 'error', code: SimCodes.badImage, message: `${where}: ${msg}`, span: sectionSpan(file, s), ...(spec ? { spec } : {}) });
    };
    if (s.kind !== 'zero' && s.data.length !== s.size) fail(`size ${s.size} but ${s.data.length} data bytes`);
    const c = s.cluster ?? -1;
    switch (s.space) {
      case 'hbm':
        if (s.address < 0 || s.address + s.size > HBM_SIZE) fail(`HBM range 0x${s.address.toString(16)}+${s.size} outside 2^36 bytes`, 'pyxis-chip-fspec.md §8.2');
        break;
      case 'amem':
        if (!(c >= 0 && c < MAX_CLUSTERS)) fail(`AMEM section needs a cluster 0..${MAX_CLUSTERS - 1}, has ${c}`);
        if (s.address < 0 || s.address + s.size > AMEM_SIZE) fail(`AMEM range 0x${s.address.toString(16)}+${s.size} outside the 64 MiB AMEM`, 'pyxis-chip-fspec.md §7.1');
        clusters = Math.max(clusters, c + 1);
        break;
      case 'cfg': {
        if (!(c >= 0 && c < MAX_CLUSTERS)) fail(`cfg section needs a cluster 0..${MAX_CLUSTERS - 1}, has ${c}`);
        const off = s.address - CFG_ENGINE_BASE;
        if (off < 0 || off + s.size > CFG_WINDOW_SIZE) fail(`cfg address 0x${s.address.toString(16)} is not in window 1 (0x40000000..0x7fffffff)`, 'pyxis-chip-fspec.md §12.7');
        clusters = Math.max(clusters, c + 1);
        const u = Math.floor(off / loadMemoryMap().uieStride);
        if (u < MAX_UIES) uies = Math.max(uies, u + 1);
        break;
      }
      case 'none':
        if (s.name === '.enqueue') {
          if (s.data.length % 8) fail(`.enqueue holds ${s.data.length} bytes, not a multiple of the 8-byte record`, 'pyxis-chip-fspec.md §11.5.1.1');
          for (let o = 0; o < s.data.length; o += 8) {
            const v = decode(enqT, s.data, o);
            const r: EnqueueRecord = {
              cluster: Number(v['cluster']),
              queue_id: Number(v['queue_id']),
              descriptor_list_address: Number(v['descriptor_list_address']),
              descriptor_list_length: Number(v['descriptor_list_length']),
            };
            // Record-level rules checked here so the diagnostic names the record's byte offset in the image.
            const bad = (msg: string, spec: string) =>
              new DiagnosticError({ severity: 'error', code: SimCodes.badEnqueue, message: `.enqueue record ${o / 8}: ${msg}`, span: sectionSpan(file, s, o, 8), spec });
            if (r.queue_id >= TRIP_QUEUES) throw bad(`queue_id 0x${r.queue_id.toString(16)} is not a trip descriptor queue (Table 11-1: 0x00-0x${(TRIP_QUEUES - 1).toString(16)})`, 'pyxis-chip-fspec.md §11.5');
            if (r.descriptor_list_address % 8) throw bad(`descriptor_list_address 0x${r.descriptor_list_address.toString(16)} is not 8-byte aligned`, 'pyxis-chip-fspec.md §11.5.1.1');
            records.push(r);
          }
        }
        break;
      default:
        fail(`unknown address space \`${s.space}\` (expected hbm, amem, cfg or none)`);
    }
    const loc = sectionLocation(s);
    if (loc) placed.push({ index: i, section: s, ...loc });
  });
  for (const r of records) {
    clusters = Math.max(clusters, r.cluster + 1);
    const k = queueKind(r.queue_id);
    if (k?.kind === 'uie') uies = Math.max(uies, k.index + 1);
  }
  const meta = (container.metadata['pyxis'] ?? {}) as Record<string, unknown>;
  if (typeof meta['clusters'] === 'number') clusters = Math.max(clusters, meta['clusters']);
  if (typeof meta['uies'] === 'number') uies = Math.max(uies, meta['uies']);
  let remap: ImageModel['remap'];
  if (Array.isArray(meta['remap'])) {
    remap = [];
    for (const e of meta['remap'] as Array<Record<string, unknown>>) {
      const c = Number(e['cluster']);
      if (!(c >= 0 && c < MAX_CLUSTERS)) throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: bad cluster ${String(e['cluster'])}`);
      remap[c] = { dpe: parseWindows(file, e['dpe'], `cluster ${c} dpe`), mpe: parseWindows(file, e['mpe'], `cluster ${c} mpe`) };
    }
  }
  const barriers: BarrierInfo[] = [];
  if (Array.isArray(meta['barriers']))
    for (const b of meta['barriers'] as Array<Record<string, unknown>>)
      if (typeof b['cluster'] === 'number' && typeof b['id'] === 'number') {
        const names = (k: string) => (Array.isArray(b[k]) ? (b[k] as unknown[]).map(String) : undefined);
        const p = names('producers');
        const c = names('consumers');
        barriers.push({ cluster: b['cluster'], id: b['id'], ...(p ? { producers: p } : {}), ...(c ? { consumers: c } : {}) });
      }
  const tripNames = new Map<number, string>();
  if (Array.isArray(meta['trips']))
    for (const t of meta['trips'] as Array<Record<string, unknown>>) if (typeof t['trip_id'] === 'number' && typeof t['name'] === 'string') tripNames.set(t['trip_id'], t['name']);
  const programs = new Map<string, Array<{ pc: number; words: number; name: string }>>();
  if (Array.isArray(meta['programs']))
    for (const p of meta['programs'] as Array<Record<string, unknown>>) {
      const name = p['name'] ?? p['program'];
      if (typeof p['cluster'] !== 'number' || typeof p['uie'] !== 'number' || typeof p['seq'] !== 'string' || typeof p['pc'] !== 'number' || typeof name !== 'string') continue;
      const k = `c${p['cluster']}.uie${p['uie']}.${p['seq']}`;
      let list = programs.get(k);
      if (!list) programs.set(k, (list = []));
      list.push({ pc: p['pc'], words: typeof p['words'] === 'number' ? p['words'] : 1, name });
    }
  let listedTrips = 0;
  // a count for the progress bar only: a hand-edited value that is not a list of lists is as if absent (fuzz pimg
  // seeds 82, 116, 232: it was an internal error)
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  for (const q of list(meta['queues'])) for (const l of list((q as { lists?: unknown } | null)?.lists)) {
    const n = (l as { descriptors?: unknown } | null)?.descriptors;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) listedTrips += n;
  }
  const hostActions = parseHostActions(file, meta['host_actions'], clusters);
  for (const a of hostActions) clusters = Math.max(clusters, a.cluster + 1);
  return {
    file,
    container,
    clusters: Math.min(MAX_CLUSTERS, clusters),
    uies: Math.min(MAX_UIES, uies),
    placed,
    records,
    ...(remap ? { remap } : {}),
    dgramRings: datagramRings(placed),
    barriers,
    barrierRoles: new Map(barriers.filter((b) => b.producers || b.consumers).map((b) => [b.cluster * 1024 + b.id, { producers: b.producers ?? [], consumers: b.consumers ?? [] }])),
    tripNames,
    programs,
    hostActions,
    listedTrips,
  };
}

/** Datagram rings (chip §11.5.2, docs/image-layout.md): the linker writes every descriptor valid plus one spare slot. */
function datagramRings(placed: PlacedSection[]): DatagramRingSection[] {
  const queues = loadNocMap().queues.table;
  const out: DatagramRingSection[] = [];
  for (const p of placed) {
    const m = /^\.dgram\.c(\d+)\.(dgram_(?:tx|rx))(\d)$/.exec(p.section.name);
    const g = m ? queues.find((q) => q.name === m[2]) : undefined;
    if (!m || !g || Number(m[3]) >= g.count || p.space === 'cfg' || p.section.size < 16) continue;
    out.push({ cluster: Number(m[1]), queueId: g.first + Number(m[3]), space: p.space, memCluster: p.cluster, address: p.addr, entries: p.section.size / 8 });
  }
  return out;
}

/** The image section that loaded the bytes at `at` (and the offset of `at` inside it), if any. */
export function locateInImage(image: ImageModel | Container, at: MemLocation): { index: number; section: Section; within: number } | undefined {
  const placed = 'placed' in image ? image.placed : image.sections.flatMap((section, index) => { const l = sectionLocation(section); return l ? [{ index, section, ...l }] : []; });
  for (const p of placed) {
    if (p.space !== at.space || (p.space !== 'hbm' && p.cluster !== at.cluster)) continue;
    if (at.addr >= p.addr && at.addr < p.addr + p.section.size) return { index: p.index, section: p.section, within: at.addr - p.addr };
  }
  return undefined;
}

/** The linked program (one name; overlaid programs sharing the PC joined by `/`) at a PC of a sequencer track. */
export function programAt(image: ImageModel, key: string): ((pc: number) => string | undefined) | undefined {
  const list = image.programs.get(key);
  if (!list?.length) return undefined;
  return (pc) => {
    const hit = list.filter((p) => pc >= p.pc && pc < p.pc + Math.max(1, p.words)).map((p) => p.name);
    return hit.length ? [...new Set(hit)].join('/') : undefined;
  };
}

/** Barrier ids worth a VCD signal: those the image's metadata lists (cluster * 1024 + id, for sorting and merging). */
export function listedBarriers(image: ImageModel): Map<number, { cluster: number; id: number }> {
  const ids = new Map<number, { cluster: number; id: number }>();
  for (const b of image.barriers) ids.set(b.cluster * 1024 + b.id, b);
  return ids;
}

/**
 * The chip size a run of `image` simulates: `--clusters` / `--uies` when given (each in range and at least what the
 * image uses), else the image's own.
 */
export function chipSize(image: ImageModel, opts: { clusters?: number | undefined; uies?: number | undefined }): { clusters: number; uies: number } {
  const clusters = sizeOf(opts.clusters, image.clusters, MAX_CLUSTERS, 'clusters');
  const uies = sizeOf(opts.uies, image.uies, MAX_UIES, 'uies');
  if (clusters < image.clusters)
    throw new DiagnosticError(error(SimCodes.noEngine, `${image.file} uses ${image.clusters} cluster(s); --clusters ${clusters} is too few`));
  if (uies < image.uies) throw new DiagnosticError(error(SimCodes.noEngine, `${image.file} uses ${image.uies} UIE(s) per cluster; --uies ${uies} is too few`));
  return { clusters, uies };
}

function sizeOf(opt: number | undefined, image: number, max: number, what: string): number {
  const v = opt ?? image;
  if (!Number.isInteger(v) || v < (what === 'clusters' ? 1 : 0) || v > max)
    throw new DiagnosticError(error(SimCodes.badConfig, `--${what} must be an integer in ${what === 'clusters' ? 1 : 0}..${max}, got ${v}`));
  return v;
}
