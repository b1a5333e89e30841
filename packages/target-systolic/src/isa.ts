/**
 * Instruction words: the field tables of an architecture (built from the
 * derived layout and compiled by the generic codec), decoding a whole `.tprog`
 * into typed arrays (the simulator's program), encoding one instruction, and
 * the semantic checks of spec §4 (opcodes, flag values, operands inside their
 * memories) reported at the instruction's byte offset.
 */
import { compileTable, decode, encode, reservedBitsSet, type CompiledTable, type FieldSpec } from '@pyxis/codec';
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { deriveLayout, type Arch, type Layout } from './arch.js';
import { DATA_MOVE_NAME, DM, ISA, OP, OPCODE_NAME } from './grammar.js';

const LOOKUP = ISA.simd_ops['Lookup']!;

export interface InstructionTables {
  arch: Arch;
  layout: Layout;
  /** Opcode, flags and three operands (address + stride for operands 0 and 1). */
  word: CompiledTable;
  /** Configure: register number and value in the operand bits (Tensil driver layout). */
  configure: CompiledTable;
}

const tableCache = new Map<string, InstructionTables>();

export function instructionTables(arch: Arch): InstructionTables {
  const key = JSON.stringify(arch);
  const hit = tableCache.get(key);
  if (hit) return hit;
  const L = deriveLayout(arch);
  const fields: FieldSpec[] = [];
  const pad = (name: string, w: number) => {
    if (w > 0) fields.push({ name, width: w, reserved: true });
  };
  fields.push({ name: 'operand0_address', width: L.operand0AddressBits });
  if (L.stride0Bits) fields.push({ name: 'operand0_stride', width: L.stride0Bits });
  pad('operand0_padding', L.operand0Bits - L.operand0AddressBits - L.stride0Bits);
  fields.push({ name: 'operand1_address', width: L.operand1AddressBits });
  if (L.stride1Bits) fields.push({ name: 'operand1_stride', width: L.stride1Bits });
  pad('operand1_padding', L.operand1Bits - L.operand1AddressBits - L.stride1Bits);
  fields.push({ name: 'operand2', width: L.operand2AddressBits });
  pad('operand2_padding', L.operand2Bits - L.operand2AddressBits);
  fields.push({ name: 'flags', width: ISA.header.flags_bits });
  fields.push({ name: 'opcode', width: ISA.header.opcode_bits });
  const operands = L.operand0Bits + L.operand1Bits + L.operand2Bits;
  const word = compileTable({ name: 'systolic_instruction', target: 'systolic', spec: 'systolic-fpga-hardware.md §4', fields, width: L.bytes * 8 });
  const configure = compileTable({
    name: 'systolic_configure',
    target: 'systolic',
    spec: 'systolic-fpga-hardware.md §3',
    width: L.bytes * 8,
    fields: [
      { name: 'register', width: ISA.configure.register_bits },
      { name: 'value', width: Math.min(32, operands - ISA.configure.register_bits) },
      ...(operands - ISA.configure.register_bits > 32 ? [{ name: 'configure_padding', width: operands - ISA.configure.register_bits - 32, reserved: true }] : []),
      { name: 'flags', width: ISA.header.flags_bits, lsb: operands },
      { name: 'opcode', width: ISA.header.opcode_bits },
    ],
  });
  const t = { arch, layout: L, word, configure };
  tableCache.set(key, t);
  return t;
}

/** One instruction as values (strides as log2, sizes as encoded: N-1). */
export interface Instr {
  op: number;
  flags: number;
  a0: number;
  s0: number;
  a1: number;
  s1: number;
  a2: number;
}

/** A decoded program: one entry per instruction, struct-of-arrays for the simulator's loop. */
export interface Program {
  count: number;
  bytesPerInstruction: number;
  op: Uint8Array;
  flags: Uint8Array;
  a0: Uint32Array;
  s0: Uint8Array;
  a1: Float64Array;
  s1: Uint8Array;
  a2: Uint32Array;
}

