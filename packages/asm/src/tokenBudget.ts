/**
 * A bound on how many tokens one assembly may lex (AS0109). The Chevrotain lexer and parser keep every token,
 * CST-free AST node and span of a file alive until the file is processed; the worst case, a dense expression
 * (`.const X = 1+1+1+...`), costs about 280 bytes of peak RSS per token in `pyxis-as`, so a non-flat source of
 * roughly 12 MB of dense tokens ran Node out of heap (a V8 fatal error, no message, wrong exit code).
 * Before a file is lexed, its tokens are counted in one pass over its char codes (no allocation per token), and
 * when the assembly's total (includes too) passes the budget the file is not lexed: one AS0109 at the token that
 * crossed it. Flat listings (fastparse.ts) are not counted: they never reach the lexer.
 */
import { error, type Diagnostic } from '@pyxis/diagnostics';

/**
 * Tokens one assembly may lex. Measured (peak RSS of `pyxis-as`, /usr/bin/time, docs/assembler.md): the
 * `1+1+...` line costs ~280 B per counted token (250,000 terms 0.21 GB, 1,450,000 terms 0.87 GB), a typical
 * source (scripts/gen-pasm.mjs, 400,000 lines, 13 MB, 2.77 M counted tokens, read whole) ~260 B (0.76 GB).
 * So 3,000,000 tokens peak near 0.85 GB, about a fifth of Node's default heap limit (about 4 GB on 64-bit):
 * room for the back end's own data. Large typical sources read piecewise count per piece, not in total.
 */
export const MAX_TOKENS = 3_000_000;
/** The worst case's measured peak bytes per counted token (the `1+1+...` line), for the documented relation. */
export const WORST_BYTES_PER_TOKEN = 280;

/** Where the count passed the budget (1-based line and UTF-16 column, like the lexer's). */
export interface BudgetCross {
  line: number;
  column: number;
}

function isWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * Counts the tokens of `text` and the place of the one that makes the count pass `left`. The count is an upper
 * bound of the lexer's for ordinary sources: a run of name/number characters is one token, every other
 * non-blank character one token (`<<`, `.const` and `1.5` count more than the lexer's), a line end or `;` one,
 * blanks and `#` / `//` comments none. (A name glued to a number, `1x`, counts one where the lexer sees two;
 * `#` inside a string ends the count of that line: close enough for a memory budget.)
 */
export function countTokens(text: string, left: number): { count: number; cross?: BudgetCross } {
  const n = text.length;
  let count = 0;
  let line = 1;
  let lineStart = 0;
  let cross: BudgetCross | undefined;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 11 || c === 12 || c === 13) {
      i++;
      continue;
    }
    if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
      continue;
    }
    count++;
    if (count > left && cross === undefined) cross = { line, column: i - lineStart + 1 };
    if (c === 10) {
      i++;
      line++;
      lineStart = i;
    } else if (isWord(c)) {
      i++;
      while (i < n && isWord(text.charCodeAt(i))) i++;
    } else i++;
  }
  return cross ? { count, cross } : { count };
}

/** The running count of one assembly's tokens against its budget. */
export class TokenBudget {
  used = 0;
  /** Set once the budget is passed: later files are not read (one AS0109 is enough). */
  exceeded = false;
  constructor(readonly limit: number = MAX_TOKENS) {}

  /** Counts `text`; on passing the budget returns AS0109 (the file must not be lexed). */
  take(text: string, file: string): Diagnostic | undefined {
    const r = countTokens(text, this.limit - this.used);
    this.used += r.count;
    if (!r.cross) return undefined;
    this.exceeded = true;
    return error('AS0109', `too many tokens: the assembly reaches ${this.used} tokens with this file, the limit is ${this.limit}`, {
      span: { file, line: r.cross.line, column: r.cross.column, length: 1 },
      label: `token ${this.limit + 1}`,
      notes: [
        'a source this dense would not fit in memory; nothing was assembled',
        'split the program into several assemblies, or write it as a flat listing (one plain instruction per line, no expressions), which is read without this limit',
      ],
    });
  }
}
