/** The fabric adapter of a Pyxis chip (chip §10) and the chip / system fabric boundary (port.ts). */
export * from './port.js';
export * from './params.js';
export * from './header.js';
export * from './stats.js';
export * from './rings.js';
export { FabricAdapter, RdmaQueueEngine, RDMA_TX_QID, RDMA_RX_QID, DGRAM_TX_QID, DGRAM_RX_QID } from './adapter.js';
