/**
 * The UIE datapath's conversion points (chip §6.5 Table 6-4, §6.2.1.4,
 * §6.2.2.2, §4.9, §4.10; seq §5.1, §5.1.1, §6.1) wired onto @pyxis/formats.
 *
 * This module names *where* the hardware converts, by AMEM `data_type`:
 *
 *   AMEM Read  (8b->16b, chip §6.2.1.4): RFP8 -> `fp8ToFp16` (E5 = E4 + eb_adj), RFP16 -> `fp16ToFp16`
 *              (E5 += eb_adj), OCP E4M3/E5M2 and IEEE FP16 -> `importTable` (chip §4.9.1, §4.10.1);
 *              optionally ReLU first (seq §5.1.1, Recogni types only).
 *   AMEM Write (16b->8b, chip §6.2.2.2): RFP8 <- `fp16ToFp8` (§6.2.2.2.2 rounding), RFP16 <- `fp16ToFp16`,
 *              OCP / IEEE <- `exportTable` (chip §4.9.2, §4.10.2).
 *   RMW_Add    (InMemAdd, chip §7.4): `rfpAdd` of @pyxis/formats on the stored type.
 *
 * Every number-format rule (rounding, saturation, subnormals, reserved codes)
 * lives in @pyxis/formats; this module only selects converters, composes
 * their tables into the Uint16Array lookup tables the datapath indexes per
 * column, and caches them. Opaque types pass through unchanged (they are not
 * numbers). Saturating mode is used for OCP/IEEE import/export and RFP16
 * +-max is not exported as infinity (those run-time CSRs of §4.9/§4.10 are
 * not part of the microcode); see docs/spec-notes.md. Those run-time modes are the per-UIE `csr.convert_mode`
 * (grammars/pyxis/convert_mode.json; 0 = the defaults above), passed here as `mode` and sampled by the UIE at trip
 * start (docs/spec-notes.md "cov: converter modes").
 */
import {
  RFP16,
  RFP8,
  decodeTable,
  exportFromRfp16,
  exportTable,
  fp16ToFp16,
  fp16ToFp8Table,
  fp8ToFp16Table,
  importTable,
  importToRfp16,
  rfpAdd,
  type ExtFormat,
} from '@pyxis/formats';
import { loadTable } from '@pyxis/codec';
import * as codes from './codes.js';

// module-local (V8 checks every read of an imported binding for TDZ; is16bit runs per flit)
const { dataType, DT_IS_16 } = codes;

/** AMEM Read/Write `data_type` codepoints (seq §5.1, §6.1), looked up by name in the op tables (codes.ts). */
export const DT_RFP8 = dataType('Recogni_FP8');
export const DT_OCP_E4M3 = dataType('OCP_FP8_E4M3');
export const DT_OCP_E5M2 = dataType('OCP_FP8_E5M2');
export const DT_OPAQUE8 = dataType('Opaque_8bit');
export const DT_RFP16 = dataType('Recogni_FP16');
export const DT_IEEE_FP16 = dataType('IEEE_FP16');
export const DT_OPAQUE16 = dataType('Opaque_16bit');

/** 16-bit data type (table metadata `data_type_bits`, codes.ts). */
export function is16bit(dt: number): boolean {
  return DT_IS_16[dt] === 1;
}

/** The @pyxis/formats import/export format of an external `data_type`, if any. */
function extFormat(dt: number): ExtFormat | undefined {
  return dt === DT_OCP_E4M3 ? 'OCP_E4M3' : dt === DT_OCP_E5M2 ? 'OCP_E5M2' : dt === DT_IEEE_FP16 ? 'IEEE_FP16' : undefined;
}

/**
 * Bits of `csr.convert_mode` (grammars/pyxis/convert_mode.json, chip §4.9, §4.10), by field name: import
 * non-saturating (infinity -> NaN), OFP8 export non-saturating (overflow -> E4M3 NaN / E5M2 infinity), IEEE FP16
 * export of RFP16 +-max as +-infinity. Mode 0 (reset): saturating import and export, +-max exported finite.
 */
