/**
 * Semantic passes over the AST: constants and expressions, programs and
 * their sequencer, operands against the op table, and the structured-loop
 * compiler (seq-fspec §2.1) that turns `loop` nests into is_eol / sol_pc /
 * numloops / numloops_final / final_iter_mask / post_final_enbl on every
 * instruction, then the raw `ctrl { ... }` overrides.
 */
import { defaultUserValue, enumCode, lookupField, resolveScalar, legalRange, type CompiledField, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { didYouMean, error, warning, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { Consts, evalExpr, defineConst, ITER_RE, type Assign, type EvalCtx as BaseEvalCtx, type Expr, type Instruction, type LoopStmt, type ProgramDecl, type Stmt } from '@pyxis/asm';

export { Consts, evalExpr, defineConst };
import { isIterIdField, isIterMaskField, iterField, vpuCountField, type Isa, type SequencerInfo } from './isa.js';
import { vpuSymbol, type Program, type ProgramInsn, type SymbolRef, type VpuProgram } from './program.js';
import type { VpuInfo } from './isa.js';

export const SEQ_SPEC = 'pyxis-uie-sequencers-fspec.md';
const S21 = `${SEQ_SPEC} §2.1`;

/** The Pyxis evaluation context: the generic one plus VPU-program references (relocated by the linker). */
export interface EvalCtx extends BaseEvalCtx {
  /** Names of VPU programs (op values may refer to them; relocated). */
  vpuNames?: Set<string>;
  /** Collects VPU-program references of the instruction being compiled. */
  refs?: SymbolRef[];
}

// ---------------------------------------------------------------------------
// Loops (seq-fspec §2.1)

interface LoopCtx {
  iter: number;
  count: bigint;
  final?: bigint;
  mask: number;
  postFinal: boolean;
  start: number;
  end: number;
}

interface FlatInsn {
  ast: Instruction;
  loops: LoopCtx[];
}

/** Snapshot of the loop stack shared by consecutive instructions at the same nesting (fewer allocations). */
interface Snap {
  loops: LoopCtx[] | null;
}

function flatten(stmts: Stmt[], stack: LoopCtx[], out: FlatInsn[], seq: SequencerInfo, isa: Isa, ctx: EvalCtx, snap: Snap = { loops: null }): void {
  for (const s of stmts) {
    if (!s || typeof s !== 'object') continue;
    if (s.kind === 'insn') {
      snap.loops ??= stack.slice();
      out.push({ ast: s, loops: snap.loops });
      continue;
    }
    const loop = compileLoopHeader(s, stack, seq, isa, ctx);
    if (!loop) {
      flatten(s.body ?? [], stack, out, seq, isa, ctx, snap);
      continue;
    }
    loop.start = out.length;
    stack.push(loop);
    snap.loops = null;
    flatten(s.body ?? [], stack, out, seq, isa, ctx, snap);
    stack.pop();
    snap.loops = null;
    loop.end = out.length - 1;
    if (loop.end < loop.start) ctx.diags.push(error('AS0302', 'empty loop: a loop needs at least one instruction (its first instruction is sol_pc, its last is_eol)', { span: s.span, spec: S21 }));
  }
}

function compileLoopHeader(s: LoopStmt, stack: LoopCtx[], seq: SequencerInfo, isa: Isa, ctx: EvalCtx): LoopCtx | undefined {
  const parent = stack[stack.length - 1];
  const d = ctx.diags;
  let iter: number;
  if (s.iterator) {
    if (s.iterator.kind !== 'name' || !ITER_RE.test(s.iterator.name)) {
      d.push(error('AS0303', 'expected an iterator name `i0`..`i5` before the loop count', { span: s.iterator.span, spec: S21 }));
      return undefined;
    }
    iter = Number(ITER_RE.exec(s.iterator.name)![1]);
    if (iter >= isa.iterators) {
      d.push(error('AS0301', `iterator \`${s.iterator.name}\` does not exist: there are ${isa.iterators} iterators (i0..i${isa.iterators - 1})`, { span: s.iterator.span, spec: S21 }));
      return undefined;
    }
    if (parent && iter <= parent.iter) {
      d.push(
        error('AS0304', `loop on \`i${iter}\` is nested inside the loop on \`i${parent.iter}\`: inner loops must use higher-numbered iterators`, {
          span: s.iterator.span,
          label: `use i${parent.iter + 1} or higher`,
          notes: ['iterator 0 is the outermost loop, and each nested inner loop must use a higher-numbered iterator; this is a hardware requirement'],
          spec: S21,
        }),
      );
      return undefined;
    }
  } else {
    iter = parent ? parent.iter + 1 : 0;
    if (iter >= isa.iterators) {
      d.push(error('AS0305', `too many nested loops: the sequencers have ${isa.iterators} iterators`, { span: s.span, spec: S21 }));
      return undefined;
    }
  }
  const ctrl = seq.control;
  const nl = ctrl.byName.get(iterField(iter, 'numloops'));
  const count = evalExpr(s.count, ctx);
  if (count === undefined) return undefined;
  if (nl) {
    const r = resolveScalar(nl, count);
    if (typeof r === 'string') {
      d.push(error('AS0306', `loop count ${count} out of range: numloops is ${legalRange(nl)}`, { span: s.count.span, spec: `${S21} Table 2-1` }));
      return undefined;
    }
  }
  const loop: LoopCtx = { iter, count, mask: 0, postFinal: false, start: 0, end: 0 };
  if (s.final) {
    const fin = evalExpr(s.final, ctx);
    const maskField = ctrl.byName.get(iterField(iter, 'final_iter_mask'));
    if (!maskField) {
      d.push(error('AS0307', `iterator ${iter} has no final_iter_mask: it has no outer loops, so it cannot use numloops_final`, { span: s.final.span, spec: `${S21}.1` }));
    } else if (fin !== undefined) {
      const nf = ctrl.byName.get(iterField(iter, 'numloops_final'));
      if (nf && typeof resolveScalar(nf, fin) === 'string') d.push(error('AS0306', `final count ${fin} out of range: numloops_final is ${legalRange(nf)}`, { span: s.final.span, spec: `${S21} Table 2-1` }));
      else {
        if (fin > count) d.push(warning('AS0308', `final count ${fin} exceeds the loop count ${count}; the loop always ends at ${count}`, { span: s.final.span, spec: `${S21}.4` }));
        loop.final = fin;
        if (s.when) {
          for (const w of s.when) {
            const ok = w && w.kind === 'name' && ITER_RE.test(w.name);
            const j = ok ? Number(ITER_RE.exec(w.name)![1]) : -1;
            if (!ok || !stack.some((l) => l.iter === j)) {
              d.push(
                error('AS0309', `\`when\` must name enclosing (outer) loop iterators; \`${exprText(w)}\` is not one`, {
                  span: w?.span ?? s.whenSpan ?? s.span,
                  notes: [`enclosing loops here: ${stack.length ? stack.map((l) => `i${l.iter}`).join(', ') : 'none'}`],
                  spec: `${S21}.1.1`,
                }),
              );
              continue;
            }
            loop.mask |= 1 << j;
          }
          if (s.when.length === 0) d.push(warning('AS0310', '`when []` gives an empty final_iter_mask: numloops_final is ignored', { span: s.whenSpan ?? s.span, spec: S21 }));
        } else {
          // Default: final when every enclosing loop is in its final iteration (cascades, §2.1.1.1).
          for (const l of stack) loop.mask |= 1 << l.iter;
          if (stack.length === 0) d.push(error('AS0307', 'a loop with `final` needs an enclosing loop whose final iteration selects it', { span: s.final.span, spec: `${S21}.1` }));
        }
      }
    }
  }
  if (s.postFinal) {
    if (!seq.postFinal) {
      d.push(error('AS0311', `post_final is only supported by the AMEM Read, AMEM Write and AMEM Weights Read sequencers, not ${seq.title}`, { span: s.postFinalSpan ?? s.span, spec: `${S21}.2` }));
    } else if (loop.final === undefined) {
      d.push(warning('AS0312', 'post_final without `final N`: there is no final count to run past', { span: s.postFinalSpan ?? s.span, spec: `${S21}.2` }));
    } else loop.postFinal = true;
  }
  return loop;
}

function exprText(e: Expr | undefined): string {
  if (!e) return '?';
  if (e.kind === 'name') return e.name;
  if (e.kind === 'num') return String(e.value);
  return 'expression';
}

// ---------------------------------------------------------------------------
// Operands

/** Resolves a list of `name = value` assignments against a table. */
export function resolveAssigns(
  assigns: Assign[],
  table: CompiledTable,
  isa: Isa,
  ctx: EvalCtx,
  what: string,
  opts: { enclosing?: Set<number>; skip?: Set<string>; spans?: Record<string, SourceSpan> } = {},
): FieldValues {
  const out: FieldValues = {};
  // a handful of operands per instruction: small arrays beat a Map/Set per instruction here
  const seenKeys: string[] = [];
  const seenSpans: SourceSpan[] = [];
  const indexed: string[] = [];
  for (const a of assigns) {
    if (!a || !a.name || !a.value) continue;
    const f = lookupField(table, a.name);
    if (!f || f.reserved) {
      const cands = table.fields.filter((x) => !x.reserved).flatMap((x) => [x.name, ...(x.aliases ?? [])]);
      ctx.diags.push(error('AS0206', `unknown field \`${a.name}\` for ${what}`, { span: a.nameSpan, label: `not a field of ${table.name}`, notes: didYouMean(a.name, cands) }));
      continue;
    }
    if (opts.skip?.has(f.name)) {
      ctx.diags.push(error('AS0207', `\`${f.name}\` is set by the mnemonic; use \`op\` to set it by hand`, { span: a.nameSpan }));
      continue;
    }
    const key = a.index ? `${f.name}[${exprText(a.index)}]` : f.name;
    if (seenKeys.includes(key) || (a.index === undefined && indexed.includes(f.name)) || (a.index !== undefined && seenKeys.includes(f.name))) {
      const aliasNote = f.aliases?.length ? [`\`${f.name}\` is also written ${f.aliases.map((x) => `\`${x}\``).join(' or ')} (aliases of the spec name)`] : [];
      ctx.diags.push(error('AS0208', `\`${key}\` is set twice`, { span: a.nameSpan, notes: aliasNote, secondary: [{ span: seenSpans[seenKeys.indexOf(key)] ?? seenSpans[seenKeys.indexOf(f.name)] ?? a.nameSpan, label: 'first set here' }] }));
      continue;
    }
    seenKeys.push(key);
    seenSpans.push(a.nameSpan);
    if (a.index) indexed.push(f.name);
    if (opts.spans) opts.spans[f.name] ??= a.nameSpan;
    if (a.index) {
      if (f.count <= 1) {
        ctx.diags.push(error('AS0209', `\`${f.name}\` is not an array field; remove the index`, { span: a.nameSpan }));
        continue;
      }
      const idx = evalExpr(a.index, ctx, isa.iterators);
      if (idx === undefined) continue;
      if (idx < 0n || idx >= BigInt(f.count)) {
        ctx.diags.push(error('AS0210', `index ${idx} out of range for \`${f.name}\` (0..${f.count - 1})`, { span: a.index.span }));
        continue;
      }
      const v = scalarValue(f, a.value, isa, ctx, opts.enclosing);
      if (v === undefined) continue;
      let arr = out[f.name];
      if (!Array.isArray(arr)) {
        arr = defaultArray(f);
        out[f.name] = arr;
      }
      arr[Number(idx)] = v;
      continue;
    }
    if (f.count > 1) {
      if (a.value.kind !== 'list') {
        ctx.diags.push(error('AS0211', `\`${f.name}\` has ${f.count} elements: give a list \`[a, b, ...]\` or set one element \`${f.name}[i] = v\``, { span: a.value.span }));
        continue;
      }
      if (a.value.items.length > f.count) {
        ctx.diags.push(error('AS0212', `\`${f.name}\` has ${f.count} elements, got ${a.value.items.length}`, { span: a.value.span }));
        continue;
      }
      const arr = defaultArray(f);
      let ok = true;
      a.value.items.forEach((it, i) => {
        const v = scalarValue(f, { kind: 'expr', expr: it, span: it?.span ?? a.value.span }, isa, ctx, opts.enclosing);
        if (v === undefined) ok = false;
        else arr[i] = v;
      });
      if (ok) out[f.name] = arr;
      continue;
    }
    const v = scalarValue(f, a.value, isa, ctx, opts.enclosing);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

const defaultArrays = new WeakMap<CompiledField, bigint[]>();

/** A fresh copy of an array field's default elements (computed once per field). */
function defaultArray(f: CompiledField): bigint[] {
  let arr = defaultArrays.get(f);
  if (!arr) {
    arr = [];
    for (let i = 0; i < f.count; i++) {
      const d = Array.isArray(f.default) ? resolveScalar(f, f.default[i]) : defaultUserValue(f);
      arr.push(typeof d === 'string' ? 0n : d);
    }
    defaultArrays.set(f, arr);
  }
  return arr.slice();
}

function scalarValue(f: CompiledField, v: Assign['value'], isa: Isa, ctx: EvalCtx, enclosing?: Set<number>): bigint | undefined {
  if (v.kind === 'list') {
    if (!isIterMaskField(isa, f)) {
      ctx.diags.push(error('AS0213', `\`${f.name}\` takes a single value, not a list`, { span: v.span, notes: f.enum ? [`expected ${legalRange(f)}`] : [] }));
      return undefined;
    }
    let mask = 0n;
    for (const it of v.items) {
      if (!it) continue;
      if (it.kind !== 'name' || !ITER_RE.test(it.name)) {
        ctx.diags.push(error('AS0214', `iterator lists name iterators (\`i0\`..\`i${isa.iterators - 1}\`), got \`${exprText(it)}\``, { span: it.span }));
        return undefined;
      }
      const j = Number(ITER_RE.exec(it.name)![1]);
      if (j >= isa.iterators) {
        ctx.diags.push(error('AS0301', `iterator \`${it.name}\` does not exist`, { span: it.span, spec: S21 }));
        return undefined;
      }
      if (enclosing && !enclosing.has(j)) {
        ctx.diags.push(
          error('AS0313', `\`${f.name}\` names \`${it.name}\`, which is not a loop enclosing this instruction`, {
            span: it.span,
            notes: [`enclosing loops here: ${enclosing.size ? [...enclosing].sort().map((x) => `i${x}`).join(', ') : 'none'}`],
            spec: S21,
          }),
        );
        return undefined;
      }
      mask |= 1n << BigInt(j);
    }
    return mask;
  }
  const e = v.expr;
  if (!e) return undefined;
  const isRef = e.kind === 'name' && !ctx.consts.values.has(e.name) && !!ctx.vpuNames?.has(e.name) && enumCode(f, e.name) === undefined;
  if (isRef && e.kind === 'name') {
    // the address of a VPU program: program-relative 0 here, the linker (or the patch blob) adds its placement
    ctx.refs?.push({ field: f.name, symbol: vpuSymbol(e.name) });
    return 0n;
  }
  if (f.enum && e.kind === 'name' && !ctx.consts.values.has(e.name)) {
    const code = enumCode(f, e.name);
    if (code !== undefined) return BigInt(code);
    ctx.diags.push(error('AS0215', `\`${e.name}\` is not a value of \`${f.name}\``, { span: e.span, label: `expected ${legalRange(f)}`, notes: didYouMean(e.name, Object.keys(f.enum)), ...(f.spec ? { spec: f.spec } : {}) }));
    return undefined;
  }
  const n = evalExpr(e, ctx, isIterIdField(f) ? isa.iterators : undefined);
  if (n === undefined) return undefined;
  const r = resolveScalar(f, n);
  if (typeof r === 'string') {
    // the field's own spec section (from the table) is where its width and range come from
    ctx.diags.push(error('AS0401', r, { span: v.span, label: `legal: ${legalRange(f)}`, ...(f.spec ? { spec: f.spec } : {}) }));
    return undefined;
  }
  if (enclosing && isIterIdField(f) && !enclosing.has(Number(r))) {
    // An iterator-select field reads the count of the iterator it names; an
    // iterator whose loop does not enclose the instruction is not counting here
    // (its value is whatever it last held), so this is almost surely a slip.
    // Only explicit values are checked: defaults (i0) of unused features are not.
    const what = e.kind === 'name' && /^i[0-9]+$/.test(e.name) ? `\`${e.name}\`` : `iterator ${r} (\`i${r}\`)`;
    ctx.diags.push(
      warning('AS0320', `\`${f.name}\` selects ${what}, which is not a loop enclosing this instruction`, {
        span: v.span,
        notes: [`enclosing loops here: ${enclosing.size ? [...enclosing].sort().map((x) => `i${x}`).join(', ') : 'none'}`],
        spec: f.spec ?? S21,
      }),
    );
  }
  if (enclosing && r !== 0n && isIterMaskField(isa, f)) {
    // a mask written as a number: every bit set must still name an enclosing loop
    const bad: number[] = [];
    for (let j = 0; j < isa.iterators; j++) if ((r >> BigInt(j)) & 1n && !enclosing.has(j)) bad.push(j);
    if (bad.length) {
      ctx.diags.push(
        error('AS0313', `\`${f.name}\` = ${r} names ${bad.map((j) => `\`i${j}\``).join(', ')}, not ${bad.length === 1 ? 'a loop' : 'loops'} enclosing this instruction`, {
          span: v.span,
          notes: [`enclosing loops here: ${enclosing.size ? [...enclosing].sort().map((x) => `i${x}`).join(', ') : 'none'}`, 'bit i of an iterator mask is iterator i; write masks as lists, e.g. [i0, i1]'],
          spec: S21,
        }),
      );
      return undefined;
    }
  }
  return r;
}

// ---------------------------------------------------------------------------
// Programs

/** The op side of a sequencer or of the VPU: what instructions are resolved against. */
interface OpSpace {
  title: string;
  op: CompiledTable;
  opcode?: CompiledField;
  mnemonics: Map<string, number>;
}

/** `.vpu NAME [at ADDR] { ... }`: straight-line VPU instructions (no loops: the VI sequencer loops). */
export function compileVpuProgram(p: ProgramDecl, isa: Isa, consts: Consts, diags: Diagnostic[]): VpuProgram | undefined {
  const vpu: VpuInfo | undefined = isa.vpu;
  if (!vpu) {
    diags.push(error('AS0219', 'this ISA has no VPU instruction table (grammars/pyxis/vpu_instr.json)', { span: p.nameSpan }));
    return undefined;
  }
  const ctx: EvalCtx = { consts, diags, iteratorSpec: S21 };
  let startAddr: number | undefined;
  if (p.at) {
    const v = evalExpr(p.at, ctx);
    if (v !== undefined) {
      if (v < 0n || v >= BigInt(vpu.words)) diags.push(error('AS0314', `start address ${v} outside the ${vpu.words}-word VPU instruction memory`, { span: p.at.span, spec: `${SEQ_SPEC} §12` }));
      else startAddr = Number(v);
    }
  }
  const insns: ProgramInsn[] = [];
  for (const s of p.body ?? []) {
    if (!s) continue;
    if (s.kind === 'loop') {
      diags.push(error('AS0317', 'VPU programs are straight-line code: loop over them with the VI sequencer', { span: s.span, spec: `${SEQ_SPEC} §12` }));
      continue;
    }
    if (s.ctrl) diags.push(error('AS0318', 'VPU instructions have no sequencing-control word', { span: s.ctrlSpan ?? s.span }));
    const fieldSpans: Record<string, SourceSpan> = {};
    insns.push({ ctrl: {}, op: compileOp(s, vpu, isa, ctx, undefined, fieldSpans), span: s.mnemonicSpan, fieldSpans });
  }
  if (insns.length === 0) {
    diags.push(error('AS0315', `VPU program \`${p.name}\` has no instructions`, { span: p.nameSpan }));
    return undefined;
  }
  if ((startAddr ?? 0) + insns.length > vpu.words) diags.push(error('AS0316', `VPU program \`${p.name}\` does not fit the ${vpu.words}-word VPU instruction memory`, { span: p.nameSpan, spec: `${SEQ_SPEC} §12` }));
  return { name: p.name, vpu, ...(startAddr !== undefined ? { startAddr } : {}), insns, span: p.nameSpan };
}

