import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decode, encode, loadTable } from '@pyxis/codec';
import { writeNpy, type Container } from '@pyxis/container';
import { assemble, decodePatchBlob, loadPyxisIsa } from '@pyxis/target-pyxis/asm';

const isa = loadPyxisIsa();
import type { DiagnosticError } from '@pyxis/diagnostics';
import { countPatches, link, mapJson, mapText, microPatch, parseLinkScript, type LinkOptions } from '@pyxis/target-pyxis/ld';
import { linkErr, vfs } from './helpers.js';

const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const grammars = fileURLToPath(new URL('../../../../grammars/pyxis/', import.meta.url));
const copyObj = (rows = 8): Container => assemble([{ file: 'copy.pasm', text: readFileSync(samples + 'copy.pasm', 'utf8').replace(/loop i0 8/g, `loop i0 ${rows}`) }], { isa, listing: false }).object;



const srcNpy = () => {
  const data = new Float32Array(8 * 128).map((_, i) => (i % 7) - 3);
  return writeNpy({ dtype: 'float32', shape: [8, 128], data });
};

const COPY = `
memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }
memory hbm { space = hbm; origin = 0; length = 1G; }
tensor src { format = RFP8; shape = [8, 128]; region = amem0; data = "src.npy"; }
tensor dst { format = RFP8; shape = [8, 128]; region = amem0; zero = true; }
tensor src_hbm { format = RFP8; shape = [8, 128]; region = hbm; data = "src.npy"; }
tensor out_hbm { format = RFP8; shape = [8, 128]; region = hbm; zero = true; }
queue h2a { trip load { src = src_hbm; dst = src; trip_power = 3; } }
queue uie0 { trip copy { amem_read = copy_rd; amem_write = copy_wr; read = src; write = dst; trip_power = 8; } }
queue a2h { trip store { src = dst; dst = out_hbm; } }
copy after load;
store after copy;
`;

const hdr = loadTable('pyxis', 'desc_header');

