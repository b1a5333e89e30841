export * from './diagnostic.js';
export * from './bag.js';
export * from './sources.js';
export * from './render.js';
export * from './suggest.js';
export * from './binaryText.js';
