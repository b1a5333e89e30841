/** `enum_aliases` (docs/field-tables.md): extra spellings of enum values, canonical on output. */
import { describe, expect, test } from 'vitest';
import { compileTable, decode, encode, enumCode, enumName, resolveScalar, tableToMarkdown, TableError, validate, type FieldTable } from '@pyxis/codec';
import { assemble, assembleIr, disassemble, emitIr, encodeFast, irToText, programsFromContainer } from '@pyxis/target-pyxis/asm';
import { isa } from './helpers.js';

const spec: FieldTable = {
  name: 't',
  fields: [
    { name: 'cmd', width: 3, enum: { RD_3X3: 0, RD_1X1_MATMUL_FP16: 2 }, enum_aliases: { RD_1x1_MATMUL_FP16: 'RD_1X1_MATMUL_FP16' }, default: 'RD_1x1_MATMUL_FP16' },
    { name: 'x', width: 5 },
  ],
};

describe('enum_aliases in the codec', () => {
  const t = compileTable(spec);
  const cmd = t.byName.get('cmd')!;
  test('resolved like the canonical name, decoded canonically', () => {
    expect(enumCode(cmd, 'RD_1x1_MATMUL_FP16')).toBe(2);
    expect(enumCode(cmd, 'RD_1X1_MATMUL_FP16')).toBe(2);
    expect(enumCode(cmd, 'rd_1x1_matmul_fp16')).toBeUndefined();
    expect(enumCode(cmd, 'constructor')).toBeUndefined();
    expect(resolveScalar(cmd, 'RD_1x1_MATMUL_FP16')).toBe(2n);
    expect(validate(t, { cmd: 'RD_1x1_MATMUL_FP16' })).toEqual([]);
    // hand-derived: cmd=2 in bits 2:0, x=5 in bits 7:3 -> 0b00101_010 = 0x2a
    expect([...encode(t, { cmd: 'RD_1x1_MATMUL_FP16', x: 5 })]).toEqual([0x2a]);
    expect([...encode(t, { x: 5 })]).toEqual([0x2a]); // the default may be an alias too
    const d = decode(t, Uint8Array.of(0x2a));
    expect(d['cmd']).toBe(2);
    expect(enumName(t, 'cmd', d['cmd']!)).toBe('RD_1X1_MATMUL_FP16');
    expect(tableToMarkdown(t)).toContain('Value aliases (accepted on input, never output): `RD_1x1_MATMUL_FP16` = `RD_1X1_MATMUL_FP16`.');
    // the assembler's fast encoder resolves aliases too
    const out = new Uint8Array(1);
    encodeFast(t, { cmd: 'RD_1x1_MATMUL_FP16', x: 5 }, out, 0);
    expect([...out]).toEqual([0x2a]);
  });
  test('compileTable rejects bad aliases', () => {
    const bad = (ea: unknown, extra: object = {}) => () =>
      compileTable({ name: 'b', fields: [{ name: 'c', width: 2, enum: { A: 0, B: 1 }, enum_aliases: ea as Record<string, string>, ...extra }] });
    expect(bad({ a: 'A' })).not.toThrow();
    expect(bad({ B: 'A' })).toThrow(/collides with the enum name `B`/);
    expect(bad({ x: 'Z' })).toThrow(/names "Z", which is not a value/);
    expect(bad({ 'not-a-name': 'A' })).toThrow(TableError);
    expect(bad(['A'])).toThrow(/must be an object/);
    expect(() => compileTable({ name: 'b', fields: [{ name: 'c', width: 2, enum_aliases: { a: 'A' } }] })).toThrow(/needs an enum/);
  });
});

describe('enum_aliases in the Pyxis ISA', () => {
  const gh = isa.sequencers.get('gh')!;
  test('gh hbuf_rd_cmd accepts the spec spelling RD_1x1_MATMUL_FP16 (seq §10.1)', () => {
    expect(gh.op.byName.get('hbuf_rd_cmd')!.enum_aliases).toEqual({ RD_1x1_MATMUL_FP16: 'RD_1X1_MATMUL_FP16' });
    const src = (v: string) => `.program p gh {\n  HBUF_RD_VLD hbuf_rd_cmd=${v} hbuf_block_size=4\n}\n`;
    const a = assemble({ file: 'a.pasm', text: src('RD_1x1_MATMUL_FP16') }, { isa });
    const b = assemble({ file: 'b.pasm', text: src('RD_1X1_MATMUL_FP16') }, { isa });
    expect(a.programs[0]!.op).toEqual(b.programs[0]!.op);
    expect(a.programs[0]!.ctrl).toEqual(b.programs[0]!.ctrl);
    // outputs keep the canonical name
    const dis = disassemble(a.object, { isa });
    expect(dis).toContain('hbuf_rd_cmd=RD_1X1_MATMUL_FP16');
    expect(dis).not.toContain('RD_1x1');
    const ir = irToText(emitIr(programsFromContainer(a.object, isa), isa));
    expect(ir).toContain('"hbuf_rd_cmd": "RD_1X1_MATMUL_FP16"');
    // IR input accepts the alias and emits canonically
    const c = assembleIr(ir.replace('"RD_1X1_MATMUL_FP16"', '"RD_1x1_MATMUL_FP16"'), { isa });
    expect(c.programs[0]!.op).toEqual(a.programs[0]!.op);
  });
});
