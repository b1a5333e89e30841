import type { ILexingResult } from 'chevrotain';
import { Lexer } from './chevrotain.js';
import { error, type Diagnostic } from '@pyxis/diagnostics';
import { allTokens } from './tokens.js';

/**
 * The lexer's configuration. Chevrotain's checks of the token definitions cost
 * every `pyxis-as` run tens of ms (issue 15, scripts/bench-startup.mjs); the
 * token set is fixed, so the shipped lexer skips them and a test
 * (packages/asm/test/grammar-checks.test.ts) builds one with `validate` to run them.
 */
export function lexerConfig(validate = false): ConstructorParameters<typeof Lexer>[1] {
  return { positionTracking: 'onlyStart', ensureOptimizations: true, skipValidations: !validate };
}

export const pasmLexer = new Lexer(allTokens, lexerConfig());

/** Tokenizes; unknown characters become AS0101 diagnostics (the lexer skips them and goes on). */
export function lex(text: string, file: string): { result: ILexingResult; diagnostics: Diagnostic[] } {
  const result = pasmLexer.tokenize(text);
  const diagnostics = result.errors.map((e) =>
    error('AS0101', `unexpected character ${JSON.stringify(text.substr(e.offset, Math.max(1, e.length)).slice(0, 10))}`, {
      span: { file, line: e.line ?? 1, column: e.column ?? 1, length: Math.max(1, e.length) },
      // the shared front end reads every target's language (.pasm, .tasm, .xasm): name the file's own
      label: `not part of the ${/\.[a-z]*asm$/i.exec(file)?.[0]?.toLowerCase() ?? 'assembly'} language`,
    }),
  );
  return { result, diagnostics };
}
