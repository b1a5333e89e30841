/**
 * 32-bit integer index tables (`format = int32` / `uint32`, chip §7.6, seq §5.2.2, §8.1): stored as contiguous
 * little-endian 32-bit words (the entry format the ITFE of indirection mode 1 reads), rows padded to 16-byte
 * partitions like 8-bit data; integer .npy data only; kept away from the grid and the VPU (LD0821); an ITFE command
 * must read them as the X table of indir_mode 1 (LD0162, LD0163).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decode, loadTable } from '@pyxis/codec';
import { writeNpy, type Container, type Tensor } from '@pyxis/container';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { linkErr, vfs } from './helpers.js';

const isa = loadPyxisIsa();
const MEM = 'memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }\nmemory hbm { space = hbm; origin = 0; length = 1M; }\n';
const npy = (t: Tensor) => writeNpy(t);

/** Independent reference: one little-endian 32-bit word per element, each row padded to a multiple of 16 bytes. */
function refBytes(rows: number[][]): Uint8Array {
  const rowLen = Math.ceil((rows[0]!.length * 4) / 16) * 16;
  const out = new Uint8Array(rows.length * rowLen);
  const dv = new DataView(out.buffer);
  rows.forEach((r, h) => r.forEach((v, w) => dv.setUint32(h * rowLen + 4 * w, v >>> 0, true)));
  return out;
}

function tensorSection(script: string, files: Record<string, Uint8Array>, name = 'idx') {
  const { image } = link({ script: MEM + script, scriptFile: '/v/t.ld', readFile: vfs(files) });
  const sec = image.sections.find((s) => s.name === `.tensor.${name}`)!;
  const sym = image.symbols.find((s) => s.name === name)!;
  return { sec, sym };
}

describe('int32 / uint32 tensors: storage', () => {
  it('int32 [2, 5] from an int32 .npy: little-endian words, rows 32 bytes apart (20 bytes rounded to partitions)', () => {
    const vals = [0, 1, -1, 0x7fffffff, -0x80000000, 5, 2, 15, 0, 65536];
    const { sec, sym } = tensorSection('tensor idx { format = int32; shape = [2, 5]; data = "i.npy"; }', { 'i.npy': npy({ dtype: 'int32', shape: [2, 5], data: Int32Array.from(vals) }) });
    expect([...sec.data]).toEqual([...refBytes([vals.slice(0, 5), vals.slice(5)])]);
    expect(sec.size).toBe(64);
    expect(sym.tensor).toMatchObject({ format: 'Int32', shape: [2, 5], strides: [32, 4] });
  });

  it('uint32 from a uint32 .npy keeps values above 2^31; narrower integer dtypes widen', () => {
    const vals = [0xffffffff, 0x80000000, 3, 4];
    const a = tensorSection('tensor idx { format = uint32; shape = [1, 4]; data = "u.npy"; }', { 'u.npy': npy({ dtype: 'uint32', shape: [1, 4], data: Uint32Array.from(vals) }) });
    expect([...a.sec.data]).toEqual([...refBytes([vals])]);
    expect(a.sym.tensor!.format).toBe('UInt32');
    const b = tensorSection('tensor idx { format = int32; shape = [1, 3]; data = "s.npy"; }', { 's.npy': npy({ dtype: 'int16', shape: [1, 3], data: Int16Array.from([-2, 7, 300]) }) });
    expect([...b.sec.data]).toEqual([...refBytes([[-2, 7, 300]])]);
  });

  it('raw = "file": 4 bytes per element, copied as little-endian words; a wrong size is LD0202', () => {
    const raw = new Uint8Array([1, 0, 0, 0, 0xff, 0xff, 0, 0, 9, 8, 7, 6]);
    const { sec } = tensorSection('tensor idx { format = uint32; shape = [1, 3]; raw = "r.bin"; }', { 'r.bin': raw });
    expect([...sec.data.subarray(0, 12)]).toEqual([...raw]);
    expect([...sec.data.subarray(12)]).toEqual(new Array(4).fill(0));
    const d = linkErr({ script: MEM + 'tensor idx { format = uint32; shape = [1, 4]; raw = "r.bin"; }', scriptFile: '/v/t.ld', readFile: vfs({ 'r.bin': raw }) });
    expect(d.map((x) => x.code)).toEqual(['LD0202']);
    expect(d[0]!.message).toMatch(/needs 16/);
  });

  it('property: any int32 vector is stored as its two\'s complement little-endian words', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 40 }), (vals) => {
        const { sec } = tensorSection(`tensor idx { format = int32; shape = [1, ${vals.length}]; data = "i.npy"; }`, { 'i.npy': npy({ dtype: 'int32', shape: [1, vals.length], data: Int32Array.from(vals) }) });
        expect([...sec.data]).toEqual([...refBytes([vals])]);
      }),
      { numRuns: 40 },
    );
  });
});

