import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SequencerCore, controlStoreFrom, NUM_ITERS, type IterSpec } from '../../src/sim/uie/index.js';

interface Exec {
  pc: number;
  it: number[];
  pf: boolean;
  z: number;
  n: number;
}

function run(prog: Parameters<typeof controlStoreFrom>[0], startPc = 0, limit = 100000): Exec[] {
  const core = new SequencerCore(controlStoreFrom(prog));
  core.start(startPc);
  const out: Exec[] = [];
  while (core.step()) {
    out.push({ pc: core.execPc, it: Array.from(core.execCount), pf: core.postFinal, z: core.itersEqZero, n: core.itersEqNloops });
    if (out.length > limit) throw new Error('runaway');
  }
  expect(core.fault).toBeUndefined();
  expect(core.done).toBe(true);
  return out;
}

const eol = (numloops: number, extra: IterSpec = {}): IterSpec => ({ is_eol: 1, sol_pc: 0, numloops, ...extra });

describe('sequencer core: worked examples of seq §2.1', () => {
  it('§2.1.1 numloops_final: 3 groups of 10,10,6 rows (Figure 2-3)', () => {
    const tr = run([{ iters: [eol(3), eol(10, { numloops_final: 6, final_iter_mask: 0b1 })], eopgm: 1 }]);
    // hand-derived from the table after Figure 2-3: iter0 0 -> iter1 0..9, 1 -> 0..9, 2 -> 0..5
    const expected: number[][] = [];
    for (const [g, n] of [[0, 10], [1, 10], [2, 6]] as const) for (let r = 0; r < n; r++) expected.push([g, r]);
    expect(tr.map((e) => e.it.slice(0, 2))).toEqual(expected);
    expect(tr.every((e) => !e.pf)).toBe(true);
    // rows read at 8*iter0 + iter1: last group covers rows 16..21 of a 22-row tensor
    expect(tr.map((e) => 8 * e.it[0]! + e.it[1]!).slice(20)).toEqual([16, 17, 18, 19, 20, 21]);
    // iters_eq_nloops bit1 (§2.1.3): at iter1 = 9 in groups 0,1 and at iter1 = 5 (numloops_final-1) in group 2
    expect(tr.filter((e) => e.n & 2).map((e) => e.it.slice(0, 2))).toEqual([[0, 9], [1, 9], [2, 5]]);
    expect(tr.filter((e) => e.z & 2).length).toBe(3);
  });

  it('§2.1.1.1 cascaded numloops_final: 4x4x4 -> 58 (table after Figure 2-4)', () => {
    const tr = run([
      { iters: [eol(4), eol(4, { numloops_final: 3, final_iter_mask: 0b1 }), eol(4, { numloops_final: 2, final_iter_mask: 0b11 })], eopgm: 1 },
    ]);
    expect(tr.length).toBe(58);
    const tail = tr.slice(48).map((e) => e.it.slice(0, 3));
    expect(tail).toEqual([
      [3, 0, 0], [3, 0, 1], [3, 0, 2], [3, 0, 3],
      [3, 1, 0], [3, 1, 1], [3, 1, 2], [3, 1, 3],
      [3, 2, 0], [3, 2, 1],
    ]);
  });

  it('§2.1.2 post-final: 30 executions, last 4 flagged post_final (Figure 2-5)', () => {
    const tr = run([{ iters: [eol(3), eol(10, { numloops_final: 6, final_iter_mask: 1, post_final_enbl: 1 })], eopgm: 1 }]);
    expect(tr.length).toBe(30);
    expect(tr.filter((e) => e.pf).map((e) => e.it.slice(0, 2))).toEqual([[2, 6], [2, 7], [2, 8], [2, 9]]);
    // with post_final_enbl, iters_eq_nloops follows numloops (§2.1.3)
    expect(tr.filter((e) => e.n & 2).map((e) => e.it.slice(0, 2))).toEqual([[0, 9], [1, 9], [2, 9]]);
  });

  it('§2.1.2.1 cascaded post-final: 64 executions, last 6 post-final (Figure 2-6)', () => {
    const tr = run([
      {
        iters: [
          eol(4),
          eol(4, { numloops_final: 3, final_iter_mask: 0b1, post_final_enbl: 1 }),
          eol(4, { numloops_final: 2, final_iter_mask: 0b11, post_final_enbl: 1 }),
        ],
        eopgm: 1,
      },
    ]);
    expect(tr.length).toBe(64);
    expect(tr.slice(0, 58).every((e) => !e.pf)).toBe(true);
    expect(tr.filter((e) => e.pf).map((e) => e.it.slice(0, 3))).toEqual([
      [3, 2, 2], [3, 2, 3], [3, 3, 0], [3, 3, 1], [3, 3, 2], [3, 3, 3],
    ]);
  });

  it('multi-instruction loop with sol_pc and EOPGM; StartPC honoured', () => {
    // pc0: prologue; pc1..2 loop iter0 x3 (eol on pc2, sol_pc 1); pc3 eopgm
    const tr = run(
      [
        {},
        {},
        { iters: [{ is_eol: 1, sol_pc: 1, numloops: 3 }] },
        { eopgm: 1 },
        { eopgm: 1 },
      ],
      0,
    );
    expect(tr.map((e) => e.pc)).toEqual([0, 1, 2, 1, 2, 1, 2, 3]);
    expect(tr.map((e) => e.it[0])).toEqual([0, 0, 0, 1, 1, 2, 2, 0]);
    expect(run([{}, {}, {}, { eopgm: 1 }, { eopgm: 1 }], 4).map((e) => e.pc)).toEqual([4]);
  });

  it('faults when the PC runs past control memory without EOPGM', () => {
    const core = new SequencerCore(controlStoreFrom([{}]));
    core.start(30);
    expect(core.step()).toBe(true);
    expect(core.step()).toBe(true);
    expect(core.step()).toBe(false);
    expect(core.fault).toBe('pc_overflow');
  });
});

