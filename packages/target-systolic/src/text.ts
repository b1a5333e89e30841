/**
 * The systolic (Tensil) dialect of the shared statement language
 * (@pyxis/asm: the same lexer, parser, `.const`, `.include`, expressions,
 * carets and did-you-mean as every target). A program is a flat instruction
 * stream written at top level (the implicit program); docs/systolic.md:
 *
 *   MatMul accumulate local=0x10 local_stride=2 acc=32 size=4
 *   DataMove flow=dram1_to_local local=0 dram1=128 size=32
 *   LoadWeight zeroes size=33
 *   SIMD read write op=Max left=0 right=1 dest=0 write_addr=5 read_addr=5
 *   Configure register=sample_interval value=100
 *
 * Flags are bare names (one-bit flag operands), the data flow is `flow=` with
 * the DataMove enum of grammars/systolic, memory operands are ADDRESS with an
 * optional `<memory>_stride=` (the stride itself, a power of two; encoded as
 * its log2), sizes are the number of vectors (encoded N-1). The operand names
 * form one assembly table built from grammars/systolic and the architecture
 * (`asmSpace`); which of them an instruction takes is `OPERANDS` below.
 * `disassemble` prints exactly what `assemble` reads back.
 */
import { compileTable, type CompiledField, type FieldSpec, type FieldValues } from '@pyxis/codec';
import { DiagnosticError, didYouMean, error, type Diagnostic, type SourceMap, type SourceSpan } from '@pyxis/diagnostics';
import { compileFlatProgram, flatListing, opSpace, readSources, sortDiagnostics, type FlatInsn, type FlatProgram, type OperandHooks, type OpSpace, type SourceInput } from '@pyxis/asm';
import { log2Ceil, type Arch } from './arch.js';
import { DATA_MOVE_NAME, ISA, OP, OPCODE_NAME, SIMD_OP_NAME } from './grammar.js';
import { checkInstrAt, dataMoveOther, encodeInstr, instructionTables, instrAt, type Instr, type InstructionTables, type Program } from './isa.js';

const SPEC = 'systolic-fpga-hardware.md §4';
const REG_NAME = new Map(ISA.config_registers.map((r) => [r.number, r.name]));
const MEMORIES = ['local', 'acc', 'dram0', 'dram1'] as const;

/** The operands each instruction takes (besides its flags, ISA.flags[mnemonic]); `!` marks required ones. */
const OPERANDS: Record<string, string[]> = {
  NoOp: [],
  MatMul: ['local!', 'local_stride', 'acc!', 'acc_stride', 'size!'],
  DataMove: ['flow!', 'local!', 'local_stride', 'dram0', 'dram0_stride', 'dram1', 'dram1_stride', 'acc', 'acc_stride', 'size!'],
  LoadWeight: ['local', 'local_stride', 'size!'],
  SIMD: ['op!', 'left', 'right', 'dest', 'write_addr', 'read_addr'],
  LoadLUT: ['local!', 'local_stride', 'table!'],
  Configure: ['register!', 'value!'],
};

const spaces = new Map<InstructionTables, OpSpace>();

/** The assembly table of an architecture: every operand name as a field (never encoded; `encodeInstr` encodes). */
export function asmSpace(t: InstructionTables): OpSpace {
  let s = spaces.get(t);
  if (s) return s;
  const flagNames = [...new Set(Object.values(ISA.flags).flatMap((f) => Object.keys(f)))];
  const w = t.layout.simdOperandBits;
  const fields: FieldSpec[] = [
    { name: 'opcode', width: ISA.header.opcode_bits, enum: ISA.opcodes, role: 'opcode' },
    ...flagNames.map((name) => ({ name, width: 1, doc: 'flag' })),
    { name: 'flow', width: ISA.header.flags_bits, enum: ISA.data_move_flags, doc: 'DataMove data flow' },
    ...MEMORIES.flatMap((m) => [
      { name: m, width: 32, doc: `${m} address (vectors)` },
      { name: `${m}_stride`, width: 32, default: 1, doc: `${m} stride (a power of two)` },
    ]),
    { name: 'size', width: 32, doc: 'vectors (at least 1)' },
    { name: 'op', width: log2Ceil(Object.keys(ISA.simd_ops).length), enum: ISA.simd_ops, doc: 'SIMD operation (Lookup only with lookup tables: checkInstr)' },
    { name: 'left', width: w },
    { name: 'right', width: w },
    { name: 'dest', width: w },
    { name: 'write_addr', width: 32, doc: 'SIMD accumulator write address' },
    { name: 'read_addr', width: 32, doc: 'SIMD accumulator read address' },
    { name: 'table', width: 32, doc: 'LoadLUT table (0 = the key index, 1.. = lookup tables)' },
    { name: 'register', width: ISA.configure.register_bits, enum: Object.fromEntries(ISA.config_registers.map((r) => [r.name, r.number])) },
    { name: 'value', width: 32 },
  ] as FieldSpec[];
  const table = compileTable({ name: 'systolic_asm', title: 'systolic', target: 'systolic', spec: SPEC, fields });
  s = opSpace(table, 'systolic');
  spaces.set(t, s);
  return s;
}

