/**
 * Image address rules shared by linker and simulator (docs/image-layout.md):
 * queue ids (chip Table 11-1), the 32-bit engine view and NoC map with the
 * DPE/MPE remap windows (chip §12.7), AMEM view bit (chip §7.1, §7.5).
 * This file is the one place these numbers live.
 */
import { loadGrammarJson } from '@pyxis/codec';

export const AMEM_SIZE = 64 * 1024 * 1024; // chip §7: 512K words x 128 B
export const AMEM_VIEW_BIT = 26; // chip §7.1, §11.4.3 ("bank-hash-disable as the top bit")
export const HASH_BLOCK = 16 * 1024; // chip §7.5 view granularity
export const HBM_WINDOW_SIZE = 2 * 1024 * 1024 * 1024; // engine windows 2 and 3
export const CFG_WINDOW_BASE = 0x4000_0000;
export const HBM_WINDOW_BASE = 0x8000_0000;

/** NoC map (39-bit, noc_addr_w of chip §12.7), a toolchain choice. */
export const NOC = {
  hbm: 0x00_0000_0000,
  amem: 0x10_0000_0000,
  amemStride: 0x1000_0000,
  cfg: 0x20_0000_0000,
  cfgStride: 0x4000_0000,
} as const;

export interface RemapWindow {
  base: number;
  mask: number;
}

/** The four windows the linker programs for both DPE and MPE of `cluster`. */
export function remapWindows(cluster: number): RemapWindow[] {
  return [
    { base: NOC.amem + cluster * NOC.amemStride, mask: 0x07ff_ffff },
    { base: NOC.cfg + cluster * NOC.cfgStride, mask: 0x3fff_ffff },
    { base: NOC.hbm, mask: 0x3fff_ffff },
    { base: NOC.hbm + 0x4000_0000, mask: 0x3fff_ffff },
  ];
}

/** chip §12.7 eng2noc_addr_remap (numbers stay below 2^53). */
export function engineToNoc(eng: number, windows: RemapWindow[]): number {
  const w = windows[Math.floor(eng / 0x4000_0000) & 3]!;
  const low = eng % 0x4000_0000;
  // (low & mask) | (base & ~mask) with 39-bit values: split into hi/lo 30-bit parts.
  const maskLo = w.mask % 0x4000_0000;
  const baseHi = Math.floor(w.base / 0x4000_0000);
  const baseLo = w.base % 0x4000_0000;
  const lo = ((low & maskLo) | (baseLo & ~maskLo)) >>> 0;
  return baseHi * 0x4000_0000 + lo;
}

/** 32-bit engine address of an AMEM byte address in `view` (0 hashed, 1 unhashed). */
export function amemEngineAddress(addr: number, unhashed: boolean): number {
  return addr + (unhashed ? 1 << AMEM_VIEW_BIT : 0);
}

/** 32-bit engine address of an HBM byte address (windows 2/3), or undefined beyond 2 GiB. */
export function hbmEngineAddress(addr: number): number | undefined {
  return addr < HBM_WINDOW_SIZE ? HBM_WINDOW_BASE + addr : undefined;
}

export type EngineKind = 'uie' | 'rdma_tx' | 'rdma_rx' | 'h2a' | 'a2h' | 'icdma' | 'mpe' | 'barrier';

export interface QueueInfo {
  id: number;
  kind: EngineKind;
  /** UIE / MPE / ICDMA instance index. */
  index: number;
  name: string;
}

/** Queue id by name (chip Table 11-1). ICDMA `icdma<i>` is the i-th local queue. */
export function queueByName(name: string): QueueInfo | undefined {
  let m: RegExpMatchArray | null;
  if ((m = /^uie(\d+)$/.exec(name)) && +m[1]! < 12) return { id: +m[1]!, kind: 'uie', index: +m[1]!, name };
  if ((m = /^rdma_tx(\d)$/.exec(name)) && +m[1]! < 2) return { id: 0x0c + +m[1]!, kind: 'rdma_tx', index: +m[1]!, name };
  if ((m = /^rdma_rx(\d)$/.exec(name)) && +m[1]! < 2) return { id: 0x0e + +m[1]!, kind: 'rdma_rx', index: +m[1]!, name };
  if (name === 'h2a') return { id: 0x10, kind: 'h2a', index: 0, name };
  if (name === 'a2h') return { id: 0x11, kind: 'a2h', index: 0, name };
  if ((m = /^icdma(\d)$/.exec(name)) && +m[1]! < 3) return { id: 0x12 + +m[1]!, kind: 'icdma', index: +m[1]!, name };
  if ((m = /^mpe(\d+)$/.exec(name)) && +m[1]! < 13) return { id: 0x15 + +m[1]!, kind: 'mpe', index: +m[1]!, name };
  if (name === 'barrier') return { id: 0x22, kind: 'barrier', index: 0, name };
  return undefined;
}

