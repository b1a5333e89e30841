/**
 * Architecture validation and the derived instruction layout: golden sizes
 * worked out by hand from spec §4's rules (operand = address bits of the
 * largest memory it names + stride bits, rounded up to bytes; 8 header bits).
 */
import { describe, expect, test } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { deriveLayout, log2Ceil, parseArch, parseArchText } from '../src/index.js';
import { BOARDS } from './boards.js';

describe('layout', () => {
  test('log2Ceil is the bit length of n-1', () => {
    expect([1, 2, 3, 4, 5, 8, 9, 20480, 49152, 65536].map(log2Ceil)).toEqual([0, 1, 2, 2, 3, 3, 4, 15, 16, 16]);
  });
  test.each([
    ['pynqz1', [16, 24, 16, 8]],
    ['ultra96', [24, 24, 16, 9]],
    ['spec11', [16, 16, 16, 7]],
  ] as const)('%s', (name, [o0, o1, o2, bytes]) => {
    const L = deriveLayout(BOARDS[name]!);
    expect([L.operand0Bits, L.operand1Bits, L.operand2Bits, L.bytes]).toEqual([o0, o1, o2, bytes]);
  });
  test('spec example: 11-bit address, 3-bit stride above it, 2 padding bits', () => {
    const L = deriveLayout(BOARDS['spec11']!);
    expect([L.operand0AddressBits, L.stride0Bits, L.operand0Bits - L.operand0AddressBits - L.stride0Bits]).toEqual([11, 3, 2]);
  });
  test('SIMD sub-instruction: 4-bit op + 3 register fields of log2(registers+1) bits', () => {
    expect(deriveLayout({ ...BOARDS['pynqz1']!, simd_registers_depth: 1 }).simdInstructionBits).toBe(7);
    expect(deriveLayout({ ...BOARDS['pynqz1']!, simd_registers_depth: 4 }).simdInstructionBits).toBe(13);
  });
});

describe('validation', () => {
  const bad = (v: unknown) => {
    try {
      parseArch(v, 'a.tarch');
    } catch (e) {
      expect(e).toBeInstanceOf(DiagnosticError);
      return (e as DiagnosticError).diagnostics.map((d) => d.message);
    }
    throw new Error('accepted');
  };
  test('every field is checked and named by its JSON path', () => {
    expect(bad({ ...BOARDS['pynqz1'], array_size: 1 })).toEqual(['$.array_size: 1 out of range 2..256']);
    expect(bad({ ...BOARDS['pynqz1'], dram0_depth: 1000 })).toEqual(['$.dram0_depth: 1000 is not a power of two']);
    expect(bad({ ...BOARDS['pynqz1'], data_type: 'FP64' })[0]).toMatch(/^\$\.data_type: expected one of FP16BP8/);
    expect(bad({ ...BOARDS['pynqz1'], local_depth: '8' })).toEqual(['$.local_depth: expected an integer, got "8"']);
    expect(bad({ ...BOARDS['pynqz1'], simd_registers_depth: 17 })).toEqual(['$.simd_registers_depth: 17 out of range 0..16']);
    expect(bad({ ...BOARDS['pynqz1'], colour: 1 })[0]).toMatch(/^\$\.colour: unknown architecture field/);
    const { accumulator_depth: _, ...noAcc } = BOARDS['pynqz1']!;
    expect(bad(noAcc)).toEqual(['$.accumulator_depth: missing']);
    expect(bad([])).toEqual(['$: the architecture must be a JSON object']);
  });
  test('malformed JSON is a diagnostic, not an exception', () => {
    expect(() => parseArchText('{"array_size": ', 'x.tarch')).toThrow(DiagnosticError);
  });
});
