/**
 * Lexer and parser of the NeuronCore dialect (`.ncasm`, docs/neuroncore.md "Assembly").
 * The shared statement language of @pyxis/asm has integer-only values and no slices, and
 * an NKI user writes `x[0:128, 0:512]` and `scale=0.5`; so this dialect has its own small
 * line-oriented parser (same comment, `.const` and diagnostic conventions). Errors are
 * diagnostics with file:line:col, never exceptions.
 */
import { error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { MAX_LOOP_DEPTH } from './unroll.js';

export type Expr =
  | { k: 'num'; v: number; col: number }
  | { k: 'name'; name: string; col: number }
  | { k: 'neg'; a: Expr; col: number }
  | { k: 'bin'; op: string; a: Expr; b: Expr; col: number };

export interface Slice {
  lo?: Expr;
  hi?: Expr;
  step?: Expr;
  /** `x[3]`: a single index (size 1). */
  single: boolean;
  col: number;
  /** Column just after the slice (caret length = end - col). */
  end: number;
}

export type Value =
  | { k: 'expr'; e: Expr; col: number }
  | { k: 'ap'; name: string; slices: Slice[]; col: number; end: number }
  /** The ISA form of an access pattern: `t{start, np, pstride, offset, [size, stride]...}` (disassembly). */
  | { k: 'raw'; name: string; fields: Expr[]; dims: Array<[Expr, Expr]>; col: number; end: number }
  | { k: 'list'; items: Value[]; col: number };

export interface Operand {
  key?: string;
  value: Value;
  col: number;
}

export type Stmt =
  | { k: 'const'; name: string; e: Expr; line: number; col: number }
  | { k: 'tensor'; name: string; mem: string; dtype: string; shape: Expr[]; attrs: Operand[]; line: number; col: number; memCol: number; dtypeCol: number }
  | { k: 'sem'; names: Array<{ name: string; col: number }>; line: number; col: number }
  | { k: 'sync'; mode: string; line: number; col: number }
  /** `.loc "file" line col`: the source position recorded for the next tensor or instruction (disassembly). */
  | { k: 'loc'; file: string; line: number; col: number; at: { line: number; col: number } }
  | { k: 'loop'; v: string; from: Expr; to: Expr; body: Stmt[]; line: number; col: number }
  | { k: 'insn'; engine: string; op: string; operands: Operand[]; line: number; col: number; opEnd: number };

export interface Tok {
  t: 'id' | 'num' | 'p' | 'dir' | 'str';
  v: string;
  n: number;
  col: number;
}

export class ParseError {
  constructor(
    readonly message: string,
    readonly col: number,
  ) {}
}

/** Where the comment (`#` or `//`) of a line starts, outside string literals; -1 if none. */
function commentStart(s: string): number {
  let q = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (q) {
      if (ch === 92) i++; // backslash escape
      else if (ch === 34) q = false;
    } else if (ch === 34) q = true;
    else if (ch === 35 || (ch === 47 && s.charCodeAt(i + 1) === 47)) return i;
  }
  return -1;
}

function unquote(q: string, col: number): string {
  try {
    return JSON.parse(q) as string;
  } catch {
    throw new ParseError('bad string literal (JSON escapes: \\" \\\\ \\n \\uXXXX)', col);
  }
}

/** `\s` of a JavaScript regular expression (the dialect's blanks since the first lexer). */
function isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isWord = (c: number): boolean => isIdStart(c) || isDigit(c);
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** Single-character punctuation: - + * / % ( ) [ ] { } , : = . < > */
const PUNCT = new Set([...'-+*/%()[]{},:=.<>'].map((ch) => ch.charCodeAt(0)));

/**
 * Splits one line into tokens with one forward scan: every loop below advances `pos`, and no character is
 * read more than twice, so the work is linear in the line's length (scripts/bench-nc-lexer.mjs checks the
 * scaling). Tokens: `.name` (a directive first on the line, else `.` and a name), names `[A-Za-z_]\w*`,
 * numbers (`0x..`, `1_000`, `1.`, `.5`, `1e-3`), punctuation (`**` and one character of -+* /%()[]{},:=.<>),
 * strings in double quotes with JSON escapes; `#` or `//` starts a comment outside strings.
 */
