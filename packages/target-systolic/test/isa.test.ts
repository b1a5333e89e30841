/**
 * Encoding: hand-derived words, round trips (encode -> decode -> disassemble
 * -> assemble) over random legal instructions for several architectures with
 * array sizes 4..32, and malformed programs rejected at their byte offset.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { assembleSystolic, systolicListing, assembleText, decodeProgram, deriveLayout, disassembleProgram, encodeInstr, instructionTables, instrAt, type Arch, type Instr } from '../src/index.js';
import { refDecode } from './reference.js';
import { BOARDS } from './boards.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('golden words', () => {
  test('MatMul on PYNQ-Z1: op0 16 bits, op1 24 bits, op2 16 bits, then flags and opcode', () => {
    const t = instructionTables(BOARDS['pynqz1']!);
    // local 5 stride 2 (log2 1 at bit 13), acc 7 stride 1, size 4 vectors (3), accumulate
    const w = encodeInstr(t, { op: 1, flags: 1, a0: 5, s0: 1, a1: 7, s1: 0, a2: 3 });
    // op0 = 5 | 1<<13 = 0x2005 -> 05 20; op1 = 7 -> 07 00 00; op2 = 3 -> 03 00; header (1<<4)|1 = 0x11
    expect(hex(w)).toBe('052007000003' + '0011');
  });
  test('DataMove dram0->local on Ultra96 with a DRAM stride: stride bits right above the 21-bit address', () => {
    const t = instructionTables(BOARDS['ultra96']!);
    const w = encodeInstr(t, { op: 2, flags: 0, a0: 1, s0: 0, a1: 2, s1: 3, a2: 0 });
    // op0 = 1 (3 bytes); op1 = 2 | 3<<21 = 0x600002 -> 02 00 60; op2 = 0 (2 bytes); header 0x20
    expect(hex(w)).toBe('010000' + '020060' + '0000' + '20');
  });
  test('Configure: register in bits 0-3, value above (Tensil driver layout)', () => {
    const t = instructionTables(BOARDS['pynqz1']!);
    const w = encodeInstr(t, { op: 15, flags: 0, a0: 11, s0: 0, a1: 100, s1: 0, a2: 0 });
    expect(hex(w)).toBe('4b06000000000000'.slice(0, 14) + 'f0');
  });
});

function archArb(): fc.Arbitrary<Arch> {
  return fc.record({
    data_type: fc.constantFrom('FP16BP8' as const, 'FP32BP16' as const),
    array_size: fc.integer({ min: 4, max: 32 }),
    dram0_depth: fc.integer({ min: 4, max: 24 }).map((b) => 2 ** b),
    dram1_depth: fc.integer({ min: 4, max: 24 }).map((b) => 2 ** b),
    local_depth: fc.integer({ min: 16, max: 65536 }),
    accumulator_depth: fc.integer({ min: 16, max: 65536 }),
    simd_registers_depth: fc.integer({ min: 1, max: 4 }),
    stride0_depth: fc.constantFrom(1, 2, 8, 16),
    stride1_depth: fc.constantFrom(1, 2, 8, 16),
    number_of_threads: fc.constant(1),
    thread_queue_depth: fc.constant(8),
  });
}

/** A random legal instruction for `a` (operands inside their memories). */
function instrArb(a: Arch): fc.Arbitrary<Instr> {
  const L = deriveLayout(a);
  const s0 = fc.integer({ min: 0, max: Math.max(0, 2 ** L.stride0Bits - 1) }).map((s) => Math.min(s, Math.log2(a.stride0_depth) | 0));
  const s1 = fc.integer({ min: 0, max: Math.max(0, 2 ** L.stride1Bits - 1) }).map((s) => Math.min(s, Math.log2(a.stride1_depth) | 0));
  const addr = (depth: number) => fc.integer({ min: 0, max: Math.min(depth, 2 ** 20) - 1 });
  const fit = (i: Instr, size: number, d0: number, d1: number): Instr => {
    // shrink size / strides until the last vector is inside both memories
    let n = size;
    while (n > 0 && (i.a0 + n * 2 ** i.s0 >= d0 || i.a1 + n * 2 ** i.s1 >= d1)) n >>= 1;
    if (i.a0 + n * 2 ** i.s0 >= d0 || i.a1 + n * 2 ** i.s1 >= d1) return { ...i, s0: 0, s1: 0, a2: 0 };
    return { ...i, a2: n };
  };
  const w = L.simdOperandBits;
  const reg = fc.integer({ min: 0, max: a.simd_registers_depth });
  const dmFlag = fc.constantFrom(0, 1, 2, 3, 12, 13, 15);
  return fc.oneof(
    fc.constant({ op: 0, flags: 0, a0: 0, s0: 0, a1: 0, s1: 0, a2: 0 }),
    fc.tuple(fc.integer({ min: 0, max: 1 }), addr(a.local_depth), s0, addr(a.accumulator_depth), s1, fc.integer({ min: 0, max: 300 })).map(([f, a0, ss0, a1, ss1, n]) =>
      fit({ op: 1, flags: f, a0, s0: ss0, a1, s1: ss1, a2: 0 }, n, a.local_depth, a.accumulator_depth)),
    fc.tuple(dmFlag, addr(a.local_depth), s0, fc.integer({ min: 0, max: 2 ** 20 }), s1, fc.integer({ min: 0, max: 300 })).map(([f, a0, ss0, a1, ss1, n]) => {
      const d = f < 2 ? a.dram0_depth : f < 4 ? a.dram1_depth : a.accumulator_depth;
      return fit({ op: 2, flags: f, a0, s0: ss0, a1: a1 % d, s1: ss1, a2: 0 }, n, a.local_depth, d);
    }),
    fc.tuple(addr(a.local_depth), s0, fc.integer({ min: 0, max: 40 })).map(([a0, ss0, n]) => {
      const i = fit({ op: 3, flags: 0, a0, s0: ss0, a1: 0, s1: 0, a2: 0 }, n, a.local_depth, 1e12);
      return { ...i, a1: i.a2, a2: 0 };
    }),
    fc.tuple(fc.integer({ min: 0, max: 7 }), addr(a.accumulator_depth), addr(a.accumulator_depth), fc.integer({ min: 0, max: 15 }), reg, reg, reg).map(([f, wa, ra, op, l, r, d]) => ({
      op: 4, flags: f, a0: wa, s0: 0, a1: ra, s1: 0, a2: op * 2 ** (3 * w) + l * 2 ** (2 * w) + r * 2 ** w + d,
    })),
    fc.tuple(fc.constantFrom(0, 1, 4, 5, 8, 9, 10, 11), fc.integer({ min: 0, max: 65535 })).map(([r, v]) => ({ op: 15, flags: 0, a0: r, s0: 0, a1: v, s1: 0, a2: 0 })),
  );
}

