/**
 * Issue 15: HBM (and the cfg window) are sparse: pages are allocated on the first write of a non-zero byte, so
 * zero-filled sections of 1 GiB or 32 GiB cost no RAM; `--dump-region` of a huge region streams to the file
 * (never-written chunks as holes) and `--dump` of a tensor too large to hold is refused before the run.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '@pyxis/container';
import { DiagnosticError } from '@pyxis/diagnostics';
import { HbmMemory, PAGE_SIZE, SparseMemory, stripedToTensorMode } from '../../src/sim/memory.js';
import { checkDumpSpecs, dumpRegion, DUMP_CHUNK_BYTES, simulateImage } from '../../src/sim/index.js';
import { ImageBuilder } from './pyxisImage.js';

const GiB = 1024 ** 3;

describe('SparseMemory', () => {
  it('a zero fill of 32 GiB allocates nothing; its bytes read as written zeros', () => {
    const m = new HbmMemory();
    m.fill(5, 32 * GiB, 0);
    expect(m.allocated).toBe(0);
    const b = m.readBytes(16 * GiB, 100);
    expect(b.every((x) => x === 0)).toBe(true);
    expect(m.uninitReads).toBe(0);
    // beyond the filled range: never written
    m.readBytes(32 * GiB + PAGE_SIZE, 10);
    expect(m.uninitReads).toBe(10);
  });

  it('writes of zeros to unallocated pages allocate nothing; non-zero bytes allocate one page', () => {
    const m = new SparseMemory('t', 2 ** 36);
    m.writeBytes(3 * PAGE_SIZE + 7, new Uint8Array(3 * PAGE_SIZE));
    expect(m.allocated).toBe(0);
    m.readBytes(3 * PAGE_SIZE, 4 * PAGE_SIZE);
    expect(m.uninitReads).toBe(0);
    m.writeBytes(5 * PAGE_SIZE + 1, new Uint8Array([0, 9, 0]));
    expect(m.allocated).toBe(PAGE_SIZE);
    expect(m.byte(5 * PAGE_SIZE + 2)).toBe(9);
    expect(m.hasData(5 * PAGE_SIZE, 1)).toBe(true);
    expect(m.hasData(3 * PAGE_SIZE, 2 * PAGE_SIZE)).toBe(false);
  });

  it('a zero fill clears allocated pages byte-exactly and keeps the bytes around it', () => {
    const m = new SparseMemory('t', 1 << 30);
    const data = new Uint8Array(3 * PAGE_SIZE).map((_, i) => (i % 255) + 1);
    m.writeBytes(0, data);
    m.fill(100, 2 * PAGE_SIZE, 0);
    const back = m.readBytes(0, 3 * PAGE_SIZE);
    const want = data.map((x, i) => (i >= 100 && i < 100 + 2 * PAGE_SIZE ? 0 : x));
    expect(Buffer.from(back).equals(Buffer.from(want))).toBe(true);
    // and a non-zero fill still works
    m.fill(10, 5, 7);
    expect(Array.from(m.readBytes(9, 7))).toEqual([data[9], 7, 7, 7, 7, 7, data[15]]);
  });

  it('zero ranges merge, and the page-range list stays short for adjacent fills', () => {
    const m = new SparseMemory('t', 2 ** 36);
    for (let p = 0; p < 1000; p++) m.fill(p * PAGE_SIZE, PAGE_SIZE, 0);
    m.fill(5000 * PAGE_SIZE, 10, 0);
    m.fill(2000 * PAGE_SIZE, PAGE_SIZE, 0);
    expect((m as unknown as { zeroRanges: number[] }).zeroRanges).toEqual([0, 1000, 2000, 2001, 5000, 5001]);
    m.fill(999 * PAGE_SIZE, 1001 * PAGE_SIZE + 1, 0);
    expect((m as unknown as { zeroRanges: number[] }).zeroRanges).toEqual([0, 2001, 5000, 5001]);
    expect(m.allocated).toBe(0);
  });
});

describe('images with huge zero-filled HBM sections', () => {
  /** An image whose HBM holds a 1 GiB and a 32 GiB zero section and a small tensor, and nothing to run. */
  function bigImage() {
    const b = new ImageBuilder();
    b.sections.push({ name: '.bss.a', kind: 'zero', space: 'hbm', address: 0, size: GiB, align: 8, flags: 0, data: new Uint8Array(0), cluster: -1 });
    b.sections.push({ name: '.bss.b', kind: 'zero', space: 'hbm', address: 2 * GiB, size: 32 * GiB, align: 8, flags: 0, data: new Uint8Array(0), cluster: -1 });
    b.symbols.push({ name: 'big', kind: 'tensor', section: 0, offset: 0, size: GiB, global: true, tensor: { shape: [GiB / 128, 128], format: 'RFP8', eb: 0 } });
    b.tensor('t', 'hbm', 40 * GiB, new Uint8Array(1024).map((_, i) => i & 0xff), [8, 128], 'RFP8');
    return b.build();
  }

  it('load and run without allocating the zero sections', () => {
    const { chip, report } = simulateImage(bigImage(), 'big.pimg');
    expect(report.stop).toBe('done');
    expect(chip.hbm.allocated).toBeLessThanOrEqual(2 * PAGE_SIZE);
  });

  it('--dump-region of a region larger than a chunk streams (holes for never-written chunks) with the right bytes', () => {
    const img = bigImage();
    const { chip } = simulateImage(img, 'big.pimg');
    const addr = 40 * GiB - DUMP_CHUNK_BYTES - 512;
    const len = 2 * DUMP_CHUNK_BYTES + 4096;
    const out = dumpRegion(chip, { space: 'hbm', cluster: 0, addr, len, file: 'x.bin' });
    expect(out).not.toBeInstanceOf(Uint8Array);
    const chunks = [...(out as Iterable<Uint8Array | number>)];
    expect(chunks.map((c) => (typeof c === 'number' ? 'hole' : c.length))).toEqual(['hole', DUMP_CHUNK_BYTES, 'hole']);
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-dump-'));
    const f = join(dir, 'r.bin');
    writeFileAtomic(f, chunks);
    expect(statSync(f).size).toBe(len);
    const bytes = readFileSync(f);
    const t = 40 * GiB - addr;
    expect(bytes.subarray(t, t + 1024)).toEqual(Buffer.from(new Uint8Array(1024).map((_, i) => i & 0xff)));
    expect(bytes.subarray(0, t).every((x) => x === 0)).toBe(true);
    expect(bytes.subarray(t + 1024).every((x) => x === 0)).toBe(true);
  });

  it('hbm_striped dumps map every byte through the striped-mode address (8-byte runs, chip §8.2.2)', () => {
    const { chip } = simulateImage(bigImage(), 'big.pimg');
    for (const [addr, len] of [[40 * GiB, 40_000], [40 * GiB + 3, 4099]] as const) {
      const got = dumpRegion(chip, { space: 'hbm_striped', cluster: 0, addr, len, file: 'x.bin' }) as Uint8Array;
      const want = new Uint8Array(len).map((_, i) => chip.hbm.byte(stripedToTensorMode(addr + i)));
      expect(Buffer.from(got).equals(Buffer.from(want))).toBe(true);
      expect(want.some((x) => x !== 0)).toBe(true); // the striped addresses reach the tensor's bytes
    }
  });

  it('--dump of a tensor beyond the .npy limit is refused before the run, pointing at --dump-region', () => {
    const img = bigImage();
    let e: unknown;
    try {
      checkDumpSpecs(img, 1, [{ symbol: 'big', f32: true, file: 'big.npy' }], []);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(DiagnosticError);
    const d = (e as DiagnosticError).diagnostics[0]!;
    expect(d.message).toMatch(/--dump: `big` would be a 4294967296-byte \.npy/);
    expect(d.notes!.join(' ')).toMatch(/--dump-region hbm:0x0:1073741824=FILE\.bin/);
    expect(() => checkDumpSpecs(img, 1, [{ symbol: 't', f32: true, file: 't.npy' }], [])).not.toThrow();
  });
});
