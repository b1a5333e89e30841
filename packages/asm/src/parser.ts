/**
 * Chevrotain parser for `.pasm` (embedded actions build the AST directly —
 * no CST, which keeps 100k-line files fast). Error recovery is on: a bad
 * statement is reported and skipped to the next line so one run reports many
 * errors. Grammar (docs/assembler.md):
 *
 *   file      := (NL | include | const | program | loop | insn)*   (top-level statements: the implicit program, flat.ts)
 *   include   := .include STRING
 *   const     := .const NAME = expr
 *   program   := .program NAME SEQ [at expr] NL* { body }
 *   body      := (NL | loop | insn)*
 *   loop      := loop [iterator] expr [final expr [when [ iters ]]] [post_final] NL* { body }
 *   insn      := [ctrl { assign* }] MNEMONIC assign* (NL | before `}`)
 *   assign    := NAME [. NAME] [ [ expr ] ] [= (expr | [ expr,* ])]   (commas between assigns optional; a bare NAME is a flag: =1)
 */
import type { IToken, IOrAlt, TokenType, IParserErrorMessageProvider } from 'chevrotain';
import { EmbeddedActionsParser, defaultParserErrorProvider } from './chevrotain.js';
import { error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import * as T from './tokens.js';
import type { Assign, ConstDecl, Expr, FileAst, IncludeDecl, Instruction, LoopStmt, ProgramDecl, Stmt, TopLevel, Value } from './ast.js';

/** Messages in the toolchain's voice ("expected `=`, found `]`"). */
export const pasmErrorProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    if (actual.tokenType === T.DotOther) return unknownDirective(actual);
    if (expected.name === 'EOF') return topLevelMessage(actual);
    return `expected ${expected.LABEL ?? expected.name}, found ${describe(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    if (firstRedundant.tokenType === T.DotOther) return unknownDirective(firstRedundant);
    return topLevelMessage(firstRedundant);
  },
  buildNoViableAltMessage(opts) {
    if (opts.actual[0]?.tokenType === T.DotOther) return unknownDirective(opts.actual[0]);
    if (opts.ruleName === 'endOfStmt') return `expected end of line, found ${describe(opts.actual[0]!)}`;
    const named: Record<string, string> = {
      topLevel: '`.program`, `.vpu`, `.const`, `.include` or an instruction',
      bodyStmt: 'an instruction, `loop` or `}`',
      value: 'a value (number, name, expression or `[list]`)',
      unary: 'a number, name or `(`',
      primary: 'a number, name or `(`',
    };
    const what = named[opts.ruleName] ?? 'one of ' + [...new Set(opts.expectedPathsPerAlt.flat().map((p) => p.map((t) => t.LABEL ?? t.name).join(' ')))].join(', ');
    return `expected ${what}, found ${describe(opts.actual[0]!)}`;
  },
  buildEarlyExitMessage(opts) {
    return defaultParserErrorProvider.buildEarlyExitMessage(opts);
  },
};

function unknownDirective(t: IToken): string {
  return `unknown directive \`${t.image}\`; directives are \`.include\`, \`.const\`, \`.program\` and \`.vpu\``;
}

function topLevelMessage(t: IToken): string {
  return `unexpected ${describe(t)} at top level; expected \`.program\`, \`.vpu\`, \`.const\`, \`.include\` or an instruction`;
}

function describe(t: IToken): string {
  if (t.tokenType.name === 'EOF') return 'end of file';
  if (t.tokenType === T.Newline) return t.image === ';' ? '`;`' : 'end of line';
  return `\`${t.image}\``;
}

export class PasmParser extends EmbeddedActionsParser {
  file = '<input>';

  /**
   * `validate`: run Chevrotain's grammar checks (ambiguities, left recursion). They cost
   * every `pyxis-as` run ~40 ms (issue 15) and the grammar is fixed, so the tools skip them
   * and packages/asm/test/grammar-checks.test.ts runs them.
   */
  constructor(recovery = true, validate = false) {
    super(T.allTokens, { recoveryEnabled: recovery, maxLookahead: 3, errorMessageProvider: pasmErrorProvider, skipValidations: !validate });
    this.performSelfAnalysis();
  }

  span(t: IToken, end?: IToken): SourceSpan {
    if (!t || typeof t.image !== 'string') return { file: this.file, line: 1, column: 1 };
    const line = Number.isFinite(t.startLine) ? t.startLine! : 1;
    const column = Number.isFinite(t.startColumn) ? t.startColumn! : 1;
    let length = Math.max(1, t.image.length);
    if (end && typeof end.image === 'string' && end.startLine === t.startLine && Number.isFinite(end.startColumn)) length = Math.max(1, end.startColumn! + end.image.length - column);
    return { file: this.file, line, column, length };
  }

  public fileRule = this.RULE('fileRule', (): TopLevel[] => {
    const items: TopLevel[] = [];
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME(T.Newline) },
        {
          ALT: () => {
            const it = this.SUBRULE(this.topLevel);
            if (it) items.push(it);
          },
        },
      ]);
    });
    return items;
  });

  private topLevel = this.RULE(
    'topLevel',
    (): TopLevel | undefined =>
      this.OR([
        { ALT: () => this.SUBRULE(this.includeDecl) },
        { ALT: () => this.SUBRULE(this.constDecl) },
        { ALT: () => this.SUBRULE(this.programDecl) },
        { ALT: () => this.SUBRULE(this.bodyStmt) },
      ]),
    { recoveryValueFunc: () => undefined },
  );

  private includeDecl = this.RULE('includeDecl', (): IncludeDecl => {
    const kw = this.CONSUME(T.DotInclude);
    const s = this.CONSUME(T.StringLit);
    this.SUBRULE(this.endOfStmt);
    return { kind: 'include', path: String(s.image ?? '').slice(1, -1), span: this.span(kw, s) };
  });

  private constDecl = this.RULE('constDecl', (): ConstDecl => {
    const kw = this.CONSUME(T.DotConst);
    const n = this.CONSUME(T.Identifier);
    this.CONSUME(T.Equals);
    const value = this.SUBRULE(this.expr);
    this.SUBRULE(this.endOfStmt);
    return { kind: 'const', name: n.image, nameSpan: this.span(n), value, span: this.span(kw) };
  });

  private programDecl = this.RULE('programDecl', (): ProgramDecl => {
    let vpu = false;
    let kw!: IToken;
    let n!: IToken;
    let s!: IToken;
    this.OR([
      {
        ALT: () => {
          kw = this.CONSUME(T.DotProgram);
          n = this.CONSUME(T.Identifier);
          s = this.CONSUME2(T.Identifier);
        },
      },
      {
        ALT: () => {
          kw = this.CONSUME(T.DotVpu);
          n = this.CONSUME3(T.Identifier);
          s = n;
          vpu = true;
        },
      },
    ]);
    let at: Expr | undefined;
    this.OPTION(() => {
      this.CONSUME(T.At);
      at = this.SUBRULE(this.expr);
    });
    this.MANY(() => this.CONSUME(T.Newline));
    this.CONSUME(T.LBrace);
    const body = this.SUBRULE(this.body);
    this.CONSUME(T.RBrace);
    return { kind: 'program', ...(vpu ? { vpu: true } : {}), name: n?.image, nameSpan: this.span(n), seq: vpu ? 'vpu' : s?.image, seqSpan: this.span(s), ...(at ? { at } : {}), body, span: this.span(kw) };
  });

  // Hot rules pass cached alternative arrays to OR (allocated once, not per call; Chevrotain's performance advice).
  private bodyAlts?: IOrAlt<Stmt | undefined>[];
  private body = this.RULE('body', (): Stmt[] => {
    const out: Stmt[] = [];
    this.MANY(() => {
      const s = this.OR(
        (this.bodyAlts ??= [
          {
            ALT: () => {
              this.CONSUME(T.Newline);
              return undefined;
            },
          },
          { ALT: () => this.SUBRULE(this.bodyStmt) },
        ]),
      );
      if (s) out.push(s);
    });
    return out;
  });

  private stmtAlts?: IOrAlt<Stmt | undefined>[];
  private bodyStmt = this.RULE(
    'bodyStmt',
    (): Stmt | undefined => this.OR((this.stmtAlts ??= [{ ALT: () => this.SUBRULE(this.loopStmt) }, { ALT: () => this.SUBRULE(this.instruction) }])),
    { recoveryValueFunc: () => undefined },
  );

  private loopStmt = this.RULE('loopStmt', (): LoopStmt => {
    const kw = this.CONSUME(T.Loop);
    const first = this.SUBRULE(this.expr);
    let second: Expr | undefined;
    this.OPTION(() => {
      second = this.SUBRULE2(this.expr);
    });
    let final: Expr | undefined;
    let when: Expr[] | undefined;
    let whenSpan: SourceSpan | undefined;
    let postFinal = false;
    let postFinalSpan: SourceSpan | undefined;
    this.OPTION2(() => {
      this.CONSUME(T.Final);
      final = this.SUBRULE3(this.expr);
      this.OPTION3(() => {
        const w = this.CONSUME(T.When);
        const l = this.SUBRULE(this.list);
        when = l?.items ?? [];
        whenSpan = this.span(w);
      });
    });
    this.OPTION4(() => {
      const p = this.CONSUME(T.PostFinal);
      postFinal = true;
      postFinalSpan = this.span(p);
    });
    this.MANY(() => this.CONSUME(T.Newline));
    this.CONSUME(T.LBrace);
    const body = this.SUBRULE(this.body);
    this.CONSUME(T.RBrace);
    const iterator = second !== undefined ? first : undefined;
    const count = second !== undefined ? second : first;
    return {
      kind: 'loop',
      ...(iterator ? { iterator } : {}),
      count,
      ...(final ? { final } : {}),
      ...(when ? { when, whenSpan } : {}),
      postFinal,
      ...(postFinalSpan ? { postFinalSpan } : {}),
      body,
      span: this.span(kw),
    };
  });

  private ctrlOpt = (): { ctrl: Assign[]; ctrlSpan: SourceSpan } => {
    const c = this.CONSUME(T.Ctrl);
    this.CONSUME(T.LBrace);
    const ctrl = this.SUBRULE(this.assigns);
    this.CONSUME(T.RBrace);
    return { ctrl, ctrlSpan: this.span(c) };
  };
  private instruction = this.RULE('instruction', (): Instruction => {
    const cc = this.OPTION(this.ctrlOpt);
    const ctrl = cc?.ctrl;
    const ctrlSpan = cc?.ctrlSpan;
    const m = this.CONSUME(T.Identifier);
    const operands = this.SUBRULE2(this.assigns);
    this.SUBRULE(this.endOfStmt);
    const sp = this.span(m);
    return {
      kind: 'insn',
      mnemonic: m.image,
      mnemonicSpan: sp,
      ...(ctrl ? { ctrl, ctrlSpan } : {}),
      operands,
      span: ctrlSpan ?? sp,
      line: sp.line,
      file: this.file,
    };
  });

  /** A statement ends at a newline/`;`, or right before a closing `}`. */
  private eosAlts?: IOrAlt<unknown>[];
  private endOfStmt = this.RULE('endOfStmt', () => {
    this.OR(
      (this.eosAlts ??= [
        { ALT: () => this.CONSUME(T.Newline) },
        { GATE: () => this.LA(1).tokenType === T.RBrace || this.LA(1).tokenType.name === 'EOF', ALT: () => undefined },
      ]),
    );
  });

  // Closures of the hottest rules are created once (not per call): OPTION returns their value.
  private commaOpt = (): IToken => this.CONSUME(T.Comma);
  private assigns = this.RULE('assigns', (): Assign[] => {
    const out: Assign[] = [];
    this.MANY(() => {
      const a = this.SUBRULE(this.assign);
      if (a) out.push(a);
      this.OPTION(this.commaOpt);
    });
    return out;
  });

  /** `iter0.is_eol`: the lexer sees `.is_eol` as a directive-shaped token. */
  private dotOpt = (): IToken => this.CONSUME(T.DotOther);
  private indexOpt = (): Expr => {
    this.CONSUME(T.LBracket);
    const e = this.SUBRULE(this.expr);
    this.CONSUME(T.RBracket);
    return e;
  };
  private valueOpt = (): Value => {
    this.CONSUME(T.Equals);
    return this.SUBRULE(this.value);
  };
  private assign = this.RULE('assign', (): Assign => {
    const n = this.CONSUME(T.Identifier);
    const dot = this.OPTION(this.dotOpt);
    const index = this.OPTION2(this.indexOpt);
    const given = this.OPTION3(this.valueOpt);
    const name = dot ? `${n.image}_${String(dot.image ?? '').slice(1)}` : n.image;
    const nameSpan = this.span(n, dot ?? n);
    // a bare name is a flag operand: `accumulate` means `accumulate=1` for a one-bit field (operands.ts)
    const value: Value = given ?? { kind: 'expr', expr: { kind: 'num', value: 1n, span: nameSpan }, span: nameSpan };
    const a: Assign = { name, nameSpan, value, span: nameSpan };
    if (!given) a.flag = true;
    if (index) a.index = index;
    return a;
  });

  private valueAlts?: IOrAlt<Value>[];
  private value = this.RULE('value', (): Value =>
    this.OR((this.valueAlts ??= [
      {
        ALT: () => {
          const l = this.SUBRULE(this.list);
          return { kind: 'list' as const, items: l?.items ?? [], span: l?.span ?? { file: this.file, line: 1, column: 1 } };
        },
      },
      {
        // `MASK(i1, i2)`: the spec pseudo-code's mask notation (Figures 9-2..10-3), the same as `[i1, i2]`
        GATE: () => this.LA(1).image === 'MASK',
        ALT: () => {
          const m = this.CONSUME(T.Identifier);
          this.CONSUME(T.LParen);
          const items = this.SUBRULE(this.exprItems);
          const rp = this.CONSUME(T.RParen);
          return { kind: 'list' as const, items, span: this.span(m, rp) };
        },
      },
      {
        ALT: () => {
          const e = this.SUBRULE(this.expr);
          return { kind: 'expr' as const, expr: e, span: e?.span ?? { file: this.file, line: 1, column: 1 } };
        },
      },
    ])),
  );

  private list = this.RULE('list', (): { items: Expr[]; span: SourceSpan } => {
    const lb = this.CONSUME(T.LBracket);
    const items = this.SUBRULE(this.exprItems);
    const rb = this.CONSUME(T.RBracket);
    return { items, span: this.span(lb, rb) };
  });

  /** `a, b, c` (possibly empty): the items of `[...]` and `MASK(...)`. */
  private exprItems = this.RULE('exprItems', (): Expr[] => {
    const items: Expr[] = [];
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => {
        items.push(this.SUBRULE(this.expr));
      },
    });
    return items;
  });

  // ---- expressions: operands and operators are collected flat, then
  // grouped by C precedence (| ^ & << >> + - * / %) with precedence climbing;
  // two rule calls per operand instead of one per precedence level.
  private binopAlts?: IOrAlt<IToken>[];
  public expr = this.RULE('expr', (): Expr => {
    const first = this.SUBRULE(this.unary);
    // most operands have no operator after them: the lists are only built when one follows
    let operands: Expr[] | undefined;
    let ops: string[] | undefined;
    this.MANY(() => {
      const op = this.OR((this.binopAlts ??= BINOPS.map((t) => ({ ALT: () => this.CONSUME(t) }))));
      (ops ??= []).push(op.image);
      (operands ??= [first]).push(this.SUBRULE2(this.unary));
    });
    return ops && operands ? climb(operands, ops) : first;
  });

  private unaryAlts?: IOrAlt<Expr>[];
  private unaryOpAlts?: IOrAlt<IToken>[];
  private unary = this.RULE('unary', (): Expr =>
    this.OR(
      (this.unaryAlts ??= [
        {
          ALT: () => {
            const op = this.OR2((this.unaryOpAlts ??= [{ ALT: () => this.CONSUME(T.Minus) }, { ALT: () => this.CONSUME(T.Tilde) }, { ALT: () => this.CONSUME(T.Plus) }]));
            const arg = this.SUBRULE(this.unary);
            return { kind: 'unary' as const, op: op.image, arg, span: this.span(op) };
          },
        },
        { ALT: () => this.SUBRULE(this.primary) },
      ]),
    ),
  );

  private primaryAlts?: IOrAlt<Expr>[];
  private numberAlts?: IOrAlt<IToken>[];
  private primary = this.RULE('primary', (): Expr =>
    this.OR((this.primaryAlts ??= [
      {
        ALT: () => {
          const t = this.OR2((this.numberAlts ??= [{ ALT: () => this.CONSUME(T.HexNumber) }, { ALT: () => this.CONSUME(T.BinNumber) }, { ALT: () => this.CONSUME(T.DecNumber) }]));
          return { kind: 'num' as const, value: parseNumber(t.image), span: this.span(t) };
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(T.Identifier);
          return { kind: 'name' as const, name: t.image, span: this.span(t) };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.LParen);
          const e = this.SUBRULE(this.expr);
          this.CONSUME(T.RParen);
          return e;
        },
      },
    ])),
  );
}