export const CONVERT_MODE = (() => {
  const t = loadTable('pyxis', 'convert_mode');
  const bit = (name: string) => {
    const f = t.fields.find((x) => x.name === name);
    if (!f || f.width !== 1) throw new Error(`grammars/pyxis/convert_mode.json: no 1-bit field ${name}`);
    return 1 << f.lsb;
  };
  return { importNonSat: bit('import_non_saturating'), exportNonSat: bit('export_non_saturating'), maxToInf: bit('export_max_to_inf'), mask: (1 << t.fields.filter((x) => !x.reserved).reduce((n, x) => Math.max(n, x.lsb + x.width), 0)) - 1 };
})();
const importOpts = (mode: number) => ({ saturate: (mode & CONVERT_MODE.importNonSat) === 0 });
/** IEEE FP16 export has no saturating mode (chip §4.9.2: overflow is +-infinity); only maxToInf applies. */
const exportOpts = (ext: ExtFormat, mode: number) =>
  ext === 'IEEE_FP16' ? { maxToInf: (mode & CONVERT_MODE.maxToInf) !== 0 } : { saturate: (mode & CONVERT_MODE.exportNonSat) === 0, maxToInf: false };
/** The mode bits that matter for `dt` (only the external formats have modes): shares the tables of the others. */
const modeOf = (dt: number, mode: number) => (extFormat(dt) ? mode & CONVERT_MODE.mask : 0);

function widen(t: Uint8Array | Uint16Array): Uint16Array {
  return t instanceof Uint16Array ? t : Uint16Array.from(t);
}

function identityTable(n: number): Uint16Array {
  const t = new Uint16Array(n);
  for (let c = 0; c < n; c++) t[c] = c;
  return t;
}

/** Opaque 16-bit columns written as 8-bit opaque data keep their low byte (no number conversion). */
function lowByteTable(): Uint16Array {
  const t = new Uint16Array(65536);
  for (let c = 0; c < 65536; c++) t[c] = c & 0xff;
  return t;
}

const scaleCache = new Map<number, Uint16Array>();
/** RFP16 -> RFP16 exponent scaling (chip §6.2.1.4.2, §6.2.2.2.1) for all 65536 codes, from `fp16ToFp16`. */
function fp16ScaleTable(ebAdj: number): Uint16Array {
  let t = scaleCache.get(ebAdj);
  if (!t) {
    t = ebAdj === 0 ? identityTable(65536) : new Uint16Array(65536);
    if (ebAdj !== 0) for (let c = 0; c < 65536; c++) t[c] = fp16ToFp16(c, ebAdj);
    scaleCache.set(ebAdj, t);
  }
  return t;
}

const reluCache = new Map<number, Uint16Array>();
/**
 * ReLU on read (seq §5.1.1): `(x == NaN) ? NaN : max(x, 0)` on the AMEM code,
 * with the sign and NaN of @pyxis/formats' decoders. Defined for Recogni FP8 /
 * FP16 only ("undefined" otherwise): other types pass unchanged.
 */
function reluTable(dt: number): Uint16Array {
  let t = reluCache.get(dt);
  if (!t) {
    const fmt = dt === DT_RFP8 ? RFP8 : dt === DT_RFP16 ? RFP16 : undefined;
    const n = is16bit(dt) ? 65536 : 256;
    t = identityTable(n);
    if (fmt) {
      const v = decodeTable(fmt, 0);
      for (let c = 0; c < n; c++) if (v[c]! < 0) t[c] = 0; // NaN compares false: kept
    }
    reluCache.set(dt, t);
  }
  return t;
}

/** ReLU of one code (seq §5.1.1). */
export function reluCode(code: number, dt: number): number {
  return reluTable(dt)[code]!;
}

const to16Cache = new Map<number, Uint16Array>();
const from16Cache = new Map<number, Uint16Array>();

/**
 * Lookup table of the AMEM Read converter for (`dt`, `eb_adj`, ReLU): index =
 * AMEM code (256 entries for 8-bit types, 65536 for 16-bit), value = RFP16
 * column code (opaque types: the raw code). Built once per combination.
 */
export function to16Table(dt: number, ebAdj: number, relu: boolean, mode = 0): Uint16Array {
  const md = modeOf(dt, mode);
  const key = ((dt * 64 + (ebAdj & 63)) * 2 + (relu ? 1 : 0)) * 8 + md;
  let t = to16Cache.get(key);
  if (!t) {
    let base: Uint16Array;
    const ext = extFormat(dt);
    if (dt === DT_RFP8) base = fp8ToFp16Table(ebAdj);
    else if (dt === DT_RFP16) base = fp16ScaleTable(ebAdj);
    else if (ext) base = importTable(ext, { ebAdj, ...importOpts(md) });
    else base = identityTable(is16bit(dt) ? 65536 : 256); // opaque: no conversion
    if (relu) {
      const r = reluTable(dt);
      t = new Uint16Array(base.length);
      for (let c = 0; c < base.length; c++) t[c] = base[r[c]!]!;
    } else t = base; // a table evicted from @pyxis/formats' cache stays valid (tables are never mutated)
    to16Cache.set(key, t);
  }
  return t;
}

