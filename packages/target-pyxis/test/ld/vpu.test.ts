import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assemble, decodePatchBlob, loadPyxisIsa } from '@pyxis/target-pyxis/asm';

const isa = loadPyxisIsa();
import type { Container } from '@pyxis/container';
import { link, mapJson, mapText } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';

/**
 * VPU microcode placement (seq §12): VI op words reference VPU programs
 * through `vi_op.vpv_pgm_start_addr` relocations; the linker places the VPU
 * programs in the UIE's 1K-word VPU instruction memory (memory_map.json
 * `vpu.imem`: engine address 0x4000_8000 + uie * 0x10_0000, 8-byte words) and
 * patches the op words. Expected values below are worked out by hand from the
 * tables (vi_op.json, vpu_instr.json: fields from bit 0 upwards).
 */
const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const IMEM = 0x4000_8000; // memory_map.json vpu.imem (offset 0x8000 in the CSR window)
const VI_OP = 0x4000_4400; // memory_map.json vi.op (offset 17408)
const UIE_STRIDE = 0x10_0000;

const asm = (file: string, text: string): Container => assemble([{ file, text }], { isa, listing: false }).object;
const relu = () => asm('vpu_relu.pasm', readFileSync(samples + 'vpu_relu.pasm', 'utf8'));
/** A 3-word VPU program and a VI program using it (so relu_scale lands at 3, vi_rows at VI PC 1). */
const PAD = `.vpu pad3 {\n  NOP\n  NOP\n  NOP\n}\n.program vi_pad vi {\n  Generate_VPU_Program vpv_pgm_start_addr=pad3 vpv_pgm_instr_count=3\n}\n`;


const word64 = (c: Container, address: number): bigint => {
  const s = c.sections.find((x) => x.space === 'cfg' && address >= x.address && address + 8 <= x.address + x.size);
  if (!s) throw new Error(`no cfg section covers 0x${address.toString(16)}`);
  return new DataView(s.data.buffer, s.data.byteOffset + address - s.address, 8).getBigUint64(0, true);
};
const bits = (w: bigint, lsb: number, width: number) => Number((w >> BigInt(lsb)) & ((1n << BigInt(width)) - 1n));

