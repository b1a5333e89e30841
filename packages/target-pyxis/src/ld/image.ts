/**
 * Image address rules shared by linker and simulator (docs/image-layout.md):
 * queue ids (chip Table 11-1), the 32-bit engine view and NoC map with the
 * DPE/MPE remap windows (chip §12.7), AMEM view bit (chip §7.1, §7.5).
 * The NoC map, remap windows, ICDMA destinations and queue ids are data in
 * grammars/pyxis/noc_map.json, which the simulator reads too.
 */
import { defaultRemapWindows, icdmaDestination, loadNocMap, nocRegion, remapEngineAddress, tripQueueIds } from '../common/nocMap.js';
export { loadNocMap, type NocMapJson } from '../common/nocMap.js';

import { AMEM_VIEW_BIT } from '../common/amem.js';
/** Bytes of one AMEM (chip §7) and the §7.5 view granule; the one definition is common/amem.ts. */
export { AMEM_BYTES as AMEM_SIZE, AMEM_BLOCK_BYTES as HASH_BLOCK } from '../common/amem.js';
/**
 * The engine-address range of a NoC region: its windows of `remap_windows`
 * (noc_map.json) whose offsets continue each other from 0; window w starts at
 * engine address w * 2^30, since eng[31:30] selects the window (chip §12.7).
 */
function engineWindow(region: string): { base: number; size: number } {
  const ws = loadNocMap().remap_windows.windows.filter((w) => w.region === region).sort((a, b) => a.window - b.window);
  if (!ws.length) throw new Error(`grammars/pyxis/noc_map.json maps no engine window to \`${region}\``);
  let size = 0;
  for (const [k, w] of ws.entries()) {
    if (w.window !== ws[0]!.window + k || Number(w.offset) !== size) break;
    size += Number(w.mask) + 1;
  }
  return { base: ws[0]!.window * 2 ** 30, size };
}
const HBM_WINDOW = engineWindow('hbm');
/** Bytes of HBM the DPE/MPE windows reach from address 0 (windows 2 and 3: 2 GiB). */
export const HBM_WINDOW_SIZE = HBM_WINDOW.size;
/** Engine address of CSR/config space (window 1). */
export const CFG_WINDOW_BASE = engineWindow('cfg').base;
/** Engine address of HBM byte 0 (window 2). */
export const HBM_WINDOW_BASE = HBM_WINDOW.base;

/** NoC map (39-bit, noc_addr_w of chip §12.7), a toolchain choice: `regions` of grammars/pyxis/noc_map.json. */
export const NOC: { readonly hbm: number; readonly amem: number; readonly amemStride: number; readonly cfg: number; readonly cfgStride: number } = Object.freeze({
  hbm: Number(nocRegion('hbm').base),
  amem: Number(nocRegion('amem').base),
  amemStride: Number(nocRegion('amem').stride),
  cfg: Number(nocRegion('cfg').base),
  cfgStride: Number(nocRegion('cfg').stride),
});

export interface RemapWindow {
  base: number;
  mask: number;
}

/** The four windows the linker programs for both DPE and MPE of `cluster` (`remap_windows` of noc_map.json). */
export function remapWindows(cluster: number): RemapWindow[] {
  return defaultRemapWindows(cluster).map((w) => ({ base: Number(w.base), mask: Number(w.mask) }));
}

/** chip §12.7 eng2noc_addr_remap, the simulator's implementation (@pyxis/codec) on this package's number windows. */
export function engineToNoc(eng: number, windows: RemapWindow[]): number {
  return remapEngineAddress(eng, windows.map((w) => ({ base: BigInt(w.base), mask: BigInt(w.mask) })));
}

/** 32-bit engine address of an AMEM byte address in `view` (0 hashed, 1 unhashed). */
export function amemEngineAddress(addr: number, unhashed: boolean): number {
  return addr + (unhashed ? AMEM_VIEW_BIT : 0);
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

/**
 * Trip-descriptor queues of chip Table 11-1 from `queues` of noc_map.json, by
 * id: the linker's kind is the toolchain name prefix (`barrier` for the
 * Barrier Config Engine). Datagram rings (trip = false) are not included.
 */
const TRIP_QUEUE_TABLE: readonly QueueInfo[] = tripQueueIds().map((q) => ({ id: q.id, kind: q.group as EngineKind, index: q.index, name: q.name }));
const QUEUE_BY_NAME = new Map(TRIP_QUEUE_TABLE.map((q) => [q.name, q]));
const QUEUE_BY_ID = new Map(TRIP_QUEUE_TABLE.map((q) => [q.id, q]));

/** Queue id by name (chip Table 11-1). ICDMA `icdma<i>` is the i-th local queue. */
export function queueByName(name: string): QueueInfo | undefined {
  const q = QUEUE_BY_NAME.get(name);
  return q ? { ...q, name } : undefined;
}

export function queueName(id: number): string {
  return QUEUE_BY_ID.get(id)?.name ?? `q${id}`;
}

/** Queue names offered in "did you mean" notes (the RDMA and barrier queues are written by the linker itself). */
export const QUEUE_NAMES: string[] = TRIP_QUEUE_TABLE.filter((q) => !['rdma_tx', 'rdma_rx', 'barrier'].includes(q.kind)).map((q) => q.name);

/** Destination cluster of local ICDMA queue `index` in `cluster` (chip Table 12-1). */
export { icdmaDestination };

export { clusterCsrAddress, loadMemoryMap, type MemoryMap, type MemoryMapRegion, type SeqMemory } from '../common/memoryMap.js';
