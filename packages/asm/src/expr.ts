/**
 * Constants and integer expressions of the shared statement language: C
 * operators on 64-bit-bounded integers, `.const` definitions, loop-iterator
 * names and extra names (a field's enum names) supplied by the target's back
 * end. Errors are diagnostics (AS02xx), never exceptions.
 */
import { didYouMean, error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import type { ConstDecl, Expr } from './ast.js';

export const ITER_RE = /^i([0-9]+)$/;

export class Consts {
  readonly values = new Map<string, bigint>();
  readonly spans = new Map<string, SourceSpan>();
}

export interface EvalCtx {
  consts: Consts;
  diags: Diagnostic[];
  /** Allow loop-iterator names `i0`..`i<iterators-1>` (value = the iterator number). */
  iterators?: number;
  /** Spec section cited when an iterator name does not exist (the target's loop rules). */
  iteratorSpec?: string;
  /** Extra names (enum names of the field being set). */
  extra?: Map<string, bigint>;
}

const LIMIT = 1n << 64n;

/**
 * Evaluates an integer expression (64-bit-bounded, C operators); undefined
 * after a reported error. Iterative (an explicit stack, post-order), so a
 * left-deep chain of 100,000 `+` terms costs no call depth; both operands of
 * a binary operator are evaluated (each reports its own errors) before the
 * operator is applied.
 */
export function evalExpr(e: Expr | undefined, ctx: EvalCtx, iterators = ctx.iterators): bigint | undefined {
  if (!e || typeof e !== 'object') return undefined;
  // fast paths: most operands are a number or a name
  if (e.kind === 'num') return e.value;
  if (e.kind === 'name') return evalName(e, ctx, iterators);
  const nodes: Expr[] = [e];
  const expanded: boolean[] = [false];
  const vals: (bigint | undefined)[] = [];
  while (nodes.length) {
    const n = nodes[nodes.length - 1]!;
    if (!n || typeof n !== 'object') {
      nodes.pop();
      expanded.pop();
      vals.push(undefined);
      continue;
    }
    if (n.kind === 'num' || n.kind === 'name') {
      nodes.pop();
      expanded.pop();
      vals.push(n.kind === 'num' ? n.value : evalName(n, ctx, iterators));
      continue;
    }
    if (!expanded[expanded.length - 1]) {
      expanded[expanded.length - 1] = true;
      // children pushed right first, so the left operand is evaluated (and reports) first
      if (n.kind === 'binary') {
        nodes.push(n.right, n.left);
        expanded.push(false, false);
      } else if (n.kind === 'unary') {
        nodes.push(n.arg);
        expanded.push(false);
      } else {
        nodes.pop();
        expanded.pop();
        vals.push(undefined);
      }
      continue;
    }
    nodes.pop();
    expanded.pop();
    if (n.kind === 'unary') {
      const a = vals.pop();
      vals.push(a === undefined ? undefined : n.op === '-' ? -a : n.op === '~' ? ~a : a);
    } else {
      const b = vals.pop();
      const a = vals.pop();
      vals.push(a === undefined || b === undefined ? undefined : binary(n, a, b, ctx));
    }
  }
  return vals[0];
}

function evalName(e: Extract<Expr, { kind: 'name' }>, ctx: EvalCtx, iterators: number | undefined): bigint | undefined {
  const c = ctx.consts.values.get(e.name);
  if (c !== undefined) return c;
  const x = ctx.extra?.get(e.name);
  if (x !== undefined) return x;
  const m = ITER_RE.exec(e.name);
  if (m && iterators !== undefined) {
    const n = Number(m[1]);
    if (n < iterators) return BigInt(n);
    ctx.diags.push(error('AS0301', `iterator \`${e.name}\` does not exist: there are ${iterators} iterators (i0..i${iterators - 1})`, { span: e.span, ...(ctx.iteratorSpec ? { spec: ctx.iteratorSpec } : {}) }));
    return undefined;
  }
  const cands = [...ctx.consts.values.keys(), ...(ctx.extra?.keys() ?? [])];
  ctx.diags.push(error('AS0201', `unknown name \`${e.name}\``, { span: e.span, label: 'not a constant' + (ctx.extra ? ' or value name' : ''), notes: didYouMean(e.name, cands) }));
  return undefined;
}

function binary(e: Extract<Expr, { kind: 'binary' }>, a: bigint, b: bigint, ctx: EvalCtx): bigint | undefined {
  let r: bigint;
  switch (e.op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    case '/':
    case '%':
      if (b === 0n) {
        ctx.diags.push(error('AS0202', 'division by zero', { span: e.right?.span ?? e.span }));
        return undefined;
      }
      r = e.op === '/' ? a / b : a % b;
      break;
    case '<<':
    case '>>':
      if (b < 0n || b > 64n) {
        ctx.diags.push(error('AS0203', `shift count ${b} out of range 0..64`, { span: e.right?.span ?? e.span }));
        return undefined;
      }
      r = e.op === '<<' ? a << b : a >> b;
      break;
    case '&': r = a & b; break;
    case '|': r = a | b; break;
    case '^': r = a ^ b; break;
    default:
      return undefined;
  }
  if (r >= LIMIT || r <= -LIMIT) {
    ctx.diags.push(error('AS0204', 'expression overflows 64 bits', { span: e.span }));
    return undefined;
  }
  return r;
}

export function defineConst(d: ConstDecl, consts: Consts, diags: Diagnostic[]): void {
  if (!d.name || !d.nameSpan) return;
  const prev = consts.spans.get(d.name);
  if (prev) {
    diags.push(error('AS0205', `constant \`${d.name}\` is defined twice`, { span: d.nameSpan, secondary: [{ span: prev, label: 'first defined here' }] }));
    return;
  }
  const v = evalExpr(d.value, { consts, diags });
  if (v === undefined) return;
  consts.values.set(d.name, v);
  consts.spans.set(d.name, d.nameSpan);
}

