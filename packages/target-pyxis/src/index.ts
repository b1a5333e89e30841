/**
 * @pyxis/target-pyxis: the Pyxis chip as a toolchain target. The assembler,
 * linker and simulator back ends are sub-paths (`@pyxis/target-pyxis/asm`,
 * `/ld`, `/sim`); this entry exports the registry entry and the `Target`.
 */
export * from './entry.js';
export { pyxisTarget } from './target.js';
export { readPatchBlob, patchRegion } from './inspect.js';
export { PyxisSectionFlags, pyxisSectionFlagNames } from './flags.js';