const BINOPS: TokenType[] = [T.Pipe, T.Caret, T.Amp, T.Shl, T.Shr, T.Plus, T.Minus, T.Star, T.Slash, T.Percent];
const PREC: Record<string, number> = { '|': 1, '^': 2, '&': 3, '<<': 4, '>>': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6 };

/** Left-associative precedence climbing over a flat operand/operator list. */
function climb(operands: Expr[], ops: string[]): Expr {
  let pos = 0;
  const parse = (minPrec: number): Expr => {
    let left = operands[pos]!;
    while (pos < ops.length && (PREC[ops[pos]!] ?? 0) >= minPrec) {
      const op = ops[pos]!;
      pos++;
      const right = parse((PREC[op] ?? 0) + 1);
      left = { kind: 'binary', op, left, right, span: left?.span ?? right?.span };
    }
    return left;
  };
  return parse(1);
}

export function parseNumber(image: string): bigint {
  if (typeof image !== 'string') return 0n;
  const s = image.includes('_') ? image.replace(/_/g, '') : image;
  try {
    return s === '' ? 0n : BigInt(s); // BigInt parses 0x / 0b prefixes; a bare `0x` (fuzzed input) throws -> 0
  } catch {
    return 0n;
  }
}

let fastParser: PasmParser | undefined;
let recoveringParser: PasmParser | undefined;

