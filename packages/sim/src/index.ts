export * from './kernel/index.js';
