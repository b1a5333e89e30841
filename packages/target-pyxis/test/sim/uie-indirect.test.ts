import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { Rig, loops, strides, bytes, rotationTables, ROT_RD, ROT_WR } from './uie-fixture.js';

const rd = (extra: Record<string, unknown> = {}) => ({ opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 1, ...ROT_RD, ...extra });
const wr = (extra: Record<string, unknown> = {}) => ({ opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 16, ...ROT_WR, ...extra });

const SRC = 0x10000;
const DST = 0x200000;
const XT = 0x40000;
const YT = 0x40800;

function le16(v: number[]): Uint8Array {
  const b = new Uint8Array(v.length * 2);
  v.forEach((x, i) => {
    b[2 * i] = x & 0xff;
    b[2 * i + 1] = (x >> 8) & 0xff;
  });
  return b;
}
function le32(v: number[]): Uint8Array {
  const b = new Uint8Array(v.length * 4);
  new DataView(b.buffer).setUint32(0, 0);
  v.forEach((x, i) => new DataView(b.buffer).setUint32(4 * i, x >>> 0, true));
  return b;
}

/** Sets up 16-byte rows: row address (partition) a holds a unique pattern; returns a reader of the pattern. */
function tag(r: Rig, ptn: number): void {
  const b = bytes(16, ptn + 1);
  r.amem.writeBytes(ptn * 16, b);
}
const tagOf = (ptn: number) => bytes(16, ptn + 1);

interface Case {
  mode: number;
  x: number[];
  y?: number[];
  sx: number;
  sy?: number;
}

/** Reference address of index k (seq §5.2.2): partition address relative to the base. */
function refAddr(c: Case, k: number): number {
  const x = c.x[k]!;
  const y = c.y?.[k] ?? 0;
  if (c.mode === 0) return (x & 0xffff) * c.sx;
  if (c.mode === 1) return x * c.sx;
  if (c.mode === 2) return ((x & 0xffff) + (y & 0xffff) * 65536) * c.sx;
  return (x & 0xffff) * c.sx + (y & 0xffff) * c.sy!;
}

const cases: Case[] = [
  { mode: 0, x: [5, 2, 9, 0, 15, 7, 3], sx: 3 },
  { mode: 1, x: [70000, 1, 123456, 9], sx: 2 },
  { mode: 2, x: [4, 0xffff, 17], y: [1, 0, 2], sx: 1 },
  { mode: 3, x: [1, 0, 3, 2, 7], y: [2, 5, 0, 1, 3], sx: 1, sy: 40 },
];

function setupItfe(r: Rig, region: string, c: Case, repeat = 1): void {
  r.amem.writeBytes(XT, c.mode === 1 ? le32(c.x) : le16(c.x));
  if (c.y) r.amem.writeBytes(YT, le16(c.y));
  r.table(region, 2, {
    indir_mode: c.mode,
    x_table_base_addr: XT >> 7,
    y_table_base_addr: YT >> 7,
    num_indices_per_table_m1: c.x.length - 1,
    repeat_count_m1: repeat - 1,
  });
}

