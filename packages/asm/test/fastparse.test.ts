/**
 * The fast path for plain instruction lines (fastparse.ts) builds the same AST
 * as the Chevrotain lexer and parser, and hands every other file to them:
 * random lines from the subset and just outside it, compared node by node.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileTable } from '@pyxis/codec';
import { compileFlatProgram, fastParse, opSpace, readSources, type EvalCtx } from '@pyxis/asm';

/** The AST as plain data (getters read, bigints as strings). */
const plain = (x: unknown) => JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
const both = (text: string) => {
  const a = readSources([{ file: 'f.s', text }], { fastPath: true });
  const b = readSources([{ file: 'f.s', text }], { fastPath: false });
  return { fast: plain({ p: a.programs, d: a.diagnostics }), slow: plain({ p: b.programs, d: b.diagnostics }) };
};

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
const num = fc.oneof(fc.nat({ max: 70000 }).map(String), fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String), fc.nat().map((n) => `0x${n.toString(16)}`), fc.nat().map((n) => `0b${n.toString(2)}`), fc.constantFrom('1_000', '0x_ff', '007'));
const blank = fc.constantFrom('', ' ', '\t', '  \t ');
const operand = fc.oneof(
  fc.tuple(name, blank, blank, fc.oneof(num, name)).map(([n, a, b, v]) => `${n}${a}=${b}${v}`),
  name,
);
const line = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(blank, name, fc.array(fc.tuple(fc.constantFrom(' ', '\t', ', ', ','), operand), { maxLength: 6 }), fc.constantFrom('', ' // c', ' # x', '#', '  ')).map(([b, m, ops, c]) => `${b}${m}${ops.map(([s, o]) => s + o).join('')}${c}`) },
  { weight: 2, arbitrary: fc.constantFrom('', '   ', '// comment', '# c', '\t') },
  // just outside the subset: the full front end must take the file
  { weight: 1, arbitrary: fc.constantFrom('Op a=-1', 'Op a=(1)', 'Op a=1+2', '.const X = 1', 'Op a[1]=2', 'Op x.y=1', 'loop 2 { Op }', 'Op a=1; Op', 'Op a=12abc', 'Op ,a=1', 'Op a==1', 'at', 'Op final', 'Op a=MASK', 'Op a=0x', 'Op \\\n b=1', 'Op a=1\r', 'Öp', 'Op a=1 /', 'Op a="s"') },
);

describe('fast path', () => {
  test('random files: the same AST and diagnostics as the Chevrotain front end', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, nl, end) => {
        const text = lines.join(nl) + (end ? nl : '');
        const r = both(text);
        expect(r.fast).toEqual(r.slow);
      }),
      { numRuns: 400 },
    );
  });

  test('takes plain listings and refuses everything else', () => {
    expect(fastParse('DataMove flow=dram1_to_local local=0 dram1=0 size=289\nMatMul zeroes local=0 acc=0 size=33 // c\n\n', 'a')?.items.length).toBe(2);
    for (const t of ['.const X = 1\nOp', 'Op a=-1', 'Op a=1; Op b=2', 'loop 2 { Op }', 'Op a=1\rOp', 'Op a=12abc'])
      expect(fastParse(t, 'a'), t).toBeUndefined();
  });

  test('spans, numbers and flags of one line', () => {
    const ast = plain(fastParse('  MatMul accumulate, local=0x10 acc=ACC size=1_000 # c', 'f.s'));
    expect(ast.items).toEqual([
      {
        kind: 'insn', mnemonic: 'MatMul', mnemonicSpan: { file: 'f.s', line: 1, column: 3, length: 6 },
        operands: [
          { name: 'accumulate', nameSpan: { file: 'f.s', line: 1, column: 10, length: 10 }, value: { kind: 'expr', expr: { kind: 'num', value: '1n', span: { file: 'f.s', line: 1, column: 10, length: 10 } }, span: { file: 'f.s', line: 1, column: 10, length: 10 } }, span: { file: 'f.s', line: 1, column: 10, length: 10 }, flag: true },
          { name: 'local', nameSpan: { file: 'f.s', line: 1, column: 22, length: 5 }, value: { kind: 'expr', expr: { kind: 'num', value: '16n', span: { file: 'f.s', line: 1, column: 28, length: 4 } }, span: { file: 'f.s', line: 1, column: 28, length: 4 } }, span: { file: 'f.s', line: 1, column: 22, length: 5 } },
          { name: 'acc', nameSpan: { file: 'f.s', line: 1, column: 33, length: 3 }, value: { kind: 'expr', expr: { kind: 'name', name: 'ACC', span: { file: 'f.s', line: 1, column: 37, length: 3 } }, span: { file: 'f.s', line: 1, column: 37, length: 3 } }, span: { file: 'f.s', line: 1, column: 33, length: 3 } },
          { name: 'size', nameSpan: { file: 'f.s', line: 1, column: 41, length: 4 }, value: { kind: 'expr', expr: { kind: 'num', value: '1000n', span: { file: 'f.s', line: 1, column: 46, length: 5 } }, span: { file: 'f.s', line: 1, column: 46, length: 5 } }, span: { file: 'f.s', line: 1, column: 41, length: 4 } },
        ],
        span: { file: 'f.s', line: 1, column: 3, length: 6 }, line: 1, file: 'f.s',
      },
    ]);
  });
});

describe('compileFlatProgram keepValues: false', () => {
  const t = compileTable({
    name: 'w', title: 'W', width: 24,
    fields: [
      { name: 'opcode', role: 'opcode', width: 4, enum: { A: 0, B: 1 }, default: 'A' },
      { name: 'x', width: 12, default: 0 },
      { name: 'f', width: 1, default: 0 },
      { name: 'rsvd', width: 7, reserved: true },
    ],
  });
  const space = opSpace(t);
  const run = (text: string, keepValues: boolean) => {
    const set = readSources([{ file: 'w.s', text }]);
    const ctx: EvalCtx = { consts: set.consts, diags: set.diagnostics };
    const seen: Array<[number, Record<string, unknown>]> = [];
    const p = compileFlatProgram(set.programs[0]!, space, ctx, { keepValues, each: (ins, k) => seen.push([k, plain(ins.values)]) })!;
    return { words: Array.from(p.words), n: p.insns.length, seen, values: p.insns.map((i) => plain(i.values)), codes: ctx.diags.map((d) => d.code), lines: p.insns.map((i) => [i.ast.line, i.span.column]) };
  };
  test('the same words, diagnostics and callbacks; bindings not kept', () => {
    for (const text of ['A x=5 f\nB x=4095\n  A\n', 'A x=4096\nB x=1\n', 'B x=7 f\nC\n']) {
      const kept = run(text, true);
      const lean = run(text, false);
      expect(lean.words).toEqual(kept.words);
      expect(lean.codes).toEqual(kept.codes);
      expect(lean.seen).toEqual(kept.seen);
      expect(lean.lines).toEqual(kept.lines);
      expect(lean.values.every((v) => Object.keys(v).length === 0)).toBe(true);
    }
    // an independent packing of the first text: opcode | x << 4 | f << 16, little-endian 3 bytes
    const w = (op: number, x: number, f: number) => { const v = op | (x << 4) | (f << 16); return [v & 255, (v >> 8) & 255, v >> 16]; };
    expect(run('A x=5 f\nB x=4095\n  A\n', false).words).toEqual([...w(0, 5, 1), ...w(1, 4095, 0), ...w(0, 0, 0)]);
  });
});
