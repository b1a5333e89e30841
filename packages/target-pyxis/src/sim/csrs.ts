/**
 * The CSRs of grammars/pyxis/memory_map.json as the simulator sees them (PROJECT-DEFINED addresses; the spec
 * defers them to the register programming guide): per-UIE `csr.*` regions (kind `csr`, one block per UIE at
 * u * uie_stride + offset) and per-cluster `cluster.*` regions (kind `cluster_csr`). Used for
 * - the MPE patch rule "maximum reg_size of 32 bytes for CSRs" (chip §12.6.1.2), which applies to CSR targets only,
 *   not to microcode memories or configuration tables (audit D4);
 * - the UIE CSR behaviour (uieCsr.ts): every documented register either acts or gives a diagnostic.
 * Diagnostic codes of the control-plane additions are SIM0030-SIM0039 (ctlCodes below); SIM0031 is retired (the
 * compute CSRs it flagged as "not modelled" read the live Hbuf / writeback / Vbuffer / VPU state since session 9).
 */
import { loadGrammarJson, loadTable } from '@pyxis/codec';

/** Diagnostic codes of the control plane (trip flush, barrier timeouts, CSRs, DMA descriptors). */
export const CtlCodes = {
  /** A write to a read-only CSR (ignored; the register keeps its hardware value). */
  csrReadOnly: 'SIM0030',
  /** An ICDMA core_switch_plane_mask other than all planes: the model has no core-switch planes (chip §11.4.5, §12.2). */
  icdmaPlaneMask: 'SIM0032',
  /** A live UIE register read while that UIE's model ran ahead of the global clock (--quantum > 1): value from a later cycle. */
  csrAhead: 'SIM0033',
} as const;

/** Diagnostic codes of the CSR/config window decode (decodeWindow below; docs/simulator.md "CSRs"). */
export const WindowCodes = {
  /** A write to a window address no memory_map.json region maps: ignored (the bytes stay 0). */
  unmappedWrite: 'SIM0863',
  /** A read of a window address no region maps: it returns 0. */
  unmappedRead: 'SIM0864',
  /** A CSR write setting bits the register does not have (beyond `bits`, or reserved/pad fields of its table): dropped. */
  widthWrite: 'SIM0865',
} as const;

export type CsrAccess = 'rw' | 'ro' | 'wo';

export interface CsrRegion {
  name: string;
  kind: 'csr' | 'cluster_csr';
  /** Offset in a UIE's block (kind csr) or in the cluster's CSR window (kind cluster_csr). */
  offset: number;
  stride: number;
  words: number;
  bits?: number;
  access: CsrAccess;
  table?: string;
  spec: string;
}

interface RawRegion {
  name: string;
  kind?: string;
  scope?: string;
  offset: number;
  stride: number;
  words: number;
  bits?: number;
  access?: string;
  table?: string;
  spec?: string;
}

const RAW = loadGrammarJson<{ uie_stride: number; uies_per_cluster: number; regions: RawRegion[] }>('pyxis', 'memory_map');

function toRegion(r: RawRegion): CsrRegion {
  return {
    name: r.name,
    kind: r.kind as 'csr' | 'cluster_csr',
    offset: r.offset,
    stride: r.stride,
    words: r.words,
    ...(r.bits !== undefined ? { bits: r.bits } : {}),
    access: (r.access ?? 'rw') as CsrAccess,
    ...(r.table ? { table: r.table } : {}),
    spec: r.spec ?? '',
  };
}

export const UIE_STRIDE = RAW.uie_stride;
export const UIES_PER_CLUSTER = RAW.uies_per_cluster;
/** Per-UIE CSRs (memory_map.json kind `csr`), by offset. */
export const UIE_CSRS: readonly CsrRegion[] = RAW.regions.filter((r) => r.kind === 'csr').map(toRegion).sort((a, b) => a.offset - b.offset);
/** Cluster CSRs (memory_map.json kind `cluster_csr`), by offset. */
export const CLUSTER_CSR_REGIONS: readonly CsrRegion[] = RAW.regions.filter((r) => r.kind === 'cluster_csr').map(toRegion).sort((a, b) => a.offset - b.offset);
/** [lo, hi) of the per-UIE CSR block inside a UIE's block. */
export const UIE_CSR_LO = Math.min(...UIE_CSRS.map((r) => r.offset));
export const UIE_CSR_HI = Math.max(...UIE_CSRS.map((r) => r.offset + r.words * r.stride));

/** A per-UIE CSR region by name (`csr.seq_status`). */
export function uieCsr(name: string): CsrRegion {
  const r = UIE_CSRS.find((x) => x.name === name);
  if (!r) throw new Error(`grammars/pyxis/memory_map.json has no csr region \`${name}\``);
  return r;
}

/** A cluster CSR region by name (`cluster.trip_flush`). */
export function clusterCsrRegion(name: string): CsrRegion {
  const r = CLUSTER_CSR_REGIONS.find((x) => x.name === name);
  if (!r) throw new Error(`grammars/pyxis/memory_map.json has no cluster_csr region \`${name}\``);
  return r;
}

/** The CSR word at cfg-window offset `off`: region, UIE (-1 for cluster CSRs) and word index; undefined elsewhere. */
export function csrAt(off: number): { region: CsrRegion; uie: number; index: number } | undefined {
  const s = WINDOW_SPANS[firstSpanEndingAfter(off)];
  if (!s || s.lo > off || !s.region) return undefined;
  return { region: s.region, uie: s.uie, index: Math.floor((off - s.lo) / s.stride) };
}

