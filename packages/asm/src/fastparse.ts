/**
 * A fast path for the commonest shape of large sources — generated listings
 * and disassemblies: every line blank, a comment, or one flat instruction
 * `MNEMONIC name=value flag name=value, ...` whose values are plain numbers or
 * names. Such a file is scanned here character by character into the AST the
 * Chevrotain lexer and parser build for it (same nodes, spans and numbers:
 * test/fastparse.test.ts compares the two), at a fraction of the cost. At the
 * first character outside that subset (any directive, operator, bracket,
 * brace, `;`, line continuation, keyword, sign, stray character ...) it returns
 * undefined and the file goes through the full front end, which also produces
 * every diagnostic: nothing is reported here.
 *
 * Memory is what large files cost (every AST node lives until the program is
 * encoded), so an instruction is one small object holding its line's offsets;
 * its spans and operand nodes are built when they are read (getters), and die
 * young after binding.
 */
import type { SourceSpan } from '@pyxis/diagnostics';
import type { Assign, Expr, FileAst, Instruction, TopLevel } from './ast.js';
import { parseNumber } from './parser.js';

/** Words the lexer makes keyword tokens (tokens.ts `kw`): never a name on the fast path. */
const KEYWORDS = new Set(['loop', 'final', 'when', 'post_final', 'ctrl', 'at']);
const SMALL = 1 << 16;
const small: bigint[] = [];

const isIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentPart = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) || c === 95;
/** The lexer's WhiteSpace: space, tab, form feed, vertical tab. */
const isSpace = (c: number) => c === 32 || c === 9 || c === 12 || c === 11;

/** Scans one file; `i` is the position, `line`/`lineStart` locate it (columns are 1-based UTF-16 units, as Chevrotain counts). */
class Scanner {
  i = 0;
  line = 1;
  lineStart = 0;
  readonly n: number;
  /** Interned names by a hash of their characters (no string is made for a name seen before). */
  private readonly names = new Map<number, string | string[]>();
  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    this.n = text.length;
  }

  span(start: number, end: number): SourceSpan {
    return { file: this.file, line: this.line, column: start - this.lineStart + 1, length: Math.max(1, end - start) };
  }

  /** Names repeat on every line: one string each, found without slicing the text. */
  intern(a: number, b: number): string {
    const t = this.text;
    let h = b - a;
    for (let k = a; k < b; k++) h = (Math.imul(h, 31) + t.charCodeAt(k)) | 0;
    const hit = this.names.get(h);
    if (typeof hit === 'string') {
      if (this.same(hit, a, b)) return hit;
    } else if (hit) for (const x of hit) if (this.same(x, a, b)) return x;
    const s = t.slice(a, b);
    this.names.set(h, hit === undefined ? s : typeof hit === 'string' ? [hit, s] : [...hit, s]);
    return s;
  }

  private same(x: string, a: number, b: number): boolean {
    if (x.length !== b - a) return false;
    const t = this.text;
    for (let k = 0; k < x.length; k++) if (x.charCodeAt(k) !== t.charCodeAt(a + k)) return false;
    return true;
  }

  /** Is text[a, b) a keyword (or `MASK` when `mask`)? Without making a string. */
  reserved(a: number, b: number, mask: boolean): boolean {
    const len = b - a;
    if (len !== 2 && len !== 4 && len !== 5 && len !== 10) return false;
    for (const k of KEYWORDS) if (this.same(k, a, b)) return true;
    return mask && this.same('MASK', a, b);
  }

  skipSpace(): void {
    while (this.i < this.n && isSpace(this.text.charCodeAt(this.i))) this.i++;
  }

  /** End of an identifier starting at `i` (`i` itself when there is none). */
  identEnd(): number {
    let j = this.i;
    if (j < this.n && isIdentStart(this.text.charCodeAt(j))) {
      j++;
      while (j < this.n && isIdentPart(this.text.charCodeAt(j))) j++;
    }
    return j;
  }

  /** At a line end (newline, comment or end of text)? Consumes a comment. A lone `\r` is not one. */
  atEol(): boolean {
    const t = this.text;
    if (this.i >= this.n) return true;
    const c = t.charCodeAt(this.i);
    if (c === 10) return true;
    if (c === 13) return this.i + 1 < this.n && t.charCodeAt(this.i + 1) === 10;
    if (c === 35 || (c === 47 && this.i + 1 < this.n && t.charCodeAt(this.i + 1) === 47)) {
      while (this.i < this.n && t.charCodeAt(this.i) !== 10 && t.charCodeAt(this.i) !== 13) this.i++;
      return this.i >= this.n || t.charCodeAt(this.i) === 10 || (this.i + 1 < this.n && t.charCodeAt(this.i + 1) === 10);
    }
    return false;
  }

  /** One value (a number or a name, ending at a separator): its node when `build`, else true; undefined when not in the subset. */
  value(build: boolean): Expr | true | undefined {
    const t = this.text;
    const n = this.n;
    const start = this.i;
    const c = t.charCodeAt(start);
    if (isDigit(c)) {
      let j = start + 1;
      const x = j < n ? t.charCodeAt(j) : 0;
      let v = -1; // the value of a plain decimal, when it is one
      if (c === 48 && (x === 120 || x === 88)) {
        const first = ++j;
        while (j < n && isHex(t.charCodeAt(j))) j++;
        if (j === first) return undefined;
      } else if (c === 48 && (x === 98 || x === 66)) {
        const first = ++j;
        while (j < n && (t.charCodeAt(j) === 48 || t.charCodeAt(j) === 49 || t.charCodeAt(j) === 95)) j++;
        if (j === first) return undefined;
      } else {
        v = c - 48;
        while (j < n && isDigit(t.charCodeAt(j)) && v < 2 ** 48) v = v * 10 + t.charCodeAt(j++) - 48;
        if (j < n && (isDigit(t.charCodeAt(j)) || t.charCodeAt(j) === 95)) {
          v = -1;
          while (j < n && (isDigit(t.charCodeAt(j)) || t.charCodeAt(j) === 95)) j++;
        }
      }
      // `12abc` or `0x1g` lex as two tokens: the full front end decides
      if (j < n && isIdentPart(t.charCodeAt(j))) return undefined;
      this.i = j;
      if (!build) return true;
      const value = v < 0 ? parseNumber(t.slice(start, j)) : v < SMALL ? (small[v] ??= BigInt(v)) : BigInt(v);
      return { kind: 'num', value, span: this.span(start, j) };
    }
    const j = this.identEnd();
    if (j === start || this.reserved(start, j, true)) return undefined;
    this.i = j;
    return build ? { kind: 'name', name: this.intern(start, j), span: this.span(start, j) } : true;
  }

  /**
   * The operands from `i` to the line end: `(NAME [= value] [,])*`. Pushes their nodes into `out` when given.
   * False at anything outside the subset. Leaves `i` at the line end.
   */
  operands(out: Assign[] | undefined): boolean {
    const t = this.text;
    let comma = false;
    for (;;) {
      const before = this.i;
      this.skipSpace();
      if (this.atEol()) return true;
      if (this.i === before && !comma) return false; // operands are separated by blanks or a comma
      const ns = this.i;
      const ne = this.identEnd();
      if (ne === ns) return false;
      if (this.reserved(ns, ne, false)) return false;
      this.i = ne;
      this.skipSpace();
      if (this.i < this.n && t.charCodeAt(this.i) === 61) {
        this.i++;
        this.skipSpace();
        const e = this.value(out !== undefined);
        if (!e) return false;
        if (out && e !== true) {
          const nameSpan = this.span(ns, ne);
          out.push({ name: this.intern(ns, ne), nameSpan, value: { kind: 'expr', expr: e, span: e.span }, span: nameSpan });
        }
      } else {
        this.i = ne; // a flag: the blanks after it separate it from the next operand
        if (out) {
          const nameSpan = this.span(ns, ne);
          out.push({ name: this.intern(ns, ne), nameSpan, value: { kind: 'expr', expr: { kind: 'num', value: 1n, span: nameSpan }, span: nameSpan }, span: nameSpan, flag: true });
        }
      }
      const c = this.i < this.n ? t.charCodeAt(this.i) : -1;
      comma = c === 44;
      if (comma) this.i++; // one optional comma after an operand
      else if (c !== -1 && !isSpace(c) && c !== 10 && c !== 13 && c !== 35 && c !== 47) return false;
    }
  }
}

