/**
 * Binding an instruction's `name=value` operands to the fields of a field
 * table (`@pyxis/codec` CompiledTable): spec names or aliases, enum names as
 * values, defaults for omitted elements, list values for array fields, range
 * checks through the codec (diagnostics carry the operand's span), and
 * did-you-mean for unknown names. Nothing here knows a target: what a target
 * adds (iterator lists for mask fields, symbol references, extra checks) comes
 * in through `OperandHooks`, usually keyed on a field's table `role`.
 */
import { defaultUserValue, enumCode, lookupField, resolveScalar, legalRange, type CompiledField, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { didYouMean, error, type SourceSpan } from '@pyxis/diagnostics';
import type { Assign, Expr, Instruction, Value } from './ast.js';
import { evalExpr, type EvalCtx } from './expr.js';

/** What a target adds to operand binding. Every hook is optional. */
export interface OperandHooks<C extends EvalCtx = EvalCtx> {
  /**
   * A `[a, b, ...]` list given to a single-value field (e.g. an iterator list
   * for a mask field). Return the value, `undefined` after reporting a
   * diagnostic, or `null` when the field takes no list (the binder reports AS0213).
   */
  listValue?(f: CompiledField, v: Extract<Value, { kind: 'list' }>, ctx: C): bigint | undefined | null;
  /**
   * A bare name that is neither a constant nor a value name of the field:
   * return its value (e.g. 0 for a symbol the linker relocates, recording the
   * reference), or `undefined` when the name means nothing to the target.
   */
  nameValue?(f: CompiledField, name: string, e: Expr, ctx: C): bigint | undefined;
  /** Loop-iterator names (`i0`..) allowed in this field's value: their count, or undefined. */
  valueIterators?(f: CompiledField): number | undefined;
  /** Loop-iterator names allowed in array indices (`iter_stride[i2]`): their count. */
  indexIterators?: number;
  /** Checks a resolved, in-range value; return false after reporting a diagnostic. */
  check?(f: CompiledField, value: bigint, v: Value, ctx: C): boolean;
}

export interface BindOptions<C extends EvalCtx = EvalCtx> {
  /** Fields the instruction sets itself (its opcode): setting them is AS0207. */
  skip?: Set<string>;
  /** Receives the span of each field's first operand (for later diagnostics' carets). */
  spans?: Record<string, SourceSpan>;
  hooks?: OperandHooks<C>;
}

/** A short text for an expression in messages. */
export function exprText(e: Expr | undefined): string {
  if (!e) return '?';
  if (e.kind === 'name') return e.name;
  if (e.kind === 'num') return String(e.value);
  return 'expression';
}

/**
 * Binds `name = value` operands to the fields of `table`. `what` names the
 * word in messages ("the AMEM Read op"). Omitted fields are left out (the
 * codec fills in defaults when encoding); array fields come back complete.
 */
export function bindOperands<C extends EvalCtx>(assigns: readonly Assign[], table: CompiledTable, ctx: C, what: string, opts: BindOptions<C> = {}): FieldValues {
  return bind(assigns, table, ctx, what, opts.spans, opts.hooks, opts.skip);
}

// (positional: the per-instruction hot path allocates no options object)
function bind<C extends EvalCtx>(
  assigns: readonly Assign[],
  table: CompiledTable,
  ctx: C,
  what: string,
  spans: Record<string, SourceSpan> | undefined,
  hooks: OperandHooks<C> | undefined,
  skip: Set<string> | undefined,
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
    if (skip?.has(f.name)) {
      ctx.diags.push(error('AS0207', `\`${f.name}\` is set by the mnemonic; use \`op\` to set it by hand`, { span: a.nameSpan }));
      continue;
    }
    const key = a.index ? `${f.name}[${exprText(a.index)}]` : f.name;
    if (seenKeys.includes(key) || (a.index === undefined && indexed.includes(f.name)) || (a.index !== undefined && seenKeys.includes(f.name))) {
      const aliasNote = f.aliases?.length ? [`\`${f.name}\` is also written ${f.aliases.map((x) => `\`${x}\``).join(' or ')} (aliases of the spec name)`] : [];
      ctx.diags.push(error('AS0208', `\`${key}\` is set twice`, { span: a.nameSpan, notes: aliasNote, secondary: [{ span: seenSpans[seenKeys.indexOf(key)] ?? seenSpans[seenKeys.indexOf(f.name)] ?? a.nameSpan, label: 'first set here' }] }));
      continue;
    }
    if (a.flag && (f.width !== 1 || f.enum)) {
      ctx.diags.push(error('AS0225', `\`${f.name}\` needs a value: write \`${f.name}=...\``, { span: a.nameSpan, label: 'a bare name sets a one-bit flag', notes: f.enum ? [`expected ${legalRange(f)}`] : [] }));
      continue;
    }
    seenKeys.push(key);
    seenSpans.push(a.nameSpan);
    if (a.index) indexed.push(f.name);
    if (spans) spans[f.name] ??= a.nameSpan;
    if (a.index) {
      if (f.count <= 1) {
        ctx.diags.push(error('AS0209', `\`${f.name}\` is not an array field; remove the index`, { span: a.nameSpan }));
        continue;
      }
      const idx = evalExpr(a.index, ctx, hooks?.indexIterators);
      if (idx === undefined) continue;
      if (idx < 0n || idx >= BigInt(f.count)) {
        ctx.diags.push(error('AS0210', `index ${idx} out of range for \`${f.name}\` (0..${f.count - 1})`, { span: a.index.span }));
        continue;
      }
      const v = operandValue(f, a.value, ctx, hooks);
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
        const v = operandValue(f, { kind: 'expr', expr: it, span: it?.span ?? a.value.span }, ctx, hooks);
        if (v === undefined) ok = false;
        else arr[i] = v;
      });
      if (ok) out[f.name] = arr;
      continue;
    }
    const v = operandValue(f, a.value, ctx, hooks);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

