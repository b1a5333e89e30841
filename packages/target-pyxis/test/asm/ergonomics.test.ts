/**
 * Field aliases (the spec's pseudo-code names), the automatic
 * vpv_pgm_instr_count, and the listing's PC / relocation columns.
 */
import { describe, expect, test } from 'vitest';
import { compileTable, decode, lookupField, TableError, type FieldTable } from '@pyxis/codec';
import { DiagnosticError } from '@pyxis/diagnostics';
import { assemble, assembleIr, disassemble, emitIr, irToText, programsFromContainer, programsPatchBlob, decodePatchBlob } from '@pyxis/target-pyxis/asm';
import { isa, programs, sample } from './helpers.js';

const table = (fields: FieldTable['fields']): FieldTable => ({ name: 't', fields });

function errorsOf(text: string): { code: string; message: string; line?: number }[] {
  try {
    assemble({ file: 'e.pasm', text }, { isa });
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    return e.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, message: d.message, line: (d.span as { line?: number } | undefined)?.line }));
  }
  return [];
}

describe('field aliases (FieldSpec.aliases)', () => {
  test('compileTable records aliases and lookupField resolves name first, then aliases', () => {
    const t = compileTable(table([{ name: 'hbuf_wr_control', width: 2, aliases: ['hbuf_write_ctl'] }, { name: 'b', width: 3 }]));
    expect(lookupField(t, 'hbuf_write_ctl')?.name).toBe('hbuf_wr_control');
    expect(lookupField(t, 'hbuf_wr_control')?.name).toBe('hbuf_wr_control');
    expect(lookupField(t, 'b')?.name).toBe('b');
    expect(lookupField(t, 'nope')).toBeUndefined();
    // tables without aliases: no byAlias map at all (backwards compatible shape)
    expect(compileTable(table([{ name: 'a', width: 1 }])).byAlias).toBeUndefined();
  });
  test('compileTable rejects colliding, duplicate, invalid and reserved aliases', () => {
    expect(() => compileTable(table([{ name: 'a', width: 1, aliases: ['b'] }, { name: 'b', width: 1 }]))).toThrow(/alias `b` collides with the field `b`/);
    expect(() => compileTable(table([{ name: 'a', width: 1, aliases: ['x'] }, { name: 'b', width: 1, aliases: ['x'] }]))).toThrow(/alias `x` is already an alias of `a`/);
    expect(() => compileTable(table([{ name: 'a', width: 1, aliases: ['x', 'x'] }]))).toThrow(TableError);
    expect(() => compileTable(table([{ name: 'a', width: 1, aliases: ['1x'] }]))).toThrow(/invalid alias/);
    expect(() => compileTable(table([{ name: 'a', width: 1, aliases: 'x' as never }]))).toThrow(/aliases must be a list/);
    expect(() => compileTable(table([{ name: 'a', width: 1, reserved: true, aliases: ['x'] }]))).toThrow(/reserved/);
  });
  test('every pyxis op table: aliases never shadow a spec name', () => {
    for (const s of isa.sequencers.values())
      for (const f of s.op.fields) for (const a of f.aliases ?? []) expect(s.op.byName.has(a), `${s.op.name}.${a}`).toBe(false);
  });

  test('Figure 9-2 written with its pseudo-code names assembles to the same bytes as the spec-name sample', () => {
    const pseudo = `.const HBUF_BLOCKS = 4
.program weights_1x1 wdp {
  loop i0 HBUF_BLOCKS {                     # for hblock_iter in range (hbuf_blocks)
    loop i1 8 {                             # for cout_iter in range (8)
      WR_HBUF is_16bit = 0, hbuf_write_ctl = LD_2ROWS_8B, hbuf_block_size = 4, hbuf_block_start_en = 1,
              hbuf_block_end_en = 1, hbuf_block_iter_mask = [i1] \\
              hbuf_stride_dim1 = 1, hbuf_stride_dim1_iter_id = i1, log2_ptns_per_hlane = 0
    }
  }
}
`.replace(/,\n/g, ' \\\n');
    const a = assemble({ file: 'pseudo.pasm', text: pseudo }, { isa });
    const b = assemble({ file: 'wdp_1x1_weights.pasm', text: sample('wdp_1x1_weights.pasm') }, { isa });
    expect(a.object.sections.map((s) => [...s.data])).toEqual(b.object.sections.map((s) => [...s.data]));
    // outputs use the spec names only
    expect(disassemble(a.object, { isa })).toMatch(/hbuf_wr_control=LD_2ROWS_8B .*hbuf_stride_iter_id_dim1=i1/);
    const ir = irToText(emitIr(programsFromContainer(a.object, isa), isa));
    expect(ir).toContain('"hbuf_wr_control"');
    expect(ir).not.toContain('hbuf_write_ctl');
  });
  test('samples/pyxis/pseudocode_fig9_3.pasm (Figure 9-3 in pseudo-code names) = mm_trans_fp8_wdp', () => {
    const a = programs(sample('pseudocode_fig9_3.pasm')).get('fig9_3_wdp')!;
    const b = programs(sample('matmul_transposed.pasm')).get('mm_trans_fp8_wdp')!;
    expect([...a.ctrlBytes]).toEqual([...b.ctrlBytes]);
    expect([...a.opBytes]).toEqual([...b.opBytes]);
    expect(a.op[0]!['hbuf_wr_control']).toBe(isa.sequencers.get('wdp')!.op.byName.get('hbuf_wr_control')!.enum!['LD_2ROWS_8B_TRANS']);
  });
  test('MASK(a, b) is the mask list [a, b]; MASK alone is still a name; not for plain fields', () => {
    const a = programs('.const MASK = 1\n.program w wdp { loop 2 { loop 4 { WR_HBUF hbuf_block_iter_mask=MASK(i0, i1) hbuf_addr_offset=MASK + 1 } } }').get('w')!;
    const b = programs('.program w wdp { loop 2 { loop 4 { WR_HBUF hbuf_block_iter_mask=[i0, i1] hbuf_addr_offset=2 } } }').get('w')!;
    expect([...a.opBytes]).toEqual([...b.opBytes]);
    expect(a.op[0]!['hbuf_block_iter_mask']).toBe(3);
    expect(errorsOf('.program w wdp { loop 2 { WR_HBUF hbuf_addr_offset=MASK(i0) } }').map((e) => e.code)).toEqual(['AS0213']);
    expect(errorsOf('.program w wdp { WR_HBUF hbuf_block_iter_mask=MASK(i1) }').map((e) => e.code)).toEqual(['AS0313']);
  });
  test('GH Figure 10-1 aliases (dimN_iter_id, hbuf_offset) decode to the spec fields', () => {
    const p = programs(`.program gh_rs gh { loop i0 2 { loop i1 16 { loop i2 8 {
      HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 hbuf_offset=5 hbuf_stride_dim1=8 hbuf_stride_dim2=128 hbuf_stride_dim1_iter_id=i1 dim2_iter_id=i2 hbuf_stride_dim3_iter_id=i0
    } } } }`).get('gh_rs')!;
    const op = p.op[0]!;
    expect([op['hbuf_addr_offset'], op['hbuf_stride_iter_id_dim1'], op['hbuf_stride_iter_id_dim2'], op['hbuf_stride_iter_id_dim3']]).toEqual([5, 1, 2, 0]);
  });
  test('an alias and its spec name together are set-twice errors; typos suggest aliases too; IR takes spec names only', () => {
    const e = errorsOf('.program w wdp { WR_HBUF hbuf_write_ctl=LD_2ROWS_8B hbuf_wr_control=LD_1ROW_16B }');
    expect(e.map((x) => x.code)).toEqual(['AS0208']);
    const t = errorsOf('.program w wdp { WR_HBUF hbuf_write_ctrl=1 }');
    expect(t.map((x) => x.code)).toEqual(['AS0206']);
    try {
      assemble({ file: 'e.pasm', text: '.program w wdp { WR_HBUF hbuf_write_ctrl=1 }' }, { isa });
    } catch (err) {
      expect((err as DiagnosticError).diagnostics[0]!.notes?.join(' ')).toMatch(/hbuf_write_ctl/);
    }
    const ir = { format: 'pyxis-ir', version: 1, programs: [{ name: 'w', sequencer: 'wdp', instructions: [{ eopgm: 1, op: { opcd: 'WR_HBUF', hbuf_write_ctl: 'LD_2ROWS_8B' } }] }] };
    expect(() => assembleIr(ir, { isa })).toThrow(/unknown field `hbuf_write_ctl`/);
    try {
      assembleIr(ir, { isa });
    } catch (err) {
      expect((err as DiagnosticError).diagnostics[0]!.notes).toEqual(['`hbuf_write_ctl` is an alias of `hbuf_wr_control`; the IR uses spec names only']);
    }
  });
});

