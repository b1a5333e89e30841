/** The assembler takes its whole instruction set from the tables it is given. */
import { describe, expect, test } from 'vitest';
import { assemble, disassemble, programsFromContainer } from '@pyxis/target-pyxis/asm';
import { tinyIsa } from './fixtures/tiny_isa.js';
import { run } from './interp.js';

describe('injected ISA (fixture tables)', () => {
  const src = `.program t tiny {\n  loop 3 {\n    loop 4 final 2 {\n      Go speed=9 step[i1]=5 done_iter_mask=[i0, i1]\n    }\n  }\n}\n`;
  test('fields, widths, defaults, iterator count and memory size come from the tables', () => {
    const r = assemble({ file: 't.pasm', text: src }, { isa: tinyIsa });
    const p = programsFromContainer(r.object, tinyIsa)[0]!;
    expect(p.ctrl[0]).toMatchObject({ iter0_is_eol: 1, iter0_numloops: 3, iter1_is_eol: 1, iter1_numloops: 4, iter1_numloops_final: 2, iter1_final_iter_mask: 1, eopgm: 1 });
    expect(p.op[0]).toMatchObject({ opcd: 1, speed: 9, step: [0, 5], done_iter_mask: 3 });
    expect(run(p.ctrl, 2)).toHaveLength(4 + 4 + 2);
    expect(disassemble(r.object, { isa: tinyIsa })).toMatch(/loop i1 4 final 2 when \[i0\]/);
  });
  test('limits of the tiny ISA are enforced', () => {
    expect(() => assemble({ file: 't.pasm', text: '.program t tiny { loop 2 { loop 2 { loop 2 { Go } } } }' }, { isa: tinyIsa })).toThrow(/2 iterators/);
    expect(() => assemble({ file: 't.pasm', text: '.program t tiny {\n Go\n Go\n Go\n Go\n Go\n}' }, { isa: tinyIsa })).toThrow(/holds 4/);
    expect(() => assemble({ file: 't.pasm', text: '.program t tiny { loop 9 { Go } }' }, { isa: tinyIsa })).toThrow(/out of range/);
    expect(() => assemble({ file: 't.pasm', text: '.program t tiny { Go speed=16 }' }, { isa: tinyIsa })).toThrow(/out of range/);
  });
});