const defaultArrays = new WeakMap<CompiledField, bigint[]>();

/** A fresh copy of an array field's default elements (computed once per field). */
export function defaultArray(f: CompiledField): bigint[] {
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

/**
 * The user-visible value of one scalar operand (one element of an array
 * field): a value name of the field, an expression, or what a hook makes of a
 * list or a name. Out-of-range values are AS0401 at the value's span, citing
 * the field's own spec section (the table's `spec`).
 */
export function operandValue<C extends EvalCtx>(f: CompiledField, v: Value, ctx: C, hooks?: OperandHooks<C>): bigint | undefined {
  if (v.kind === 'list') {
    const r = hooks?.listValue?.(f, v, ctx);
    if (r === null || r === undefined) {
      if (r === null || !hooks?.listValue) ctx.diags.push(error('AS0213', `\`${f.name}\` takes a single value, not a list`, { span: v.span, notes: f.enum ? [`expected ${legalRange(f)}`] : [] }));
      return undefined;
    }
    return r;
  }
  const e = v.expr;
  if (!e) return undefined;
  if (e.kind === 'name' && !ctx.consts.values.has(e.name)) {
    if (f.enum) {
      const code = enumCode(f, e.name);
      if (code !== undefined) return BigInt(code);
    }
    if (hooks?.nameValue) {
      const r = hooks.nameValue(f, e.name, e, ctx);
      if (r !== undefined) return r;
    }
    if (f.enum) {
      ctx.diags.push(error('AS0215', `\`${e.name}\` is not a value of \`${f.name}\``, { span: e.span, label: `expected ${legalRange(f)}`, notes: didYouMean(e.name, Object.keys(f.enum)), ...(f.spec ? { spec: f.spec } : {}) }));
      return undefined;
    }
  }
  const n = evalExpr(e, ctx, hooks?.valueIterators?.(f));
  if (n === undefined) return undefined;
  const r = resolveScalar(f, n);
  if (typeof r === 'string') {
    // the field's own spec section (from the table) is where its width and range come from
    ctx.diags.push(error('AS0401', r, { span: v.span, label: `legal: ${legalRange(f)}`, ...(f.spec ? { spec: f.spec } : {}) }));
    return undefined;
  }
  if (hooks?.check && !hooks.check(f, r, v, ctx)) return undefined;
  return r;
}

// ---------------------------------------------------------------------------
// Instructions: a mnemonic (an enum name of the table's opcode field) and operands

/** An instruction word as the front end sees it: its table, the opcode field and the mnemonics. */
export interface OpSpace {
  /** Names the word in messages ("the AMEM Read sequencer"). */
  title: string;
  op: CompiledTable;
  /** The field whose enum names are the mnemonics. */
  opcode?: CompiledField;
  /** mnemonic -> opcode value */
  mnemonics: Map<string, number>;
}

/**
 * The opcode field of a table: the field named by `meta.opcode_field`, else
 * the field whose `role` is `opcode`; only an enum field qualifies (its names
 * are the mnemonics).
 */
export function opcodeField(t: CompiledTable): CompiledField | undefined {
  const metaName = t.meta?.['opcode_field'];
  const f = typeof metaName === 'string' ? t.byName.get(metaName) : t.fields.find((x) => x.role === 'opcode');
  return f && f.enumNames ? f : undefined;
}

/** An OpSpace for a table (opcode field by `opcodeField`). */
export function opSpace(t: CompiledTable, title = t.title ?? t.name): OpSpace {
  const opcode = opcodeField(t);
  const mnemonics = new Map<string, number>();
  if (opcode?.enumNames) for (const [v, n] of opcode.enumNames) mnemonics.set(n, v);
  return { title, op: t, mnemonics, ...(opcode ? { opcode } : {}) };
}

const skips = new WeakMap<OpSpace, Set<string>>();
const whats = new WeakMap<OpSpace, string>();

/** {opcode field}: what a mnemonic sets (one Set per OpSpace, not per instruction). */
function opcodeSkip(space: OpSpace): Set<string> {
  let s = skips.get(space);
  if (!s) skips.set(space, (s = new Set([space.opcode!.name])));
  return s;
}

function opWhat(space: OpSpace): string {
  let w = whats.get(space);
  if (w === undefined) whats.set(space, (w = `${space.title} op`));
  return w;
}

/**
 * Compiles one instruction's op word: the mnemonic sets the opcode field
 * (`op` sets nothing: every field by hand), the operands are bound by
 * `bindOperands`. Unknown mnemonics are AS0217 with suggestions.
 */
export function compileInstruction<C extends EvalCtx>(a: Instruction, space: OpSpace, ctx: C, opts: BindOptions<C> = {}): FieldValues {
  let opcodeValue: number | undefined;
  if (a.mnemonic !== 'op') {
    opcodeValue = space.mnemonics.get(a.mnemonic) ?? (space.opcode ? enumCode(space.opcode, a.mnemonic) : undefined);
    if (opcodeValue === undefined) {
      const cands = [...space.mnemonics.keys(), 'op'];
      ctx.diags.push(
        error('AS0217', `unknown mnemonic \`${a.mnemonic}\` for ${space.title}`, {
          span: a.mnemonicSpan,
          notes: [...didYouMean(a.mnemonic, cands), `mnemonics: ${cands.join(', ')}`],
        }),
      );
    }
  }
  const skip = opcodeValue !== undefined && space.opcode ? opcodeSkip(space) : opts.skip;
  const op = bind(a.operands ?? [], space.op, ctx, opWhat(space), opts.spans, opts.hooks, skip);
  if (opcodeValue !== undefined && space.opcode) op[space.opcode.name] = BigInt(opcodeValue);
  return op;
}
