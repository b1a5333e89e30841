/**
 * UIE sequencer core: the loop traversal algorithm of
 * pyxis-uie-sequencers-fspec.md §2.1.4 (Figure 2-7), executed on typed
 * arrays. One call to `step()` executes one microinstruction (one cycle) and
 * leaves, for the op decoder, the executed PC, the iterator counts the
 * instruction executed with, the `post_final` flag (§2.1.2) and the
 * `iters_eq_zero` / `iters_eq_nloops` vectors (§2.1.3).
 */
import type { CompiledTable } from '@pyxis/codec';
import { readField } from '@pyxis/codec';

/** Iterators per microinstruction (seq §2.1). */
export const NUM_ITERS = 6;
/** Microcode memory depth: `sol_pc` / StartPC are 5 bits (seq §2.1, chip §11.4.2). */
export const SEQ_DEPTH = 32;

/**
 * Decoded sequence-control memory (seq §2.1, Table 2-1). Per-iterator arrays
 * are indexed `pc * NUM_ITERS + i`. `numloops`/`numloops_final` hold N (the
 * codec undoes the N-1 encoding).
 */
export interface ControlStore {
  readonly depth: number;
  readonly isEol: Uint8Array;
  readonly solPc: Int32Array;
  readonly numloops: Int32Array;
  readonly numloopsFinal: Int32Array;
  readonly finalIterMask: Int32Array;
  readonly postFinalEn: Uint8Array;
  readonly eopgm: Uint8Array;
}

export function emptyControlStore(depth = SEQ_DEPTH): ControlStore {
  const n = depth * NUM_ITERS;
  return {
    depth,
    isEol: new Uint8Array(n),
    solPc: new Int32Array(n),
    numloops: new Int32Array(n).fill(1),
    numloopsFinal: new Int32Array(n).fill(1),
    finalIterMask: new Int32Array(n),
    postFinalEn: new Uint8Array(n),
    eopgm: new Uint8Array(depth),
  };
}

/** Reads field `iter<i>_<name>` (the manifest's naming) or element i of an array field `<name>`; absent => undefined. */
export function iterField(t: CompiledTable, buf: Uint8Array, off: number, name: string, i: number): number | undefined {
  const scalar = `iter${i}_${name}`;
  if (t.byName.has(scalar)) return Number(readField(t, buf, scalar, 0, off));
  const arr = t.byName.get(name);
  if (arr && arr.count > i) return Number(readField(t, buf, name, i, off));
  return undefined;
}

/**
 * Decodes `depth` control words (table `seq_control` or `seq_control_pf`,
 * `t.bytes` each, consecutive in `mem`) into a ControlStore. Bit positions
 * come from the table only. Iterator 0 has no `final_iter_mask` (seq §2.1):
 * absent fields read as 0; `post_final_enbl` is absent in `seq_control`.
 */
export function decodeControlStore(t: CompiledTable, mem: Uint8Array, depth = SEQ_DEPTH, stride = t.bytes, into?: ControlStore): ControlStore {
  const cs = into ?? emptyControlStore(depth);
  const d = Math.min(depth, Math.floor(mem.length / stride));
  const plan = controlPlan(t);
  const outs = [cs.isEol, cs.solPc, cs.numloops, cs.numloopsFinal, cs.finalIterMask, cs.postFinalEn] as const;
  for (let pc = 0; pc < d; pc++) {
    const off = pc * stride;
    for (let i = 0; i < NUM_ITERS; i++) {
      const k = pc * NUM_ITERS + i;
      for (let f = 0; f < CONTROL_FIELDS.length; f++) {
        const loc = plan.loc[f * NUM_ITERS + i];
        // iterator 0 has no final_iter_mask (seq §2.1): absent fields read as their default
        outs[f][k] = loc && !(f === 4 && i === 0) ? Number(readField(t, mem, loc[0], loc[1], off)) : CONTROL_DEFAULTS[f]!;
      }
    }
    cs.eopgm[pc] = plan.eopgm ? Number(readField(t, mem, 'eopgm', 0, off)) : 0;
  }
  return cs;
}

