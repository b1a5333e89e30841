/**
 * Man pages and shell completion (scripts/gen-man.mjs, from the tools' --help): every option of every command is in
 * the man page and the completions, and bash completes sub-commands, options and the values of choice options.
 * (`npm run docs:check` checks that the files are regenerated; this checks what they contain and that they work.)
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const TOOLS = { 'pyxis-as': runAs, 'pyxis-ld': runLd, 'pyxis-sim': runSim } as const;
const longFlags = (help: string) => [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z0-9][\w-]*)/gm)].map((m) => m[1]!);

describe('man pages and completions', () => {
  for (const [tool, run] of Object.entries(TOOLS))
    it(`${tool}: every option of every command is documented and completed`, async () => {
      const man = readFileSync(`${root}docs/man/${tool}.1`, 'utf8');
      const bash = readFileSync(`${root}completions/pyxis.bash`, 'utf8');
      const zsh = readFileSync(`${root}completions/_pyxis`, 'utf8');
      const top = (await call(run, ['--help'])).out;
      const block: string[] = [];
      for (const l of top.slice(top.indexOf('Commands:\n') + 10).split('\n')) {
        if (!l.startsWith(' ')) break;
        block.push(l);
      }
      const subs = block.map((l) => /^ {2}([a-z][\w-]*)/.exec(l)?.[1]).filter((s): s is string => !!s && s !== 'help');
      expect(subs.length).toBeGreaterThan(0);
      for (const s of subs) {
        const h = (await call(run, ['help', s])).out;
        expect(man).toContain(`.SH COMMAND: ${s.toUpperCase()}`);
        for (const f of longFlags(h)) {
          expect(man, `${tool} ${s} ${f}`).toContain(f.replace(/-/g, '-'));
          expect(bash, `${tool} ${s} ${f}`).toContain(f);
          expect(zsh, `${tool} ${s} ${f}`).toContain(f);
        }
      }
    });

  it('bash completes sub-commands, options and choice values', () => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `source ${root}completions/pyxis.bash
         COMP_WORDS=(pyxis-sim re); COMP_CWORD=1; _pyxis_sim; echo "1:\${COMPREPLY[*]}"
         COMP_WORDS=(pyxis-sim run --vcd-t); COMP_CWORD=2; _pyxis_sim; echo "2:\${COMPREPLY[*]}"
         COMP_WORDS=(pyxis-sim run x --vcd-time-unit ""); COMP_CWORD=4; _pyxis_sim; echo "3:\${COMPREPLY[*]}"
         COMP_WORDS=(pyxis-as --log-level w); COMP_CWORD=2; _pyxis_as; echo "4:\${COMPREPLY[*]}"`,
      ],
      { encoding: 'utf8', cwd: root },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual(['1:report', '2:--vcd-time-unit', '3:ps cycle', '4:warn']);
  });
});
