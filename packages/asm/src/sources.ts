/**
 * Reading the sources of the shared statement language: binary-input
 * detection, lexing and parsing with error recovery, `.include` resolution
 * (relative to the including file, then -I directories; cycles and depth
 * reported), and `.const` definitions, which are global across files. What
 * remains are the program declarations, for the target's back end to compile.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, isAbsolute } from 'node:path';
import { SourceMap, binaryMessage, binaryTextProblem, error, warning, type Diagnostic } from '@pyxis/diagnostics';
import type { ConstDecl, FileAst, ProgramDecl, Stmt, TopLevel } from './ast.js';
import type { IToken } from 'chevrotain';
import { fastParse } from './fastparse.js';
import { implicitProgram } from './flat.js';
import { Consts, defineConst } from './expr.js';
import { lex } from './lexer.js';
import { parseTokens } from './parser.js';
import { TokenBudget, countTokens } from './tokenBudget.js';

export interface SourceInput {
  file: string;
  text: string;
}

export interface ReadSourcesOptions {
  /** Reads an `.include`d file; default: the file system. Return undefined when missing. */
  readFile?: (path: string) => string | undefined;
  includeDirs?: string[];
  /** Registers every source read (for caret rendering). */
  sources?: SourceMap;
  /** Scan files of plain instruction lines without the Chevrotain lexer and parser (fastparse.ts; default true). */
  fastPath?: boolean;
  /**
   * Lex and parse a file longer than this many characters in pieces split before top-level `.program` / `.vpu`
   * blocks (`topLevelPieces`), so the tokens and AST of one piece live at a time, not the whole file's. A piece
   * with a syntax error throws `PiecewiseAbandoned`: the caller reads the sources again whole (the same
   * diagnostics as always, error recovery sees the whole file). Needs `onProgram` to gain anything.
   */
  pieceChars?: number;
  /** Called with each program declaration as it is read (in order), instead of collecting it in `programs`. */
  onProgram?: (p: ProgramDecl, consts: Consts) => void;
  /** Called with each `.const` declaration before it is defined. */
  onConst?: (c: ConstDecl) => void;
  /** Tokens the assembly may lex (AS0109; default MAX_TOKENS, tokenBudget.ts; the tests lower it). */
  maxTokens?: number;
}

/** Thrown by `readSources` with `pieceChars` (or by its hooks) when piecewise reading cannot give the whole-file result. */
export class PiecewiseAbandoned extends Error {}

/**
 * Start offsets of the pieces of `text` (the first is 0): a piece ends before a line that starts, in column 1,
 * with `.program` or `.vpu`, at brace depth 0 (braces in comments and strings not counted), not continued from the
 * line before (`\`), once it holds at least `size` characters. Such a line starts a new top-level item in the
 * grammar, so parsing the pieces one by one gives the items of parsing the whole (syntax errors aside).
 */
export function topLevelPieces(text: string, size: number): number[] {
  const starts = [0];
  const n = text.length;
  let depth = 0;
  let lineStart = 0;
  let continued = false; // the line before ended with `\`
  let lastNonBlank = -1; // char code of the last non-blank character of the current line
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (i === lineStart && depth === 0 && !continued && c === 46 && i - starts[starts.length - 1]! >= size && (text.startsWith('.program', i) || text.startsWith('.vpu', i))) {
      const after = text.charCodeAt(i + (text.startsWith('.program', i) ? 8 : 4));
      if (after === 32 || after === 9) starts.push(i);
    }
    if (c === 10) {
      continued = lastNonBlank === 92;
      lastNonBlank = -1;
      lineStart = i + 1;
    } else if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
      while (i + 1 < n && text.charCodeAt(i + 1) !== 10 && text.charCodeAt(i + 1) !== 13) i++; // a comment: to the line end
    } else if (c === 34) {
      while (i + 1 < n && text.charCodeAt(i + 1) !== 34 && text.charCodeAt(i + 1) !== 10 && text.charCodeAt(i + 1) !== 13) i++;
      if (text.charCodeAt(i + 1) === 34) i++;
      lastNonBlank = 34;
    } else if (c === 123) {
      depth++;
      lastNonBlank = c;
    } else if (c === 125) {
      if (depth === 0) return starts; // an unmatched `}` (a syntax error): no more splits
      depth--;
      lastNonBlank = c;
    } else if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) lastNonBlank = c;
  }
  return starts;
}

