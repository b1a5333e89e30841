/**
 * Cluster-level CSRs the simulator models in each cluster's CSR/config window
 * (PROJECT-DEFINED offsets: the spec defers addresses to the register
 * programming guide, and grammars/pyxis/memory_map.json only maps the UIEs,
 * which occupy offsets below 12 MiB). Writes (from image preload or MPE
 * patches/DMA) have the side effects of the spec:
 * - ENQUEUE: the descriptor-list enqueue CSR target (chip §11.5.1.1, Table 11-2; `desc_enqueue_record`)
 * - BT_MEM_DECREMENT[1024]: software barrier decrements (chip §11.6.6; `barrier_decr_cnt`)
 * - BARRIER_INTERRUPT_CONFIG[8]: (chip §11.6.5; `barrier_interrupt_config`)
 */
export const CLUSTER_CSR_BASE = 0x00f0_0000;
export const CSR_ENQUEUE = CLUSTER_CSR_BASE + 0x0000;
export const CSR_BT_MEM_DECREMENT = CLUSTER_CSR_BASE + 0x1000;
export const CSR_BARRIER_INTERRUPT_CONFIG = CLUSTER_CSR_BASE + 0x3000;
export const CSR_END = CLUSTER_CSR_BASE + 0x3040;
