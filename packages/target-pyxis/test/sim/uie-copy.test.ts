import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { Rig, loops, strides, bytes, rotationTables, ROT_RD, ROT_WR } from './uie-fixture.js';
import { AMEM_VIEW_BIT } from '../../src/sim/amem/index.js';

const UNHASHED = AMEM_VIEW_BIT;

/** Read op: 8 partitions of opaque 8-bit data to the AMEM-write switchbox FIFO. */
const rd = (extra: Record<string, unknown> = {}) => ({ opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, ...extra });
const wr = (extra: Record<string, unknown> = {}) => ({ opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, ...extra });

describe('UIE copy trip (AMEM Read -> switchbox -> AMEM Write)', () => {
  it('copies 10 rows of 128 bytes and retires the trip after the writes commit', () => {
    const r = new Rig();
    const src = bytes(1280, 7);
    r.amem.writeBytes(0x10000, src);
    r.prog('amem_read', 0, loops([{ n: 10 }]), rd({ iter_stride: strides(8) }));
    r.prog('amem_write', 0, loops([{ n: 10 }]), wr({ iter_stride: strides(8) }));
    expect(r.trip({ trip_id: 42, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4 })).toBe(true);
    const cycles = r.run();
    expect(r.amem.readBytes(0x20000, 1280)).toEqual(src);
    expect(r.done.map((d) => d.trip)).toEqual([42]);
    expect(r.uie.stats.bytesRead).toBe(1280);
    expect(r.uie.stats.bytesWritten).toBe(1280);
    expect(r.uie.stats.instructions[0]).toBe(10);
    expect(r.uie.stats.instructions[1]).toBe(10);
    // one flit per cycle plus a short pipeline and the 10-cycle commit latency
    expect(cycles).toBeGreaterThanOrEqual(10 + 10);
    expect(cycles).toBeLessThan(40);
    expect(r.uie.busy).toBe(false);
  });

  it('Recogni FP8 round-trips exactly through 8b->16b->8b with eb_adj +3 / -3', () => {
    const r = new Rig();
    // all codes whose exponent stays in range after +3: E <= 12
    const src = new Uint8Array(256);
    for (let i = 0; i < 256; i++) src[i] = ((i >> 3) & 15) <= 12 ? i : 0;
    r.amem.writeBytes(0, src);
    r.prog('amem_read', 0, loops([{ n: 2 }]), rd({ data_type: 'Recogni_FP8', eb_adj: 3, iter_stride: strides(8) }));
    r.prog('amem_write', 0, loops([{ n: 2 }]), wr({ data_type: 'Recogni_FP8', eb_adj: -3, iter_stride: strides(8) }));
    r.trip({ amem_write_base_address: 0x1000 >> 4 });
    r.run();
    expect(r.amem.readBytes(0x1000, 256)).toEqual(src);
  });

  it('scales by EB adjust: read FP8 1.0 (E=7) with eb_adj 0, write with eb_adj +2 gives E=9', () => {
    const r = new Rig();
    r.amem.writeBytes(0, new Uint8Array(128).fill(0x38));
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Recogni_FP8' }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ data_type: 'Recogni_FP8', eb_adj: 2 }));
    r.trip({ amem_write_base_address: 0x800 });
    r.run();
    expect(r.amem.readBytes(0x8000, 128)).toEqual(new Uint8Array(128).fill(0x48));
  });

  it('OCP E4M3 import -> RFP16 -> RFP8 export (chip §6.5 Table 6-4): 1.0 stays 1.0 with EB_FP16=-15, EB_FP8=-7', () => {
    const r = new Rig();
    // OCP E4M3: 0x38 = 1.0, 0x40 = 2.0, 0xB8 = -1.0, 0x01 = 2^-9 (subnormal)
    const src = new Uint8Array(128);
    src.set([0x38, 0x40, 0xb8, 0x00, 0x7f]);
    r.amem.writeBytes(0, src);
    // read adj = -7 - EB_FP16_out = -7 + 15 = 8; write adj = EB_FP16 - EB_FP8 = -15 + 7 = -8
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'OCP_FP8_E4M3', eb_adj: 8 }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ data_type: 'Recogni_FP8', eb_adj: -8 }));
    r.trip({ amem_write_base_address: 0x800 });
    r.run();
    const out = r.amem.readBytes(0x8000, 5);
    // 1.0 -> RFP8 E=7 M=0 (0x38); 2.0 -> 0x40; -1.0 -> 0xB8; 0 -> 0; OCP NaN (0x7F) -> RFP8 NaN 0x80
    expect(Array.from(out)).toEqual([0x38, 0x40, 0xb8, 0x00, 0x80]);
  });

  it('ReLU on read zeroes negatives and keeps NaN (seq §5.1.1)', () => {
    const r = new Rig();
    const src = new Uint8Array(128);
    src.set([0x38, 0xb8, 0x80, 0xff, 0x7f]);
    r.amem.writeBytes(0, src);
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ opcd: 'Read_SRAM_with_ReLU', data_type: 'Recogni_FP8' }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ data_type: 'Recogni_FP8' }));
    r.trip({ amem_write_base_address: 0x800 });
    r.run();
    expect(Array.from(r.amem.readBytes(0x8000, 5))).toEqual([0x38, 0x00, 0x80, 0x00, 0x7f]);
  });

  it('Read_Const fills every column with the constant (chip §7.7.1)', () => {
    const r = new Rig();
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ opcd: 'Read_Const', rd_const_value: 0x5a }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr());
    r.trip({ amem_write_base_address: 0x800 });
    r.run();
    expect(r.amem.readBytes(0x8000, 128)).toEqual(new Uint8Array(128).fill(0x5a));
    expect(r.uie.stats.bytesRead).toBe(0);
  });
});

