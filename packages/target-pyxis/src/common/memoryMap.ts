/**
 * The memory map (grammars/pyxis/memory_map.json: the project-defined engine
 * addresses of every microcode memory, config table and CSR, chip §12.6,
 * §12.7): one loader for the assembler, linker and simulator.
 */
import { loadGrammarJson } from '@pyxis/codec';

/** Sequencer memory layout from grammars/pyxis/memory_map.json. */
export interface SeqMemory {
  id: number;
  name: string;
  /** `offset`: byte offset in a UIE's config block (UIE u's block starts at u * uieStride). */
  ctrl: { address: number; offset: number; stride: number; words: number; table: string };
  op: { address: number; offset: number; stride: number; words: number; table: string };
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
  /** Byte offset in a UIE's config block (per-UIE regions) or the cluster's CSR block. */
  offset: number;
  stride: number;
  words: number;
  table?: string;
  /** `ro` registers are maintained by hardware (a write is ignored, SIM0030); `wo` registers read as 0. */
  access?: 'rw' | 'ro' | 'wo';
  /** Register width of a CSR without a field table (its upper bits are not implemented). */
  bits?: number;
  /** The spec section the register implements (memory_map.json `spec`). */
  spec?: string;
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
