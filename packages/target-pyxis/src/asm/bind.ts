/**
 * Pyxis operand binding: the generic `bindOperands` of @pyxis/asm plus what
 * the sequencers add, keyed on the fields' table roles (docs/field-tables.md):
 * `iter_mask` fields take iterator lists (`[i0, i1]`, bit i = iterator i) and
 * every iterator they name must be a loop enclosing the instruction (AS0313,
 * seq §2.1); `iter_id` fields take `i<n>` and warn when that iterator does not
 * enclose the instruction (AS0320); a bare VPU-program name is that program's
 * address, recorded as a symbol reference for the linker (seq §12.1).
 */
import { error, warning } from '@pyxis/diagnostics';
import { exprText, ITER_RE, type EvalCtx as BaseEvalCtx, type Expr, type OperandHooks, type Value } from '@pyxis/asm';
import type { CompiledField } from '@pyxis/codec';
import { isIterIdField, isIterMaskField, SEQ_SPEC, type Isa } from './isa.js';
import { vpuSymbol, type SymbolRef } from './program.js';

const S21 = `${SEQ_SPEC} §2.1`;

/** The Pyxis evaluation context: the generic one plus VPU-program references (relocated by the linker). */
export interface EvalCtx extends BaseEvalCtx {
  /** Names of VPU programs (op values may refer to them; relocated). */
  vpuNames?: Set<string>;
  /** Collects VPU-program references of the instruction being compiled. */
  refs?: SymbolRef[];
}

function enclosingNote(enclosing: Set<number>): string {
  return `enclosing loops here: ${enclosing.size ? [...enclosing].sort().map((x) => `i${x}`).join(', ') : 'none'}`;
}

/**
 * The operand hooks of one program. `enclosing` is set per instruction (the
 * iterators of the loops around it; undefined: not checked, e.g. under a raw
 * `ctrl { }` block, which may set loops by hand).
 */
export class PyxisOperands implements OperandHooks<EvalCtx> {
  enclosing: Set<number> | undefined;
  readonly indexIterators: number;

  constructor(private readonly isa: Isa) {
    this.indexIterators = isa.iterators;
  }

  valueIterators(f: CompiledField): number | undefined {
    return isIterIdField(f) ? this.isa.iterators : undefined;
  }

  listValue(f: CompiledField, v: { items: Expr[] }, ctx: EvalCtx): bigint | undefined | null {
    if (!isIterMaskField(f)) return null;
    const n = this.isa.iterators;
    const enclosing = this.enclosing;
    let mask = 0n;
    for (const it of v.items) {
      if (!it) continue;
      if (it.kind !== 'name' || !ITER_RE.test(it.name)) {
        ctx.diags.push(error('AS0214', `iterator lists name iterators (\`i0\`..\`i${n - 1}\`), got \`${exprText(it)}\``, { span: it.span }));
        return undefined;
      }
      const j = Number(ITER_RE.exec(it.name)![1]);
      if (j >= n) {
        ctx.diags.push(error('AS0301', `iterator \`${it.name}\` does not exist`, { span: it.span, spec: S21 }));
        return undefined;
      }
      if (enclosing && !enclosing.has(j)) {
        ctx.diags.push(error('AS0313', `\`${f.name}\` names \`${it.name}\`, which is not a loop enclosing this instruction`, { span: it.span, notes: [enclosingNote(enclosing)], spec: S21 }));
        return undefined;
      }
      mask |= 1n << BigInt(j);
    }
    return mask;
  }

  nameValue(f: CompiledField, name: string, _e: unknown, ctx: EvalCtx): bigint | undefined {
    if (!ctx.vpuNames?.has(name)) return undefined;
    // the address of a VPU program: program-relative 0 here, the linker (or the patch blob) adds its placement
    ctx.refs?.push({ field: f.name, symbol: vpuSymbol(name) });
    return 0n;
  }

  check(f: CompiledField, r: bigint, v: Value, ctx: EvalCtx): boolean {
    const enclosing = this.enclosing;
    if (!enclosing) return true;
    if (isIterIdField(f) && !enclosing.has(Number(r))) {
      // An iterator-select field reads the count of the iterator it names; an
      // iterator whose loop does not enclose the instruction is not counting here
      // (its value is whatever it last held), so this is almost surely a slip.
      // Only explicit values are checked: defaults (i0) of unused features are not.
      const e = v.kind === 'expr' ? v.expr : undefined;
      const what = e?.kind === 'name' && ITER_RE.test(e.name) ? `\`${e.name}\`` : `iterator ${r} (\`i${r}\`)`;
      ctx.diags.push(warning('AS0320', `\`${f.name}\` selects ${what}, which is not a loop enclosing this instruction`, { span: v.span, notes: [enclosingNote(enclosing)], spec: f.spec ?? S21 }));
    }
    if (r !== 0n && isIterMaskField(f)) {
      // a mask written as a number: every bit set must still name an enclosing loop
      const bad: number[] = [];
      for (let j = 0; j < this.isa.iterators; j++) if ((r >> BigInt(j)) & 1n && !enclosing.has(j)) bad.push(j);
      if (bad.length) {
        ctx.diags.push(
          error('AS0313', `\`${f.name}\` = ${r} names ${bad.map((j) => `\`i${j}\``).join(', ')}, not ${bad.length === 1 ? 'a loop' : 'loops'} enclosing this instruction`, {
            span: v.span,
            notes: [enclosingNote(enclosing), 'bit i of an iterator mask is iterator i; write masks as lists, e.g. [i0, i1]'],
            spec: S21,
          }),
        );
        return false;
      }
    }
    return true;
  }
}
