/**
 * The NeuronCore lexer (one forward scan, linear in the line's length; scripts/bench-nc-lexer.mjs measures
 * the scaling) against an independent reference: the token grammar written as the regular expression the
 * dialect was first defined with (docs/neuroncore.md "Assembly").
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assembleNc, lexLine } from '../src/index.js';

// Reference: blanks, then `.name` | name | number | punctuation | string, first alternative that matches.
const TOKEN_RE = /\s*(?:(\.[A-Za-z_]\w*)|([A-Za-z_]\w*)|(0[xX][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?)|(\*\*|[-+*/%()[\]{},:=.<>])|("(?:[^"\\]|\\.)*"))/y;
function reference(line: string): Array<[string, string, number]> | string {
  let inStr = false;
  let cut = line.length;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inStr) {
      if (ch === '\\') i++;
      else if (ch === '"') inStr = false;
    } else if (ch === '"') inStr = true;
    else if (ch === '#' || (ch === '/' && line[i + 1] === '/')) {
      cut = i;
      break;
    }
  }
  const s = line.slice(0, cut);
  const out: Array<[string, string, number]> = [];
  let pos = 0;
  while (pos < s.length) {
    if (/^\s*$/.test(s.slice(pos))) break;
    TOKEN_RE.lastIndex = pos;
    const m = TOKEN_RE.exec(s);
    if (!m) {
      const col = pos + s.slice(pos).search(/\S/) + 1;
      return s[col - 1] === '"' ? `unterminated string@${col}` : `unexpected character \`${String.fromCodePoint(s.codePointAt(col - 1)!)}\`@${col}`;
    }
    const text = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]!;
    const col = m.index + m[0].length - text.length + 1;
    if (m[1] && out.length === 0) out.push(['dir', m[1], col]);
    else if (m[1]) out.push(['p', '.', col], ['id', m[1].slice(1), col + 1]);
    else if (m[2]) out.push(['id', m[2], col]);
    else if (m[3]) out.push(['num', m[3], col]);
    else if (m[4]) out.push(['p', m[4], col]);
    else {
      try {
        out.push(['str', JSON.parse(m[5]!) as string, col]);
      } catch {
        return `bad string literal (JSON escapes: \\" \\\\ \\n \\uXXXX)@${col}`;
      }
    }
    pos = m.index + m[0].length;
  }
  return out;
}
function lexed(line: string): Array<[string, string, number]> | string {
  try {
    return lexLine(line).map((t) => [t.t, t.v, t.col]);
  } catch (e) {
    const pe = e as { message: string; col: number };
    return `${pe.message}@${pe.col}`;
  }
}

const PIECES = ['a', 'x1', '_', 'tensor', '.', '.op', '.5', '0', '1', '9', '_', 'e', 'E', '+', '-', 'x', 'X', 'f', '0x', '0X1f', '1.', '1e', '1e+', '2e-3', '*', '**', '/', '//', '#', '%', '(', ')', '[', ']', '{', '}', ',', ':', '=', '<', '>', '"', '\\', '\\"', '\\n', '\\u00e9', ' ', '\t', '\r', '\u00a0', '\u2028', '\ufeff', '@', '$', 'é', '\ud83d\ude00', ';', '!'];

/** The source position of a diagnostic (assembler diagnostics carry line/column spans). */
const sp = (d: { span?: unknown }) => d.span as { line: number; column: number; length: number } | undefined;

describe('NeuronCore lexer', () => {
  it('property: the same tokens, columns and errors as the reference regular expression', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }), (pieces) => {
        const line = pieces.join('');
        expect(lexed(line)).toEqual(reference(line));
      }),
      { numRuns: 3000 },
    );
  });

  it('examples: directives, engine.op, numbers with exponents and underscores, strings, comments', () => {
    expect(lexed('.const K = 0x1_0 // c')).toEqual([['dir', '.const', 1], ['id', 'K', 8], ['p', '=', 10], ['num', '0x1_0', 12]]);
    expect(lexed('tensor.matmul a[0:1.5e3, .5], 1.e2 ** 2 # "x"')).toEqual(reference('tensor.matmul a[0:1.5e3, .5], 1.e2 ** 2 # "x"'));
    expect(lexed('.loc "a\\"b.ncasm" 3 4')).toEqual([['dir', '.loc', 1], ['str', 'a"b.ncasm', 6], ['num', '3', 19], ['num', '4', 21]]);
    expect(lexed('x "abc')).toBe('unterminated string@3');
    expect(lexed('x @')).toBe('unexpected character `@`@3');
  });

  it('a 1 MB single line is a diagnostic, not a crash (scaling: scripts/bench-nc-lexer.mjs)', () => {
    for (const line of ['vector.memset ' + 'a,'.repeat(500_000), '"' + '\\\\'.repeat(500_000)]) {
      const d = assembleNc([{ file: 'long.ncasm', text: line }]).diagnostics;
      expect(d.map((x) => [x.code, sp(x)?.line])).toEqual([['NC0001', 1]]);
    }
  });
});