export function lexLine(text: string): Tok[] {
  const out: Tok[] = [];
  const hash = commentStart(text);
  const s = hash >= 0 ? text.slice(0, hash) : text;
  const len = s.length;
  const at = (i: number): number => (i < len ? s.charCodeAt(i) : -1);
  let pos = 0;
  for (;;) {
    while (pos < len && isSpace(s.charCodeAt(pos))) pos++;
    if (pos >= len) break;
    const start = pos;
    const col = start + 1;
    const c = s.charCodeAt(pos);
    if (c === 46 && isIdStart(at(pos + 1))) {
      // `.name`
      pos += 2;
      while (isWord(at(pos))) pos++;
      const name = s.slice(start + 1, pos);
      if (out.length === 0) out.push({ t: 'dir', v: '.' + name, n: 0, col });
      else {
        // `.op` after an engine name (`tensor.matmul`): a dot and a name, not a directive.
        out.push({ t: 'p', v: '.', n: 0, col });
        out.push({ t: 'id', v: name, n: 0, col: col + 1 });
      }
    } else if (isIdStart(c)) {
      pos++;
      while (isWord(at(pos))) pos++;
      out.push({ t: 'id', v: s.slice(start, pos), n: 0, col });
    } else if (isDigit(c) || (c === 46 && isDigit(at(pos + 1)))) {
      if (c === 48 && (at(pos + 1) | 32) === 120 && (isHex(at(pos + 2)) || at(pos + 2) === 95)) {
        pos += 2;
        while (isHex(at(pos)) || at(pos) === 95) pos++;
      } else {
        // digits [. digits] or . digits, then an optional exponent (taken only when it has a digit)
        pos++;
        while (isDigit(at(pos)) || at(pos) === 95) pos++;
        if (c !== 46 && at(pos) === 46) {
          pos++;
          while (isDigit(at(pos)) || at(pos) === 95) pos++;
        }
        if ((at(pos) | 32) === 101) {
          let e = pos + 1;
          if (at(e) === 43 || at(e) === 45) e++;
          if (isDigit(at(e))) {
            pos = e;
            while (isDigit(at(pos))) pos++;
          }
        }
      }
      const v = s.slice(start, pos);
      out.push({ t: 'num', v, n: Number(v.replace(/_/g, '')), col });
    } else if (c === 42 && at(pos + 1) === 42) {
      pos += 2;
      out.push({ t: 'p', v: '**', n: 0, col });
    } else if (PUNCT.has(c)) {
      pos++;
      out.push({ t: 'p', v: s[start]!, n: 0, col });
    } else if (c === 34) {
      // a string: any character but `"` and `\`, or `\` and one character that is not a line terminator
      pos++;
      for (;;) {
        const d = at(pos);
        if (d === -1) throw new ParseError('unterminated string', col);
        if (d === 34) break;
        if (d === 92) {
          const e = at(pos + 1);
          if (e === -1 || e === 10 || e === 13 || e === 0x2028 || e === 0x2029) throw new ParseError('unterminated string', col);
          pos += 2;
        } else pos++;
      }
      pos++;
      out.push({ t: 'str', v: unquote(s.slice(start, pos), col), n: 0, col });
    } else throw new ParseError(`unexpected character \`${String.fromCodePoint(s.codePointAt(pos)!)}\``, col);
  }
  return out;
}

