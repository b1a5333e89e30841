/** @pyxis/ld: the target-neutral linker front end — the link-script language (docs/linker.md). */
export * from './script.js';