describe('indirect gather (AMEM Read with ITFE, seq §5.2.2, §8)', () => {
  for (const c of cases)
    it(`mode ${c.mode}`, () => {
      const r = new Rig();
      rotationTables(r);
      const n = c.x.length;
      for (let k = 0; k < n; k++) tag(r, (SRC >> 4) + refAddr(c, k));
      setupItfe(r, 'itfe_read.cmd', c);
      r.prog('amem_read', 0, loops([{ n }]), rd({ indir_vld: 1, indir_mode: c.mode, indir_fifo_pop_enbl: 1, iter_stride: strides(0, 0, 0, 0, c.sy ?? 0, c.sx) }));
      r.prog('amem_write', 0, loops([{ n }]), wr({ iter_stride: strides(1) }));
      r.trip({ amem_read_base_address: SRC >> 4, amem_write_base_address: DST >> 4, amem_read_indirect_vld: 1, amem_read_indirect_cmd_index: 2 });
      r.run();
      for (let k = 0; k < n; k++) expect(r.amem.readBytes(DST + 16 * k, 16), `row ${k}`).toEqual(tagOf((SRC >> 4) + refAddr(c, k)));
      expect(r.uie.stats.indirectReads).toBe(n);
      expect(r.uie.rd.itfe.reads).toBe(c.y ? 2 : 1);
    });

  it('indir_fifo_pop_enbl=0 reuses an index (grid-sample style: 2 reads per index, chip §7.6)', () => {
    const r = new Rig();
    rotationTables(r);
    const c: Case = { mode: 0, x: [4, 1, 6], sx: 2 };
    for (let k = 0; k < 3; k++) for (const d of [0, 1]) tag(r, (SRC >> 4) + refAddr(c, k) + d);
    setupItfe(r, 'itfe_read.cmd', c);
    // pc0: read idx (no pop), pc1: read idx + 1 partition (pop); loop 3x over both
    r.prog('amem_read', 0, { eopgm: 0 }, rd({ indir_vld: 1, indir_mode: 0, indir_fifo_pop_enbl: 0, iter_stride: strides(0, 0, 0, 0, 0, 2) }));
    r.prog('amem_read', 1, loops([{ n: 3 }], 1, 0), rd({ indir_vld: 1, indir_mode: 0, indir_fifo_pop_enbl: 1, amem_addr_offset: 1, iter_stride: strides(0, 0, 0, 0, 0, 2) }));
    r.prog('amem_write', 0, loops([{ n: 6 }]), wr({ iter_stride: strides(1) }));
    r.trip({ amem_read_base_address: SRC >> 4, amem_write_base_address: DST >> 4, amem_read_indirect_vld: 1, amem_read_indirect_cmd_index: 2 });
    r.run();
    for (let k = 0; k < 3; k++)
      for (const d of [0, 1]) expect(r.amem.readBytes(DST + 16 * (2 * k + d), 16)).toEqual(tagOf((SRC >> 4) + refAddr(c, k) + d));
  });

  it('repeat_count tiles the table: 2 passes over wide rows (seq §8.1)', () => {
    const r = new Rig();
    rotationTables(r);
    const c: Case = { mode: 0, x: [3, 0, 2], sx: 2 }; // rows of 2 partitions
    for (let row = 0; row < 4; row++) for (const t of [0, 1]) tag(r, (SRC >> 4) + row * 2 + t);
    setupItfe(r, 'itfe_read.cmd', c, 2);
    // iter0 = tile (stride 1 partition), iter1 = index; X stride is iter5's
    r.prog('amem_read', 0, loops([{ n: 2 }, { n: 3 }]), rd({ indir_vld: 1, indir_mode: 0, indir_fifo_pop_enbl: 1, iter_stride: strides(1, 0, 0, 0, 0, 2) }));
    r.prog('amem_write', 0, loops([{ n: 6 }]), wr({ iter_stride: strides(1) }));
    r.trip({ amem_read_base_address: SRC >> 4, amem_write_base_address: DST >> 4, amem_read_indirect_vld: 1, amem_read_indirect_cmd_index: 2 });
    r.run();
    let k = 0;
    for (const t of [0, 1]) for (const x of c.x) expect(r.amem.readBytes(DST + 16 * k++, 16)).toEqual(tagOf((SRC >> 4) + x * 2 + t));
  });

  it('index count mismatch is an error citing seq §8.1', () => {
    const r = new Rig();
    const c: Case = { mode: 0, x: [1, 2, 3, 4], sx: 1 };
    setupItfe(r, 'itfe_read.cmd', c);
    // only 3 indirect reads for 4 indices
    r.prog('amem_read', 0, loops([{ n: 3 }]), rd({ indir_vld: 1, indir_mode: 0, indir_fifo_pop_enbl: 1, iter_stride: strides(0, 0, 0, 0, 0, 1) }));
    r.prog('amem_write', 0, loops([{ n: 3 }]), wr({ iter_stride: strides(1) }));
    r.trip({ amem_write_base_address: DST >> 4, amem_read_indirect_vld: 1, amem_read_indirect_cmd_index: 2 });
    let err: DiagnosticError | undefined;
    try {
      r.run();
    } catch (e) {
      err = e as DiagnosticError;
    }
    expect(err?.diagnostics[0]!.code).toBe('SIM0601');
    expect(err?.diagnostics[0]!.spec).toContain('§8.1');
  });

  it('more indirect reads than indices is an error, never a hang (seq §8.1)', () => {
    const r = new Rig();
    const c: Case = { mode: 0, x: [1, 2], sx: 1 };
    setupItfe(r, 'itfe_read.cmd', c);
    r.prog('amem_read', 0, loops([{ n: 3 }]), rd({ indir_vld: 1, indir_mode: 0, indir_fifo_pop_enbl: 1, iter_stride: strides(0, 0, 0, 0, 0, 1) }));
    r.prog('amem_write', 0, loops([{ n: 3 }]), wr({ iter_stride: strides(1) }));
    r.trip({ amem_write_base_address: DST >> 4, amem_read_indirect_vld: 1, amem_read_indirect_cmd_index: 2 });
    expect(() => r.run()).toThrow(/SIM0606|ITFE/);
  });
});

