/**
 * The names of the built-in targets, in registration order, for the launchers' `--version` fast path (it must not
 * load the registry: issue 15). register.ts checks at load time that BUILTIN_TARGETS has exactly these names, and
 * packages/targets/test/version.test.ts too, so the two cannot drift apart.
 */
export const BUILTIN_TARGET_NAMES: readonly string[] = ['pyxis', 'systolic', 'xnu', 'neuroncore'];
