/**
 * The token budget (tokenBudget.ts, AS0109): the cheap count bounds the lexer's from above, a source one token
 * over the budget is refused at that token (whole assembly, includes too) and one exactly at it is read.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { countTokens, lex, MAX_TOKENS, readSources, WORST_BYTES_PER_TOKEN } from '@pyxis/asm';

/** `.const X = 1+1+...+1` with `terms` terms and a newline: the lexer's tokens are `.const`, X, =, 2*terms-1, newline. */
const sum = (terms: number, name = 'X'): string => `.const ${name} = ${Array(terms).fill('1').join('+')}\n`;
const lexed = (text: string): number => lex(text, 'f.pasm').result.tokens.length;

describe('countTokens', () => {
  test('is at least what the lexer produces (names, numbers, operators, directives, comments, line ends)', () => {
    const word = fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/), fc.nat({ max: 9999 }).map(String), fc.nat().map((n) => `0x${n.toString(16)}`));
    const punct = fc.constantFrom('+', '-', '*', '/', '(', ')', '[', ']', '{', '}', ',', '=', '<<', '>>', '&', '|', '^', '~', '%', ':', '.const', '.program', '\n', ';', ' # note\n', ' // c\n', '\\\n');
    fc.assert(
      fc.property(fc.array(fc.oneof(word, punct), { maxLength: 40 }), fc.array(fc.constantFrom('', ' ', '\t'), { maxLength: 40 }), (parts, gaps) => {
        let text = '';
        parts.forEach((p, i) => {
          // two words glued together are one run here but may be two tokens to the lexer (`12abc`): keep them apart
          const sep = i > 0 && /\w$/.test(text) && /^\w/.test(p) ? ' ' : (gaps[i] ?? '');
          text += sep + p;
        });
        expect(countTokens(text, Infinity).count).toBeGreaterThanOrEqual(lexed(text));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 200) },
    );
  });

  test('counts the worst case exactly and places the crossing token', () => {
    const text = sum(10); // .const X = 1+...+1 (19 tokens) \n: `.` and `const` count two: 24
    expect(lexed(text)).toBe(23);
    expect(countTokens(text, Infinity)).toEqual({ count: 24 });
    expect(countTokens(text, 24)).toEqual({ count: 24 });
    // with 20 allowed, the 21st counted (`.`, const, X, =, then the k-th `1` is token 2k+3) is the 9th `1`:
    // the first is at column 12, each next two columns on
    expect(countTokens(text, 20).cross).toEqual({ line: 1, column: 12 + 2 * 8 });
    expect(countTokens('a\n\n  b c', 4).cross).toEqual({ line: 3, column: 5 }); // a, line end, line end, b, c
  });
});

describe('readSources with a token budget', () => {
  const text = sum(1000); // 2004 counted tokens
  const limit = countTokens(text, Infinity).count;

  test('a source exactly at the budget is read', () => {
    const r = readSources([{ file: 'a.pasm', text }], { maxTokens: limit });
    expect(r.diagnostics).toEqual([]);
    expect(r.consts.values.get('X')).toBe(1000n);
  });

  test('one token over: AS0109 at the token past the budget, with the count, the limit and the advice', () => {
    const r = readSources([{ file: 'a.pasm', text }], { maxTokens: limit - 1 });
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect(d.code).toBe('AS0109');
    expect(d.severity).toBe('error');
    expect(d.message).toBe(`too many tokens: the assembly reaches ${limit} tokens with this file, the limit is ${limit - 1}`);
    // the last counted token is the newline at the end of line 1
    expect(d.span).toMatchObject({ file: 'a.pasm', line: 1, column: text.length });
    expect(d.notes!.join(' ')).toMatch(/split the program.*flat listing/);
    expect(r.parseErrors).toBe(true);
    expect(r.consts.values.has('X')).toBe(false);
  });

  test('includes count toward the same budget; the crossing is reported in the included file', () => {
    const inc = sum(500, 'Y');
    const main = `.include "b.pasm"\n${sum(10)}`;
    const files: Record<string, string> = { 'b.pasm': inc };
    const readFile = (p: string): string | undefined => files[p];
    const total = countTokens(main, Infinity).count + countTokens(inc, Infinity).count;
    expect(readSources([{ file: 'a.pasm', text: main }], { readFile, maxTokens: total }).diagnostics).toEqual([]);
    const r = readSources([{ file: 'a.pasm', text: main }], { readFile, maxTokens: total - 1 });
    expect(r.diagnostics.map((d) => [d.code, (d.span as { file: string }).file])).toEqual([['AS0109', 'b.pasm']]);
  });

  test('flat listings take the fast path and are not counted', () => {
    const flat = Array(50).fill('Read_SRAM amem_addr_offset=1 num_logical_ptns=8').join('\n') + '\n';
    expect(readSources([{ file: 'a.pasm', text: flat }], { maxTokens: 10 }).diagnostics).toEqual([]);
    expect(readSources([{ file: 'a.pasm', text: flat }], { maxTokens: 10, fastPath: false }).diagnostics.map((d) => d.code)).toEqual(['AS0109']);
  });
});

test('the shipped budget: the worst case measured per token stays below a quarter of a 4 GiB heap', () => {
  // docs/assembler.md (AS0109): ~280 B of peak RSS per counted token for `1+1+...`; Node's default heap limit
  // is about 4 GiB on 64-bit machines with enough memory
  expect(WORST_BYTES_PER_TOKEN).toBeGreaterThanOrEqual(250);
  expect(MAX_TOKENS * WORST_BYTES_PER_TOKEN).toBeLessThanOrEqual(2 ** 32 / 4);
  // and a typical 400,000-line source read whole (2.77 M counted tokens, scripts/gen-pasm.mjs) still fits
  expect(MAX_TOKENS).toBeGreaterThan(2_770_000);
});
