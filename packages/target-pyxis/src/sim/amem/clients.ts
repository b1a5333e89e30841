/**
 * The clients of a cluster's AMEM bank arbiter (pyxis-chip-fspec.md §6.2, §7, §8.1, §12; docs/timing-model.md
 * "AMEM banks"): client ids, their names in the statistics. The arbitration itself is banks.ts.
 */
/** Bank-claiming ports of one UIE (chip §6.2, seq §5-§8): client id = uie * CLIENTS_PER_UIE + port. */
export const PORT_READ = 0;
export const PORT_WRITE = 1;
export const PORT_WEIGHTS = 2;
export const PORT_ITFE_READ = 3;
export const PORT_ITFE_WRITE = 4;
export const CLIENTS_PER_UIE = 5;
export const PORT_NAMES = ['amem_read', 'amem_write', 'weights_read', 'itfe_read', 'itfe_write'] as const;
/** UIEs per cluster the arbiter has slots for (chip §6: 12). */
export const BANK_UIES = 12;
export const UIE_CLIENTS = BANK_UIES * CLIENTS_PER_UIE;
/**
 * The cluster's DMA engines (chip §8.1, §12; docs/spec-notes.md). Round-robin clients after the UIE ports:
 * the H2A AMEM write, the A2H AMEM read and the three ICDMA source reads (the bulk engines, 1 KiB units). Fixed-priority
 * clients, served before the round-robin and delayed only by resources already granted: the ICDMA destination write
 * (core-switch ingress), the MPE channels and the DPE (NoC side), and `control` (host, loader, dumps).
 */
export const CLIENT_H2A = UIE_CLIENTS;
export const CLIENT_A2H = UIE_CLIENTS + 1;
/** ICDMA engine i's source read: CLIENT_ICDMA + i (i < 3, chip §12.2). */
export const CLIENT_ICDMA = UIE_CLIENTS + 2;
/** Clients of the round-robin: the 60 UIE ports and the 5 bulk DMA clients. */
export const RR_CLIENTS = UIE_CLIENTS + 5;
export const CLIENT_ICDMA_IN = RR_CLIENTS;
export const CLIENT_MPE = RR_CLIENTS + 1;
export const CLIENT_DPE = RR_CLIENTS + 2;
/** Host accesses, image load, dumps: fixed priority. */
export const CLIENT_CONTROL = RR_CLIENTS + 3;
/**
 * The fabric adapter's TxDMA page read (chip §10.7.7, §12.3) and Rx DMA page write (§10.8.8, §12.4), both through the
 * core switch: fixed-priority clients like the ICDMA destination write (MODEL, docs/spec-notes.md fadapter). After
 * `control` so that the round-robin order of the other clients is unchanged.
 */
export const CLIENT_TXDMA = RR_CLIENTS + 4;
export const CLIENT_RXDMA = RR_CLIENTS + 5;
export const N_CLIENTS = RR_CLIENTS + 6;
const DMA_NAMES = ['h2a', 'a2h', 'icdma0', 'icdma1', 'icdma2', 'icdma_in', 'mpe', 'dpe', 'control', 'fabric_txdma', 'fabric_rxdma'] as const;
/** Client id of port `port` of UIE `uie`. */
export function uieClient(uie: number, port: number): number {
  return uie * CLIENTS_PER_UIE + port;
}

/** `uie3.amem_read`, `h2a`, `icdma1`, `control`. */
export function clientName(c: number): string {
  if (c >= UIE_CLIENTS) return DMA_NAMES[c - UIE_CLIENTS] ?? `client${c}`;
  return `uie${Math.floor(c / CLIENTS_PER_UIE)}.${PORT_NAMES[c % CLIENTS_PER_UIE]}`;
}