describe('VPU programs: placement in the VPU instruction memory and vi_op relocations', () => {
  it('the sample vpu_relu.ld links: relu_scale at imem 0 of UIE 0, the VI op word points at it', () => {
    const script = readFileSync(samples + 'vpu_relu.ld', 'utf8');
    const { image, map } = link({ script, scriptFile: samples + 'vpu_relu.ld', objects: [{ file: 'vpu_relu.pobj', container: relu() }] });
    const op = word64(image, VI_OP);
    // vi_op: opcd bit 0, vpv_pgm_start_addr bits 1..10, vpv_pgm_instr_count bits 11..20 (N-1), counter_zero_iter_mask 21..26
    expect(bits(op, 0, 1)).toBe(1);
    expect(bits(op, 1, 10)).toBe(0);
    expect(bits(op, 11, 10)).toBe(1);
    expect(bits(op, 21, 6)).toBe(1);
    expect(map.microcode).toContainEqual({ cluster: 0, uie: 0, seq: 'vpu', program: 'vpu.relu_scale', pc: 0, words: 2, phase: 0 });
  });

  it('a second VPU program moves relu_scale to address 3; op word and imem contents decoded by hand', () => {
    const script = `queue uie0 { trip a { vi = vi_pad; } trip b { vi = vi_rows; } }\nqueue uie3 { trip c { vi = vi_rows; } }\n`;
    const { image, map } = link({ script, scriptFile: '/v/vpu.ld', objects: [{ file: 'pad.pobj', container: asm('pad.pasm', PAD) }, { file: 'vpu_relu.pobj', container: relu() }] });
    // UIE 0: vi_pad at VI PC 0 (uses pad3 at 0..2), vi_rows at VI PC 1 -> relu_scale at 3
    const op0 = word64(image, VI_OP);
    expect([bits(op0, 0, 1), bits(op0, 1, 10), bits(op0, 11, 10) + 1]).toEqual([1, 0, 3]);
    const op1 = word64(image, VI_OP + 8);
    expect([bits(op1, 0, 1), bits(op1, 1, 10), bits(op1, 11, 10) + 1, bits(op1, 21, 6)]).toEqual([1, 3, 2, 1]);
    // imem word 3 of UIE 0 = RELU rd=1 src1_sel=IN_FIFO in_fifo_pop=1 wr_gpr_en=1
    // vpu_instr: opcode 0..5 (RELU 10), dtype 6, rd 7..10, rs1 11..14, rs2 15..18, src1_sel 19..20 (IN_FIFO 2),
    // src2_sel 21..22, wr_gpr_en 23, out_fifo_push 24, in_fifo_pop 25
    const i0 = word64(image, IMEM + 3 * 8);
    expect(Number(i0 & 0xffff_ffffn)).toBe(10 | (1 << 7) | (2 << 19) | (1 << 23) | (1 << 25));
    // word 4 = MUL rd=2 rs1=1 src2_sel=IMM imm=0x3c00 wr_gpr_en=1 out_fifo_push=1 cntr_ctrl=INCR: opcode 4, rd 2, rs1 1, imm 0x3c00
    const i1 = word64(image, IMEM + 4 * 8);
    expect([bits(i1, 0, 6), bits(i1, 7, 4), bits(i1, 11, 4), bits(i1, 23, 1), bits(i1, 24, 1)]).toEqual([4, 2, 1, 1, 1]);
    expect(bits(i1, 40, 16)).toBe(0x3c00); // imm after pred_en 26, cmp_cond 27..29, lut_idx 30..31, eb_adj 32..37, cntr_ctrl 38..39
    // imem words 0..2 of UIE 0 hold pad3 (3 x NOP), word 5 is not loaded
    expect(image.sections.find((s) => s.name === '.ucode.c0.uie0.vpu.pad3')!.address).toBe(IMEM);
    expect(() => word64(image, IMEM + 5 * 8)).toThrow();
    // UIE 3 uses only relu_scale: placed at 0 of its own VPU memory; vi_rows at its VI PC 0
    expect(image.sections.find((s) => s.name === '.ucode.c0.uie3.vpu.relu_scale')!.address).toBe(IMEM + 3 * UIE_STRIDE);
    expect(bits(word64(image, VI_OP + 3 * UIE_STRIDE), 1, 10)).toBe(0);
    expect(word64(image, IMEM + 3 * UIE_STRIDE)).toBe(i0);
    // the map reports the placement and every relocation, in text and JSON
    const j = JSON.parse(mapJson(map)) as typeof map;
    expect(j.relocations).toContainEqual({ cluster: 0, uie: 0, phase: 0, seq: 'vi', program: 'vi_rows', mem: 'op', pc: 1, kind: 'vi_op.vpv_pgm_start_addr', symbol: 'vpu.relu_scale', value: 3 });
    expect(j.relocations).toContainEqual({ cluster: 0, uie: 0, phase: 0, seq: 'vi', program: 'vi_rows', mem: 'ctrl', pc: 1, kind: 'seq_control.iter0_sol_pc', symbol: 'vi_rows', value: 1 });
    expect(j.microcode).toContainEqual({ cluster: 0, uie: 0, seq: 'vpu', program: 'vpu.relu_scale', pc: 3, words: 2, phase: 0 });
    const text = mapText(map);
    expect(text).toMatch(/Relocations[\s\S]*\bvi\s+1\s+op\s+preload\s+vi_op\.vpv_pgm_start_addr\s+3\s+vpu\.relu_scale/);
    expect(text).toMatch(/Microcode placement[\s\S]*\n0\s+0\s+vpu\s+3\s+2\s+preload\s+vpu\.relu_scale/);
    // symbols: a VPU program placed in several UIEs is qualified
    expect(image.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(['c0.uie0.vpu.relu_scale', 'c0.uie3.vpu.relu_scale', 'vpu.pad3']));
  });

  it('a VI program loaded by an overlay patch carries the relocated VPU address', () => {
    // two 20-word VI programs do not fit the 32-word VI memory together: the second is an overlay
    const vi = (n: string, v: string) => `.program ${n} vi {\n${`  Generate_VPU_Program vpv_pgm_start_addr=${v} vpv_pgm_instr_count=1\n`.repeat(20)}}\n`;
    const src = `.vpu v1 {\n  NOP\n}\n.vpu v2 {\n  NOP\n  NOP\n}\n` + vi('p1', 'v1') + vi('p2', 'v2');
    const { image, map } = link({ script: 'queue uie0 { trip a { vi = p1; } trip b { vi = p2; } }', objects: [{ file: 'ov.pobj', container: asm('ov.pasm', src) }] });
    expect(map.microcode.filter((m) => m.seq === 'vpu').map((m) => [m.program, m.pc])).toEqual([['vpu.v1', 0], ['vpu.v2', 1]]);
    const blob = image.sections.find((s) => s.kind === 'patch' && s.name.startsWith('.patch.c0.uie0.'))!;
    const patches = decodePatchBlob(blob.data, isa);
    const opPatch = patches.find((p) => p.target_address >= VI_OP && p.target_address < VI_OP + 32 * 8)!;
    expect(opPatch.reg_repeat).toBe(20);
    for (let k = 0; k < 20; k++) {
      const w = new DataView(opPatch.data.buffer, opPatch.data.byteOffset + k * 8, 8).getBigUint64(0, true);
      expect([bits(w, 0, 1), bits(w, 1, 10)]).toEqual([1, 1]); // Generate_VPU_Program at v2's address 1
    }
    expect(map.relocations.filter((r) => r.kind === 'vi_op.vpv_pgm_start_addr' && r.phase === 1)).toHaveLength(20);
  });

  it('`.vpu p at N` keeps its address', () => {
    const src = `.vpu far at 1000 {\n  NOP\n  NOP\n}\n.program vi_far vi {\n  Generate_VPU_Program vpv_pgm_start_addr=far vpv_pgm_instr_count=2\n}\n`;
    const { image } = link({ script: 'queue uie1 { trip t { vi = vi_far; } }', objects: [{ file: 'far.pobj', container: asm('far.pasm', src) }] });
    expect(bits(word64(image, VI_OP + UIE_STRIDE), 1, 10)).toBe(1000);
    expect(image.sections.find((s) => s.name === '.ucode.c0.uie1.vpu.far')!.address).toBe(IMEM + UIE_STRIDE + 1000 * 8);
  });

  it('VPU code that does not fit the 1K-word memory: LD0602 at the trip (file:line:col), seq §12', () => {
    const big = (n: string, words: number) => `.vpu ${n} {\n${'  NOP\n'.repeat(words)}}\n.program vi_${n} vi {\n  Generate_VPU_Program vpv_pgm_start_addr=${n} vpv_pgm_instr_count=1\n}\n`;
    const objects = [{ file: 'big.pobj', container: asm('big.pasm', big('b1', 600) + big('b2', 500)) }];
    const script = 'queue uie2 {\n  trip t1 { vi = vi_b1; }\n  trip t2 { vi = vi_b2; }\n}\n';
    const d = linkErr({ script, scriptFile: '/v/big.ld', objects });
    expect(d).toHaveLength(1);
    expect(d[0]!.code).toBe('LD0602');
    expect(d[0]!.message).toContain('vpu.b2');
    expect(d[0]!.message).toContain('1024 words');
    expect(d[0]!.message).toContain('vpu.b1 [0, 600)');
    expect(d[0]!.spec).toContain('§12');
    expect(d[0]!.span).toMatchObject({ file: '/v/big.ld', line: 3, column: 18 });
    // in separate UIEs both fit
    expect(() => link({ script: 'queue uie2 { trip t1 { vi = vi_b1; } }\nqueue uie4 { trip t2 { vi = vi_b2; } }', objects })).not.toThrow();
  });

  it('a relocation against a VPU program no object defines: LD0603', () => {
    const obj = relu();
    obj.sections = obj.sections.filter((s) => !s.name.startsWith('vpu.'));
    obj.symbols = obj.symbols.filter((s) => s.kind !== 'label');
    const d = linkErr({ script: 'queue uie0 { trip t { vi = vi_rows; } }', scriptFile: '/v/x.ld', objects: [{ file: 'x.pobj', container: obj }] });
    expect(d.map((x) => x.code)).toEqual(['LD0603']);
    expect(d[0]!.message).toContain('vpu.relu_scale');
  });
});
