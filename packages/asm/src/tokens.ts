/** Token vocabulary of the `.pasm` language (docs/assembler.md). */
import type { TokenType } from 'chevrotain';
import { createToken, Lexer } from './chevrotain.js';

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\f\v]+/, group: Lexer.SKIPPED });
/** `\` at the end of a line joins it with the next one. */
export const LineContinuation = createToken({ name: 'LineContinuation', pattern: /\\[ \t]*\r?\n/, group: Lexer.SKIPPED, line_breaks: true });
export const Comment = createToken({ name: 'Comment', pattern: /(?:#|\/\/)[^\n\r]*/, group: Lexer.SKIPPED });
export const Newline = createToken({ name: 'Newline', pattern: /\r?\n|;/, line_breaks: true, label: 'end of line' });

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'name' });
const kw = (name: string, word: string): TokenType =>
  createToken({ name, pattern: new RegExp(word), longer_alt: Identifier, label: `\`${word}\`` });
export const Loop = kw('Loop', 'loop');
export const Final = kw('Final', 'final');
export const When = kw('When', 'when');
export const PostFinal = kw('PostFinal', 'post_final');
export const Ctrl = kw('Ctrl', 'ctrl');
export const At = kw('At', 'at');

/** Any other `.word` (an unknown directive, or `.is_eol` in `iter0.is_eol`). */
export const DotOther = createToken({ name: 'DotOther', pattern: /\.[A-Za-z_][A-Za-z0-9_]*/, label: 'directive' });
export const DotInclude = createToken({ name: 'DotInclude', pattern: /\.include/, longer_alt: DotOther, label: '`.include`' });
export const DotConst = createToken({ name: 'DotConst', pattern: /\.const/, longer_alt: DotOther, label: '`.const`' });
export const DotProgram = createToken({ name: 'DotProgram', pattern: /\.program/, longer_alt: DotOther, label: '`.program`' });
export const DotVpu = createToken({ name: 'DotVpu', pattern: /\.vpu/, longer_alt: DotOther, label: '`.vpu`' });

export const HexNumber = createToken({ name: 'HexNumber', pattern: /0[xX][0-9a-fA-F_]+/, label: 'number' });
export const BinNumber = createToken({ name: 'BinNumber', pattern: /0[bB][01_]+/, label: 'number' });
export const DecNumber = createToken({ name: 'DecNumber', pattern: /[0-9][0-9_]*/, label: 'number' });
export const StringLit = createToken({ name: 'StringLit', pattern: /"[^"\n\r]*"/, label: 'string' });

export const LBrace = createToken({ name: 'LBrace', pattern: /\{/, label: '`{`' });
export const RBrace = createToken({ name: 'RBrace', pattern: /\}/, label: '`}`' });
export const LBracket = createToken({ name: 'LBracket', pattern: /\[/, label: '`[`' });
export const RBracket = createToken({ name: 'RBracket', pattern: /\]/, label: '`]`' });
export const LParen = createToken({ name: 'LParen', pattern: /\(/, label: '`(`' });
export const RParen = createToken({ name: 'RParen', pattern: /\)/, label: '`)`' });
export const Comma = createToken({ name: 'Comma', pattern: /,/, label: '`,`' });
export const Equals = createToken({ name: 'Equals', pattern: /=/, label: '`=`' });
export const Dot = createToken({ name: 'Dot', pattern: /\./, label: '`.`' });
export const Shl = createToken({ name: 'Shl', pattern: /<</, label: '`<<`' });
export const Shr = createToken({ name: 'Shr', pattern: />>/, label: '`>>`' });
export const Plus = createToken({ name: 'Plus', pattern: /\+/, label: '`+`' });
export const Minus = createToken({ name: 'Minus', pattern: /-/, label: '`-`' });
export const Star = createToken({ name: 'Star', pattern: /\*/, label: '`*`' });
export const Slash = createToken({ name: 'Slash', pattern: /\//, label: '`/`' });
export const Percent = createToken({ name: 'Percent', pattern: /%/, label: '`%`' });
export const Amp = createToken({ name: 'Amp', pattern: /&/, label: '`&`' });
export const Pipe = createToken({ name: 'Pipe', pattern: /\|/, label: '`|`' });
export const Caret = createToken({ name: 'Caret', pattern: /\^/, label: '`^`' });
export const Tilde = createToken({ name: 'Tilde', pattern: /~/, label: '`~`' });

/** Order matters: comments before `/`, keywords before identifiers, hex/bin before decimal. */
export const allTokens: TokenType[] = [
  WhiteSpace,
  LineContinuation,
  Comment,
  Newline,
  DotInclude,
  DotConst,
  DotProgram,
  DotVpu,
  DotOther,
  Loop,
  Final,
  When,
  PostFinal,
  Ctrl,
  At,
  Identifier,
  HexNumber,
  BinNumber,
  DecNumber,
  StringLit,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  LParen,
  RParen,
  Comma,
  Equals,
  Shl,
  Shr,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Amp,
  Pipe,
  Caret,
  Tilde,
  Dot,
];