const fits = (v: number, bits: number) => v >= 0 && Number.isInteger(v) && v < 2 ** bits;

/** Writes `v` (< 2^(8n)) as n little-endian bytes. */
function putLE(out: Uint8Array, off: number, n: number, v: number): void {
  for (let k = 0; k < n; k++) {
    out[off + k] = v % 256;
    v = Math.floor(v / 256);
  }
}

export function encodeInstr(t: InstructionTables, i: Instr, out?: Uint8Array, offset = 0): Uint8Array {
  if (i.op === OP.Configure) return encode(t.configure, { register: i.a0, value: i.a1, flags: 0, opcode: i.op }, out, offset);
  // the operands are whole bytes (address, then stride above it), then flags and opcode: packed directly when every
  // value fits its field; otherwise the codec encodes (and reports the field that does not fit)
  const L = t.layout;
  if (out && fits(i.a0, L.operand0AddressBits) && fits(i.s0, L.stride0Bits) && fits(i.a1, L.operand1AddressBits) && fits(i.s1, L.stride1Bits) && fits(i.a2, L.operand2AddressBits) && fits(i.flags, 4) && fits(i.op, 4)) {
    const b0 = L.operand0Bits / 8;
    const b1 = L.operand1Bits / 8;
    const b2 = L.operand2Bits / 8;
    putLE(out, offset, b0, i.a0 + i.s0 * 2 ** L.operand0AddressBits);
    putLE(out, offset + b0, b1, i.a1 + i.s1 * 2 ** L.operand1AddressBits);
    putLE(out, offset + b0 + b1, b2, i.a2);
    out[offset + b0 + b1 + b2] = i.flags | (i.op << 4);
    return out;
  }
  const v: Record<string, number> = { opcode: i.op, flags: i.flags, operand0_address: i.a0, operand1_address: i.a1, operand2: i.a2 };
  if (t.layout.stride0Bits) v['operand0_stride'] = i.s0;
  if (t.layout.stride1Bits) v['operand1_stride'] = i.s1;
  return encode(t.word, v, out, offset);
}

export function instrAt(p: Program, pc: number): Instr {
  return { op: p.op[pc]!, flags: p.flags[pc]!, a0: p.a0[pc]!, s0: p.s0[pc]!, a1: p.a1[pc]!, s1: p.s1[pc]!, a2: p.a2[pc]! };
}

const MAX_ERRORS = 20;

/**
 * Reads a field (<= 48 bits) of the word at `off` from the positions the codec
 * compiled: the per-instruction hot path of decodeProgram, equal to
 * `decode(table, ...)[name]` (tested) without building an object per word.
 */
function fieldReader(t: CompiledTable, name: string): (b: Uint8Array, off: number) => number {
  const f = t.byName.get(name);
  if (!f) return () => 0;
  const lsb = f.lsb;
  const width = f.width;
  const first = lsb >> 3;
  const last = (lsb + width - 1) >> 3;
  const shift = lsb & 7;
  const mod = 2 ** width;
  return (b, off) => {
    let v = 0;
    for (let k = last; k >= first; k--) v = v * 256 + b[off + k]!;
    return Math.floor(v / 2 ** shift) % mod;
  };
}

/**
 * Decodes every instruction; a truncated file, an unknown opcode or flag
 * value, non-zero padding or an operand outside its memory is an error at the
 * instruction's byte offset (all of them, up to 20, in one report). `base` is
 * where `bytes` start in `file` (a program section inside a container), so the
 * offsets reported are the file's.
 */