/** Moves tokens lexed from a piece to their place in the whole file (columns are unchanged: a piece starts a line). */
function shiftTokens(tokens: IToken[], offset: number, lines: number): void {
  for (const t of tokens) {
    t.startOffset += offset;
    if (t.startLine !== undefined) t.startLine += lines;
  }
}

export interface SourceSet {
  /**
   * Program declarations of every file, in reading order. Statements written
   * at top level (in any file of the run) are gathered into ONE implicit
   * program (`implicit: true`, flat.ts), placed where the first of them is.
   */
  programs: ProgramDecl[];
  consts: Consts;
  diagnostics: Diagnostic[];
  /** Some file had syntax errors (recovery may leave odd shapes behind). */
  parseErrors: boolean;
  sources: SourceMap;
}

const MAX_INCLUDE_DEPTH = 32;

/** Largest source file `.include` reads (as @pyxis/container MAX_SOURCE_BYTES): 256 MiB. */
export const MAX_INCLUDE_BYTES = 256 * 1024 ** 2;

/** An included file that exists but is refused (a device, FIFO, directory, or larger than MAX_INCLUDE_BYTES): AS0108. */
export class IncludeRefused extends Error {}

/**
 * The `-I` directories that cannot be searched (missing, or not a directory): one warning AS0110 each, named once
 * however often it is given. A warning, not an error, as a C compiler's `-Wmissing-include-dirs`: a search path
 * is optional until an `.include` needs it (then AS0107 lists the places tried).
 */