/**
 * Deepest nesting of brackets (`(`, `[`, `{`) and prefix operators the parser
 * accepts. The parser and the tools walking its trees recurse per level, so
 * deeper input would overflow the call stack; no real program comes near it.
 */
export const MAX_NESTING = 256;
/**
 * `loop` headers still waiting for their `{` (a valid program has at most one at a time). The error-recovering
 * parser nests every such header into the previous one, recursing per header (issue 15: 1,331 bare `loop` lines
 * took 35-50 s on a 4 MB stack before overflowing), so more than this many is AS0107 before parsing.
 */
export const MAX_PENDING_LOOPS = 16;

const OPEN = new Set<TokenType>([T.LParen, T.LBracket, T.LBrace]);
const CLOSE = new Set<TokenType>([T.RParen, T.RBracket, T.RBrace]);
const PREFIX = new Set<TokenType>([T.Minus, T.Plus, T.Tilde]);
const OPERAND = new Set<TokenType>([T.Identifier, T.DecNumber, T.HexNumber, T.BinNumber]);

/**
 * The first token nested deeper than MAX_NESTING: open brackets plus pending
 * prefix operators (`- - -x` nests like `-(-(-x))`). A prefix operator is
 * pending until the operand it applies to ends.
 */
export function tooDeep(tokens: readonly IToken[]): IToken | undefined {
  const stack: boolean[] = []; // true: a bracket, false: a prefix operator
  let prevEndsOperand = false;
  let pendingLoops = 0;
  const dropPrefixes = (): void => {
    while (stack.length && !stack[stack.length - 1]) stack.pop();
  };
  for (const t of tokens) {
    const tt = t.tokenType;
    if (tt === T.Loop && ++pendingLoops > MAX_PENDING_LOOPS) return t;
    if (tt === T.LBrace && pendingLoops > 0) pendingLoops--;
    if (OPEN.has(tt)) {
      stack.push(true);
      prevEndsOperand = false;
    } else if (CLOSE.has(tt)) {
      dropPrefixes();
      if (stack.length) stack.pop();
      dropPrefixes();
      prevEndsOperand = tt !== T.RBrace;
      continue;
    } else if (PREFIX.has(tt) && !prevEndsOperand) {
      stack.push(false);
    } else if (OPERAND.has(tt)) {
      dropPrefixes();
      prevEndsOperand = true;
      continue;
    } else {
      if (tt === T.Newline) dropPrefixes();
      prevEndsOperand = false;
      continue;
    }
    if (stack.length > MAX_NESTING) return t;
  }
  return undefined;
}

