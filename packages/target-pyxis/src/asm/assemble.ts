/** The assembler pipeline: sources -> tokens -> AST -> programs -> words -> object (+ listing). */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, isAbsolute } from 'node:path';
import { DiagnosticError, SourceMap, error, type Diagnostic } from '@pyxis/diagnostics';
import type { Container } from '@pyxis/container';
import type { ProgramDecl, TopLevel } from '@pyxis/asm';
import { checkProgram } from './checks.js';
import { encodeProgram } from './encode.js';
import { loadPyxisIsa, type Isa } from './isa.js';
import { lex } from '@pyxis/asm';
import { makeListing } from './listing.js';
import { buildObject } from './object.js';
import { parseTokens } from '@pyxis/asm';
import type { EncodedProgram, EncodedVpuProgram, Program, VpuProgram } from './program.js';
import { Consts, compileProgram, compileVpuProgram, defineConst } from './sema.js';
import { encodeVpuProgram } from './encode.js';
import { irToPrograms } from './ir.js';
import { JsonPositions, jsonPositions, jsonSyntaxErrorOffset } from '@pyxis/asm';

export interface SourceInput {
  file: string;
  text: string;
}

export interface AssembleOptions {
  isa?: Isa;
  /** Reads an `.include`d file; default: the file system. Return undefined when missing. */
  readFile?: (path: string) => string | undefined;
  includeDirs?: string[];
  /** Registers every source read (for caret rendering). */
  sources?: SourceMap;
  /** Skip the listing text (faster). */
  listing?: boolean;
}

export interface AssembleResult {
  object: Container;
  programs: EncodedProgram[];
  vpuPrograms: EncodedVpuProgram[];
  listing: string;
  /** Warnings (errors are thrown as DiagnosticError). */
  diagnostics: Diagnostic[];
}

const MAX_INCLUDE_DEPTH = 32;

