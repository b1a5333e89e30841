/** The Pyxis assembler back end: the sequencer ISA, loop compiler, encoder, objects, listings, IR, patch blobs, disassembler. */
export * from '@pyxis/asm';
export * from './isa.js';
export * from './program.js';
export { compileProgram, compileVpuProgram } from './compile.js';
export { PyxisOperands, type EvalCtx as PyxisEvalCtx } from './bind.js';
export { flatten, loopControl, type LoopCtx, type LoopedInsn } from './loops.js';
export { encodeProgram, encodeVpuProgram } from './encode.js';
export { encodeFast, effectiveValues, effectiveValue } from './fastcodec.js';
export { checkProgram } from './checks.js';
export * from './object.js';
export { makeListing, listingChunks, listingLines } from './listing.js';
export { assemblePiecewise, PIECE_CHARS, PIECEWISE_FROM_CHARS } from './piecewise.js';
export * from './assemble.js';
export * from './ir.js';
export * from './disasm.js';
export * from './patch.js';
export * from './golden.js';
