/**
 * The architecture (`.tarch` JSON, or the `arch` object of a `.tmodel`) and
 * the instruction layout derived from it (spec §1 "Architectural parameters",
 * §4 "Instruction set" notes). Every field is validated and reported with its
 * JSON path; the layout is derived exactly as the Tensil tools derive it
 * (docs/spec-notes.md "systolic: instruction layout"): operand widths from the
 * largest memory an operand can name plus its stride bits, each operand rounded
 * up to whole bytes, the 4-bit opcode and 4-bit flags in the top byte.
 */
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { describeJson } from '@pyxis/container';

/** A JSON value in a message: a scalar as written (cut at 40 characters), an object or array by its kind only (never a huge or 100,000-deep value). */
export function shown(v: unknown): string {
  if (typeof v === 'object' && v !== null) return describeJson(v);
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? s.slice(0, 39) + '…' : s;
}
import { ISA } from './grammar.js';

export type DataTypeName = 'FP16BP8' | 'FP32BP16' | 'FP8BP4' | 'FP18BP10';

export interface Arch {
  data_type: DataTypeName;
  array_size: number;
  dram0_depth: number;
  dram1_depth: number;
  local_depth: number;
  accumulator_depth: number;
  simd_registers_depth: number;
  stride0_depth: number;
  stride1_depth: number;
  number_of_threads: number;
  thread_queue_depth: number;
  /**
   * Lookup tables of the SIMD ALUs (Lookup op, LoadLUT). Not a Tensil field: absent or 0 in every real
   * architecture, which keeps the 4-bit SIMD op field (docs/spec-notes.md "systolic: Lookup and LoadLUT").
   */
  number_of_lookup_tables?: number;
}

/** Width and binary point of each data type (Tensil FixedBase subclasses). */
export const DATA_TYPES: Record<DataTypeName, { width: number; bp: number; bytes: number }> = {
  FP16BP8: { width: 16, bp: 8, bytes: 2 },
  FP32BP16: { width: 32, bp: 16, bytes: 4 },
  FP8BP4: { width: 8, bp: 4, bytes: 1 },
  FP18BP10: { width: 18, bp: 10, bytes: 4 },
};

/** ceil(log2(n)) for n >= 1 (Tensil's log2Ceil: bit length of n-1). */
export function log2Ceil(n: number): number {
  let b = 0;
  while (2 ** b < n) b++;
  return b;
}

const roundBits = (b: number) => Math.ceil(b / 8) * 8;

export interface Layout {
  localBits: number;
  dram0Bits: number;
  dram1Bits: number;
  accBits: number;
  stride0Bits: number;
  stride1Bits: number;
  simdOperandBits: number;
  /** ceil(log2(numOps)): 4 for the 16 ALU ops, 5 when the architecture has lookup tables (Lookup = 0x10). */
  simdOpBits: number;
  simdInstructionBits: number;
  operand0AddressBits: number;
  operand0Bits: number;
  operand1AddressBits: number;
  operand1Bits: number;
  operand2AddressBits: number;
  operand2Bits: number;
  /** Total instruction size in bytes (header byte included). */
  bytes: number;
}

export function deriveLayout(a: Arch): Layout {
  const localBits = log2Ceil(a.local_depth);
  const dram0Bits = log2Ceil(a.dram0_depth);
  const dram1Bits = log2Ceil(a.dram1_depth);
  const accBits = log2Ceil(a.accumulator_depth);
  const stride0Bits = log2Ceil(a.stride0_depth);
  const stride1Bits = log2Ceil(a.stride1_depth);
  const simdOperandBits = log2Ceil(a.simd_registers_depth + 1);
  const simdOpBits = (a.number_of_lookup_tables ?? 0) > 0 ? log2Ceil(Object.keys(ISA.simd_ops).length) : ISA.simd_op_bits;
  const simdInstructionBits = simdOpBits + 3 * simdOperandBits;
  const op0a = Math.max(localBits, accBits);
  const op1a = Math.max(localBits, dram0Bits, dram1Bits, accBits);
  const op2a = Math.max(Math.min(localBits, accBits), Math.min(localBits, dram0Bits), Math.min(localBits, dram1Bits), simdInstructionBits);
  const operand0Bits = roundBits(op0a + stride0Bits);
  const operand1Bits = roundBits(op1a + stride1Bits);
  const operand2Bits = roundBits(op2a);
  const header = ISA.header.opcode_bits + ISA.header.flags_bits;
  return {
    localBits, dram0Bits, dram1Bits, accBits, stride0Bits, stride1Bits, simdOperandBits, simdOpBits, simdInstructionBits,
    operand0AddressBits: op0a, operand0Bits, operand1AddressBits: op1a, operand1Bits, operand2AddressBits: op2a, operand2Bits,
    bytes: (header + operand0Bits + operand1Bits + operand2Bits) / 8,
  };
}

