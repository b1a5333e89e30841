/**
 * Pyxis program compilation: `.program NAME SEQUENCER [at PC] { ... }` into
 * control and op values per instruction (the loop compiler of loops.ts, the
 * operand binding of bind.ts, raw `ctrl { }` overrides last), and
 * `.vpu NAME [at ADDR] { ... }` as a flat instruction stream of the VPU
 * instruction table (@pyxis/asm flat.ts).
 */
import type { CompiledTable, FieldValues } from '@pyxis/codec';
import { didYouMean, error, warning, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { compileFlatProgram, compileInstruction, bindOperands, evalExpr, type Consts, type ProgramDecl } from '@pyxis/asm';
import { PyxisOperands, type EvalCtx } from './bind.js';
import { SEQ_SPEC, vpuCountField, type Isa } from './isa.js';
import { flatten, loopControl, type LoopCtx, type LoopedInsn } from './loops.js';
import type { Program, ProgramInsn, SymbolRef, VpuProgram } from './program.js';

const S21 = `${SEQ_SPEC} §2.1`;

/** `.vpu NAME [at ADDR] { ... }`: straight-line VPU instructions (no loops: the VI sequencer loops, seq §12). */
export function compileVpuProgram(p: ProgramDecl, isa: Isa, consts: Consts, diags: Diagnostic[]): VpuProgram | undefined {
  const vpu = isa.vpu;
  if (!vpu) {
    diags.push(error('AS0219', 'this ISA has no VPU instruction table (grammars/pyxis/vpu_instr.json)', { span: p.nameSpan }));
    return undefined;
  }
  const ctx: EvalCtx = { consts, diags, iteratorSpec: S21 };
  const flat = compileFlatProgram(p, vpu, ctx, {
    memoryWords: vpu.words,
    spec: `${SEQ_SPEC} §12`,
    kind: 'VPU program',
    structureNote: 'loop over a VPU program with the VI sequencer (Generate_VPU_Program)',
    encode: false,
  });
  if (!flat) return undefined;
  const insns: ProgramInsn[] = flat.insns.map((i) => ({ ctrl: {}, op: i.values, span: i.span, fieldSpans: i.fieldSpans }));
  return { name: p.name, vpu, ...(flat.startAddr !== undefined ? { startAddr: flat.startAddr } : {}), insns, span: p.nameSpan };
}

/**
 * Compiles one sequencer program. `vpuNames` are the VPU programs operands may
 * name; `vpuLengths` (name -> instructions) lets an omitted
 * `vpv_pgm_instr_count` default to the length of the VPU program named by
 * `vpv_pgm_start_addr` (see `vpuCountField`).
 */
export function compileProgram(p: ProgramDecl, isa: Isa, consts: Consts, diags: Diagnostic[], vpuNames?: Set<string>, vpuLengths?: Map<string, number>): Program | undefined {
  if (p.implicit) {
    // each UIE sequencer has its own microcode memory (seq §3): a program must say which one it is for
    diags.push(
      error('AS0221', 'instructions outside a `.program` block: a Pyxis program names its sequencer', {
        span: p.nameSpan,
        notes: ['write `.program NAME SEQUENCER { ... }` around them', `sequencers: ${[...isa.sequencers.keys()].join(', ')}`],
        spec: `${SEQ_SPEC} §3`,
      }),
    );
    return undefined;
  }
  if (!p.seq || !p.name) return undefined;
  const seq = isa.sequencers.get(p.seq);
  if (!seq) {
    diags.push(error('AS0216', `unknown sequencer \`${p.seq}\``, { span: p.seqSpan, notes: [...didYouMean(p.seq, isa.sequencers.keys()), `sequencers: ${[...isa.sequencers.keys()].join(', ')}`] }));
    return undefined;
  }
  const ctx: EvalCtx = { consts, diags, iteratorSpec: S21, ...(vpuNames ? { vpuNames } : {}) };
  let startPc: number | undefined;
  if (p.at) {
    const v = evalExpr(p.at, ctx);
    if (v !== undefined) {
      if (v < 0n || v >= BigInt(isa.programWords)) diags.push(error('AS0314', `start PC ${v} outside the ${isa.programWords}-word microcode memory`, { span: p.at.span, spec: `${SEQ_SPEC} §3` }));
      else startPc = Number(v);
    }
  }
  const flat: LoopedInsn[] = [];
  flatten(p.body ?? [], [], flat, seq, isa, ctx);
  if (flat.length === 0) {
    diags.push(error('AS0315', `program \`${p.name}\` has no instructions`, { span: p.nameSpan }));
    return undefined;
  }
  if (flat.length > isa.programWords || (startPc ?? 0) + flat.length > isa.programWords) {
    diags.push(
      error('AS0316', `program \`${p.name}\` has ${flat.length} instructions${startPc ? ` from PC ${startPc}` : ''}; a sequencer holds ${isa.programWords} (sol_pc and StartPC are 5 bits)`, {
        span: p.nameSpan,
        spec: `${S21} Table 2-1`,
      }),
    );
  }
  const insns: ProgramInsn[] = [];
  const ctrlT = seq.control;
  const opHooks = new PyxisOperands(isa);
  const ctrlHooks = new PyxisOperands(isa);
  const ctrlWhat = `the ${seq.name} control word`;
  const enclosingCache = new Map<LoopCtx[], Set<number>>();
  flat.forEach((fi, pc) => {
    const ctrl = loopControl(fi, pc, flat.length, ctrlT);
    const a = fi.ast;
    const fieldSpans: Record<string, SourceSpan> = {};
    if (a.ctrl) {
      // control spans are kept as `ctrl.<field>` beside the op fields' spans (for the rule checks' carets)
      const ctrlSpans: Record<string, SourceSpan> = {};
      const over = bindOperands(a.ctrl, ctrlT, ctx, ctrlWhat, { spans: ctrlSpans, hooks: ctrlHooks });
      for (const k in ctrlSpans) fieldSpans[`ctrl.${k}`] = ctrlSpans[k]!;
      Object.assign(ctrl, over);
    }
    let enclosing = enclosingCache.get(fi.loops);
    if (!enclosing) enclosingCache.set(fi.loops, (enclosing = new Set(fi.loops.map((l) => l.iter))));
    // raw control overrides may set loops by hand: the enclosing-loop checks are off there
    opHooks.enclosing = a.ctrl ? undefined : enclosing;
    const refs: SymbolRef[] = [];
    ctx.refs = refs;
    const op = compileInstruction(a, seq, ctx, { spans: fieldSpans, hooks: opHooks });
    ctx.refs = undefined;
    for (const r of refs) fillVpuCount(seq.op, r, op, fieldSpans, vpuLengths, diags);
    insns.push({ ctrl, op, span: a.mnemonicSpan, fieldSpans, ...(refs.length ? { refs } : {}), ...(a.operands?.length ? { operands: a.operands } : {}) });
  });
  return { name: p.name, seq, ...(startPc !== undefined ? { startPc } : {}), insns, span: p.nameSpan };
}

/** `vpv_pgm_instr_count` omitted: the length of the named VPU program; given: warn if it runs past the program's end. */
function fillVpuCount(t: CompiledTable, r: SymbolRef, op: FieldValues, spans: Record<string, SourceSpan>, lengths: Map<string, number> | undefined, diags: Diagnostic[]): void {
  const cf = vpuCountField(t, r.field);
  const name = r.symbol.replace(/^vpu\./, '');
  const len = lengths?.get(name);
  if (!cf || len === undefined) return;
  const given = op[cf.name];
  if (given === undefined) {
    if (BigInt(len) >= cf.min && BigInt(len) <= cf.max) op[cf.name] = BigInt(len);
  } else if (BigInt(given as bigint) > BigInt(len)) {
    const span = spans[cf.name];
    diags.push(
      warning('AS0420', `${cf.name} = ${given} runs past the end of VPU program \`${name}\` (${len} instruction${len === 1 ? '' : 's'})`, {
        ...(span ? { span } : {}),
        notes: [`omit ${cf.name} to use the program's length`],
        spec: `${SEQ_SPEC} §12.1`,
      }),
    );
  }
}
