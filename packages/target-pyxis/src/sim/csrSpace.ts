/**
 * The cluster's CSR/config window with live registers: a CfgSpace whose reads of hooked ranges (status CSRs such as
 * `csr.seq_status`, `cluster.trip_flush_status`) first refresh the stored bytes from the model state, so every read
 * path (host polling, MPE DMA-mode reads, `--dump-region cfg`) sees the hardware value (docs/simulator.md "CSRs").
 * Writes keep CfgSpace's watchers (side effects of writable CSRs).
 */
import { CfgSpace } from './cfgSpace.js';
import { SparseMemory } from './memory.js';

/** Refreshes the live bytes of [addr, addr + len) before a read. */
export type CsrReadHook = (addr: number, len: number) => void;

export class CsrCfgSpace extends CfgSpace {
  private readonly hooks: Array<{ lo: number; hi: number; cb: CsrReadHook }> = [];
  private refreshing = false;

  /** Calls `cb` before every read overlapping [lo, hi). */
  onRead(lo: number, hi: number, cb: CsrReadHook): void {
    this.hooks.push({ lo, hi, cb });
  }

  override read(addr: number, dst: Uint8Array, off: number, len: number): void {
    if (!this.refreshing && this.hooks.length > 0) {
      const end = addr + len;
      for (const h of this.hooks)
        if (addr < h.hi && end > h.lo) {
          this.refreshing = true;
          try {
            h.cb(addr, len);
          } finally {
            this.refreshing = false;
          }
        }
    }
    super.read(addr, dst, off, len);
  }

  /** Stores a live register value (64-bit little-endian word at `addr`) without write side effects. */
  store64(addr: number, value: bigint): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
    SparseMemory.prototype.write.call(this, addr, b, 0, 8);
  }

  /** The stored 64-bit word at `addr` (no read hooks, no statistics). */
  peek64(addr: number): bigint {
    let v = 0n;
    for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(this.byte(addr + i));
    return v;
  }

  /** Reads the 64-bit word at `addr` through the read hooks (a software CSR read). */
  read64(addr: number): bigint {
    const b = new Uint8Array(8);
    this.read(addr, b, 0, 8);
    return new DataView(b.buffer).getBigUint64(0, true);
  }
}
