/**
 * Issue 15: every numeric option of every tool has a documented range (OptionSpec.range), shown in --help and
 * enforced before any file is read: out of range is a usage error (exit 2) naming the range.
 */
import { describe, expect, test } from 'vitest';
import { parseRanged, rangeText, SIM_CLOCK_HZ, SIM_MAX_CYCLES, SIM_THREADS, targetEntries, type OptionSpec } from '@pyxis/target';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call, type Run } from './cli-call.js';

const tools: Record<string, { run: Run; pre: string[] }> = {
  as: { run: runAs, pre: [] },
  ld: { run: runLd, pre: [] },
  sim: { run: runSim as Run, pre: ['run'] },
  inspect: { run: runSim as Run, pre: ['inspect'] },
};

/** Every option spec that takes a value, per tool: the drivers' own numeric ones and every target's. */
function specs(): Array<{ tool: string; spec: OptionSpec }> {
  const out: Array<{ tool: string; spec: OptionSpec }> = [
    { tool: 'sim', spec: SIM_CLOCK_HZ },
    { tool: 'sim', spec: SIM_MAX_CYCLES },
    { tool: 'sim', spec: SIM_THREADS },
  ];
  for (const e of targetEntries()) for (const [tool, list] of Object.entries(e.options)) for (const spec of list ?? []) out.push({ tool, spec });
  return out;
}
const flag = (s: OptionSpec) => /--[a-z0-9-]+/.exec(s.flags)![0];

describe('numeric option ranges', () => {
  test('an option whose value is a number (its placeholder says <n> or <hz>) declares a range', () => {
    const numeric = specs().filter(({ spec }) => /<(n|hz|cycles|count)>/.test(spec.flags));
    expect(numeric.length).toBeGreaterThanOrEqual(6);
    for (const { spec } of numeric) expect(spec.range, spec.flags).toBeDefined();
  });

  test('--help states every range', async () => {
    for (const { tool, spec } of specs()) {
      if (!spec.range) continue;
      const t = tools[tool]!;
      const r = await call(t.run, [...t.pre, '--help']);
      expect(r.code).toBe(0);
      expect(r.out.replace(/\s+/g, ' '), spec.flags).toContain(`(${rangeText(spec.range)})`);
    }
  });

  test('below, above, non-numbers and the extremes of the range: exit 2 before any file is read', async () => {
    for (const { tool, spec } of specs()) {
      const range = spec.range;
      if (!range) continue;
      const t = tools[tool]!;
      const below = range.min - (range.integer === false ? range.min / 2 : 1);
      const above = range.integer === false ? range.max * 10 : range.max + 1;
      for (const v of [String(below), String(above), 'abc', '', '1e300', 'NaN', 'Infinity', ...(range.integer === false ? [] : ['1.5'])]) {
        // no-such-file inputs: a range error must come before the input is even looked at
        const r = await call(t.run, [...t.pre, 'missing-input.pimg', 'missing.ld', `${flag(spec)}=${v}`]);
        expect(r.code, `${flag(spec)}=${v}: ${r.err}`).toBe(2);
        expect(r.err).toContain(`${flag(spec)} expects`);
        expect(r.err).toContain(rangeText(range));
      }
    }
  });

  test('parseRanged', () => {
    const r = { min: 1, max: 4 };
    expect(parseRanged('--x', '4', r)).toBe(4);
    expect(parseRanged('--x', '0x3', r)).toBe(3);
    expect(() => parseRanged('--x', '5', r)).toThrow('--x expects an integer 1..4, got `5`');
    expect(() => parseRanged('--x', ' ', r)).toThrow(/expects an integer/);
    expect(parseRanged('--hz', '1.33e9', SIM_CLOCK_HZ.range!)).toBe(1.33e9);
    expect(() => parseRanged('--hz', '1e300', SIM_CLOCK_HZ.range!)).toThrow('--hz expects a number 1e6..1e11 Hz, got `1e300`');
  });

  test('--clock-hz 1e300 is refused instead of running forever', async () => {
    const r = await call(runSim as Run, ['run', 'x.pimg', '--clock-hz', '1e300']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--clock-hz expects a number 1e6\.\.1e11 Hz, got `1e300`/);
  });
});
