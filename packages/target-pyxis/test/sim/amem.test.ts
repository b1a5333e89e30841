import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Amem, amemPhysical, amemBank, AMEM_VIEW_BIT } from '../../src/sim/amem/index.js';
import { Rig, loops, strides, bytes } from './uie-fixture.js';

describe('AMEM addressing and bank hashing (chip §7.1, §7.5)', () => {
  it('hash golden values: addr[13:7] ^= addr[20:14] in the hashed view only', () => {
    expect(amemPhysical(0x4000)).toBe(0x4080);
    expect(amemPhysical(0x4000 | AMEM_VIEW_BIT)).toBe(0x4000);
    expect(amemPhysical(0x1fc000)).toBe(0x1fff80);
    expect(amemPhysical(0x1fc000 + 0x3f80 + 5)).toBe(0x1fc005);
    // bits above 20 do not take part
    expect(amemPhysical(0x200000)).toBe(0x200000);
  });

  it('a power-of-two stride of 16 KiB visits every bank when hashed, one bank when not', () => {
    const hashed = new Set<number>();
    const plain = new Set<number>();
    for (let k = 0; k < 128; k++) {
      hashed.add(amemBank(amemPhysical(k * 16384)));
      plain.add(amemBank(amemPhysical((k * 16384) | AMEM_VIEW_BIT)));
    }
    expect(hashed.size).toBe(128);
    expect(plain.size).toBe(1);
  });

  it('hashing permutes the words of each 16 KiB block (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4095 }), (blk) => {
        const seen = new Set<number>();
        for (let w = 0; w < 128; w++) {
          const p = amemPhysical(blk * 16384 + w * 128);
          expect(p >>> 14).toBe(blk);
          seen.add(p);
        }
        expect(seen.size).toBe(128);
      }),
      { numRuns: 200 },
    );
  });

  it('the two views of one address reach different bytes; each view reads back its own writes', () => {
    const m = new Amem();
    const a = bytes(300, 5);
    m.writeBytes(0x4000 + 40, a);
    expect(m.readBytes(0x4000 + 40, 300)).toEqual(a);
    // hashed 0x4000 is physical 0x4080 = unhashed 0x4080
    expect(m.readBytes(0x4080 | AMEM_VIEW_BIT, 16)).toEqual(m.readBytes(0x4000, 16));
    expect(m.stats.viewConflicts).toBe(0);
    m.readPartition(0x4080 | AMEM_VIEW_BIT, new Uint8Array(16), 0);
    expect(m.stats.viewConflicts).toBe(1);
    expect(m.firstViewConflict).toContain('§7.5');
  });

  it('a block written with zeros only, without storage (touchZero), reads like one written with zeros: no uninitialised reads', () => {
    // reference: the same blocks written with zeros through writeBytes (storage made); every read path after it
    const reads = (m: Amem): unknown => {
      const p8 = new Uint8Array(16);
      const w32 = new Uint32Array(32);
      m.readPartition(0x8010, p8, 0);
      m.readPartition32(0x8020, w32, 0);
      m.readWord32(0x8080, w32, 0);
      m.readWordPerm32(0xc000, w32, 0, [7, 6, 5, 4, 3, 2, 1, 0]);
      const b = m.readWordAt(amemPhysical(0x8100), 0);
      return { p8: [...p8], w32: [...w32], b: b ? [...b.subarray(0, 32)] : 'none', uninit: m.stats.uninitReads, blocks: m.allocatedBlocks, written: m.written(amemPhysical(0x8000)) };
    };
    const ref = new Amem();
    ref.writeBytes(0x8000, new Uint8Array(128));
    ref.writeBytes(0xc000, new Uint8Array(128));
    ref.stats.bytesWritten = 0;
    const m = new Amem();
    m.touchZero(amemPhysical(0x8000));
    m.touchZero(amemPhysical(0xc000));
    expect(m.blockAt(amemPhysical(0x8000))).toBeUndefined();
    const r = reads(m) as { uninit: number };
    expect(r.uninit).toBe(0);
    expect(r).toEqual({ ...(reads(ref) as object), b: 'none' });
    // a never-written block: uninitialised reads
    expect((reads(new Amem()) as { uninit: number }).uninit).toBeGreaterThan(0);
  });

  it('allocates lazily per 16 KiB block and reads unwritten memory as zero', () => {
    const m = new Amem();
    expect(m.allocatedBlocks).toBe(0);
    m.writeBytes(60 * 1024 * 1024 + 3, new Uint8Array([1, 2, 3]));
    expect(m.allocatedBlocks).toBe(1);
    const p = new Uint8Array(16);
    m.readPartition(0x100, p, 0);
    expect(p).toEqual(new Uint8Array(16));
    expect(m.stats.uninitReads).toBe(1);
  });

  it('byte-granular writes round-trip across word and block boundaries (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: (1 << 26) - 4096 }), fc.integer({ min: 1, max: 3000 }), fc.boolean(), (addr, len, view) => {
        const m = new Amem();
        m.checkViews = false;
        const d = bytes(len, addr + 1);
        const a = addr | (view ? AMEM_VIEW_BIT : 0);
        m.writeBytes(a, d);
        expect(m.readBytes(a, len)).toEqual(d);
      }),
      { numRuns: 100 },
    );
  });

  it('partition writes merge under a byte mask (chip §7.4)', () => {
    const m = new Amem();
    m.writeBytes(0x100, new Uint8Array(16).fill(7));
    m.writePartition(0x100, new Uint8Array(16).fill(9), 0, 0b0000000011110000);
    expect(Array.from(m.readBytes(0x100, 16))).toEqual([7, 7, 7, 7, 9, 9, 9, 9, 7, 7, 7, 7, 7, 7, 7, 7]);
  });

  it('a UIE copy through the hashed view lands at the hashed physical location', () => {
    const r = new Rig();
    const src = bytes(128, 11);
    r.amem.writeBytes(0, src);
    r.prog('amem_read', 0, loops([{ n: 1 }]), { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', iter_stride: strides() });
    r.prog('amem_write', 0, loops([{ n: 1 }]), { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', iter_stride: strides() });
    r.trip({ amem_write_base_address: 0x4000 >> 4 }); // hashed view
    r.run();
    expect(r.amem.readBytes(0x4000, 128)).toEqual(src);
    expect(r.amem.readBytes(0x4080 | AMEM_VIEW_BIT, 128)).toEqual(src);
  });
});