describe('descriptor tables (chip §11.4)', () => {
  it('common header: wait_barrier_id[9:0], notify_list 8x12 bits, trip_id 20, format 2 -> 16 bytes', () => {
    const bytes = encode(hdr, { wait_barrier_id: 5, notify_list: [(1 << 10) | 3, 0x7ff, 0, 0, 0, 0, 0, 0xfff], trip_id: 0xabcde });
    // independent reference: the 128-bit little-endian integer built field by field in spec order
    const v = 5n | (BigInt((1 << 10) | 3) << 10n) | (0x7ffn << 22n) | (0xfffn << (10n + 7n * 12n)) | (0xabcden << 106n);
    const ref = new Uint8Array(16);
    for (let i = 0; i < 16; i++) ref[i] = Number((v >> BigInt(8 * i)) & 0xffn);
    expect([...bytes]).toEqual([...ref]);
    expect(hdr.bytes).toBe(16);
  });
  it('engine descriptors are padded to 8 bytes with the sizes of docs/image-layout.md', () => {
    const sizes = Object.fromEntries(['desc_uie', 'desc_h2a', 'desc_a2h', 'desc_icdma', 'desc_mpe_patch', 'desc_mpe_dma', 'desc_barrier_config', 'desc_enqueue_record'].map((n) => [n, loadTable('pyxis', n).bytes]));
    expect(sizes).toEqual({ desc_uie: 40, desc_h2a: 32, desc_a2h: 32, desc_icdma: 32, desc_mpe_patch: 32, desc_mpe_dma: 32, desc_barrier_config: 24, desc_enqueue_record: 8 });
    // MPE patch mode: struct mpe_patch_blob_descr_t after the header; mode 0 at bytes 30..31 (chip §12.6.1.1)
    const p = encode(loadTable('pyxis', 'desc_mpe_patch'), { blob_address: 0x1234_5678, blob_length: 3, num_patches: 2 });
    expect([...p.subarray(16, 32)]).toEqual([0x78, 0x56, 0x34, 0x12, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const d = encode(loadTable('pyxis', 'desc_mpe_dma'), { source_address: 8, target_address: 16, length: 2 });
    expect([...d.subarray(16, 32)]).toEqual([8, 0, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0]);
  });
  it('micro_patch_t: target, reg_size N-1, reg_repeat N-1, data padded to 8 bytes per element (chip §12.6.1.2)', () => {
    const data = new Uint8Array(2 * 12).map((_, i) => i + 1);
    const b = microPatch(0x4000_0400, 12, data);
    expect([...b.subarray(0, 8)]).toEqual([0x00, 0x04, 0x00, 0x40, 11, 0, 1, 0]);
    expect(b.length).toBe(8 + 2 * 16);
    expect([...b.subarray(8, 24)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0]);
    expect([...b.subarray(24, 40)]).toEqual([13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0, 0, 0, 0]);
    expect(countPatches(b)).toBe(1);
    expect(countPatches(b.subarray(0, 32))).toMatch(/run past the end/);
    // cross-check with the assembler's patch-blob decoder
    const dec = decodePatchBlob(b);
    expect(dec).toHaveLength(1);
  });
});

describe('link: copy trip with DMA load/store', () => {
  const run = () => link({ script: COPY, scriptFile: '/virtual/copy.ld', objects: [{ file: 'copy.pobj', container: copyObj() }], readFile: vfs({ 'src.npy': srcNpy() }) });

  it('emits descriptors, barriers and enqueue records that decode to the script', () => {
    const { image, map } = run();
    const sec = (n: string) => image.sections.find((s) => s.name === n)!;
    const sym = (n: string) => image.symbols.find((s) => s.name === n)!;
    const srcA = image.sections[sym('src').section]!.address;
    const dstA = image.sections[sym('dst').section]!.address;
    const uie = decode(loadTable('pyxis', 'desc_uie'), sec('.desc.c0.q00.0').data);
    expect(uie['trip_valid_mask']).toBe(0b11); // amem_read = 0, amem_write = 1
    expect(uie['amem_read_base_address']).toBe(srcA >> 4);
    expect(uie['amem_write_base_address']).toBe(dstA >> 4);
    expect(uie['trip_power']).toBe(8);
    const bcfg = decode(loadTable('pyxis', 'desc_barrier_config'), sec('.desc.c0.q22.0').data);
    expect(bcfg).toMatchObject({ barrier_id: 1, notify_count: 1, wait_count: 1, wait_barrier_id: 0 });
    const h2a = decode(loadTable('pyxis', 'desc_h2a'), sec('.desc.c0.q10.0').data);
    const a2h = decode(loadTable('pyxis', 'desc_a2h'), sec('.desc.c0.q11.0').data);
    // load -> barrier 1 -> copy -> barrier 2 -> store
    expect((h2a['notify_list'] as number[])[0]).toBe(1);
    expect(uie['wait_barrier_id']).toBe(1);
    expect((uie['notify_list'] as number[])[0]).toBe(2);
    expect(a2h['wait_barrier_id']).toBe(2);
    expect(h2a['length']).toBe(1); // 1024 bytes = one 1 KiB block
    expect(h2a['hbm_base_address']).toBe(image.sections[sym('src_hbm').section]!.address / 1024);
    expect(h2a['amem_start_address']).toBe(srcA >> 7);
    // enqueue records: barrier config first, then queues by id
    const enq = sec('.enqueue').data;
    const et = loadTable('pyxis', 'desc_enqueue_record');
    const recs = Array.from({ length: enq.length / 8 }, (_, i) => decode(et, enq, i * 8));
    expect(recs.map((r) => r['queue_id'])).toEqual([0x22, 0x00, 0x10, 0x11]);
    expect(recs[1]).toMatchObject({ cluster: 0, descriptor_list_address: sec('.desc.c0.q00.0').address, descriptor_list_length: 5 });
    // microcode preloaded in cfg at the memory map address of UIE 0
    const rd = sec('.ucode.c0.uie0.amem_read.ctrl');
    expect(rd.space).toBe('cfg');
    expect(rd.address).toBe(0x4000_0000);
    expect(map.microcode.map((p) => [p.seq, p.program, p.pc])).toEqual([['amem_read', 'copy_rd', 0], ['amem_write', 'copy_wr', 0]]);
    // tensor symbols carry TensorInfo
    expect(sym('src').tensor).toEqual({ shape: [8, 128], format: 'RFP8', eb: 0, strides: [128, 1] });
    expect(sec('.tensor.src').kind).toBe('data');
    expect(sec('.tensor.dst').kind).toBe('zero');
    expect((image.metadata['pyxis'] as { barriers: unknown[] }).barriers).toHaveLength(2);
  });

  it('writes a text and a JSON map', () => {
    const { map } = run();
    const text = mapText(map);
    expect(text).toMatch(/Memory Configuration/);
    expect(text).toMatch(/Barrier allocation/);
    expect(text).toMatch(/copy_rd/);
    const j = JSON.parse(mapJson(map));
    expect(j.barriers).toHaveLength(2);
    expect(j.regions.find((r: { name: string }) => r.name === 'amem0').used).toBeGreaterThan(0);
  });

  it('reports missing files, bad shapes and overflow at file:line:col', () => {
    const base = { scriptFile: '/virtual/copy.ld', objects: [{ file: 'copy.pobj', container: copyObj() }] };
    const missing = linkErr({ ...base, script: COPY, readFile: vfs({}) });
    expect(missing[0]).toMatchObject({ code: 'LD0201', span: { file: '/virtual/copy.ld', line: 4 } });
    const wrong = linkErr({ ...base, script: COPY.replace('shape = [8, 128]; region = amem0; data', 'shape = [4, 128]; region = amem0; data'), readFile: vfs({ 'src.npy': srcNpy() }) });
    expect(wrong.map((d) => d.code)).toContain('LD0206');
    const over = linkErr({ ...base, script: COPY.replace('length = 32M', 'length = 1K'), readFile: vfs({ 'src.npy': srcNpy() }) });
    expect(over.map((d) => d.code)).toContain('LD0306');
    const typo = linkErr({ ...base, script: COPY.replace('trip_power = 8', 'trip_powr = 8'), readFile: vfs({ 'src.npy': srcNpy() }) });
    expect(typo.find((d) => d.severity === 'error')!.notes!.join()).toMatch(/did you mean `trip_power`/);
    const prog = linkErr({ ...base, script: COPY.replace('amem_read = copy_rd', 'amem_read = copy_wr'), readFile: vfs({ 'src.npy': srcNpy() }) });
    expect(prog.find((d) => d.severity === 'error')!.code).toBe('LD0128'); // (after RPT0001: src.npy's -3..3 lose precision in RFP8 at EB 0)
  });

  it('parse errors point at the token', () => {
    try {
      parseLinkScript('memory a {\n  origin = ;\n}', 'x.ld');
      throw new Error('no error');
    } catch (e) {
      expect((e as DiagnosticError).diagnostics[0]).toMatchObject({ code: 'LD0001', span: { file: 'x.ld', line: 2, column: 12 } });
    }
  });
});

describe('link: checks', () => {
  const objects = () => [{ file: 'copy.pobj', container: copyObj() }];
  it('rejects hashed and unhashed views in one 16 KiB block (chip §7.5)', () => {
    const d = linkErr({
      objects: objects(),
      script: `memory a { origin = 0; length = 0x4100; }
memory b { view = unhashed; origin = 0x4100; length = 0x10000; }
tensor x { format = RFP8; shape = [65, 256]; region = a; zero = true; }
tensor y { format = RFP8; shape = [1, 16]; region = b; zero = true; }`,
    });
    expect(d[0]).toMatchObject({ code: 'LD0307', spec: 'pyxis-chip-fspec.md §7.5' });
  });
  it('rejects InMemAdd source/destination not aligned modulo 16 KiB (chip §7.4.1)', () => {
    const d = linkErr({
      objects: objects(),
      script: `memory u { view = unhashed; origin = 0; length = 1M; }
tensor s { format = RFP8; shape = [8, 128]; region = u; zero = true; }
tensor t { format = RFP8; shape = [8, 128]; region = u; address = 0x8010; zero = true; }
queue uie0 { trip add { amem_read = copy_rd; amem_write = copy_wr; read = s; write = t; rmw_source = s; } }`,
    });
    expect(d[0]).toMatchObject({ code: 'LD0811' });
    expect(d[0]!.message).toMatch(/16 KiB/);
  });
  it('rejects aliasing writes from two UIEs without a barrier, accepts them with one (chip §11.7)', () => {
    const script = `memory m { origin = 0; length = 1M; }
tensor a { format = RFP8; shape = [1, 24]; region = m; address = 0x1000; zero = true; }
tensor b { format = RFP8; shape = [1, 16]; region = m; address = 0x1010; zero = true; }
tensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }
queue uie0 { trip w0 { amem_read = copy_rd; amem_write = copy_wr; read = s; write = a; } }
queue uie1 { trip w1 { amem_read = copy_rd; amem_write = copy_wr; read = s; write = b; } }`;
    // one-row programs: the writes stay inside the 1-row tensors (LD0832)
    const one = () => [{ file: 'copy.pobj', container: copyObj(1) }];
    const d = linkErr({ objects: one(), script });
    expect(d[0]).toMatchObject({ code: 'LD0812', spec: 'pyxis-chip-fspec.md §11.7, §7.4.2' });
    expect(() => link({ objects: one(), script: script + '\nw1 after w0;' })).not.toThrow();
    // same writers on one UIE are ordered by the queue: no error
    expect(() => link({ objects: one(), script: script.replace('queue uie1 { trip w1', 'queue uie0 { trip w1').replace(/queue uie0 \{ trip w0 ([^\n]*) \}\nqueue uie0 \{ (trip w1[^\n]*) \}/, 'queue uie0 { trip w0 $1 $2 }') })).not.toThrow();
    // a tensor at an address that is not 16-byte aligned
    const bad = linkErr({ objects: objects(), script: script.replace('address = 0x1010', 'address = 0x1008') });
    expect(bad.map((x) => x.code)).toContain('LD0802');
  });
  it('16-bit tensors must sit on even partitions (seq §1.1)', () => {
    const d = linkErr({ objects: objects(), script: `memory m { origin = 0; length = 1M; }\ntensor h { format = RFP16; shape = [2, 16]; region = m; address = 0x10; align = 16; zero = true; }` });
    expect(d[0]).toMatchObject({ code: 'LD0801' });
  });
});

describe('link: microcode overlays (chip §11.1, §12.6)', () => {
  const big = (name: string, n: number) => `.program ${name} amem_read {\n${Array.from({ length: n }, () => '  Read_SRAM tgt_fifo=AMEM_write').join('\n')}\n}\n`;
  const obj = () => assemble([{ file: 'big.pasm', text: big('pa', 20) + big('pb', 20) + big('pc', 10) }], { isa, listing: false }).object;
  const script = `memory m { origin = 0; length = 1M; }
tensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }
queue uie3 { trip t1 { amem_read = pa; read = s; } trip t2 { amem_read = pb; read = s; } trip t3 { amem_read = pc; read = s; } trip t4 { amem_read = pb; read = s; } }`;
  it('preloads what fits and patches the rest with an MPE trip between barriers', () => {
    const { image, map } = link({ script, objects: [{ file: 'big.pobj', container: obj() }] });
    expect(map.microcode.map((p) => [p.program, p.pc, p.phase])).toEqual([['pa', 0, 0], ['pb', 0, 1], ['pc', 20, 1]]);
    const pre = image.sections.find((s) => s.name === '.ucode.c0.uie3.amem_read.ctrl')!;
    expect(pre.address).toBe(0x4000_0000 + 3 * 0x10_0000);
    expect(pre.size).toBe(20 * 32);
    // the patch trip on mpe3 waits for t1 and is waited for by t2
    const trips = map.trips;
    const patch = trips.find((t) => t.queue_id === 0x15 + 3)!;
    const t1 = trips.find((t) => t.name === 't1')!;
    const t2 = trips.find((t) => t.name === 't2')!;
    expect(t1.notify).toEqual([patch.wait]);
    expect(patch.notify).toEqual([t2.wait]);
    const mpe = image.sections.find((s) => s.name === '.desc.c0.q18.0')!;
    const d = decode(loadTable('pyxis', 'desc_mpe_patch'), mpe.data);
    const blob = image.sections.find((s) => s.kind === 'patch')!;
    expect(d['blob_address']).toBe(blob.address);
    expect(d['num_patches']).toBe(4); // ctrl + op for pb and pc
    expect(d['blob_length']).toBe(blob.size / 8);
    // Phase 1 loads pb at PC 0 and pc at PC 20 of UIE 3's amem_read memories: one micro_patch_t per
    // program and memory (control, then op), target = memory address + 3 * uie_stride + PC * stride,
    // reg_size = the memory's word stride, reg_repeat = the program's words (chip §12.6.1.2). The
    // addresses come from grammars/pyxis/memory_map.json, read here directly.
    const mm = JSON.parse(readFileSync(grammars + 'memory_map.json', 'utf8')) as { uie_stride: number; sequencers: Array<{ name: string; control: { address: number; stride: number }; op: { address: number; stride: number } }> };
    const rd = mm.sequencers.find((x) => x.name === 'amem_read')!;
    const base = 3 * mm.uie_stride;
    const patches = decodePatchBlob(blob.data);
    expect(patches.map((p) => [p.target_address, p.reg_size, p.reg_repeat])).toEqual([
      [rd.control.address + base + 0 * rd.control.stride, rd.control.stride, 20],
      [rd.op.address + base + 0 * rd.op.stride, rd.op.stride, 20],
      [rd.control.address + base + 20 * rd.control.stride, rd.control.stride, 10],
      [rd.op.address + base + 20 * rd.op.stride, rd.op.stride, 10],
    ]);
    expect(rd.control.address + base).toBe(0x4000_0000 + 3 * 0x10_0000); // the preload section's address above
    // the op words are the object's, unchanged (no op-word relocations in amem_read programs)
    const objOp = (n: string) => obj().sections.find((x) => x.name === `amem_read.${n}.op`)!.data;
    expect([...patches[1]!.data]).toEqual([...objOp('pb')]);
    expect([...patches[3]!.data]).toEqual([...objOp('pc')]);
    // StartPC of t3 = 20 (pc placed after pb)
    const uieList = image.sections.find((s) => s.name === '.desc.c0.q03.0')!;
    const ut = loadTable('pyxis', 'desc_uie');
    expect((decode(ut, uieList.data, 2 * 40)['start_pc'] as number[])[0]).toBe(20);
  });
  it('a program larger than the sequencer memory is an error', () => {
    const o = assemble([{ file: 'huge.pasm', text: big('pa', 20) }], { isa, listing: false }).object;
    // fake a 40-word program by doubling the sections
    const ctrl = o.sections[0]!;
    const op = o.sections[1]!;
    ctrl.data = new Uint8Array([...ctrl.data, ...ctrl.data]);
    ctrl.size = ctrl.data.length;
    op.data = new Uint8Array([...op.data, ...op.data]);
    op.size = op.data.length;
    o.symbols[0]!.size = 40;
    const d = linkErr({ objects: [{ file: 'huge.pobj', container: o }], script: `memory m { origin = 0; length = 1M; }\ntensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }\nqueue uie0 { trip t { amem_read = pa; read = s; } }` });
    expect(d[0]).toMatchObject({ code: 'LD0601' });
  });
});

describe('link: weight databases (delegated to ./weights)', () => {
  it('builds linear8 and compressed databases, 128-byte aligned, with the error report in the map', () => {
    const w = new Float32Array(16 * 32).map((_, i) => Math.sin(i) * 0.5 + 0.01);
    const npy = writeNpy({ dtype: 'float32', shape: [16, 32], data: w });
    const { image, map } = link({
      script: `memory m { origin = 0; length = 1M; }
tensor pad { format = RFP8; shape = [1, 16]; region = m; zero = true; }
weights w8 { kind = linear8; data = "w.npy"; eb = 0; region = m; }
weights wc { kind = compressed; data = "w.npy"; organisation = cin_per_cout; block_size = 8; region = m; }`,
      scriptFile: '/v/w.ld',
      readFile: vfs({ 'w.npy': npy }),
    });
    const w8 = image.sections.find((s) => s.name === '.wdb.w8')!;
    const wc = image.sections.find((s) => s.name === '.wdb.wc')!;
    expect(w8.address % 128).toBe(0);
    expect(wc.address % 128).toBe(0);
    expect(w8.size).toBeGreaterThanOrEqual(16 * 32);
    const rep = map.weights.find((x) => x.name === 'wc')!.report;
    expect(rep['snrDb']).toBeGreaterThan(10);
    expect(mapText(map)).toMatch(/snr=/);
    const bad = linkErr({ script: `weights x { kind = linear9; data = "w.npy"; }`, readFile: vfs({ 'w.npy': npy }) });
    expect(bad[0]!.notes!.join()).toMatch(/linear8/);
  });
});

describe('link: more engines and rules', () => {
  const objects = () => [{ file: 'copy.pobj', container: copyObj() }];
  it('ICDMA: destination cluster from Table 11-1, 128-byte units, cross-cluster barrier ids', () => {
    const { image, map } = link({
      objects: objects(),
      script: `memory a0 { cluster = 0; origin = 0; length = 1M; }
memory a2 { cluster = 2; origin = 0; length = 1M; }
tensor s { format = RFP8; shape = [3, 100]; region = a0; zero = true; }
tensor d { format = RFP8; shape = [3, 100]; region = a2; zero = true; }
tensor e { format = RFP8; shape = [8, 128]; region = a2; zero = true; }
queue icdma_to2 { cluster = 0; trip xfer { src = s; dst = d; } }
queue uie4 { cluster = 2; trip use { amem_read = copy_rd; amem_write = copy_wr; read = e; write = e; } }
use after xfer;`,
    });
    const ic = decode(loadTable('pyxis', 'desc_icdma'), image.sections.find((x) => x.name === '.desc.c0.q13.0')!.data);
    // 3 rows of 112 bytes = 336 bytes -> 3 words of 128 B
    expect(ic['length']).toBe(3);
    expect(ic['core_switch_plane_mask']).toBe(15);
    expect((ic['notify_list'] as number[])[0]).toBe((2 << 10) | 1); // barrier 1 of cluster 2
    expect(map.barriers[0]).toMatchObject({ cluster: 2, id: 1 });
    // ICDMA queue 1 of cluster 0 targets cluster 2: a destination elsewhere is refused
    const bad = linkErr({
      objects: objects(),
      script: `memory a0 { cluster = 0; origin = 0; length = 1M; }\nmemory a3 { cluster = 3; origin = 0; length = 1M; }\ntensor s { format = RFP8; shape = [1, 128]; region = a0; zero = true; }\ntensor d { format = RFP8; shape = [1, 128]; region = a3; zero = true; }\nqueue icdma1 { trip x { src = s; dst = d; } }`,
    });
    expect(bad[0]).toMatchObject({ code: 'LD0501' });
    expect(bad[0]!.message).toMatch(/cluster 2/);
  });
  it('a UIE trip notifying 9 barriers gets a no-op descriptor after it in the same list', () => {
    const lines = ['memory m { origin = 0; length = 4M; }', 'tensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }'];
    const uie1: string[] = [];
    const uie2: string[] = [];
    for (let i = 0; i < 9; i++) {
      uie2.push(`trip x${i} { amem_read = copy_rd; read = s; }`);
      uie1.push(`trip c${i} { amem_read = copy_rd; read = s; after = [p, x${i}]; }`);
    }
    lines.push('queue uie0 { trip p { amem_read = copy_rd; read = s; } }', `queue uie2 { ${uie2.join(' ')} }`, `queue uie1 { ${uie1.join(' ')} }`);
    const { image } = link({ objects: objects(), script: lines.join('\n') });
    const list = image.sections.find((x) => x.name === '.desc.c0.q00.0')!;
    expect(list.size).toBe(80);
    const t = loadTable('pyxis', 'desc_uie');
    const p = decode(t, list.data, 0);
    const noop = decode(t, list.data, 40);
    expect((p['notify_list'] as number[]).filter((x) => x)).toHaveLength(8);
    expect(noop['trip_valid_mask']).toBe(0);
    expect(noop['wait_barrier_id']).toBe(0);
    expect((noop['notify_list'] as number[]).filter((x) => x)).toHaveLength(1);
  });
  it('seq §1 size rules for declared grid operations', () => {
    const base = `memory m { origin = 0; length = 4M; }
tensor i { format = RFP8; shape = [4, 11, 64]; region = m; zero = true; }
tensor o { format = RFP8; shape = [6, 8, 64]; region = m; zero = true; }
queue uie0 { trip t { amem_read = copy_rd; read = i; write = o; op = OP; } }`;
    const c3 = linkErr({ objects: objects(), script: base.replace('OP', 'conv3x3_s1') });
    expect(c3[0]).toMatchObject({ code: 'LD0820', spec: 'pyxis-uie-sequencers-fspec.md §1.2' });
    expect(c3[0]!.message).toMatch(/11 rows/);
    const c1 = linkErr({ objects: objects(), script: base.replace('OP', 'conv1x1') });
    expect(c1.map((d) => d.message).join()).toMatch(/4 channels.*|6 channels/);
    expect(() => link({ objects: objects(), script: base.replace('OP', 'conv3x3_s1').replace('[4, 11, 64]', '[4, 10, 64]') })).not.toThrow();
    const typo = linkErr({ objects: objects(), script: base.replace('OP', 'conv3x3') });
    expect(typo.find((d) => d.severity === 'error')!.notes!.join()).toMatch(/conv3x3_s1/);
  });
});

describe('link: fixed program placement and MPE trips', () => {
  it('honours `.program p seq at N` and fills start_pc with it', () => {
    const o = assemble([{ file: 'f.pasm', text: '.program pf amem_read at 4 {\n  loop i0 2 { Read_SRAM tgt_fifo=AMEM_write iter_stride[i0]=8 }\n  Read_SRAM\n}\n.program pg amem_read { Read_SRAM\n Read_SRAM\n Read_SRAM\n Read_SRAM\n Read_SRAM }\n' }], { isa, listing: false }).object;
    const { image, map } = link({
      objects: [{ file: 'f.pobj', container: o }],
      script: `memory m { origin = 0; length = 1M; }\ntensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }\nqueue uie0 { trip a { amem_read = pf; read = s; } trip b { amem_read = pg; read = s; } }`,
    });
    expect(map.microcode.map((p) => [p.program, p.pc])).toEqual([['pf', 4], ['pg', 6]]);
    const t = loadTable('pyxis', 'desc_uie');
    const list = image.sections.find((x) => x.name === '.desc.c0.q00.0')!.data;
    expect((decode(t, list, 0)['start_pc'] as number[])[0]).toBe(4);
    expect((decode(t, list, 40)['start_pc'] as number[])[0]).toBe(6);
    // sol_pc of the loop in pf is relocated to the placed PC
    const ctrl = image.sections.find((x) => x.name === '.ucode.c0.uie0.amem_read.ctrl')!;
    const ct = loadTable('pyxis', 'seq_control_pf');
    const w0 = decode(ct, ctrl.data, 4 * 32);
    expect(w0['iter0_is_eol']).toBe(1);
    expect(w0['iter0_sol_pc']).toBe(4);
  });
  it('MPE patch-mode trip from an assembler patch blob, and a DMA-mode trip', async () => {
    const { programsPatchBlob } = await import('@pyxis/target-pyxis/asm');
    const r = assemble([{ file: 'p.pasm', text: readFileSync(samples + 'copy.pasm', 'utf8') }], { isa, listing: false });
    const { blob, patches } = programsPatchBlob(r.programs, isa);
    const { image } = link({
      script: `memory m { origin = 0; length = 1M; }
blob ucode { file = "u.blob"; region = m; }
tensor a { format = RFP8; shape = [1, 64]; region = m; zero = true; }
tensor b { format = RFP8; shape = [1, 64]; region = m; zero = true; }
queue mpe12 { trip load { blob = ucode; } trip mv { src = a; dst = b; } }`,
      scriptFile: '/v/m.ld',
      readFile: vfs({ 'u.blob': blob }),
    });
    const list = image.sections.find((x) => x.name === '.desc.c0.q21.0')!;
    const p = decode(loadTable('pyxis', 'desc_mpe_patch'), list.data, 0);
    const bsec = image.sections.find((x) => x.name === '.patch.ucode')!;
    expect(p).toMatchObject({ mode: 0, blob_address: bsec.address, blob_length: blob.length / 8, num_patches: patches.length });
    const d = decode(loadTable('pyxis', 'desc_mpe_dma'), list.data, 32);
    const sa = image.sections.find((x) => x.name === '.tensor.a')!.address;
    expect(d).toMatchObject({ mode: 1, source_address: sa, length: 8 });
    const bad = linkErr({ script: `blob x { file = "u.blob"; }`, scriptFile: '/v/m.ld', readFile: vfs({ 'u.blob': blob.subarray(0, blob.length - 8) }) });
    expect(bad[0]).toMatchObject({ code: 'LD0209' });
  });
});

describe('samples', () => {
  it('fork_join.ld: fork barrier (notify 1, wait 4), join barrier (notify 4, wait 1)', () => {
    const file = samples + 'fork_join.ld';
    const { map } = link({ script: readFileSync(file, 'utf8'), scriptFile: file, objects: [{ file: 'copy.pobj', container: copyObj() }] });
    expect(map.barriers.slice(0, 2)).toEqual([
      { cluster: 0, id: 1, notify_count: 1, wait_count: 4, config_wait: 0, producers: ['load'], consumers: ['c0', 'c1', 'c2', 'c3'] },
      { cluster: 0, id: 2, notify_count: 4, wait_count: 1, config_wait: 0, producers: ['c0', 'c1', 'c2', 'c3'], consumers: ['join'] },
    ]);
    expect(map.barriers).toHaveLength(7);
  });
  it('copy.ld links', () => {
    const file = samples + 'copy.ld';
    const { image } = link({ script: readFileSync(file, 'utf8'), scriptFile: file, objects: [{ file: 'copy.pobj', container: copyObj() }] });
    expect(image.sections.find((s) => s.name === '.tensor.src_hbm')!.kind).toBe('data');
  });
});

describe('link: trips naming weight databases', () => {
  it('a UIE trip reads a database through its weights port; an H2A trip loads one from HBM', () => {
    const w = new Float32Array(8 * 16).map((_, i) => Math.cos(i) + 1.5);
    const npy = writeNpy({ dtype: 'float32', shape: [8, 16], data: w });
    const { image } = link({
      objects: [{ file: 'copy.pobj', container: copyObj() }],
      script: `memory m { origin = 0; length = 1M; }
memory h { space = hbm; origin = 0; length = 1M; }
weights wa { kind = linear8; data = "w.npy"; region = m; }
weights wh { kind = linear8; data = "w.npy"; region = h; }
tensor wl { format = LnsI4F3; shape = [1, 1024]; region = m; }
tensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }
queue h2a { trip ld { src = wh; dst = wl; } }
queue uie0 { trip mm { amem_read = copy_rd; read = s; weights = wa; } trip mm2 { amem_read = copy_rd; read = s; weights = wl; after = [ld]; } }`,
      scriptFile: '/v/w.ld',
      readFile: vfs({ 'w.npy': npy }),
    });
    const wa = image.sections.find((x) => x.name === '.wdb.wa')!;
    const list = image.sections.find((x) => x.name === '.desc.c0.q00.0')!;
    const d = decode(loadTable('pyxis', 'desc_uie'), list.data, 0);
    expect(d['amem_weights_base_address']).toBe(wa.address >> 4);
    const h = decode(loadTable('pyxis', 'desc_h2a'), image.sections.find((x) => x.name === '.desc.c0.q10.0')!.data);
    expect(h['hbm_base_address']).toBe(image.sections.find((x) => x.name === '.wdb.wh')!.address / 1024);
  });
});

describe('link: races (chip §11.7)', () => {
  const objects = () => [{ file: 'copy.pobj', container: copyObj() }];
  it('warns when a trip reads data another engine may be writing, not when a dependency orders them', () => {
    const script = `memory m { origin = 0; length = 1M; }
memory h { space = hbm; origin = 0; length = 1M; }
tensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }
tensor d { format = RFP8; shape = [8, 128]; region = m; zero = true; }
tensor hs { format = RFP8; shape = [8, 128]; region = h; zero = true; }
queue h2a { trip load { src = hs; dst = s; } }
queue uie0 { trip copy { amem_read = copy_rd; amem_write = copy_wr; read = s; write = d; } }`;
    const racy = link({ objects: objects(), script });
    expect(racy.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'LD0813']]);
    expect(racy.diagnostics[0]!.message).toMatch(/`copy` reads `s` while trip `load`/);
    expect(link({ objects: objects(), script: script + '\ncopy after load;' }).diagnostics).toEqual([]);
  });
  it('a DMA and a UIE writing overlapping tensors without a barrier is an error', () => {
    const d = linkErr({
      objects: objects(),
      script: `memory m { origin = 0; length = 1M; }
memory h { space = hbm; origin = 0; length = 1M; }
tensor a { format = RFP8; shape = [8, 128]; region = m; address = 0; }
tensor b { format = RFP8; shape = [8, 128]; region = m; address = 0x200; }
tensor hs { format = RFP8; shape = [8, 128]; region = h; zero = true; }
queue h2a { trip load { src = hs; dst = a; } }
queue uie0 { trip copy { amem_read = copy_rd; amem_write = copy_wr; read = b; write = b; } }`,
    });
    expect(d.map((x) => x.code)).toContain('LD0812');
  });
});

