/** Helpers of the grid tests: sequencer ids, trip masks, a run loop that feeds the AMEM -> grid switchbox FIFO. */
import { DiagnosticError } from '@pyxis/diagnostics';
import { Rig } from './uie-fixture.js';

export const AR = 0;
export const WDP = 3;
export const GH = 4;
export const GV = 5;
export const GX = 6;
export const GWB = 7;

export function seqMask(...ids: number[]): number {
  return ids.reduce((m, i) => m | (1 << i), 0);
}

/**
 * Runs the UIE until it is idle, pushing `feed` rows (128 RFP16 columns each) into sbReadToGrid whenever it has room.
 * Returns the cycles used.
 */
export function runFeed(r: Rig, feed: Uint16Array[] = [], max = 100000): number {
  const u = r.uie;
  const sb = u.sbReadToGrid;
  let i = 0;
  const start = r.now;
  while (u.busy) {
    if (i < feed.length && !sb.full) sb.pushColumns(feed[i++]!);
    u.tick(r.now);
    r.now++;
    if (r.now - start > max) throw new Error(`runaway: ${u.blockedReason()}`);
  }
  return r.now - start;
}

/** The diagnostic code thrown by `f` (the Rig reports rule errors by throwing DiagnosticError). */
export function thrownCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics[0]!.code;
    throw e;
  }
  return undefined;
}

export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

/** A random RFP16 code with exponent in [e0, e0 + span) (sign random), never the NaN pattern. */
export function rfp16(r: () => number, e0: number, span: number): number {
  return ((r() & 1) << 15) | ((e0 + (r() % span)) << 10) | (r() & 0x3ff);
}

/** A random LnsI5F3 code with integer part in [i0, i0 + span). */
export function i5f3(r: () => number, i0: number, span: number): number {
  return ((r() & 1) << 8) | ((i0 + (r() % span)) << 3) | (r() & 7);
}

export { Rig };

/** Control word of a single-instruction loop nest for the compute sequencers (seq_control: no post_final_enbl). */
export function gloops(iters: Array<{ n: number } | undefined>, eopgm = 1, solPc = 0): Record<string, number> {
  const v: Record<string, number> = { eopgm };
  iters.forEach((it, i) => {
    if (!it) return;
    v[`iter${i}_is_eol`] = 1;
    v[`iter${i}_sol_pc`] = solPc;
    v[`iter${i}_numloops`] = it.n;
    v[`iter${i}_numloops_final`] = it.n;
  });
  return v;
}
