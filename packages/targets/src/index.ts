/**
 * @pyxis/targets: the targets the shipped tools know (./register.ts) and the
 * drivers. This is the only package that names them; the `bin/` launchers
 * load it (or its bundle, scripts/bundle.mjs) before the drivers run.
 */
export { BUILTIN_TARGETS, registerBuiltinTargets } from './register.js';
export { BUILTIN_TARGET_NAMES } from './names.js';

export * from '@pyxis/cli';
