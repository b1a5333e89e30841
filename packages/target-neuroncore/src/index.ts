/** @pyxis/target-neuroncore: the NeuronCore-v2 target (assembler dialect, layout rules, numbers, cost model). */
export * from './entry.js';
export { neuroncoreTarget } from './target.js';
export * from './ir.js';
export * from './numerics.js';
export { assembleNc, programOf, programObject, NC_PROGRAM_SECTION } from './assemble.js';
export { linkNc, encodeTensor } from './link.js';
export { runImage, formatSummary, MODEL_LABEL, type NcReport, type NcRun } from './run.js';
export { engineCycles, dmaNs, peakFlops, dmaBuffers } from './cost.js';
export { startPartitionOk } from './rules.js';
export { loadMachine, loadIsa } from './isa.js';
export { dumpTensor } from './dump.js';
export { disassembleNc } from './disasm.js';
export { sourceNc, numText } from './source.js';
export { Executor, Memories } from './exec.js';
export { hbmAddresses } from './run.js';
export { lexLine, parseNc, type Tok } from './parse.js';
export { MAX_UNROLLED, MAX_LOOP_DEPTH } from './unroll.js';
export { tensorAliases } from './aliases.js';
