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
import { UsageError, nearest } from '@pyxis/diagnostics';
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
  /**
   * Loads the target. Given a tool, the entry may return a Target with only
   * the parts that tool runs (and load only their code: start-up time);
   * without one, the whole Target.
   */
  load(tool?: ToolKind): Promise<Target>;
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
  // Replacing keeps the entry's place in the order (the first registered stays the default).
  forgetLoaded(t.name);
  if ('load' in t) {
    entries.set(t.name, t);
    return;
  }
  const p = Promise.resolve(t);
  entries.set(t.name, { name: t.name, title: t.title, sourceExtensions: t.assembler?.sourceExtensions ?? [], options: targetOptions(t), load: () => p });
  loaded.set(t.name, p);
}

/** Removes a target (tests). */
export function unregisterTarget(name: string): void {
  entries.delete(name);
  forgetLoaded(name);
}

/** Drops what was loaded of a target (whole, and per tool). */
function forgetLoaded(name: string): void {
  for (const k of [...loaded.keys()]) if (k === name || k.startsWith(`${name}\u0000`)) loaded.delete(k);
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

/**
 * Loads a registered target, or with `tool` at least the parts that tool
 * runs; an unknown name is a usage error listing the known ones.
 */
export function loadTarget(name: string, tool?: ToolKind): Promise<Target> {
  const e = entries.get(name);
  if (!e) {
    const known = [...entries.keys()];
    const near = nearest(name, known);
    throw new UsageError(`unknown target \`${name}\`${known.length ? ` (known: ${known.join(', ')})` : ' (no target is registered)'}`, near ? [`did you mean \`${near}\`?`] : []);
  }
  // A whole target (registered as an object, or loaded without a tool before) serves every tool.
  const key = tool === undefined ? name : `${name}\u0000${tool}`;
  let p = loaded.get(name) ?? loaded.get(key);
  if (!p) {
    p = e.load(tool);
    loaded.set(key, p);
  }
  return p;
}

/** A target that lacks the part a tool needs: a usage error naming both. */
export function missingPart(t: Target, part: string): UsageError {
  return new UsageError(`target \`${t.name}\` (${t.title}) has no ${part}`);
}