// ---------------------------------------------------------------------------
// Reference interpreters written independently of Figure 2-7.

/** Structured program: instructions and loops; loop at depth d uses iterator d. */
type Item = { kind: 'ins' } | { kind: 'loop'; n: number; body: Item[] };

function compile(body: Item[]): Parameters<typeof controlStoreFrom>[0] {
  const prog: Array<{ iters: IterSpec[]; eopgm?: number }> = [];
  const emit = (items: Item[], depth: number): void => {
    for (const it of items) {
      if (it.kind === 'ins') prog.push({ iters: [] });
      else {
        const start = prog.length;
        emit(it.body, depth + 1);
        const last = prog[prog.length - 1]!;
        last.iters[depth] = { is_eol: 1, sol_pc: start, numloops: it.n };
      }
    }
  };
  emit(body, 0);
  prog[prog.length - 1]!.eopgm = 1;
  return prog;
}

function reference(body: Item[]): Array<{ pc: number; it: number[] }> {
  const out: Array<{ pc: number; it: number[] }> = [];
  const cnt = new Array(NUM_ITERS).fill(0) as number[];
  let pc = 0;
  const exec = (items: Item[], depth: number): void => {
    for (const it of items) {
      if (it.kind === 'ins') out.push({ pc: pc++, it: cnt.slice() });
      else {
        const start = pc;
        for (let c = 0; c < it.n; c++) {
          cnt[depth] = c;
          pc = start;
          exec(it.body, depth + 1);
        }
        cnt[depth] = 0;
      }
    }
  };
  exec(body, 0);
  return out;
}

const itemArb = (depth: number): fc.Arbitrary<Item> =>
  depth >= NUM_ITERS
    ? fc.constant({ kind: 'ins' } as Item)
    : fc.oneof(
        { weight: 2, arbitrary: fc.constant({ kind: 'ins' } as Item) },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('loop' as const),
            n: fc.integer({ min: 1, max: 4 }),
            body: fc.array(fc.constant(null), { minLength: 1, maxLength: 3 }).chain((a) => fc.tuple(...a.map(() => itemArb(depth + 1)))),
          }) as fc.Arbitrary<Item>,
        },
      );

function size(items: Item[]): number {
  return items.reduce((s, i) => s + (i.kind === 'ins' ? 1 : size(i.body)), 0);
}

/** Single-instruction nested loops with numloops_final / masks / post-final, as plain nested for-loops (Figures 2-3..2-6 generalised). */
function refFinal(n: number[], nf: number[], mask: number[], pf: number[]): Array<{ it: number[]; pf: boolean }> {
  const out: Array<{ it: number[]; pf: boolean }> = [];
  const L = n.length;
  const cnt: number[] = new Array(L).fill(0);
  // lastIgn[o]: iterator o is at its last value, counting numloops_final as last (the cascade input)
  const rec = (i: number, lastIgn: boolean[], post: boolean): void => {
    if (i === L) {
      out.push({ it: cnt.slice(), pf: post });
      return;
    }
    let finalOuter = mask[i]! !== 0;
    for (let o = 0; o < i; o++) if ((mask[i]! >> o) & 1 && !lastIgn[o]) finalOuter = false;
    const limit = finalOuter && !pf[i] ? Math.min(nf[i]!, n[i]!) : n[i]!;
    for (let c = 0; c < limit; c++) {
      cnt[i] = c;
      const li = c === n[i]! - 1 || (finalOuter && c === nf[i]! - 1);
      const p = post || (finalOuter && pf[i]! !== 0 && c > nf[i]! - 1);
      rec(i + 1, [...lastIgn, li], p);
    }
    cnt[i] = 0;
  };
  rec(0, [], false);
  return out;
}

