/**
 * Field roles (docs/field-tables.md) drive the assembler, not field names:
 * the Pyxis tables mark every iterator mask and iterator selector, and a
 * fixture ISA with arbitrary field names behaves the same when its roles do.
 */
import { describe, expect, test } from 'vitest';
import { compileTable, loadTable } from '@pyxis/codec';
import { assemble, disassemble, makeIsa, programsFromContainer } from '@pyxis/target-pyxis/asm';
import { DiagnosticError } from '@pyxis/diagnostics';
import { isa } from './helpers.js';

describe('roles in grammars/pyxis', () => {
  // The spec text of each field (its `doc`) says what it is; the role must agree with it.
  const ops = [...isa.sequencers.values()].map((s) => s.op);
  test('iter_mask exactly on the fields documented as iterator masks (seq §5-§14)', () => {
    for (const t of ops)
      for (const f of t.fields) {
        const documented = /masked iterators|Bit i = iterator i/.test(f.doc ?? '');
        expect([t.name, f.name, f.role === 'iter_mask']).toEqual([t.name, f.name, documented]);
        if (documented) expect(f.width).toBe(isa.iterators);
      }
  });
  test('iter_id exactly on the fields documented as selecting one iterator', () => {
    for (const t of ops)
      for (const f of t.fields) {
        const documented = /^Iterator (whose|looping|multiplied|driving|selecting|added)\b/.test(f.doc ?? '');
        expect([t.name, f.name, f.role === 'iter_id']).toEqual([t.name, f.name, documented]);
      }
  });
  test('per_iter exactly on the array fields documented as per-iterator', () => {
    for (const t of ops)
      for (const f of t.fields) expect([t.name, f.name, f.role === 'per_iter']).toEqual([t.name, f.name, /^Per-iterator/.test(f.doc ?? '') && f.count === isa.iterators]);
  });
  test('every op table has an opcode field; the VI pair vpu_addr/vpu_count is seq §12.1', () => {
    for (const s of isa.sequencers.values()) expect([s.name, s.opcode?.name]).toEqual([s.name, 'opcd']);
    const vi = isa.sequencers.get('vi')!.op;
    expect(vi.fields.filter((f) => f.role === 'vpu_addr').map((f) => f.name)).toEqual(['vpv_pgm_start_addr']);
    expect(vi.fields.filter((f) => f.role === 'vpu_count').map((f) => f.name)).toEqual(['vpv_pgm_instr_count']);
  });
});

describe('roles, not names', () => {
  const ctrl = compileTable({
    name: 'c',
    fields: [
      { name: 'iter0_is_eol', width: 1 },
      { name: 'iter0_sol_pc', width: 2 },
      { name: 'iter0_numloops', width: 3, minus_one: true },
      { name: 'iter1_is_eol', width: 1 },
      { name: 'iter1_sol_pc', width: 2 },
      { name: 'iter1_numloops', width: 3, minus_one: true },
      { name: 'eopgm', width: 1 },
    ],
  });
  const op = compileTable({
    name: 'o',
    fields: [
      { name: 'kind', role: 'opcode', width: 1, enum: { Idle: 0, Go: 1 } },
      { name: 'finish_bits', role: 'iter_mask', width: 2 },
      { name: 'which', role: 'iter_id', width: 1 },
      { name: 'plain_iter_mask', width: 2 }, // a mask by name only: a plain number field here
    ],
  });
  const tables: Record<string, ReturnType<typeof compileTable>> = { c: ctrl, o: op, patch_micro_patch_t: loadTable('pyxis', 'patch_micro_patch_t') };
  const odd = makeIsa({ manifest: { iterators: 2, program_words: 4, sequencers: [{ id: 0, name: 'odd', control: 'c', op: 'o' }] }, tables: (n) => tables[n]! });

  test('an iter_mask takes iterator lists and an iter_id takes i<n>, whatever their names', () => {
    const r = assemble({ file: 'o.pasm', text: '.program p odd { loop 2 { loop 2 { Go finish_bits=[i0, i1] which=i1 } } }\n' }, { isa: odd });
    expect(programsFromContainer(r.object, odd)[0]!.op[0]).toMatchObject({ kind: 1, finish_bits: 3, which: 1 });
    expect(disassemble(r.object, { isa: odd })).toMatch(/finish_bits=\[i0, i1\] which=i1/);
  });
  test('a field named like a mask but without the role takes no list', () => {
    expect(() => assemble({ file: 'o.pasm', text: '.program p odd { loop 2 { Go plain_iter_mask=[i0] } }\n' }, { isa: odd })).toThrow(/takes a single value, not a list/);
  });
  test('a role that does not fit the ISA is a table error', () => {
    const bad = compileTable({ name: 'o', fields: [{ name: 'kind', role: 'opcode', width: 1, enum: { Go: 1 } }, { name: 'm', role: 'iter_mask', width: 5 }] });
    expect(() => makeIsa({ manifest: { iterators: 2, program_words: 4, sequencers: [{ id: 0, name: 'odd', control: 'c', op: 'o' }] }, tables: (n) => (n === 'o' ? bad : tables[n]!) })).toThrow(/cannot have role `iter_mask`/);
  });
});

describe('implicit program (instructions outside .program)', () => {
  test('Pyxis rejects it: a program names its sequencer (AS0221, seq §3)', () => {
    try {
      assemble({ file: 'top.pasm', text: '.const N = 2\nRead_SRAM amem_addr_offset=N\n' }, { isa });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DiagnosticError);
      const d = (e as DiagnosticError).diagnostics;
      expect(d.map((x) => x.code)).toEqual(['AS0221']);
      expect(d[0]!.span).toMatchObject({ file: 'top.pasm', line: 2, column: 1 });
    }
  });
});
