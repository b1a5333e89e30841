/**
 * The reference of a collective's outputs, computed here in float64 from the generator's inputs (never from the
 * simulator): which chunk of which chip holds what after each algorithm (docs/collectives.md).
 */
import type { CollectiveRun } from './collective-run.js';

/** [chip, chunk, expected float64 values, sum of magnitudes (for the rounding bound), count of roundings] */
export type Expect = { c: number; j: number; ref: Float64Array; mag: Float64Array; roundings: number };

export function expectations(r: Pick<CollectiveRun, 'o' | 'inputs'>): Expect[] {
  const N = r.o.chips;
  const n = r.o.rows * 128;
  const sum = (j: number) => {
    const ref = new Float64Array(n);
    const mag = new Float64Array(n);
    for (let c = 0; c < N; c++)
      for (let i = 0; i < n; i++) {
        ref[i] += r.inputs[c][j][i];
        mag[i] += Math.abs(r.inputs[c][j][i]);
      }
    return { ref, mag };
  };
  const out: Expect[] = [];
  for (let c = 0; c < N; c++)
    for (let j = 0; j < N; j++) {
      if (r.o.algorithm === 'ring-allgather') {
        const ref = Float64Array.from(r.inputs[j][j]);
        out.push({ c, j, ref, mag: ref.map(Math.abs), roundings: 1 });
      } else if (r.o.algorithm !== 'ring-reducescatter' || j === (c + 1) % N) {
        // N input conversions to RFP16 and N - 1 InMemAdds: 2N - 1 roundings of values bounded by sum |x|
        out.push({ c, j, ...sum(j), roundings: 2 * N - 1 });
      }
    }
  return out;
}

/**
 * RFP16 (S E5 F10, EB -15 here; docs/formats.md, chip §4.2): one rounding of a value v errs by at most one unit of
 * its last place, 2^-10 |v| (whatever the rounding mode), or by 2^-15 (the smallest normal, EB -15) when it leaves
 * the range. A sum of N terms rounded k times (each partial sum bounded by sum |x| to first order) errs by at most
 * k (2^-10 sum|x| + 2^-15) (1 + k 2^-10).
 */
export function roundingBound(mag: number, roundings: number): number {
  return roundings * (2 ** -10 * mag + 2 ** -15) * (1 + roundings * 2 ** -10);
}

/** Compares; returns a list of readable mismatches (empty = all good). */
export function mismatches(r: CollectiveRun, exact: boolean): string[] {
  const bad: string[] = [];
  for (const e of expectations(r)) {
    const o = r.outputs[e.c][e.j];
    for (let i = 0; i < o.length; i++) {
      const err = Math.abs(o[i] - e.ref[i]);
      const tol = exact ? 0 : roundingBound(e.mag[i], e.roundings);
      if (!(err <= tol)) {
        bad.push(`chip${e.c} x_c${e.j}[${i}] = ${o[i]}, expected ${e.ref[i]} (error ${err} > ${tol})`);
        break;
      }
    }
  }
  return bad;
}

/** Chunks that must be bitwise identical on every chip after an all-reduce / all-gather (the same RFP16 values). */
export function disagreements(r: CollectiveRun): string[] {
  if (r.o.algorithm === 'ring-reducescatter') return [];
  const bad: string[] = [];
  for (let j = 0; j < r.o.chips; j++)
    for (let c = 1; c < r.o.chips; c++) {
      const a = r.outputs[0][j];
      const b = r.outputs[c][j];
      if (a.some((v, i) => !Object.is(v, b[i]))) bad.push(`chunk ${j}: chip${c} differs from chip0`);
    }
  return bad;
}
