/**
 * The cycle model (docs/timing-model.md "## systolic"; parameters in
 * grammars/systolic/timing.json). It is an analytic estimate per instruction,
 * not a model of the RTL's pipelines: instructions complete in order, one at a
 * time (no overlap of DRAM transfers with compute), so totals are an upper
 * bound of what the decoder's queues would reach on the board.
 */
import type { Program } from './isa.js';
import type { TimingData } from './grammar.js';
import type { Arch } from './arch.js';
import { fixedType } from './fixed.js';

/** 0 decode (NoOp; LoadLUT adds one vector), 1 array (MatMul, LoadWeight), 2 SIMD, 3 local<->accumulator, 4 DRAM, 5 Configure. */
export type CycleClass = 0 | 1 | 2 | 3 | 4 | 5;
export const CYCLE_CLASS_NAMES = ['decode', 'array', 'simd', 'accumulator_move', 'dram', 'configure'] as const;

interface TimedMachine {
  hazardStall: number;
  readonly program: Program;
  readonly timing: TimingData;
  readonly arch: Arch;
}

/** Cycles instruction `pc` occupies the decoder (cycle class from the functional step). */
export function instructionCycles(m: TimedMachine, pc: number, cls: CycleClass): number {
  const T = m.timing;
  const p = m.program;
  const vectors = p.a2[pc]! + 1;
  switch (cls) {
    case 1: {
      // MatMul streams one input vector per cycle, then the last one drains through the N rows and N columns;
      // LoadWeight shifts one weight row per cycle (its size is operand 1).
      const N = m.arch.array_size;
      if (p.op[pc] === 3) return T.decode_cycles + (p.a1[pc]! + 1) * T.vector_cycles;
      return T.decode_cycles + vectors * T.vector_cycles + 2 * N * T.array_fill_drain_cycles_per_row + T.accumulator_latency_cycles;
    }
    case 2:
      return T.decode_cycles + T.simd_pipeline_cycles;
    case 3: {
      // a read of an accumulator vector a SIMD write has not reached yet waits for it (machine.ts inFlight)
      const stall = m.hazardStall;
      m.hazardStall = 0;
      return T.decode_cycles + vectors * T.vector_cycles + T.accumulator_latency_cycles + stall;
    }
    case 4: {
      // One AXI burst when both strides are 1; otherwise one burst per vector, each paying the bus beats.
      const vectorBytes = m.arch.array_size * fixedType(m.arch.data_type).bytes;
      const beats = Math.max(1, Math.ceil(vectorBytes / T.dram_bytes_per_cycle));
      return T.decode_cycles + T.dram_latency_cycles + vectors * Math.max(beats, T.vector_cycles);
    }
    case 5:
      return T.configure_cycles;
    default:
      // NoOp: decode only; LoadLUT reads one vector of local memory into a table
      return p.op[pc] === 5 ? T.decode_cycles + T.vector_cycles : T.decode_cycles;
  }
}
