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
import { DiagnosticError, error, type SourceSpan } from '@pyxis/diagnostics';

/**
 * Token kinds. The lexer is hand-written (one pass, dispatch on the first character): a script of 40,000
 * statements is about a million tokens, and small token records keep that linear in time and memory.
 */
const enum T {
  String,
  Number,
  Ident,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Semi,
  Comma,
  Equals,
  Colon,
  At,
}
type TokenType = T;

interface IToken {
  tokenType: T;
  image: string;
  startLine: number;
  startColumn: number;
  /** Column of the last character (1-based, inclusive); tokens never span lines. */
  endColumn: number;
}

const StringLit = T.String;
const NumberLit = T.Number;
const Ident = T.Ident;
const LBrace = T.LBrace;
const RBrace = T.RBrace;
const LBracket = T.LBracket;
const RBracket = T.RBracket;
const Semi = T.Semi;
const Comma = T.Comma;
const Equals = T.Equals;
const Colon = T.Colon;
const At = T.At;

const STRING_RE = /"(?:[^"\\\n]|\\.)*"/y;
const NUMBER_RE = /-?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9][0-9_]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)[kKmMgG]?/y;
const IDENT_RE = /[A-Za-z_][A-Za-z0-9_.$]*/y;
const PUNCT: Record<string, T> = { '{': T.LBrace, '}': T.RBrace, '[': T.LBracket, ']': T.RBracket, ';': T.Semi, ',': T.Comma, '=': T.Equals, ':': T.Colon, '@': T.At };

interface LexError {
  offset: number;
  line: number;
  column: number;
  length: number;
}

/** Whitespace, `// ...` / `# ...` line comments and `/* ... *\/` block comments are skipped. */
function tokenize(text: string): { tokens: IToken[]; errors: LexError[] } {
  const tokens: IToken[] = [];
  const errors: LexError[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = text.length;
  const sticky = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(text);
    return m ? m[0] : undefined;
  };
  /** The token at `i`, or undefined when no token (and no skipped text) starts there. */
  const next = (): IToken | null | undefined => {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) {
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x0a) {
          line++;
          lineStart = i + 1;
        } else if (d !== 0x20 && d !== 0x09 && d !== 0x0d) break;
        i++;
      }
      return null;
    }
    if (c === 0x23 || (c === 0x2f && text.charCodeAt(i + 1) === 0x2f)) {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e;
      return null;
    }
    if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      const e = text.indexOf('*/', i + 2);
      if (e < 0) return undefined;
      for (let k = i; k < e; k++)
        if (text.charCodeAt(k) === 0x0a) {
          line++;
          lineStart = k + 1;
        }
      i = e + 2;
      return null;
    }
    let type: T | undefined;
    let image: string | undefined;
    if (c === 0x22) {
      image = sticky(STRING_RE);
      type = T.String;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      image = sticky(NUMBER_RE);
      type = T.Number;
    } else if (c === 0x5f || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
      image = sticky(IDENT_RE);
      type = T.Ident;
    } else {
      type = PUNCT[text[i]!];
      if (type !== undefined) image = text[i]!;
    }
    if (image === undefined || type === undefined) return undefined;
    const col = i - lineStart + 1;
    i += image.length;
    return { tokenType: type, image, startLine: line, startColumn: col, endColumn: col + image.length - 1 };
  };
  while (i < n) {
    const t = next();
    if (t) tokens.push(t);
    else if (t === undefined) {
      // unexpected characters: one error for the run of them (up to the next place a token can start)
      const start = i;
      const err: LexError = { offset: start, line, column: start - lineStart + 1, length: 1 };
      i++;
      for (;;) {
        if (i >= n || text.charCodeAt(i) === 0x0a) break;
        const save = i;
        const saveLine = line;
        const saveStart = lineStart;
        const u = next();
        i = save;
        line = saveLine;
        lineStart = saveStart;
        if (u !== undefined) break;
        i++;
      }
      err.length = i - start;
      errors.push(err);
    }
  }
  return { tokens, errors };
}

export type ScriptValue =
  | { kind: 'number'; value: number; span: SourceSpan; text: string }
  | { kind: 'string'; value: string; span: SourceSpan }
  | { kind: 'ident'; value: string; span: SourceSpan; slice?: ScriptSlice }
  | { kind: 'list'; items: ScriptValue[]; span: SourceSpan };

/**
 * One dimension of a slice: `a:b`, `a:`, `:b`, `:` or a single index `a` (= `a:a+1`, the dimension is kept).
 * `start` / `end` undefined = the dimension's bounds.
 */
export interface ScriptSliceDim {
  start?: number;
  end?: number;
  span: SourceSpan;
}

/** `name[d0, d1, ...]` (elements, outermost dimension first) or `name@bytes[a:b]` (a byte range). */
export interface ScriptSlice {
  unit: 'elements' | 'bytes';
  dims: ScriptSliceDim[];
  span: SourceSpan;
}

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
  return { file, line: t.startLine, column: t.startColumn, length: Math.max(1, t.image.length) };
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
  const lex = tokenize(text);
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
    return { file, line: last.startLine, column: last.endColumn + 1, length: 1 };
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
      const id: ScriptValue = { kind: 'ident', value: t.image, span: spanOf(file, t) };
      if (is(At) || is(LBracket)) id.slice = slice();
      return id;
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

  // `[d, d, ...]` after a name (a tensor slice), or `@bytes[a:b]`
  const slice = (): ScriptSlice => {
    let unit: ScriptSlice['unit'] = 'elements';
    const first = peek()!;
    if (is(At)) {
      pos++;
      const u = expect(Ident, '`bytes` after `@`');
      if (u.image !== 'bytes') fail('`bytes` after `@`', u);
      unit = 'bytes';
    }
    const open = expect(LBracket, '`[` (a slice)');
    const int = (): number => {
      const n = expect(NumberLit, 'an index');
      const v = parseNumberLiteral(n.image);
      if (!Number.isSafeInteger(v) || v < 0) fail('a non-negative integer index', n);
      return v;
    };
    const dims: ScriptSliceDim[] = [];
    do {
      if (dims.length) pos++; // the comma
      const at = peek();
      if (!at) return fail('a slice `a:b`', at);
      const d: ScriptSliceDim = { span: spanOf(file, at) };
      if (!is(Colon)) d.start = int();
      if (is(Colon)) {
        pos++;
        if (is(NumberLit)) d.end = int();
      } else d.end = d.start! + 1;
      const last = toks[pos - 1]!;
      d.span = { ...d.span, length: last.startLine === at.startLine ? last.endColumn - at.startColumn + 1 : d.span.length };
      dims.push(d);
    } while (is(Comma));
    const close = expect(RBracket, '`,` or `]`');
    const span = spanOf(file, first);
    if (close.startLine === first.startLine) span.length = close.endColumn - first.startColumn + 1;
    void open;
    return { unit, dims, span };
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
      return v.slice ? v.value + showSlice(v.slice) : v.value;
    case 'list':
      return `[${v.items.map(showValue).join(', ')}]`;
  }
}

/** `[a:b, :]` / `@bytes[a:b]` as written (normalised). */
export function showSlice(s: ScriptSlice): string {
  const d = s.dims.map((x) => (x.start !== undefined && x.end === x.start + 1 ? String(x.start) : `${x.start ?? ''}:${x.end ?? ''}`)).join(', ');
  return `${s.unit === 'bytes' ? '@bytes' : ''}[${d}]`;
}