/** 16-byte rows: one partition per row. */
function rowsOf(r: Rig, base: number, n: number): number[] {
  const b = r.amem.readBytes(base, n * 16);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(b[i * 16]!);
  return out;
}

function seedRows(r: Rig, base: number, n: number): void {
  const b = new Uint8Array(n * 16);
  for (let i = 0; i < n; i++) b.fill(i + 1, i * 16, i * 16 + 16); // row i holds i+1 (0 is the pad value)
  r.amem.writeBytes(base, b);
}

describe('loop examples of seq §2.1 observed through a copy', () => {
  it('§2.1.1: 22 rows read as groups of 10 advancing by 8, final group 6 (26 rows)', () => {
    const r = new Rig();
    rotationTables(r);
    seedRows(r, 0, 22);
    r.prog('amem_read', 0, loops([{ n: 3 }, { n: 10, nf: 6, mask: 1 }]), rd({ ...ROT_RD, num_logical_ptns: 1, iter_stride: strides(8, 1) }));
    r.prog('amem_write', 0, loops([{ n: 26 }]), wr({ ...ROT_WR, num_logical_cols: 16, iter_stride: strides(1) }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const exp = [...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 10 }, (_, i) => 8 + i), ...Array.from({ length: 6 }, (_, i) => 16 + i)];
    expect(rowsOf(r, 0x8000, 26)).toEqual(exp.map((x) => x + 1));
  });

  it('§2.1.2: post-final read padding inserts 4 zero rows in the last group', () => {
    const r = new Rig();
    rotationTables(r);
    seedRows(r, 0, 22);
    r.prog('amem_read', 0, loops([{ n: 3 }, { n: 10, nf: 6, mask: 1, pf: 1 }]), rd({ ...ROT_RD, num_logical_ptns: 1, iter_stride: strides(8, 1) }));
    r.prog('amem_write', 0, loops([{ n: 30 }]), wr({ ...ROT_WR, num_logical_cols: 16, iter_stride: strides(1) }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const exp = [...Array.from({ length: 10 }, (_, i) => i + 1), ...Array.from({ length: 10 }, (_, i) => 9 + i), 17, 18, 19, 20, 21, 22, 0, 0, 0, 0];
    expect(rowsOf(r, 0x8000, 30)).toEqual(exp);
    expect(r.uie.stats.padsInserted).toBe(4);
    expect(r.uie.stats.bytesRead).toBe(26 * 16);
  });

  it('§2.1.2.1 / §6.3: post-final writes become discards (cascaded 4x4x4 -> 58 written, 6 discarded)', () => {
    const r = new Rig();
    rotationTables(r);
    seedRows(r, 0, 64);
    r.amem.writeBytes(0x8000, new Uint8Array(64 * 16).fill(0xee));
    r.prog('amem_read', 0, loops([{ n: 64 }]), rd({ ...ROT_RD, num_logical_ptns: 1, iter_stride: strides(1) }));
    r.prog(
      'amem_write',
      0,
      loops([{ n: 4 }, { n: 4, nf: 3, mask: 1, pf: 1 }, { n: 4, nf: 2, mask: 3, pf: 1 }]),
      wr({ ...ROT_WR, num_logical_cols: 16, iter_stride: strides(16, 4, 1) }),
    );
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const got = rowsOf(r, 0x8000, 64);
    expect(got.slice(0, 58)).toEqual(Array.from({ length: 58 }, (_, i) => i + 1));
    expect(got.slice(58)).toEqual(new Array(6).fill(0xee));
    expect(r.uie.stats.discards).toBe(6);
  });

  it('start_row_pad / end_row_pad (seq §5.1): first and last row of each group read as zeros', () => {
    const r = new Rig();
    rotationTables(r);
    seedRows(r, 0, 12);
    // 2 groups of 6 rows; pad_row_iter_mask = iterator 1
    r.prog('amem_read', 0, loops([{ n: 2 }, { n: 6 }]), rd({ ...ROT_RD, num_logical_ptns: 1, iter_stride: strides(6, 1), start_row_pad: 1, end_row_pad: 1, pad_row_iter_mask: 0b10 }));
    r.prog('amem_write', 0, loops([{ n: 12 }]), wr({ ...ROT_WR, num_logical_cols: 16, iter_stride: strides(1) }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    expect(rowsOf(r, 0x8000, 12)).toEqual([0, 2, 3, 4, 5, 0, 0, 8, 9, 10, 11, 0]);
    expect(r.uie.stats.padsInserted).toBe(4);
  });
});

describe('partitions, swizzles and switch tables', () => {
  it('FP16 with identity RPSW/WPSW round-trips (chip §7.3.1 read and write swizzles are inverse)', () => {
    const r = new Rig();
    const src = bytes(512, 3);
    // keep values clear of the zero/NaN codepoints' special handling: Opaque_16bit passes codes through
    r.amem.writeBytes(0, src);
    r.prog('amem_read', 0, loops([{ n: 2 }]), rd({ data_type: 'Opaque_16bit', iter_stride: strides(16) }));
    r.prog('amem_write', 0, loops([{ n: 2 }]), wr({ data_type: 'Opaque_16bit', iter_stride: strides(16) }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    const cycles = r.run();
    expect(r.amem.readBytes(0x8000, 512)).toEqual(src);
    // 16-bit flits take the AMEM port for two cycles each
    expect(cycles).toBeGreaterThanOrEqual(4 + 10);
  });

  it('FP16 read de-swizzled by RPSW and written with identity WPSW lands 32-byte groups in order [0,2,4,6,1,3,5,7]', () => {
    const r = new Rig();
    const src = new Uint8Array(256);
    for (let g = 0; g < 8; g++) src.fill(g + 1, g * 32, g * 32 + 32);
    r.amem.writeBytes(0, src);
    // RPSW entry 5: output partition o takes lane SIGMA_INV[o] (chip §7.3.1: lane k carries logical [0,4,1,5,2,6,3,7][k])
    r.table('rpsw.config', 5, { src_ptn: [0, 2, 4, 6, 1, 3, 5, 7] });
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Opaque_16bit', rpsw_config_vld: 1, rpsw_config_idx_base: 5 }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ data_type: 'Opaque_16bit' }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const out = r.amem.readBytes(0x8000, 256);
    const groups = Array.from({ length: 8 }, (_, g) => out[g * 32]! - 1);
    expect(groups).toEqual([0, 2, 4, 6, 1, 3, 5, 7]);
  });

  it('unaligned 8-bit read arrives rotated; rpsw_rot_enbl with 8 rotation entries re-aligns it (seq §5.4)', () => {
    for (const rot of [false, true]) {
      const r = new Rig();
      const src = new Uint8Array(256);
      for (let p = 0; p < 16; p++) src.fill(p, p * 16, p * 16 + 16);
      r.amem.writeBytes(0, src);
      for (let e = 0; e < 8; e++) r.table('rpsw.config', 8 + e, { src_ptn: Array.from({ length: 8 }, (_, o) => (o + e) % 8) });
      r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ amem_addr_offset: 3, rpsw_config_vld: rot ? 1 : 0, rpsw_config_idx_base: 8, rpsw_rot_enbl: 1 }));
      r.prog('amem_write', 0, loops([{ n: 1 }]), wr());
      r.trip({ amem_write_base_address: 0x8000 >> 4 });
      r.run();
      const out = r.amem.readBytes(0x8000, 128);
      const ptns = Array.from({ length: 8 }, (_, p) => out[p * 16]!);
      // partition j of the access (memory partition 3+j) leaves AMEM on lane (3+j)%8
      expect(ptns).toEqual(rot ? [3, 4, 5, 6, 7, 8, 9, 10] : [8, 9, 10, 3, 4, 5, 6, 7]);
    }
  });

  it('RCSW column shift and column masks (chip §6.2.1.3)', () => {
    const r = new Rig();
    const src = new Uint8Array(128);
    for (let c = 0; c < 128; c++) src[c] = c + 1;
    r.amem.writeBytes(0, src);
    // entry 2: left shift by 1 column: out col c of ptn p = in col c+1 (col 15 from the next partition's col 0)
    const mux: number[] = [];
    const csrc: number[] = [];
    for (let p = 0; p < 8; p++)
      for (let c = 0; c < 16; c++) {
        mux.push(c === 0 ? 2 : 0); // mux column 0 takes the next partition's column 0
        csrc.push((c + 1) % 16);
      }
    r.table('rcsw.config', 2, { col_mux_sel: mux, col_src: csrc });
    const mask = new Array(128).fill(0);
    mask[127] = 1; // zero the column shifted in past the edge
    mask[0] = 2; // -max
    r.table('rcsw.col_mask', 1, { col_override: mask });
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Recogni_FP8', rcsw_switch_config_vld: 1, rcsw_switch_config_idx_base: 2, rcsw_col_mask_config_idx: 1 }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ data_type: 'Recogni_FP8' }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const out = r.amem.readBytes(0x8000, 128);
    const exp = Array.from({ length: 128 }, (_, c) => (c + 2) & 0xff);
    exp[0] = 0xff; // RFP16 -max converts to RFP8 -max
    exp[127] = 0;
    expect(Array.from(out)).toEqual(exp);
  });

  it('zipper unzip then zip restores the data (chip §6.2.1.2)', () => {
    const r = new Rig();
    const src = bytes(128, 9);
    r.amem.writeBytes(0, src);
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ rzsw_config: 'Unzip' }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr());
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const unz = r.amem.readBytes(0x8000, 128);
    expect(unz[0]).toBe(src[0]);
    expect(unz[1]).toBe(src[2]);
    expect(unz[16]).toBe(src[1]);
    expect(unz[17]).toBe(src[3]);
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd());
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ wzsw_config: 'Zip' }));
    r.trip({ trip_id: 2, amem_read_base_address: 0x8000 >> 4, amem_write_base_address: 0x9000 >> 4 });
    r.run();
    expect(r.amem.readBytes(0x9000, 128)).toEqual(src);
  });

  it('partial write with logical_col_offset / num_logical_cols merges into memory (seq §6.4)', () => {
    const seen: number[] = [];
    const r = new Rig({ onPartialWrite: (a) => seen.push(a) });
    r.amem.writeBytes(0, new Uint8Array(128).fill(0x11));
    r.amem.writeBytes(0x8000, new Uint8Array(128).fill(0xaa));
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd());
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ logical_col_offset: 5, num_logical_cols: 20 }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const out = r.amem.readBytes(0x8000, 128);
    const exp = new Uint8Array(128).fill(0xaa);
    exp.fill(0x11, 5, 25);
    expect(out).toEqual(exp);
    expect(r.uie.stats.partialWrites).toBe(1);
    // partitions 0 (bytes 5..15) and 1 (bytes 16..24) are partial and reported for the cross-UIE rule (chip §7.4.2)
    expect(seen).toEqual([0x8000, 0x8010]);
  });
});

