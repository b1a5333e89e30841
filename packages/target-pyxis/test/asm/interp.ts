/**
 * Reference loop-traversal interpreter written from seq-fspec §2.1.4
 * (Figure 2-7) for the tests, independent of the assembler: it executes
 * decoded control words and returns what ran (PC, iterator counts,
 * is_post_final) per cycle.
 */
import type { DecodedValues } from '@pyxis/codec';

export interface Step {
  pc: number;
  counts: number[];
  postFinal: boolean;
}

const g = (c: DecodedValues, i: number, f: string): number => Number(c[`iter${i}_${f}`] ?? 0);

export function run(ctrl: DecodedValues[], iterators = 6, maxSteps = 200_000): Step[] {
  const count = new Array<number>(iterators).fill(0);
  let pc = 0;
  const steps: Step[] = [];
  for (let n = 0; n < maxSteps; n++) {
    const c = ctrl[pc];
    if (!c) throw new Error(`pc ${pc} outside the program`);
    // find_ending_loop_counts()
    const eqEff: boolean[] = [];
    const eqIgnPf: boolean[] = [];
    let isPostFinal = false;
    eqEff[0] = count[0] === g(c, 0, 'numloops') - 1;
    eqIgnPf[0] = eqEff[0];
    for (let i = 1; i < iterators; i++) {
      const mask = g(c, i, 'final_iter_mask');
      let finalOuter = mask !== 0;
      for (let o = 0; o < i; o++) if (mask & (1 << o) && !eqIgnPf[o]) finalOuter = false;
      const nl = g(c, i, 'numloops');
      const nf = g(c, i, 'numloops_final');
      const pf = g(c, i, 'post_final_enbl') === 1;
      eqIgnPf[i] = count[i] === nl - 1 || (finalOuter && count[i] === nf - 1);
      eqEff[i] = count[i] === nl - 1 || (finalOuter && count[i] === nf - 1 && !pf);
      if (finalOuter && pf && count[i]! > nf - 1) isPostFinal = true;
    }
    steps.push({ pc, counts: count.slice(), postFinal: isPostFinal });
    // eval_iterator(MAX)
    let done = false;
    const evalIter = (i: number): void => {
      const isEol = g(c, i, 'is_eol') === 1;
      if (!isEol || eqEff[i]) {
        if (isEol) count[i] = 0;
        if (i === 0) {
          pc++;
          done = Number(c['eopgm'] ?? 0) === 1;
          return;
        }
        evalIter(i - 1);
      } else {
        count[i]!++;
        pc = g(c, i, 'sol_pc');
      }
    };
    evalIter(iterators - 1);
    if (done) return steps;
  }
  throw new Error('program did not finish');
}
