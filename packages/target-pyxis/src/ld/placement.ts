/** Memory regions and placement of tensors, blobs and lists in them (chip §7, §8.2); view checks (chip §7.5). */
import { error, type DiagnosticBag } from '@pyxis/diagnostics';
import { allocateFirstFit, type AllocItem, type AllocRegion } from '@pyxis/ld';
import { AMEM_BLOCK_BYTES } from '../common/amem.js';

const CHIP = 'pyxis-chip-fspec.md';

export interface Region extends AllocRegion {
  space: 'amem' | 'hbm';
  cluster: number;
  unhashed: boolean;
  used: number;
}

export interface Placed extends AllocItem<Region> {
  /** tensor, patch blob, descriptor list, weight database, ... */
  what: string;
}

/**
 * Fixed placements first (checked for overlap), then first-fit in script order
 * (@pyxis/ld allocateFirstFit). Tensors at explicit addresses may alias (views
 * of one buffer): unordered writers of aliasing tensors are caught by the chip
 * §11.7 check (LD0812); tensor alignment is checked after placement (LD0801..LD0803).
 */
export function allocate(items: Placed[], bag: DiagnosticBag): void {
  allocateFirstFit<Region, Placed>(items, bag, {
    spec: (r) => (r.space === 'amem' ? `${CHIP} §7, §7.1` : `${CHIP} §8.2`),
    mayAlias: (a, b) => a.what === 'tensor' && b.what === 'tensor',
    checksFixedAlign: (p) => p.what !== 'tensor',
  });
}

/** Hashed and unhashed views may not share a 16 KiB block (chip §7.5). */
export function checkViews(items: Placed[], bag: DiagnosticBag): void {
  const blocks = new Map<string, Placed>();
  for (const p of items) {
    if (p.region.space !== 'amem' || p.size === 0) continue;
    const first = Math.floor(p.address / AMEM_BLOCK_BYTES);
    const last = Math.floor((p.address + p.size - 1) / AMEM_BLOCK_BYTES);
    for (let b = first; b <= last; b++) {
      const k = `${p.region.cluster}:${b}`;
      const o = blocks.get(k);
      if (!o) blocks.set(k, p);
      else if (o.region.unhashed !== p.region.unhashed) {
        bag.add(error('LD0307', `${p.what} \`${p.name}\` (${p.region.unhashed ? 'unhashed' : 'hashed'} view) shares the 16 KiB block at 0x${(b * AMEM_BLOCK_BYTES).toString(16)} with ${o.what} \`${o.name}\` (${o.region.unhashed ? 'unhashed' : 'hashed'} view)`, {
          ...(p.span ? { span: p.span } : {}), ...(o.span ? { secondary: [{ span: o.span, label: 'other view' }] } : {}), spec: `${CHIP} §7.5`,
        }));
        break;
      }
    }
  }
}
