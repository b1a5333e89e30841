/**
 * Assembling a large source with bounded memory (issue 15: a 1,000,000-line file took 3.4 KB of RAM per line).
 * The whole-file path keeps every token, every AST node and every compiled instruction of the file alive until
 * the end. Here the file is lexed and parsed in pieces (`readSources` with `pieceChars`, split before top-level
 * `.program` / `.vpu` blocks), and each program is compiled, encoded and checked as soon as it is read; its AST
 * and bound values die young and only the encoded words and one span per instruction are kept.
 *
 * The result must be exactly the whole-file result, so this path gives up (returns undefined, and `assemble`
 * runs the whole-file path) whenever the two could differ or there is anything to report but warnings:
 * - a syntax or lexical error (the whole-file parser's error recovery sees the whole file);
 * - any error diagnostic (the whole-file path reports every error of every program, sorted);
 * - a `.const` after the first program (constants are global: an earlier program may use it);
 * - a `.vpu` program whose name is also a constant (resolution of names may depend on the order);
 * - a program or VPU program defined twice.
 * A program that names a VPU program defined after it gets an error here (the name is not known yet), so it
 * falls back too.
 */
import { SourceMap, type Diagnostic } from '@pyxis/diagnostics';
import { PiecewiseAbandoned, readSources, type SourceInput } from '@pyxis/asm';
import { checkProgram } from './checks.js';
import { compileProgram, compileVpuProgram } from './compile.js';
import { encodeProgram, encodeVpuProgram } from './encode.js';
import type { AssembleOptions, AssembleResult } from './assemble.js';
import { packPrograms } from './assemble.js';
import type { EncodedProgram, EncodedVpuProgram } from './program.js';

/** Sources longer than this (characters, all inputs together) are assembled piecewise. */
export const PIECEWISE_FROM_CHARS = 1 << 18;
/**
 * Characters per piece: small enough that a piece's tokens and AST (about 1 KB per line) die in V8's young
 * generation instead of being promoted and piling up in the old one (with 1 MiB pieces the peak RSS of a
 * 1,000,000-line file was about 2.5x its live heap).
 */
export const PIECE_CHARS = 1 << 16;

function hasError(diags: Diagnostic[], from: number): boolean {
  for (let i = from; i < diags.length; i++) if (diags[i]!.severity === 'error') return true;
  return false;
}

/** The result of `assemble` for large sources, or undefined when the whole-file path must run (see above). */
export function assemblePiecewise(inputs: SourceInput[], opts: AssembleOptions, pieceChars = PIECE_CHARS, fromChars = PIECEWISE_FROM_CHARS): AssembleResult | undefined {
  let total = 0;
  for (const s of inputs) total += s.text.length;
  if (total <= fromChars) return undefined;
  const isa = opts.isa;
  // a scratch map: on fallback the whole-file path registers the sources in the caller's map itself
  const sources = new SourceMap();
  const diags: Diagnostic[] = [];
  const encoded: EncodedProgram[] = [];
  const vpuEncoded: EncodedVpuProgram[] = [];
  const vpuNames = new Set<string>();
  const vpuLengths = new Map<string, number>();
  const seen = new Set<string>();
  const give = (why: string): never => {
    throw new PiecewiseAbandoned(why);
  };
  let set;
  try {
    set = readSources(inputs, {
      ...(opts.readFile ? { readFile: opts.readFile } : {}),
      ...(opts.includeDirs ? { includeDirs: opts.includeDirs } : {}),
      sources,
      pieceChars,
      onConst: () => {
        if (encoded.length || vpuEncoded.length) give('a constant defined after a program');
      },
      onProgram: (p, consts) => {
        const before = diags.length;
        if (p.vpu) {
          if (!p.name || vpuNames.has(p.name) || consts.values.has(p.name)) give('a VPU program name defined twice');
          vpuNames.add(p.name);
          const v = compileVpuProgram(p, isa, consts, diags);
          if (!v || hasError(diags, before)) give('an error');
          const e = encodeVpuProgram(v!, diags);
          if (hasError(diags, before)) give('an error');
          vpuEncoded.push(e);
          vpuLengths.set(v!.name, v!.insns.length);
          return;
        }
        const prog = compileProgram(p, isa, consts, diags, vpuNames, vpuLengths);
        if (!prog || hasError(diags, before)) give('an error');
        const key = `${prog!.seq.name}.${prog!.name}`;
        if (seen.has(key)) give('a program defined twice');
        seen.add(key);
        const e = encodeProgram(prog!, diags);
        checkProgram(prog!, e, diags);
        if (hasError(diags, before)) give('an error');
        encoded.push(e);
      },
    });
  } catch (e) {
    if (e instanceof PiecewiseAbandoned) return undefined;
    throw e;
  }
  // statements outside any `.program` (the implicit program) are left in `programs`: an error for Pyxis
  if (set.parseErrors || set.programs.length || hasError(set.diagnostics, 0)) return undefined;
  // the whole-file path registers every source read; so does this one, in the caller's map
  if (opts.sources) for (const f of sources.files()) opts.sources.add(f, sources.text(f)!);
  const all = [...set.diagnostics, ...diags];
  try {
    return packPrograms(encoded, vpuEncoded, isa, all, opts.sources ?? sources, opts.listing !== false, { sources: inputs.map((s) => s.file) });
  } catch {
    return undefined; // an error found when packing (AS0220): the whole-file path reports it with the rest
  }
}