const hooks: OperandHooks = {
  check(f: CompiledField, value: bigint, v, ctx) {
    if (f.name.endsWith('_stride') && (value < 1n || (value & (value - 1n)) !== 0n)) {
      ctx.diags.push(error('SYS0503', `stride ${value} is not a power of two`, { span: v.span, notes: ['a stride is encoded as its log2'], spec: SPEC }));
      return false;
    }
    if (f.name === 'size' && value < 1n) {
      ctx.diags.push(error('SYS0503', 'size is the number of vectors: at least 1', { span: v.span, spec: SPEC }));
      return false;
    }
    return true;
  },
};

// strides are powers of two below 2^32 (checked by the hook)
const log2 = (v: bigint | undefined) => (v === undefined ? 0 : v < 1n << 32n ? 31 - Math.clz32(Number(v)) : v.toString(2).length - 1);

/** Per mnemonic, computed once: operand names, required ones, flags. */
interface MnemonicInfo {
  op: number;
  names: string[];
  required: string[];
  flags: Array<[string, number]>;
  flagTable: Record<string, number>;
}
const INFO = new Map<string, MnemonicInfo>(
  Object.keys(ISA.opcodes).map((m) => {
    const allowed = OPERANDS[m] ?? [];
    const flagTable = ISA.flags[m] ?? {};
    return [m, { op: ISA.opcodes[m]!, names: allowed.map((n) => n.replace('!', '')), required: allowed.filter((x) => x.endsWith('!')).map((x) => x.slice(0, -1)), flags: Object.entries(flagTable), flagTable }];
  }),
);
const OTHER_MEMORIES = ['dram0', 'dram1', 'acc'] as const;

/** Where a missing operand would be written: just past the statement's last operand (or mnemonic). */
function missingSpan(ins: FlatInsn): SourceSpan {
  let end = ins.span;
  // a statement the parser recovered from a syntax error (AS0102, already reported) may have no operand list
  for (const o of ins.ast.operands ?? [])
    for (const sp of [o.span, o.value.span])
      if (sp.line > end.line || (sp.line === end.line && sp.column + (sp.length ?? 1) > end.column + (end.length ?? 1))) end = sp;
  return { file: end.file, line: end.line, column: end.column + (end.length ?? 1), length: 1 };
}

/** The value of operand `name` as written (the caret of a rule its value breaks), else its name, else the mnemonic. */
function valueSpan(ins: FlatInsn, name: string | undefined): SourceSpan {
  if (!name) return ins.span;
  for (const o of ins.ast.operands ?? []) if (o.name === name) return o.flag ? o.span : o.value.span;
  return ins.fieldSpans[name] ?? ins.span;
}

/** The word fields of an instruction (Instr keys), as the codec's tables name them (grammars/systolic). */
const WORD_FIELD: Record<string, keyof Origin> = {
  operand0_address: 'a0', operand0_stride: 's0', operand1_address: 'a1', operand1_stride: 's1', operand2: 'a2',
  // Configure's own word (configure.json)
  register: 'a0', value: 'a1',
};
/** Which written operand each encoded value came from (the caret of a value that does not fit its field). */
type Origin = Partial<Record<'a0' | 's0' | 'a1' | 's1' | 'a2', string>>;