describe('link: conv3x3 and linear16 databases', () => {
  it('builds them from float weights (with Beta for 3x3)', () => {
    const w3 = writeNpy({ dtype: 'float32', shape: [4, 2, 3, 3], data: new Float32Array(72).map((_, i) => 0.1 + (i % 9) / 10) });
    const b3 = writeNpy({ dtype: 'float32', shape: [4], data: new Float32Array([0.5, -0.25, 1, 2]) });
    const w16 = writeNpy({ dtype: 'float32', shape: [8, 8], data: new Float32Array(64).map((_, i) => 1 + i / 64) });
    const { map } = link({
      script: `memory m { origin = 0; length = 1M; }
weights k { kind = conv3x3; data = "w3.npy"; beta = "b3.npy"; filters_per_grid_row = 2; eb = 0; region = m; }
weights l { kind = linear16; data = "w16.npy"; eb = 0; region = m; }`,
      scriptFile: '/v/k.ld',
      readFile: vfs({ 'w3.npy': w3, 'b3.npy': b3, 'w16.npy': w16 }),
    });
    expect(map.weights.map((w) => [w.name, w.kind, w.address % 128])).toEqual([['k', 'conv3x3', 0], ['l', 'linear16', 0]]);
    const bad = linkErr({ script: `weights k { kind = conv3x3; data = "w16.npy"; }`, scriptFile: '/v/k.ld', readFile: vfs({ 'w16.npy': w16 }) });
    expect(bad[0]!.code).toBe('LD0701');
    expect(bad[0]!.span).toMatchObject({ file: '/v/k.ld', line: 1 });
  });
});