class Cursor {
  i = 0;
  constructor(
    readonly toks: Tok[],
    readonly lineLen: number,
  ) {}
  peek(): Tok | undefined {
    return this.toks[this.i];
  }
  col(): number {
    return this.toks[this.i]?.col ?? this.lineLen + 1;
  }
  isP(v: string): boolean {
    const t = this.toks[this.i];
    return !!t && t.t === 'p' && t.v === v;
  }
  eatP(v: string): boolean {
    if (this.isP(v)) {
      this.i++;
      return true;
    }
    return false;
  }
  expectP(v: string, what = `\`${v}\``): void {
    if (!this.eatP(v)) throw new ParseError(`expected ${what}${this.peek() ? `, found \`${this.peek()!.v}\`` : ' at end of line'}`, this.col());
  }
  ident(what: string): Tok {
    const t = this.toks[this.i];
    if (!t || t.t !== 'id') throw new ParseError(`expected ${what}${t ? `, found \`${t.v}\`` : ' at end of line'}`, this.col());
    this.i++;
    return t;
  }
  done(): boolean {
    return this.i >= this.toks.length;
  }
}

// expr := term (('+'|'-') term)* ; term := unary (('*'|'/'|'%') unary)* ; unary := '-' unary | atom
function parseExpr(c: Cursor): Expr {
  let a = parseTerm(c);
  for (;;) {
    const t = c.peek();
    if (t && t.t === 'p' && (t.v === '+' || t.v === '-')) {
      c.i++;
      a = { k: 'bin', op: t.v, a, b: parseTerm(c), col: t.col };
    } else return a;
  }
}
function parseTerm(c: Cursor): Expr {
  let a = parseUnary(c);
  for (;;) {
    const t = c.peek();
    if (t && t.t === 'p' && (t.v === '*' || t.v === '/' || t.v === '%')) {
      c.i++;
      a = { k: 'bin', op: t.v, a, b: parseUnary(c), col: t.col };
    } else return a;
  }
}
function parseUnary(c: Cursor): Expr {
  const t = c.peek();
  if (t && t.t === 'p' && t.v === '-') {
    c.i++;
    return { k: 'neg', a: parseUnary(c), col: t.col };
  }
  if (t && t.t === 'p' && t.v === '(') {
    c.i++;
    const e = parseExpr(c);
    c.expectP(')');
    return e;
  }
  if (t && t.t === 'num') {
    c.i++;
    if (!Number.isFinite(t.n)) throw new ParseError(`bad number \`${t.v}\``, t.col);
    return { k: 'num', v: t.n, col: t.col };
  }
  if (t && t.t === 'id') {
    c.i++;
    if (t.v === 'inf') return { k: 'num', v: Infinity, col: t.col };
    if (t.v === 'nan') return { k: 'num', v: NaN, col: t.col };
    return { k: 'name', name: t.v, col: t.col };
  }
  throw new ParseError(`expected a number or name${t ? `, found \`${t.v}\`` : ' at end of line'}`, c.col());
}

function parseSlice(c: Cursor): Slice {
  const col = c.col();
  const s: Slice = { single: false, col, end: col + 1 };
  const end = (): Slice => {
    const last = c.toks[c.i - 1];
    s.end = last && c.i > 0 ? last.col + (last.t === 'str' ? last.v.length + 2 : last.v.length) : col + 1;
    if (s.end <= col) s.end = col + 1;
    return s;
  };
  if (!c.isP(':')) s.lo = parseExpr(c);
  if (!c.eatP(':')) {
    s.single = true;
    return end();
  }
  if (!c.isP(':') && !c.isP(',') && !c.isP(']')) s.hi = parseExpr(c);
  if (c.eatP(':')) s.step = parseExpr(c);
  return end();
}

function parseValue(c: Cursor): Value {
  const t = c.peek();
  if (t && t.t === 'p' && t.v === '[') {
    c.i++;
    const items: Value[] = [];
    if (!c.isP(']')) {
      do items.push(parseValue(c));
      while (c.eatP(','));
    }
    c.expectP(']', '`]` or `,`');
    return { k: 'list', items, col: t.col };
  }
  if (t && t.t === 'id' && c.toks[c.i + 1]?.t === 'p' && c.toks[c.i + 1]!.v === '[') {
    c.i += 2;
    const slices: Slice[] = [];
    do slices.push(parseSlice(c));
    while (c.eatP(','));
    const end = c.col();
    c.expectP(']', '`]` or `,`');
    return { k: 'ap', name: t.v, slices, col: t.col, end: end + 1 };
  }
  if (t && t.t === 'id' && c.toks[c.i + 1]?.t === 'p' && c.toks[c.i + 1]!.v === '{') {
    c.i += 2;
    const fields: Expr[] = [];
    for (let k = 0; k < 4; k++) {
      if (k) c.expectP(',', '`,` (an access pattern in ISA form is `t{start, np, pstride, offset, [size, stride]...}`)');
      fields.push(parseExpr(c));
    }
    const dims: Array<[Expr, Expr]> = [];
    while (c.eatP(',')) {
      c.expectP('[', '`[size, stride]`');
      const size = parseExpr(c);
      c.expectP(',');
      const stride = parseExpr(c);
      c.expectP(']');
      dims.push([size, stride]);
    }
    const end = c.col();
    c.expectP('}', '`}` or `,`');
    return { k: 'raw', name: t.v, fields, dims, col: t.col, end: end + 1 };
  }
  const e = parseExpr(c);
  return { k: 'expr', e, col: t?.col ?? c.col() };
}

function parseOperands(c: Cursor): Operand[] {
  const out: Operand[] = [];
  if (c.done()) return out;
  do {
    const t = c.peek();
    const col = c.col();
    if (t && t.t === 'id' && c.toks[c.i + 1]?.t === 'p' && c.toks[c.i + 1]!.v === '=') {
      c.i += 2;
      out.push({ key: t.v, value: parseValue(c), col });
    } else out.push({ value: parseValue(c), col });
  } while (c.eatP(','));
  if (!c.done()) throw new ParseError(`expected \`,\` or end of line, found \`${c.peek()!.v}\``, c.col());
  return out;
}

