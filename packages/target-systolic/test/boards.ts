/** Architectures of common boards (Tensil's published .tarch files) and the spec's worked example. */
import type { Arch } from '../src/index.js';

const base = { data_type: 'FP16BP8', simd_registers_depth: 1, stride0_depth: 8, stride1_depth: 8, number_of_threads: 1, thread_queue_depth: 8 } as const;
export const BOARDS: Record<string, Arch> = {
  // local 8192 -> 13 bits, accumulators 2048 -> 11, DRAM 2^20 -> 20: op0 13+3=16, op1 20+3=23 -> 24, op2 max(11,13,13,7)=13 -> 16: 8+16+24+16 = 64 bits
  pynqz1: { ...base, array_size: 8, dram0_depth: 1048576, dram1_depth: 1048576, local_depth: 8192, accumulator_depth: 2048 },
  // local 20480 -> 15, acc 4096 -> 12, DRAM 2^21 -> 21: op0 18 -> 24, op1 24, op2 15 -> 16: 72 bits
  ultra96: { ...base, array_size: 16, dram0_depth: 2097152, dram1_depth: 2097152, local_depth: 20480, accumulator_depth: 4096 },
  // the spec's example operand: 11-bit address + 3-bit stride in 2 bytes (bits 15:14 padding)
  spec11: { ...base, array_size: 4, dram0_depth: 2048, dram1_depth: 2048, local_depth: 2048, accumulator_depth: 2048 },
};

