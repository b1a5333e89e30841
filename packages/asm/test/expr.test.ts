/**
 * Expressions: the iterative evaluator agrees with an independent recursive
 * reference (C semantics on bigints), and absurd input — 100,000 `+` terms,
 * 10,000 nested parentheses or prefix operators — gives a value or a
 * diagnostic, never a stack overflow (issue 15).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { Diagnostic } from '@pyxis/diagnostics';
import { Consts, evalExpr, MAX_NESTING, MAX_PENDING_LOOPS, readSources, type Expr } from '@pyxis/asm';

const span = { file: 't', line: 1, column: 1 };

/** Reference: plain recursion, C operators, the same 64-bit bound and errors as undefined. */
function reference(e: Expr): bigint | undefined {
  if (e.kind === 'num') return e.value;
  if (e.kind === 'name') return undefined;
  if (e.kind === 'unary') {
    const a = reference(e.arg);
    return a === undefined ? undefined : e.op === '-' ? -a : e.op === '~' ? ~a : a;
  }
  const a = reference(e.left);
  const b = reference(e.right);
  if (a === undefined || b === undefined) return undefined;
  const ops: Record<string, () => bigint | undefined> = {
    '+': () => a + b,
    '-': () => a - b,
    '*': () => a * b,
    '/': () => (b === 0n ? undefined : a / b),
    '%': () => (b === 0n ? undefined : a % b),
    '<<': () => (b < 0n || b > 64n ? undefined : a << b),
    '>>': () => (b < 0n || b > 64n ? undefined : a >> b),
    '&': () => a & b,
    '|': () => a | b,
    '^': () => a ^ b,
  };
  const r = ops[e.op]!();
  return r === undefined || r >= 1n << 64n || r <= -(1n << 64n) ? undefined : r;
}

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.bigInt({ min: -300n, max: 300n }).map((value): Expr => ({ kind: 'num', value, span })),
    fc.record({ op: fc.constantFrom('-', '~', '+'), arg: tie('e') }).map((r): Expr => ({ kind: 'unary', op: r.op, arg: r.arg, span })),
    fc
      .record({ op: fc.constantFrom('+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^'), left: tie('e'), right: tie('e') })
      .map((r): Expr => ({ kind: 'binary', op: r.op, left: r.left, right: r.right, span })),
  ),
})).e;

function evalConst(text: string): { value?: bigint; diags: Diagnostic[] } {
  const set = readSources([{ file: 'c.pasm', text }]);
  return { value: set.consts.values.get('X'), diags: set.diagnostics };
}

describe('evalExpr', () => {
  test('property: agrees with a recursive reference evaluator', () => {
    fc.assert(
      fc.property(exprArb, (e) => {
        const diags: Diagnostic[] = [];
        const got = evalExpr(e, { consts: new Consts(), diags });
        const want = reference(e);
        expect(got).toBe(want);
        // an undefined result always comes with a diagnostic, a value never does
        expect(diags.length > 0).toBe(want === undefined);
      }),
      { numRuns: 500 },
    );
  });

  test('both operands report their errors, left first', () => {
    const diags: Diagnostic[] = [];
    const name = (n: string): Expr => ({ kind: 'name', name: n, span });
    expect(evalExpr({ kind: 'binary', op: '+', left: name('A'), right: name('B'), span }, { consts: new Consts(), diags })).toBeUndefined();
    expect(diags.map((d) => d.message)).toEqual(['unknown name `A`', 'unknown name `B`']);
  });

  test('5,000 and 100,000 `+` terms evaluate (left-deep trees, no recursion)', () => {
    for (const n of [5_000, 100_000]) {
      const r = evalConst(`.const X = ${Array.from({ length: n }, (_, i) => String(i % 7)).join(' + ')}\n`);
      let want = 0n;
      for (let i = 0; i < n; i++) want += BigInt(i % 7);
      expect(r.diags).toEqual([]);
      expect(r.value).toBe(want);
    }
  });

  test('a long chain mixing precedences keeps C precedence', () => {
    const n = 5_000;
    // 1 + 2*3 - 4 + 2*3 - 4 ...: each group adds 2
    const r = evalConst(`.const X = 1${' + 2*3 - 4'.repeat(n)}\n`);
    expect(r.value).toBe(1n + 2n * BigInt(n));
  });

  test(`${MAX_NESTING} levels of parentheses and prefix operators are accepted`, () => {
    expect(evalConst(`.const X = ${'('.repeat(MAX_NESTING)}7${')'.repeat(MAX_NESTING)}\n`).value).toBe(7n);
    expect(evalConst(`.const X = ${'- '.repeat(MAX_NESTING)}7\n`).value).toBe(7n);
    expect(evalConst(`.const X = ${'-('.repeat(MAX_NESTING / 2)}7${')'.repeat(MAX_NESTING / 2)}\n`).value).toBe(7n);
  });

  for (const [what, text] of [
    ['10,000 nested parentheses', `.const X = ${'('.repeat(10_000)}1${')'.repeat(10_000)}\n`],
    ['10,000 prefix minus signs', `.const X = ${'-'.repeat(10_000)}1\n`],
    ['10,000 alternating ~ and (', `.const X = ${'~('.repeat(5_000)}1${')'.repeat(5_000)}\n`],
    ['10,000 unclosed brackets in an operand list', `.program p s { Op a=${'['.repeat(10_000)}\n}\n`],
    ['10,000 nested loop braces', `.program p s {\n${'loop 2 {\n'.repeat(10_000)}Op\n${'}\n'.repeat(10_000)}}\n`],
  ] as const) {
    test(`${what}: AS0107 at the first token too deep, never a crash`, () => {
      const r = evalConst(text);
      expect(r.diags.map((d) => d.code)).toEqual(['AS0107']);
      const d = r.diags[0]!;
      expect(d.message).toMatch(`nested deeper than ${MAX_NESTING} levels`);
      expect(d.span).toMatchObject({ file: 'c.pasm', line: expect.any(Number), column: expect.any(Number) });
    });
  }

  test(`more than ${MAX_PENDING_LOOPS} \`loop\` headers without their \`{\` is AS0107 at the first one too many (fuzz: 1,331 bare \`loop\` lines)`, () => {
    // the error-recovering parser nests each bare header into the previous one: a diagnostic before it runs
    const r = evalConst(`.program p s {\n  x =\n${'loop\n'.repeat(1331)}}\n`);
    expect(r.diags.map((d) => [d.code, d.message, (d.span as { line: number }).line])).toEqual([['AS0107', `more than ${MAX_PENDING_LOOPS} \`loop\` headers without their \`{\``, 3 + MAX_PENDING_LOOPS]]);
    // headers on their own line with the brace on the next stay legal
    expect(evalConst(`.program p s {\n${'loop 2\n{\n'.repeat(40)}Op\n${'}\n'.repeat(40)}}\n`).diags.filter((d) => d.code === 'AS0107')).toEqual([]);
  });

  test(`one level past ${MAX_NESTING} is AS0107, pointing at the token that goes too deep`, () => {
    const r = evalConst(`.const X = ${'('.repeat(MAX_NESTING + 1)}1${')'.repeat(MAX_NESTING + 1)}\n`);
    expect(r.diags.map((d) => d.code)).toEqual(['AS0107']);
    expect(r.diags[0]!.span).toMatchObject({ line: 1, column: '.const X = '.length + MAX_NESTING + 1 });
  });
});