/** Lookup table of the AMEM Write converter for (`dt`, `eb_adj`): index = RFP16 column code, value = AMEM code. */
export function from16Table(dt: number, ebAdj: number, mode = 0): Uint16Array {
  const md = modeOf(dt, mode);
  const key = (dt * 64 + (ebAdj & 63)) * 8 + md;
  let t = from16Cache.get(key);
  if (!t) {
    const ext = extFormat(dt);
    if (dt === DT_RFP8) t = widen(fp16ToFp8Table(ebAdj));
    else if (dt === DT_RFP16) t = fp16ScaleTable(ebAdj);
    else if (ext) t = Uint16Array.from(exportTable(ext, { ebAdj, ...exportOpts(ext, md) }));
    else if (dt === DT_OPAQUE8) t = lowByteTable();
    else t = identityTable(65536);
    from16Cache.set(key, t);
  }
  return t;
}

/** AMEM Read conversion point of one code (chip §6.2.1.4): AMEM code of `dt` -> RFP16 column. */
export function convertTo16(code: number, dt: number, ebAdj: number, mode = 0): number {
  return to16Table(dt, ebAdj, false, mode)[code & (is16bit(dt) ? 0xffff : 0xff)]!;
}

/** AMEM Write conversion point of one code (chip §6.2.2.2): RFP16 column -> AMEM code of `dt`. */
export function convertFrom16(code: number, dt: number, ebAdj: number, mode = 0): number {
  return from16Table(dt, ebAdj, mode)[code & 0xffff]!;
}

/**
 * InMemAdd adder (chip §7.4, seq §6.5): element-wise add of two codes of the
 * stored type. Recogni FP8/FP16: `rfpAdd` (common EB, which cancels). Opaque:
 * integer add modulo the width; OCP/IEEE: import at EB_adj 0, RFP16 add,
 * export at EB_adj 0 (docs/spec-notes.md).
 */
export function addCodes(a: number, b: number, dt: number, mode = 0): number {
  switch (dt) {
    case DT_RFP8:
      return rfpAdd(RFP8, a, b, 0);
    case DT_RFP16:
      return rfpAdd(RFP16, a, b, 0);
    case DT_OPAQUE8:
      return (a + b) & 0xff;
    case DT_OPAQUE16:
      return (a + b) & 0xffff;
    default: {
      const ext = extFormat(dt);
      if (!ext) return (a + b) & 0xffff;
      const s = rfpAdd(RFP16, importToRfp16(ext, a, importOpts(mode)), importToRfp16(ext, b, importOpts(mode)), 0);
      return exportFromRfp16(ext, s, exportOpts(ext, mode));
    }
  }
}

/** A read-side conversion followed by a write-side conversion of the same width, as one table. */
export interface CompositeTable {
  readonly table: Uint16Array;
  /** True when the composition maps every code to itself (the datapath can move bytes unchanged). */
  readonly identity: boolean;
}
const compCache = new Map<number, CompositeTable>();

/** Cache key of a (read conversion, write conversion) pair; `compositeTable` by key avoids re-deriving it per flit. */
export function compositeKey(rdDt: number, rdEb: number, relu: boolean, wrDt: number, wrEb: number, rdMode = 0, wrMode = 0): number {
  return (((((rdDt * 64 + (rdEb & 63)) * 2 + (relu ? 1 : 0)) * 8 + wrDt) * 64 + (wrEb & 63)) * 8 + modeOf(rdDt, rdMode)) * 8 + modeOf(wrDt, wrMode);
}

/**
 * `from16Table(wrDt, wrEb)[to16Table(rdDt, rdEb, relu)[c]]` for every code c of
 * the (common) width: the AMEM Read -> switchbox -> AMEM Write copy of one
 * column when neither side switches columns. Exactly the two conversions, composed.
 */
export function compositeTable(rdDt: number, rdEb: number, relu: boolean, wrDt: number, wrEb: number, rdMode = 0, wrMode = 0): CompositeTable {
  const key = compositeKey(rdDt, rdEb, relu, wrDt, wrEb, rdMode, wrMode);
  let c = compCache.get(key);
  if (!c) {
    const a = to16Table(rdDt, rdEb, relu, rdMode);
    const b = from16Table(wrDt, wrEb, wrMode);
    const t = new Uint16Array(a.length);
    let identity = true;
    for (let i = 0; i < a.length; i++) {
      t[i] = b[a[i]!]!;
      if (t[i] !== i) identity = false;
    }
    c = { table: t, identity };
    compCache.set(key, c);
  }
  return c;
}
