/**
 * What the control plane (DMA engines, MPE, DPE, loader, dumps) needs from a
 * cluster's AMEM: byte reads/writes at a 27-bit view address (bit 26 = view:
 * 0 hashed, 1 unhashed, chip §7.1). The AMEM model itself is the UIE
 * datapath's (`Amem` in targets/pyxis/amem/), which implements this shape.
 */
import type { AmemBanks } from './amem/banks.js';

/** Bytes of one AMEM (chip §7); the one definition is common/amem.ts. */
export { AMEM_BYTES as AMEM_SIZE } from '../common/amem.js';

export interface AmemAccess {
  /** `client`: the AMEM bank client making the access (amem/banks.ts; default the host/control client). */
  readBytes(addr: number, len: number, client?: number): Uint8Array;
  writeBytes(addr: number, data: Uint8Array, client?: number): void;
  /**
   * Optional allocation-free forms of `readBytes` / `writeBytes` for whole 128-byte words at a 128-byte-aligned
   * address (the same bytes, statistics and bank claim; amem/amem.ts), used by the DMA engines when present.
   */
  readWords32?(addr: number, len: number, dst32: Uint32Array, w: number, client: number): void;
  writeWords32?(addr: number, src32: Uint32Array, w: number, len: number, client: number): void;
  /** The cycle the last access was served by the bank arbiter (-1 or absent: untimed). */
  readonly servedAt?: number;
  /** The bank arbiter, for round-robin DMA clients that settle their claims (dmaBankPort.ts). */
  readonly banks?: AmemBanks;
}
