/**
 * `pyxis-sim run --compare NAME=REF.npy[,rtol=R][,atol=A]` (every target): after a completed run, the tensor NAME
 * (what the target's float dump gives: `MachineResult.readTensor`) against a reference `.npy`: max absolute, RMS and
 * max relative error, and the count of values outside |x - ref| <= atol + rtol x |ref| (numpy.allclose; defaults
 * rtol = 1e-5, atol = 1e-8 as numpy's). Outside the tolerance, or a different number of values, exits 1 (CLI0033 /
 * CLI0034). The reference is read before the run, so a missing file never costs a simulation.
 */
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { readNpy, readInputFile, type Tensor } from '@pyxis/container';
import { decodeArray } from '@pyxis/formats';
import type { RunTensor } from '@pyxis/target';

export const COMPARE_CODES = { outside: 'CLI0033', size: 'CLI0034' } as const;
export const DEFAULT_RTOL = 1e-5;
export const DEFAULT_ATOL = 1e-8;

export interface CompareSpec {
  name: string;
  file: string;
  rtol: number;
  atol: number;
}

/** `NAME=FILE.npy[,rtol=R][,atol=A]`; NAME may hold `:` and `.` (a systolic `Identity:0`, an XNU `job.topk`). */
export function parseCompareSpec(s: string): CompareSpec {
  const eq = s.indexOf('=');
  if (eq <= 0) throw new UsageError(`--compare expects NAME=REF.npy[,rtol=R][,atol=A], got \`${s}\``);
  const [file, ...opts] = s.slice(eq + 1).split(',');
  if (!file) throw new UsageError(`--compare ${s}: no reference file`);
  const spec: CompareSpec = { name: s.slice(0, eq), file, rtol: DEFAULT_RTOL, atol: DEFAULT_ATOL };
  for (const o of opts) {
    const m = /^(rtol|atol)=(.+)$/.exec(o);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !(v >= 0) || !Number.isFinite(v)) throw new UsageError(`--compare ${s}: \`${o}\` is not rtol=R or atol=A with a number >= 0`);
    spec[m[1] as 'rtol' | 'atol'] = v;
  }
  return spec;
}

/** A reference tensor's values as float64 (float16 / bfloat16 decoded from their bits). */
export function referenceValues(t: Tensor): Float64Array {
  if (t.dtype === 'float16') return decodeArray('IEEE_FP16', t.data as Uint16Array, 0);
  if (t.dtype === 'bfloat16') return decodeArray('BF16', t.data as Uint16Array, 0);
  return Float64Array.from(t.data as ArrayLike<number>, Number);
}

export function readReference(spec: CompareSpec): Float64Array {
  return referenceValues(readNpy(readInputFile(spec.file), spec.file));
}

export interface CompareResult {
  n: number;
  maxAbs: number;
  rms: number;
  maxRel: number;
  outside: number;
  /** Index of the worst value outside the tolerance (or of the largest error). */
  worst: number;
}

/** The figures of `got` against `ref` (same length). NaN against a non-NaN reference is outside; NaN vs NaN equal. */
export function compareValues(got: ArrayLike<number>, ref: Float64Array, rtol: number, atol: number): CompareResult {
  let maxAbs = 0, s2 = 0, maxRel = 0, outside = 0, worst = 0, worstExcess = -Infinity;
  for (let i = 0; i < ref.length; i++) {
    const a = Number(got[i]);
    const r = ref[i]!;
    if (Number.isNaN(a) && Number.isNaN(r)) continue;
    const e = a === r ? 0 : Math.abs(a - r); // equal infinities: no error
    const err = Number.isNaN(e) ? Infinity : e;
    if (err > maxAbs) maxAbs = err;
    s2 += err * err;
    if (r !== 0 && Number.isFinite(r)) maxRel = Math.max(maxRel, err / Math.abs(r));
    const excess = err - (atol + rtol * Math.abs(r));
    if (excess > 0 || Number.isNaN(excess)) outside++;
    if (excess > worstExcess) {
      worstExcess = excess;
      worst = i;
    }
  }
  return { n: ref.length, maxAbs, rms: ref.length ? Math.sqrt(s2 / ref.length) : 0, maxRel, outside, worst };
}

const g = (v: number) => (Number.isFinite(v) ? v.toPrecision(4) : String(v));

/** Compares and returns the line to print; throws CLI0033 / CLI0034 (exit 1) with that line when it fails. */
export function checkCompare(spec: CompareSpec, got: RunTensor, ref: Float64Array): string {
  const n = got.shape.reduce((a, b) => a * b, 1);
  if (n !== ref.length || got.data.length !== ref.length)
    throw new DiagnosticError({ severity: 'error', code: COMPARE_CODES.size, message: `--compare ${spec.name}: the run's \`${spec.name}\` has ${got.data.length} values (shape [${got.shape.join(', ')}]), ${spec.file} has ${ref.length}` });
  const r = compareValues(got.data, ref, spec.rtol, spec.atol);
  const line = `compare ${spec.name} vs ${spec.file}: ${r.n} values, max |err| ${g(r.maxAbs)}, RMS err ${g(r.rms)}, max rel err ${g(r.maxRel)}; ${r.outside} outside rtol=${spec.rtol} atol=${spec.atol}`;
  if (r.outside > 0)
    throw new DiagnosticError({
      severity: 'error',
      code: COMPARE_CODES.outside,
      message: `${line}: FAILED`,
      notes: [`worst: index ${r.worst}: got ${g(Number(got.data[r.worst]))}, reference ${g(ref[r.worst]!)}`],
    });
  return `${line}: ok\n`;
}
