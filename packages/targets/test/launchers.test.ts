/**
 * The bin/ launchers (start-up time, issue 15): `--version` alone is answered
 * before anything heavy is loaded, and it says exactly what the driver
 * (commander) says; every other command line reaches the driver. The launchers
 * run the built code (dist/), which CI builds before the tests (`npm ci`).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VERSION, answerVersion, runAs, runLd, runSim } from '@pyxis/targets';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = (tool: string, args: string[]) => spawnSync(process.execPath, [`${root}bin/${tool}`, ...args], { cwd: root, encoding: 'utf8' });

describe('answerVersion (the launchers\' fast path)', () => {
  it('answers exactly `--version` or `-V` alone, nothing else', () => {
    for (const argv of [['--version'], ['-V']]) {
      let out = '';
      expect(answerVersion(argv, (s) => void (out += s))).toBe(true);
      expect(out).toBe(`${VERSION}\n`);
    }
    for (const argv of [[], ['--help'], ['run', '--version'], ['--version', 'x.pasm'], ['-V', '-V'], ['--versions'], ['-v']])
      expect(answerVersion(argv, () => expect.unreachable())).toBe(false);
  });

  it('prints what the driver prints for --version', async () => {
    for (const run of [runAs, runLd, runSim]) {
      let out = '';
      expect(await run(['--version'], { stdout: (s) => void (out += s), stderr: () => undefined })).toBe(0);
      expect(out).toBe(`${VERSION}\n`);
    }
  });
});

describe('bin/ launchers', () => {
  for (const tool of ['pyxis-as', 'pyxis-ld', 'pyxis-sim']) {
    it(`${tool} --version and -V: the version, exit 0`, () => {
      for (const flag of ['--version', '-V']) {
        const r = bin(tool, [flag]);
        expect(r.status).toBe(0);
        expect(r.stdout).toBe(`${VERSION}\n`);
        expect(r.stderr).toBe('');
      }
    });
    it(`${tool} --help and a usage error reach the driver`, () => {
      const h = bin(tool, ['--help']);
      expect(h.status).toBe(0);
      expect(h.stdout).toContain(`Usage: ${tool}`);
      const u = bin(tool, ['--definitely-not-an-option']);
      expect(u.status).toBe(2);
      expect(u.stderr).toContain("unknown option '--definitely-not-an-option'");
    });
  }
});
