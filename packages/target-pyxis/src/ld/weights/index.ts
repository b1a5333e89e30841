/** Weight databases and compressed superblocks (pyxis-chip-fspec.md §14, §15); docs/weights.md. */
export {
  type WeightsSource, type DbRegion, type QuantisationReport, errorFigures,
  LD_WEIGHTS_SHAPE, LD_WEIGHTS_PARAM, LD_WEIGHTS_DATA,
} from './common.js';
export * from './kernel3x3.js';
export * from './linear.js';
export * from './superblock.js';
export * from './compress.js';
export * from './floats.js';