/**
 * Compiles one sequencer program. `vpuNames` are the VPU programs operands may
 * name; `vpuLengths` (name -> instructions) lets an omitted
 * `vpv_pgm_instr_count` default to the length of the VPU program named by
 * `vpv_pgm_start_addr` (see `vpuCountField`).
 */
export function compileProgram(p: ProgramDecl, isa: Isa, consts: Consts, diags: Diagnostic[], vpuNames?: Set<string>, vpuLengths?: Map<string, number>): Program | undefined {
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
  const flat: FlatInsn[] = [];
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
  const enclosingCache = new Map<LoopCtx[], Set<number>>();
  flat.forEach((fi, pc) => {
    const ctrl: FieldValues = {};
    for (const l of fi.loops) {
      // numloops/numloops_final/mask on EVERY instruction inside the loop, so the
      // hardware knows the last iteration there too (Table 2-1, §2.1.4).
      const i = l.iter;
      setIf(ctrlT, ctrl, iterField(i, 'numloops'), Number(l.count));
      if (l.final !== undefined && l.mask) {
        setIf(ctrlT, ctrl, iterField(i, 'numloops_final'), Number(l.final));
        setIf(ctrlT, ctrl, iterField(i, 'final_iter_mask'), l.mask);
        if (l.postFinal) setIf(ctrlT, ctrl, iterField(i, 'post_final_enbl'), 1);
      }
      if (l.end === pc) {
        setIf(ctrlT, ctrl, iterField(i, 'is_eol'), 1);
        setIf(ctrlT, ctrl, iterField(i, 'sol_pc'), l.start);
      }
    }
    if (pc === flat.length - 1) setIf(ctrlT, ctrl, 'eopgm', 1);
    const a = fi.ast;
    const fieldSpans: Record<string, SourceSpan> = {};
    if (a.ctrl) {
      // control spans are kept as `ctrl.<field>` beside the op fields' spans (for the rule checks' carets)
      const ctrlSpans: Record<string, SourceSpan> = {};
      const over = resolveAssigns(a.ctrl, ctrlT, isa, ctx, `the ${seq.name} control word`, { spans: ctrlSpans });
      for (const k in ctrlSpans) fieldSpans[`ctrl.${k}`] = ctrlSpans[k]!;
      Object.assign(ctrl, over);
    }
    let enclosing = enclosingCache.get(fi.loops);
    if (!enclosing) enclosingCache.set(fi.loops, (enclosing = new Set(fi.loops.map((l) => l.iter))));
    const refs: SymbolRef[] = [];
    ctx.refs = refs;
    const op = compileOp(a, seq, isa, ctx, a.ctrl ? undefined : enclosing, fieldSpans);
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

function setIf(t: CompiledTable, out: FieldValues, name: string, v: number): void {
  if (t.byName.has(name)) out[name] = v;
}

function compileOp(a: Instruction, seq: OpSpace, isa: Isa, ctx: EvalCtx, enclosing: Set<number> | undefined, spans: Record<string, SourceSpan>): FieldValues {
  let opcodeValue: number | undefined;
  if (a.mnemonic !== 'op') {
    opcodeValue = seq.mnemonics.get(a.mnemonic) ?? (seq.opcode ? enumCode(seq.opcode, a.mnemonic) : undefined);
    if (opcodeValue === undefined) {
      const cands = [...seq.mnemonics.keys(), 'op'];
      ctx.diags.push(
        error('AS0217', `unknown mnemonic \`${a.mnemonic}\` for ${seq.title}`, {
          span: a.mnemonicSpan,
          notes: [...didYouMean(a.mnemonic, cands), `mnemonics: ${cands.join(', ')}`],
        }),
      );
    }
  }
  const skip = opcodeValue !== undefined && seq.opcode ? new Set([seq.opcode.name]) : undefined;
  const op = resolveAssigns(a.operands ?? [], seq.op, isa, ctx, seq.title + ' op', { spans, ...(enclosing ? { enclosing } : {}), ...(skip ? { skip } : {}) });
  if (opcodeValue !== undefined && seq.opcode) op[seq.opcode.name] = BigInt(opcodeValue);
  return op;
}