describe('int32 / uint32 tensors: data diagnostics', () => {
  const err = (fmt: string, t: Tensor) => linkErr({ script: MEM + `tensor idx { format = ${fmt}; shape = [1, ${t.data.length}]; data = "d.npy"; }`, scriptFile: '/v/t.ld', readFile: vfs({ 'd.npy': npy(t) }) });
  it('float data is LD0208 (an index is an integer)', () => {
    const d = err('int32', { dtype: 'float32', shape: [1, 2], data: Float32Array.from([1, 2]) });
    expect(d.map((x) => x.code)).toEqual(['LD0208']);
    expect(d[0]!.message).toMatch(/dtype float32 cannot initialise a Int32 tensor \(give integers: int32 or uint32/);
  });
  it('a negative value in a uint32 table, and a uint32 value above 2^31 - 1 in an int32 table, are LD0207', () => {
    const a = err('uint32', { dtype: 'int32', shape: [1, 3], data: Int32Array.from([1, -4, 2]) });
    expect(a.map((x) => x.code)).toEqual(['LD0207']);
    expect(a[0]!.message).toMatch(/element 1 is -4, outside the UInt32 range 0\.\.4294967295/);
    const b = err('int32', { dtype: 'uint32', shape: [1, 2], data: Uint32Array.from([0x80000000, 0]) });
    expect(b[0]!.message).toMatch(/element 0 is 2147483648, outside the Int32 range/);
  });
  it('an int32 .npy for an RFP8 tensor is still LD0208', () => {
    const d = err('RFP8', { dtype: 'int32', shape: [1, 2], data: Int32Array.from([1, 2]) });
    expect(d.map((x) => x.code)).toEqual(['LD0208']);
  });
});

const PROGS = `
.program to_grid amem_read { Read_SRAM tgt_fifo=Grid }
.program to_vpu amem_read { Read_SRAM tgt_fifo=Vbuffer }
.program relu amem_read { Read_SRAM_with_ReLU tgt_fifo=AMEM_write }
.program copy_rd amem_read { Read_SRAM tgt_fifo=AMEM_write }
.program copy_wr amem_write { Write src_fifo=AMEM_read }
.program from_grid amem_write { Write src_fifo=Grid }
.program rmw amem_write { RMW_Add src_fifo=AMEM_read }
`;
const progObj = (): Container => assemble([{ file: 'p.pasm', text: PROGS }], { isa, listing: false }).object;

describe('int32 / uint32 tensors: no compute consumer (LD0821)', () => {
  const script = (trip: string) =>
    MEM + `tensor idx { format = int32; shape = [1, 32]; zero = true; }\ntensor f8 { format = RFP8; shape = [1, 128]; zero = true; }\ntensor out { format = int32; shape = [1, 32]; zero = true; }\nqueue uie0 { trip t { ${trip} } }\n`;
  const run = (trip: string) => link({ script: script(trip), scriptFile: '/v/t.ld', objects: [{ file: 'p.pobj', container: progObj() }] });
  const codes = (trip: string) => linkErr({ script: script(trip), scriptFile: '/v/t.ld', objects: [{ file: 'p.pobj', container: progObj() }] });

  it('an AMEM-to-AMEM copy of an int32 tensor links; a DMA of one links', () => {
    expect(() => run('amem_read = copy_rd; amem_write = copy_wr; read = idx; write = out;')).not.toThrow();
    expect(() => link({ script: MEM + 'tensor h { format = uint32; shape = [1, 256]; region = hbm; zero = true; }\ntensor a { format = uint32; shape = [1, 256]; zero = true; }\nqueue h2a { trip load { src = h; dst = a; } }\n', scriptFile: '/v/t.ld' })).not.toThrow();
  });
  it('read sent to the grid or the Vbuffer, read with ReLU: LD0821 at the tensor', () => {
    const g = codes('amem_read = to_grid; read = idx;');
    expect(g.map((x) => x.code)).toEqual(['LD0821']);
    expect(g[0]!.message).toBe('trip `t`: `idx` is a Int32 tensor (32-bit integers); program `to_grid` sends its rows to the grid (tgt_fifo), which does not take 32-bit integers');
    expect(g[0]!.span).toMatchObject({ line: 6 });
    expect(codes('amem_read = to_vpu; read = idx;')[0]!.message).toMatch(/Vbuffer \(VPU\)/);
    expect(codes('amem_read = relu; amem_write = copy_wr; read = idx; write = out;')[0]!.message).toMatch(/Read_SRAM_with_ReLU/);
  });
  it('write from the grid, RMW_Add, weights and rmw_source: LD0821; an RFP8 tensor on the same ports links', () => {
    expect(codes('amem_read = to_grid; amem_write = from_grid; read = f8; write = out;')[0]!.message).toMatch(/`out`.*stores rows from the grid/);
    expect(codes('amem_read = copy_rd; amem_write = rmw; read = f8; write = out;')[0]!.message).toMatch(/RMW_Add/);
    expect(codes('amem_read = to_grid; read = f8; weights = idx;')[0]!.message).toMatch(/weights read port feeds the grid/);
    expect(codes('amem_read = copy_rd; amem_write = copy_wr; read = f8; write = f8; rmw_source = idx;').map((x) => x.code)).toContain('LD0821');
    expect(() => run('amem_read = to_grid; read = f8;')).not.toThrow();
  });
});

describe('ITFE commands naming int32 tables (LD0162, LD0163; seq §8.1)', () => {
  const ITFE = loadTable('pyxis', 'itfe_command');
  const cfg = (fmt: string, entry: string) => MEM + `tensor idx { format = ${fmt}; shape = [1, 8]; zero = true; }\nconfig itfe_read.cmd { uie = 0; index = 1; entry { ${entry} } }\n`;
  it('indir_mode 1 with an int32 X table links and fills x_table_base_addr', () => {
    const { image } = link({ script: cfg('int32', 'indir_mode = 1; x_table_base_addr = idx; num_indices_per_table_m1 = 7;'), scriptFile: '/v/t.ld' });
    const s = image.sections.find((x) => x.name === '.cfg.c0.uie0.itfe_read.cmd.1')!;
    const idx = image.symbols.find((x) => x.name === 'idx')!;
    const at = image.sections[idx.section]!.address;
    expect(at % 128).toBe(0);
    expect(decode(ITFE, s.data, 0)).toMatchObject({ indir_mode: 1, x_table_base_addr: at >> 7 });
  });
  it('an int32 table read with 16-bit entries (mode 0, or as a Y table) and a 16-bit table read by mode 1: LD0162', () => {
    const a = linkErr({ script: cfg('int32', 'indir_mode = 0; x_table_base_addr = idx;'), scriptFile: '/v/t.ld' });
    expect(a.map((x) => x.code)).toEqual(['LD0162']);
    expect(a[0]!.message).toMatch(/holds 32-bit indices \(Int32\) but indir_mode 0 reads 16-bit entries/);
    const b = linkErr({ script: cfg('uint32', 'indir_mode = 3; x_table_base_addr = idx;'), scriptFile: '/v/t.ld' });
    expect(b.map((x) => x.code)).toEqual(['LD0162']);
    const c = linkErr({ script: cfg('Int16', 'indir_mode = 1; x_table_base_addr = idx;'), scriptFile: '/v/t.ld' });
    expect(c[0]!.message).toMatch(/indir_mode 1 reads 32-bit indices but `idx` is a 16-bit Int16 tensor/);
  });
  it('a raw-bytes RFP8 table stays accepted in every mode; reading more indices than an int32 table holds warns (LD0163)', () => {
    expect(() => link({ script: cfg('RFP8', 'indir_mode = 1; x_table_base_addr = idx;'), scriptFile: '/v/t.ld' })).not.toThrow();
    const { diagnostics } = link({ script: cfg('int32', 'indir_mode = 1; x_table_base_addr = idx; num_indices_per_table_m1 = 8;'), scriptFile: '/v/t.ld' });
    expect(diagnostics.map((d) => d.code)).toContain('LD0163');
    expect(diagnostics.find((d) => d.code === 'LD0163')!.message).toMatch(/reads 9 indices from `idx`, which holds 8/);
  });
});