export function decodeProgram(bytes: Uint8Array, arch: Arch, file: string, base = 0): Program {
  const t = instructionTables(arch);
  const B = t.layout.bytes;
  const diags: Diagnostic[] = [];
  const err = (offset: number, message: string) => {
    if (diags.length < MAX_ERRORS) diags.push({ severity: 'error', code: 'SYS0101', message, span: { file, offset: base + offset, length: B }, spec: 'systolic-fpga-hardware.md §4' });
  };
  if (bytes.length % B !== 0)
    err(bytes.length - (bytes.length % B), `truncated program: ${bytes.length} bytes is not a whole number of ${B}-byte instructions (the last ${bytes.length % B} bytes are left over)`);
  const n = Math.floor(bytes.length / B);
  const rFlags = fieldReader(t.word, 'flags');
  const rA0 = fieldReader(t.word, 'operand0_address');
  const rS0 = fieldReader(t.word, 'operand0_stride');
  const rA1 = fieldReader(t.word, 'operand1_address');
  const rS1 = fieldReader(t.word, 'operand1_stride');
  const rA2 = fieldReader(t.word, 'operand2');
  const rP0 = fieldReader(t.word, 'operand0_padding');
  const rP1 = fieldReader(t.word, 'operand1_padding');
  const rP2 = fieldReader(t.word, 'operand2_padding');
  const p: Program = {
    count: n, bytesPerInstruction: B,
    op: new Uint8Array(n), flags: new Uint8Array(n), a0: new Uint32Array(n), s0: new Uint8Array(n), a1: new Float64Array(n), s1: new Uint8Array(n), a2: new Uint32Array(n),
  };
  for (let pc = 0; pc < n; pc++) {
    const off = pc * B;
    const hdr = bytes[off + B - 1]!;
    const op = hdr >> 4;
    if (!OPCODE_NAME.has(op)) {
      err(off, `instruction ${pc}: unknown opcode 0x${op.toString(16)}`);
      continue;
    }
    if (op === OP.Configure) {
      const d = decode(t.configure, bytes, off);
      p.op[pc] = op;
      p.a0[pc] = Number(d['register']);
      p.a1[pc] = Number(d['value']);
      if (Number(d['flags']) !== 0 || reservedBitsSet(t.configure, bytes, off).length) err(off, `instruction ${pc}: Configure with non-zero flags or padding`);
      continue;
    }
    p.op[pc] = op;
    p.flags[pc] = rFlags(bytes, off);
    p.a0[pc] = rA0(bytes, off);
    p.s0[pc] = rS0(bytes, off);
    p.a1[pc] = rA1(bytes, off);
    p.s1[pc] = rS1(bytes, off);
    p.a2[pc] = rA2(bytes, off);
    const pads = rP0(bytes, off) || rP1(bytes, off) || rP2(bytes, off) ? reservedBitsSet(t.word, bytes, off) : [];
    if (pads.length) err(off, `instruction ${pc} (${OPCODE_NAME.get(op)}): padding bits set (${pads.join(', ')})`);
    const problem = checkInstr(t, instrAt(p, pc));
    if (problem) err(off, `instruction ${pc} (${OPCODE_NAME.get(op)}): ${problem}`);
  }
  if (diags.length) throw new DiagnosticError(diags);
  return p;
}

/** The memory a DataMove flag moves between local memory and: its name and depth. */
export function dataMoveOther(flag: number, arch: Arch): { name: 'dram0' | 'dram1' | 'acc'; depth: number; toLocal: boolean } | undefined {
  switch (flag) {
    case DM.dram0ToLocal: return { name: 'dram0', depth: arch.dram0_depth, toLocal: true };
    case DM.localToDram0: return { name: 'dram0', depth: arch.dram0_depth, toLocal: false };
    case DM.dram1ToLocal: return { name: 'dram1', depth: arch.dram1_depth, toLocal: true };
    case DM.localToDram1: return { name: 'dram1', depth: arch.dram1_depth, toLocal: false };
    case DM.accToLocal: return { name: 'acc', depth: arch.accumulator_depth, toLocal: true };
    case DM.localToAcc:
    case DM.localToAccAcc: return { name: 'acc', depth: arch.accumulator_depth, toLocal: false };
    default: return undefined;
  }
}

/** Last vector touched by `size+1` vectors from `addr` with stride 2^s, checked against `depth`. */
function span(what: string, addr: number, s: number, size: number, depth: number): string | undefined {
  const last = addr + size * 2 ** s;
  return last >= depth ? `${what} vectors ${addr}..${last} (stride ${2 ** s}) outside its ${depth} vectors` : undefined;
}

