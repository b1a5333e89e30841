/**
 * The simulator's SequencerCore (src/sim/uie/sequencerCore.ts) against the independent seq §2.1.4 (Figure 2-7)
 * interpreter of the assembler tests (test/asm/interp.ts): on random valid control programs, encoded with the real
 * grammar tables (seq_control, seq_control_pf) and decoded by each side its own way, both must run the same
 * iteration trace — pc, the six iterator counts and is_post_final of every executed step.
 *
 * Runs: FC_RUNS (default 200 in CI; e.g. FC_RUNS=20000 for a long soak).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decode, encode, loadTable, type FieldValues } from '@pyxis/codec';
import { decodeControlStore, NUM_ITERS, SEQ_DEPTH, SequencerCore } from '../../src/sim/uie/index.js';
import { run as interp, type Step } from '../asm/interp.js';

const RUNS = Number(process.env['FC_RUNS'] ?? 200);
const MAX_STEPS = 4000;

/** Encodes the control words and runs both models; undefined when the interpreter rejects the program (not valid). */
function traces(table: string, words: FieldValues[]): { ref: Step[]; sim: Step[] } | undefined {
  const t = loadTable('pyxis', table);
  const mem = new Uint8Array(SEQ_DEPTH * t.bytes);
  words.forEach((w, pc) => encode(t, w, mem, pc * t.bytes));
  let ref: Step[];
  try {
    ref = interp(
      words.map((_, pc) => decode(t, mem, pc * t.bytes)),
      NUM_ITERS,
      MAX_STEPS,
    );
  } catch {
    return undefined; // runs off the program or does not finish within MAX_STEPS: not a valid program
  }
  const core = new SequencerCore();
  core.start(0, decodeControlStore(t, mem, SEQ_DEPTH, t.bytes));
  const sim: Step[] = [];
  while (core.step()) {
    sim.push({ pc: core.execPc, counts: Array.from(core.execCount), postFinal: core.postFinal });
    if (sim.length > MAX_STEPS) break;
  }
  expect(core.fault).toBeUndefined();
  expect(core.done).toBe(true);
  return { ref, sim };
}

/** Structured nest: a loop at nesting depth d uses the d-th of a random increasing choice of iterators (inner = higher). */
type Node = { kind: 'ins' } | { kind: 'loop'; n: number; nf: number; mask: number; pf: number; body: Node[] };

const nodeArb: fc.Arbitrary<Node[]> = fc.letrec<{ node: Node; list: Node[] }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant({ kind: 'ins' } as Node),
    fc.record({
      kind: fc.constant('loop' as const),
      n: fc.integer({ min: 1, max: 4 }),
      nf: fc.integer({ min: 1, max: 4 }),
      mask: fc.integer({ min: 0, max: 31 }),
      pf: fc.integer({ min: 0, max: 1 }),
      body: tie('list'),
    }) as fc.Arbitrary<Node>,
  ),
  list: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
})).list;

function compile(body: Node[], iterOf: number[], withPf: boolean): FieldValues[] | undefined {
  const prog: FieldValues[] = [];
  let ok = true;
  const emit = (items: Node[], depth: number): void => {
    for (const it of items) {
      if (it.kind === 'ins') {
        prog.push({});
        continue;
      }
      if (depth >= iterOf.length) {
        ok = false;
        return;
      }
      const start = prog.length;
      emit(it.body, depth + 1);
      if (!ok) return;
      const i = iterOf[depth]!;
      const last = prog[prog.length - 1]!;
      last[`iter${i}_is_eol`] = 1;
      last[`iter${i}_sol_pc`] = start;
      last[`iter${i}_numloops`] = it.n;
      last[`iter${i}_numloops_final`] = it.nf;
      if (i > 0) {
        last[`iter${i}_final_iter_mask`] = it.mask & ((1 << i) - 1);
        if (withPf) last[`iter${i}_post_final_enbl`] = it.pf;
      }
    }
  };
  emit(body, 0);
  if (!ok || prog.length === 0 || prog.length > SEQ_DEPTH) return undefined;
  prog[prog.length - 1]!['eopgm'] = 1;
  return prog;
}

const itersArb = fc.subarray([0, 1, 2, 3, 4, 5], { minLength: 1 }).map((a) => [...a].sort((x, y) => x - y));

/** Unstructured: every pc may end any iterator's loop with a backward sol_pc (filtered by the interpreter). */
const wordArb = (pc: number, withPf: boolean): fc.Arbitrary<FieldValues> =>
  fc
    .array(
      fc.record({
        eol: fc.integer({ min: 0, max: 3 }),
        sol: fc.integer({ min: 0, max: pc }),
        n: fc.integer({ min: 1, max: 4 }),
        nf: fc.integer({ min: 1, max: 4 }),
        mask: fc.integer({ min: 0, max: 31 }),
        pf: fc.integer({ min: 0, max: 1 }),
      }),
      { minLength: NUM_ITERS, maxLength: NUM_ITERS },
    )
    .map((its) => {
      const w: FieldValues = {};
      its.forEach((x, i) => {
        w[`iter${i}_is_eol`] = x.eol === 0 ? 1 : 0;
        w[`iter${i}_sol_pc`] = x.sol;
        w[`iter${i}_numloops`] = x.n;
        w[`iter${i}_numloops_final`] = x.nf;
        if (i > 0) {
          w[`iter${i}_final_iter_mask`] = x.mask & ((1 << i) - 1);
          if (withPf) w[`iter${i}_post_final_enbl`] = x.pf;
        }
      });
      return w;
    });

const progArb = (withPf: boolean): fc.Arbitrary<FieldValues[]> =>
  fc.integer({ min: 1, max: 6 }).chain((len) =>
    fc.tuple(...Array.from({ length: len }, (_, pc) => wordArb(pc, withPf))).map((ws) => {
      ws[ws.length - 1]!['eopgm'] = 1;
      return ws;
    }),
  );

describe('SequencerCore vs the §2.1.4 reference interpreter (test/asm/interp.ts), fast-check', () => {
  for (const [table, withPf] of [
    ['seq_control_pf', true],
    ['seq_control', false],
  ] as const) {
    it(`structured nests with numloops_final, masks${withPf ? ' and post-final' : ''} (${table})`, () => {
      fc.assert(
        fc.property(nodeArb, itersArb, (body, iterOf) => {
          const words = compile(body, iterOf, withPf);
          fc.pre(words !== undefined);
          const r = traces(table, words!);
          fc.pre(r !== undefined);
          expect(r!.sim).toEqual(r!.ref);
        }),
        { numRuns: RUNS },
      );
    });

    it(`unstructured programs with backward sol_pc (${table})`, () => {
      fc.assert(
        fc.property(progArb(withPf), (words) => {
          const r = traces(table, words);
          fc.pre(r !== undefined);
          expect(r!.sim).toEqual(r!.ref);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('the trace check can fail: a corrupted counter is detected', () => {
    const r = traces('seq_control', [{ iter5_is_eol: 1, iter5_sol_pc: 0, iter5_numloops: 3, eopgm: 1 }])!;
    expect(r.sim.map((s) => s.counts[5])).toEqual([0, 1, 2]);
    const bad = r.sim.map((s) => ({ ...s, counts: s.counts.map((c, i) => (i === 5 ? c + 1 : c)) }));
    expect(bad).not.toEqual(r.ref);
  });
});
