/**
 * The cluster's CSR/config window with live registers: a CfgSpace whose reads of hooked ranges (status CSRs such as
 * `csr.seq_status`, `cluster.trip_flush_status`) first refresh the stored bytes from the model state, so every read
 * path (host polling, MPE DMA-mode reads, `--dump-region cfg`) sees the hardware value (docs/simulator.md "CSRs").
 * Writes keep CfgSpace's watchers (side effects of writable CSRs).
 */
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import { CFG_ENGINE_BASE, CfgSpace } from './cfgSpace.js';
import { decodeWindow, nearestRegister, plainMapped, WindowCodes, type WindowSpan } from './csrs.js';
import { SparseMemory } from './memory.js';

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
/** Register addresses are PROJECT-DEFINED (memory_map.json); the window is chip §12.7. */
const MAP_SPEC = 'pyxis-chip-fspec.md §12.7; grammars/pyxis/memory_map.json';

/** Refreshes the live bytes of [addr, addr + len) before a read. */
export type CsrReadHook = (addr: number, len: number) => void;

export class CsrCfgSpace extends CfgSpace {
  private readonly hooks: Array<{ lo: number; hi: number; cb: CsrReadHook }> = [];
  private refreshing = false;
  /**
   * Where the window's decode reports bad accesses (SIM0863-SIM0865, once per address); set by installControlCsrs.
   * Unset (unit tests of the bare space): the accesses are still ignored / masked, silently.
   */
  warn?: (key: string, d: Diagnostic) => void;
  /** Set while a tool reads the window for output (--dump-region cfg): not a bus access, no SIM0864. */
  quiet = false;

  /** Calls `cb` before every read overlapping [lo, hi). */
  onRead(lo: number, hi: number, cb: CsrReadHook): void {
    this.hooks.push({ lo, hi, cb });
  }

  /**
   * The window's decode of a write (chip §12.7; docs/simulator.md "CSRs"): bytes at addresses no memory_map.json region
   * maps are dropped (SIM0863: the address reads 0 afterwards), and bits a CSR does not have (beyond its `bits`, or
   * reserved / pad fields of its table) are cleared (SIM0865) before the bytes are stored and the watchers act.
   */
  override write(addr: number, src: Uint8Array, off: number, len: number): void {
    if (len <= 0 || plainMapped(addr, len)) return super.write(addr, src, off, len);
    let copy: Uint8Array | undefined;
    const own = () => (copy ??= src.slice(off, off + len));
    decodeWindow(
      addr,
      len,
      (lo, hi) => {
        let nonzero = false;
        for (let a = lo; a < hi && !nonzero; a++) nonzero = src[off + a - addr] !== 0;
        own().fill(0, lo - addr, hi - addr);
        this.report('w', lo, hi, nonzero ? this.valueAt(src, off, addr, lo, hi) : undefined);
      },
      (s, lo, hi) => {
        let reported = -1;
        for (let a = lo; a < hi; a++) {
          const m = s.mask![(a - s.lo) % 8]!;
          const b = src[off + a - addr]!;
          if ((b & ~m) === 0) continue;
          own()[a - addr] = b & m;
          const word = a - ((a - s.lo) % 8);
          if (word !== reported) this.reportWidth(s, word, src, off, addr, len);
          reported = word;
        }
      },
    );
    super.write(addr, copy ?? src, copy ? 0 : off, len);
  }

  /** The value written to [lo, hi) (up to 8 bytes, little-endian), for the message. */
  private valueAt(src: Uint8Array, off: number, addr: number, lo: number, hi: number): bigint {
    let v = 0n;
    for (let a = Math.min(hi, lo + 8) - 1; a >= lo; a--) v = (v << 8n) | BigInt(src[off + a - addr]!);
    return v;
  }

  private report(kind: 'r' | 'w', lo: number, hi: number, value?: bigint): void {
    if (!this.warn) return;
    const at = hex(CFG_ENGINE_BASE + lo);
    const n = hi - lo;
    const what = kind === 'w' ? `${n}-byte write${value !== undefined ? ` of ${hex(value)}${n > 8 ? '...' : ''}` : ' of zeros'} ignored` : `${n}-byte read returns 0`;
    this.warn(
      `c${this.cluster}.${kind}.unmapped.${lo}`,
      warning(kind === 'w' ? WindowCodes.unmappedWrite : WindowCodes.unmappedRead, `cluster ${this.cluster}: ${what}: CSR-window address ${at} maps to no register (did you mean ${nearestRegister(lo)}?)`, {
        spec: MAP_SPEC,
        notes: ['the window decodes only the regions of grammars/pyxis/memory_map.json; other addresses read 0 and ignore writes (docs/simulator.md "CSRs")'],
      }),
    );
  }

  private reportWidth(s: WindowSpan, word: number, src: Uint8Array, off: number, addr: number, len: number): void {
    if (!this.warn) return;
    let v = 0n;
    let m = 0n;
    for (let i = 7; i >= 0; i--) {
      const a = word + i;
      v = (v << 8n) | BigInt(a >= addr && a < addr + len ? src[off + a - addr]! : this.byte(a));
      m = (m << 8n) | BigInt(s.mask![i]!);
    }
    const idx = (word - s.lo) / s.stride;
    const words = (s.hi - s.lo) / s.stride;
    const name = `${s.uie >= 0 ? `uie${s.uie} ` : ''}${s.name}${words > 1 ? `[${idx}]` : ''}`;
    this.warn(
      `c${this.cluster}.width.${word}`,
      warning(WindowCodes.widthWrite, `cluster ${this.cluster}: write of ${hex(v)} to ${name} (${hex(CFG_ENGINE_BASE + word)}) sets bits the register does not have (implemented mask ${hex(m)}): it stores ${hex(v & m)}`, {
        spec: MAP_SPEC,
        notes: ['pyxis-ld refuses such a preload (LD0976); the simulator drops the bits as the hardware register would'],
      }),
    );
  }

  override read(addr: number, dst: Uint8Array, off: number, len: number): void {
    if (!this.quiet && this.warn && len > 0 && !this.refreshing && !plainMapped(addr, len)) decodeWindow(addr, len, (lo, hi) => this.report('r', lo, hi));
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

  /** The window's bytes for tool output (--dump-region cfg): live values through the read hooks, no SIM0864. */
  dumpBytes(addr: number, len: number): Uint8Array {
    this.quiet = true;
    try {
      return this.readBytes(addr, len);
    } finally {
      this.quiet = false;
    }
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