describe('RMW_Add (InMemAdd, seq §6.5, chip §7.4)', () => {
  it('destructive add: x + x doubles every Recogni FP8 value (exponent + 1)', () => {
    const r = new Rig();
    const x = new Uint8Array(128);
    for (let i = 0; i < 128; i++) x[i] = (((i % 14) + 1) << 3) | (i & 7) | (i & 64 ? 0x80 : 0); // E in 1..14
    r.amem.writeBytes(0, x);
    r.amem.writeBytes(0x8000, x);
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Recogni_FP8' }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ opcd: 'RMW_Add', data_type: 'Recogni_FP8' }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    r.run();
    const out = r.amem.readBytes(0x8000, 128);
    expect(Array.from(out)).toEqual(Array.from(x, (v) => v + 8));
    expect(r.uie.stats.rmwAdds).toBe(1);
  });

  it('non-destructive add reads rmw_rd_addr_offset*16K away in the unhashed view', () => {
    const r = new Rig();
    const a = new Uint8Array(128).fill(0x38); // 1.0
    const b = new Uint8Array(128).fill(0x40); // 2.0
    r.amem.writeBytes(UNHASHED | 0, a);
    r.amem.writeBytes(UNHASHED | (0x8000 + 2 * 16384), b);
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Recogni_FP8' }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ opcd: 'RMW_Add', data_type: 'Recogni_FP8', rmw_rd_addr_offset: 2 }));
    r.trip({ amem_write_base_address: 0x8000 >> 4, amem_read_bank_hash_dsbl: 1, amem_write_bank_hash_dsbl: 1 });
    r.run();
    // 1.0 + 2.0 = 3.0 = 1.5 * 2^1 -> E=8, F=4 -> 0x44
    expect(r.amem.readBytes(UNHASHED | 0x8000, 128)).toEqual(new Uint8Array(128).fill(0x44));
  });

  it('hashed view with a non-2MiB offset puts read and write in different banks: rule error (seq §6.5.1)', () => {
    const r = new Rig();
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Recogni_FP8' }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ opcd: 'RMW_Add', data_type: 'Recogni_FP8', rmw_rd_addr_offset: 1 }));
    r.trip({ amem_write_base_address: 0x8000 >> 4 });
    expect(() => r.run()).toThrow(DiagnosticError);
    try {
      const r2 = new Rig();
      r2.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Recogni_FP8' }));
      r2.prog('amem_write', 0, loops([{ n: 1 }]), wr({ opcd: 'RMW_Add', data_type: 'Recogni_FP8', rmw_rd_addr_offset: 1 }));
      r2.trip({ amem_write_base_address: 0x8000 >> 4 });
      r2.run();
    } catch (e) {
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.code).toBe('SIM0604');
      expect(d.spec).toContain('§6.5.1');
    }
  });
});