test('round trip: encode -> decode (and the reference decoder) -> disassemble -> assemble gives the same bytes', () => {
  fc.assert(
    fc.property(archArb().chain((a) => fc.tuple(fc.constant(a), fc.array(instrArb(a), { minLength: 1, maxLength: 30 }))), ([a, instrs]) => {
      const t = instructionTables(a);
      const B = t.layout.bytes;
      const bytes = new Uint8Array(instrs.length * B);
      instrs.forEach((i, k) => encodeInstr(t, i, bytes, k * B));
      const p = decodeProgram(bytes, a, 'r.tprog');
      instrs.forEach((i, k) => expect(instrAt(p, k)).toEqual(i));
      const ref = refDecode(bytes, a);
      instrs.forEach((i, k) => i.op !== 15 && expect([ref[k]!.opcode, ref[k]!.flags, ref[k]!.addr0, ref[k]!.addr1, ref[k]!.op2]).toEqual([i.op, i.flags, i.a0, i.a1, i.a2]));
      const text = disassembleProgram(p, a);
      expect(hex(assembleText(text, 'r.tasm', a).bytes)).toBe(hex(bytes));
    }),
    { numRuns: 150 },
  );
});

describe('malformed programs', () => {
  const a = BOARDS['pynqz1']!;
  const t = instructionTables(a);
  const err = (bytes: Uint8Array) => {
    try {
      decodeProgram(bytes, a, 'p.tprog');
    } catch (e) {
      return (e as DiagnosticError).diagnostics.map((d) => [(d.span as { offset: number }).offset, d.message]);
    }
    throw new Error('accepted');
  };
  const ok = encodeInstr(t, { op: 1, flags: 0, a0: 0, s0: 0, a1: 0, s1: 0, a2: 0 });
  test('truncated: the leftover bytes at their offset', () => {
    const b = new Uint8Array(8 + 5);
    b.set(ok);
    expect(err(b)).toEqual([[8, 'truncated program: 13 bytes is not a whole number of 8-byte instructions (the last 5 bytes are left over)']]);
  });
  test('unknown opcode', () => {
    const b = new Uint8Array(16);
    b.set(ok);
    b[15] = 0x70;
    expect(err(b)).toEqual([[8, 'instruction 1: unknown opcode 0x7']]);
  });
  test('operand out of range, bad flags, padding bits', () => {
    const mk = (i: Instr) => encodeInstr(t, i);
    expect(err(mk({ op: 1, flags: 0, a0: 8190, s0: 0, a1: 0, s1: 0, a2: 3 }))[0]![1]).toMatch(/local memory vectors 8190..8193 \(stride 1\) outside its 8192 vectors/);
    expect(err(mk({ op: 2, flags: 5, a0: 0, s0: 0, a1: 0, s1: 0, a2: 0 }))[0]![1]).toMatch(/flags 0x5 is not a data flow of the DataMove enum/);
    expect(err(mk({ op: 1, flags: 0, a0: 0, s0: 0, a1: 2048, s1: 0, a2: 0 }))[0]![1]).toMatch(/accumulators vectors 2048..2048/);
    const b = mk({ op: 0, flags: 0, a0: 0, s0: 0, a1: 0, s1: 0, a2: 0 });
    b[4] = 0x80; // operand 1 padding (bit 23 of a 24-bit operand with 20+3 bits used)
    expect(err(b)[0]![1]).toMatch(/padding bits set \(operand1_padding\)/);
  });
});

