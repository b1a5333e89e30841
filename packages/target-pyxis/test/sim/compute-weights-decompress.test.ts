/**
 * Compressed weights through the simulator: a superblock database built by the linker (ld/weights compress.ts,
 * superblock.ts; chip §14, §15.4) is read by AMEM Weights Read (codebook, scaling-factor and compressed-data words,
 * seq §7.1), hydrated by the decompressor (chip §6.2.4.1, 128 weights per cycle) and written by WDP; the Hbufs must
 * hold the linker's own quantised weights (decompressSuperblocks), placed by the linker's position map.
 */
import { describe, expect, it } from 'vitest';
import { compressWeights, decompressSuperblocks, superblockPosition, type CompressedDatabase } from '../../src/ld/weights/index.js';
import type { Rig } from './uie-fixture.js';
import { hb, i4toI5, P, rig, runTicks, wdpLoop, WR_WDP } from './compute-weights-ref.js';
import { strides } from './uie-fixture.js';

const BSIZE: Record<number, string> = { 4: 'Blocksize_4', 8: 'Blocksize_8', 16: 'Blocksize_16', 32: 'Blocksize_32' };

function floats(n: number, seed: number): Float32Array {
  const w = new Float32Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const u = (x >>> 8) / (1 << 24);
    w[i] = (u - 0.5) * 0.2 * (1 + ((i * 7) % 5));
  }
  return w;
}

/** Weights Read program: codebook word, then per superblock its scaling-factor word and B/2 compressed words. */
function programRead(r: Rig, db: CompressedDatabase, base: number): void {
  const L = db.layout;
  const B = L.blockSize;
  r.prog('amem_weights_read', 0, { eopgm: 0 }, { opcd: 'Read_SRAM', wdc_type: 'Codebook', amem_addr_offset: 0 });
  for (let k = 0; k < L.superblocks; k++) {
    const sb = (128 + k * L.superblockSize) >> 4;
    r.prog('amem_weights_read', 1 + 2 * k, { eopgm: 0 }, { opcd: 'Read_SRAM', wdc_type: 'Scaling_Factors', amem_addr_offset: sb });
    r.prog('amem_weights_read', 2 + 2 * k, { eopgm: k === L.superblocks - 1 ? 1 : 0, iter0_is_eol: 1, iter0_sol_pc: 2 + 2 * k, iter0_numloops: B / 2 },
      { opcd: 'Read_SRAM', wdc_type: 'Compressed_Data', wdc_block_size: BSIZE[B]!, amem_addr_offset: sb + 8, iter_stride: strides(8) });
  }
  r.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: base >> 4 });
}

