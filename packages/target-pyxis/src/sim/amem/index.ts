export * from './amem.js';
export * from './banks.js';
