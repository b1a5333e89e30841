/**
 * The target-neutral operand binder and flat instruction streams, on a toy
 * ISA written here (a Tensil-like word: opcode, flags, two operands), so
 * nothing of Pyxis is involved. Encoded words are checked against an
 * independent bit-packing in the test.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { compileTable } from '@pyxis/codec';
import { SourceMap, type Diagnostic } from '@pyxis/diagnostics';
import { Consts, bindOperands, compileFlatProgram, flatListing, opSpace, readSources, IMPLICIT_PROGRAM, type EvalCtx, type OperandHooks } from '@pyxis/asm';

const toy = compileTable({
  name: 'toy_instr',
  title: 'Toy',
  width: 40,
  fields: [
    { name: 'opcode', role: 'opcode', width: 4, enum: { NoOp: 0, MatMul: 1, DataMove: 2, LoadWeights: 3, SIMD: 4 }, default: 'NoOp' },
    { name: 'flags', width: 4, enum: { none: 0, accumulate: 1, zeroes: 2 }, default: 'none' },
    { name: 'operand0', aliases: ['addr'], width: 14, default: 0 },
    { name: 'operand1', width: 12, minus_one: true, default: 1 },
    { name: 'shift', width: 3, signed: true, default: 0 },
    { name: 'lanes', width: 2, count: 1, default: 0 },
    { name: 'rsvd', width: 1, reserved: true },
  ],
});
const space = opSpace(toy);

/** Independent packing of the toy word (field positions written out by hand). */
function pack(v: { opcode: number; flags: number; operand0: number; operand1: number; shift: number; lanes: number }): bigint {
  return (
    BigInt(v.opcode) |
    (BigInt(v.flags) << 4n) |
    (BigInt(v.operand0) << 8n) |
    (BigInt(v.operand1 - 1) << 22n) | // minus_one
    (BigInt(v.shift & 7) << 34n) | // 3-bit two's complement
    (BigInt(v.lanes) << 37n)
  );
}

function wordAt(bytes: Uint8Array, k: number): bigint {
  let w = 0n;
  for (let i = 4; i >= 0; i--) w = (w << 8n) | BigInt(bytes[k * 5 + i]!);
  return w;
}

function compile(text: string, hooks?: OperandHooks) {
  const sources = new SourceMap();
  const set = readSources([{ file: 'toy.asm', text }], { sources });
  const ctx: EvalCtx = { consts: set.consts, diags: set.diagnostics };
  const progs = set.programs.map((p) => compileFlatProgram(p, space, ctx, { memoryWords: 8, spec: 'toy §1', ...(hooks ? { hooks } : {}) }));
  return { progs, diags: ctx.diags, sources, set };
}

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);

