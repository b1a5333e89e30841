/**
 * Loads the data of grammars/neuroncore/: the instruction set (instructions.json) and the machine
 * parameters (machine.json: memory geometry, engine clocks, cost-model parameters with their
 * sources). Validated once; every other module reads the figures from here.
 */
import { deriveParamTable, type ParamDescription, type ParamSet, type ParamTable } from '@pyxis/target';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const GRAMMARS = fileURLToPath(new URL('../../../grammars/neuroncore/', import.meta.url));

export interface IsaInsn {
  operands: string[];
  attrs: string[];
  inputs?: number;
  spec: string;
}

export interface Isa {
  instructions: Record<string, IsaInsn>;
  alu_ops: string[];
  reduce_ops: string[];
  cmp_ops: string[];
  activation_functions: string[];
}

export interface Machine {
  sbufPartitions: number;
  sbufPartitionBytes: number;
  psumPartitions: number;
  psumPartitionBytes: number;
  psumBanks: number;
  psumBankBytes: number;
  baseGhz: number;
  /** Kernel ticks per engine cycle: tensor, vector, scalar, gpsimd. */
  ticksPerCycle: [number, number, number, number];
  clockGhz: [number, number, number, number];
  /** SBUF partitions each GpSimd processor reads and writes (GpSimd Engine, Memory Hierarchy). */
  gpsimdGroup: number;
  cost: Record<string, number>;
}

let isa: Isa | undefined;
let machine: Machine | undefined;

export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(process.env['PYXIS_GRAMMARS'] ? join(process.env['PYXIS_GRAMMARS'], 'neuroncore') : GRAMMARS, file), 'utf8')) as Record<string, unknown>;
}

export function loadIsa(): Isa {
  if (isa) return isa;
  const j = readJson('instructions.json') as unknown as Isa;
  if (!j.instructions || !Array.isArray(j.alu_ops) || !Array.isArray(j.activation_functions)) throw new Error('grammars/neuroncore/instructions.json: missing instructions/alu_ops/activation_functions');
  isa = j;
  return j;
}

export function loadMachine(): Machine {
  if (machine) return machine;
  const j = readJson('machine.json') as {
    memories: Record<string, Record<string, number>>;
    engines: Record<string, { clock_ghz: number; partitions_per_processor?: number }>;
    base_clock_ghz: number;
    cost: Record<string, { value: number }>;
  };
  const clocks = ['tensor', 'vector', 'scalar', 'gpsimd'].map((e) => j.engines[e]!.clock_ghz) as [number, number, number, number];
  const ticks = clocks.map((g) => j.base_clock_ghz / g) as [number, number, number, number];
  for (const t of ticks) if (!Number.isInteger(Math.round(t * 1e9) / 1e9)) throw new Error('grammars/neuroncore/machine.json: base_clock_ghz is not a multiple of every engine clock');
  const cost: Record<string, number> = {};
  for (const [k, v] of Object.entries(j.cost)) cost[k] = v.value;
  machine = {
    sbufPartitions: j.memories['sbuf']!['partitions']!,
    sbufPartitionBytes: j.memories['sbuf']!['partition_bytes']!,
    psumPartitions: j.memories['psum']!['partitions']!,
    psumPartitionBytes: j.memories['psum']!['partition_bytes']!,
    psumBanks: j.memories['psum']!['banks']!,
    psumBankBytes: j.memories['psum']!['bank_bytes']!,
    baseGhz: j.base_clock_ghz,
    ticksPerCycle: ticks.map((t) => Math.round(t)) as [number, number, number, number],
    clockGhz: clocks,
    gpsimdGroup: j.engines['gpsimd']!.partitions_per_processor ?? 16,
    cost,
  };
  return machine;
}

export const SPEC = 'neuroncore-v2-architecture.md';

let table: ParamTable | undefined;
/** The machine parameter table: machine.json (defaults; `cost.NAME` objects carry value, unit, spec) joined with params.json. */
export function ncParamTable(): ParamTable {
  return (table ??= deriveParamTable('neuroncore', 'machine.json', readJson('machine.json'), readJson('params.json') as unknown as ParamDescription));
}

/** The cost constants of a resolved parameter set, by name (`cost.MM_INIT_LATENCY` -> `MM_INIT_LATENCY`). */
export function costFrom(set: ParamSet): Record<string, number> {
  const cost = { ...loadMachine().cost };
  for (const [k, v] of set.values) if (k.startsWith('cost.')) cost[k.slice(5)] = Number(v);
  return cost;
}
