/** The Pyxis linker back end (docs/linker.md, docs/image-layout.md). */
export * from '@pyxis/ld';
export * from './barriers.js';
export * from './image.js';
export * from './tensors.js';
export * from './link.js';
export * from './map.js';
export * from './weights/index.js';
