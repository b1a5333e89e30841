/**
 * The shipped lexer and parser skip Chevrotain's checks of the token set and
 * grammar (start-up time, issue 15): they are run here instead, so a grammar
 * change that makes an alternation ambiguous or a token unreachable still fails.
 */
import { describe, expect, test } from 'vitest';
import { Lexer } from '../src/chevrotain.js';
import { allTokens } from '../src/tokens.js';
import { PasmParser, lex, lexerConfig, parseTokens } from '@pyxis/asm';

describe('grammar checks skipped at run time', () => {
  test('the token set passes the lexer validations', () => {
    const lexer = new Lexer(allTokens, lexerConfig(true));
    expect(lexer.lexerDefinitionErrors).toEqual([]);
  });

  test('the grammar passes the parser validations, with and without recovery', () => {
    // performSelfAnalysis throws on any definition error (ambiguity, left recursion, ...)
    for (const recovery of [false, true]) expect(() => new PasmParser(recovery, true)).not.toThrow();
  });

  test('validated and shipped lexer/parser agree on a sample', () => {
    const text = '.const N = 4\n.program p amem_read {\n  loop i0 N {\n    Read_SRAM tgt_fifo=AMEM_write iter_stride[i0]=(N*2)\n  }\n}\n';
    const shipped = lex(text, 'f.pasm').result;
    const checked = new Lexer(allTokens, lexerConfig(true)).tokenize(text);
    expect(shipped.tokens.map((t) => [t.image, t.tokenType.name])).toEqual(checked.tokens.map((t) => [t.image, t.tokenType.name]));
    const a = parseTokens(shipped.tokens, 'f.pasm');
    const v = new PasmParser(false, true);
    v.file = 'f.pasm';
    v.input = checked.tokens;
    const items = (v.fileRule() ?? []).filter(Boolean);
    expect(a.diagnostics).toEqual([]);
    expect(v.errors).toEqual([]);
    expect(JSON.stringify(a.ast.items, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x))).toEqual(JSON.stringify(items, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x)));
  });

  test('an unknown character names the language of its file (the front end reads .pasm, .tasm, .xasm)', () => {
    expect(lex('a @\n', 'x.pasm').diagnostics[0]!.label).toBe('not part of the .pasm language');
    expect(lex('a @\n', 'dir/X.XASM').diagnostics[0]!.label).toBe('not part of the .xasm language');
    expect(lex('a @\n', 'x.tasm').diagnostics[0]!.label).toBe('not part of the .tasm language');
    expect(lex('a @\n', 'common.inc').diagnostics[0]!.label).toBe('not part of the assembly language');
  });
});