/** One bound instruction to values; problems are diagnostics at the operands. `origin` receives the operand of each value. */
function toInstr(values: FieldValues, mnemonic: string, w: number, spans: Record<string, SourceSpan>, missingAt: SourceSpan, flowAt: SourceSpan, diags: Diagnostic[], origin: Origin = {}): Instr | undefined {
  const info = INFO.get(mnemonic);
  if (!info) return undefined; // an unknown mnemonic: AS0217 from the front end
  const { op, names, flagTable } = info;
  let ok = true;
  for (const name in spans) {
    if (name === 'opcode' || names.includes(name) || flagTable[name] !== undefined) continue;
    const cands = [...names, ...Object.keys(flagTable)];
    diags.push(error('SYS0504', `\`${name}\` is not an operand of ${mnemonic}`, { span: spans[name]!, notes: [...didYouMean(name, cands), cands.length ? `${mnemonic} takes: ${cands.join(', ')}` : `${mnemonic} takes no operands`], spec: SPEC }));
    ok = false;
  }
  const num = (k: string) => values[k] as bigint | undefined;
  let other: (typeof MEMORIES)[number] | undefined;
  if (op === OP.DataMove && values['flow'] !== undefined) {
    const flow = Number(values['flow']);
    other = dataMoveOther(flow, { dram0_depth: 0, dram1_depth: 0, accumulator_depth: 0 } as Arch)!.name;
    for (const m of OTHER_MEMORIES) {
      if (m === other) continue;
      for (const k of [m, `${m}_stride`])
        if (spans[k]) {
          diags.push(error('SYS0504', `\`${k}\` is not an operand of DataMove flow=${DATA_MOVE_NAME.get(flow)}`, { span: spans[k]!, notes: [`this flow moves between local and ${other}`] }));
          ok = false;
        }
    }
  }
  for (const n of info.required)
    if (values[n] === undefined && !spans[n]) {
      diags.push(error('SYS0505', `${mnemonic} needs \`${n}=\``, { span: missingAt, spec: SPEC }));
      ok = false;
    }
  if (other && values[other] === undefined && !spans[other]) {
    diags.push(error('SYS0505', `${mnemonic} needs \`${other}=\``, { span: flowAt, notes: [`flow=${DATA_MOVE_NAME.get(Number(values['flow']))} moves between local and ${other}`], spec: SPEC }));
    ok = false;
  }
  if (!ok) return undefined;
  let flags = 0;
  for (const [k, bit] of info.flags) if (num(k)) flags |= bit;
  const i: Instr = { op, flags, a0: 0, s0: 0, a1: 0, s1: 0, a2: 0 };
  const n = (k: string) => Number(num(k) ?? 0n);
  const size = n('size') - 1;
  const set = (k: keyof Origin, operand: string, v: number) => {
    i[k] = v;
    origin[k] = operand;
  };
  const stride = (k: 's0' | 's1', m: string) => set(k, `${m}_stride`, log2(num(`${m}_stride`)));
  switch (op) {
    case OP.MatMul:
      set('a0', 'local', n('local')); stride('s0', 'local'); set('a1', 'acc', n('acc')); stride('s1', 'acc'); set('a2', 'size', size);
      break;
    case OP.DataMove:
      i.flags = n('flow'); set('a0', 'local', n('local')); stride('s0', 'local'); set('a1', other!, n(other!)); stride('s1', other!); set('a2', 'size', size);
      break;
    case OP.LoadWeight:
      set('a0', 'local', n('local')); stride('s0', 'local'); set('a1', 'size', size);
      break;
    case OP.SIMD:
      // the sub-instruction: op, left, right, dest from the top (simdOperandBits each)
      set('a0', 'write_addr', n('write_addr')); set('a1', 'read_addr', n('read_addr'));
      set('a2', 'op', n('op') * 2 ** (3 * w) + n('left') * 2 ** (2 * w) + n('right') * 2 ** w + n('dest'));
      break;
    case OP.LoadLUT:
      set('a0', 'local', n('local')); stride('s0', 'local'); set('a1', 'table', n('table'));
      break;
    case OP.Configure:
      set('a0', 'register', n('register')); set('a1', 'value', n('value'));
      break;
  }
  return i;
}

