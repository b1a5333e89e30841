/**
 * CfgSpace: the per-cluster CSR/config space (window 1 of the 32-bit MPE/DPE
 * engine view, chip §12.7; docs/image-layout.md), addressed by the *offset*
 * inside the window (engine address 0x4000_0000 + offset). It holds the UIE
 * sequencer microcode memories, configuration tables and CSRs at the offsets
 * of grammars/pyxis/memory_map.json (UIE u at u*uie_stride + region offset),
 * plus the cluster CSRs the simulator defines (clusterCsr.ts).
 *
 * NOTE to the UIE model (helper F): read your microcode/config tables with
 * `readBytes`/`read`/`read32`; writes by the MPE (patch/DMA mode) go through
 * `write`, which bumps `generation` and calls watchers registered with
 * `watch(lo, hi, cb)`, so a UIE can re-decode a patched memory lazily.
 */
import { SparseMemory } from './memory.js';

export const CFG_WINDOW_SIZE = 1 << 30;
/** Engine address of the CSR/config window (window 1 of the 32-bit engine address space, chip §12.7). */
export const CFG_ENGINE_BASE = 0x4000_0000;

export type CfgWriteHook = (offset: number, data: Uint8Array, off: number, len: number) => void;

interface Watch {
  lo: number;
  hi: number;
  cb: CfgWriteHook;
}

export class CfgSpace extends SparseMemory {
  /** Incremented on every write (cheap staleness check for decoded caches). */
  generation = 0;
  private readonly watches: Watch[] = [];
  constructor(readonly cluster: number) {
    super(`c${cluster}.cfg`, CFG_WINDOW_SIZE);
  }
  /** Calls `cb` after every write overlapping [lo, hi). */
  watch(lo: number, hi: number, cb: CfgWriteHook): void {
    this.watches.push({ lo, hi, cb });
  }
  override write(addr: number, src: Uint8Array, off: number, len: number): void {
    super.write(addr, src, off, len);
    this.generation++;
    for (const w of this.watches) if (addr < w.hi && addr + len > w.lo) w.cb(addr, src, off, len);
  }
  /** Zero-fills like SparseMemory (no RAM for untouched pages) and tells the watchers of the overlapped memories. */
  override fill(addr: number, len: number, value = 0): void {
    if (value !== 0) return super.fill(addr, len, value);
    super.fill(addr, len, 0);
    this.generation++;
    for (const w of this.watches) {
      const lo = Math.max(addr, w.lo);
      const hi = Math.min(addr + len, w.hi);
      if (lo < hi) w.cb(lo, new Uint8Array(hi - lo), 0, hi - lo);
    }
  }
  read32(addr: number): number {
    const b = new Uint8Array(4);
    this.read(addr, b, 0, 4);
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }
  write32(addr: number, value: number): void {
    const b = new Uint8Array([value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]);
    this.write(addr, b, 0, 4);
  }
}