describe('flat instruction streams', () => {
  test('top-level instructions form the implicit program; words match an independent packing', () => {
    const { progs, diags, sources } = compile('.const BASE = 0x100\nMatMul flags=accumulate operand0=BASE+2 operand1=16\nDataMove addr=7, shift=-3 lanes=2\nNoOp\n');
    expect(diags).toEqual([]);
    const p = progs[0]!;
    expect(p.name).toBe(IMPLICIT_PROGRAM);
    expect(p.stride).toBe(5);
    expect(wordAt(p.words, 0)).toBe(pack({ opcode: 1, flags: 1, operand0: 0x102, operand1: 16, shift: 0, lanes: 0 }));
    expect(wordAt(p.words, 1)).toBe(pack({ opcode: 2, flags: 0, operand0: 7, operand1: 1, shift: -3, lanes: 2 }));
    expect(wordAt(p.words, 2)).toBe(pack({ opcode: 0, flags: 0, operand0: 0, operand1: 1, shift: 0, lanes: 0 }));
    expect(flatListing(p, sources)).toBe(
      [
        '; main: 3 instructions of toy_instr (40 bits)',
        `0  ${pack({ opcode: 1, flags: 1, operand0: 0x102, operand1: 16, shift: 0, lanes: 0 }).toString(16).padStart(10, '0')}  MatMul flags=accumulate operand0=BASE+2 operand1=16`,
        `1  ${pack({ opcode: 2, flags: 0, operand0: 7, operand1: 1, shift: -3, lanes: 2 }).toString(16).padStart(10, '0')}  DataMove addr=7, shift=-3 lanes=2`,
        '2  0000000000  NoOp', // operand1 = 1 is stored as 0 (minus_one)
        '',
      ].join('\n'),
    );
  });

  test('property: any in-range operands encode to the independent packing', () => {
    fc.assert(
      fc.property(
        fc.record({
          opcode: fc.integer({ min: 0, max: 4 }),
          flags: fc.integer({ min: 0, max: 2 }),
          operand0: fc.integer({ min: 0, max: (1 << 14) - 1 }),
          operand1: fc.integer({ min: 1, max: 1 << 12 }),
          shift: fc.integer({ min: -4, max: 3 }),
          lanes: fc.integer({ min: 0, max: 3 }),
        }),
        (v) => {
          const mn = [...space.mnemonics].find(([, c]) => c === v.opcode)![0];
          const { progs, diags } = compile(`${mn} flags=${v.flags} operand0=${v.operand0} operand1=${v.operand1} shift=${v.shift} lanes=${v.lanes}\n`);
          expect(diags).toEqual([]);
          expect(wordAt(progs[0]!.words, 0)).toBe(pack(v));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('explicit .program with at; length and address checked against the memory', () => {
    const { progs, diags } = compile('.program p toy at 6 {\n  NoOp\n  NoOp\n  NoOp\n}\n');
    expect(progs[0]!.startAddr).toBe(6);
    expect(codes(diags)).toEqual(['AS0316']);
    expect(codes(compile('.program p toy at 8 { NoOp }\n').diags)).toEqual(['AS0314']);
  });

  test('loops, ctrl blocks and empty programs are errors of a flat ISA', () => {
    expect(codes(compile('loop 2 { NoOp }\n').diags)).toEqual(['AS0317', 'AS0315']);
    expect(codes(compile('ctrl { x=1 } NoOp\n').diags)).toEqual(['AS0318']);
    expect(codes(compile('.program p toy {\n}\n').diags)).toEqual(['AS0315']);
  });
});

describe('bindOperands', () => {
  const bind = (text: string, hooks?: OperandHooks) => compile(`${text}\n`, hooks);

  test('unknown field: AS0206 at the operand name with a did-you-mean over names and aliases', () => {
    const { diags } = bind('MatMul operandd0=1');
    expect(codes(diags)).toEqual(['AS0206']);
    expect(diags[0]!.span).toMatchObject({ line: 1, column: 8, length: 9 });
    expect(diags[0]!.notes?.join(' ')).toMatch(/operand0/);
    expect(codes(bind('MatMul rsvd=1').diags)).toEqual(['AS0206']); // reserved fields are not settable
  });

  test('range errors come from the codec, at the value, citing the range', () => {
    const { diags } = bind('MatMul operand1=0 shift=4');
    expect(codes(diags)).toEqual(['AS0401', 'AS0401']);
    expect(diags[0]!.message).toMatch(/value 0 out of range for `operand1`/);
    expect(diags[0]!.span).toMatchObject({ column: 17 });
    expect(diags[1]!.message).toMatch(/`shift`/);
  });

  test('enum names, wrong enum names, duplicates (also through an alias), the opcode set by the mnemonic', () => {
    expect(codes(bind('MatMul flags=zeroes').diags)).toEqual([]);
    const wrong = bind('MatMul flags=acumulate').diags;
    expect(codes(wrong)).toEqual(['AS0215']);
    expect(wrong[0]!.notes?.join(' ')).toMatch(/accumulate/);
    expect(codes(bind('MatMul operand0=1 addr=2').diags)).toEqual(['AS0208']);
    expect(codes(bind('MatMul opcode=2').diags)).toEqual(['AS0207']);
    expect(codes(bind('op opcode=SIMD').diags)).toEqual([]);
    expect(codes(bind('Matmul').diags)).toEqual(['AS0217']);
  });

  test('array fields take lists and indices; scalar fields reject lists unless a hook takes them', () => {
    const t = compileTable({ name: 'arr', fields: [{ name: 'x', width: 4, count: 3, default: [1, 2, 3] }, { name: 'm', width: 4 }] });
    const ctx: EvalCtx = { consts: new Consts(), diags: [] };
    const parse = (s: string) => {
      const set = readSources([{ file: 'a', text: `Op ${s}\n` }]);
      const insn = set.programs[0]!.body[0]!;
      return insn.kind === 'insn' ? insn.operands : [];
    };
    expect(bindOperands(parse('x=[7]'), t, ctx, 'arr')).toEqual({ x: [7n, 2n, 3n] });
    expect(bindOperands(parse('x[2]=9'), t, ctx, 'arr')).toEqual({ x: [1n, 2n, 9n] });
    expect(ctx.diags).toEqual([]);
    bindOperands(parse('x=[1,2,3,4] m=[1]'), t, ctx, 'arr');
    expect(codes(ctx.diags)).toEqual(['AS0212', 'AS0213']);
    ctx.diags.length = 0;
    const hooks: OperandHooks = { listValue: (f, v) => (f.name === 'm' ? BigInt(v.items.length) : null) };
    expect(bindOperands(parse('m=[5, 6]'), t, ctx, 'arr', { hooks })).toEqual({ m: 2n });
    expect(ctx.diags).toEqual([]);
  });

  test('hooks: a bare name a target knows (a symbol) and a check on the value', () => {
    const refs: string[] = [];
    const hooks: OperandHooks = {
      nameValue: (f, name) => (name === 'weights' ? (refs.push(`${f.name}->${name}`), 0n) : undefined),
      check: (f, v, _val, ctx) => {
        if (f.name === 'operand0' && v % 2n) {
          ctx.diags.push({ severity: 'error', code: 'X0001', message: 'odd' });
          return false;
        }
        return true;
      },
    };
    expect(codes(bind('LoadWeights operand0=weights', hooks).diags)).toEqual([]);
    expect(refs).toEqual(['operand0->weights']);
    expect(codes(bind('LoadWeights operand0=nothing', hooks).diags)).toEqual(['AS0201']);
    expect(codes(bind('LoadWeights operand0=3', hooks).diags)).toEqual(['X0001']);
  });
});

describe('flag operands: a bare name sets a one-bit field to 1', () => {
  const flagged = compileTable({
    name: 'flagged',
    width: 16,
    fields: [
      { name: 'opcode', role: 'opcode', width: 4, enum: { Go: 1, Stop: 2 } },
      { name: 'fast', width: 1 },
      { name: 'loud', width: 1 },
      { name: 'mode', width: 2, enum: { a: 0, b: 1 } },
      { name: 'count', width: 8 },
    ],
  });
  const fs = opSpace(flagged);
  const run = (text: string) => {
    const set = readSources([{ file: 'f.s', text }]);
    const ctx = { consts: set.consts, diags: [...set.diagnostics] as Diagnostic[] };
    const p = compileFlatProgram(set.programs[0]!, fs, ctx);
    return { p, codes: ctx.diags.map((d) => `${d.code}@${(d.span as { column: number }).column}`) };
  };
  test('`Go fast count=3` is `Go fast=1, count=3`: the same word; the other flag stays 0', () => {
    const a = run('Go fast count=3');
    const b = run('Go fast=1, count=3');
    expect(a.codes).toEqual([]);
    expect(Array.from(a.p!.words)).toEqual(Array.from(b.p!.words));
    // opcode 1 | fast (bit 4) | count 3 at bit 8, by hand
    expect(a.p!.words[0]! | (a.p!.words[1]! << 8)).toBe(1 | (1 << 4) | (3 << 8));
    expect(run('Go loud, fast').p!.words[0]).toBe(1 | (1 << 4) | (1 << 5));
  });
  test('a bare name of a wider or enum field is AS0225 at the name; a flag set twice is AS0208', () => {
    expect(run('Go count').codes).toEqual(['AS0225@4']);
    expect(run('Go mode').codes).toEqual(['AS0225@4']);
    expect(run('Go fast fast').codes).toEqual(['AS0208@9']);
  });
});