describe('vpv_pgm_instr_count defaults to the length of the named VPU program (seq §12.1)', () => {
  const src = `.program vi_rows vi {
  loop i0 16 {
    Generate_VPU_Program vpv_pgm_start_addr=three
    Generate_VPU_Program vpv_pgm_start_addr=three vpv_pgm_instr_count=1
    Generate_VPU_Program vpv_pgm_start_addr=one
  }
}
.vpu three { RELU rd=1; RELU rd=2; RELU rd=3 }
.vpu one { RELU }
`;
  test('omitted: filled in (even when the VPU program is defined later); explicit: kept', () => {
    const p = programs(src).get('vi_rows')!;
    expect(p.op.map((o) => o['vpv_pgm_instr_count'])).toEqual([3, 1, 1]);
    // raw bits of the first word hold N-1 = 2
    const f = isa.sequencers.get('vi')!.op.byName.get('vpv_pgm_instr_count')!;
    let raw = 0;
    for (let b = 0; b < f.width; b++) if (p.opBytes[(f.lsb + b) >> 3]! & (1 << ((f.lsb + b) & 7))) raw |= 1 << b;
    expect(raw).toBe(2);
  });
  test('disassembly keeps the count explicit, so the bytes round-trip', () => {
    const a = assemble({ file: 'v.pasm', text: src }, { isa });
    const text = disassemble(a.object, { isa });
    expect(text).toMatch(/vpv_pgm_start_addr=three vpv_pgm_instr_count=1\b/);
    const b = assemble({ file: 'd.pasm', text }, { isa });
    expect(b.object.sections.map((s) => [s.name, [...s.data]])).toEqual(a.object.sections.map((s) => [s.name, [...s.data]]));
  });
  test('a count running past the program end is a warning (AS0420)', () => {
    const r = assemble({ file: 'w.pasm', text: '.vpu two { RELU; RELU }\n.program v vi { Generate_VPU_Program vpv_pgm_start_addr=two vpv_pgm_instr_count=3 }' }, { isa });
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.spec])).toEqual([['AS0420', 'warning', 'pyxis-uie-sequencers-fspec.md §12.1']]);
  });
});

