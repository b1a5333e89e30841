/**
 * Link-script language (docs/linker.md): a small block language in the spirit
 * of GNU ld scripts. The Chevrotain lexer tokenizes; a recursive-descent
 * parser builds a generic tree of blocks and `key = value;` attributes with
 * exact source spans, so a target's semantic pass can point every error at
 * file:line:col. The statement kinds and attributes are the target's; the
 * shape is fixed:
 *
 *   input "prog.obj";
 *   memory ram0 { origin = 0; length = 32M; }
 *   tensor src { shape = [8, 64]; region = ram0; data = "src.npy"; }
 *   queue q0 { trip copy { read = src; write = dst; } }
 *   copy after load;
 */
import type { IToken, TokenType } from 'chevrotain';
import { createToken, Lexer } from '@pyxis/asm/chevrotain';
import { DiagnosticError, error, type SourceSpan } from '@pyxis/diagnostics';

const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED });
const LineComment = createToken({ name: 'LineComment', pattern: /(?:\/\/|#)[^\n]*/, group: Lexer.SKIPPED });
const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED, line_breaks: true });
const StringLit = createToken({ name: 'String', pattern: /"(?:[^"\\\n]|\\.)*"/ });
const NumberLit = createToken({ name: 'Number', pattern: /-?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9][0-9_]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)[kKmMgG]?/ });
const Ident = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_.$]*/ });
const LBrace = createToken({ name: 'LBrace', pattern: /\{/ });
const RBrace = createToken({ name: 'RBrace', pattern: /\}/ });
const LBracket = createToken({ name: 'LBracket', pattern: /\[/ });
const RBracket = createToken({ name: 'RBracket', pattern: /\]/ });
const Semi = createToken({ name: 'Semicolon', pattern: /;/ });
const Comma = createToken({ name: 'Comma', pattern: /,/ });
const Equals = createToken({ name: 'Equals', pattern: /=/ });
const Colon = createToken({ name: 'Colon', pattern: /:/ });

const ALL: TokenType[] = [WhiteSpace, BlockComment, LineComment, StringLit, NumberLit, Ident, LBrace, RBrace, LBracket, RBracket, Semi, Comma, Equals, Colon];
let lexer: Lexer | undefined;

export type ScriptValue =
  | { kind: 'number'; value: number; span: SourceSpan; text: string }
  | { kind: 'string'; value: string; span: SourceSpan }
  | { kind: 'ident'; value: string; span: SourceSpan }
  | { kind: 'list'; items: ScriptValue[]; span: SourceSpan };

export interface ScriptAttr {
  key: string;
  keySpan: SourceSpan;
  value: ScriptValue;
}

export interface ScriptBlock {
  /** Keyword: memory, tensor, blob, weights, queue, trip, ... */
  kind: string;
  kindSpan: SourceSpan;
  name?: string;
  nameSpan?: SourceSpan;
  attrs: ScriptAttr[];
  children: ScriptBlock[];
}

export interface ScriptRef {
  name: string;
  span: SourceSpan;
}

export interface AfterStatement {
  consumers: ScriptRef[];
  producers: ScriptRef[];
  span: SourceSpan;
}

export interface LinkScript {
  file: string;
  inputs: Array<{ path: string; span: SourceSpan }>;
  blocks: ScriptBlock[];
  afters: AfterStatement[];
}

function spanOf(file: string, t: IToken): SourceSpan {
  return { file, line: t.startLine ?? 1, column: t.startColumn ?? 1, length: Math.max(1, t.image.length) };
}

const SUFFIX: Record<string, number> = { k: 1024, m: 1024 * 1024, g: 1024 * 1024 * 1024 };

/** Parses a number literal (hex/bin/dec, `_` separators, K/M/G binary suffixes). */
export function parseNumberLiteral(text: string): number {
  let t = text.replace(/_/g, '');
  let neg = false;
  if (t.startsWith('-')) {
    neg = true;
    t = t.slice(1);
  }
  let mul = 1;
  const last = t[t.length - 1]!.toLowerCase();
  if (!/^0x/i.test(t) && SUFFIX[last]) {
    mul = SUFFIX[last]!;
    t = t.slice(0, -1);
  }
  let v: number;
  if (/^0x/i.test(t)) v = parseInt(t.slice(2), 16);
  else if (/^0b/i.test(t)) v = parseInt(t.slice(2), 2);
  else v = Number(t);
  v *= mul;
  return neg ? -v : v;
}

/** Lexes and parses a link script; throws DiagnosticError (LD0001/LD0002) at file:line:col. */
/** Deepest nesting of `[lists]` in a value and of `{ blocks }` in a link script (LD0004 beyond: no input may overflow the stack). */
export const MAX_SCRIPT_NESTING = 64;

