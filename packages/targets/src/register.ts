/**
 * The built-in targets, registered in order (the first is the default) when
 * this module is loaded. Each entry loads its target package on first use, so
 * a tool pays only for the target it runs. Separate from index.ts so the CLI
 * bundle (scripts/bundle.mjs) can take each tool's driver alone.
 */
import { registerTarget, targetEntries } from '@pyxis/target';
import { BUILTIN_TARGET_NAMES } from './names.js';
import { pyxisEntry } from '@pyxis/target-pyxis/entry';
import { systolicEntry } from '@pyxis/target-systolic/entry';
import { xnuEntry } from '@pyxis/target-xnu/entry';
import { neuroncoreEntry } from '@pyxis/target-neuroncore/entry';

export const BUILTIN_TARGETS = [pyxisEntry, systolicEntry, xnuEntry, neuroncoreEntry];
if (BUILTIN_TARGETS.map((e) => e.name).join() !== BUILTIN_TARGET_NAMES.join())
  throw new Error(`BUILTIN_TARGET_NAMES (names.ts) ${BUILTIN_TARGET_NAMES.join(', ')} differ from BUILTIN_TARGETS ${BUILTIN_TARGETS.map((e) => e.name).join(', ')}`);

/** Registers the built-in targets (idempotent). */
export function registerBuiltinTargets(): void {
  const known = new Set(targetEntries().map((e) => e.name));
  for (const e of BUILTIN_TARGETS) if (!known.has(e.name)) registerTarget(e);
}

registerBuiltinTargets();
