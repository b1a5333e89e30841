/**
 * Sparse byte-addressed memories for the big address spaces the simulator
 * models (HBM: up to 2^36 bytes; the 1 GiB CSR/config window per cluster).
 * Pages of 64 KiB are allocated on the first write of a non-zero byte:
 * zero-filled sections (`fill(.., 0)`) are kept as page ranges and writes of
 * all-zero bytes to a page not yet allocated only mark it, so a 32 GiB zero
 * section costs no RAM. Reads of never-written bytes return 0 and are counted
 * (`uninitReads`) for the optional "read of uninitialised memory" warning;
 * a page counts as written once any byte of it was (zero or not).
 *
 * `load` (the image's sections, image.ts) does not copy whole pages: a page that one loaded buffer covers entirely is
 * a view of that buffer ("borrowed"), copied only on its first write (copy-on-write), so a chip holds the image's
 * payload once, not twice, and the chips of a system loaded from one image share it. Every observable result (bytes,
 * counters, `allocated`, `hasData`) is that of `writeBytes` of the same bytes.
 */
export const PAGE_BITS = 16;
export const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

function allZero(src: Uint8Array, off: number, n: number): boolean {
  for (let i = off, end = off + n; i < end; i++) if (src[i] !== 0) return false;
  return true;
}

export class SparseMemory {
  private readonly pages = new Map<number, Uint8Array>();
  /** Pages that are views of a loaded buffer (`load`), not owned: copied before their first write. */
  private readonly borrowed = new Set<number>();
  /**
   * Pages written with zeros only and never allocated: sorted, disjoint, non-adjacent
   * half-open page ranges, flattened [start0, end0, start1, end1, ...].
   */
  private zeroRanges: number[] = [];
  /** Bytes read from pages never written. */
  uninitReads = 0;
  bytesRead = 0;
  bytesWritten = 0;
  constructor(
    readonly name: string,
    /** Exclusive upper bound of valid addresses. */
    readonly size: number,
  ) {}

  private page(p: number, create: boolean): Uint8Array | undefined {
    let pg = this.pages.get(p);
    if (!pg && create) {
      pg = new Uint8Array(PAGE_SIZE);
      this.pages.set(p, pg);
    }
    return pg;
  }

