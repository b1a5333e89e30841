/**
 * The SIMD Lookup op with the tables of LoadLUT (spec §4 "Lookup sub-instruction";
 * docs/spec-notes.md "systolic: Lookup and LoadLUT"): samples/systolic/lookup.tasm
 * (a piecewise-linear function: difference to the closest key, table values,
 * then Multiply and Add) checked against a reference written here, the
 * encoding of the 5-bit op field, and the programs the rules refuse.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { assembleSystolic, assembleText, buildMachine, decodeProgram, deriveLayout, disassembleProgram, encodeInstr, instrAt, instructionTables, parseArchText, type Instr } from '../src/index.js';
import { refMac } from './reference.js';

const SAMPLES = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
const arch = parseArchText(readFileSync(SAMPLES + 'arch4lut.tarch', 'utf8'), 'arch4lut.tarch');
const arch4 = parseArchText(readFileSync(SAMPLES + 'arch4.tarch', 'utf8'), 'arch4.tarch');
const N = 4;
const sat = (v: number) => Math.max(-32768, Math.min(32767, v));
const le16 = (v: number[]) => {
  const b = new Uint8Array(v.length * 2);
  v.forEach((x, i) => { b[i * 2] = x & 255; b[i * 2 + 1] = (x >> 8) & 255; });
  return b;
};

/** Reference: nearest key by |x - key| (lowest entry on a tie), then f(k) + (x - k) * f'(k) with the Tensil MAC. */
function refLookup(x: number, keys: number[], values: number[], slopes: number[]): number {
  let k = 0;
  for (let i = 1; i < keys.length; i++) if (Math.abs(x - keys[i]!) < Math.abs(x - keys[k]!)) k = i;
  const diff = sat(x - keys[k]!);
  return sat(refMac(diff, slopes[k]!, 0) + values[k]!);
}

function runLookup(keys: number[], values: number[], slopes: number[], x: number[], src = readFileSync(SAMPLES + 'lookup.tasm', 'utf8')) {
  const program = assembleText(src, 'lookup.tasm', arch).bytes;
  const m = buildMachine({
    arch, program, programOffset: 0, inputs: [], outputs: [], model: 'lookup',
    data: [{ space: 'dram0', address: 0, data: le16(x), name: 'x' }, { space: 'dram1', address: 0, data: le16([...keys, ...values, ...slopes]), name: 'lut' }],
  }, 'lookup.tasm');
  m.runAll();
  return { m, out: Array.from(m.dram0.subarray(8 * N, 12 * N)) };
}