describe('link: config tables preloaded in cfg space', () => {
  it('encodes entries with the region table at memory_map addresses', () => {
    const { image } = link({
      script: `config itfe_read.cmd { cluster = 1; uie = 2; index = 1;
  entry { indir_mode = 1; x_table_base_addr = 0x40; num_indices_per_table_m1 = 7; }
  entry { indir_mode = 2; }
}
config csr.itfe_cmd_idx { uie = 0; values = [8]; }`,
    });
    const s = image.sections.find((x) => x.name === '.cfg.c1.uie2.itfe_read.cmd.1')!;
    expect(s).toMatchObject({ space: 'cfg', cluster: 1, kind: 'table', address: 0x4000_0000 + 2 * 0x10_0000 + 66048 + 8, size: 16 });
    const t = loadTable('pyxis', 'itfe_command');
    expect(decode(t, s.data, 0)).toMatchObject({ indir_mode: 1, x_table_base_addr: 0x40, num_indices_per_table_m1: 7 });
    expect(decode(t, s.data, 8)).toMatchObject({ indir_mode: 2 });
    const c = image.sections.find((x) => x.name === '.cfg.c0.uie0.csr.itfe_cmd_idx.0')!;
    expect([...c.data]).toEqual([8, 0, 0, 0, 0, 0, 0, 0]);
    const bad = linkErr({ script: `config itfe_read.cmd { entry { indir_mod = 1; } }` });
    expect(bad[0]).toMatchObject({ code: 'LD0153', span: { line: 1 } });
    expect(bad[0]!.notes!.join()).toMatch(/indir_mode/);
    const range = linkErr({ script: `config itfe_read.cmd { entry { indir_mode = 9; } }` });
    expect(range[0]!.code).toBe('LD0154');
    const unknown = linkErr({ script: `config itfe_reed.cmd { values = [1]; }` });
    expect(unknown[0]!.notes!.join()).toMatch(/itfe_read\.cmd/);
  });

  it('a read-only register cannot be preloaded (LD0975); a value wider than the register is refused (LD0976)', () => {
    // memory_map.json access "ro": maintained by the hardware, a write is ignored (the simulator's SIM0030)
    for (const [script, name] of [
      ['config csr.wb_credits { uie = 0; values = [8]; }', 'csr.wb_credits'],
      ['config cluster.descr_q_head { entry { head_0 = 1; } }', 'cluster.descr_q_head'],
      ['config cluster.trip_flush_status { values = [0]; }', 'cluster.trip_flush_status'],
    ] as const) {
      const e = linkErr({ script });
      expect(e.map((d) => d.code)).toEqual(['LD0975']);
      expect(e[0]!.message).toContain(`\`${name}\` is a read-only register`);
      expect(e[0]!.span).toMatchObject({ line: 1, column: 8 });
      expect(e[0]!.spec).toMatch(/§/);
    }
    // csr.trip_start has 1 bit (memory_map.json `bits`): 2 does not fit; one error, no follow-on LD0155
    const wide = linkErr({ script: 'config csr.trip_start { uie = 0; values = [2]; }' });
    expect(wide.map((d) => [d.code, (d.span as { column?: number } | undefined)?.column])).toEqual([['LD0976', 44]]);
    expect(wide[0]!.message).toMatch(/1 bit\(s\) \(0\.\.1\)/);
    // csr.convert_mode: 3 bits; 7 (every mode) fits
    expect(linkErr({ script: 'config csr.convert_mode { uie = 0; values = [8]; }' }).map((d) => d.code)).toEqual(['LD0976']);
    const { image } = link({ script: 'config csr.convert_mode { uie = 3; values = [7]; }' });
    expect([...image.sections.find((x) => x.name === '.cfg.c0.uie3.csr.convert_mode.0')!.data]).toEqual([7, 0, 0, 0, 0, 0, 0, 0]);
    // a table register without `bits`: bits above the table's fields are its reserved pad (dpe_config: 3 x 8 bits)
    const pad = linkErr({ script: 'config cluster.dpe_config { values = [0x1000000]; }' });
    expect(pad.map((d) => d.code)).toEqual(['LD0976']);
    expect(pad[0]!.message).toMatch(/reserved bits/);
    expect(link({ script: 'config cluster.dpe_config { values = [0x010102]; }' }).image.sections.some((x) => x.name === '.cfg.c0.cluster.dpe_config.0')).toBe(true);
  });
});

