/**
 * The target registry. A target is registered either eagerly (a `Target`
 * object: tests, small targets) or lazily through a `TargetEntry` whose
 * `load()` imports the target's package only when a tool needs it: start-up
 * time counts, since CI scripts run the tools thousands of times. An entry
 * carries what a driver needs before loading: the name, the source
 * extensions and the command-line options (so `--help` lists them).
 *
 * Which target a tool uses: `--target NAME`, else what the input says (a
 * container's `target` field, a source file's extension), else the default
 * (the first target registered).
 */
import { UsageError } from '@pyxis/diagnostics';
import type { OptionSpec, Target } from './contract.js';

/** The tools, by the sub-system of the contract they drive. */
export type ToolKind = 'as' | 'ld' | 'sim' | 'inspect';

export interface TargetEntry {
  name: string;
  title: string;
  /**
   * Input extensions this target claims (`.pasm` sources; a systolic `.tmodel`):
   * an input file with one of them selects this target when no `--target` is given.
   */
  sourceExtensions: readonly string[];
  /** Target-specific options per tool. */
  options: Partial<Record<ToolKind, readonly OptionSpec[]>>;
  load(): Promise<Target>;
}

const entries = new Map<string, TargetEntry>();
const loaded = new Map<string, Promise<Target>>();

/** The options a Target object's back ends declare, per tool. */
export function targetOptions(t: Target): Partial<Record<ToolKind, readonly OptionSpec[]>> {
  const o: Partial<Record<ToolKind, readonly OptionSpec[]>> = {};
  if (t.assembler?.options) o.as = t.assembler.options;
  if (t.linker?.options) o.ld = t.linker.options;
  if (t.machine?.options) o.sim = t.machine.options;
  if (t.inspect?.options) o.inspect = t.inspect.options;
  return o;
}

/** Registers a target (replacing one of the same name). */
export function registerTarget(t: Target | TargetEntry): void {
  if ('load' in t) {
    entries.set(t.name, t);
    loaded.delete(t.name);
    return;
  }
  const p = Promise.resolve(t);
  entries.set(t.name, { name: t.name, title: t.title, sourceExtensions: t.assembler?.sourceExtensions ?? [], options: targetOptions(t), load: () => p });
  loaded.set(t.name, p);
}

/** Removes a target (tests). */
export function unregisterTarget(name: string): void {
  entries.delete(name);
  loaded.delete(name);
}

/** Every registered entry, in registration order (the first is the default). */
export function targetEntries(): TargetEntry[] {
  return [...entries.values()];
}

export function findTargetEntry(name: string): TargetEntry | undefined {
  return entries.get(name);
}

export function defaultTargetName(): string | undefined {
  return entries.keys().next().value;
}

/** The target of a source file by its extension, if one target claims it. */
export function targetForSourceFile(file: string): string | undefined {
  const lower = file.toLowerCase();
  for (const e of entries.values()) if (e.sourceExtensions.some((x) => lower.endsWith(x.toLowerCase()))) return e.name;
  return undefined;
}

/** Loads a registered target; an unknown name is a usage error listing the known ones. */
export function loadTarget(name: string): Promise<Target> {
  const e = entries.get(name);
  if (!e) {
    const known = [...entries.keys()];
    throw new UsageError(`unknown target \`${name}\`${known.length ? ` (known: ${known.join(', ')})` : ' (no target is registered)'}`);
  }
  let p = loaded.get(name);
  if (!p) {
    p = e.load();
    loaded.set(name, p);
  }
  return p;
}

/** A target that lacks the part a tool needs: a usage error naming both. */
export function missingPart(t: Target, part: string): UsageError {
  return new UsageError(`target \`${t.name}\` (${t.title}) has no ${part}`);
}
