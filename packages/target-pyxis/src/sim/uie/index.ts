export * from './sequencerCore.js';
export * from './tables.js';
export * from './convert.js';
export * from './itfe.js';
export * from './switchbox.js';
export * from './uie.js';
export * from './observer.js';
