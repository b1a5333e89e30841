/** @pyxis/target: the `Target` contract every machine implements, and the registry the tools look targets up in. */
export * from './contract.js';
export * from './registry.js';
export * from './options.js';
export * from './params.js';
