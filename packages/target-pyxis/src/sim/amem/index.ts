export * from './amem.js';