/** Whether [off, off + len) of a cluster's cfg window overlaps any CSR (per-UIE or cluster). */
export function overlapsCsr(off: number, len: number): boolean {
  const end = off + len;
  for (let i = firstSpanEndingAfter(off); i < WINDOW_SPANS.length && WINDOW_SPANS[i]!.lo < end; i++) if (WINDOW_SPANS[i]!.region) return true;
  return false;
}

/**
 * The decode of a cluster's CSR/config window (chip §12.7; PROJECT-DEFINED map, grammars/pyxis/memory_map.json): every
 * region of the map (microcode memories, configuration tables, per-UIE CSRs of UIEs 0..11 at u * uie_stride, cluster
 * CSRs) as [lo, hi) window offsets, sorted. An address in no span maps to no register. CSR words carry the mask of the
 * bits the register has (`bits`, or the non-reserved fields of its table); other regions have no mask.
 */
export interface WindowSpan {
  lo: number;
  hi: number;
  name: string;
  uie: number;
  stride: number;
  /** Implemented bits of each 8-byte CSR word as 8 byte masks (little-endian); undefined: every bit is implemented. */
  mask?: Uint8Array;
  /** The CSR region (the same object as in UIE_CSRS / CLUSTER_CSR_REGIONS); undefined for the window's other regions. */
  region?: CsrRegion;
}

function csrMask(r: RawRegion): Uint8Array | undefined {
  if (r.kind !== 'csr' && r.kind !== 'cluster_csr') return undefined;
  if (r.stride !== 8) return undefined;
  let m = 0n;
  if (r.table) {
    const t = loadTable('pyxis', r.table);
    for (const f of t.fields) if (!f.reserved) for (let i = 0; i < f.count; i++) m |= ((1n << BigInt(f.width)) - 1n) << BigInt(f.lsb + i * f.width);
    if (r.bits !== undefined) m &= (1n << BigInt(r.bits)) - 1n;
  } else if (r.bits !== undefined) m = (1n << BigInt(r.bits)) - 1n;
  else return undefined;
  if (m >= (1n << 64n) - 1n) return undefined;
  const b = new Uint8Array(8);
  for (let i = 0; i < 8; i++) b[i] = Number((m >> BigInt(8 * i)) & 0xffn);
  return b;
}

export const WINDOW_SPANS: readonly WindowSpan[] = (() => {
  const out: WindowSpan[] = [];
  for (const r of RAW.regions) {
    const size = r.words * r.stride;
    const mask = csrMask(r);
    const region = r.kind === 'csr' ? UIE_CSRS.find((x) => x.name === r.name) : r.kind === 'cluster_csr' ? CLUSTER_CSR_REGIONS.find((x) => x.name === r.name) : undefined;
    const extra = { ...(mask ? { mask } : {}), ...(region ? { region } : {}) };
    if (r.kind === 'cluster_csr') out.push({ lo: r.offset, hi: r.offset + size, name: r.name, uie: -1, stride: r.stride, ...extra });
    else for (let u = 0; u < UIES_PER_CLUSTER; u++) out.push({ lo: u * UIE_STRIDE + r.offset, hi: u * UIE_STRIDE + r.offset + size, name: r.name, uie: u, stride: r.stride, ...extra });
  }
  return out.sort((a, b) => a.lo - b.lo);
})();

/** Index of the first span with hi > off (WINDOW_SPANS.length if none). */
function firstSpanEndingAfter(off: number): number {
  let lo = 0;
  let hi = WINDOW_SPANS.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (WINDOW_SPANS[mid]!.hi > off) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The register name of window offset `off` inside span `s` (`uie1 csr.seq_pc[3]`). */
function spanWord(s: WindowSpan, off: number): string {
  const words = (s.hi - s.lo) / s.stride;
  const i = Math.max(0, Math.min(words - 1, Math.floor((off - s.lo) / s.stride)));
  return `${s.uie >= 0 ? `uie${s.uie} ` : ''}${s.name}${words > 1 ? `[${i}]` : ''} at 0x${(CFG_BASE + s.lo + i * s.stride).toString(16)}`;
}
const CFG_BASE = 0x4000_0000; // engine address of the window (chip §12.7; cfgSpace.ts CFG_ENGINE_BASE)

/** The mapped register nearest to the unmapped window offset `off` (a did-you-mean for SIM0863 / SIM0864). */
export function nearestRegister(off: number): string {
  const i = firstSpanEndingAfter(off);
  const prev = i > 0 ? WINDOW_SPANS[i - 1] : undefined;
  const next = WINDOW_SPANS[i];
  if (prev && (!next || off - (prev.hi - 1) <= next.lo - off)) return spanWord(prev, prev.hi - 1);
  return next ? spanWord(next, next.lo) : 'none';
}

/** Calls `gap(lo, hi)` for every unmapped run of [off, off + len) and `csr(span, lo, hi)` for every masked CSR part. */
export function decodeWindow(off: number, len: number, gap: (lo: number, hi: number) => void, csr?: (s: WindowSpan, lo: number, hi: number) => void): void {
  const end = off + len;
  let a = off;
  let i = firstSpanEndingAfter(a);
  while (a < end) {
    const s = WINDOW_SPANS[i];
    if (!s || s.lo >= end) return gap(a, end);
    if (s.lo > a) gap(a, s.lo);
    const hi = Math.min(end, s.hi);
    if (s.mask && csr) csr(s, Math.max(a, s.lo), hi);
    a = Math.max(a, hi);
    i++;
  }
}

/** Whether [off, off + len) lies in one span with no mask (the common case: no copy, no check per byte). */
export function plainMapped(off: number, len: number): boolean {
  const s = WINDOW_SPANS[firstSpanEndingAfter(off)];
  return s !== undefined && s.lo <= off && off + len <= s.hi && s.mask === undefined;
}
