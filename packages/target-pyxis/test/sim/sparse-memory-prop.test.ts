/**
 * Issue 23 (memory flat): the sparse HBM store (pages allocated on the first non-zero write, zero ranges, pages
 * borrowed from the image's buffers by `load` and copied on their first write) behaves exactly like a plain dense
 * byte array with a "written" flag per page: random writes, fills, loads, reads, `byte`, `hasData`, the traffic
 * and uninitialised-read counters and `--dump-region` dumps (tensor-mode and striped) against a reference written here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HbmMemory, PAGE_SIZE } from '../../src/sim/memory.js';
import { dumpRegion } from '../../src/sim/dump.js';
import type { PyxisChip } from '../../src/sim/chip.js';

const PAGES = 8;
const SIZE = PAGES * PAGE_SIZE;

/** The reference: dense bytes, per page written (any byte, zero or not) and holding data (a non-zero byte written). */
class Dense {
  bytes = new Uint8Array(SIZE);
  written = new Uint8Array(PAGES);
  data = new Uint8Array(PAGES);
  bytesRead = 0;
  bytesWritten = 0;
  uninitReads = 0;
  write(addr: number, src: Uint8Array): void {
    this.bytesWritten += src.length;
    for (let i = 0; i < src.length; i++) {
      const p = Math.floor((addr + i) / PAGE_SIZE);
      this.written[p] = 1;
      if (src[i] !== 0) this.data[p] = 1;
      this.bytes[addr + i] = src[i]!;
    }
  }
  fill(addr: number, len: number, v: number): void {
    if (len <= 0) return;
    if (v !== 0) return this.write(addr, new Uint8Array(len).fill(v));
    this.bytesWritten += len;
    this.bytes.fill(0, addr, addr + len);
    for (let p = Math.floor(addr / PAGE_SIZE); p < Math.ceil((addr + len) / PAGE_SIZE); p++) this.written[p] = 1;
  }
  read(addr: number, len: number): Uint8Array {
    this.bytesRead += len;
    for (let i = 0; i < len; i++) if (!this.written[Math.floor((addr + i) / PAGE_SIZE)]) this.uninitReads++;
    return this.bytes.slice(addr, addr + len);
  }
  hasData(addr: number, len: number): boolean {
    if (len <= 0) return false;
    for (let p = Math.floor(addr / PAGE_SIZE); p < Math.ceil((addr + len) / PAGE_SIZE); p++) if (this.data[p]) return true;
    return false;
  }
}

/** chip §8.2.1 Table 8-1 (channel of each 8-byte block of a 128-byte row) and §8.2.2 Table 8-2 (1 KiB stripes). */
const ORDER = [14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1];
const striped = (t: number) => {
  const off = Math.floor(t / 128) * 8 + (t % 8);
  return Math.floor(off / 1024) * 16 * 1024 + ORDER[Math.floor((t % 128) / 8)]! * 1024 + (off % 1024);
};

/** Random bytes with runs of zeros (whole zero pages included) so that every storage case is drawn. */
const bytesArb = (max: number) =>
  fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 3 }), fc.integer()).map(([n, kind, seed]) => {
    const b = new Uint8Array(n);
    let s = seed >>> 0 || 1;
    for (let i = 0; i < n; i++) {
      s = (s * 1103515245 + 12345) >>> 0;
      // kind 0: all zero; 1: sparse non-zero; 2: dense; 3: non-zero only in the first page's worth
      b[i] = kind === 0 ? 0 : kind === 1 ? (s >>> 28 === 0 ? s >>> 20 : 0) & 0xff : kind === 2 ? (s >>> 16) & 0xff : i < PAGE_SIZE ? (s >>> 16) & 0xff : 0;
    }
    return b;
  });
const addrArb = fc.integer({ min: 0, max: SIZE - 1 });
const op = fc.oneof(
  fc.record({ k: fc.constant('write' as const), addr: addrArb, src: bytesArb(PAGE_SIZE + 300) }),
  fc.record({ k: fc.constant('load' as const), addr: fc.oneof(addrArb, addrArb.map((a) => a - (a % PAGE_SIZE))), src: bytesArb(3 * PAGE_SIZE + 5) }),
  fc.record({ k: fc.constant('fill' as const), addr: addrArb, len: fc.integer({ min: 0, max: 2 * PAGE_SIZE + 9 }), v: fc.constantFrom(0, 0, 7, 255) }),
  fc.record({ k: fc.constant('read' as const), addr: addrArb, len: fc.integer({ min: 0, max: 2 * PAGE_SIZE }) }),
  fc.record({ k: fc.constant('byte' as const), addr: addrArb }),
  fc.record({ k: fc.constant('hasData' as const), addr: addrArb, len: fc.integer({ min: 0, max: 3 * PAGE_SIZE }) }),
);