export function queueName(id: number): string {
  if (id < 0x0c) return `uie${id}`;
  if (id < 0x0e) return `rdma_tx${id - 0x0c}`;
  if (id < 0x10) return `rdma_rx${id - 0x0e}`;
  if (id === 0x10) return 'h2a';
  if (id === 0x11) return 'a2h';
  if (id < 0x15) return `icdma${id - 0x12}`;
  if (id < 0x22) return `mpe${id - 0x15}`;
  if (id === 0x22) return 'barrier';
  return `q${id}`;
}

export const QUEUE_NAMES = [
  ...Array.from({ length: 12 }, (_, i) => `uie${i}`),
  'h2a', 'a2h', 'icdma0', 'icdma1', 'icdma2',
  ...Array.from({ length: 13 }, (_, i) => `mpe${i}`),
];

/** Destination cluster of local ICDMA queue `index` in `cluster` (chip Table 11-1, Table 12-1). */
export function icdmaDestination(cluster: number, index: number): number {
  const others = [0, 1, 2, 3].filter((c) => c !== cluster);
  return others[index]!;
}

/** Sequencer memory layout from grammars/pyxis/memory_map.json. */
export interface SeqMemory {
  id: number;
  name: string;
  ctrl: { address: number; stride: number; words: number; table: string };
  op: { address: number; stride: number; words: number; table: string };
}

export interface MemoryMap {
  uieStride: number;
  sequencers: SeqMemory[];
  byName: Map<string, SeqMemory>;
  /**
   * Named config/CSR regions (`regions` of memory_map.json). Per-UIE regions
   * give the address of UIE 0; `scope: 'cluster'` regions (kind `cluster_csr`:
   * enqueue, bt_mem_decrement, barrier_interrupt_config) exist once per
   * cluster. The simulator reads the same entries (packages/sim/src/targets/pyxis/clusterCsr.ts).
   */
  regions: Map<string, MemoryMapRegion>;
}

export interface MemoryMapRegion {
  name: string;
  kind?: string;
  scope?: 'cluster';
  /** Engine address (UIE 0 for per-UIE regions). */
  address: number;
  stride: number;
  words: number;
  table?: string;
}

/** Engine address of entry `index` of a cluster CSR (`cluster.enqueue`, `cluster.bt_mem_decrement`, `cluster.barrier_interrupt_config`). */
export function clusterCsrAddress(name: string, index = 0): number {
  const r = loadMemoryMap().regions.get(name);
  if (!r || r.scope !== 'cluster') throw new Error(`grammars/pyxis/memory_map.json has no cluster CSR \`${name}\``);
  if (!Number.isInteger(index) || index < 0 || index >= r.words) throw new RangeError(`${name}[${index}]: ${r.words} entries`);
  return r.address + index * r.stride;
}

let mmCache: MemoryMap | undefined;

export function loadMemoryMap(): MemoryMap {
  if (mmCache) return mmCache;
  const raw = loadGrammarJson<{
    uie_stride: number;
    sequencers: Array<{ id: number; name: string; control: SeqMemory['ctrl']; op: SeqMemory['op'] }>;
    regions?: MemoryMapRegion[];
  }>('pyxis', 'memory_map');
  const sequencers = raw.sequencers.map((s) => ({ id: s.id, name: s.name, ctrl: s.control, op: s.op }));
  mmCache = {
    uieStride: raw.uie_stride,
    sequencers,
    byName: new Map(sequencers.map((s) => [s.name, s])),
    regions: new Map((raw.regions ?? []).map((r) => [r.name, r])),
  };
  return mmCache;
}