function defaultRead(path: string): string | undefined {
  try {
    return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
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

function binaryMessage(file: string, bin: { offset: number; what: string }, expected: string): string {
  return bin.what === 'NUL byte'
    ? `\`${file}\` looks like a binary file (NUL byte at offset ${bin.offset}); expected ${expected}`
    : `\`${file}\` is not UTF-8 text (invalid UTF-8 at offset ${bin.offset}); expected ${expected} in UTF-8`;
}

/** Parses sources (following `.include`) and compiles their programs; no encoding. */
export function compileSources(
  inputs: SourceInput[],
  opts: AssembleOptions = {},
): { programs: Program[]; vpuPrograms: VpuProgram[]; diagnostics: Diagnostic[]; sources: SourceMap; clean: Program[] } {
  const isa = opts.isa ?? loadPyxisIsa();
  const sources = opts.sources ?? new SourceMap();
  const read = opts.readFile ?? defaultRead;
  const diags: Diagnostic[] = [];
  const consts = new Consts();
  const programs: Program[] = [];
  const seen = new Map<string, Program>();
  let parseErrors = false;
  const stack: string[] = [];
  const dirty = new Set<Program>();
  /** Programs are compiled after every file is read, so constants are global and VPU programs can be referenced before they are defined. */
  const pending: ProgramDecl[] = [];

  const processFile = (file: string, text: string): void => {
    const bin = binaryTextProblem(text);
    if (bin) {
      // No snippets: the "lines" of a binary file are noise.
      diags.push(error('AS0106', binaryMessage(file, bin, 'assembly source'), { span: { file, offset: bin.offset } }));
      return;
    }
    sources.add(file, text);
    const lx = lex(text, file);
    diags.push(...lx.diagnostics);
    const ps = parseTokens(lx.result.tokens, file);
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
          text = read(c);
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
    }
  };

  const compilePending = (it: ProgramDecl, vpuLengths: Map<string, number>): void => {
    let p: Program | undefined;
    const before = diags.filter((d) => d.severity === 'error').length;
    try {
      p = compileProgram(it, isa, consts, diags, vpuNames, vpuLengths);
      if (p && diags.filter((d) => d.severity === 'error').length > before) dirty.add(p);
    } catch (e) {
      // After syntax errors, recovery may leave odd shapes; those errors are already reported.
      if (!parseErrors) throw e;
    }
    if (!p) return;
    const key = `${p.seq.name}.${p.name}`;
    const prev = seen.get(key);
    if (prev) {
      diags.push(error('AS0218', `program \`${p.name}\` is defined twice for ${p.seq.name}`, { span: it.nameSpan, ...(prev.span ? { secondary: [{ span: prev.span, label: 'first defined here' }] } : {}) }));
      return;
    }
    seen.set(key, p);
    programs.push(p);
  };


  for (const s of inputs) processFile(s.file, s.text);
  const vpuNames = new Set(pending.filter((p) => p.vpu && p.name).map((p) => p.name));
  const vpuPrograms: VpuProgram[] = [];
  const vpuSeen = new Map<string, VpuProgram>();
  // VPU programs first: sequencer programs take their lengths (omitted vpv_pgm_instr_count).
  for (const it of pending) {
    if (!it.vpu) continue;
    let v: VpuProgram | undefined;
    try {
      v = compileVpuProgram(it, isa, consts, diags);
    } catch (e) {
      if (!parseErrors) throw e;
    }
    if (!v) continue;
    const prev = vpuSeen.get(v.name);
    if (prev) {
      diags.push(error('AS0218', `VPU program \`${v.name}\` is defined twice`, { span: it.nameSpan, ...(prev.span ? { secondary: [{ span: prev.span, label: 'first defined here' }] } : {}) }));
      continue;
    }
    vpuSeen.set(v.name, v);
    vpuPrograms.push(v);
  }
  const vpuLengths = new Map(vpuPrograms.map((v) => [v.name, v.insns.length]));
  for (const it of pending) if (!it.vpu) compilePending(it, vpuLengths);
  return { programs, vpuPrograms, diagnostics: diags, sources, clean: programs.filter((p) => !dirty.has(p)) };
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

/** Encodes, checks and packs compiled programs. Throws DiagnosticError if anything is wrong. */
export function finishPrograms(
  programs: Program[],
  isa: Isa,
  diags: Diagnostic[],
  sources: SourceMap | undefined,
  wantListing: boolean,
  metadata: Record<string, unknown> = {},
  vpuPrograms: VpuProgram[] = [],
): AssembleResult {
  const encoded: EncodedProgram[] = [];
  for (const p of programs) {
    const e = encodeProgram(p, diags);
    checkProgram(p, e, diags);
    encoded.push(e);
  }
  const vpuEncoded = vpuPrograms.map((v) => encodeVpuProgram(v, diags));
  const vpuNames = new Set(vpuPrograms.map((v) => `vpu.${v.name}`));
  for (const e of encoded)
    for (const r of e.refs)
      if (!vpuNames.has(r.symbol)) diags.push(error('AS0220', `program \`${e.name}\` refers to unknown VPU program \`${r.symbol.slice(4)}\``, { ...(e.spans[r.pc] ? { span: e.spans[r.pc]! } : {}) }));
  if (diags.some((d) => d.severity === 'error')) throw new DiagnosticError(sortDiags(diags));
  const object = buildObject(encoded, isa, metadata, vpuEncoded);
  return { object, programs: encoded, vpuPrograms: vpuEncoded, listing: wantListing ? makeListing(encoded, sources, vpuEncoded, isa.iterators) : '', diagnostics: sortDiags(diags) };
}

function sortDiags(ds: Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic): [string, number, number] => {
    const s = d.span as { file?: string; line?: number; column?: number } | undefined;
    return [s?.file ?? '', s?.line ?? 0, s?.column ?? 0];
  };
  return ds
    .map((d, i) => ({ d, i, k: key(d) }))
    .sort((a, b) => (a.k[0] < b.k[0] ? -1 : a.k[0] > b.k[0] ? 1 : a.k[1] - b.k[1] || a.k[2] - b.k[2] || a.i - b.i))
    .map((x) => x.d);
}

/** Assembles `.pasm` sources into a `.pobj` container (throws DiagnosticError on any error). */
export function assemble(input: SourceInput | SourceInput[], opts: AssembleOptions = {}): AssembleResult {
  const isa = opts.isa ?? loadPyxisIsa();
  const inputs = Array.isArray(input) ? input : [input];
  const { programs, vpuPrograms, diagnostics, sources, clean } = compileSources(inputs, { ...opts, isa });
  if (diagnostics.some((d) => d.severity === 'error')) {
    // Still encode and check the programs that compiled cleanly, so one run reports every rule violation.
    for (const p of clean) checkProgram(p, encodeProgram(p, diagnostics), diagnostics);
    throw new DiagnosticError(sortDiags(diagnostics));
  }
  return finishPrograms(programs, isa, diagnostics, sources, opts.listing !== false, { sources: inputs.map((s) => s.file) }, vpuPrograms);
}

/** Assembles canonical JSON IR (text or parsed) into an object, exactly like `.pasm` input. */
export function assembleIr(input: string | unknown, opts: AssembleOptions & { file?: string } = {}): AssembleResult {
  const isa = opts.isa ?? loadPyxisIsa();
  const file = opts.file ?? '<ir>';
  let json: unknown = input;
  if (typeof input === 'string') {
    const bin = binaryTextProblem(input);
    if (bin) throw new DiagnosticError(error('AS0106', binaryMessage(file, bin, 'JSON IR'), { span: { file, offset: bin.offset } }));
    opts.sources?.add(file, input);
    try {
      json = JSON.parse(input);
    } catch (e) {
      const msg = (e as Error).message;
      // point at the first offending character (V8's message does not always name it)
      let at: number | undefined;
      try {
        at = jsonSyntaxErrorOffset(input);
      } catch {
        at = undefined;
      }
      const m = /position (\d+)/.exec(msg);
      if (at === undefined && m) at = Number(m[1]);
      const span = at !== undefined ? { file, ...new JsonPositions(file, input, new Map()).position(at), length: 1 } : { file, line: 1, column: 1 };
      const what = at === undefined ? msg.replace(/\s+/g, ' ') : at >= input.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(input[at])}`;
      throw new DiagnosticError(error('AS0512', `IR is not valid JSON: ${what}`, { span }));
    }
  }
  const run = (positions: JsonPositions | undefined): AssembleResult => {
    const { programs, vpuPrograms } = irToPrograms(json, isa, file, positions);
    const diags: Diagnostic[] = [];
    const seen = new Set<string>();
    for (const p of programs) {
      const key = `${p.seq.name}.${p.name}`;
      if (seen.has(key)) diags.push(error('AS0218', `program \`${p.name}\` is defined twice for ${p.seq.name}`, { span: p.span ?? { file, line: 1, column: 1 } }));
      seen.add(key);
    }
    return finishPrograms(programs, isa, diags, opts.sources, opts.listing !== false, { sources: [file] }, vpuPrograms);
  };
  if (typeof input !== 'string') return run(undefined);
  // Value positions cost a scan and a map entry per JSON value (about 3x the
  // assembly time of a large IR), so the clean case runs without them; only
  // when there is something to report is the (deterministic) run repeated
  // with positions, so every diagnostic points at its JSON value.
  try {
    const r = run(undefined);
    if (r.diagnostics.length === 0) return r;
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
  }
  return run(jsonPositions(input, file));
}