const FIELDS: Array<[keyof Arch, 'dtype' | 'pow2' | 'range', number, number]> = [
  ['data_type', 'dtype', 0, 0],
  ['array_size', 'range', 2, 256],
  ['dram0_depth', 'pow2', 2, 2 ** 32],
  ['dram1_depth', 'pow2', 2, 2 ** 32],
  ['local_depth', 'range', 2, 2 ** 16],
  ['accumulator_depth', 'range', 2, 2 ** 16],
  ['simd_registers_depth', 'range', 0, 16],
  ['stride0_depth', 'pow2', 1, 2 ** 16],
  ['stride1_depth', 'pow2', 1, 2 ** 16],
  ['number_of_threads', 'range', 1, 2],
  ['thread_queue_depth', 'range', 1, 2 ** 16],
  ['number_of_lookup_tables', 'range', 0, 15],
];
const OPTIONAL = new Set<string>(['number_of_threads', 'thread_queue_depth', 'number_of_lookup_tables']);

/**
 * Validates an architecture object; `where` prefixes the JSON path
 * (`$.arch` inside a .tmodel). Depths of local and accumulator memories may be
 * any size up to 2^16 (real ZCU104 files use 49152 and 20480, not powers of
 * two, against spec §1's "2^{1-16}": docs/spec-notes.md).
 */
export function parseArch(v: unknown, file: string, where = '$'): Arch {
  const diags: Diagnostic[] = [];
  const bad = (path: string, message: string) => diags.push({ severity: 'error', code: 'SYS0001', message: `${path}: ${message}`, span: { file, offset: 0 }, spec: 'systolic-fpga-hardware.md §1' });
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    bad(where, 'the architecture must be a JSON object');
    throw new DiagnosticError(diags);
  }
  const o = v as Record<string, unknown>;
  const known = new Set(FIELDS.map((f) => f[0] as string));
  for (const k of Object.keys(o)) if (!known.has(k)) bad(`${where}.${k}`, `unknown architecture field (known: ${[...known].join(', ')})`);
  for (const [k, kind, min, max] of FIELDS) {
    const x = o[k];
    const p = `${where}.${k}`;
    if (x === undefined) {
      // Tensil's defaults for the thread fields, no lookup tables; everything else is required.
      if (OPTIONAL.has(k)) continue;
      bad(p, 'missing');
      continue;
    }
    if (kind === 'dtype') {
      if (typeof x !== 'string' || !(x in DATA_TYPES)) bad(p, `expected one of ${Object.keys(DATA_TYPES).join(', ')}, got ${shown(x)}`);
      continue;
    }
    if (typeof x !== 'number' || !Number.isSafeInteger(x)) {
      bad(p, `expected an integer, got ${shown(x)}`);
      continue;
    }
    if (x < min || x > max) bad(p, `${x} out of range ${min}..${max}`);
    else if (kind === 'pow2' && (x & (x - 1)) !== 0 && x !== 2 ** 32) bad(p, `${x} is not a power of two`);
  }
  if (diags.length) throw new DiagnosticError(diags);
  const a = { ...(o as unknown as Arch) };
  a.number_of_threads ??= 1;
  a.thread_queue_depth ??= 8;
  return a;
}

export function parseArchText(text: string, file: string): Arch {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new DiagnosticError({ severity: 'error', code: 'SYS0002', message: `${file} is not valid JSON: ${(e as Error).message}`, span: { file, offset: 0 } });
  }
  return parseArch(v, file);
}
