/** Option values of the Pyxis back ends, checked here so every back end reports them alike (usage errors). */
import { UsageError } from '@pyxis/diagnostics';
import type { OptionValues } from '@pyxis/target';

export function intOption(o: OptionValues, key: string, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} expects an integer${max < Number.MAX_SAFE_INTEGER ? ` in ${min}..${max}` : ` >= ${min}`}, got \`${String(v)}\``);
  return n;
}

export function strings(o: OptionValues, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
}
