/**
 * Constant expressions of the NeuronCore dialect (`.const`, loop bounds, dimensions, slices, attributes): evaluated
 * over the constants and loop variables in scope. An error is reported (NC0010-NC0012) and ends the statement (Stop).
 */
import { error } from '@pyxis/diagnostics';
import { Stop, type AsmState } from './asmState.js';
import type { Expr } from './parse.js';

export function evalExpr(s: AsmState, e: Expr, line: number): number {
  switch (e.k) {
    case 'num':
      return e.v;
    case 'name': {
      const v = s.env.get(e.name);
      if (v === undefined) {
        s.diags.push(error('NC0010', `unknown name \`${e.name}\``, { span: s.span(line, e.col, e.name.length), notes: s.hint(e.name, [...s.env.keys()]) }));
        throw new Stop();
      }
      return v;
    }
    case 'neg':
      return -evalExpr(s, e.a, line);
    case 'bin': {
      const a = evalExpr(s, e.a, line);
      const b = evalExpr(s, e.b, line);
      switch (e.op) {
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        default:
          if (b === 0) {
            s.diags.push(error('NC0011', 'division by zero', { span: s.span(line, e.col) }));
            throw new Stop();
          }
          // exact division: a non-integer result used as an index is reported (NC0012)
          return e.op === '/' ? a / b : a % b;
      }
    }
  }
}

/** An expression that must be an integer (`what` names it in the error). */
export function evalInt(s: AsmState, e: Expr, line: number, what: string): number {
  const v = evalExpr(s, e, line);
  if (!Number.isSafeInteger(v)) {
    s.diags.push(error('NC0012', `${what} must be an integer, got ${v}`, { span: s.span(line, e.col) }));
    throw new Stop();
  }
  return v;
}
