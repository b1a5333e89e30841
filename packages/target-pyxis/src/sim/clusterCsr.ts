/**
 * Cluster-level CSRs the simulator models in each cluster's CSR/config window.
 * Their addresses are PROJECT-DEFINED (the spec defers them to the register
 * programming guide) and live in ONE place: the `cluster_csr` regions of
 * grammars/pyxis/memory_map.json, which pyxis-ld reads too. Offsets below are
 * inside the CSR window (engine address 0x4000_0000 + offset). Writes (from
 * image preload or MPE patches/DMA) have the side effects of the spec:
 * - ENQUEUE: the descriptor-list enqueue CSR target (chip §11.5.1.1, Table 11-2; `desc_enqueue_record`)
 * - BT_MEM_DECREMENT[1024]: software barrier decrements (chip §11.6.6; `barrier_decr_cnt`)
 * - BARRIER_INTERRUPT_CONFIG[8]: (chip §11.6.5; `barrier_interrupt_config`)
 */
import { loadMemoryMap } from '../common/memoryMap.js';
import { CFG_ENGINE_BASE } from './cfgSpace.js';

export interface ClusterCsrRegion {
  name: string;
  /** Offset in the cluster's CSR window. */
  offset: number;
  stride: number;
  words: number;
  table: string;
}

function clusterCsr(name: string): ClusterCsrRegion {
  const r = loadMemoryMap().regions.get(name);
  if (!r || r.kind !== 'cluster_csr' || !r.table) throw new Error(`grammars/pyxis/memory_map.json has no cluster_csr region \`${name}\``);
  // The map gives engine addresses; the CSR window of the CfgSpace starts at engine address CFG_ENGINE_BASE (chip §12.7).
  return { name: r.name, offset: r.address - CFG_ENGINE_BASE, stride: r.stride, words: r.words, table: r.table };
}

export const CLUSTER_CSRS = {
  enqueue: clusterCsr('cluster.enqueue'),
  bt_mem_decrement: clusterCsr('cluster.bt_mem_decrement'),
  barrier_interrupt_config: clusterCsr('cluster.barrier_interrupt_config'),
} as const;

export const CSR_ENQUEUE = CLUSTER_CSRS.enqueue.offset;
export const CSR_BT_MEM_DECREMENT = CLUSTER_CSRS.bt_mem_decrement.offset;
export const CSR_BARRIER_INTERRUPT_CONFIG = CLUSTER_CSRS.barrier_interrupt_config.offset;
/** The lowest cluster CSR offset (the block starts with the enqueue CSR). */
export const CLUSTER_CSR_BASE = Math.min(CSR_ENQUEUE, CSR_BT_MEM_DECREMENT, CSR_BARRIER_INTERRUPT_CONFIG);
/** End of the watched block (exclusive). */
export const CSR_END = Math.max(...Object.values(CLUSTER_CSRS).map((r) => r.offset + r.words * r.stride));