export interface SystolicAssembly {
  bytes: Uint8Array;
  count: number;
  diagnostics: Diagnostic[];
  /** The program (for listings); undefined when there are no instructions. */
  flat?: FlatProgram;
}

/**
 * Assembles `.tasm` sources on the shared front end: every input's top-level
 * instructions, in order, form the one program; `.program` blocks are errors
 * (the array has one instruction stream).
 */
export function assembleSystolic(inputs: SourceInput[], arch: Arch, opts: { sources?: SourceMap; includeDirs?: string[]; fastPath?: boolean } = {}): SystolicAssembly {
  const t = instructionTables(arch);
  const space = asmSpace(t);
  const set = readSources(inputs, { ...(opts.sources ? { sources: opts.sources } : {}), includeDirs: opts.includeDirs ?? [], ...(opts.fastPath === false ? { fastPath: false } : {}) });
  const diags = [...set.diagnostics];
  const ctx = { consts: set.consts, diags };
  const B = t.layout.bytes;
  const empty = { bytes: new Uint8Array(0), count: 0 };
  let flat: FlatProgram | undefined;
  const w = t.layout.simdOperandBits;
  let bytes = new Uint8Array(0);
  // the words are made as each instruction is bound (its bindings then die young: large listings);
  // an instruction's own checks run in the same pass as the front end's (all errors in one run, as GNU as),
  // skipped only for an instruction the front end already reported (its values are then partial)
  let seen = diags.length;
  // lines the parser already reported (a syntax error recovered from): their instructions are partial, not checked again
  const lineKey = (sp: SourceSpan) => `${sp.file}\u0000${sp.line}`;
  const parsedBad = new Set(set.diagnostics.filter((d) => d.severity === 'error' && d.span && 'line' in d.span).map((d) => lineKey(d.span as SourceSpan)));
  const each = (ins: FlatInsn, k: number): void => {
    let reported = parsedBad.has(lineKey(ins.span));
    for (let d = seen; d < diags.length; d++) if (diags[d]!.severity === 'error') reported = true;
    if (reported) {
      seen = diags.length;
      return;
    }
    const mnemonic = ins.ast.mnemonic;
    const origin: Origin = {};
    const i = toInstr(ins.values, mnemonic, w, ins.fieldSpans, missingSpan(ins), valueSpan(ins, 'flow'), diags, origin);
    seen = diags.length;
    if (!i) return;
    if ((i.s0 && !t.layout.stride0Bits) || (i.s1 && !t.layout.stride1Bits)) {
      const s0 = i.s0 && !t.layout.stride0Bits;
      const stride = Object.keys(ins.fieldSpans).find((n) => n.endsWith('_stride') && (s0 ? n === 'local_stride' : n !== 'local_stride'));
      diags.push(error('SYS0501', `this architecture has no stride bits for operand ${s0 ? 0 : 1}: strides must be 1`, { span: valueSpan(ins, stride), spec: SPEC }));
      seen = diags.length;
      return;
    }
    const problem = i.op === OP.Configure ? undefined : checkInstrAt(t, i);
    if (problem) {
      diags.push(error('SYS0501', problem.message, { span: valueSpan(ins, problem.operand), spec: SPEC }));
      seen = diags.length;
      return;
    }
    try {
      encodeInstr(t, i, bytes, k * B);
    } catch (e) {
      // the caret at the operand whose value overflows its field (as SYS0501 / SYS0505): the codec names the field
      const field = (e as { issues?: Array<{ field: string }> }).issues?.[0]?.field;
      const operand = field !== undefined ? origin[WORD_FIELD[field]!] : undefined;
      const notes = operand !== undefined && field !== operand ? [`\`${operand}\` is encoded in the word's \`${field}\` field${operand.endsWith('_stride') ? ' as its log2' : operand === 'size' ? ' as size - 1' : ''}`] : [];
      diags.push(error('SYS0502', `${mnemonic} does not fit the ${B}-byte instruction word: ${(e as Error).message}`, { span: valueSpan(ins, operand), notes, spec: SPEC }));
      seen = diags.length;
    }
  };
  for (const p of set.programs) {
    if (!p.implicit) {
      diags.push(error('SYS0506', 'a systolic program is one instruction stream: write the instructions at top level, without `.program`', { span: p.nameSpan }));
      continue;
    }
    bytes = new Uint8Array((p.body?.length ?? 0) * B);
    flat = compileFlatProgram(p, space, ctx, { hooks, encode: false, keepValues: false, each, spec: SPEC, structureNote: 'the array runs a straight instruction stream' });
  }
  // sources without instructions assemble to an empty program, as GNU as and every target (docs/assembler.md
  // "Empty sources"; spec §4 has no rule against it: the decoder then waits on an empty instruction stream)
  if (!flat) return { ...empty, diagnostics: sortDiagnostics(diags) };
  if (diags.some((d) => d.severity === 'error')) return { ...empty, diagnostics: sortDiagnostics(diags) };
  if (bytes.length !== flat.insns.length * B) bytes = bytes.slice(0, flat.insns.length * B);
  // the listing shows the encoded words of the architecture's instruction table
  const listed: FlatProgram = { ...flat, space: { ...space, op: t.word }, words: bytes, stride: B };
  return { bytes, count: flat.insns.length, diagnostics: sortDiagnostics(diags), flat: listed };
}

