/**
 * What the control plane (DMA engines, MPE, DPE, loader, dumps) needs from a
 * cluster's AMEM: byte reads/writes at a 27-bit view address (bit 26 = view:
 * 0 hashed, 1 unhashed, chip §7.1). The AMEM model itself is the UIE
 * datapath's (`Amem` in targets/pyxis/amem/), which implements this shape.
 */
/** Bytes of one AMEM (chip §7); the one definition is common/amem.ts. */
export { AMEM_BYTES as AMEM_SIZE } from '../common/amem.js';

export interface AmemAccess {
  readBytes(addr: number, len: number): Uint8Array;
  writeBytes(addr: number, data: Uint8Array): void;
}