describe('decompressor vs the linker (chip §6.2.4.1, §14.1, §14.2)', () => {
  it('fine-grained 1x1, B = 8 cinPerCout: one superblock = one 64-byte Hbuf block, Cout 8q+n at bytes 8n of grid-row q', () => {
    const O = 128;
    const I = 16;
    const db = compressWeights(floats(O * I, 3), [O, I], { organisation: 'cinPerCout', blockSize: 8 });
    const dec = decompressSuperblocks(db.bytes, db.layout);
    const r = rig();
    r.amem.writeBytes(0x8000, db.bytes);
    programRead(r, db, 0x8000);
    const EB = 3;
    wdpLoop(r, [{ n: 2 }, { n: 8 }], {
      hbuf_wr_control: 'LD_2ROWS_8B', hbuf_block_size: 4, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 1 << 1,
      hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 1, lin2log_config_vld: 1, dsbl_mapping_corr: 1, eb_adj: EB,
    });
    const { wr } = runTicks(r);
    expect(wr.length).toBe(16);
    const st = r.uie.cmp.stats;
    expect(st.wdcCompressedWords).toBe(8);
    expect(st.wdcOutWords).toBe(16);
    expect(st.wdcWords).toBe(11);
    let nonzero = 0;
    for (let o = 0; o < O; o++)
      for (let i = 0; i < I; i++) {
        const q = o >> 3;
        const n = o & 7;
        const v = dec[o * I + i]!;
        if (v & 0x7f) nonzero++;
        expect(hb(r, q, 64 * (i >> 3) + 8 * n + (i & 7))).toBe(i4toI5(v, EB));
      }
    expect(nonzero).toBeGreaterThan(O * I * 0.8);
  });

  for (const organisation of ['cinPerCout', 'coutPerCin'] as const)
    for (const B of [4, 8, 16, 32])
      it(`${organisation}, block size ${B}: every weight of the linker's database at its decompressed position; 2 cycles per compressed word`, () => {
        const O = 128;
        const I = 32;
        const db = compressWeights(floats(O * I, B + (organisation === 'cinPerCout' ? 0 : 100)), [O, I], { organisation, blockSize: B });
        const L = db.layout;
        const dec = decompressSuperblocks(db.bytes, L);
        const r = rig();
        r.amem.writeBytes(0, db.bytes);
        programRead(r, db, 0);
        const nOut = L.superblocks * B; // B/2 compressed words per superblock, 2 output words each
        // output word n -> 8-byte Hbuf word n of every grid-row (bytes 0-7 of partition p to grid-row 2p, 8-15 to 2p+1)
        wdpLoop(r, [{ n: nOut }], { hbuf_wr_control: 'LD_2ROWS_8B', hbuf_stride_dim1: 1, hbuf_stride_iter_id_dim1: 0, lin2log_config_vld: 1, dsbl_mapping_corr: 1 });
        const { wr } = runTicks(r);
        expect(wr.length).toBe(nOut);
        // one output word per decompressor cycle; each later superblock's scaling-factor word costs one cycle
        expect(wr[nOut - 1]! - wr[0]!).toBe(nOut - 1 + L.superblocks - 1);
        for (let o = 0; o < O; o++)
          for (let i = 0; i < I; i++) {
            const p = superblockPosition(L, o, i);
            const off = p.byteOffset - (128 + p.superblock * L.superblockSize + 128); // byte in the superblock's data words
            const n = p.superblock * B + (off >> 6); // output word: 64 compressed bytes (128 weights) each
            const m = 2 * (off & 63) + (p.shift ? 1 : 0); // weight (byte) within the output word
            const q = 2 * (m >> 4) + ((m >> 3) & 1);
            expect(hb(r, q, 8 * n + (m & 7))).toBe(i4toI5(dec[o * I + i]!, 0));
          }
      });

  it('Table 9-1, block size 32: 2 partitions per H-lane, 32 bytes to grid-rows 0,2,4,6 (H-lanes 0-3) then 8..14 (4-7)', () => {
    const O = 128;
    const I = 32;
    const db = compressWeights(floats(O * I, 77), [O, I], { organisation: 'cinPerCout', blockSize: 32 });
    const dec = decompressSuperblocks(db.bytes, db.layout);
    expect(db.layout.superblocks).toBe(1);
    const r = rig();
    r.amem.writeBytes(0, db.bytes);
    programRead(r, db, 0);
    // iter0: grid-row-in-pair (2), iter1: VGR (8, 32 bytes = 4 Hbuf words each), iter2: H-lane group (2)
    wdpLoop(r, [{ n: 2 }, { n: 8 }, { n: 2 }], {
      hbuf_wr_control: 'LD_1ROW_16B', log2_ptns_per_hlane: 1, hlane_iter_id: 2, grip_iter_id: 0, hbuf_stride_dim1: 4, hbuf_stride_iter_id_dim1: 1,
      hbuf_block_size: 16, hbuf_block_start_en: 1, hbuf_block_end_en: 1, hbuf_block_iter_mask: 0b111, lin2log_config_vld: 1, dsbl_mapping_corr: 1,
    });
    const { wr } = runTicks(r);
    expect(wr.length).toBe(32);
    expect(wr[31]! - wr[0]!).toBe(31);
    expect(r.uie.cmp.stats.stallHlaneBusy).toBe(0);
    // grid-row q holds output channels 8q..8q+7 (VGR v = cout & 7), 32 input channels each at bytes 32v..32v+31
    for (let o = 0; o < O; o++) for (let i = 0; i < I; i++) expect(hb(r, o >> 3, 32 * (o & 7) + i)).toBe(i4toI5(dec[o * I + i]!, 0));
    expect(r.uie.cmp.hbuf.wrBase).toBe(256);
  });

  it('SIM0622 compressed data before the codebook; SIM0621 more data words than the superblock holds', () => {
    const rigNoHeader = () => {
      const r = rig();
      r.prog('amem_weights_read', 0, { eopgm: 1 }, { opcd: 'Read_SRAM', wdc_type: 'Compressed_Data' });
      wdpLoop(r, [{ n: 2 }], {});
      r.trip({ trip_valid_mask: WR_WDP });
      return r;
    };
    expect(() => runTicks(rigNoHeader())).toThrow(/before any codebook/);
    expect(codeOf(() => runTicks(rigNoHeader()))).toBe('SIM0622');
    const r2 = rig();
    r2.prog('amem_weights_read', 0, { eopgm: 0 }, { opcd: 'Read_SRAM', wdc_type: 'Codebook' });
    r2.prog('amem_weights_read', 1, { eopgm: 0 }, { opcd: 'Read_SRAM', wdc_type: 'Scaling_Factors' });
    r2.prog('amem_weights_read', 2, { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 2, iter0_numloops: 5 }, { opcd: 'Read_SRAM', wdc_type: 'Compressed_Data', wdc_block_size: 'Blocksize_8' });
    wdpLoop(r2, [{ n: 10 }], {});
    r2.trip({ trip_valid_mask: WR_WDP });
    expect(() => runTicks(r2)).toThrow(/128 blocks/);
    const r3 = rig();
    r3.prog('amem_weights_read', 0, { eopgm: 0 }, { opcd: 'Read_SRAM', wdc_type: 'Codebook' });
    r3.prog('amem_weights_read', 1, { eopgm: 0 }, { opcd: 'Read_SRAM', wdc_type: 'Scaling_Factors' });
    r3.prog('amem_weights_read', 2, { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 2, iter0_numloops: 5 }, { opcd: 'Read_SRAM', wdc_type: 'Compressed_Data', wdc_block_size: 'Blocksize_8' });
    wdpLoop(r3, [{ n: 10 }], {});
    r3.trip({ trip_valid_mask: WR_WDP });
    expect(codeOf(() => runTicks(r3))).toBe('SIM0621');
  });
});

/** The code of the diagnostic `f` throws (undefined when it throws something else or nothing). */
function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return (e as { diagnostics?: Array<{ code?: string }> }).diagnostics?.[0]?.code;
  }
  return undefined;
}
