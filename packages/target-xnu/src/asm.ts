/**
 * The XNU assembler back end on the shared front end (@pyxis/asm: readSources,
 * compileFlatProgram, operand binding): a program is one `job` statement, its
 * operands the fields of grammars/xnu/xnu_job.json (enum names, constants,
 * expressions, range checks and did-you-mean as in every target). The PEx8 is
 * one unit, so the natural form is a top-level job (the implicit program
 * `main`); named programs are `.program NAME pex8 { job ... }`:
 *
 *   job op_type=L2, use_int=0, rounding=round_near_even, vec_len=128, num_vectors=1000, top_k=5
 *
 * What the table cannot say (required fields, vec_len a multiple of 16, ...)
 * is checked here.
 */
import { error, warning, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { FORMAT_VERSION, type Container } from '@pyxis/container';
import { encode, validate, type FieldValues } from '@pyxis/codec';
import { compileFlatProgram, flatListing, readSources, sortDiagnostics, type OpSpace, type SourceInput } from '@pyxis/asm';
import type { SourceMap } from '@pyxis/diagnostics';
import { SPEC, XNU, decodeJob, jobTable, jobText, unnamedRoundingWarning, type Job } from './grammar.js';
import { OP_L1, OP_L2 } from './datapath.js';

export const UNIT = 'pex8';
import { JOB_SPACE, jobsOf } from './jobs.js';
export { JOB_SPACE, jobsOf };

export interface XnuProgram {
  name: string;
  job: Job;
  bytes: Uint8Array;
  span: SourceSpan;
}

export interface XnuAssembleResult {
  object: Container;
  programs: XnuProgram[];
  diagnostics: Diagnostic[];
  listing: string;
}

let space: OpSpace | undefined;
/** The job word as an instruction space: one mnemonic, `job`, that sets no field. */
function jobSpace(): OpSpace {
  return (space ??= { title: 'XNU job', op: jobTable(), mnemonics: new Map([['job', 0]]) });
}

/** Required fields and the table's cross-field rules; problems are diagnostics at the operand. */
function checkValues(values: FieldValues, insnSpan: SourceSpan, spans: Record<string, SourceSpan>, diags: Diagnostic[]): boolean {
  let ok = true;
  for (const req of ['op_type', 'vec_len', 'num_vectors']) {
    if (!(req in values)) {
      diags.push(error('XNU0106', `a job needs \`${req}\``, { span: insnSpan, spec: SPEC }));
      ok = false;
    }
  }
  if (!ok) return false;
  for (const issue of validate(jobTable(), values)) {
    diags.push(error('XNU0107', issue.message, { span: spans[issue.field] ?? insnSpan, spec: SPEC }));
    ok = false;
  }
  return ok;
}

/** Hardware rules the field table cannot express (one beat = 16 lanes; a non-empty database). */
function checkJob(j: Job, given: Record<string, SourceSpan>, insnSpan: SourceSpan, diags: Diagnostic[]): boolean {
  const spanOf = (f: string) => given[f] ?? insnSpan;
  let ok = true;
  if (j.vec_len === 0 || j.vec_len % 16 !== 0) {
    diags.push(
      error('XNU0110', `vec_len ${j.vec_len} is not a positive multiple of 16`, {
        span: spanOf('vec_len'),
        notes: ['one beat feeds 8 PEs x 2 lanes of 32 bits (two 64-bit DDR channels); pad vectors with zeros to a multiple of 16'],
        spec: `${SPEC} "Input ports" (Xi_0_in_0 .. Yi_7_in_1)`,
      }),
    );
    ok = false;
  }
  if (j.num_vectors === 0) {
    diags.push(error('XNU0111', 'num_vectors is 0: the database is empty', { span: spanOf('num_vectors'), notes: ['a job streams at least one database vector from DDR'] }));
    ok = false;
  }
  if (j.top_k > 0 && j.op_type !== OP_L2 && j.op_type !== OP_L1) {
    diags.push(error('XNU0112', 'top_k is for the distance operations (L2, L1)', { span: spanOf('top_k') }));
    ok = false;
  } else if (j.top_k > j.num_vectors && j.num_vectors > 0) {
    diags.push(error('XNU0113', `top_k ${j.top_k} exceeds num_vectors ${j.num_vectors}`, { span: spanOf('top_k') }));
    ok = false;
  }
  if (j.top_k > 0 && j.op_type === OP_L1 && j.l1_mode === 0)
    diags.push(warning('XNU0117', 'top_k ranks the signed L1 sums the hardware computes, not distances; l1_mode=abs gives the textbook |x - y|', { span: spanOf('top_k') }));
  if (j.l1_mode !== 0 && j.op_type !== OP_L1) diags.push(warning('XNU0114', 'l1_mode only affects op_type L1', { span: spanOf('l1_mode') }));
  const rw = unnamedRoundingWarning('XNU0118', j, spanOf('rounding'), '');
  if (rw) diags.push(rw);
  if (j.use_int === 1)
    for (const f of ['rounding', 'tininess'])
      if (given[f]) diags.push(warning('XNU0115', `${f} is not used for integer inputs`, { span: spanOf(f), spec: `${SPEC} "ONLY for INT inputs"` }));
  return ok;
}

export function assembleXnu(inputs: SourceInput[], opts: { sources?: SourceMap; includeDirs?: string[]; listing?: boolean } = {}): XnuAssembleResult {
  const set = readSources(inputs, { ...(opts.sources ? { sources: opts.sources } : {}), includeDirs: opts.includeDirs ?? [] });
  const diags = [...set.diagnostics];
  const programs: XnuProgram[] = [];
  const listings: string[] = [];
  const seen = new Map<string, SourceSpan>();
  const ctx = { consts: set.consts, diags };
  for (const p of set.programs) {
    if (!p.name) continue;
    if (!p.implicit && p.seq !== UNIT) {
      diags.push(error('XNU0101', `unknown unit \`${p.seq}\`: XNU programs run on \`${UNIT}\``, { span: p.seqSpan, notes: ['the PEx8 is the one unit: write the job at top level, or `.program NAME pex8 { job ... }`'], spec: `${SPEC} "Final design"` }));
      continue;
    }
    const prev = seen.get(p.name);
    if (prev) {
      diags.push(error('XNU0108', `program \`${p.name}\` is defined twice`, { span: p.nameSpan, secondary: [{ span: prev, label: 'first defined here' }] }));
      continue;
    }
    seen.set(p.name, p.nameSpan);
    const first = diags.length;
    const flat = compileFlatProgram(p, jobSpace(), ctx, { kind: 'program', encode: false, structureNote: 'a job streams its whole database: one `job` per program' });
    // the shared binder cites a field's own section; XNU cites it inside the spec document
    for (let i = first; i < diags.length; i++) {
      const d = diags[i]!;
      if (d.spec && !d.spec.startsWith(SPEC)) diags[i] = { ...d, spec: `${SPEC} "${d.spec}"` };
    }
    if (!flat) continue;
    if (flat.insns.length > 1) {
      diags.push(error('XNU0116', `program \`${p.name}\` has ${flat.insns.length} jobs; write one program per job`, { span: flat.insns[1]!.ast.span }));
      continue;
    }
    if (diags.slice(first).some((d) => d.severity === 'error')) continue;
    const insn = flat.insns[0]!;
    if (!checkValues(insn.values, insn.ast.span, insn.fieldSpans, diags)) continue;
    const bytes = encode(jobTable(), insn.values);
    const job = decodeJob(bytes);
    const given: Record<string, SourceSpan> = {};
    for (const [f, s] of Object.entries(insn.fieldSpans)) {
      const a = insn.ast.operands.find((o) => o.nameSpan === s);
      given[f] = a?.span ?? s;
    }
    if (!checkJob(job, given, insn.ast.span, diags)) continue;
    programs.push({ name: p.name, job, bytes, span: p.nameSpan });
    if (opts.listing) listings.push(flatListing({ ...flat, words: bytes, stride: bytes.length }, opts.sources));
  }
  const object = objectOf(programs, inputs.map((i) => i.file));
  // the shared flat listing (PC, the descriptor as a number in hex, the source line), one block per program
  const listing = opts.listing ? listings.join('') : '';
  return { object, programs, diagnostics: sortDiagnostics(diags), listing };
}

export function hex(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
}

/** The `.pobj`: one descriptor section and one program symbol per job. */
export function objectOf(programs: XnuProgram[], sources: string[]): Container {
  return {
    kind: 'pobj',
    version: FORMAT_VERSION,
    target: XNU,
    sections: programs.map((p) => ({ name: `job.${p.name}`, kind: 'descriptors' as const, space: JOB_SPACE, address: 0, size: p.bytes.length, align: 4, flags: 0, data: p.bytes })),
    symbols: programs.map((p, i) => ({ name: p.name, kind: 'program' as const, section: i, offset: 0, size: p.bytes.length, global: true })),
    relocations: [],
    metadata: { producer: 'pyxis-as --target xnu', sources, table: 'grammars/xnu/xnu_job.json' },
  };
}

/** An object back to source. */
export function disassembleXnu(c: Container, file: string): string {
  const lines = [`// disassembled from ${file}`];
  const jobs = jobsOf(c);
  // one job called `main` (the implicit program) prints at top level, the natural form
  if (jobs.length === 1 && jobs[0]!.name === 'main') lines.push(`job ${jobText(jobs[0]!.job)}`);
  else for (const j of jobs) lines.push(`.program ${j.name} ${UNIT} {`, `  job ${jobText(j.job)}`, '}');
  return lines.join('\n') + '\n';
}
