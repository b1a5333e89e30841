/**
 * Quantisation of a float tensor the linker converts to a Pyxis element format (`tensor x { format = RFP8;
 * data = "x.npy"; }`): the codes decoded back (@pyxis/formats) against the float data, reported in the map (text and
 * JSON), at `--log-level info` and, above the documented threshold (docs/linker.md "Quantisation of float tensors"),
 * as warning RPT0001. Relative errors are over the non-zero finite inputs.
 */
import { decodeArray, getFormat } from '@pyxis/formats';

/** RMS relative error above which a converted tensor gets RPT0001 (also: any saturated value, and more than QUANT_WARN_FLUSHED of the non-zero values flushed to zero, as LD0707 for weights). */
export const QUANT_WARN_RMS_REL = 0.05;
export const QUANT_WARN_FLUSHED = 0.01;

export interface TensorQuantisation {
  name: string;
  format: string;
  eb: number;
  elements: number;
  zeros: number;
  max_rel_error: number;
  rms_rel_error: number;
  /** 10 log10(sum x² / sum (y - x)²); Infinity when exact. */
  snr_db: number;
  /** Inputs beyond the format's largest magnitude at this EB, stored as that magnitude (values that changed). */
  saturated: number;
  /** Non-zero inputs stored as zero. */
  flushed_to_zero: number;
}

const tops = new Map<string, number>();

/** The largest finite magnitude of `format` at `eb` (every code decoded once, then cached). */
function largest(format: string, eb: number): number {
  const key = `${format}@${eb}`;
  let top = tops.get(key);
  if (top === undefined) {
    const f = getFormat(format);
    const n = f.bits <= 16 ? 1 << f.bits : 0;
    const all = n ? decodeArray(f, Uint32Array.from({ length: n }, (_, i) => i), f.hasEb ? eb : 0) : new Float64Array(0);
    top = 0;
    for (const v of all) if (Number.isFinite(v) && Math.abs(v) > top) top = Math.abs(v);
    tops.set(key, top);
  }
  return top;
}

export function tensorQuantisation(name: string, format: string, values: ArrayLike<number>, codes: Uint8Array | Uint16Array, eb: number): TensorQuantisation {
  const f = getFormat(format);
  const dec = decodeArray(f, codes, f.hasEb ? eb : 0);
  const top = largest(format, eb);
  let zeros = 0, nonzero = 0, maxRel = 0, sr2 = 0, sx2 = 0, se2 = 0, saturated = 0, flushed = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    const y = dec[i]!;
    if (!Number.isFinite(x)) continue;
    if (x === 0) {
      zeros++;
      continue;
    }
    sx2 += x * x;
    const e = y - x;
    if (Number.isFinite(e)) se2 += e * e;
    nonzero++;
    const r = Number.isFinite(y) ? Math.abs(e / x) : Infinity;
    if (r > maxRel) maxRel = r;
    if (Number.isFinite(r)) sr2 += r * r;
    if (y === 0) flushed++;
    else if (top > 0 && Math.abs(x) > top && y !== x) saturated++;
  }
  return {
    name,
    format,
    eb,
    elements: values.length,
    zeros,
    max_rel_error: maxRel,
    rms_rel_error: nonzero ? Math.sqrt(sr2 / nonzero) : 0,
    snr_db: se2 === 0 ? Infinity : 10 * Math.log10(sx2 / se2),
    saturated,
    flushed_to_zero: flushed,
  };
}

/** Why a tensor's quantisation deserves RPT0001 (empty: it does not). */
export function quantisationProblems(q: TensorQuantisation): string[] {
  const out: string[] = [];
  const nonzero = q.elements - q.zeros;
  if (q.saturated > 0) out.push(`${q.saturated} of ${q.elements} values saturated`);
  if (q.flushed_to_zero > QUANT_WARN_FLUSHED * nonzero) out.push(`${q.flushed_to_zero} of ${nonzero} non-zero values flushed to zero`);
  if (q.rms_rel_error > QUANT_WARN_RMS_REL) out.push(`RMS relative error ${(100 * q.rms_rel_error).toFixed(2)}% (over ${(100 * QUANT_WARN_RMS_REL).toFixed(0)}%)`);
  return out;
}
