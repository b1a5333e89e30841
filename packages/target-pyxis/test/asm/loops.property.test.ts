/**
 * Random loop nests -> assembler -> reference interpreter (§2.1.4) must
 * execute exactly what the nested-loop source means, computed here by a
 * direct recursive evaluation of the structure (no control words involved).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isa, programs } from './helpers.js';
import { assemble, disassemble } from '@pyxis/target-pyxis/asm';
import { run } from './interp.js';

type Node = { kind: 'insn'; id: number } | { kind: 'loop'; n: number; final?: number; whenPick?: number; pf: boolean; body: Node[] };

const arbTree = (maxDepth: number): fc.Arbitrary<Node[]> => {
  const rec = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant({ kind: 'insn', id: 0 } as Node),
      fc.record({
        kind: fc.constant('loop' as const),
        n: fc.integer({ min: 1, max: 4 }),
        final: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        whenPick: fc.option(fc.integer({ min: 1, max: 63 }), { nil: undefined }),
        pf: fc.boolean(),
        body: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
      }) as fc.Arbitrary<Node>,
    ),
  }));
  return fc.array(rec.node, { minLength: 1, maxLength: 3 }).map((ns) => prune(ns, 0, maxDepth));
};

/** Limits depth to the iterators, drops `final` at depth 0 and makes final <= n. */
function prune(ns: Node[], depth: number, max: number): Node[] {
  return ns.map((n): Node => {
    if (n.kind === 'insn') return n;
    if (depth >= max) return { kind: 'insn', id: 0 };
    const out: Node = { ...n, body: prune(n.body, depth + 1, max) };
    if (depth === 0 || out.final === undefined) {
      delete out.final;
      out.pf = false;
    } else out.final = Math.min(out.final, out.n);
    return out;
  });
}

interface Gen {
  text: string[];
  insns: number;
}

function emit(ns: Node[], depth: number, g: Gen, enclosing: number[]): void {
  for (const n of ns) {
    const pad = '  '.repeat(depth + 1);
    if (n.kind === 'insn') {
      (n as { id: number }).id = g.insns++;
      g.text.push(`${pad}Read_SRAM amem_addr_offset=${(n as { id: number }).id * 8}`);
      continue;
    }
    let head = `loop i${depth} ${n.n}`;
    if (n.final !== undefined) {
      const picked = enclosing.filter((_, k) => ((n.whenPick ?? 0) >> k) & 1);
      const when = n.whenPick === undefined || picked.length === 0 ? '' : ` when [${picked.map((i) => `i${i}`).join(', ')}]`;
      head += ` final ${n.final}${when}`;
      if (n.pf) head += ' post_final';
    }
    g.text.push(`${pad}${head} {`);
    emit(n.body, depth + 1, g, [...enclosing, depth]);
    g.text.push(`${pad}}`);
  }
}

interface Env {
  iter: number;
  count: number;
  last: boolean;
  pf: boolean;
}

/** Meaning of the source: nested loops; a loop with `final F when M` stops at F (or flags post-final) when every loop in M is at its last iteration. */
function expand(ns: Node[], env: Env[], depth: number, out: { id: number; counts: number[]; pf: boolean }[], enclosing: number[]): void {
  for (const n of ns) {
    if (n.kind === 'insn') {
      const counts = [0, 0, 0, 0, 0, 0];
      for (const e of env) counts[e.iter] = e.count;
      out.push({ id: n.id, counts, pf: env.some((e) => e.pf) });
      continue;
    }
    let mask: number[] = [];
    if (n.final !== undefined) {
      const picked = enclosing.filter((_, k) => ((n.whenPick ?? 0) >> k) & 1);
      mask = n.whenPick === undefined || picked.length === 0 ? enclosing : picked;
    }
    const finalActive = n.final !== undefined && mask.every((j) => env.find((e) => e.iter === j)!.last);
    const limit = finalActive && !n.pf ? n.final! : n.n;
    const parentPf = env.some((e) => e.pf);
    for (let c = 0; c < limit; c++) {
      const last = c === n.n - 1 || (finalActive && c === n.final! - 1);
      const pf = parentPf || (finalActive && n.pf && c > n.final! - 1);
      expand(n.body, [...env, { iter: depth, count: c, last, pf }], depth + 1, out, [...enclosing, depth]);
    }
  }
}

describe('structured loops execute as written (fast-check, reference interpreter §2.1.4)', () => {
  test('random nests of up to 4 loops', () => {
    fc.assert(
      fc.property(arbTree(4), (shared) => {
        const tree = JSON.parse(JSON.stringify(shared)) as Node[]; // fc.constant nodes are shared objects
        const g: Gen = { text: [], insns: 0 };
        emit(tree, 0, g, []);
        fc.pre(g.insns <= 32);
        const src = `.program p amem_read {\n${g.text.join('\n')}\n}\n`;
        const p = programs(src).get('p')!;
        const steps = run(p.ctrl);
        const exp: { id: number; counts: number[]; pf: boolean }[] = [];
        expand(tree, [], 0, exp, []);
        expect(steps.map((s) => ({ id: s.pc, counts: s.counts, pf: s.postFinal }))).toEqual(exp);
        // and the disassembler recovers a structured form that re-assembles bit for bit
        const obj = assemble({ file: 'r.pasm', text: src }, { isa }).object;
        const dis = disassemble(obj, { isa });
        expect(dis.includes('ctrl {')).toBe(false);
        const again = assemble({ file: 'd.pasm', text: dis }, { isa }).object;
        expect([...again.sections[0]!.data]).toEqual([...obj.sections[0]!.data]);
      }),
      { numRuns: 300 },
    );
  });
});
