/** Kernel generators (docs/generators.md): `.pasm` + link script + seeded `.npy` inputs for GEMM, convolutions, VPU rows, attention. */
export * from './errors.js';
export * from './kernel.js';
export * from './inputs.js';
export * from './gemm.js';
export * from './figures.js';
export * from './reference.js';
export * from './kinds.js';
export * from './cli.js';
export * from './rows.js';
export * from './transformer.js';
export * from './runner.js';
export * from './conv.js';
export * from './resnet.js';
export * from './resnetDown.js';
export * from './convPlan.js';
export * from './conv1x1.js';
export * from './attention.js';