/** Per-iterator control fields in ControlStore order, with the value an absent field reads as. */
const CONTROL_FIELDS = ['is_eol', 'sol_pc', 'numloops', 'numloops_final', 'final_iter_mask', 'post_final_enbl'] as const;
const CONTROL_DEFAULTS = [0, 0, 1, 1, 0, 0] as const;
interface ControlPlan {
  /** [field * NUM_ITERS + iterator] -> (table field name, element index), or undefined when the table lacks it. */
  readonly loc: Array<readonly [string, number] | undefined>;
  readonly eopgm: boolean;
}
const planCache = new WeakMap<CompiledTable, ControlPlan>();
/** Where each iterator field lives in a control table (`iter<i>_<name>` or element i of `<name>`), resolved once per table. */
function controlPlan(t: CompiledTable): ControlPlan {
  let p = planCache.get(t);
  if (!p) {
    const loc: Array<readonly [string, number] | undefined> = [];
    for (const name of CONTROL_FIELDS)
      for (let i = 0; i < NUM_ITERS; i++) {
        const scalar = `iter${i}_${name}`;
        const arr = t.byName.get(name);
        loc.push(t.byName.has(scalar) ? [scalar, 0] : arr && arr.count > i ? [name, i] : undefined);
      }
    p = { loc, eopgm: t.byName.has('eopgm') };
    planCache.set(t, p);
  }
  return p;
}

/** Per-iterator control of one instruction, as plain numbers (for building stores in tests and tools). */
export interface IterSpec {
  is_eol?: number;
  sol_pc?: number;
  /** N (not N-1). */
  numloops?: number;
  /** N (not N-1). */
  numloops_final?: number;
  final_iter_mask?: number;
  post_final_enbl?: number;
}

/** Builds a ControlStore directly from per-instruction iterator specs (no bit encoding). */
export function controlStoreFrom(prog: Array<{ iters?: Array<IterSpec | undefined>; eopgm?: number }>, depth = SEQ_DEPTH): ControlStore {
  const cs = emptyControlStore(depth);
  prog.forEach((ins, pc) => {
    for (let i = 0; i < NUM_ITERS; i++) {
      const s = ins.iters?.[i];
      if (!s) continue;
      const k = pc * NUM_ITERS + i;
      cs.isEol[k] = s.is_eol ?? 0;
      cs.solPc[k] = s.sol_pc ?? 0;
      cs.numloops[k] = s.numloops ?? 1;
      cs.numloopsFinal[k] = s.numloops_final ?? 1;
      cs.finalIterMask[k] = i === 0 ? 0 : (s.final_iter_mask ?? 0);
      cs.postFinalEn[k] = s.post_final_enbl ?? 0;
    }
    cs.eopgm[pc] = ins.eopgm ?? 0;
  });
  return cs;
}

/** Why the core stopped abnormally. */
export type CoreFault = 'pc_overflow' | undefined;

/**
 * The sequencer core state machine (seq §2.1.4, §3 item 2). `step()` executes
 * the instruction at `pc`; the outputs describing that executed instruction
 * are `execPc`, `execCount`, `postFinal`, `itersEqZero`, `itersEqNloops`.
 */
export class SequencerCore {
  store: ControlStore;
  pc = 0;
  /** Hardware iterator counts (`iter[i].count`). */
  readonly count = new Int32Array(NUM_ITERS);
  running = false;
  done = false;
  fault: CoreFault;
  // outputs of the last executed instruction
  execPc = 0;
  readonly execCount = new Int32Array(NUM_ITERS);
  postFinal = false;
  private eqZero = 0;
  private eqN = 0;
  /** The last step had no final_iter_mask: `itersEqZero` / `itersEqNloops` are derived from `execCount` on demand. */
  private lazyFlags = false;
  /** Bit i: iterator i count is 0 (seq §2.1.3). */
  get itersEqZero(): number {
    if (this.lazyFlags) this.flags();
    return this.eqZero;
  }
  /** Bit i: iterator i is at its effective last count (seq §2.1.3). */
  get itersEqNloops(): number {
    if (this.lazyFlags) this.flags();
    return this.eqN;
  }
  /** find_ending_loop_counts() of the executed instruction without final_iter_mask: no cascades, eff = numloops. */
  private flags(): void {
    this.lazyFlags = false;
    const base = this.execPc * NUM_ITERS;
    const numloops = this.store.numloops;
    const ec = this.execCount;
    let z = 0;
    let n = 0;
    for (let i = 0; i < NUM_ITERS; i++) {
      // branch-free (the counts change every step: compares as branches mispredict): x === 0 as ((x | -x) >>> 31) ^ 1
      const c = ec[i]!;
      const e = c - (numloops[base + i]! - 1);
      z |= ((((c | -c) >>> 31) ^ 1) << i);
      n |= ((((e | -e) >>> 31) ^ 1) << i);
    }
    this.eqZero = z;
    this.eqN = n;
  }
  /** Set when the executed instruction was the completing EOPGM instruction. */
  programDone = false;
  /** Instructions executed since start. */
  executed = 0;
  // scratch (no per-step allocation)
  private readonly effIgn = new Uint8Array(NUM_ITERS);
  /** Per pc of `store`: 1 when some iterator has a final_iter_mask (computed at `start`, so `step` can skip the cascade logic). */
  private hasFinal = new Uint8Array(SEQ_DEPTH);
  /** Per pc of `store`: bit i set when iterator i is an end-of-loop iterator there (`is_eol`, computed at `start`). */
  /** Per pc: the end-of-loop iterators (bit i); read by steadyBatch.ts fillSchedule (runs of equal addresses). */
  eolMask = new Uint8Array(SEQ_DEPTH);