describe('link: barrier id reuse', () => {
  it('a chain of 8 trips with 3 ids: config descriptors wait on an earlier barrier', () => {
    const trips = Array.from({ length: 8 }, (_, i) => `trip t${i} { amem_read = copy_rd; read = s; }`);
    const script = `memory m { origin = 0; length = 1M; }\ntensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }
queue uie0 { ${trips.filter((_, i) => i % 2 === 0).join(' ')} }
queue uie1 { ${trips.filter((_, i) => i % 2 === 1).join(' ')} }
${Array.from({ length: 7 }, (_, i) => `t${i + 1} after t${i};`).join('\n')}`;
    const { image, map } = link({ script, objects: [{ file: 'copy.pobj', container: copyObj() }], maxBarrierId: 3 });
    expect(new Set(map.barriers.map((b) => b.id))).toEqual(new Set([1, 2, 3]));
    const cfg = image.sections.find((x) => x.name === '.desc.c0.q22.0')!;
    const t = loadTable('pyxis', 'desc_barrier_config');
    const waits = Array.from({ length: cfg.size / 24 }, (_, k) => decode(t, cfg.data, k * 24)['wait_barrier_id']);
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits.slice(3).every((w) => (w as number) > 0)).toBe(true);
    expect(() => link({ script: script.replace('queue uie1', 'queue uie2'), objects: [{ file: 'copy.pobj', container: copyObj() }], maxBarrierId: 1 })).toThrow(/no id can be safely reused/);
  });
});

