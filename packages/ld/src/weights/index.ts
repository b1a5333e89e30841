/** Weight databases and compressed superblocks (pyxis-chip-fspec.md §14, §15). */
export * from './common.js';
export * from './kernel3x3.js';
export * from './linear.js';
export * from './superblock.js';
export * from './compress.js';
export * from './floats.js';