describe('indirect scatter (AMEM Write with ITFE)', () => {
  for (const c of cases)
    it(`mode ${c.mode}`, () => {
      const r = new Rig();
      rotationTables(r);
      const n = c.x.length;
      for (let k = 0; k < n; k++) tag(r, (SRC >> 4) + k);
      setupItfe(r, 'itfe_write.cmd', c);
      r.prog('amem_read', 0, loops([{ n }]), rd({ iter_stride: strides(1) }));
      r.prog('amem_write', 0, loops([{ n }]), wr({ indir_vld: 1, indir_mode: c.mode, indir_fifo_pop_enbl: 1, iter_stride: strides(0, 0, 0, 0, c.sy ?? 0, c.sx) }));
      r.trip({ amem_read_base_address: SRC >> 4, amem_write_base_address: DST >> 4, amem_write_indirect_vld: 1, amem_write_indirect_cmd_index: 2 });
      r.run();
      for (let k = 0; k < n; k++) expect(r.amem.readBytes(DST + 16 * refAddr(c, k), 16), `row ${k}`).toEqual(tagOf((SRC >> 4) + k));
      expect(r.uie.stats.indirectWrites).toBe(n);
    });

  it('back-to-back gather trips with different ITFE commands keep their indices apart', () => {
    const r = new Rig();
    rotationTables(r);
    const a: Case = { mode: 0, x: [3, 1, 2], sx: 1 };
    const b: Case = { mode: 0, x: [7, 6], sx: 1 };
    for (let k = 0; k < 8; k++) tag(r, (SRC >> 4) + k);
    r.amem.writeBytes(XT, le16(a.x));
    r.amem.writeBytes(XT + 128, le16(b.x));
    r.table('itfe_read.cmd', 0, { indir_mode: 0, x_table_base_addr: XT >> 7, num_indices_per_table_m1: 2 });
    r.table('itfe_read.cmd', 1, { indir_mode: 0, x_table_base_addr: (XT + 128) >> 7, num_indices_per_table_m1: 1 });
    const op = rd({ indir_vld: 1, indir_mode: 0, indir_fifo_pop_enbl: 1, iter_stride: strides(0, 0, 0, 0, 0, 1) });
    r.prog('amem_read', 0, loops([{ n: 3 }]), op);
    r.prog('amem_read', 1, loops([{ n: 2 }], 1, 1), op);
    r.prog('amem_write', 0, loops([{ n: 3 }]), wr({ iter_stride: strides(1) }));
    r.prog('amem_write', 1, loops([{ n: 2 }], 1, 1), wr({ iter_stride: strides(1) }));
    const common = { amem_read_base_address: SRC >> 4, amem_read_indirect_vld: 1 };
    r.trip({ ...common, trip_id: 1, amem_write_base_address: DST >> 4, amem_read_indirect_cmd_index: 0 });
    r.trip({ ...common, trip_id: 2, start_pc: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], amem_write_base_address: (DST >> 4) + 3, amem_read_indirect_cmd_index: 1 });
    r.run();
    const got = Array.from({ length: 5 }, (_, k) => r.amem.readBytes(DST + 16 * k, 16));
    const want = [3, 1, 2, 7, 6].map((x) => tagOf((SRC >> 4) + x));
    expect(got).toEqual(want);
    expect(r.done.map((d) => d.trip)).toEqual([1, 2]);
  });
});