  constructor(store: ControlStore = emptyControlStore()) {
    this.store = store;
  }

  /** Starts a program at StartPC (seq §3 item 1); iterators start at zero. */
  start(startPc: number, store?: ControlStore): void {
    if (store) this.store = store;
    this.pc = startPc;
    this.count.fill(0);
    this.running = true;
    this.done = false;
    this.fault = undefined;
    this.programDone = false;
    this.executed = 0;
    const st = this.store;
    if (this.hasFinal.length < st.depth) this.hasFinal = new Uint8Array(st.depth);
    if (this.eolMask.length < st.depth) this.eolMask = new Uint8Array(st.depth);
    for (let pc = 0; pc < st.depth; pc++) {
      let any = 0;
      let eol = 0;
      for (let i = 1; i < NUM_ITERS; i++) if (st.finalIterMask[pc * NUM_ITERS + i] !== 0) any = 1;
      for (let i = 0; i < NUM_ITERS; i++) if (st.isEol[pc * NUM_ITERS + i] !== 0) eol |= 1 << i;
      this.hasFinal[pc] = any;
      this.eolMask[pc] = eol;
    }
  }

  /**
   * Steady-state batching (Uie.runAhead): how many of the next steps (at most `max`) stay at the current pc — no
   * final_iter_mask here (so no cascade or post-final), every end-of-loop iterator of the pc has this pc as sol_pc, and
   * the step is not the one where all of them are at their last count (which moves on to the next pc). Such steps
   * only advance the pc's end-of-loop iterators as an odometer (`advance`), exactly as `step` (Figure 2-7) would.
   */
  repeatable(max: number): number {
    if (!this.running) return 0;
    const pc = this.pc;
    const s = this.store;
    if (pc < 0 || pc >= s.depth || this.hasFinal[pc] !== 0) return 0;
    let m = this.eolMask[pc]!;
    if (m === 0) return 0;
    const base = pc * NUM_ITERS;
    // steps left at this pc = (all-last value) - (current value) of the mixed-radix number of the end-of-loop counts
    // (innermost = highest id = least significant digit); evaluated from the outermost digit, clamped
    let left = 0;
    while (m !== 0) {
      const low = m & -m;
      m ^= low;
      const i = 31 - Math.clz32(low);
      const n = s.numloops[base + i]!;
      const c = this.count[i]!;
      if (s.solPc[base + i] !== pc || n < 1 || c > n - 1) return 0;
      left = left * n + (n - 1 - c);
      if (left > 1e12) left = 1e12;
    }
    return left < max ? left : max;
  }

  /** One step of the odometer of `repeatable` on `cnt` (the pc's end-of-loop iterators, innermost first). */
  advance(cnt: Int32Array): void {
    const pc = this.pc;
    const base = pc * NUM_ITERS;
    const numloops = this.store.numloops;
    let m = this.eolMask[pc]!;
    while (m !== 0) {
      const i = 31 - Math.clz32(m);
      m ^= 1 << i;
      if (cnt[i] === numloops[base + i]! - 1) {
        cnt[i] = 0;
        continue;
      }
      cnt[i] = cnt[i]! + 1;
      return;
    }
  }

  /**
   * Performs `n` steps counted by `repeatable` without their outputs (execPc / execCount / flags are left as they
   * are): `cnt` is `count` advanced `n` times with `advance`. The caller consumes those outputs itself and runs at
   * least the last step with `step`.
   */
  skipTo(cnt: Int32Array, n: number): void {
    this.count.set(cnt);
    this.executed += n;
  }

