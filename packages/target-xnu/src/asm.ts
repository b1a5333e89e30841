/**
 * The XNU assembler back end. The shared statement language (@pyxis/asm)
 * carries one `job` statement per program block on the unit `pex8`:
 *
 *   .program nn_l2 pex8 {
 *     job op_type=L2, use_int=0, rounding=round_near_even, tininess=after_rounding, vec_len=128, num_vectors=1000, top_k=5
 *   }
 *
 * Operand names and values are the fields of grammars/xnu/xnu_job.json; the
 * binding below is local and small (operand -> field, enum name or constant
 * expression), to be replaced by the shared operand binding of @pyxis/asm.
 */
import { error, warning, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { FORMAT_VERSION, type Container } from '@pyxis/container';
import { encode, enumCode, lookupField, validate, type FieldValues } from '@pyxis/codec';
import { evalExpr, readSources, sortDiagnostics, type Instruction, type SourceInput } from '@pyxis/asm';
import type { SourceMap } from '@pyxis/diagnostics';
import { SPEC, XNU, decodeJob, jobTable, jobText, type Job } from './grammar.js';
import { OP_L1, OP_L2 } from './datapath.js';

export const UNIT = 'pex8';
export const JOB_SPACE = 'xnu.ctrl';

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

/** Binds a job statement's operands to descriptor values; problems are diagnostics at the operand. */
function bindJob(insn: Instruction, ctx: { consts: Parameters<typeof evalExpr>[1]['consts']; diags: Diagnostic[] }): FieldValues | undefined {
  const t = jobTable();
  const values: FieldValues = {};
  const spans = new Map<string, SourceSpan>();
  let ok = true;
  for (const a of insn.operands) {
    const f = lookupField(t, a.name);
    if (!f || f.reserved) {
      ctx.diags.push(error('XNU0102', `\`${a.name}\` is not a field of a job`, { span: a.nameSpan, notes: [`fields: ${t.fields.filter((x) => !x.reserved).map((x) => x.name).join(', ')}`], spec: SPEC }));
      ok = false;
      continue;
    }
    if (spans.has(f.name)) {
      ctx.diags.push(error('XNU0103', `\`${f.name}\` is given twice`, { span: a.nameSpan, secondary: [{ span: spans.get(f.name)!, label: 'first given here' }] }));
      ok = false;
      continue;
    }
    spans.set(f.name, a.span);
    if (a.value.kind !== 'expr' || a.index) {
      ctx.diags.push(error('XNU0104', `\`${f.name}\` takes one value, not a list or an element`, { span: a.value.span }));
      ok = false;
      continue;
    }
    const e = a.value.expr;
    if (f.enum && e.kind === 'name' && !ctx.consts.values.has(e.name)) {
      if (enumCode(f, e.name) === undefined) {
        const names = Object.keys(f.enum).concat(Object.keys(f.enum_aliases ?? {}));
        ctx.diags.push(error('XNU0105', `unknown ${f.name} \`${e.name}\``, { span: e.span, notes: [`expected one of: ${names.join(', ')}`], ...(f.spec ? { spec: `${SPEC} "${f.spec}"` } : {}) }));
        ok = false;
        continue;
      }
      values[f.name] = e.name;
      continue;
    }
    const v = evalExpr(e, { consts: ctx.consts, diags: ctx.diags });
    if (v === undefined) {
      ok = false;
      continue;
    }
    values[f.name] = v;
  }
  for (const req of ['op_type', 'vec_len', 'num_vectors']) {
    if (!(req in values) && ok) {
      ctx.diags.push(error('XNU0106', `a job needs \`${req}\``, { span: insn.mnemonicSpan, spec: SPEC }));
      ok = false;
    }
  }
  if (!ok) return undefined;
  for (const issue of validate(t, values)) {
    ctx.diags.push(error('XNU0107', issue.message, { span: spans.get(issue.field) ?? insn.span, spec: SPEC }));
    ok = false;
  }
  return ok ? values : undefined;
}

/** Hardware rules the field table cannot express (one beat = 16 lanes; a non-empty database). */
function checkJob(j: Job, insn: Instruction, spanOf: (f: string) => SourceSpan, diags: Diagnostic[]): boolean {
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
  if (j.use_int === 1)
    for (const f of ['rounding', 'tininess'])
      if (insn.operands.some((a) => a.name === f))
        diags.push(warning('XNU0115', `${f} is not used for integer inputs`, { span: spanOf(f), spec: `${SPEC} "ONLY for INT inputs"` }));
  return ok;
}

export function assembleXnu(inputs: SourceInput[], opts: { sources?: SourceMap; includeDirs?: string[]; listing?: boolean } = {}): XnuAssembleResult {
  const set = readSources(inputs, { ...(opts.sources ? { sources: opts.sources } : {}), includeDirs: opts.includeDirs ?? [] });
  const diags = [...set.diagnostics];
  const programs: XnuProgram[] = [];
  const seen = new Map<string, SourceSpan>();
  for (const p of set.programs) {
    if (!p.name) continue;
    if (p.seq !== UNIT) {
      diags.push(error('XNU0101', `unknown unit \`${p.seq}\`: XNU programs run on \`${UNIT}\``, { span: p.seqSpan, spec: `${SPEC} "Final design"` }));
      continue;
    }
    const prev = seen.get(p.name);
    if (prev) {
      diags.push(error('XNU0108', `program \`${p.name}\` is defined twice`, { span: p.nameSpan, secondary: [{ span: prev, label: 'first defined here' }] }));
      continue;
    }
    seen.set(p.name, p.nameSpan);
    const jobs = p.body.filter((s): s is Instruction => s.kind === 'insn');
    for (const s of p.body) if (s.kind !== 'insn') diags.push(error('XNU0109', 'loops are not part of an XNU program: a job streams its whole database', { span: s.span }));
    for (const s of jobs) if (s.mnemonic !== 'job') diags.push(error('XNU0100', `unknown statement \`${s.mnemonic}\`; an XNU program holds one \`job\``, { span: s.mnemonicSpan }));
    const good = jobs.filter((s) => s.mnemonic === 'job');
    if (good.length !== 1) {
      if (good.length > 1) diags.push(error('XNU0116', `program \`${p.name}\` has ${good.length} jobs; write one program per job`, { span: good[1]!.span }));
      else if (jobs.length === 0) diags.push(error('XNU0116', `program \`${p.name}\` has no job`, { span: p.nameSpan }));
      continue;
    }
    const insn = good[0]!;
    const values = bindJob(insn, { consts: set.consts, diags });
    if (!values) continue;
    const bytes = encode(jobTable(), values);
    const job = decodeJob(bytes);
    const spanOf = (f: string) => insn.operands.find((a) => lookupField(jobTable(), a.name)?.name === f)?.span ?? insn.span;
    if (!checkJob(job, insn, spanOf, diags)) continue;
    programs.push({ name: p.name, job, bytes, span: p.nameSpan });
  }
  const object = objectOf(programs, inputs.map((i) => i.file));
  const listing = opts.listing ? programs.map((p) => `${p.name}: ${hex(p.bytes)}  ; ${jobText(p.job)}`).join('\n') + '\n' : '';
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

/** The jobs of an object or image: (program name, job, section index). */
export function jobsOf(c: Container): Array<{ name: string; job: Job; section: number }> {
  const out: Array<{ name: string; job: Job; section: number }> = [];
  for (const s of c.symbols) {
    if (s.kind !== 'program') continue;
    const sec = c.sections[s.section];
    if (!sec || sec.space !== JOB_SPACE || sec.data.length < jobTable().bytes) continue;
    out.push({ name: s.name, job: decodeJob(sec.data, s.offset), section: s.section });
  }
  return out;
}

/** An object back to source. */
export function disassembleXnu(c: Container, file: string): string {
  const lines = [`// disassembled from ${file}`];
  for (const j of jobsOf(c)) lines.push(`.program ${j.name} ${UNIT} {`, `  job ${jobText(j.job)}`, '}');
  return lines.join('\n') + '\n';
}
