/**
 * Numeric command-line options: every one has a documented range (OptionSpec.range),
 * checked the same way by every tool. The option specs are data: the drivers'
 * own numeric options are declared here, the targets' in their registry entries.
 */
import { UsageError } from '@pyxis/diagnostics';
import type { NumericRange, OptionSpec } from './contract.js';

/** Largest integer a count option takes (2^53 - 1: exact in a double). */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;

function fmt(n: number): string {
  if (n === MAX_COUNT) return '2^53-1';
  if (Math.abs(n) >= 1e6 && n % 10 ** Math.floor(Math.log10(Math.abs(n))) === 0) return n.toExponential().replace('e+', 'e');
  return String(n);
}

/** `integer 1..4`, `number 1e6..1e11 Hz`: how help and messages state a range. */
export function rangeText(r: NumericRange): string {
  return `${r.integer === false ? 'number' : 'integer'} ${fmt(r.min)}..${fmt(r.max)}${r.unit ? ` ${r.unit}` : ''}`;
}

/** The long flag of an option spec (`--clock-hz`). */
export function flagName(spec: OptionSpec): string {
  return /--[a-z0-9-]+/i.exec(spec.flags)?.[0] ?? spec.flags;
}

/** Parses a numeric option value; outside its range (or not a number) is a usage error naming the range. */
export function parseRanged(flag: string, value: unknown, r: NumericRange): number {
  const text = String(value).trim();
  // Number('') and Number(' ') are 0, Number('0x10') is 16: accept decimal and hex literals only.
  const n = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^0[xX][0-9a-fA-F]+$/.test(text) ? Number(text) : NaN;
  const integer = r.integer !== false;
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < r.min || n > r.max)
    throw new UsageError(`${flag} expects ${integer ? 'an' : 'a'} ${rangeText(r)}, got \`${text.length > 40 ? text.slice(0, 39) + '…' : text}\``);
  return n;
}

/** The help line of an option: its description and, for a numeric option, its range. */
export function optionHelp(spec: OptionSpec): string {
  return spec.range ? `${spec.description} (${rangeText(spec.range)})` : spec.description;
}

/** pyxis-sim's own numeric options (every target). */
export const SIM_CLOCK_HZ: OptionSpec = {
  flags: '--clock-hz <hz>',
  description:
    "clock frequency (default: the machine's own). Converts cycles to simulated time; a machine whose bandwidths are given in bytes per second converts them to bytes per cycle with it, so its cycle counts change too (docs/simulator.md)",
  range: { min: 1e6, max: 1e11, integer: false, unit: 'Hz' },
};
export const SIM_THREADS: OptionSpec = {
  flags: '--threads <n>',
  description:
    'threads for a run of several partitions (the chips of a system; the clusters of a chip when its image uses no path between them): default one per partition, at most the host\'s free cores (cores minus the load average); a run of one partition (a one-cluster chip, or clusters the image couples) stays on the single-thread path and the stats\' parallel.note says why. Results are identical for any value (docs/simulator.md "Parallel runs")',
  range: { min: 1, max: 256, unit: 'threads' },
};
export const SIM_MAX_CYCLES: OptionSpec = {
  flags: '--max-cycles <n>',
  description: 'stop (exit 1, with the wait graph) after this many cycles',
  range: { min: 1, max: MAX_COUNT, unit: 'cycles' },
};
