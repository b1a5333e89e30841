/**
 * Target selection and target-specific options for the drivers. Every
 * registered target's options are declared on the command (as data from the
 * registry, so no target is loaded to print `--help`); after parsing, the
 * target is chosen (`--target`, else what the input says, else the default)
 * and an option that belongs only to other targets is a usage error.
 */
import { Option, type Command } from 'commander';
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { peekContainerTarget, peekContainerTargetFile } from '@pyxis/container';
import { defaultTargetName, findTargetEntry, flagName, loadTarget, optionHelp, parseRanged, targetEntries, targetForSourceFile, type OptionSpec, type OptionValues, type Target, type ToolKind } from '@pyxis/target';

/** `--target <name>`, shared by every tool. */
export function addTargetOption(cmd: Command): Command {
  const names = targetEntries().map((e) => e.name);
  return cmd.option('--target <name>', `target machine${names.length ? ` (${names.join(', ')})` : ''} (default: what the input file says, else ${defaultTargetName() ?? 'the first registered'})`);
}

function optionKey(flags: string): string {
  const long = /--([a-z0-9-]+)/i.exec(flags)?.[1] ?? flags;
  return long.replace(/^no-/, '').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

/** Declares every registered target's options for `tool` on `cmd` (each flag once; the help names the targets). */
export function addTargetOptions(cmd: Command, tool: ToolKind): Command {
  const byFlags = new Map<string, { spec: OptionSpec; targets: string[] }>();
  for (const e of targetEntries())
    for (const spec of e.options[tool] ?? []) {
      const hit = byFlags.get(spec.flags);
      if (hit) hit.targets.push(e.name);
      else byFlags.set(spec.flags, { spec, targets: [e.name] });
    }
  const multi = targetEntries().length > 1;
  for (const { spec, targets } of byFlags.values()) cmd.addOption(specOption(spec, multi ? targets : []));
  return cmd;
}

/**
 * A commander option from an option spec: choices, repeatable values, and for a numeric option its range
 * in the help and checked while parsing (a usage error, exit 2, before any file is read).
 */
export function specOption(spec: OptionSpec, targets: readonly string[] = []): Option {
  const help = optionHelp(spec);
  const o = new Option(spec.flags, targets.length ? `${help} [${targets.join(', ')}]` : help);
  if (spec.choices) o.choices(spec.choices);
  if (spec.repeatable) o.argParser(collect);
  const range = spec.range;
  if (range) o.argParser((v: string) => parseRanged(flagName(spec), v, range));
  return o;
}

/** Picks the target: `--target`, else the first input that says, else the default. */
export function chooseTargetName(explicit: string | undefined, inputs: readonly string[], readHeader: (file: string) => string | undefined): string {
  if (explicit !== undefined) {
    if (!findTargetEntry(explicit)) loadTarget(explicit); // throws the usage error listing known targets
    return explicit;
  }
  for (const f of inputs) {
    const byExt = targetForSourceFile(f);
    if (byExt) return byExt;
    const byHeader = readHeader(f);
    // A container naming no known target is a corrupted or foreign input (exit 1 at the header's target field,
    // byte 24), not a usage error: the user typed no target name.
    if (byHeader !== undefined && !findTargetEntry(byHeader))
      throw new DiagnosticError({
        severity: 'error',
        code: 'CLI0002',
        message: `${f} names target \`${byHeader}\`, which is not a known target (known: ${targetEntries().map((e) => e.name).join(', ')}): a corrupted or foreign container`,
        span: { file: f, offset: 24 },
      });
    if (byHeader !== undefined) return byHeader;
  }
  const d = defaultTargetName();
  if (!d) throw new UsageError('no target is registered');
  return d;
}

/** The container `target` field of a file that starts like a container (cheap: reads the header only). */
export function containerTargetOf(bytes: Uint8Array): string | undefined {
  return peekContainerTarget(bytes);
}

/** The target a file's container header names; undefined when it is unreadable (the real read reports that) or not a container. */
export function headerTarget(file: string): string | undefined {
  return peekContainerTargetFile(file);
}

/**
 * Loads the chosen target and returns the values of its own options. Options
 * of other targets that the user gave are a usage error.
 */
export async function resolveTarget(name: string, tool: ToolKind, cmd: Command): Promise<{ target: Target; options: OptionValues }> {
  const target = await loadTarget(name, tool);
  const entry = findTargetEntry(name)!;
  const mine = new Set((entry.options[tool] ?? []).map((s) => optionKey(s.flags)));
  const all = cmd.opts<Record<string, unknown>>();
  const options: OptionValues = {};
  for (const e of targetEntries())
    for (const spec of e.options[tool] ?? []) {
      const key = optionKey(spec.flags);
      if (all[key] === undefined) continue;
      if (!mine.has(key)) {
        if (cmd.getOptionValueSource(key) === 'cli') {
          const flag = /--[a-z0-9-]+/i.exec(spec.flags)?.[0] ?? spec.flags;
          const owners = targetEntries().filter((x) => (x.options[tool] ?? []).some((o) => optionKey(o.flags) === key)).map((x) => x.name);
          const own = (entry.options[tool] ?? []).map((o) => /--[a-z0-9-]+/i.exec(o.flags)?.[0] ?? o.flags);
          throw new UsageError(`${flag} is not an option of target ${name} (it is one of ${owners.join(', ')})${own.length ? `; ${name}'s own options: ${own.join(', ')}` : ''}`);
        }
        continue;
      }
      options[key] = all[key];
    }
  return { target, options };
}