/** One instruction line; spans and operands are built on each read. */
class LineInsn implements Instruction {
  readonly kind = 'insn' as const;
  constructor(
    private readonly sc: Scanner,
    readonly mnemonic: string,
    readonly line: number,
    private readonly lineStart: number,
    private readonly ms: number,
  ) {}
  get file(): string {
    return this.sc.file;
  }
  get mnemonicSpan(): SourceSpan {
    return { file: this.sc.file, line: this.line, column: this.ms - this.lineStart + 1, length: Math.max(1, this.mnemonic.length) };
  }
  get span(): SourceSpan {
    return this.mnemonicSpan;
  }
  get operands(): Assign[] {
    const sc = this.sc;
    const save = [sc.i, sc.line, sc.lineStart];
    sc.i = this.ms + this.mnemonic.length;
    sc.line = this.line;
    sc.lineStart = this.lineStart;
    const out: Assign[] = [];
    sc.operands(out);
    [sc.i, sc.line, sc.lineStart] = save as [number, number, number];
    return out;
  }
  /** Plain data, as the Chevrotain parser builds it (what `toEqual` and JSON see). */
  toJSON(): Instruction {
    return { kind: 'insn', mnemonic: this.mnemonic, mnemonicSpan: this.mnemonicSpan, operands: this.operands, span: this.span, line: this.line, file: this.file };
  }
}

/** The file's AST when every line is in the fast subset; undefined otherwise (use lex + parseTokens). */
export function fastParse(text: string, file: string): FileAst | undefined {
  const items: TopLevel[] = [];
  const sc = new Scanner(text, file);
  const n = text.length;
  while (sc.i < n) {
    sc.skipSpace();
    if (!sc.atEol()) {
      const ms = sc.i;
      const me = sc.identEnd();
      if (me === ms) return undefined;
      const mnemonic = sc.intern(ms, me);
      if (KEYWORDS.has(mnemonic)) return undefined;
      sc.i = me;
      if (!sc.operands(undefined)) return undefined;
      items.push(new LineInsn(sc, mnemonic, sc.line, sc.lineStart, ms));
    }
    if (sc.i >= n) break;
    if (text.charCodeAt(sc.i) === 13) sc.i++;
    sc.i++; // the \n
    sc.line++;
    sc.lineStart = sc.i;
  }
  return { file, items };
}
