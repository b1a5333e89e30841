/** The assembler pipeline: sources -> tokens -> AST -> programs -> words -> object (+ listing). */
import { DiagnosticError, SourceMap, error, type Diagnostic } from '@pyxis/diagnostics';
import type { Container } from '@pyxis/container';
import { readSources, sortDiagnostics, binaryTextProblem, binaryMessage, type ProgramDecl, type SourceInput } from '@pyxis/asm';
import { checkProgram } from './checks.js';
import { encodeProgram } from './encode.js';
import type { Isa } from './isa.js';
import { listingChunks, makeListing } from './listing.js';
import { buildObject } from './object.js';
import type { EncodedProgram, EncodedVpuProgram, Program, VpuProgram } from './program.js';
import { compileProgram, compileVpuProgram } from './compile.js';
import { encodeVpuProgram } from './encode.js';
import { irToPrograms } from './ir.js';
import { assemblePiecewise } from './piecewise.js';
import { JsonPositions, jsonPositions, jsonSyntaxErrorOffset } from '@pyxis/asm';

export type { SourceInput };

export interface AssembleOptions {
  /** The ISA (the Target passes `loadPyxisIsa()`; tests may pass a fixture). */
  isa: Isa;
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
  /** The listing in chunks, produced as they are read (whether or not `listing` was asked for): what the driver streams to a file. */
  listingChunks(): Iterable<string>;
  /** Warnings (errors are thrown as DiagnosticError). */
  diagnostics: Diagnostic[];
}

/** Parses sources (following `.include`) and compiles their programs; no encoding. */
export function compileSources(
  inputs: SourceInput[],
  opts: AssembleOptions,
): { programs: Program[]; vpuPrograms: VpuProgram[]; diagnostics: Diagnostic[]; sources: SourceMap; clean: Program[] } {
  const isa = opts.isa;
  const sources = opts.sources ?? new SourceMap();
  const set = readSources(inputs, { ...(opts.readFile ? { readFile: opts.readFile } : {}), ...(opts.includeDirs ? { includeDirs: opts.includeDirs } : {}), sources });
  const diags: Diagnostic[] = set.diagnostics;
  const consts = set.consts;
  const programs: Program[] = [];
  const seen = new Map<string, Program>();
  const parseErrors = set.parseErrors;
  const dirty = new Set<Program>();
  /** Programs are compiled after every file is read, so constants are global and VPU programs can be referenced before they are defined. */
  const pending: ProgramDecl[] = set.programs;

  const compilePending = (it: ProgramDecl, vpuLengths: Map<string, number>): void => {
    let p: Program | undefined;
    // only the diagnostics this program added are looked at (warnings pile up over thousands of programs)
    const before = diags.length;
    try {
      p = compileProgram(it, isa, consts, diags, vpuNames, vpuLengths);
      if (p && hasError(diags, before)) dirty.add(p);
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

function hasError(diags: Diagnostic[], from: number): boolean {
  for (let i = from; i < diags.length; i++) if (diags[i]!.severity === 'error') return true;
  return false;
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
  return packPrograms(encoded, vpuEncoded, isa, diags, sources, wantListing, metadata);
}

/** Encoded programs into the object (VPU references checked, AS0220); throws DiagnosticError if anything is wrong. */
export function packPrograms(
  encoded: EncodedProgram[],
  vpuEncoded: EncodedVpuProgram[],
  isa: Isa,
  diags: Diagnostic[],
  sources: SourceMap | undefined,
  wantListing: boolean,
  metadata: Record<string, unknown>,
): AssembleResult {
  const vpuNames = new Set(vpuEncoded.map((v) => `vpu.${v.name}`));
  for (const e of encoded)
    for (const r of e.refs)
      if (!vpuNames.has(r.symbol)) diags.push(error('AS0220', `program \`${e.name}\` refers to unknown VPU program \`${r.symbol.slice(4)}\``, { ...(e.spans[r.pc] ? { span: e.spans[r.pc]! } : {}) }));
  if (diags.some((d) => d.severity === 'error')) throw new DiagnosticError(sortDiagnostics(diags));
  const object = buildObject(encoded, isa, metadata, vpuEncoded);
  return {
    object,
    programs: encoded,
    vpuPrograms: vpuEncoded,
    listing: wantListing ? makeListing(encoded, sources, vpuEncoded, isa.iterators) : '',
    listingChunks: () => listingChunks(encoded, sources, vpuEncoded, isa.iterators),
    diagnostics: sortDiagnostics(diags),
  };
}

/** Assembles `.pasm` sources into a `.pobj` container (throws DiagnosticError on any error). */
export function assemble(input: SourceInput | SourceInput[], opts: AssembleOptions): AssembleResult {
  const isa = opts.isa;
  const inputs = Array.isArray(input) ? input : [input];
  // large sources: read piece by piece, each program compiled and encoded as it is read (same result, bounded memory)
  const piecewise = assemblePiecewise(inputs, opts);
  if (piecewise) return piecewise;
  const { programs, vpuPrograms, diagnostics, sources, clean } = compileSources(inputs, { ...opts, isa });
  if (diagnostics.some((d) => d.severity === 'error')) {
    // Still encode and check the programs that compiled cleanly, so one run reports every rule violation.
    for (const p of clean) checkProgram(p, encodeProgram(p, diagnostics), diagnostics);
    throw new DiagnosticError(sortDiagnostics(diagnostics));
  }
  return finishPrograms(programs, isa, diagnostics, sources, opts.listing !== false, { sources: inputs.map((s) => s.file) }, vpuPrograms);
}

/** Assembles canonical JSON IR (text or parsed) into an object, exactly like `.pasm` input. */
export function assembleIr(input: string | unknown, opts: AssembleOptions & { file?: string }): AssembleResult {
  const isa = opts.isa;
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