describe('Lookup', () => {
  test('sample lookup.tasm: a piecewise-linear tanh by table lookup, against the reference', () => {
    const keys = [-512, -128, 128, 512]; // -2, -0.5, 0.5, 2 (FP16BP8)
    const values = [-247, -118, 118, 247]; // tanh(key)
    const slopes = [18, 201, 201, 18]; // tanh'(key)
    // inputs: exact keys, midpoints (ties go to the lower key), far outside (saturating difference) and ordinary values
    const x = [-512, -320, 0, 320, 512, 32767, -32768, 100, -700, 7, -7, 130, 300, -300, 1000, -129];
    const { out, m } = runLookup(keys, values, slopes, x);
    expect(out).toEqual(x.map((v) => refLookup(v, keys, values, slopes)));
    expect(m.hazardCount).toBe(0);
    // registers after the last Lookup of vector 3 / Multiply: r2 = f(k), r3 = f'(k) of its lanes
    expect(Array.from(m.regs.subarray(N, 2 * N))).toEqual(x.slice(12).map((v) => values[[0, 1, 2, 3].reduce((b, i) => (Math.abs(v - keys[i]!) < Math.abs(v - keys[b]!) ? i : b), 0)]!));
  });

  test('keys need not be sorted; the first of two equally close keys wins', () => {
    const keys = [256, -256, 0, 256];
    const values = [1, 2, 3, 4];
    const slopes = [256, 256, 256, 256]; // 1.0: f = f(k) + (x - k)
    const x = [128, -128, 256, 300, 0, -1000, 1000, 127, 129, -129, -127, 10, 20, 30, 40, 50];
    const { out } = runLookup(keys, values, slopes, x);
    expect(out).toEqual(x.map((v) => refLookup(v, keys, values, slopes)));
    expect(out[0]).toBe(1 + (128 - 256)); // 128 is as close to 256 (entry 0) as to 0 (entry 2): entry 0 wins
  });

  test('dest 0: the difference is the output, table t goes to register t', () => {
    const src = `DataMove flow=dram1_to_local local=0 dram1=0 size=3
LoadLUT local=0 table=0
LoadLUT local=1 table=1
LoadLUT local=2 table=2
DataMove flow=dram0_to_local local=8 dram0=0 size=1
DataMove flow=local_to_acc local=8 acc=0 size=1
SIMD read write op=Lookup left=0 dest=0 write_addr=1 read_addr=0
NoOp
NoOp
DataMove flow=acc_to_local local=16 acc=1 size=1
DataMove flow=local_to_dram0 local=16 dram0=8 size=1`;
    const keys = [0, 100, 200, 300];
    const { m } = runLookup(keys, [5, 6, 7, 8], [9, 10, 11, 12], [90, 260, -5, 1000], src);
    expect(Array.from(m.dram0.subarray(8 * N, 9 * N))).toEqual([-10, -40, -5, 700]);
    expect(Array.from(m.regs.subarray(0, N))).toEqual([6, 8, 5, 8]);
    expect(Array.from(m.regs.subarray(N, 2 * N))).toEqual([10, 12, 9, 12]);
  });

  test('encoding: the op field is 5 bits with lookup tables (Lookup = 0x10), 4 bits without', () => {
    expect(deriveLayout(arch).simdOpBits).toBe(5);
    expect(deriveLayout(arch4).simdOpBits).toBe(4);
    // 3 registers -> 2 bits each; sub = op << 6 | left << 4 | right << 2 | dest; operand 2 starts at byte 4 here (op0 16 bits, op1 16 bits)
    const L = deriveLayout(arch);
    expect([L.operand0Bits, L.operand1Bits, L.operand2Bits, L.bytes]).toEqual([16, 16, 16, 7]);
    const b = assembleText('SIMD read op=Lookup left=2 right=0 dest=1 write_addr=0 read_addr=3', 'e.tasm', arch).bytes;
    const sub = (16 << 6) | (2 << 4) | 1;
    expect(Array.from(b)).toEqual([0, 0, 3, 0, sub & 255, sub >> 8, 0x41]);
  });

  test('refused: Lookup without lookup tables, too few registers for the results, a table the architecture lacks', () => {
    const asm = (text: string, a: typeof arch) => assembleSystolic([{ file: 't.tasm', text }], a);
    const noLut = asm('SIMD read op=Lookup left=0 dest=0 read_addr=0', arch4);
    expect(noLut.diagnostics.map((d) => d.message).join('\n')).toMatch(/Lookup needs an architecture with lookup tables/);
    const few = asm('SIMD read op=Lookup left=0 dest=2 read_addr=0', arch);
    expect(few.diagnostics.map((d) => d.message).join('\n')).toMatch(/Lookup writes registers 2\.\.4 but the architecture has 3/);
    const table = asm('LoadLUT local=0 table=3', arch);
    expect(table.diagnostics.map((d) => d.message).join('\n')).toMatch(/LoadLUT table 3: the architecture has 2 lookup table/);
    for (const r of [noLut, few, table]) expect(r.bytes.length).toBe(0);
  });

  test('.tarch: number_of_lookup_tables is optional and range-checked', () => {
    expect(arch4.number_of_lookup_tables).toBeUndefined();
    const bad = JSON.stringify({ ...JSON.parse(readFileSync(SAMPLES + 'arch4lut.tarch', 'utf8')), number_of_lookup_tables: 16 });
    expect(() => parseArchText(bad, 'x.tarch')).toThrow(/\$\.number_of_lookup_tables: 16 out of range 0\.\.15/);
  });

  test('round trip: random Lookup and LoadLUT instructions on architectures with 1..4 tables', () => {
    const archArb = fc.record({ luts: fc.integer({ min: 1, max: 4 }), extra: fc.integer({ min: 0, max: 3 }) }).map(({ luts, extra }) => ({ ...arch, simd_registers_depth: luts + 1 + extra, number_of_lookup_tables: luts }));
    fc.assert(
      fc.property(archArb.chain((a) => fc.tuple(fc.constant(a), fc.array(fc.oneof(
        fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: a.simd_registers_depth }), fc.integer({ min: 0, max: a.simd_registers_depth - a.number_of_lookup_tables }))
          .map(([f, wa, ra, l, d]): Instr => { const w = deriveLayout(a).simdOperandBits; return { op: 4, flags: f, a0: wa, s0: 0, a1: ra, s1: 0, a2: 16 * 2 ** (3 * w) + l * 2 ** (2 * w) + d }; }),
        fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: a.number_of_lookup_tables })).map(([l, tb]): Instr => ({ op: 5, flags: 0, a0: l, s0: 0, a1: tb, s1: 0, a2: 0 })),
      ), { minLength: 1, maxLength: 10 }))), ([a, instrs]) => {
        const t = instructionTables(a);
        const bytes = new Uint8Array(instrs.length * t.layout.bytes);
        instrs.forEach((i, k) => encodeInstr(t, i, bytes, k * t.layout.bytes));
        const p = decodeProgram(bytes, a, 'r.tprog');
        instrs.forEach((i, k) => expect(instrAt(p, k)).toEqual(i));
        const text = disassembleProgram(p, a);
        expect(text).toContain(instrs.some((i) => i.op === 4) ? 'op=Lookup' : 'LoadLUT');
        expect(Array.from(assembleText(text, 'r.tasm', a).bytes)).toEqual(Array.from(bytes));
      }),
      { numRuns: 60 },
    );
  });
});
