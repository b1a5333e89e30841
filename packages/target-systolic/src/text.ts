/**
 * The readable dialect (docs/systolic.md): one instruction per line,
 *
 *   MatMul accumulate local=0x10/2 acc=32 size=4
 *   DataMove dram1->local local=0 dram1=128 size=32
 *   LoadWeight zeroes size=33
 *   SIMD read write op=Max left=0 right=1 dest=0 write=5 read=5
 *   Configure register=sample_interval value=100
 *
 * Flags by name, data flows by the spec's enum (`dram0->local`, `acc->local`,
 * `local->acc+` = memory to accumulator with accumulate), memory operands as
 * ADDRESS or ADDRESS/STRIDE (the stride itself, a power of two; encoded as its
 * log2), sizes as the number of vectors (encoded N-1). `;` starts a comment.
 * `disassemble` prints exactly what `assemble` reads back.
 */
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import type { Arch } from './arch.js';
import { DATA_MOVE_NAME, ISA, OP, OPCODE_NAME, SIMD_OP_NAME } from './grammar.js';
import { checkInstr, dataMoveOther, encodeInstr, instructionTables, instrAt, type Instr, type Program } from './isa.js';

const mem = (a: number, s: number) => (s ? `${a}/${2 ** s}` : `${a}`);
const REG_NAME = new Map(ISA.config_registers.map((r) => [r.number, r.name]));

export function formatInstr(i: Instr, arch: Arch): string {
  const name = OPCODE_NAME.get(i.op) ?? `op${i.op}`;
  const flagNames = (tbl: Record<string, number> | undefined) =>
    Object.entries(tbl ?? {})
      .filter(([, b]) => i.flags & b)
      .map(([k]) => ` ${k}`)
      .join('');
  switch (i.op) {
    case OP.NoOp:
      return 'NoOp';
    case OP.MatMul:
      return `MatMul${flagNames(ISA.flags['MatMul'])} local=${mem(i.a0, i.s0)} acc=${mem(i.a1, i.s1)} size=${i.a2 + 1}`;
    case OP.DataMove: {
      const o = dataMoveOther(i.flags, arch)!;
      return `DataMove ${DATA_MOVE_NAME.get(i.flags)} local=${mem(i.a0, i.s0)} ${o.name}=${mem(i.a1, i.s1)} size=${i.a2 + 1}`;
    }
    case OP.LoadWeight:
      return `LoadWeight${flagNames(ISA.flags['LoadWeight'])} local=${mem(i.a0, i.s0)} size=${i.a1 + 1}`;
    case OP.SIMD: {
      const w = instructionTables(arch).layout.simdOperandBits;
      const m = (1 << w) - 1;
      const op = i.a2 >> (3 * w);
      return `SIMD${flagNames(ISA.flags['SIMD'])} op=${SIMD_OP_NAME.get(op) ?? op} left=${(i.a2 >> (2 * w)) & m} right=${(i.a2 >> w) & m} dest=${i.a2 & m} write=${i.a0} read=${i.a1}`;
    }
    case OP.LoadLUT:
      return `LoadLUT local=${mem(i.a0, i.s0)} table=${i.a1}`;
    case OP.Configure:
      return `Configure register=${REG_NAME.get(i.a0) ?? i.a0} value=${i.a1}`;
    default:
      return name;
  }
}

export function disassembleProgram(p: Program, arch: Arch, header = true): string {
  const L = instructionTables(arch).layout;
  const out: string[] = [];
  if (header) out.push(`; ${p.count} instructions of ${L.bytes} bytes (operands ${L.operand0Bits}/${L.operand1Bits}/${L.operand2Bits} bits; ${arch.data_type}, array ${arch.array_size})`);
  for (let pc = 0; pc < p.count; pc++) out.push(formatInstr(instrAt(p, pc), arch));
  return out.join('\n') + '\n';
}

function parseMem(v: string, bad: (m: string) => never): [number, number] {
  const [a, s] = v.split('/');
  const addr = Number(a);
  if (!Number.isSafeInteger(addr) || addr < 0) bad(`bad address \`${a}\``);
  if (s === undefined) return [addr, 0];
  const stride = Number(s);
  if (!Number.isSafeInteger(stride) || stride < 1 || (stride & (stride - 1)) !== 0) bad(`stride \`${s}\` is not a power of two`);
  return [addr, Math.log2(stride)];
}