function spanOf(t: IToken, file: string): SourceSpan {
  return Number.isFinite(t.startLine) ? { file, line: t.startLine!, column: t.startColumn!, length: Math.max(1, t.image.length) } : { file, line: 1, column: 1 };
}

function nestingError(file: string, at: IToken | undefined): Diagnostic {
  if (at?.tokenType === T.Loop)
    return error('AS0107', `more than ${MAX_PENDING_LOOPS} \`loop\` headers without their \`{\``, { span: spanOf(at, file), label: 'too many', notes: ['every `loop` opens its body with `{`; the rest of this file was not read'] });
  return error('AS0107', `nested deeper than ${MAX_NESTING} levels (brackets, braces and prefix operators)`, {
    ...(at ? { span: spanOf(at, file) } : { span: { file, line: 1, column: 1 } }),
    label: 'too deep',
    notes: ['split the expression with `.const` names; the rest of this file was not read'],
  });
}

/**
 * Parses one file's tokens. Parse errors come back as AS0102 diagnostics.
 * Valid input goes through a parser without error recovery (much faster);
 * only when that fails is the file re-parsed with recovery to report every error.
 * Input nested deeper than MAX_NESTING is AS0107 and is not parsed at all.
 */
export function parseTokens(tokens: IToken[], file: string): { ast: FileAst; diagnostics: Diagnostic[] } {
  const deep = tooDeep(tokens);
  if (deep) return { ast: { file, items: [] }, diagnostics: [nestingError(file, deep)] };
  fastParser ??= new PasmParser(false);
  let p = fastParser;
  p.file = file;
  p.input = tokens;
  let items: TopLevel[] = [];
  try {
    items = (p.fileRule() ?? []).filter(Boolean);
  } catch (e) {
    // a stack overflow despite the nesting limit (a smaller stack than Node's default): a diagnostic, never a crash
    if (e instanceof RangeError) return { ast: { file, items: [] }, diagnostics: [nestingError(file, undefined)] };
    items = [];
  }
  if (p.errors.length) {
    recoveringParser ??= new PasmParser(true);
    p = recoveringParser;
    p.file = file;
    p.input = tokens;
    try {
      items = (p.fileRule() ?? []).filter(Boolean);
    } catch (e) {
      if (e instanceof RangeError) return { ast: { file, items: [] }, diagnostics: [nestingError(file, undefined)] };
      items = [];
    }
  }
  const diagnostics: Diagnostic[] = p.errors.map((e) => {
    const t = e.token;
    const eof = t.tokenType.name === 'EOF' || !Number.isFinite(t.startLine);
    const prev = (e as { previousToken?: IToken }).previousToken;
    const at = eof && prev && Number.isFinite(prev.startLine) ? prev : t;
    return error('AS0102', e.message, {
      span: Number.isFinite(at.startLine)
        ? { file, line: at.startLine!, column: eof && at === prev ? (at.startColumn ?? 0) + at.image.length : at.startColumn!, length: eof ? 1 : Math.max(1, at.image.length) }
        : { file, line: 1, column: 1 },
      label: 'syntax error',
    });
  });
  return { ast: { file, items: sanitize(items) }, diagnostics };
}

/** Drops AST pieces that recovery left half-built (undefined members). */
function sanitize(items: TopLevel[]): TopLevel[] {
  return items.filter((it) => it && typeof it === 'object' && 'kind' in it);
}
