/** Golden files beside the samples, disassembly of the samples, includes, IR, patch blobs. */
import { describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiagnosticError } from '@pyxis/diagnostics';
import {
  assemble,
  assembleIr,
  decodePatchBlob,
  disassemble,
  emitIr,
  goldenErrors,
  goldenListing,
  irToText,
  programsFromContainer,
  programsPatchBlob,
  applyRelocation,
  wordStride,
  vpuProgramsFromContainer,
} from '@pyxis/target-pyxis/asm';
import { isa, samplesDir } from './helpers.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const pasm = readdirSync(samplesDir).filter((f) => f.endsWith('.pasm'));
const errs = readdirSync(join(samplesDir, 'errors')).filter((f) => f.endsWith('.pasm'));

describe('golden files (scripts/regen-golden.mjs)', () => {
  test.each(pasm)('%s listing', (f) => {
    const rel = relative(root, join(samplesDir, f));
    expect(goldenListing(rel, readFileSync(join(samplesDir, f), 'utf8'), isa)).toBe(readFileSync(join(samplesDir, f.replace(/\.pasm$/, '.expected.txt')), 'utf8'));
  });
  test.each(errs)('%s diagnostics', (f) => {
    const rel = relative(root, join(samplesDir, 'errors', f));
    expect(goldenErrors(rel, readFileSync(join(samplesDir, 'errors', f), 'utf8'), isa)).toBe(readFileSync(join(samplesDir, 'errors', f.replace(/\.pasm$/, '.err')), 'utf8'));
  });
});

