/** The `.ncasm` front end applies the shared token budget (AS0109) before lexing; NC_MAX_TOKENS is its default. */
import { describe, expect, it } from 'vitest';
import { countTokens } from '@pyxis/asm';
import { assembleNc, NC_MAX_TOKENS } from '../src/assemble.js';

/** Lines of `.const Xi = 1+...+1` (under the dialect's 1000 operators per line). */
const source = (lines: number): string => Array.from({ length: lines }, (_, i) => `.const X${i} = ${Array(400).fill('1').join('+')}\n`).join('');

describe('ncasm token budget', () => {
  const text = source(20);
  // per line: `.`, const, name, =, 799 for the sum, the line end
  const total = 20 * 804;

  it('counts what the test expects', () => {
    expect(countTokens(text, Infinity).count).toBe(total);
  });

  it('exactly at the budget: assembled; one over: AS0109 at the crossing token, nothing else', () => {
    expect(assembleNc([{ file: 'a.ncasm', text }], undefined, { maxTokens: total }).diagnostics).toEqual([]);
    const d = assembleNc([{ file: 'a.ncasm', text }], undefined, { maxTokens: total - 1 }).diagnostics;
    expect(d.map((x) => [x.code, x.span])).toEqual([['AS0109', { file: 'a.ncasm', line: 20, column: text.split('\n')[19]!.length + 1, length: 1 }]]);
    expect(d[0]!.message).toBe(`too many tokens: the assembly reaches ${total} tokens with this file, the limit is ${total - 1}`);
  });

  it('the budget spans every input file', () => {
    const d = assembleNc([{ file: 'a.ncasm', text }, { file: 'b.ncasm', text: source(1).replace('X0', 'Y') }], undefined, { maxTokens: total + 803 }).diagnostics;
    expect(d.map((x) => [x.code, (x.span as { file: string }).file])).toEqual([['AS0109', 'b.ncasm']]);
  });

  it('the default leaves room for the 8.9 M-token disassembly of samples/neuroncore/matmul_big.ncasm (~100 B/token)', () => {
    expect(NC_MAX_TOKENS).toBeGreaterThanOrEqual(8_945_347 * 1.3);
    expect(NC_MAX_TOKENS * 100).toBeLessThanOrEqual(2 ** 32 / 3);
  });
});
