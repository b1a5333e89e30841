/**
 * @pyxis/targets: the targets the shipped tools know, registered in order
 * (the first is the default). This is the only package that names them; the
 * `bin/` launchers import it before the drivers. Each entry loads its target
 * package on first use, so a tool pays only for the target it runs.
 */
import { registerTarget, targetEntries } from '@pyxis/target';
import { pyxisEntry } from '@pyxis/target-pyxis/entry';
import { systolicEntry } from '@pyxis/target-systolic/entry';
import { xnuEntry } from '@pyxis/target-xnu/entry';
import { neuroncoreEntry } from '@pyxis/target-neuroncore/entry';

export const BUILTIN_TARGETS = [pyxisEntry, systolicEntry, xnuEntry, neuroncoreEntry];

/** Registers the built-in targets (idempotent). */
export function registerBuiltinTargets(): void {
  const known = new Set(targetEntries().map((e) => e.name));
  for (const e of BUILTIN_TARGETS) if (!known.has(e.name)) registerTarget(e);
}

registerBuiltinTargets();

export * from '@pyxis/cli';
