/**
 * Loading a `.pimg` (docs/image-layout.md) into the chip model: section
 * contents into HBM / AMEM / CSR-config space, remap windows from
 * `metadata.pyxis.remap`, enqueue records from `.enqueue`. Every problem is a
 * DiagnosticError with the byte span of the offending section/record: its
 * byte offset in the `.pimg` (section data offset + offset in the section).
 */
import { decode, loadTable } from '@pyxis/codec';
import type { Container, Section } from '@pyxis/container';
import { PyxisSectionFlags } from '../flags.js';
import { DiagnosticError, isByteSpan, type ByteSpan } from '@pyxis/diagnostics';
import { imageError, SimCodes, SimRuntimeError, type MemLocation } from './diagnostics.js';
import { AMEM_SIZE } from './amemAccess.js';
import { CFG_ENGINE_BASE, CFG_WINDOW_SIZE } from './cfgSpace.js';
import { HBM_SIZE } from './memory.js';
import type { RemapWindow } from './noc.js';
import type { EnqueueRecord, HostAction, PyxisChip } from './chip.js';
import { TRIP_QUEUES } from './queues.js';
import { AMEM_VIEW_BIT } from '../common/amem.js';
import { checkPyxisMetadata } from '../common/metadata.js';

export { CFG_ENGINE_BASE };

export interface ImageInfo {
  file: string;
  container: Container;
  /** Clusters/UIEs the image uses (max index + 1). */
  clusters: number;
  uies: number;
  records: EnqueueRecord[];
  remap?: Array<{ dpe: RemapWindow[]; mpe: RemapWindow[] }>;
  /** Barrier ids listed in metadata (for VCD signals), by cluster, with the linker's producer/consumer trip names. */
  barriers: Array<{ cluster: number; id: number; producers?: string[]; consumers?: string[] }>;
  /** Trip names by trip_id (metadata.pyxis.trips), for reports. */
  tripNames: Map<number, string>;
  /** Linked programs by `c<cluster>.uie<n>.<sequencer>` (metadata.pyxis.programs): PC range and name, for trace names. */
  programs: Map<string, Array<{ pc: number; words: number; name: string }>>;
  /** Host CPU actions (metadata.pyxis.host_actions). */
  hostActions: HostAction[];
}

function parseHostActions(file: string, v: unknown, clusters: number): HostAction[] {
  if (v === undefined) return [];
  const bad = (i: number, m: string) =>
    imageError(file, SimCodes.badImage, `metadata.pyxis.host_actions[${i}]: ${m}`, 0, { notes: ['format: { cluster, address: "0x40F01008", value: "0x2", at_cycle?, after_interrupt?: { entry: 0..7 | "timeout", count? }, poll?: { address, mask?, value } }'] });
  if (!Array.isArray(v)) throw bad(0, 'must be a list');
  return v.map((x, i) => {
    const o = (x ?? {}) as Record<string, unknown>;
    const cluster = o['cluster'] ?? 0;
    if (typeof cluster !== 'number' || !(cluster >= 0 && cluster < Math.max(clusters, 4))) throw bad(i, `bad cluster ${String(cluster)}`);
    const address = big(o['address']);
    if (address === undefined || address < BigInt(CFG_ENGINE_BASE) || address >= 0x8000_0000n || address % 8n !== 0n)
      throw bad(i, 'address must be an 8-byte aligned engine address in the CSR window 0x40000000..0x7fffffff');
    const value = big(o['value']);
    if (value === undefined || value >= 1n << 64n) throw bad(i, 'value must be a 64-bit number or hex string');
    const at = o['at_cycle'] ?? 0;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0) throw bad(i, 'at_cycle must be a cycle number');
    const a: HostAction = { cluster, address: Number(address), value, atCycle: at };
    const ai = o['after_interrupt'] as Record<string, unknown> | undefined;
    if (ai !== undefined) {
      const entry = ai['entry'];
      const count = ai['count'] ?? 1;
      const timeout = entry === 'timeout';
      const fabric = entry === 'fabric_job_failed';
      if (!timeout && !fabric && (typeof entry !== 'number' || !(entry >= 0 && entry < 8)))
        throw bad(i, 'after_interrupt.entry must be 0..7 (barrier_interrupt_config, chip §11.6.5), "timeout" (the barrier timeout interrupt, chip §11.6.7) or "fabric_job_failed" (the RDMA Job Failed interrupt, chip §10.7.1.2, §10.8.1.2)');
      if (typeof count !== 'number' || count < 1) throw bad(i, 'after_interrupt.count must be >= 1');
      a.afterInterrupt = { entry: timeout ? -1 : fabric ? -2 : (entry as number), count };
    }
    const po = o['poll'] as Record<string, unknown> | undefined;
    if (po !== undefined) {
      // Software polling a CSR (e.g. cluster.trip_flush_status, chip §11.8): performed once (word & mask) == value.
      const pa = big(po['address']);
      if (pa === undefined || pa < BigInt(CFG_ENGINE_BASE) || pa >= 0x8000_0000n || pa % 8n !== 0n) throw bad(i, 'poll.address must be an 8-byte aligned engine address in the CSR window');
      const mask = po['mask'] === undefined ? (1n << 64n) - 1n : big(po['mask']);
      const pv = big(po['value']);
      if (mask === undefined || pv === undefined || mask >= 1n << 64n || pv >= 1n << 64n) throw bad(i, 'poll.mask and poll.value must be 64-bit numbers or hex strings');
      a.poll = { address: Number(pa), mask, value: pv & mask };
    }
    return a;
  });
}