describe('sequencer core vs reference interpreters (fast-check)', () => {
  it('structured nested-loop programs', () => {
    fc.assert(
      fc.property(fc.array(itemArb(0), { minLength: 1, maxLength: 4 }), (body) => {
        fc.pre(size(body) <= 32);
        const tr = run(compile(body));
        expect(tr.map((e) => ({ pc: e.pc, it: e.it }))).toEqual(reference(body));
      }),
      { numRuns: 300 },
    );
  });

  it('single-instruction nests with numloops_final, cascades and post-final', () => {
    const arb = fc.integer({ min: 1, max: 4 }).chain((L) =>
      fc.tuple(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: L, maxLength: L }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: L, maxLength: L }),
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: L, maxLength: L }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: L, maxLength: L }),
      ),
    );
    fc.assert(
      fc.property(arb, ([n, nf0, m0, pf]) => {
        // numloops_final <= numloops (a final loop is never longer than a normal one)
        const nf = nf0.map((v, i) => Math.min(v, n[i]!));
        const mask = m0.map((v, i) => (i === 0 ? 0 : v & ((1 << i) - 1)));
        const iters: IterSpec[] = n.map((ni, i) => eol(ni, { numloops_final: nf[i]!, final_iter_mask: mask[i]!, post_final_enbl: pf[i]! }));
        const tr = run([{ iters, eopgm: 1 }]);
        const ref = refFinal(n, nf, mask, pf);
        expect(tr.map((e) => ({ it: e.it.slice(0, n.length), pf: e.pf }))).toEqual(ref);
      }),
      { numRuns: 400 },
    );
  });
});

describe('sequencer core: steady-state repeat steps (Uie.steadyBatch)', () => {
  it('repeatable / advance / skipTo agree with step on random loop nests', () => {
    // pc 0: a nest of end-of-loop iterators (some jumping elsewhere, some non-eol, maybe a final_iter_mask), pc 1: EOPGM
    const iterArb = fc.record({
      eol: fc.integer({ min: 0, max: 3 }),
      n: fc.integer({ min: 1, max: 6 }),
      sol: fc.integer({ min: 0, max: 7 }),
    });
    const arb = fc.record({
      iters: fc.array(iterArb, { minLength: NUM_ITERS, maxLength: NUM_ITERS }),
      finalMask: fc.integer({ min: 0, max: 9 }),
      pre: fc.integer({ min: 0, max: 40 }),
      max: fc.integer({ min: 1, max: 300 }),
      skip: fc.boolean(),
    });
    fc.assert(
      fc.property(arb, (p) => {
        const iters: IterSpec[] = p.iters.map((it, i) => ({
          is_eol: it.eol > 0 ? 1 : 0,
          sol_pc: it.sol === 7 ? 1 : 0, // mostly this pc; sometimes the next one
          numloops: it.n,
          ...(i === 2 && p.finalMask === 1 ? { numloops_final: 1, final_iter_mask: 1 } : {}),
        }));
        const prog = [{ iters }, { iters: [{ is_eol: 0, sol_pc: 0, numloops: 1 }], eopgm: 1 }];
        const a = new SequencerCore(controlStoreFrom(prog));
        const b = new SequencerCore(controlStoreFrom(prog));
        a.start(0);
        b.start(0);
        for (let i = 0; i < p.pre && a.pc === 0; i++) {
          a.step();
          b.step();
        }
        const k = a.repeatable(p.max);
        const cnt = Int32Array.from(a.count);
        const counts: number[][] = [];
        for (let j = 0; j < k; j++) {
          counts.push(Array.from(cnt));
          a.advance(cnt);
        }
        // every counted step stays at pc 0 and executes exactly the odometer's counts
        for (let j = 0; j < k; j++) {
          expect(b.pc).toBe(0);
          expect(b.step()).toBe(true);
          expect(b.execPc).toBe(0);
          expect(Array.from(b.execCount)).toEqual(counts[j]);
          expect(b.postFinal).toBe(false);
        }
        expect(Array.from(b.count)).toEqual(Array.from(cnt));
        if (p.skip && k > 0) {
          a.skipTo(cnt, k);
          expect(Array.from(a.count)).toEqual(Array.from(b.count));
          expect(a.executed).toBe(b.executed);
        }
        // in a plain nest (every end-of-loop iterator back to pc 0, no final_iter_mask) fewer than `max` are counted
        // only when the next step is the nest's last one, which leaves pc 0
        const plain = iters.some((it) => it.is_eol) && iters.every((it) => !it.is_eol || it.sol_pc === 0) && p.finalMask !== 1;
        if (plain && k < p.max && b.running && b.pc === 0) {
          b.step();
          expect(b.pc).not.toBe(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