/** Spec §4 rules for one instruction; undefined when it is legal. */
export function checkInstr(t: InstructionTables, i: Instr): string | undefined {
  const a = t.arch;
  const f = i.flags;
  switch (i.op) {
    case OP.NoOp:
      return f || i.a0 || i.a1 || i.a2 || i.s0 || i.s1 ? 'NoOp with non-zero flags or operands' : undefined;
    case OP.MatMul:
      if (f > 3) return `flags 0x${f.toString(16)}: MatMul has only accumulate (bit 0) and zeroes (bit 1)`;
      return (f & 2 ? undefined : span('local memory', i.a0, i.s0, i.a2, a.local_depth)) ?? span('accumulators', i.a1, i.s1, i.a2, a.accumulator_depth);
    case OP.DataMove: {
      const o = dataMoveOther(f, a);
      if (!o) return `flags 0x${f.toString(16)} is not a data flow of the DataMove enum (${[...DATA_MOVE_NAME.entries()].map(([k, v]) => `${k}=${v}`).join(', ')})`;
      return span('local memory', i.a0, i.s0, i.a2, a.local_depth) ?? span(o.name === 'acc' ? 'accumulators' : o.name.toUpperCase(), i.a1, i.s1, i.a2, o.depth);
    }
    case OP.LoadWeight:
      if (f > 1) return `flags 0x${f.toString(16)}: LoadWeight has only zeroes (bit 0)`;
      if (i.a2 || i.s1) return 'LoadWeight operand 2 and the operand-1 stride must be zero';
      return f & 1 ? undefined : span('local memory', i.a0, i.s0, i.a1, a.local_depth);
    case OP.SIMD: {
      if (f > 7) return `flags 0x${f.toString(16)}: SIMD has only read, write and accumulate`;
      const w = t.layout.simdOperandBits;
      const sub = i.a2;
      if (Math.floor(sub / 2 ** (3 * w)) === LOOKUP && !a.number_of_lookup_tables) return 'SIMD op Lookup needs an architecture with lookup tables (number_of_lookup_tables > 0)';
      if (sub >= 2 ** t.layout.simdInstructionBits) return `SIMD sub-instruction 0x${sub.toString(16)} wider than ${t.layout.simdInstructionBits} bits`;
      const regs = a.simd_registers_depth;
      const dst = sub & ((1 << w) - 1);
      const right = (sub >> w) & ((1 << w) - 1);
      const left = (sub >> (2 * w)) & ((1 << w) - 1);
      if (dst > regs || right > regs || left > regs) return `SIMD register out of range (left ${left}, right ${right}, dest ${dst}; ${regs} register(s))`;
      const luts = a.number_of_lookup_tables ?? 0;
      if (luts && Math.floor(sub / 2 ** (3 * w)) === LOOKUP) {
        // spec §4 "Lookup sub-instruction": the difference goes to register d, table i to register d+i+1, all of them existing
        if (dst + luts > regs) return `Lookup writes registers ${dst}..${dst + luts} but the architecture has ${regs} SIMD register(s) (dest + number_of_lookup_tables must be <= ${regs})`;
      }
      if (f & 1 && i.a1 >= a.accumulator_depth) return `SIMD read address ${i.a1} outside the ${a.accumulator_depth} accumulators`;
      if (f & 2 && i.a0 >= a.accumulator_depth) return `SIMD write address ${i.a0} outside the ${a.accumulator_depth} accumulators`;
      return undefined;
    }
    case OP.LoadLUT: {
      if (f || i.a2 || i.s1) return 'LoadLUT with non-zero flags, operand 2 or operand-1 stride';
      const luts = a.number_of_lookup_tables ?? 0;
      if (i.a1 > luts) return `LoadLUT table ${i.a1}: the architecture has ${luts} lookup table(s) (0 = the key index, 1..${luts} = the tables)`;
      return span('local memory', i.a0, i.s0, 0, a.local_depth);
    }
    default:
      return undefined;
  }
}
