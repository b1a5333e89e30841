/**
 * First-fit placement of items in named memory regions, the GNU-ld model:
 * items at fixed addresses first (checked against the region bounds and each
 * other), then the rest in declaration order at the lowest aligned free
 * address. Target-neutral: a back end supplies the spec section its
 * diagnostics cite and which items may alias (docs/linker.md).
 */
import { error, type DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';

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

/**
 * Places every item (sets `address`) and records each region's `items`.
 * LD0303 misaligned fixed item, LD0304 fixed item outside its region, LD0305
 * overlapping fixed items, LD0306 region overflow.
 */
export function allocateFirstFit<R extends AllocRegion, P extends AllocItem<R>>(items: readonly P[], bag: DiagnosticBag, rules: AllocRules<R, P>): void {
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
    for (const p of ps) {
      if (p.fixed === undefined) continue;
      const s = p.fixed;
      const e = s + p.size;
      if (s % p.align && (rules.checksFixedAlign?.(p) ?? true)) bag.add(error('LD0303', `${p.what} \`${p.name}\` at ${hex(s)} is not ${p.align}-byte aligned`, at(p)));
      if (s < r.origin || e > r.origin + r.length) {
        bag.add(error('LD0304', `${p.what} \`${p.name}\` [${hex(s)}, ${hex(e)}) lies outside memory \`${r.name}\` [${hex(r.origin)}, ${hex(r.origin + r.length)})`, at(p)));
        continue;
      }
      const o = used.find((u) => s < u.end && u.start < e && !(rules.mayAlias?.(p, u.p) ?? false));
      if (o) {
        bag.add(error('LD0305', `${p.what} \`${p.name}\` [${hex(s)}, ${hex(e)}) overlaps ${o.p.what} \`${o.p.name}\` [${hex(o.start)}, ${hex(o.end)})`, { ...at(p), ...(o.p.span ? { secondary: [{ span: o.p.span, label: 'overlapped object' }] } : {}) }));
        continue;
      }
      p.address = s;
      used.push({ start: s, end: e, p });
    }
    for (const p of ps) {
      if (p.fixed !== undefined) continue;
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
