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

  /** Scratch word (no allocation per register access: software may poll a register every cycle). */
  private readonly word = new Uint8Array(8);
  private readonly wordView = new DataView(this.word.buffer);
  /** The two 32-bit halves of the last `readWord`. */
  readonly lastWord = new Uint32Array(2);

  /** Stores a live register value (64-bit little-endian word at `addr`, value < 2^53) without write side effects. */
  storeWord(addr: number, value: number): void {
    this.wordView.setUint32(0, value >>> 0, true);
    this.wordView.setUint32(4, Math.floor(value / 2 ** 32) >>> 0, true);
    SparseMemory.prototype.write.call(this, addr, this.word, 0, 8);
  }

  /** Stores a live 64-bit register value from its 32-bit halves (no write side effects). */
  storeHalves(addr: number, lo: number, hi: number): void {
    this.wordView.setUint32(0, lo >>> 0, true);
    this.wordView.setUint32(4, hi >>> 0, true);
    SparseMemory.prototype.write.call(this, addr, this.word, 0, 8);
  }

  /** Reads the 64-bit word at `addr` through the read hooks into `lastWord` (low, high halves). */
  readWord(addr: number): Uint32Array {
    this.read(addr, this.word, 0, 8);
    this.lastWord[0] = this.wordView.getUint32(0, true);
    this.lastWord[1] = this.wordView.getUint32(4, true);
    return this.lastWord;
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
