/**
 * Shared types and input checks for the weight-database packers
 * (pyxis-chip-fspec.md §14, §15).
 *
 * Diagnostic codes of this module: LD07xx.
 */
import { DiagnosticError, error, type Span } from '@pyxis/diagnostics';

export const CHIP_SPEC = 'pyxis-chip-fspec.md';
export const SEQ_SPEC = 'pyxis-uie-sequencers-fspec.md';

/** Where the weights came from; used for diagnostic spans (byte offset 0 if unknown). */
export interface WeightsSource {
  /** File (or symbol) the weights were read from, for diagnostics. */
  file?: string;
  /** Tensor name, for diagnostics and error reports. */
  name?: string;
}

export const LD_WEIGHTS_SHAPE = 'LD0701';
export const LD_WEIGHTS_PARAM = 'LD0702';
export const LD_WEIGHTS_DATA = 'LD0705';

function spanOf(src: WeightsSource | undefined): Span {
  return { file: src?.file ?? src?.name ?? '<weights>', offset: 0 };
}

/** Throws a DiagnosticError for a bad weights input (never a raw exception). */
export function fail(code: string, message: string, src?: WeightsSource, spec?: string): never {
  const extra: { span: Span; spec?: string } = { span: spanOf(src) };
  if (spec !== undefined) extra.spec = spec;
  throw new DiagnosticError(error(code, src?.name ? `${src.name}: ${message}` : message, extra));
}

/** Checks `shape` is [O, I] or [O, I, 1, 1] and `length` matches; returns [O, I]. */
export function shape2d(shape: readonly number[], length: number, src?: WeightsSource): [number, number] {
  let o: number, i: number;
  if (shape.length === 2) [o, i] = shape as [number, number];
  else if (shape.length === 4 && shape[2] === 1 && shape[3] === 1) [o, i] = [shape[0]!, shape[1]!];
  else fail(LD_WEIGHTS_SHAPE, `1x1/linear weights must have shape [O, I] or [O, I, 1, 1], got [${shape.join(', ')}]`, src);
  checkDims([o, i], src);
  if (o * i !== length) fail(LD_WEIGHTS_SHAPE, `shape [${shape.join(', ')}] needs ${o * i} elements, got ${length}`, src);
  return [o, i];
}

/** Checks `shape` is [O, I, 3, 3]; returns [O, I]. */
export function shape3x3(shape: readonly number[], length: number, src?: WeightsSource): [number, number] {
  if (shape.length !== 4 || shape[2] !== 3 || shape[3] !== 3)
    fail(LD_WEIGHTS_SHAPE, `3x3 kernel weights must have shape [O, I, 3, 3], got [${shape.join(', ')}]`, src, `${CHIP_SPEC} §15.1`);
  const o = shape[0]!, i = shape[1]!;
  checkDims([o, i], src);
  if (o * i * 9 !== length) fail(LD_WEIGHTS_SHAPE, `shape [${shape.join(', ')}] needs ${o * i * 9} elements, got ${length}`, src);
  return [o, i];
}

function checkDims(d: number[], src?: WeightsSource): void {
  for (const x of d)
    if (!Number.isInteger(x) || x <= 0 || x > 0x4000_0000)
      fail(LD_WEIGHTS_SHAPE, `weight dimensions must be positive integers, got [${d.join(', ')}]`, src);
}

/** A named byte range inside a database, for the linker's map/symbol table. */
export interface DbRegion {
  name: string;
  offset: number;
  size: number;
}

/**
 * Error of stored weights against the float input: quantisation of float weights stored as codes (chip §4: LnsI4F3 /
 * LnsI5F10 with EB `eb`), the same figures compressWeights reports for
 * superblocks: relative errors over non-zero weights, SNR over all.
 */
export interface QuantisationReport {
  /** Weights converted (excluding padding). */
  weights: number;
  /** Weights that are exactly zero in the input. */
  zeroWeights: number;
  /** max |w' - w| / |w| over non-zero weights. */
  maxRelError: number;
  /** sqrt(mean((w' - w)^2 / w^2)) over non-zero weights. */
  rmsRelError: number;
  /** 10 log10(sum w^2 / sum (w' - w)^2); Infinity when exact. */
  snrDb: number;
  /** Non-zero weights stored as zero (below the smallest magnitude). */
  flushedToZero: number;
  /** Weights clamped to the largest magnitude of the format (saturating conversion). */
  saturated: number;
}

/** RMS relative error over `nonzero` weights (sum of squared relative errors `sr2`) and SNR in dB (signal energy `sw2`, error energy `se2`). */
export function errorFigures(sw2: number, se2: number, sr2: number, nonzero: number): { rmsRelError: number; snrDb: number } {
  return { rmsRelError: nonzero ? Math.sqrt(sr2 / nonzero) : 0, snrDb: se2 === 0 ? Infinity : 10 * Math.log10(sw2 / se2) };
}