function big(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v)) return BigInt(v);
  return undefined;
}

function parseWindows(file: string, v: unknown, what: string): RemapWindow[] {
  if (!Array.isArray(v) || v.length !== 4) throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what} must list 4 windows`, 0, { spec: 'pyxis-chip-fspec.md §12.7' });
  return v.map((w, i) => {
    const base = big((w as Record<string, unknown>)?.['base']);
    const mask = big((w as Record<string, unknown>)?.['mask']);
    if (base === undefined || mask === undefined) throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what}[${i}] needs hex string base and mask`);
    if ((mask & 0xfffn) !== 0xfffn)
      throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what}[${i}] mask 0x${mask.toString(16)} does not pass address bits [11:0]`, 0, { spec: 'pyxis-chip-fspec.md §12.7' });
    return { base, mask };
  });
}

/**
 * Span of bytes `within..within+length` of section `s` in the image file: the section's data offset in the
 * `.pimg` (`fileOffset`, set by the container reader) plus the offset inside the section. Sections built in
 * memory have no file offset: the span is then at offset 0 and the message names the section.
 */
export function sectionSpan(file: string, s: Section, within = 0, length?: number): ByteSpan {
  return { file, offset: s.fileOffset !== undefined ? s.fileOffset + within : 0, ...(length !== undefined ? { length } : {}) };
}

/** The image section that loaded the bytes at `at` (and the offset of `at` inside it), if any. */
export function locateInImage(container: Container, at: MemLocation): { index: number; section: Section; within: number } | undefined {
  for (let i = 0; i < container.sections.length; i++) {
    const s = container.sections[i]!;
    const loc = sectionLocation(s);
    if (!loc || loc.space !== at.space || (loc.space !== 'hbm' && loc.cluster !== at.cluster)) continue;
    if (at.addr >= loc.addr && at.addr < loc.addr + s.size) return { index: i, section: s, within: at.addr - loc.addr };
  }
  return undefined;
}

/**
 * Points a runtime error about bytes read from memory (a descriptor, a list, a patch) at those bytes in the
 * image: span = section file offset + offset inside the section, plus a note naming the section. Errors
 * about memory the image did not load are left as they are.
 */
export function attachImageSpan(e: unknown, info: ImageInfo): void {
  if (!(e instanceof DiagnosticError)) return;
  const d = e.diagnostics[0];
  if (!d) return;
  let at: MemLocation | undefined;
  let length: number | undefined;
  if (e instanceof SimRuntimeError && e.at && !d.span) {
    at = e.at;
    length = e.length;
  } else if (d.span && isByteSpan(d.span)) {
    // UIE rule errors name the microcode op word as `c<C>.uie<U>.<sequencer>.op` + its cfg-window offset.
    const m = /^c(\d+)\.uie\d+\.\w+\.op$/.exec(d.span.file);
    if (m) at = { space: 'cfg', cluster: Number(m[1]), addr: d.span.offset };
  }
  const hit = at ? locateInImage(info.container, at) : undefined;
  if (!hit) return;
  // Keep a model span (e.g. the UIE's) when the image has no file offsets (built in memory).
  if (hit.section.fileOffset !== undefined || !d.span) d.span = sectionSpan(info.file, hit.section, hit.within, length);
  const zero = hit.section.kind === 'zero' ? ' (zero-filled: the section stores no bytes in the file)' : '';
  d.notes = [...(d.notes ?? []), `the bytes are image section ${hit.index} \`${hit.section.name}\` + 0x${hit.within.toString(16)}, as the image loaded them${zero}`];
}