/** Assembles one text into `.tprog` bytes; any error throws a DiagnosticError (file:line:col). */
export function assembleText(text: string, file: string, arch: Arch): { bytes: Uint8Array; count: number } {
  const r = assembleSystolic([{ file, text }], arch);
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new DiagnosticError(r.diagnostics);
  return { bytes: r.bytes, count: r.count };
}

/** The listing of an assembly (flatListing: PC, word, source line). */
export function systolicListing(r: SystolicAssembly, sources?: SourceMap): string {
  return r.flat ? flatListing(r.flat, sources) : '';
}

// ---------------------------------------------------------------------------
// Disassembly: the same syntax

const mem = (name: string, a: number, s: number) => (s ? `${name}=${a} ${name}_stride=${2 ** s}` : `${name}=${a}`);

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
      return `MatMul${flagNames(ISA.flags['MatMul'])} ${mem('local', i.a0, i.s0)} ${mem('acc', i.a1, i.s1)} size=${i.a2 + 1}`;
    case OP.DataMove: {
      const o = dataMoveOther(i.flags, arch)!;
      return `DataMove flow=${DATA_MOVE_NAME.get(i.flags)} ${mem('local', i.a0, i.s0)} ${mem(o.name, i.a1, i.s1)} size=${i.a2 + 1}`;
    }
    case OP.LoadWeight:
      return `LoadWeight${flagNames(ISA.flags['LoadWeight'])} ${mem('local', i.a0, i.s0)} size=${i.a1 + 1}`;
    case OP.SIMD: {
      const w = instructionTables(arch).layout.simdOperandBits;
      const m = (1 << w) - 1;
      const op = i.a2 >> (3 * w);
      return `SIMD${flagNames(ISA.flags['SIMD'])} op=${SIMD_OP_NAME.get(op) ?? op} left=${(i.a2 >> (2 * w)) & m} right=${(i.a2 >> w) & m} dest=${i.a2 & m} write_addr=${i.a0} read_addr=${i.a1}`;
    }
    case OP.LoadLUT:
      return `LoadLUT ${mem('local', i.a0, i.s0)} table=${i.a1}`;
    case OP.Configure:
      return `Configure register=${REG_NAME.get(i.a0) ?? i.a0} value=${i.a1}`;
    default:
      return name;
  }
}

export function disassembleProgram(p: Program, arch: Arch, header = true): string {
  const L = instructionTables(arch).layout;
  const out: string[] = [];
  if (header) out.push(`// ${p.count} instructions of ${L.bytes} bytes (operands ${L.operand0Bits}/${L.operand1Bits}/${L.operand2Bits} bits; ${arch.data_type}, array ${arch.array_size})`);
  for (let pc = 0; pc < p.count; pc++) out.push(formatInstr(instrAt(p, pc), arch));
  return out.join('\n') + '\n';
}