describe('disassembler raw form', () => {
  test('an instruction with default control but an iterator mask still re-assembles (empty ctrl clause)', () => {
    const src = `.program odd amem_read {
  ctrl { } Read_SRAM pad_row_iter_mask=[i1]
  ctrl { iter1.is_eol=1 iter1.sol_pc=0 iter1.numloops=3 } Read_SRAM
  ctrl { iter2.is_eol=1 iter2.sol_pc=1 iter2.numloops=2 } Nop
}`;
    const a = assemble({ file: 'odd.pasm', text: src }, { isa });
    const text = disassemble(a.object, { isa });
    expect(text).toMatch(/ctrl \{ \} Read_SRAM pad_row_iter_mask=\[i1\]/);
    const b = assemble({ file: 'dis.pasm', text }, { isa });
    expect(b.object.sections.map((s) => [...s.data])).toEqual(a.object.sections.map((s) => [...s.data]));
  });
});

describe('listing', () => {
  const src = `.program placed gv at 20 {
  Read_Zero
  loop i0 4 { loop i1 2 { Read_Zero; Read_AMEM_FIFO } }
}
.program rel gv {
  Read_Zero
  loop i0 4 { loop i1 2 { Read_Zero; Read_AMEM_FIFO } }
}
`;
  const r = assemble({ file: 'l.pasm', text: src }, { isa });
  const t = isa.sequencers.get('gv')!.control;
  const rows = (name: string) => {
    const lines = r.listing.split('\n');
    const start = lines.findIndex((l) => l.startsWith(`; program ${name} `));
    return lines.slice(start + 2, start + 5).map((l) => /^\s+(\d+)\s+([0-9a-f]+)(r?)\s/.exec(l)!);
  };
  const word = (hex: string) => Uint8Array.from(hex.match(/../g)!.reverse().map((h) => parseInt(h, 16)));
  test('an `at` program: absolute PCs and sol_pc relocated, equal to the patch blob', () => {
    const rs = rows('placed');
    expect(rs.map((m) => Number(m[1]))).toEqual([20, 21, 22]);
    const last = decode(t, word(rs[2]![2]!));
    // both loops start at program PC 1 = absolute 21
    expect([last['iter0_sol_pc'], last['iter1_sol_pc'], last['iter0_is_eol'], last['iter1_is_eol']]).toEqual([21, 21, 1, 1]);
    expect(rs.every((m) => m[3] === '')).toBe(true);
    const blob = decodePatchBlob(programsPatchBlob([r.programs[0]!], isa).blob);
    const stride = Math.ceil(t.bytes / 8) * 8;
    expect([...blob[0]!.data.subarray(2 * stride, 2 * stride + t.bytes)]).toEqual([...word(rs[2]![2]!)]);
  });
  test('a relocatable program: program-relative PCs and sol_pc, `r` on the words the linker relocates', () => {
    const rs = rows('rel');
    expect(rs.map((m) => Number(m[1]))).toEqual([0, 1, 2]);
    expect(rs.map((m) => m[3])).toEqual(['', '', 'r']);
    const last = decode(t, word(rs[2]![2]!));
    expect([last['iter0_sol_pc'], last['iter1_sol_pc']]).toEqual([1, 1]);
  });
});