export function parseLinkScript(text: string, file = '<script>'): LinkScript {
  lexer ??= new Lexer(ALL, { positionTracking: 'full', ensureOptimizations: false });
  const lex = lexer.tokenize(text);
  if (lex.errors.length) {
    const e = lex.errors[0]!;
    throw new DiagnosticError(
      lex.errors.slice(0, 10).map((er) =>
        error('LD0002', `unexpected character \`${text.substr(er.offset, 1)}\` in link script`, {
          span: { file, line: er.line ?? 1, column: er.column ?? 1, length: Math.max(1, er.length) },
        }),
      ),
    );
    void e;
  }
  const toks = lex.tokens;
  let pos = 0;
  const peek = (k = 0): IToken | undefined => toks[pos + k];
  const endSpan = (): SourceSpan => {
    const last = toks[toks.length - 1];
    if (!last) return { file, line: 1, column: 1, length: 1 };
    return { file, line: last.endLine ?? last.startLine ?? 1, column: (last.endColumn ?? last.startColumn ?? 1) + 1, length: 1 };
  };
  const fail = (what: string, t: IToken | undefined): never => {
    throw new DiagnosticError(
      error('LD0001', t ? `expected ${what}, found \`${t.image}\`` : `expected ${what}, found end of file`, {
        span: t ? spanOf(file, t) : endSpan(),
        label: `expected ${what}`,
      }),
    );
  };
  const expect = (tt: TokenType, what: string): IToken => {
    const t = peek();
    if (!t || t.tokenType !== tt) return fail(what, t);
    pos++;
    return t;
  };
  const is = (tt: TokenType, k = 0) => peek(k)?.tokenType === tt;
  const str = (t: IToken): string => {
    try {
      return JSON.parse(t.image) as string;
    } catch {
      throw new DiagnosticError(error('LD0003', `invalid escape in string ${t.image}`, { span: spanOf(file, t), label: 'use \\\\, \\" or \\uXXXX escapes' }));
    }
  };

  let listDepth = 0;
  let blockDepth = 0;
  const tooDeep = (t: IToken, what: string): never => {
    throw new DiagnosticError(
      error('LD0004', `${what} nested deeper than ${MAX_SCRIPT_NESTING} levels`, { span: spanOf(file, t), label: `nesting level ${MAX_SCRIPT_NESTING + 1}` }),
    );
  };

  const value = (): ScriptValue => {
    const t = peek();
    if (!t) return fail('a value', t);
    if (t.tokenType === NumberLit) {
      pos++;
      const v = parseNumberLiteral(t.image);
      if (!Number.isFinite(v)) fail('a finite number', t);
      return { kind: 'number', value: v, span: spanOf(file, t), text: t.image };
    }
    if (t.tokenType === StringLit) {
      pos++;
      return { kind: 'string', value: str(t), span: spanOf(file, t) };
    }
    if (t.tokenType === Ident) {
      pos++;
      return { kind: 'ident', value: t.image, span: spanOf(file, t) };
    }
    if (t.tokenType === LBracket) {
      if (listDepth >= MAX_SCRIPT_NESTING) tooDeep(t, 'lists');
      pos++;
      listDepth++;
      const items: ScriptValue[] = [];
      if (!is(RBracket)) {
        items.push(value());
        while (is(Comma)) {
          pos++;
          if (is(RBracket)) break;
          items.push(value());
        }
      }
      expect(RBracket, '`,` or `]`');
      listDepth--;
      return { kind: 'list', items, span: spanOf(file, t) };
    }
    return fail('a value (number, "string", name or [list])', t);
  };

  const refList = (): ScriptRef[] => {
    const out: ScriptRef[] = [];
    const t = expect(Ident, 'a trip name');
    out.push({ name: t.image, span: spanOf(file, t) });
    while (is(Comma)) {
      pos++;
      const u = expect(Ident, 'a trip name');
      out.push({ name: u.image, span: spanOf(file, u) });
    }
    return out;
  };

  const script: LinkScript = { file, inputs: [], blocks: [], afters: [] };

  const block = (kw: IToken): ScriptBlock => {
    const b: ScriptBlock = { kind: kw.image, kindSpan: spanOf(file, kw), attrs: [], children: [] };
    if (is(Ident)) {
      const n = peek()!;
      pos++;
      b.name = n.image;
      b.nameSpan = spanOf(file, n);
    }
    const open = expect(LBrace, '`{`');
    if (blockDepth >= MAX_SCRIPT_NESTING) tooDeep(open, 'blocks');
    blockDepth++;
    while (!is(RBrace)) {
      const t = peek();
      if (!t) fail('`}`', t);
      if (t!.tokenType !== Ident) fail('an attribute name or a block', t);
      if (is(Equals, 1) || is(Colon, 1)) {
        pos += 2;
        const v = value();
        b.attrs.push({ key: t!.image, keySpan: spanOf(file, t!), value: v });
        if (!is(RBrace)) expect(Semi, '`;`');
        continue;
      }
      if (is(Ident, 1) && peek(1)!.image === 'after') {
        script.afters.push(afterStmt());
        continue;
      }
      pos++;
      b.children.push(block(t!));
    }
    expect(RBrace, '`}`');
    blockDepth--;
    if (is(Semi)) pos++;
    return b;
  };

  const afterStmt = (): AfterStatement => {
    const first = peek()!;
    const consumers = refList();
    const kw = expect(Ident, '`after`');
    if (kw.image !== 'after') fail('`after`', kw);
    const producers = refList();
    expect(Semi, '`;`');
    return { consumers, producers, span: spanOf(file, first) };
  };

  while (pos < toks.length) {
    const t = peek()!;
    if (t.tokenType !== Ident) fail('a statement (input, memory, tensor, blob, queue, ... or `A after B;`)', t);
    if (t.image === 'input' && is(StringLit, 1)) {
      pos += 2;
      script.inputs.push({ path: str(toks[pos - 1]!), span: spanOf(file, toks[pos - 1]!) });
      expect(Semi, '`;`');
      continue;
    }
    if ((is(Ident, 1) && peek(1)!.image === 'after') || is(Comma, 1)) {
      script.afters.push(afterStmt());
      continue;
    }
    pos++;
    script.blocks.push(block(t));
  }
  return script;
}

/** Renders a value back as script text (for messages). */
export function showValue(v: ScriptValue): string {
  switch (v.kind) {
    case 'number':
      return v.text;
    case 'string':
      return JSON.stringify(v.value);
    case 'ident':
      return v.value;
    case 'list':
      return `[${v.items.map(showValue).join(', ')}]`;
  }
}