/** Bounds what one line asks of the recursive parser and evaluator: no input may overflow the stack (issue 15). */
function boundLine(toks: Tok[]): void {
  let depth = 0;
  let ops = 0;
  for (const t of toks) {
    if (t.t !== 'p') continue;
    if (t.v === '(' || t.v === '[') {
      if (++depth > 64) throw new ParseError('brackets nested deeper than 64 levels', t.col);
    } else if (t.v === ')' || t.v === ']') depth--;
    else if ('+-*/%'.includes(t.v) && ++ops > 1000) throw new ParseError('more than 1000 operators on one line', t.col);
  }
}

/** Parses one file into statements; syntax errors become diagnostics (one per line). */
export function parseNc(text: string, file: string, diags: Diagnostic[]): Stmt[] {
  const lines = text.split(/\r?\n/);
  const root: Stmt[] = [];
  const stack: Array<{ body: Stmt[]; line: number; col: number }> = [{ body: root, line: 0, col: 0 }];
  const span = (line: number, col: number, length = 1): SourceSpan => ({ file, line, column: col, length });
  for (let li = 0; li < lines.length; li++) {
    const line = li + 1;
    const raw = lines[li]!;
    try {
      const toks = lexLine(raw);
      if (!toks.length) continue;
      boundLine(toks);
      const c = new Cursor(toks, raw.length);
      const body = stack[stack.length - 1]!.body;
      const first = toks[0]!;
      if (first.t === 'p' && first.v === '}') {
        if (stack.length === 1) throw new ParseError('`}` without an open `loop`', first.col);
        stack.pop();
        if (toks.length > 1) throw new ParseError('expected end of line after `}`', toks[1]!.col);
        continue;
      }
      if (first.t === 'dir') {
        c.i++;
        switch (first.v) {
          case '.const': {
            const n = c.ident('a constant name');
            c.expectP('=');
            const e = parseExpr(c);
            if (!c.done()) throw new ParseError('expected end of line', c.col());
            body.push({ k: 'const', name: n.v, e, line, col: n.col });
            break;
          }
          case '.tensor': {
            const n = c.ident('a tensor name');
            const mem = c.ident('a memory (hbm, sbuf, psum)');
            const dt = c.ident('a dtype (bf16, fp16, tf32, fp8_e4m3, fp8_e5m2, fp32, int32)');
            c.expectP('[', '`[` and the shape');
            const shape: Expr[] = [];
            do shape.push(parseExpr(c));
            while (c.eatP(','));
            c.expectP(']', '`]` or `,`');
            c.eatP(',');
            const attrs = parseOperands(c);
            body.push({ k: 'tensor', name: n.v, mem: mem.v, dtype: dt.v, shape, attrs, line, col: n.col, memCol: mem.col, dtypeCol: dt.col });
            break;
          }
          case '.semaphore': {
            const names: Array<{ name: string; col: number }> = [];
            do {
              const n = c.ident('a semaphore name');
              names.push({ name: n.v, col: n.col });
            } while (c.eatP(','));
            if (!c.done()) throw new ParseError('expected `,` or end of line', c.col());
            body.push({ k: 'sem', names, line, col: first.col });
            break;
          }
          case '.sync': {
            const m = c.ident('`auto` or `explicit`');
            if (m.v !== 'auto' && m.v !== 'explicit') throw new ParseError('expected `auto` or `explicit`', m.col);
            body.push({ k: 'sync', mode: m.v, line, col: m.col });
            break;
          }
          case '.loc': {
            const f = c.peek();
            if (!f || f.t !== 'str') throw new ParseError('expected a file name in double quotes', c.col());
            c.i++;
            const l = c.peek();
            const cc = c.toks[c.i + 1];
            if (!l || l.t !== 'num' || !cc || cc.t !== 'num' || !Number.isSafeInteger(l.n) || !Number.isSafeInteger(cc.n) || l.n < 1 || cc.n < 1) throw new ParseError('expected `.loc "FILE" LINE COLUMN` (positive integers)', c.col());
            c.i += 2;
            if (!c.done()) throw new ParseError('expected end of line', c.col());
            body.push({ k: 'loc', file: f.v, line: l.n, col: cc.n, at: { line, col: first.col } });
            break;
          }
          default:
            throw new ParseError(`unknown directive \`${first.v}\` (known: .const, .tensor, .semaphore, .sync, .loc)`, first.col);
        }
        continue;
      }
      if (first.t === 'id' && first.v === 'loop') {
        c.i++;
        const v = c.ident('a loop variable');
        const a = parseExpr(c);
        let from: Expr = { k: 'num', v: 0, col: a.col };
        let to = a;
        if (!c.isP('{')) {
          from = a;
          to = parseExpr(c);
        }
        c.expectP('{', '`{`');
        if (!c.done()) throw new ParseError('expected end of line after `{`', c.col());
        const st: Stmt = { k: 'loop', v: v.v, from, to, body: [], line, col: first.col };
        // Too deep: reported once, at the first loop past the limit; its block is still matched with its `}`
        // but kept out of the program (the loops inside it are not reported again).
        if (stack.length <= MAX_LOOP_DEPTH) body.push(st);
        else if (stack.length === MAX_LOOP_DEPTH + 1) diags.push(error('NC0003', `loops nested deeper than ${MAX_LOOP_DEPTH} levels`, { span: span(line, first.col, 4) }));
        stack.push({ body: st.body, line, col: first.col });
        continue;
      }
      const eng = c.ident('an instruction (`engine.op`), a directive or `loop`');
      c.expectP('.', '`.` and the operation (`tensor.matmul`)');
      const op = c.ident('an operation name');
      const operands = parseOperands(c);
      body.push({ k: 'insn', engine: eng.v, op: op.v, operands, line, col: eng.col, opEnd: op.col + op.v.length });
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      diags.push(error('NC0001', e.message, { span: span(line, e.col) }));
    }
  }
  for (const open of stack.slice(1)) diags.push(error('NC0002', '`loop` block is not closed with `}`', { span: span(open.line, open.col, 4) }));
  return root;
}
