/**
 * Shared pieces of the weights-path tests (compute-weights*.test.ts): independent reference conversions written from
 * the spec (never the simulator's code), the sim_config parameters, and a Rig driver that ticks every cycle and
 * records when WDP words were written.
 */
import { loadGrammarJson, type FieldValues } from '@pyxis/codec';
import { Rig, loops, type Ctl } from './uie-fixture.js';

export const P = loadGrammarJson<{ weights_path: Record<string, number> }>('pyxis', 'sim_config').weights_path;

/** Trip-valid bits of AMEM Weights Read (2) and WDP (3) (memory_map.json sequencer ids). */
export const WR_WDP = (1 << 2) | (1 << 3);

/**
 * LnsI4F3 / FP8 (4-bit exponent) -> LnsI5F3 with mapping correction disabled (chip §6.2.4.5: I5 = I4 + EB_Adj; the
 * 3 fraction bits pass): sign-magnitude, magnitude 0 = zero (+) or NaN (-), overflow saturates, E < 0 flushes to zero,
 * E = 0 with F = 0 is zero (docs/spec-notes.md "reserved pattern").
 */
export function i4toI5(code: number, eb: number): number {
  const s = (code >> 7) & 1;
  const mag = code & 0x7f;
  if (mag === 0) return s ? 0x100 : 0;
  const E = (mag >> 3) + eb;
  const F = mag & 7;
  if (E > 31) return (s << 8) | 0xff;
  if (E < 0 || (E === 0 && F === 0)) return 0;
  return (s << 8) | (E << 3) | F;
}

/** 16-bit (RFP16 / LnsI5F10) with mapping correction disabled: I5 = I5 + EB_Adj, 10 fraction bits pass. */
export function i5f10Adj(v: number, eb: number): number {
  const s = (v >> 15) & 1;
  const mag = v & 0x7fff;
  if (mag === 0) return s ? 0x8000 : 0;
  const E = (mag >> 10) + eb;
  const F = mag & 0x3ff;
  if (E > 31) return (s << 15) | 0x7fff;
  if (E < 0 || (E === 0 && F === 0)) return 0;
  return (s << 15) | (E << 10) | F;
}

/** A Rig with the weights path: data at AMEM 0 onwards. */
export function rig(): Rig {
  return new Rig({ attachGrid: false });
}

/** Programs one single-instruction loop nest for the Weights Read (pc 0). */
export function readLoop(r: Rig, iters: Array<{ n: number; nf?: number; mask?: number; pf?: number } | undefined>, op: FieldValues): void {
  r.prog('amem_weights_read', 0, loops(iters), { opcd: 'Read_SRAM', num_ptns: 8, ...op });
}

/** Control word of a single-instruction loop nest without post-final fields (seq_control of the compute sequencers). */
export function loopsC(iters: Array<{ n: number } | undefined>, eopgm = 1, solPc = 0): Ctl {
  const v: Ctl = { eopgm };
  iters.forEach((it, i) => {
    if (!it) return;
    v[`iter${i}_is_eol`] = 1;
    v[`iter${i}_sol_pc`] = solPc;
    v[`iter${i}_numloops`] = it.n;
  });
  return v;
}

/** Programs one single-instruction loop nest for the WDP (pc 0). */
export function wdpLoop(r: Rig, iters: Array<{ n: number } | undefined>, op: FieldValues): void {
  r.prog('wdp', 0, loopsC(iters), { opcd: 'WR_HBUF', ...op });
}

/**
 * Runs the trip ticking every cycle; `before(c)` runs before the tick of cycle c (e.g. GH returning credits).
 * Returns the cycles at which a WR_HBUF executed (cmp.stats.wdpWords moved) and the cycle count.
 */
export function runTicks(r: Rig, before?: (c: number) => void, max = 5000): { wr: number[]; cycles: number } {
  const wr: number[] = [];
  const st = r.uie.cmp.stats;
  let c = 0;
  for (; c < max && r.uie.busy; c++) {
    before?.(c);
    const w = st.wdpWords;
    r.uie.tick(c);
    if (st.wdpWords !== w) wr.push(c);
  }
  if (c === max) throw new Error(`runaway: ${r.uie.blockedReason()}`);
  r.now = c;
  return { wr, cycles: c };
}

/** Hbuf logical byte `a` of grid-row `row`. */
export function hb(r: Rig, row: number, a: number): number {
  return r.uie.cmp.hbuf.data[row * 4096 + a]!;
}

/** Deterministic bytes avoiding nothing in particular (xorshift). */
export function rnd(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    b[i] = x & 0xff;
  }
  return b;
}
