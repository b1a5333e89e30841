/**
 * `memory` statements: AMEM regions of a cluster (hashed or unhashed view,
 * chip §7, §7.5) and HBM regions (chip §8.2); the default region of a cluster.
 */
import { didYouMean } from '@pyxis/diagnostics';
import type { ScriptValue } from '@pyxis/ld';
import { AMEM_BYTES } from '../common/amem.js';
import { clusterCount, nocRegion } from '../common/nocMap.js';
import { CHIP, type LinkContext } from './context.js';
import type { Region } from './placement.js';

/** Top-level statements the linker knows (`input` and `after` are parsed by @pyxis/ld itself). */
const KINDS = ['memory', 'tensor', 'blob', 'weights', 'config', 'queue'];

/** Bytes of the HBM address range (the `hbm` region of grammars/pyxis/noc_map.json, chip §8.2). */
export function hbmBytes(): number {
  return Number(nocRegion('hbm').size);
}


export function declareRegions(ctx: LinkContext): void {
  const { err, attrsOf, num, ident, named } = ctx.r;
  const { regions } = ctx;
  for (const b of ctx.script.blocks)
    if (!KINDS.includes(b.kind)) err('LD0100', `unknown statement \`${b.kind}\``, b.kindSpan, { notes: didYouMean(b.kind, [...KINDS, 'input', 'after']) });
  const maxCluster = clusterCount() - 1;
  for (const b of ctx.blocks('memory')) {
    const name = named(b, '`memory`');
    if (!name) continue;
    const a = attrsOf(b, ['space', 'cluster', 'view', 'origin', 'length'], `memory \`${name}\``);
    const space = ident(a.get('space')?.value, '`space`') ?? 'amem';
    if (space !== 'amem' && space !== 'hbm') {
      err('LD0106', `memory space must be \`amem\` or \`hbm\`, got \`${space}\``, a.get('space')!.value.span);
      continue;
    }
    const cluster = space === 'amem' ? num(a.get('cluster')?.value, '`cluster`', 0, maxCluster) ?? 0 : -1;
    const view = ident(a.get('view')?.value, '`view`') ?? 'hashed';
    if (view !== 'hashed' && view !== 'unhashed') err('LD0106', `view must be \`hashed\` or \`unhashed\`, got \`${view}\``, a.get('view')!.value.span, { spec: `${CHIP} §7.5` });
    const limit = space === 'amem' ? AMEM_BYTES : hbmBytes();
    const origin = num(a.get('origin')?.value, '`origin`', 0, limit) ?? 0;
    const length = num(a.get('length')?.value, '`length`', 1, limit) ?? limit - origin;
    if (origin + length > limit)
      err('LD0301', `memory \`${name}\` [0x${origin.toString(16)}, 0x${(origin + length).toString(16)}) exceeds the ${space === 'amem' ? `${AMEM_BYTES / 2 ** 20} MiB AMEM` : 'HBM address range'}`, b.nameSpan, { spec: space === 'amem' ? `${CHIP} §7` : `${CHIP} §8.2` });
    if (regions.has(name)) err('LD0107', `memory \`${name}\` is declared twice`, b.nameSpan);
    regions.set(name, { name, space, cluster, unhashed: view === 'unhashed', origin, length, span: b.nameSpan!, used: 0, items: [] });
  }
  // overlapping region declarations
  const rl = [...regions.values()];
  for (let i = 0; i < rl.length; i++)
    for (let j = i + 1; j < rl.length; j++) {
      const x = rl[i]!;
      const y = rl[j]!;
      if (x.space === y.space && x.cluster === y.cluster && x.origin < y.origin + y.length && y.origin < x.origin + x.length)
        err('LD0302', `memory \`${y.name}\` overlaps memory \`${x.name}\``, y.span, { spec: y.space === 'amem' ? `${CHIP} §7, §7.5` : `${CHIP} §8.2`, secondary: x.span ? [{ span: x.span, label: 'declared here' }] : [] });
    }
}

/** The first hashed AMEM region of `cluster`, else its first AMEM region, else a whole-AMEM `amem<cluster>` created here. */
export function defaultRegion(ctx: LinkContext, cluster: number): Region {
  const { regions } = ctx;
  for (const r of regions.values()) if (r.space === 'amem' && r.cluster === cluster && !r.unhashed) return r;
  for (const r of regions.values()) if (r.space === 'amem' && r.cluster === cluster) return r;
  const name = `amem${cluster}`;
  let r = regions.get(name);
  if (!r) regions.set(name, (r = { name, space: 'amem', cluster, unhashed: false, origin: 0, length: AMEM_BYTES, used: 0, items: [] }));
  return r;
}

/** The region a `region = name` attribute names (LD0108 when there is none). */
export function regionRef(ctx: LinkContext, v: ScriptValue | undefined, what: string): Region | undefined {
  const n = ctx.r.ident(v, what);
  if (n === undefined) return undefined;
  const r = ctx.regions.get(n);
  if (!r) ctx.r.err('LD0108', `no memory region \`${n}\``, v!.span, { notes: didYouMean(n, ctx.regions.keys()) });
  return r;
}