  /**
   * Executes one microinstruction (Figure 2-7). Returns false if the core is
   * not running (done, faulted or never started).
   */
  step(): boolean {
    if (!this.running) return false;
    const s = this.store;
    const pc = this.pc;
    if (pc < 0 || pc >= s.depth) {
      this.running = false;
      this.fault = 'pc_overflow';
      return false;
    }
    const base = pc * NUM_ITERS;
    const count = this.count;
    const numloops = s.numloops;
    if (this.hasFinal[pc] === 0) {
      // no final_iter_mask at this pc: no cascades, no post-final (numloops_final unused), eff = numloops. The outputs
      // are the counts before the update; itersEqZero / itersEqNloops are derived from them on demand (`flags`). The
      // loop evaluation below visits the end-of-loop iterators highest first, and each one's "at its last count" test
      // reads its count before it is changed, so find_ending_loop_counts() and eval_iterator() fuse into one pass.
      this.execPc = pc;
      const ec = this.execCount;
      ec[0] = count[0]!;
      ec[1] = count[1]!;
      ec[2] = count[2]!;
      ec[3] = count[3]!;
      ec[4] = count[4]!;
      ec[5] = count[5]!;
      this.postFinal = false;
      this.lazyFlags = true;
      this.programDone = false;
      this.executed++;
      let m = this.eolMask[pc]!;
      while (m !== 0) {
        const i = 31 - Math.clz32(m);
        m ^= 1 << i;
        const c = count[i]!;
        if (c === numloops[base + i]! - 1) {
          count[i] = 0;
          continue;
        }
        count[i] = c + 1;
        this.pc = s.solPc[base + i]!;
        return true;
      }
      this.pc = pc + 1;
      if (s.eopgm[pc]) {
        this.programDone = true;
        this.done = true;
        this.running = false;
      }
      return true;
    }
    // find_ending_loop_counts(): eqN bit i = iterator i at its effective last count (eff[i] of Figure 2-7)
    let isPostFinal = false;
    let eqZero = 0;
    let eqN = 0;
    // a pc with a final_iter_mask: cascades and post-final (Figure 2-7)
    const effIgn = this.effIgn;
    const c0 = count[0]!;
    const last0 = c0 === numloops[base]! - 1 ? 1 : 0;
    effIgn[0] = last0;
    if (c0 === 0) eqZero |= 1;
    if (last0) eqN |= 1;
    for (let i = 1; i < NUM_ITERS; i++) {
      const k = base + i;
      const mask = s.finalIterMask[k]!;
      let isFinalOuter = mask !== 0;
      if (isFinalOuter) {
        for (let o = 0; o < i; o++) {
          if ((mask >> o) & 1 && !effIgn[o]) {
            isFinalOuter = false;
            break;
          }
        }
      }
      const c = count[i]!;
      const atN = c === numloops[k]! - 1;
      const atFinal = isFinalOuter && c === s.numloopsFinal[k]! - 1;
      const pf = s.postFinalEn[k]! !== 0;
      effIgn[i] = atN || atFinal ? 1 : 0;
      if (isFinalOuter && pf && c > s.numloopsFinal[k]! - 1) isPostFinal = true;
      if (c === 0) eqZero |= 1 << i;
      if (atN || (atFinal && !pf)) eqN |= 1 << i;
    }
    this.execPc = pc;
    const ec = this.execCount;
    ec[0] = count[0]!;
    ec[1] = count[1]!;
    ec[2] = count[2]!;
    ec[3] = count[3]!;
    ec[4] = count[4]!;
    ec[5] = count[5]!;
    this.postFinal = isPostFinal;
    this.lazyFlags = false;
    this.eqZero = eqZero;
    this.eqN = eqN;
    this.programDone = false;
    this.executed++;
    // eval_iterator(MAX_ITERATOR_ID), iteratively from inner to outer: iterators that are not end-of-loop here are
    // passed unchanged, so only the is_eol ones (bit mask, highest first) are visited. The first one not at its
    // effective last count advances and jumps to its sol_pc; the ones at their last count before it wrap to 0; if all
    // wrap, the pc advances (and EOPGM ends the program).
    let m = this.eolMask[pc]!;
    while (m !== 0) {
      const i = 31 - Math.clz32(m);
      m ^= 1 << i;
      if ((eqN >> i) & 1) {
        count[i] = 0;
        continue;
      }
      count[i] = count[i]! + 1;
      this.pc = s.solPc[base + i]!;
      return true;
    }
    this.pc = pc + 1;
    if (s.eopgm[pc]) {
      this.programDone = true;
      this.done = true;
      this.running = false;
    }
    return true;
  }
}
