export * from './table.js';
export * from './compile.js';
export * from './codec.js';
export * from './grammars.js';
export * from './markdown.js';