describe('runtime rule checks', () => {
  it('16-bit access at an odd partition is an error citing seq §1.1', () => {
    const r = new Rig();
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd({ data_type: 'Recogni_FP16', amem_addr_offset: 1 }));
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ data_type: 'Recogni_FP16' }));
    r.trip({});
    let err: DiagnosticError | undefined;
    try {
      r.run();
    } catch (e) {
      err = e as DiagnosticError;
    }
    expect(err).toBeInstanceOf(DiagnosticError);
    expect(err!.diagnostics[0]!.code).toBe('SIM0602');
    expect(err!.diagnostics[0]!.spec).toContain('§1.1');
  });

  it('write waiting on the grid FIFO reports what it waits for (grid not modelled)', () => {
    const r = new Rig();
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd());
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr({ src_fifo: 'Grid' }));
    r.trip({});
    expect(() => r.run()).toThrow(/grid->amem_write/);
  });

  it('flits sent to the grid are counted and dropped with a warning (grid detached)', () => {
    const r = new Rig({ attachGrid: false });
    r.prog('amem_read', 0, loops([{ n: 3 }]), rd({ tgt_fifo: 'Grid' }));
    r.trip({ trip_valid_mask: 0b1 });
    r.run();
    expect(r.uie.stats.flitsDropped).toBe(3);
    expect(r.uie.warnings.map((w) => w.code)).toContain('SIM0608');
  });
});