  /** Index of the last range starting at or before page `p` (-1 if none), in range units. */
  private rangeAt(p: number): number {
    const r = this.zeroRanges;
    let lo = 0;
    let hi = r.length / 2 - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (r[2 * mid]! <= p) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Whether page `p` (not allocated) was written with zeros only. */
  private zeroPage(p: number): boolean {
    const i = this.rangeAt(p);
    return i >= 0 && p < this.zeroRanges[2 * i + 1]!;
  }

  /** Marks pages [first, end) as written with zeros (merging with neighbouring ranges). */
  private markZeroPages(first: number, end: number): void {
    if (first >= end) return;
    const r = this.zeroRanges;
    // ranges overlapping or touching [first, end)
    let i = this.rangeAt(first);
    if (i < 0 || r[2 * i + 1]! < first) i++;
    let j = i;
    let s = first;
    let e = end;
    while (2 * j < r.length && r[2 * j]! <= end) {
      s = Math.min(s, r[2 * j]!);
      e = Math.max(e, r[2 * j + 1]!);
      j++;
    }
    r.splice(2 * i, 2 * (j - i), s, e);
  }

  inRange(addr: number, len: number): boolean {
    return Number.isInteger(addr) && addr >= 0 && len >= 0 && addr + len <= this.size;
  }

  /** Copies `len` bytes at `addr` into `dst[off..]`. */
  read(addr: number, dst: Uint8Array, off: number, len: number): void {
    this.bytesRead += len;
    while (len > 0) {
      const p = Math.floor(addr / PAGE_SIZE);
      const o = addr - p * PAGE_SIZE;
      const n = Math.min(len, PAGE_SIZE - o);
      const pg = this.page(p, false);
      if (pg) dst.set(pg.subarray(o, o + n), off);
      else {
        dst.fill(0, off, off + n);
        if (!this.zeroPage(p)) this.uninitReads += n;
      }
      addr += n;
      off += n;
      len -= n;
    }
  }

  /** Copies `len` bytes from `src[off..]` to `addr`. */
  write(addr: number, src: Uint8Array, off: number, len: number): void {
    this.bytesWritten += len;
    while (len > 0) {
      const p = Math.floor(addr / PAGE_SIZE);
      const o = addr - p * PAGE_SIZE;
      const n = Math.min(len, PAGE_SIZE - o);
      const pg = this.pages.get(p);
      if (pg) (this.borrowed.size > 0 && this.borrowed.has(p) ? this.own(p) : pg).set(src.subarray(off, off + n), o);
      else if (allZero(src, off, n)) this.markZeroPages(p, p + 1);
      else this.page(p, true)!.set(src.subarray(off, off + n), o);
      addr += n;
      off += n;
      len -= n;
    }
  }

  /** Copy-on-write: page `p` (borrowed) becomes an owned copy, returned. */
  private own(p: number): Uint8Array {
    const pg = new Uint8Array(PAGE_SIZE);
    pg.set(this.pages.get(p)!);
    this.pages.set(p, pg);
    this.borrowed.delete(p);
    return pg;
  }

  /**
   * `writeBytes(addr, data)` without copying the pages `data` covers entirely: they become views of `data` (borrowed,
   * copied on their first write). The caller must not change `data` afterwards (the image's section bytes).
   */
  load(addr: number, data: Uint8Array): void {
    const first = Math.ceil(addr / PAGE_SIZE);
    const end = Math.floor((addr + data.length) / PAGE_SIZE);
    if (end <= first) return this.writeBytes(addr, data);
    const head = first * PAGE_SIZE - addr;
    this.write(addr, data, 0, head);
    for (let p = first; p < end; p++) {
      const off = (p - first) * PAGE_SIZE + head;
      const pg = this.pages.get(p);
      if (pg) {
        // already holds data: the whole page is replaced (an owned page keeps its buffer)
        if (this.borrowed.has(p)) this.pages.set(p, data.subarray(off, off + PAGE_SIZE));
        else pg.set(data.subarray(off, off + PAGE_SIZE));
      } else if (allZero(data, off, PAGE_SIZE)) this.markZeroPages(p, p + 1);
      else {
        this.pages.set(p, data.subarray(off, off + PAGE_SIZE));
        this.borrowed.add(p);
      }
    }
    this.bytesWritten += (end - first) * PAGE_SIZE;
    const tail = end * PAGE_SIZE;
    this.write(tail, data, tail - addr, addr + data.length - tail);
  }

  readBytes(addr: number, len: number): Uint8Array {
    const out = new Uint8Array(len);
    this.read(addr, out, 0, len);
    return out;
  }
  writeBytes(addr: number, data: Uint8Array): void {
    this.write(addr, data, 0, data.length);
  }
  /**
   * Sets `len` bytes at `addr` to `value`. Zero costs no RAM for pages not yet allocated (their range is
   * recorded); allocated pages are cleared byte-exactly. Counts as written.
   */
  fill(addr: number, len: number, value = 0): void {
    if (len <= 0) return;
    if (value !== 0) {
      const z = new Uint8Array(Math.min(len, PAGE_SIZE)).fill(value);
      while (len > 0) {
        const n = Math.min(len, z.length);
        this.write(addr, z, 0, n);
        addr += n;
        len -= n;
      }
      return;
    }
    this.bytesWritten += len;
    const first = Math.floor(addr / PAGE_SIZE);
    const end = Math.ceil((addr + len) / PAGE_SIZE);
    // Allocated pages in the range: visit whichever is fewer, the pages of the range or the allocated ones.
    if (end - first <= this.pages.size) {
      for (let p = first; p < end; p++) this.clearIn(p, addr, len);
    } else for (const p of this.pages.keys()) if (p >= first && p < end) this.clearIn(p, addr, len);
    this.markZeroPages(first, end);
  }
  private clearIn(p: number, addr: number, len: number): void {
    let pg = this.pages.get(p);
    if (!pg) return;
    if (this.borrowed.has(p)) pg = this.own(p);
    const lo = Math.max(addr, p * PAGE_SIZE) - p * PAGE_SIZE;
    const hi = Math.min(addr + len, (p + 1) * PAGE_SIZE) - p * PAGE_SIZE;
    pg.fill(0, lo, hi);
  }
  /** Byte at addr (0 when never written). */
  byte(addr: number): number {
    const pg = this.pages.get(addr >>> 0 === addr ? addr >>> PAGE_BITS : Math.floor(addr / PAGE_SIZE));
    return pg ? pg[addr & PAGE_MASK]! : 0;
  }
  /** Whether any byte of [addr, addr+len) lies in a page that holds non-zero data (false: all zero). */
  hasData(addr: number, len: number): boolean {
    if (len <= 0) return false;
    const first = Math.floor(addr / PAGE_SIZE);
    const end = Math.ceil((addr + len) / PAGE_SIZE);
    if (end - first <= this.pages.size) {
      for (let p = first; p < end; p++) if (this.pages.has(p)) return true;
      return false;
    }
    for (const p of this.pages.keys()) if (p >= first && p < end) return true;
    return false;
  }
  /** Bytes allocated (for stats): pages holding data, borrowed ones included (as if `load` had copied them). */
  get allocated(): number {
    return this.pages.size * PAGE_SIZE;
  }
  /** Bytes of pages that are views of loaded buffers (`load`), not copies: the host RAM `load` saved. */
  get borrowedBytes(): number {
    return this.borrowed.size * PAGE_SIZE;
  }
}

/**
 * HBM (chip §8). The image and the H2A/A2H engines use tensor-mode byte
 * addresses (§8.2.1), so HBM is stored as a flat array in tensor-mode order.
 * The functions below give the physical placement (channel, channel offset)
 * of Table 8-1 and the striped-mode address of Table 8-2, for dumps and for
 * the per-channel byte counters.
 */
export const HBM_CHANNELS = 16;
/** Channel of the i-th 8-byte block within a 128-byte row (Table 8-1: {14,15,12,13,...,0,1}). */
export const TENSOR_MODE_CHANNEL_ORDER: readonly number[] = [14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1];

/** Tensor-mode byte address -> (HBM channel, byte offset inside that channel). chip §8.2.1, Table 8-1. */
export function tensorModeLocation(addr: number): { channel: number; offset: number } {
  const row = Math.floor(addr / 128);
  const block = Math.floor((addr % 128) / 8);
  return { channel: TENSOR_MODE_CHANNEL_ORDER[block]!, offset: row * 8 + (addr % 8) };
}

/** (channel, channel offset) -> striped-mode byte address (1 KiB stripes over 16 channels). chip §8.2.2, Table 8-2. */
export function stripedModeAddress(channel: number, offset: number): number {
  const stripe = Math.floor(offset / 1024);
  return stripe * 16 * 1024 + channel * 1024 + (offset % 1024);
}

/** Striped-mode byte address -> tensor-mode byte address (inverse of the two maps above). chip §8.3. */
export function stripedToTensorMode(striped: number): number {
  const stripe = Math.floor(striped / (16 * 1024));
  const channel = Math.floor((striped % (16 * 1024)) / 1024);
  const offset = stripe * 1024 + (striped % 1024);
  const row = Math.floor(offset / 8);
  const block = TENSOR_MODE_CHANNEL_ORDER.indexOf(channel);
  return row * 128 + block * 8 + (offset % 8);
}

/** HBM byte address range modelled (36 address bits: `HBM base address[35:10]`, chip §11.4.3). */
export const HBM_SIZE = 2 ** 36;

export class HbmMemory extends SparseMemory {
  constructor() {
    super('hbm', HBM_SIZE);
  }
}
