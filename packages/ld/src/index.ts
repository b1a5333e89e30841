/** @pyxis/ld: the Pyxis linker library (docs/linker.md, docs/image-layout.md). */
export * from './script.js';
export * from './barriers.js';
export * from './image.js';
export * from './tensors.js';
export * from './link.js';
export * from './map.js';
export * from './weights/index.js';
