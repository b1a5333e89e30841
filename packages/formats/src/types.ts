import type { Rounding } from './bits.js';

export type { Rounding } from './bits.js';

export type FormatName =
  | 'RFP8'
  | 'RFP16'
  | 'LnsI4F3'
  | 'LnsI5F3'
  | 'LnsI5F10'
  | 'MNS13'
  | 'MNS18'
  | 'Int16'
  | 'Int32'
  | 'UInt32'
  | 'OCP_E4M3'
  | 'OCP_E5M2'
  | 'IEEE_FP16'
  | 'FP32'
  | 'BF16'
  | 'TF32'
  | 'FP8_E4M3'
  | 'FP8_E5M2'
  | 'FP8BP4'
  | 'FP16BP8'
  | 'FP18BP10'
  | 'FP32BP16';

export type FormatFamily = 'pyxis-fp' | 'pyxis-lns' | 'mns' | 'ieee' | 'fixed';

export interface EncodeOptions {
  /** Exponent bias (Pyxis formats and MNS; ignored elsewhere). Default 0. */
  eb?: number;
  /**
   * Overflow (and +-infinity input) handling. `true`: clamp to the maximum
   * magnitude code. `false`: NaN code (or infinity for IEEE formats with
   * infinities; wrap-around for fixed point). Default: true for Pyxis, MNS and
   * fixed-point formats (the hardware always saturates), false for IEEE/OCP/NeuronCore.
   */
  saturate?: boolean;
  /**
   * 'rne' round to nearest, ties to even; 'rtz' truncate toward zero (log domain for LNS). Default: the
   * format's own rounding, which is 'rne' except for the Tensil fixed-point types (ties half up, as the
   * Tensil tools); an explicit 'rne' is honoured by them too.
   */
  rounding?: Rounding;
}

export interface ReservedCode {
  code: number;
  meaning: string;
}

export interface FormatDescriptor {
  readonly name: FormatName;
  /** Width of a code in bits (TF32: 32, FP32 container with the low 13 bits zero). */
  readonly bits: number;
  /** True when the value depends on a user-defined exponent bias (chip §4.5, §4.6). */
  readonly hasEb: boolean;
  readonly family: FormatFamily;
  /** Where the format is defined. */
  readonly spec: string;
  /** Exponent (integer-part) and fraction field widths; fixed point: integer and fraction bits. */
  readonly ebits: number;
  readonly fbits: number;
  /** Reserved codepoints with their meaning. */
  readonly reserved: readonly ReservedCode[];
  /** Canonical NaN code (undefined when the format has no NaN). */
  readonly nanCode: number | undefined;
  /** Largest positive finite code (the saturating maximum). */
  readonly maxCode: number;
  decode(code: number, eb?: number): number;
  encode(value: number, opts?: EncodeOptions): number;
  /**
   * encode() with explicit, already validated options (array hot loops). `tiesEven` (an explicit
   * `rounding: 'rne'`) overrides a format whose native ties differ (the Tensil fixed-point types round
   * half up); undefined keeps the format's own rounding.
   */
  encodeWith(value: number, eb: number, saturate: boolean, rtz: boolean, tiesEven?: boolean): number;
  isNaN(code: number): boolean;
}
