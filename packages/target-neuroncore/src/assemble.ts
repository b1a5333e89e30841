/**
 * Assembler back end of the NeuronCore dialect: evaluates constants and unrolls `loop`s (expr.ts, unroll.ts),
 * declares tensors (allocating SBUF/PSUM bytes when no offset is given) and resolves access patterns (tensors.ts),
 * lowers each instruction statement to the instruction set of grammars/neuroncore/instructions.json, checking the
 * guide's rules (lower.ts, rules.ts), and inserts semaphores (sync.ts). Output: an NcProgram in a `.pobj` container
 * (program.ts). This module walks the statements; the state they share is asmState.ts.
 */
import type { Diagnostic, SourceMap } from '@pyxis/diagnostics';
import { error } from '@pyxis/diagnostics';
import { sortDiagnostics, TokenBudget } from '@pyxis/asm';
import type { Container } from '@pyxis/container';
import { AsmState, Overflow, Stop } from './asmState.js';
import { evalExpr, evalInt } from './expr.js';
import { STREAMS, type Insn, type NcProgram } from './ir.js';
import { lowerInsn } from './lower.js';
import { parseNc, type Stmt } from './parse.js';
import { NC_PROGRAM_SECTION, ProgramError, programObject, programOf } from './program.js';
import { AutoSync } from './sync.js';
import { tensorAliases } from './aliases.js';
import { declareTensor } from './tensors.js';
import { MAX_UNROLLED, loopLowerBound } from './unroll.js';

export { NC_PROGRAM_SECTION, ProgramError, programObject, programOf };

export interface NcAssembleResult {
  program: NcProgram;
  diagnostics: Diagnostic[];
  object: Container;
}

/**
 * Tokens one `.ncasm` assembly may lex (AS0109, the shared front end's guard, @pyxis/asm tokenBudget.ts). This
 * dialect lexes line by line, so it costs less per token than the shared front end: the largest measured, the
 * disassembly of samples/neuroncore/matmul_big.ncasm (19 MB, 8.9 M tokens), peaks at 0.94 GB RSS (~100 B/token);
 * 12 M tokens stay near 1.2 GB, well below Node's default heap limit (about 4 GB), and that round trip still fits.
 */
export const NC_MAX_TOKENS = 12_000_000;

/**
 * `limits.maxUnrolled`: the unrolling limit (default MAX_UNROLLED, unroll.ts); `limits.maxTokens`: the token
 * budget (default NC_MAX_TOKENS). The tests lower them.
 */
export function assembleNc(inputs: Array<{ file: string; text: string }>, sources?: SourceMap, limits: { maxUnrolled?: number; maxTokens?: number } = {}): NcAssembleResult {
  const s = new AsmState(limits.maxUnrolled ?? MAX_UNROLLED);
  const budget = new TokenBudget(limits.maxTokens ?? NC_MAX_TOKENS);
  for (const { file, text } of inputs) {
    sources?.add(file, text);
    const over = budget.take(text, file);
    if (over) {
      s.diags.push(over);
      break;
    }
    s.file = file;
    s.loc = undefined;
    try {
      walk(s, parseNc(text, file, s.diags));
    } catch (e) {
      if (e instanceof Overflow) break;
      if (!(e instanceof Stop)) throw e;
    }
  }
  const { semaphores, tensors, pending, sync } = s;
  const autoBase = semaphores.length;
  for (const st of STREAMS) semaphores.push(`auto.${st}`);
  const aliases = tensorAliases(tensors);
  const syncer = new AutoSync(STREAMS.length, autoBase, (t) => s.hbmBases[t] ?? 0, aliases);
  const insns: Insn[] = [];
  for (const insn of pending) {
    syncer.add(insn, insns.length, sync === 'explicit');
    insns.push(insn);
  }
  const program: NcProgram = { tensors, semaphores, autoBase, sync, insns };
  const object = programObject(program, inputs.map((i) => i.file));
  return { program, diagnostics: sortDiagnostics(s.diags.finish()), object };
}

/** NC0090 at a statement, and the end of the assembly. */
function overflow(s: AsmState, line: number, col: number, len: number, what: string): never {
  s.diags.push(error('NC0090', what, { span: s.span(line, col, len), notes: ['every loop is unrolled (the engines have no loop instruction) and nested loops multiply their trip counts; the limit is documented in docs/neuroncore.md'] }));
  throw new Overflow();
}

/** NC0090's message when the statements expanded so far pass the limit. */
function unrolledMsg(maxUnrolled: number): string {
  return `more than ${maxUnrolled} statements after unrolling loops (each iteration counts one)`;
}

/** Assembles a statement list (a file, or a loop body once per iteration). */
function walk(s: AsmState, list: Stmt[]): void {
  const { diags, env, maxUnrolled } = s;
  for (const st of list) {
    if (++s.unrolled > maxUnrolled) overflow(s, st.line, st.col, st.k === 'loop' ? 4 : 1, unrolledMsg(maxUnrolled));
    try {
      switch (st.k) {
        case 'const':
          if (env.has(st.name) || s.tensorByName.has(st.name)) diags.push(error('NC0013', `\`${st.name}\` is already defined`, { span: s.span(st.line, st.col, st.name.length) }));
          else env.set(st.name, evalExpr(s, st.e, st.line));
          break;
        case 'tensor':
          try {
            declareTensor(s, st);
          } finally {
            s.loc = undefined;
          }
          break;
        case 'sem':
          for (const n of st.names) {
            if (s.semByName.has(n.name)) diags.push(error('NC0052', `semaphore \`${n.name}\` is declared twice`, { span: s.span(st.line, n.col, n.name.length) }));
            else {
              s.semByName.set(n.name, s.semaphores.length);
              s.semaphores.push(n.name);
            }
          }
          break;
        case 'loc':
          s.loc = st;
          continue;
        case 'sync':
          s.sync = st.mode as 'auto' | 'explicit';
          break;
        case 'loop': {
          const from = evalInt(s, st.from, st.line, 'a loop bound');
          const to = evalInt(s, st.to, st.line, 'a loop bound');
          if (!s.estimated.has(st)) {
            // before unrolling: a loop bound to exceed the limit is refused at once (nested trip counts multiply)
            s.estimated.add(st);
            const n = loopLowerBound(st, (name) => env.get(name));
            if (s.unrolled + n > maxUnrolled) overflow(s, st.line, st.col, 4, `this loop expands to ${n > 1e15 ? n.toExponential(2) : n} statements or more (each iteration counts one); the limit is ${maxUnrolled}`);
          }
          const had = env.get(st.v);
          for (let i = from; i < to; i++) {
            if (++s.unrolled > maxUnrolled) overflow(s, st.line, st.col, 4, unrolledMsg(maxUnrolled));
            env.set(st.v, i);
            walk(s, st.body);
            if (diags.length > 50) throw new Stop();
          }
          if (had === undefined) env.delete(st.v);
          else env.set(st.v, had);
          break;
        }
        case 'insn':
          try {
            lowerInsn(s, st);
          } finally {
            s.loc = undefined;
          }
          if (s.pending.length > maxUnrolled) overflow(s, st.line, st.col, st.opEnd - st.col, `more than ${maxUnrolled} ISA instructions after unrolling loops`);
          break;
      }
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      if (diags.length > 50) throw e;
    }
  }
}