describe('disassembler', () => {
  test('a linked .pimg is rejected with AS0500 at offset 0, not decoded as an object', () => {
    const a = assemble([{ file: 'copy.pasm', text: readFileSync(join(samplesDir, 'copy.pasm'), 'utf8') }], { isa });
    const image = { ...a.object, kind: 'pimg' as const };
    let caught: unknown;
    try {
      disassemble(image, { isa, file: 'copy.pimg' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DiagnosticError);
    const d = (caught as DiagnosticError).diagnostics;
    expect(d.map((x) => x.code)).toEqual(['AS0500']);
    expect(d[0]!.message).toMatch(/^copy\.pimg is a linked \.pimg image, not a \.pobj object/);
    expect(d[0]!.span).toEqual({ file: 'copy.pimg', offset: 0 });
  });
  test.each(pasm)('%s: disassemble -> assemble gives identical sections, structured loops', (f) => {
    const a = assemble({ file: f, text: readFileSync(join(samplesDir, f), 'utf8') }, { isa });
    const text = disassemble(a.object, { isa });
    const b = assemble({ file: 'dis.pasm', text }, { isa });
    expect(b.object.sections.map((s) => [s.name, [...s.data]])).toEqual(a.object.sections.map((s) => [s.name, [...s.data]]));
    expect(b.object.relocations).toEqual(a.object.relocations);
    if (!f.startsWith('multi')) expect(text).toMatch(/loop i0/);
  });
  test('a non-structured control pattern falls back to the raw form', () => {
    // overlapping loops: i1 = pc0..pc1, i2 = pc1..pc2 (not nested)
    const src = `.program odd amem_read {
  Read_SRAM
  ctrl { iter1.is_eol=1 iter1.sol_pc=0 iter1.numloops=3 } Read_SRAM
  ctrl { iter2.is_eol=1 iter2.sol_pc=1 iter2.numloops=2 } Nop
}`;
    const a = assemble({ file: 'odd.pasm', text: src }, { isa });
    const text = disassemble(a.object, { isa });
    expect(text).toMatch(/ctrl \{ iter1\.is_eol=1/);
    expect(text).not.toMatch(/\bloop i/);
    const b = assemble({ file: 'dis.pasm', text }, { isa });
    expect([...b.object.sections[0]!.data]).toEqual([...a.object.sections[0]!.data]);
  });
});

describe('language features', () => {
  test('.include, .const expressions, enum values, both comment styles', () => {
    const files: Record<string, string> = {
      '/x/main.pasm': '.include "defs.pasm"\n.program p amem_read { // c\n  Read_SRAM amem_addr_offset = BASE + (3 << 2) | 1 ^ 0 - ~0 # comment\n}\n',
      '/x/defs.pasm': '.const BASE = 0x100 * 2 % 0x1000\n',
    };
    const r = assemble({ file: '/x/main.pasm', text: files['/x/main.pasm']! }, { isa, readFile: (p) => files[p] });
    const p = programsFromContainer(r.object, isa)[0]!;
    // 0x200 + 12 | (1 ^ (0 - -1)) = 0x20c | 0 = 0x20c
    expect(p.op[0]!['amem_addr_offset']).toBe(0x20c);
  });
  test('include cycles and missing files are diagnostics', () => {
    const files: Record<string, string> = { '/a.pasm': '.include "a.pasm"\n' };
    expect(() => assemble({ file: '/a.pasm', text: files['/a.pasm']! }, { isa, readFile: (p) => files[p] })).toThrow(/includes itself/);
    expect(() => assemble({ file: '/b.pasm', text: '.include "nope.pasm"\n' }, { isa, readFile: () => undefined })).toThrow(/cannot find/);
  });
  test('many errors in one run, each with a span', () => {
    try {
      assemble({ file: 'm.pasm', text: '.program a amem_read {\n Read_SRAM x=1\n Read_SRAM y=2\n Foo\n}\n.program b gh {\n HBUF_RD_VLD hbuf_block_size=999\n}\n' }, { isa });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DiagnosticError);
      const ds = (e as DiagnosticError).diagnostics;
      expect(ds.map((d) => d.code)).toEqual(['AS0206', 'AS0206', 'AS0217', 'AS0401']);
      expect(ds.every((d) => d.span && 'line' in d.span)).toBe(true);
    }
  });
  test('program too long for the 32-word memory (§2.1 sol_pc is 5 bits)', () => {
    const body = Array.from({ length: 33 }, () => '  Nop').join('\n');
    expect(() => assemble({ file: 'l.pasm', text: `.program big amem_read {\n${body}\n}\n` }, { isa })).toThrow(/holds 32/);
  });
});

describe('VPU programs', () => {
  const src = readFileSync(join(samplesDir, 'vpu_relu.pasm'), 'utf8').replace('.vpu relu_scale {', '.vpu relu_scale at 100 {');
  const r = assemble({ file: 'vpu.pasm', text: src }, { isa });
  test('section, symbol and a relocation on the VI op field', () => {
    expect(r.object.sections.map((s) => s.name)).toContain('vpu.relu_scale.imem');
    const rel = r.object.relocations.find((x) => x.symbol === 'vpu.relu_scale')!;
    expect(rel.kind).toBe('vi_op.vpv_pgm_start_addr');
    expect(r.object.sections[rel.section]!.name).toBe('vi.vi_rows.op');
  });
  test('patch blob resolves the VPU address and loads the VPU memory', () => {
    const { patches, vpuStarts } = programsPatchBlob(r.programs, isa, r.vpuPrograms);
    expect(vpuStarts).toEqual([100]);
    const vi = isa.sequencers.get('vi')!;
    const opPatch = patches.find((p) => p.target_address === vi.opMem!.address)!;
    expect(codec.decode(vi.op, opPatch.data)['vpv_pgm_start_addr']).toBe(100);
    const vpuPatch = patches.find((p) => p.target_address === isa.vpu!.mem!.address + 100 * (isa.vpu!.mem!.stride ?? 8))!;
    expect(vpuPatch.reg_repeat).toBe(2);
  });
  test('IR and disassembly keep the reference by name', () => {
    const ir = emitIr(programsFromContainer(r.object, isa), isa, vpuProgramsFromContainer(r.object, isa));
    expect(ir.programs[0]!.instructions[0]!.op['vpv_pgm_start_addr']).toBe('relu_scale');
    expect(ir.vpu_programs![0]!.start_addr).toBe(100);
    const back = assembleIr(irToText(ir), { isa });
    expect(back.object.relocations).toEqual(r.object.relocations);
    expect(disassemble(r.object, { isa })).toMatch(/vpv_pgm_start_addr=relu_scale/);
  });
  test('unknown VPU program and loops inside .vpu are errors', () => {
    expect(() => assemble({ file: 'x.pasm', text: '.vpu v {\n loop 2 { NOP }\n}\n' }, { isa })).toThrow(/straight-line/);
    expect(() => assemble({ file: 'x.pasm', text: '.program p vi {\n Generate_VPU_Program vpv_pgm_start_addr=nothere\n}\n' }, { isa })).toThrow(/unknown name/);
  });
});

describe('object layout, relocations, IR, patch blob', () => {
  const text = readFileSync(join(samplesDir, 'multi_insn.pasm'), 'utf8');
  const r = assemble({ file: 'multi_insn.pasm', text }, { isa });
  test('sections, symbols, sol_pc relocations', () => {
    expect(r.object.sections.map((s) => [s.name, s.space, s.kind])).toContainEqual(['gx.gx_tile.ctrl', 'uie.gx.ctrl', 'code']);
    const sym = r.object.symbols.find((s) => s.name === 'gx_tile')!;
    expect([sym.kind, sym.size, sym.global, sym.offset]).toEqual(['program', 3, true, 0]);
    const rel = r.object.relocations.filter((x) => x.symbol === 'gx_tile');
    // pc1 ends i2 (sol 1); pc2 ends i0 and i1 (sol 1)
    const stride = wordStride(isa.sequencers.get('gx')!.control);
    expect(rel.map((x) => [x.offset / stride, x.kind, x.addend])).toEqual([
      [1, 'seq_control.iter2_sol_pc', 1],
      [2, 'seq_control.iter0_sol_pc', 1],
      [2, 'seq_control.iter1_sol_pc', 1],
    ]);
    // the linker applies them: field = addend + placed start
    const sec = r.object.sections[sym.section]!;
    const data = sec.data.slice();
    for (const x of rel) applyRelocation(data, x, 4);
    const moved = programsFromContainer({ ...r.object, sections: r.object.sections.map((s, i) => (i === sym.section ? { ...s, data } : s)) }, isa).find((p) => p.name === 'gx_tile')!;
    expect(moved.ctrl[2]!['iter0_sol_pc']).toBe(5);
  });
  test('IR round trip of the sample', () => {
    const ir = emitIr(programsFromContainer(r.object, isa), isa);
    const again = emitIr(programsFromContainer(assembleIr(irToText(ir), { isa }).object, isa), isa);
    expect(again).toEqual(ir);
    expect(ir.programs[0]!.start_pc).toBe(4);
    expect(ir.programs[0]!.instructions[1]!.iters[2]).toMatchObject({ is_eol: 1, sol_pc: 1, numloops: 8 });
    expect(() => assembleIr('{"format":"pyxis-ir","version":1,"programs":[{"name":"x","sequencer":"gx","instructions":[{"op":{"opcdd":1}}]}]}', { isa })).toThrow(/unknown field/);
  });
  test('patch blob: micro_patch_t headers, 8-byte padding, placement, relocated sol_pc (chip §12.6.1)', () => {
    const { blob, starts } = programsPatchBlob(r.programs, isa);
    expect(blob.length % 8).toBe(0);
    // gx_tile keeps `at 4`; gwb_tile and raw_rows are packed at 0 of their own memories
    expect(starts).toEqual([4, 0, 0]);
    const patches = decodePatchBlob(blob);
    expect(patches).toHaveLength(6);
    const gx = isa.sequencers.get('gx')!;
    const ctrlPatch = patches[0]!;
    expect(ctrlPatch.target_address).toBe(gx.ctrlMem!.address + 4 * (gx.ctrlMem!.stride ?? 8));
    expect(ctrlPatch.reg_size).toBe(gx.control.bytes);
    expect(ctrlPatch.reg_repeat).toBe(3);
    expect(ctrlPatch.data.length).toBe(3 * Math.ceil(gx.control.bytes / 8) * 8);
    // raw header bytes: u32 address, u16 size-1, u16 repeat-1, little-endian
    const dv = new DataView(blob.buffer, blob.byteOffset);
    expect(dv.getUint32(0, true)).toBe(ctrlPatch.target_address);
    expect(dv.getUint16(4, true)).toBe(gx.control.bytes - 1);
    expect(dv.getUint16(6, true)).toBe(2);
    // sol_pc is absolute inside the blob: pc 6 (= 4 + 2) loops back to 5
    const prog = programsFromContainer(r.object, isa).find((p) => p.name === 'gx_tile')!;
    const t = prog.seq.control;
    const s = wordStride(t);
    const fromBlob = ctrlPatch.data.subarray(2 * s, 3 * s);
    const { decode } = require_codec();
    expect(decode(t, fromBlob)['iter0_sol_pc']).toBe(5);
  });
});

import * as codec from '@pyxis/codec';
function require_codec() {
  return codec;
}