describe('sparse HBM store vs a dense reference', () => {
  it('random writes / fills / loads / reads / dumps agree byte for byte, counters included; loaded buffers stay unchanged', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const m = new HbmMemory();
        const d = new Dense();
        const loaded: Array<[Uint8Array, Uint8Array]> = [];
        for (const o of ops) {
          if (o.k === 'write' || o.k === 'load') {
            const n = Math.min(o.src.length, SIZE - o.addr);
            const src = o.src.subarray(0, n);
            if (o.k === 'load') {
              m.load(o.addr, src);
              loaded.push([src, src.slice()]);
            } else m.writeBytes(o.addr, src);
            d.write(o.addr, src);
          } else if (o.k === 'fill') {
            const n = Math.min(o.len, SIZE - o.addr);
            m.fill(o.addr, n, o.v);
            d.fill(o.addr, n, o.v);
          } else if (o.k === 'read') {
            const n = Math.min(o.len, SIZE - o.addr);
            expect(Buffer.from(m.readBytes(o.addr, n)).equals(Buffer.from(d.read(o.addr, n)))).toBe(true);
          } else if (o.k === 'byte') expect(m.byte(o.addr)).toBe(d.bytes[o.addr]);
          else expect(m.hasData(o.addr, Math.min(o.len, SIZE - o.addr))).toBe(d.hasData(o.addr, Math.min(o.len, SIZE - o.addr)));
          expect([m.bytesRead, m.bytesWritten, m.uninitReads]).toEqual([d.bytesRead, d.bytesWritten, d.uninitReads]);
          expect(m.allocated).toBe(d.data.reduce((a, x) => a + x, 0) * PAGE_SIZE);
        }
        // dumps of the whole window, tensor-mode and striped (chip §8.2.2): what `--dump-region` writes
        const chip = { hbm: m, clusters: 1 } as unknown as PyxisChip;
        const flat = dumpRegion(chip, { space: 'hbm', cluster: 0, addr: 0, len: SIZE, file: 'x' }) as Uint8Array;
        expect(Buffer.from(flat).equals(Buffer.from(d.bytes))).toBe(true);
        const st = dumpRegion(chip, { space: 'hbm_striped', cluster: 0, addr: 0, len: SIZE, file: 'x' }) as Uint8Array;
        const want = new Uint8Array(SIZE);
        for (let t = 0; t < SIZE; t++) want[striped(t)] = d.bytes[t]!;
        expect(Buffer.from(st).equals(Buffer.from(want))).toBe(true);
        // copy-on-write: no write reached a loaded buffer
        for (const [src, copy] of loaded) expect(Buffer.from(src).equals(Buffer.from(copy))).toBe(true);
      }),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 60) },
    );
  });

  it('load borrows whole pages (no copy) and a write copies only the page it touches', () => {
    const m = new HbmMemory();
    const src = new Uint8Array(3 * PAGE_SIZE + 100).fill(5);
    m.load(PAGE_SIZE - 50, src);
    // pages 1, 2, 3 lie wholly inside `src`: borrowed; the partial first and last pages are copies
    expect(m.borrowedBytes).toBe(3 * PAGE_SIZE);
    expect(m.allocated).toBe(5 * PAGE_SIZE);
    m.writeBytes(2 * PAGE_SIZE + 3, new Uint8Array([9]));
    expect(m.borrowedBytes).toBe(2 * PAGE_SIZE);
    expect(src[PAGE_SIZE + 53]).toBe(5);
    expect(m.byte(2 * PAGE_SIZE + 3)).toBe(9);
    m.fill(3 * PAGE_SIZE, 10, 0);
    expect(m.borrowedBytes).toBe(PAGE_SIZE);
    expect(src.every((x) => x === 5)).toBe(true);
  });
});
