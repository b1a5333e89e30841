/**
 * Decode templates shared by equal microcode (uie/opFields.ts `templatesByOp`, keyed by decodeCache.ts `opKey`; host
 * speed only, issue 22): UIEs whose op memory holds the same bytes share one read-only template, a UIE whose bytes
 * differ gets its own, reprogramming one UIE leaves the others' templates as they were, and a run with shared
 * templates writes what the program says (the copy's bytes at the programmed addresses).
 */
import { describe, expect, it } from 'vitest';
import { Rig, loops, strides, bytes } from './uie-fixture.js';
import { SEQ_AMEM_READ, SEQ_AMEM_WRITE } from '../../src/sim/uie/index.js';
import { A_STRIDE, AUX_WORDS } from '../../src/sim/uie/records.js';

const rd = (stride: number) => ({ opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', iter_stride: strides(stride) });
const wr = (stride: number) => ({ opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', iter_stride: strides(stride) });

/** A UIE copying `n` 128-byte flits from AMEM 0 (stride `rs` partitions) to 0x10000 (stride 8), one trip. */
function copyRig(n: number, rs: number, src: Uint8Array): Rig {
  const r = new Rig();
  r.amem.writeBytes(0, src);
  r.prog('amem_read', 0, loops([{ n }]), rd(rs));
  r.prog('amem_write', 0, loops([{ n }]), wr(8));
  r.trip({ trip_id: 1, amem_read_base_address: 0, amem_write_base_address: 0x1000 });
  r.run();
  return r;
}
const strideOf = (r: Rig, seq: number) => r.uie.seqs[seq]!.aux![0 * AUX_WORDS + A_STRIDE]!;

describe('decode templates shared by equal microcode', () => {
  it('equal programs share one template; the copies are what the program says', () => {
    const src = bytes(5 * 128, 7);
    const a = copyRig(5, 8, src);
    const b = copyRig(5, 8, src);
    expect(b.uie.seqs[SEQ_AMEM_READ]!.tmpl).toBe(a.uie.seqs[SEQ_AMEM_READ]!.tmpl);
    expect(b.uie.seqs[SEQ_AMEM_WRITE]!.aux).toBe(a.uie.seqs[SEQ_AMEM_WRITE]!.aux);
    expect(a.uie.seqs[SEQ_AMEM_READ]!.tmplId).not.toBe(b.uie.seqs[SEQ_AMEM_READ]!.tmplId);
    for (const r of [a, b]) {
      expect(r.amem.readBytes(0x10000, 5 * 128)).toEqual(src);
      expect(strideOf(r, SEQ_AMEM_READ)).toBe(8);
    }
  });

  it('a different program gets its own template; reprogramming one UIE leaves the other as it was', () => {
    const src = bytes(8 * 128, 3);
    const a = copyRig(4, 8, src);
    // stride 16 partitions = 256 bytes: flits 0, 2, 4, 6 of the source
    const b = copyRig(4, 16, src);
    expect(b.uie.seqs[SEQ_AMEM_READ]!.tmpl).not.toBe(a.uie.seqs[SEQ_AMEM_READ]!.tmpl);
    expect(strideOf(a, SEQ_AMEM_READ)).toBe(8);
    expect(strideOf(b, SEQ_AMEM_READ)).toBe(16);
    const want = new Uint8Array(4 * 128);
    for (let j = 0; j < 4; j++) want.set(src.subarray(2 * j * 128, (2 * j + 1) * 128), j * 128);
    expect(b.amem.readBytes(0x10000, 4 * 128)).toEqual(want);
    // a's program again on b: b shares a's template, a's is untouched
    b.prog('amem_read', 0, loops([{ n: 4 }]), rd(8));
    b.trip({ trip_id: 2, amem_read_base_address: 0, amem_write_base_address: 0x2000 });
    b.run();
    expect(b.amem.readBytes(0x20000, 4 * 128)).toEqual(src.subarray(0, 4 * 128));
    expect(b.uie.seqs[SEQ_AMEM_READ]!.tmpl).toBe(a.uie.seqs[SEQ_AMEM_READ]!.tmpl);
    expect(strideOf(a, SEQ_AMEM_READ)).toBe(8);
  });
});
