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
import { loadGrammarJson } from '@pyxis/codec';

/** Diagnostic codes of the control plane (trip flush, barrier timeouts, CSRs, DMA descriptors). */
export const CtlCodes = {
  /** A write to a read-only CSR (ignored; the register keeps its hardware value). */
  csrReadOnly: 'SIM0030',
  /** An ICDMA core_switch_plane_mask other than all planes: the model has no core-switch planes (chip §11.4.5, §12.2). */
  icdmaPlaneMask: 'SIM0032',
  /** A live UIE register read while that UIE's model ran ahead of the global clock (--quantum > 1): value from a later cycle. */
  csrAhead: 'SIM0033',
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
  const u = Math.floor(off / UIE_STRIDE);
  if (u < UIES_PER_CLUSTER) {
    const o = off - u * UIE_STRIDE;
    if (o < UIE_CSR_LO || o >= UIE_CSR_HI) return undefined;
    for (const r of UIE_CSRS) if (o >= r.offset && o < r.offset + r.words * r.stride) return { region: r, uie: u, index: Math.floor((o - r.offset) / r.stride) };
    return undefined;
  }
  for (const r of CLUSTER_CSR_REGIONS) if (off >= r.offset && off < r.offset + r.words * r.stride) return { region: r, uie: -1, index: Math.floor((off - r.offset) / r.stride) };
  return undefined;
}

/** Whether [off, off + len) of a cluster's cfg window overlaps any CSR (per-UIE or cluster). */
export function overlapsCsr(off: number, len: number): boolean {
  const end = off + len;
  for (let u = 0; u < UIES_PER_CLUSTER; u++) {
    const lo = u * UIE_STRIDE + UIE_CSR_LO;
    const hi = u * UIE_STRIDE + UIE_CSR_HI;
    if (off < hi && end > lo) return true;
  }
  for (const r of CLUSTER_CSR_REGIONS) if (off < r.offset + r.words * r.stride && end > r.offset) return true;
  return false;
}
