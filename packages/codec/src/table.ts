/**
 * Declarative field tables: the one format every instruction word, descriptor
 * and configuration-table entry of every target is described in. Tables live
 * as JSON under `grammars/<target>/`; see docs/field-tables.md.
 */

/** One field as written in a grammar file. */
export interface FieldSpec {
  /** Spec name, verbatim (snake_case as in the spec tables). */
  name: string;
  /**
   * Extra names front ends accept for this field (e.g. the spec's pseudo-code
   * spelling `hbuf_write_ctl` for `hbuf_wr_control`). Never replaces `name`:
   * encode/decode/validate and every output use `name` only.
   */
  aliases?: string[];
  /** Bits per element, 1..64. */
  width: number;
  /** Array field (e.g. `iter_stride[0..5]`): `count` elements of `width` bits, element i at `lsb + i*width`. */
  count?: number;
  /** Bit position of the field's least significant bit; default: right after the previous field. */
  lsb?: number;
  /** Two's complement. */
  signed?: boolean;
  /** Symbolic codepoints: name -> value. When present only these values are legal. */
  enum?: Record<string, number>;
  /**
   * Extra spellings of enum values, alias -> canonical enum name (e.g. the
   * spec's `RD_1x1_MATMUL_FP16` for `RD_1X1_MATMUL_FP16`). Accepted wherever
   * an enum name is (encode, validate, assembly source, IR input); every
   * output (decode, IR, disassembly) uses the canonical name. An alias may not
   * equal an enum name, and its target must be one.
   */
  enum_aliases?: Record<string, string>;
  /**
   * The enum names only some codepoints: every value of the width is legal
   * (a hardware port wider than its named codes, e.g. the XNU `rounding`
   * port); unnamed values are written and printed as numbers.
   */
  enum_open?: boolean;
  /** Value taken when the user omits the field (number, enum name, or array for array fields). */
  default?: number | string | number[];
  /** "Encoded as N-1": the user writes N in 1..2^width, the word stores N-1. */
  minus_one?: boolean;
  /** Codepoint 0 means 2^width (e.g. `num_logical_ptns`: 0 = all 8): user writes 1..2^width. */
  zero_means_max?: boolean;
  /** Reserved/padding: not user-settable, always encoded as 0 (or `default`). */
  reserved?: boolean;
  /** Human description (from the spec). */
  doc?: string;
  /** Spec section reference for this field. */
  spec?: string;
  /**
   * What the field is FOR, for tools that treat some fields specially (an
   * identifier, e.g. `opcode`, `iter_mask`, `iter_id`, `vpu_count`; the
   * roles in use are listed in docs/field-tables.md). The codec only checks
   * its spelling: roles never change the encoding.
   */
  role?: string;
}

export interface FieldTable {
  /** Table name, e.g. `amem_read_op`. */
  name: string;
  /** Human title, e.g. "AMEM Read sequencer op instruction". */
  title?: string;
  /** Target (pyxis, neuroncore, systolic, xnu). */
  target?: string;
  /** Spec reference, e.g. `pyxis-uie-sequencers-fspec.md §5.1`. */
  spec?: string;
  /** Total word width in bits; fields must fit. Default: end of the last field. */
  width?: number;
  doc?: string;
  fields: FieldSpec[];
  /** Free-form extra data for tools (e.g. which sequencer a word belongs to). */
  meta?: Record<string, unknown>;
}

/** A field after layout: positions resolved and limits precomputed. */
export interface CompiledField extends FieldSpec {
  lsb: number;
  count: number;
  /** Smallest and largest user-visible value (after N-1 / zero-means-max mapping). */
  min: bigint;
  max: bigint;
  /** Reverse enum: codepoint -> name. */
  enumNames?: Map<number, string>;
}

export interface CompiledTable {
  name: string;
  title?: string;
  target?: string;
  spec?: string;
  doc?: string;
  width: number;
  bytes: number;
  fields: CompiledField[];
  byName: Map<string, CompiledField>;
  /** alias -> field, for tables whose fields declare `aliases` (see `lookupField`). */
  byAlias?: Map<string, CompiledField>;
  meta?: Record<string, unknown>;
  /** Where the table was loaded from (for messages). */
  source?: string;
}

/** The value of one field: a scalar (number/bigint/enum name) or, for array fields, one per element. */
export type FieldScalar = number | bigint | string;
export type FieldValue = FieldScalar | FieldScalar[];
export type FieldValues = Record<string, FieldValue>;

/** Decoded values: numbers where they fit in 53 bits, bigint beyond. Enum fields decode to their codepoint. */
export type DecodedScalar = number | bigint;
export type DecodedValue = DecodedScalar | DecodedScalar[];
export type DecodedValues = Record<string, DecodedValue>;