describe('link: overlay patches overlap with the trip before them', () => {
  it('a new phase avoids the previous trip words, so its patch waits only for the last user of the words it overwrites', () => {
    const big = (name: string, n: number) => `.program ${name} amem_read {\n${Array.from({ length: n }, () => '  Read_SRAM tgt_fifo=AMEM_write').join('\n')}\n}\n`;
    const o = assemble([{ file: 'b.pasm', text: big('A', 12) + big('B', 12) + big('C', 12) }], { isa, listing: false }).object;
    const { map } = link({
      objects: [{ file: 'b.pobj', container: o }],
      script: `memory m { origin = 0; length = 1M; }\ntensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }
queue uie0 { trip t1 { amem_read = A; read = s; } trip t2 { amem_read = B; read = s; } trip t3 { amem_read = C; read = s; } }`,
    });
    expect(map.microcode.map((p) => [p.program, p.pc, p.phase])).toEqual([['A', 0, 0], ['B', 12, 0], ['C', 0, 1]]);
    const patch = map.barriers.find((b) => b.consumers.some((c) => c.startsWith('__overlay')))!;
    expect(patch.producers).toEqual(['t1']); // not t2: C does not overwrite B
    const t3 = map.barriers.find((b) => b.consumers.includes('t3'))!;
    expect(t3.producers).toEqual(['__overlay.c0.uie0.1']);
  });
});