export function checkIncludeDirs(dirs: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of new Set(dirs)) {
    let why: string | undefined;
    try {
      if (!statSync(d).isDirectory()) why = 'is not a directory';
    } catch (e) {
      why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(e as Error).message}`;
    }
    if (why) out.push(warning('AS0110', `include directory "${d}" ${why}: -I ${d} is not searched`));
  }
  return out;
}

function defaultRead(path: string): string | undefined {
  let st;
  try {
    st = statSync(path);
  } catch {
    return undefined;
  }
  // never open a device or FIFO (`/dev/zero` never ends, a FIFO blocks)
  if (!st.isFile()) throw new IncludeRefused(st.isDirectory() ? 'it is a directory' : 'not a regular file (a device, FIFO or socket)');
  if (st.size > MAX_INCLUDE_BYTES) throw new IncludeRefused(`file too large: ${st.size} bytes (the maximum is ${MAX_INCLUDE_BYTES} bytes)`);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new IncludeRefused((e as Error).message);
  }
}

// binary-input detection lives in @pyxis/diagnostics (the linker driver uses it too); re-exported here
export { BINARY_SNIFF_CHARS, binaryMessage, binaryTextProblem } from '@pyxis/diagnostics';

/** Reads sources (following `.include`): constants defined, program declarations collected. */
export function readSources(inputs: SourceInput[], opts: ReadSourcesOptions = {}): SourceSet {
  const sources = opts.sources ?? new SourceMap();
  const read = opts.readFile ?? defaultRead;
  const diags: Diagnostic[] = [];
  const consts = new Consts();
  const pending: ProgramDecl[] = [];
  let implicitBody: Stmt[] | undefined;
  let parseErrors = false;
  const stack: string[] = [];
  const budget = new TokenBudget(opts.maxTokens);

  const processFile = (file: string, text: string): void => {
    const bin = binaryTextProblem(text);
    if (bin) {
      // No snippets: the "lines" of a binary file are noise.
      diags.push(error('AS0106', binaryMessage(file, bin, 'assembly source'), { span: { file, offset: bin.offset } }));
      return;
    }
    sources.add(file, text);
    // flat listings (every line one plain instruction) skip the Chevrotain lexer and parser: same AST, no diagnostics
    const fast = opts.fastPath === false ? undefined : fastParse(text, file);
    let ps: { ast: FileAst; diagnostics: Diagnostic[] };
    if (fast) ps = { ast: fast, diagnostics: [] };
    else if (opts.pieceChars !== undefined && text.length > opts.pieceChars) {
      processPieces(file, text, opts.pieceChars);
      return;
    } else {
      if (budget.exceeded) return;
      const over = budget.take(text, file);
      if (over) {
        diags.push(over);
        parseErrors = true;
        return;
      }
      const lx = lex(text, file);
      diags.push(...lx.diagnostics);
      ps = parseTokens(lx.result.tokens, file);
    }
    if (ps.diagnostics.length) parseErrors = true;
    diags.push(...dedupeParse(ps.diagnostics));
    stack.push(file);
    for (const it of ps.ast.items) processItem(it, file);
    stack.pop();
  };

  /** A large file piece by piece: only one piece's tokens and AST live at a time. */
  const processPieces = (file: string, text: string, size: number): void => {
    const starts = topLevelPieces(text, size);
    let line = 0;
    stack.push(file);
    for (let k = 0; k < starts.length; k++) {
      const a = starts[k]!;
      const b = k + 1 < starts.length ? starts[k + 1]! : text.length;
      const piece = text.slice(a, b);
      // a piece's tokens die with it: the budget is per piece here (the whole-file fallback counts them all)
      if (countTokens(piece, budget.limit).cross) throw new PiecewiseAbandoned('too many tokens');
      const lx = lex(piece, file);
      if (lx.diagnostics.length) throw new PiecewiseAbandoned('lexical error');
      shiftTokens(lx.result.tokens, a, line);
      const ps = parseTokens(lx.result.tokens, file);
      if (ps.diagnostics.length) throw new PiecewiseAbandoned('syntax error');
      for (const it of ps.ast.items) processItem(it, file);
      for (let i = 0; i < piece.length; i++) if (piece.charCodeAt(i) === 10) line++;
    }
    stack.pop();
  };

  const processItem = (it: TopLevel, file: string): void => {
    switch (it.kind) {
      case 'include': {
        const cands = isAbsolute(it.path) ? [it.path] : [join(dirname(file), it.path), ...(opts.includeDirs ?? []).map((d) => join(d, it.path))];
        let found: string | undefined;
        let text: string | undefined;
        for (const c of cands) {
          try {
            text = read(c);
          } catch (e) {
            if (!(e instanceof IncludeRefused)) throw e;
            diags.push(error('AS0108', `cannot read included file "${it.path}": ${e.message}`, { span: it.span, notes: [`file: ${c}`] }));
            return;
          }
          if (text !== undefined) {
            found = c;
            break;
          }
        }
        if (found === undefined || text === undefined) {
          diags.push(error('AS0103', `cannot find included file "${it.path}"`, { span: it.span, notes: [`looked in: ${cands.join(', ')}`] }));
          return;
        }
        if (stack.includes(found)) {
          diags.push(error('AS0104', `"${it.path}" includes itself (${[...stack, found].join(' -> ')})`, { span: it.span }));
          return;
        }
        if (stack.length >= MAX_INCLUDE_DEPTH) {
          diags.push(error('AS0105', `includes nested deeper than ${MAX_INCLUDE_DEPTH}`, { span: it.span }));
          return;
        }
        processFile(found, text);
        return;
      }
      case 'const':
        opts.onConst?.(it);
        defineConst(it, consts, diags);
        return;
      case 'program':
        if (opts.onProgram) opts.onProgram(it, consts);
        else pending.push(it);
        return;
      case 'insn':
      case 'loop':
        if (!implicitBody) {
          implicitBody = [it];
          pending.push(implicitProgram(implicitBody, file));
        } else implicitBody.push(it);
        return;
    }
  };

  for (const s of inputs) processFile(s.file, s.text);
  return { programs: pending, consts, diagnostics: diags, parseErrors, sources };
}

/** One syntax error per line: recovery can report follow-on errors on the same line. */
function dedupeParse(ds: Diagnostic[]): Diagnostic[] {
  const lines = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of ds) {
    const s = d.span as { file: string; line?: number } | undefined;
    const key = s ? `${s.file}:${s.line}` : '';
    if (lines.has(key)) continue;
    lines.add(key);
    out.push(d);
  }
  return out;
}

/** Diagnostics in file, line, column order (stable). */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic): [string, number, number] => {
    const s = d.span as { file?: string; line?: number; column?: number } | undefined;
    return [s?.file ?? '', s?.line ?? 0, s?.column ?? 0];
  };
  return ds
    .map((d, i) => ({ d, i, k: key(d) }))
    .sort((a, b) => (a.k[0] < b.k[0] ? -1 : a.k[0] > b.k[0] ? 1 : a.k[1] - b.k[1] || a.k[2] - b.k[2] || a.i - b.i))
    .map((x) => x.d);
}

