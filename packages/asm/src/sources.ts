/**
 * Reading the sources of the shared statement language: binary-input
 * detection, lexing and parsing with error recovery, `.include` resolution
 * (relative to the including file, then -I directories; cycles and depth
 * reported), and `.const` definitions, which are global across files. What
 * remains are the program declarations, for the target's back end to compile.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, isAbsolute } from 'node:path';
import { SourceMap, error, type Diagnostic } from '@pyxis/diagnostics';
import type { FileAst, ProgramDecl, Stmt, TopLevel } from './ast.js';
import { fastParse } from './fastparse.js';
import { implicitProgram } from './flat.js';
import { Consts, defineConst } from './expr.js';
import { lex } from './lexer.js';
import { parseTokens } from './parser.js';

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

/** Characters of a source examined for binary content (NUL / invalid UTF-8). */
export const BINARY_SNIFF_CHARS = 8192;

/**
 * Detects binary input in already-decoded text: a NUL character, or U+FFFD
 * (what TextDecoder substitutes for invalid UTF-8), in the first
 * BINARY_SNIFF_CHARS characters. `offset` is the byte offset in the UTF-8
 * file (the prefix before the first hit is valid UTF-8, so it is exact).
 */
export function binaryTextProblem(text: string): { offset: number; what: 'NUL byte' | 'invalid UTF-8' } | undefined {
  const n = Math.min(text.length, BINARY_SNIFF_CHARS);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || c === 0xfffd) {
      const offset = new TextEncoder().encode(text.slice(0, i)).length;
      return { offset, what: c === 0 ? 'NUL byte' : 'invalid UTF-8' };
    }
  }
  return undefined;
}

export function binaryMessage(file: string, bin: { offset: number; what: string }, expected: string): string {
  return bin.what === 'NUL byte'
    ? `\`${file}\` looks like a binary file (NUL byte at offset ${bin.offset}); expected ${expected}`
    : `\`${file}\` is not UTF-8 text (invalid UTF-8 at offset ${bin.offset}); expected ${expected} in UTF-8`;
}

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
    else {
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
        defineConst(it, consts, diags);
        return;
      case 'program':
        pending.push(it);
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

