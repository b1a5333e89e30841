/**
 * Diagnostics raised by @pyxis/formats. Every bad input (unknown format name,
 * out-of-range EB adjustment, code wider than its format, invalid option) is a
 * `DiagnosticError` with a stable code and, for hardware rules, the spec section.
 */
import { DiagnosticError, error, type Span } from '@pyxis/diagnostics';

export const FormatErrorCode = {
  unknownFormat: 'FMT0001',
  ebAdjRange: 'FMT0002',
  codeRange: 'FMT0003',
  badOption: 'FMT0004',
  badValue: 'FMT0005',
  badArray: 'FMT0006',
} as const;

export const CHIP = 'pyxis-chip-fspec.md';
export const SEQ = 'pyxis-uie-sequencers-fspec.md';

export function fail(code: string, message: string, spec?: string, span?: Span, notes?: string[]): never {
  const extra: Record<string, unknown> = {};
  if (spec) extra.spec = spec;
  if (span) extra.span = span;
  if (notes && notes.length) extra.notes = notes;
  throw new DiagnosticError(error(code, message, extra));
}

/** EB_adj is a 6-bit signed integer in [-32, 31] (chip §6.5). */
export function checkEbAdj(ebAdj: number, what = 'EB_adj'): void {
  if (!Number.isInteger(ebAdj) || ebAdj < -32 || ebAdj > 31) {
    fail(FormatErrorCode.ebAdjRange, `${what} = ${ebAdj} is outside the 6-bit signed range [-32, 31]`, `${CHIP} §6.5`);
  }
}

/** An exponent bias must be a (usually negative) integer (chip §4.5). */
export function checkEb(eb: number, what = 'EB'): void {
  if (!Number.isInteger(eb) || Math.abs(eb) > 1000) {
    fail(FormatErrorCode.badOption, `${what} = ${eb} is not an integer exponent bias in [-1000, 1000]`, `${CHIP} §4.5`);
  }
}

const LIMIT = new Float64Array(54);
for (let b = 0; b < 54; b++) LIMIT[b] = Math.pow(2, b);

export function checkCode(code: number, bits: number, fmt: string, span?: Span): void {
  if (!(code >= 0 && code < LIMIT[bits]! && Number.isInteger(code))) {
    fail(FormatErrorCode.codeRange, `code ${code} does not fit the ${bits}-bit format ${fmt}`, undefined, span);
  }
}

const OPTION_KEYS: Record<string, readonly string[]> = {
  encode: ['eb', 'saturate', 'rounding'],
  convert: ['eb', 'saturate', 'rounding', 'fromEb'],
  decode: ['eb', 'out', 'float32'],
  mapping: ['ebAdj', 'mappingCorrection', 'fbitsTruncateAmt'],
  fp8map: ['ebAdj', 'mappingCorrection'],
  import: ['ebAdj', 'saturate'],
  export: ['ebAdj', 'saturate', 'maxToInf'],
};

/** An exponent bias given to a format without one would be silently ignored: FMT0004 unless it is 0. */
export function checkNoEb(fmt: { name: string; hasEb: boolean }, eb: unknown, fn: string, what = 'eb'): void {
  if (!fmt.hasEb && eb !== undefined && eb !== 0)
    fail(FormatErrorCode.badOption, `${fn}: ${fmt.name} has no exponent bias; \`${what}: ${String(eb)}\` would be ignored`, undefined, undefined, [`leave \`${what}\` out (or 0) for ${fmt.name}`]);
}

/**
 * Options objects are checked, not trusted: a bare number (`encode(x, -8)`), a misspelt key (`{ EB: -8 }`)
 * or a value of the wrong type is FMT0004 instead of silently meaning the defaults.
 */
export function checkOptions(opts: unknown, kind: 'encode' | 'convert' | 'decode' | 'mapping' | 'fp8map' | 'import' | 'export', fn: string): void {
  if (opts === undefined) return;
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts) || ArrayBuffer.isView(opts))
    fail(FormatErrorCode.badOption, `${fn}: options must be an object like { ${OPTION_KEYS[kind]!.join(', ')} }, got ${typeof opts === 'number' ? `the number ${opts}` : String(opts)}`, undefined, undefined,
      typeof opts === 'number' && kind !== 'decode' ? [`for an exponent bias write { eb: ${opts} }`] : []);
  const o = opts as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!OPTION_KEYS[kind]!.includes(k)) {
      const near = OPTION_KEYS[kind]!.find((x) => x.toLowerCase() === k.toLowerCase());
      fail(FormatErrorCode.badOption, `${fn}: unknown option \`${k}\` (options: ${OPTION_KEYS[kind]!.join(', ')})`, undefined, undefined, near ? [`did you mean \`${near}\`?`] : []);
    }
    const v = o[k];
    if (v === undefined) continue;
    const bad = (want: string) => fail(FormatErrorCode.badOption, `${fn}: option \`${k}\` must be ${want}, got ${JSON.stringify(v) ?? String(v)}`);
    if ((k === 'eb' || k === 'fromEb' || k === 'ebAdj' || k === 'fbitsTruncateAmt') && typeof v !== 'number') bad('an integer');
    if ((k === 'saturate' || k === 'float32' || k === 'mappingCorrection' || k === 'maxToInf') && typeof v !== 'boolean') bad('true or false');
    if (k === 'rounding' && v !== 'rne' && v !== 'rtz') bad("'rne' or 'rtz'");
    if (k === 'out' && !(v instanceof Float64Array || v instanceof Float32Array)) bad('a Float64Array or Float32Array');
  }
}
