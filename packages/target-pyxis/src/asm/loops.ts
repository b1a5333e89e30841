/**
 * The Pyxis structured-loop compiler (seq §2.1): `loop` nests become, on
 * every instruction, the control fields of Table 2-1 — is_eol / sol_pc on a
 * loop's last instruction, numloops / numloops_final / final_iter_mask /
 * post_final_enbl on every instruction inside it (so the hardware knows the
 * last iteration everywhere, §2.1.4) — and eopgm on the program's last.
 */
import { resolveScalar, legalRange, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { error, warning } from '@pyxis/diagnostics';
import { evalExpr, exprText, ITER_RE, type EvalCtx, type Instruction, type LoopStmt, type Stmt } from '@pyxis/asm';
import { iterField, SEQ_SPEC, type Isa, type SequencerInfo } from './isa.js';

const S21 = `${SEQ_SPEC} §2.1`;

export interface LoopCtx {
  iter: number;
  count: bigint;
  final?: bigint;
  mask: number;
  postFinal: boolean;
  start: number;
  end: number;
}

/** An instruction with the loops enclosing it (outermost first). */
export interface LoopedInsn {
  ast: Instruction;
  loops: LoopCtx[];
}

/** Snapshot of the loop stack shared by consecutive instructions at the same nesting (fewer allocations). */
interface Snap {
  loops: LoopCtx[] | null;
}

/** Flattens a loop nest into instructions in PC order, each with its enclosing loops (headers checked). */
export function flatten(stmts: Stmt[], stack: LoopCtx[], out: LoopedInsn[], seq: SequencerInfo, isa: Isa, ctx: EvalCtx, snap: Snap = { loops: null }): void {
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

/**
 * The control values the loops give the instruction at `pc` (of `count`):
 * numloops and the final fields on every instruction of a loop, is_eol and
 * sol_pc (program-relative, relocated by the linker) on its last, eopgm on
 * the program's last instruction. Fields the table lacks are skipped.
 */
export function loopControl(fi: LoopedInsn, pc: number, count: number, ctrlT: CompiledTable): FieldValues {
  const ctrl: FieldValues = {};
  for (const l of fi.loops) {
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
  if (pc === count - 1) setIf(ctrlT, ctrl, 'eopgm', 1);
  return ctrl;
}

function setIf(t: CompiledTable, out: FieldValues, name: string, v: number): void {
  if (t.byName.has(name)) out[name] = v;
}
