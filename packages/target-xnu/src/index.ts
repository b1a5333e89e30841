export * from './fp32.js';
export * from './datapath.js';
export * from './grammar.js';
export * from './asm.js';
export * from './ld.js';
export * from './machine.js';
export * from './run.js';
export * from './entry.js';
export { xnuTarget } from './target.js';