describe('link: more diagnostics', () => {
  const objects = () => [{ file: 'copy.pobj', container: copyObj() }];
  it('deadlock against queue order names the trips and points at the script', () => {
    const d = linkErr({
      objects: objects(),
      script: `memory m { origin = 0; length = 1M; }\ntensor s { format = RFP8; shape = [8, 128]; region = m; zero = true; }
queue uie0 { trip a { amem_read = copy_rd; read = s; } trip b { amem_read = copy_rd; read = s; } }
a after b;`,
    });
    expect(d[0]).toMatchObject({ code: 'LD0401', span: { line: 3 } });
    expect(d[0]!.message).toMatch(/`a`.*`b`|`b`.*`a`/);
  });
  it('wrong dtype and unsupported file types', () => {
    const i32 = writeNpy({ dtype: 'int32', shape: [8, 128], data: new Int32Array(1024) });
    const d = linkErr({ script: `tensor t { format = RFP8; shape = [8, 128]; data = "x.npy"; }`, scriptFile: '/v/x.ld', readFile: vfs({ 'x.npy': i32 }) });
    expect(d[0]).toMatchObject({ code: 'LD0208', span: { file: '/v/x.ld', line: 1 } });
    const e = linkErr({ script: `tensor t { format = RFP8; shape = [8, 128]; data = "x.csv"; }`, scriptFile: '/v/x.ld', readFile: vfs({ 'x.csv': new Uint8Array(4) }) });
    expect(e[0]!.code).toBe('LD0204');
    const raw = linkErr({ script: `tensor t { format = RFP16; shape = [2, 16]; raw = "x.bin"; }`, scriptFile: '/v/x.ld', readFile: vfs({ 'x.bin': new Uint8Array(63) }) });
    expect(raw[0]!.code).toBe('LD0202');
    const corrupt = linkErr({ script: `tensor t { format = RFP8; shape = [8, 128]; data = "x.npy"; }`, scriptFile: '/v/x.ld', readFile: vfs({ 'x.npy': new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 200, 0]) }) });
    expect(corrupt[0]!.severity).toBe('error');
  });
});

