/** Issue 15: every command's --help has examples, exit codes and a pointer to the docs, wrapped to the terminal width. */
import { afterEach, describe, expect, it } from 'vitest';
import { runAs, runLd, runSim } from '@pyxis/targets';

type Run = (argv: string[], io?: { stdout(s: string): void; stderr(s: string): void }) => Promise<number>;
async function help(tool: Run, args: string[]) {
  let out = '';
  const code = await tool([...args, '--help'], { stdout: (s) => void (out += s), stderr: (s) => void (out += s) });
  return { code, out };
}
const saved = process.env['COLUMNS'];
afterEach(() => {
  if (saved === undefined) delete process.env['COLUMNS'];
  else process.env['COLUMNS'] = saved;
});

describe('--help', () => {
  const commands: Array<[string, Run, string[]]> = [
    ['pyxis-as', runAs, []],
    ['pyxis-as inspect', runAs, ['inspect']],
    ['pyxis-ld', runLd, []],
    ['pyxis-sim', runSim as Run, []],
    ['pyxis-sim run', runSim as Run, ['run']],
    ['pyxis-sim inspect', runSim as Run, ['inspect']],
  ];
  for (const width of [80, 120])
    it(`examples, exit codes, docs; no line wider than ${width} columns`, async () => {
      process.env['COLUMNS'] = String(width);
      for (const [name, tool, args] of commands) {
        const r = await help(tool, args);
        expect(r.code, name).toBe(0);
        expect(r.out, name).toMatch(/\nExamples:\n {2}pyxis-/);
        expect(r.out, name).toMatch(/Exit codes: 0 success; 1 bad input .*2 usage error; 3 internal error/s);
        expect(r.out, name).toMatch(/Documentation: docs\/[\w-]+\.md/);
        const wide = r.out.split('\n').filter((l) => l.length > width);
        expect(wide, name).toEqual([]);
      }
    });
});