/** Assembles the dialect into `.tprog` bytes; every error carries file:line:col. */
export function assembleText(text: string, file: string, arch: Arch): { bytes: Uint8Array; count: number } {
  const t = instructionTables(arch);
  const diags: Diagnostic[] = [];
  const instrs: Instr[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, li) => {
    const line = raw.replace(/;.*$/, '');
    const trimmed = line.trim();
    if (!trimmed) return;
    const col = line.indexOf(trimmed) + 1;
    const bad = (message: string): never => {
      throw new DiagnosticError({ severity: 'error', code: 'SYS0501', message, span: { file, line: li + 1, column: col, length: trimmed.length } });
    };
    try {
      const words = trimmed.split(/\s+/);
      const mnemonic = words[0]!;
      const op = ISA.opcodes[mnemonic];
      if (op === undefined) bad(`unknown instruction \`${mnemonic}\` (expected one of ${Object.keys(ISA.opcodes).join(', ')})`);
      const i: Instr = { op: op!, flags: 0, a0: 0, s0: 0, a1: 0, s1: 0, a2: 0 };
      const kv = new Map<string, string>();
      const flagTable = ISA.flags[mnemonic] ?? {};
      for (const w of words.slice(1)) {
        const eq = w.indexOf('=');
        if (eq > 0) kv.set(w.slice(0, eq), w.slice(eq + 1));
        else if (op === OP.DataMove && ISA.data_move_flags[w] !== undefined) i.flags = ISA.data_move_flags[w]!;
        else if (flagTable[w] !== undefined) i.flags |= flagTable[w]!;
        else bad(`unknown flag \`${w}\` for ${mnemonic}${Object.keys(flagTable).length ? ` (flags: ${Object.keys(flagTable).join(', ')})` : ''}${op === OP.DataMove ? ` (data flows: ${Object.keys(ISA.data_move_flags).join(', ')})` : ''}`);
      }
      const take = (k: string): string => {
        const v = kv.get(k);
        if (v === undefined) bad(`${mnemonic} needs \`${k}=\``);
        kv.delete(k);
        return v!;
      };
      const num = (k: string, min = 0) => {
        const v = Number(take(k));
        if (!Number.isSafeInteger(v) || v < min) bad(`\`${k}\` expects an integer >= ${min}`);
        return v;
      };
      switch (op) {
        case OP.MatMul:
          [i.a0, i.s0] = parseMem(take('local'), bad);
          [i.a1, i.s1] = parseMem(take('acc'), bad);
          i.a2 = num('size', 1) - 1;
          break;
        case OP.DataMove: {
          const o = dataMoveOther(i.flags, arch)!;
          if (!words.slice(1).some((w) => ISA.data_move_flags[w] !== undefined)) bad(`DataMove needs a data flow (${Object.keys(ISA.data_move_flags).join(', ')})`);
          [i.a0, i.s0] = parseMem(take('local'), bad);
          [i.a1, i.s1] = parseMem(take(o.name), bad);
          i.a2 = num('size', 1) - 1;
          break;
        }
        case OP.LoadWeight:
          if (kv.has('local')) [i.a0, i.s0] = parseMem(take('local'), bad);
          i.a1 = num('size', 1) - 1;
          break;
        case OP.SIMD: {
          const w = t.layout.simdOperandBits;
          const opName = take('op');
          const sop = ISA.simd_ops[opName] ?? Number(opName);
          if (!Number.isSafeInteger(sop) || !SIMD_OP_NAME.has(sop)) bad(`unknown SIMD op \`${opName}\` (${Object.keys(ISA.simd_ops).join(', ')})`);
          const regs = ['left', 'right', 'dest'].map((k) => (kv.has(k) ? num(k) : 0));
          i.a2 = sop * 2 ** (3 * w) + regs[0]! * 2 ** (2 * w) + regs[1]! * 2 ** w + regs[2]!;
          i.a0 = kv.has('write') ? num('write') : 0;
          i.a1 = kv.has('read') ? num('read') : 0;
          break;
        }
        case OP.LoadLUT:
          [i.a0, i.s0] = parseMem(take('local'), bad);
          i.a1 = num('table');
          break;
        case OP.Configure: {
          const r = take('register');
          const reg = ISA.config_registers.find((c) => c.name === r)?.number ?? Number(r);
          if (!Number.isSafeInteger(reg) || reg < 0 || reg > 15) bad(`unknown configuration register \`${r}\``);
          i.a0 = reg;
          i.a1 = num('value');
          break;
        }
      }
      if (kv.size) bad(`unexpected operand(s) ${[...kv.keys()].map((k) => `\`${k}=\``).join(', ')} for ${mnemonic}`);
      const problem = op === OP.Configure ? undefined : checkInstr(t, i);
      if (problem) bad(problem);
      instrs.push(i);
    } catch (e) {
      if (e instanceof DiagnosticError) diags.push(...e.diagnostics);
      else throw e;
    }
  });
  if (diags.length) throw new DiagnosticError(diags);
  const B = t.layout.bytes;
  const bytes = new Uint8Array(instrs.length * B);
  instrs.forEach((i, k) => {
    try {
      encodeInstr(t, i, bytes, k * B);
    } catch (e) {
      throw new DiagnosticError({ severity: 'error', code: 'SYS0502', message: `instruction ${k}: ${(e as Error).message}`, span: { file, offset: k * B } });
    }
  });
  return { bytes, count: instrs.length };
}
