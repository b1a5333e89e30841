/**
 * First-fit placement of items in named memory regions, the GNU-ld model:
 * items at fixed addresses first (checked against the region bounds and each
 * other), then the rest in declaration order at the lowest aligned free
 * address. Target-neutral: a back end supplies the spec section its
 * diagnostics cite and which items may alias (docs/linker.md).
 */
import { error, type DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';
import { GapSet } from './gaps.js';

export interface AllocRegion {
  name: string;
  origin: number;
  length: number;
  span?: SourceSpan;
  /** Filled by allocateFirstFit: the placed items, by address. */
  items: Array<{ start: number; end: number; name: string }>;
}

export interface AllocItem<R extends AllocRegion = AllocRegion> {
  name: string;
  /** What the item is, for messages: tensor, blob, descriptor list, ... */
  what: string;
  region: R;
  size: number;
  align: number;
  /** Address given by the script (placed there or reported). */
  fixed?: number;
  /** Filled by allocateFirstFit. */
  address: number;
  span?: SourceSpan;
}

export interface AllocRules<R extends AllocRegion, P extends AllocItem<R>> {
  /** The spec section cited by diagnostics about items of region `r`. */
  spec(r: R): string;
  /** Two fixed items that may overlap (views of one buffer); default never. */
  mayAlias?(a: P, b: P): boolean;
  /** Whether a fixed item's alignment is checked here (LD0303); default always. */
  checksFixedAlign?(p: P): boolean;
}

const alignUp = (n: number, a: number) => Math.ceil(n / a) * a;
const hex = (n: number) => '0x' + n.toString(16);

/** Work done by the last `allocateFirstFit` call (scale tests: it must grow as n log n). */
export const allocStats = { steps: 0 };

/**
 * Places every item (sets `address`) and records each region's `items`.
 * LD0303 misaligned fixed item, LD0304 fixed item outside its region, LD0305
 * overlapping fixed items, LD0306 region overflow.
 *
 * O(n log n): fixed items are sorted once (only items whose ranges overlap are
 * compared with each other), and the free ranges live in a GapSet (gaps.ts), so
 * each first-fit search is logarithmic instead of a scan of everything placed.
 */
export function allocateFirstFit<R extends AllocRegion, P extends AllocItem<R>>(items: readonly P[], bag: DiagnosticBag, rules: AllocRules<R, P>): void {
  allocStats.steps = 0;
  const byRegion = new Map<R, P[]>();
  for (const p of items) {
    let list = byRegion.get(p.region);
    if (!list) byRegion.set(p.region, (list = []));
    list.push(p);
  }
  for (const [r, ps] of byRegion) {
    const spec = rules.spec(r);
    const at = (p: P) => ({ spec, ...(p.span ? { span: p.span } : {}) });
    const used: Array<{ start: number; end: number; p: P }> = [];
    // --- fixed items: bounds and alignment, then overlaps within groups of mutually overlapping ranges
    const fixed: Array<{ start: number; end: number; p: P; k: number }> = [];
    ps.forEach((p, k) => {
      if (p.fixed === undefined) return;
      const s = p.fixed;
      const e = s + p.size;
      if (s % p.align && (rules.checksFixedAlign?.(p) ?? true)) bag.add(error('LD0303', `${p.what} \`${p.name}\` at ${hex(s)} is not ${p.align}-byte aligned`, at(p)));
      if (s < r.origin || e > r.origin + r.length) {
        bag.add(error('LD0304', `${p.what} \`${p.name}\` [${hex(s)}, ${hex(e)}) lies outside memory \`${r.name}\` [${hex(r.origin)}, ${hex(r.origin + r.length)})`, at(p)));
        return;
      }
      fixed.push({ start: s, end: e, p, k });
    });
    const byStart = [...fixed].sort((a, b) => a.start - b.start || a.k - b.k);
    allocStats.steps += byStart.length;
    const accepted = new Set<P>();
    for (let i = 0; i < byStart.length; ) {
      // a group: ranges chained by overlap (zero-size ranges overlap nothing)
      let j = i + 1;
      let reach = byStart[i]!.end;
      while (j < byStart.length && byStart[j]!.start < reach && byStart[j]!.start < byStart[j]!.end) {
        reach = Math.max(reach, byStart[j]!.end);
        j++;
      }
      const group = byStart.slice(i, j).sort((a, b) => a.k - b.k);
      const taken: typeof group = [];
      for (const g of group) {
        allocStats.steps += taken.length;
        const o = group.length > 1 ? taken.find((u) => g.start < u.end && u.start < g.end && !(rules.mayAlias?.(g.p, u.p) ?? false)) : undefined;
        if (o) {
          bag.add(error('LD0305', `${g.p.what} \`${g.p.name}\` [${hex(g.start)}, ${hex(g.end)}) overlaps ${o.p.what} \`${o.p.name}\` [${hex(o.start)}, ${hex(o.end)})`, { ...at(g.p), ...(o.p.span ? { secondary: [{ span: o.p.span, label: 'overlapped object' }] } : {}) }));
          continue;
        }
        taken.push(g);
      }
      for (const g of taken) accepted.add(g.p);
      i = j;
    }
    // --- the free ranges: the region minus the accepted fixed items (which may alias each other)
    const gaps = new GapSet();
    let cursor = r.origin;
    let usedBytes = 0;
    for (const f of fixed) {
      if (!accepted.has(f.p)) continue;
      f.p.address = f.start;
      used.push({ start: f.start, end: f.end, p: f.p });
      usedBytes += f.end - f.start;
    }
    for (const f of byStart) {
      if (!accepted.has(f.p)) continue;
      if (f.start > cursor) gaps.add(cursor, f.start);
      cursor = Math.max(cursor, f.end);
    }
    gaps.add(cursor, r.origin + r.length);
    // --- the other items, first fit in declaration order
    for (const p of ps) {
      if (p.fixed !== undefined) continue;
      let cand: number | undefined;
      if (p.size === 0) {
        const a = alignUp(r.origin, p.align);
        if (a <= r.origin + r.length) cand = a;
      } else {
        const hit = gaps.find(p.size, p.align);
        if (hit) {
          gaps.take(hit.gap, hit.at, p.size);
          cand = hit.at;
        }
      }
      if (cand === undefined) {
        bag.add(error('LD0306', `memory \`${r.name}\` overflows: cannot place ${p.what} \`${p.name}\` (${p.size} bytes, align ${p.align}); ${usedBytes} of ${r.length} bytes already used`, { spec, ...(p.span ? { span: p.span } : r.span ? { span: r.span } : {}) }));
        continue;
      }
      p.address = cand;
      used.push({ start: cand, end: cand + p.size, p });
      usedBytes += p.size;
    }
    allocStats.steps += gaps.steps;
    used.sort((a, b) => a.start - b.start);
    r.items = used.map((u) => ({ start: u.start, end: u.end, name: u.p.name }));
  }
}