describe('assembler diagnostics carry file:line:col', () => {
  const a = BOARDS['pynqz1']!;
  const diag = (src: string) => {
    try {
      assembleText(src, 's.tasm', a);
    } catch (e) {
      return (e as DiagnosticError).diagnostics.map((d) => ({ ...(d.span as object), message: d.message }));
    }
    throw new Error('accepted');
  };
  const codes = (src: string) => {
    try {
      assembleText(src, 's.tasm', a);
    } catch (e) {
      return (e as DiagnosticError).diagnostics.map((d) => `${d.code}@${(d.span as { line: number; column: number }).line}:${(d.span as { column: number }).column}`);
    }
    return [];
  };
  test('unknown mnemonic, flag, stride, missing operand: shared front-end diagnostics at the operand', () => {
    expect(diag('NoOp\n  MatMull local=0 acc=0 size=1')).toEqual([{ file: 's.tasm', line: 2, column: 3, length: 7, message: 'unknown mnemonic `MatMull` for systolic' }]);
    expect(diag('MatMul fast local=0 acc=0 size=1')).toEqual([expect.objectContaining({ line: 1, column: 8, message: 'unknown field `fast` for systolic op' })]);
    expect(diag('MatMul local=0 local_stride=3 acc=0 size=1')).toEqual([expect.objectContaining({ column: 29, message: 'stride 3 is not a power of two' })]);
    expect(diag('DataMove flow=dram0_to_local local=0 size=1')[0]!.message).toBe('DataMove needs `dram0=`');
    expect(diag('MatMul local=0 acc=0 size=0')[0]!.message).toBe('size is the number of vectors: at least 1');
    expect(diag('DataMove flow=dram0_to_lokal local=0 dram0=0 size=1')[0]!.message).toBe('`dram0_to_lokal` is not a value of `flow`');
    expect(codes('LoadWeight local=0 acc=0 size=1')).toEqual(['SYS0504@1:20']); // not an operand of LoadWeight
    expect(codes('DataMove flow=dram0_to_local local=0 acc=0 size=1')).toEqual(['SYS0505@1:15', 'SYS0504@1:38']); // acc is not this flow's memory; dram0 missing (caret at the flow that needs it)
    expect(codes('LoadWeight accumulate size=1')).toEqual(['SYS0504@1:12']); // a MatMul flag
    expect(codes('MatMul local size=1 acc=0')).toEqual(['AS0225@1:8']); // a bare name is a one-bit flag
    expect(codes('MatMul local=0 acc=4096 size=1')).toEqual(['SYS0501@1:20']); // outside the accumulators: the caret at acc's value
    expect(codes('LoadLUT local=0 table=5')).toEqual(['SYS0501@1:23']); // no lookup tables on this board: at the table's value
    expect(codes('MatMul local=0 acc=0')).toEqual(['SYS0505@1:21']); // size missing: the caret after the last operand, where it goes
    expect(codes('.program p x { NoOp }')).toEqual(['SYS0506@1:10']);
    expect(codes('loop 2 { NoOp }')).toEqual(['AS0317@1:1', 'AS0315@1:1']);
  });
  test('sources without instructions (empty, comments, constants only) assemble to an empty program, as GNU as', () => {
    for (const text of ['', '// nothing yet\n', '.const N = 4\n'])
      expect(assembleSystolic([{ file: 'e.tasm', text }], a)).toEqual({ bytes: new Uint8Array(0), count: 0, diagnostics: [] });
  });
  test('all errors in one run (as GNU as): back-end checks are not held back by front-end errors on other lines', () => {
    // line 1: a front-end error (AS0217); line 2: SYS0505; line 3: SYS0501; line 4: a front-end error on the
    // instruction itself (AS0401), whose partial values are not checked again
    const src = 'MatMull local=0 acc=0 size=1\nMatMul local=0 acc=0\nMatMul local=0 acc=4096 size=1\nMatMul local=0 acc=0 size=0';
    expect(codes(src)).toEqual(['AS0217@1:1', 'SYS0505@2:21', 'SYS0501@3:20', 'SYS0503@4:27']);
  });
  test('--listing is the shared flat listing: PC, the encoded word (most significant byte first), the source line', () => {
    const r = assembleSystolic([{ file: 'l.tasm', text: 'NoOp\n  MatMul accumulate local=5 acc=7 size=4 // c\n' }], a);
    const B = deriveLayout(a).bytes;
    const word = (k: number) => Array.from(r.bytes.subarray(k * B, (k + 1) * B)).reverse().map((x) => x.toString(16).padStart(2, '0')).join('');
    expect(word(1).slice(0, 2)).toBe('11'); // opcode 1 (MatMul), flags 1 (accumulate) in the top byte
    expect(systolicListing(r)).toBe(`; main: 2 instructions of systolic_instruction (${B * 8} bits)\n0  ${word(0)}  NoOp\n1  ${word(1)}  MatMul\n`);
  });
  test('several inputs are one instruction stream, in order; a constant of the first file is seen by the second', () => {
    const one = assembleText('LoadWeight zeroes size=1\nMatMul local=3 acc=4 size=2\nNoOp', 'one.tasm', a).bytes;
    const r = assembleSystolic([{ file: 'a.tasm', text: '.const L = 3\nLoadWeight zeroes size=1' }, { file: 'b.tasm', text: 'MatMul local=L acc=L + 1 size=2\nNoOp' }], a);
    expect(r.diagnostics).toEqual([]);
    expect(Buffer.from(r.bytes).equals(Buffer.from(one))).toBe(true);
  });
  test('constants, expressions and flags: the same bytes as the literal form', () => {
    const lit = assembleText('MatMul accumulate local=16 local_stride=2 acc=32 size=4\nSIMD read write op=Max left=0 right=1 dest=0 write_addr=5 read_addr=5', 'l.tasm', a).bytes;
    const expr = assembleText('.const BASE = 8\nMatMul accumulate, local=BASE * 2, local_stride=1 << 1, acc=0x20, size=4 // comment\nSIMD read write op=Max left=0 right=1 dest=0 write_addr=BASE - 3 read_addr=5', 'e.tasm', a).bytes;
    expect(Buffer.from(expr).equals(Buffer.from(lit))).toBe(true);
    // accumulate is bit 0 of the MatMul flags (grammars/systolic), the stride 2 is log2 = 1 above the address
    const noFlag = assembleText('MatMul local=16 local_stride=2 acc=32 size=4', 'n.tasm', a).bytes;
    expect(lit[deriveLayout(a).bytes - 1]! - noFlag[deriveLayout(a).bytes - 1]!).toBe(1);
  });
});
