/** Memory regions and placement of tensors, blobs and lists in them (chip §7, §8.2); view checks (chip §7.5). */
import { error, type DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';
import { alignUp } from '@pyxis/container';
import { HASH_BLOCK } from './image.js';

const CHIP = 'pyxis-chip-fspec.md';

export interface Region {
  name: string;
  space: 'amem' | 'hbm';
  cluster: number;
  unhashed: boolean;
  origin: number;
  length: number;
  span?: SourceSpan;
  used: number;
  items: Array<{ start: number; end: number; name: string }>;
}

export interface Placed {
  name: string;
  what: string; // tensor, blob, descriptor list, ...
  region: Region;
  size: number;
  align: number;
  fixed?: number;
  address: number;
  span?: SourceSpan;
}

/** Fixed placements first (checked for overlap), then first-fit in script order. */
export function allocate(items: Placed[], bag: DiagnosticBag): void {
  const byRegion = new Map<Region, Placed[]>();
  for (const p of items) {
    if (!byRegion.has(p.region)) byRegion.set(p.region, []);
    byRegion.get(p.region)!.push(p);
  }
  for (const [r, ps] of byRegion) {
    const spec = r.space === 'amem' ? `${CHIP} §7, §7.1` : `${CHIP} §8.2`;
    const used: Array<{ start: number; end: number; p: Placed }> = [];
    for (const p of ps.filter((x) => x.fixed !== undefined)) {
      const s = p.fixed!;
      const e = s + p.size;
      if (s % p.align && p.what !== 'tensor') // tensor alignment rules are checked after placement (LD0801..LD0803)
        bag.add(error('LD0303', `${p.what} \`${p.name}\` at 0x${s.toString(16)} is not ${p.align}-byte aligned`, { spec, ...(p.span ? { span: p.span } : {}) }));
      if (s < r.origin || e > r.origin + r.length) {
        bag.add(error('LD0304', `${p.what} \`${p.name}\` [0x${s.toString(16)}, 0x${e.toString(16)}) lies outside memory \`${r.name}\` [0x${r.origin.toString(16)}, 0x${(r.origin + r.length).toString(16)})`, { spec, ...(p.span ? { span: p.span } : {}) }));
        continue;
      }
      // Two tensors at explicit addresses may alias (views of one buffer); unordered
      // writers of aliasing tensors are caught by the chip §11.7 check (LD0812).
      const o = used.find((u) => s < u.end && u.start < e && !(p.what === 'tensor' && u.p.what === 'tensor'));
      if (o) {
        bag.add(error('LD0305', `${p.what} \`${p.name}\` [0x${s.toString(16)}, 0x${e.toString(16)}) overlaps ${o.p.what} \`${o.p.name}\` [0x${o.start.toString(16)}, 0x${o.end.toString(16)})`, { spec, ...(p.span ? { span: p.span } : {}), ...(o.p.span ? { secondary: [{ span: o.p.span, label: 'overlapped object' }] } : {}) }));
        continue;
      }
      p.address = s;
      used.push({ start: s, end: e, p });
    }
    for (const p of ps.filter((x) => x.fixed === undefined)) {
      used.sort((a, b) => a.start - b.start);
      let cand = alignUp(r.origin, p.align);
      for (const u of used) {
        if (cand + p.size <= u.start) break;
        if (u.end > cand) cand = alignUp(u.end, p.align);
      }
      if (cand + p.size > r.origin + r.length) {
        const usedBytes = used.reduce((s, u) => s + (u.end - u.start), 0);
        bag.add(error('LD0306', `memory \`${r.name}\` overflows: cannot place ${p.what} \`${p.name}\` (${p.size} bytes, align ${p.align}); ${usedBytes} of ${r.length} bytes already used`, { spec, ...(p.span ? { span: p.span } : r.span ? { span: r.span } : {}) }));
        continue;
      }
      p.address = cand;
      used.push({ start: cand, end: cand + p.size, p });
    }
    r.items = used.map((u) => ({ start: u.start, end: u.end, name: u.p.name }));
  }
}

/** Hashed and unhashed views may not share a 16 KiB block (chip §7.5). */
export function checkViews(items: Placed[], bag: DiagnosticBag): void {
  const blocks = new Map<string, Placed>();
  for (const p of items) {
    if (p.region.space !== 'amem' || p.size === 0) continue;
    const first = Math.floor(p.address / HASH_BLOCK);
    const last = Math.floor((p.address + p.size - 1) / HASH_BLOCK);
    for (let b = first; b <= last; b++) {
      const k = `${p.region.cluster}:${b}`;
      const o = blocks.get(k);
      if (!o) blocks.set(k, p);
      else if (o.region.unhashed !== p.region.unhashed) {
        bag.add(error('LD0307', `${p.what} \`${p.name}\` (${p.region.unhashed ? 'unhashed' : 'hashed'} view) shares the 16 KiB block at 0x${(b * HASH_BLOCK).toString(16)} with ${o.what} \`${o.name}\` (${o.region.unhashed ? 'unhashed' : 'hashed'} view)`, {
          ...(p.span ? { span: p.span } : {}), ...(o.span ? { secondary: [{ span: o.span, label: 'other view' }] } : {}), spec: 'pyxis-chip-fspec.md §7.5',
        }));
        break;
      }
    }
  }
}