export function inspectImage(container: Container, file: string): ImageInfo {
  if (container.kind !== 'pimg')
    throw imageError(file, SimCodes.badImage, `${file} is a .${container.kind} object, not a linked .pimg image (run pyxis-ld first)`);
  if (container.target !== 'pyxis') throw imageError(file, SimCodes.badImage, `${file} targets \`${container.target}\`; pyxis-sim runs pyxis images`);
  // Every property of the metadata read below has the type the schema gives it (CT0015 with the JSON path otherwise).
  checkPyxisMetadata(container, file);
  let clusters = 1;
  let uies = 0;
  const records: EnqueueRecord[] = [];
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
        if (!(c >= 0 && c < 4)) fail(`AMEM section needs a cluster 0..3, has ${c}`);
        if (s.address < 0 || s.address + s.size > AMEM_SIZE) fail(`AMEM range 0x${s.address.toString(16)}+${s.size} outside the 64 MiB AMEM`, 'pyxis-chip-fspec.md §7.1');
        clusters = Math.max(clusters, c + 1);
        break;
      case 'cfg': {
        if (!(c >= 0 && c < 4)) fail(`cfg section needs a cluster 0..3, has ${c}`);
        const off = s.address - CFG_ENGINE_BASE;
        if (off < 0 || off + s.size > CFG_WINDOW_SIZE) fail(`cfg address 0x${s.address.toString(16)} is not in window 1 (0x40000000..0x7fffffff)`, 'pyxis-chip-fspec.md §12.7');
        clusters = Math.max(clusters, c + 1);
        const u = Math.floor(off / (1 << 20));
        if (u < 12) uies = Math.max(uies, u + 1);
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
  });
  for (const r of records) {
    clusters = Math.max(clusters, r.cluster + 1);
    if (r.queue_id <= 0x0b) uies = Math.max(uies, r.queue_id + 1);
  }
  const meta = (container.metadata['pyxis'] ?? {}) as Record<string, unknown>;
  if (typeof meta['clusters'] === 'number') clusters = Math.max(clusters, meta['clusters']);
  if (typeof meta['uies'] === 'number') uies = Math.max(uies, meta['uies']);
  let remap: ImageInfo['remap'];
  if (Array.isArray(meta['remap'])) {
    remap = [];
    for (const e of meta['remap'] as Array<Record<string, unknown>>) {
      const c = Number(e['cluster']);
      if (!(c >= 0 && c < 4)) throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: bad cluster ${String(e['cluster'])}`);
      remap[c] = { dpe: parseWindows(file, e['dpe'], `cluster ${c} dpe`), mpe: parseWindows(file, e['mpe'], `cluster ${c} mpe`) };
    }
  }
  const barriers: ImageInfo['barriers'] = [];
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
  const hostActions = parseHostActions(file, meta['host_actions'], clusters);
  for (const a of hostActions) clusters = Math.max(clusters, a.cluster + 1);
  return { file, container, clusters: Math.min(4, clusters), uies: Math.min(12, uies), records, ...(remap ? { remap } : {}), barriers, tripNames, programs, hostActions };
}

/** Address of a section in its memory: AMEM view address (view bit for unhashed sections), cfg offset, HBM address. */
export function sectionLocation(s: Section): { space: 'hbm' | 'amem' | 'cfg'; cluster: number; addr: number } | undefined {
  if (s.space === 'hbm') return { space: 'hbm', cluster: -1, addr: s.address };
  if (s.space === 'amem') return { space: 'amem', cluster: s.cluster ?? 0, addr: s.address | (s.flags & PyxisSectionFlags.unhashed ? AMEM_VIEW_BIT : 0) };
  if (s.space === 'cfg') return { space: 'cfg', cluster: s.cluster ?? 0, addr: s.address - CFG_ENGINE_BASE };
  return undefined;
}

/** Copies every memory section into the chip and queues the enqueue records. */
export function loadImage(chip: PyxisChip, info: ImageInfo): void {
  info.container.sections.forEach((s, i) => {
    const loc = sectionLocation(s);
    if (!loc) return;
    if (loc.cluster >= chip.clusters)
      throw new DiagnosticError({
        severity: 'error',
        code: SimCodes.noEngine,
        message: `section ${i} \`${s.name}\` is in cluster ${loc.cluster}, but only ${chip.clusters} cluster(s) are simulated (see --clusters)`,
        span: sectionSpan(info.file, s),
      });
    // Zero sections cost no RAM in the sparse HBM and cfg memories (page ranges, memory.ts); AMEM is 64 MiB at most.
    if (s.kind === 'zero' && loc.space === 'hbm') chip.hbm.fill(loc.addr, s.size, 0);
    else if (s.kind === 'zero' && loc.space === 'cfg') chip.cfg[loc.cluster]!.fill(loc.addr, s.size, 0);
    else {
      const data = s.kind === 'zero' ? new Uint8Array(s.size) : s.data;
      if (loc.space === 'hbm') chip.hbm.writeBytes(loc.addr, data);
      else if (loc.space === 'amem') chip.amem[loc.cluster]!.writeBytes(loc.addr, data);
      else chip.cfg[loc.cluster]!.writeBytes(loc.addr, data);
    }
  });
  // Datagram rings (chip §11.5.2, docs/image-layout.md): the linker writes every descriptor valid plus one spare slot
  if (chip.fabricAdapter)
    for (const s of info.container.sections) {
      const m = /^\.dgram\.c(\d+)\.dgram_(tx|rx)([01])$/.exec(s.name);
      const loc = sectionLocation(s);
      if (!m || !loc || loc.space === 'cfg' || s.size < 16) continue;
      const entries = s.size / 8;
      chip.fabricAdapter.configureRing(Number(m[1]), (m[2] === 'tx' ? 0x23 : 0x25) + Number(m[3]), { space: loc.space, cluster: loc.cluster, address: loc.addr, entries, tail: entries - 1 });
    }
  chip.addEnqueueRecords(info.records);
  for (const a of info.hostActions)
    if (a.cluster >= chip.clusters) throw imageError(info.file, SimCodes.noEngine, `metadata.pyxis.host_actions: cluster ${a.cluster} is not simulated (see --clusters)`);
  chip.host.addActions(info.hostActions);
  for (const [id, n] of info.tripNames) chip.tripNames.set(id, n);
  for (const b of info.barriers) if (b.producers || b.consumers) chip.barrierRoles.set(b.cluster * 1024 + b.id, { producers: b.producers ?? [], consumers: b.consumers ?? [] });
}
