/**
 * The target's data: grammars/systolic/instruction_set.json (opcodes, flags, the
 * DataMove flag enum, SIMD ops, configuration registers: spec §3, §4) and
 * grammars/systolic/timing.json (cycle-model parameters, docs/timing-model.md
 * "## systolic"). Loaded once; nothing else in the package spells a code point.
 */
import { loadGrammarJson } from '@pyxis/codec';
import { deriveParamTable, type ParamDescription, type ParamTable } from '@pyxis/target';

export interface IsaData {
  header: { opcode_bits: number; flags_bits: number };
  opcodes: Record<string, number>;
  flags: Record<string, Record<string, number>>;
  data_move_flags: Record<string, number>;
  simd_ops: Record<string, number>;
  simd_unary: string[];
  simd_op_bits: number;
  configure: { register_bits: number };
  config_registers: Array<{ number: number; name: string; width: number; default: number }>;
}

export interface TimingData {
  clock_hz: number;
  decode_cycles: number;
  array_fill_drain_cycles_per_row: number;
  vector_cycles: number;
  accumulator_latency_cycles: number;
  simd_pipeline_cycles: number;
  dram_latency_cycles: number;
  dram_bytes_per_cycle: number;
  configure_cycles: number;
  simd_write_to_datamove_gap: number;
  sample_block_words: number;
}

export const ISA: IsaData = loadGrammarJson<IsaData>('systolic', 'instruction_set');
export const TIMING: TimingData = loadGrammarJson<TimingData>('systolic', 'timing');

let table: ParamTable | undefined;
/** The machine parameter table: timing.json (defaults) joined with params.json (types, ranges, units, spec). */
export function systolicParamTable(): ParamTable {
  return (table ??= deriveParamTable('systolic', 'timing.json', TIMING, loadGrammarJson<ParamDescription>('systolic', 'params')));
}

const invert = (r: Record<string, number>) => {
  const m = new Map<number, string>();
  for (const [k, v] of Object.entries(r)) m.set(v, k);
  return m;
};
export const OPCODE_NAME = invert(ISA.opcodes);
export const DATA_MOVE_NAME = invert(ISA.data_move_flags);
export const SIMD_OP_NAME = invert(ISA.simd_ops);
export const OP = {
  NoOp: ISA.opcodes['NoOp']!,
  MatMul: ISA.opcodes['MatMul']!,
  DataMove: ISA.opcodes['DataMove']!,
  LoadWeight: ISA.opcodes['LoadWeight']!,
  SIMD: ISA.opcodes['SIMD']!,
  LoadLUT: ISA.opcodes['LoadLUT']!,
  Configure: ISA.opcodes['Configure']!,
} as const;
export const DM = {
  dram0ToLocal: ISA.data_move_flags['dram0_to_local']!,
  localToDram0: ISA.data_move_flags['local_to_dram0']!,
  dram1ToLocal: ISA.data_move_flags['dram1_to_local']!,
  localToDram1: ISA.data_move_flags['local_to_dram1']!,
  accToLocal: ISA.data_move_flags['acc_to_local']!,
  localToAcc: ISA.data_move_flags['local_to_acc']!,
  localToAccAcc: ISA.data_move_flags['local_to_acc_accumulate']!,
} as const;
export const SIMD_OP = ISA.simd_ops as Record<string, number>;
export const MATMUL_ACCUMULATE = ISA.flags['MatMul']!['accumulate']!;
export const MATMUL_ZEROES = ISA.flags['MatMul']!['zeroes']!;
export const LOADWEIGHT_ZEROES = ISA.flags['LoadWeight']!['zeroes']!;
export const SIMD_READ = ISA.flags['SIMD']!['read']!;
export const SIMD_WRITE = ISA.flags['SIMD']!['write']!;
export const SIMD_ACCUMULATE = ISA.flags['SIMD']!['accumulate']!;
