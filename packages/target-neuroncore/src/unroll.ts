/**
 * Limits of `loop` unrolling (docs/neuroncore.md "Assembly", docs/spec-notes.md). The guide's
 * engines execute flat instruction streams (no loop or branch instruction), so the assembler unrolls every
 * `loop`; nested loops multiply their trip counts, and 20 nested 2-trip loops are a million statements.
 * The assembler therefore (1) estimates a loop's expansion from its trip counts before unrolling it and
 * refuses one that is bound to exceed the limit, and (2) counts the statements it really expands and stops
 * at the limit (loops whose bounds depend on outer loop variables). Both are error NC0090.
 */
import type { Expr, Stmt } from './parse.js';

/** Statements expanded (each statement and each loop iteration counts 1) and ISA instructions emitted, at most. */
export const MAX_UNROLLED = 500_000;
/** Loops nested deeper than this are a syntax error (NC0003): the unroller walks loop bodies recursively. */
export const MAX_LOOP_DEPTH = 64;

/** The value of a constant expression when every name in it is known, else undefined (never reports, never throws). */
export function tryEval(e: Expr, lookup: (name: string) => number | undefined): number | undefined {
  switch (e.k) {
    case 'num':
      return e.v;
    case 'name':
      return lookup(e.name);
    case 'neg': {
      const a = tryEval(e.a, lookup);
      return a === undefined ? undefined : -a;
    }
    case 'bin': {
      const a = tryEval(e.a, lookup);
      const b = tryEval(e.b, lookup);
      if (a === undefined || b === undefined) return undefined;
      switch (e.op) {
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        case '/': return b === 0 ? undefined : a / b;
        default: return b === 0 ? undefined : a % b;
      }
    }
  }
}

/** Iterations of `loop v from to` (0 when the bounds are unknown or not integers, as the loop then reports an error). */
function trips(st: Extract<Stmt, { k: 'loop' }>, lookup: (name: string) => number | undefined): number {
  const from = tryEval(st.from, lookup);
  const to = tryEval(st.to, lookup);
  if (from === undefined || to === undefined || !Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return 0;
  return Math.max(0, to - from);
}

/**
 * A lower bound of the statements `list` expands to, counted as the unroller counts them: 1 per statement,
 * and for a loop 1 + (its trips) x (1 + its body). Names bound by loops inside `list` are unknown here (their
 * values change per iteration), so loops whose bounds use them count 0 trips. Floating point: a product too
 * large for a safe integer only has to compare above the limit. Cost: linear in the size of `list`.
 */
export function expansionLowerBound(list: Stmt[], lookup: (name: string) => number | undefined): number {
  let n = 0;
  for (const st of list) n += 1 + (st.k === 'loop' ? loopLowerBound(st, lookup) : 0);
  return n;
}

/** A `loop` statement's lower bound, the statement itself not counted: trips x (1 + body). */
export function loopLowerBound(st: Extract<Stmt, { k: 'loop' }>, lookup: (name: string) => number | undefined): number {
  const t = trips(st, lookup);
  if (t === 0) return 0;
  return t * (1 + expansionLowerBound(st.body, (name) => (name === st.v ? undefined : lookup(name))));
}
