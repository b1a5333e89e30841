/** @pyxis/ld: the target-neutral linker front end — the link-script language, statement readers, first-fit allocation (docs/linker.md). */
export * from './script.js';
export * from './attributes.js';
export * from './allocate.js';
export * from './mapText.js';