describe('link: RDMA trips (chip §11.4.6, §11.4.7)', () => {
  it('encodes Tx and Rx descriptors with 128-byte word counts', () => {
    const { image } = link({
      script: `memory m { cluster = 1; origin = 0; length = 1M; }
tensor out { format = RFP8; shape = [3, 100]; region = m; zero = true; }
tensor inb { format = RFP8; shape = [1, 256]; region = m; zero = true; }
queue rdma_tx0 { cluster = 1; trip send { src = out; tjid = 7; rjid = 9; dest_voq = 0x123; } }
queue rdma_rx1 { cluster = 1; trip recv { dst = inb; tjid = 3; rjid = 4; msg_voq = 5; } }
recv after send;`,
    });
    const tx = decode(loadTable('pyxis', 'desc_rdma_tx'), image.sections.find((x) => x.name === '.desc.c1.q0c.0')!.data);
    expect(tx).toMatchObject({ tjid: 7, rjid: 9, dest_voq: 0x123, num_words: 3, page_size_words: 125 });
    expect((tx['notify_list'] as number[])[0]).toBe((1 << 10) | 1);
    const rx = decode(loadTable('pyxis', 'desc_rdma_rx'), image.sections.find((x) => x.name === '.desc.c1.q0f.0')!.data);
    expect(rx).toMatchObject({ tjid: 3, rjid: 4, msg_voq: 5, num_words: 2, wait_barrier_id: 1 });
    const bad = linkErr({ script: `tensor t { format = RFP8; shape = [1, 16]; }\nqueue rdma_tx0 { trip s { src = t; page_size_words = 8; } }` });
    expect(bad[0]).toMatchObject({ code: 'LD0104' });
  });
});
