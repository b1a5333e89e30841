import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { runTool, runAs, runLd, runSim } from '@pyxis/cli';

/** Runs a tool in-process, capturing stdout/stderr. */
async function capture(run: (argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void }) => Promise<number>, argv: string[]) {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

const tools = [
  ['pyxis-as', runAs],
  ['pyxis-ld', runLd],
  ['pyxis-sim', runSim],
] as const;

describe('CLI conventions shared by the three tools', () => {
  for (const [name, run] of tools) {
    it(`${name} --help exits 0 and names the tool and the shared options`, async () => {
      const r = await capture(run, ['--help']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: ${name}`);
      for (const opt of ['--log-level', '--log-format', '--diagnostics-format', '--version']) expect(r.out).toContain(opt);
    });
    it(`${name} --version prints the version`, async () => {
      const r = await capture(run, ['--version']);
      expect(r.code).toBe(0);
      expect(r.out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    });
    it(`${name} rejects an unknown option with exit 2 and a usage hint`, async () => {
      const r = await capture(run, ['--definitely-not-an-option']);
      expect(r.code).toBe(2);
      expect(r.err).toContain("unknown option '--definitely-not-an-option'");
      expect(r.err).toContain('--help');
    });
    it(`${name} inspect of a missing file is an input error (exit 1), not a crash`, async () => {
      const r = await capture(run, ['inspect', '/nonexistent/file.pimg']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('/nonexistent/file.pimg');
      expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
    });
  }
});

describe('runTool error mapping', () => {
  const tool = (action: () => void) => (argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void }) =>
    runTool('t', 'test tool', (p) => void p.command('go').action(action), argv, io);

  it('DiagnosticError -> exit 1 with rendered diagnostics and no stack', async () => {
    const r = await capture(
      tool(() => {
        throw new DiagnosticError({ severity: 'error', code: 'XX0001', message: 'bad thing', span: { file: 'a.bin', offset: 16 } });
      }),
      ['go'],
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain('a.bin: offset 0x0000010 (16): error[XX0001]: bad thing');
  });

  it('--diagnostics-format json prints one JSON object per diagnostic', async () => {
    const r = await capture(
      tool(() => {
        throw new DiagnosticError([
          { severity: 'error', code: 'XX0001', message: 'one', span: { file: 'f', line: 1, column: 2 } },
          { severity: 'warning', code: 'XX0002', message: 'two' },
        ]);
      }),
      ['--diagnostics-format', 'json', 'go'],
    );
    expect(r.code).toBe(1);
    const lines = r.err.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { severity: 'error', code: 'XX0001', message: 'one', span: { file: 'f', line: 1, column: 2 } },
      { severity: 'warning', code: 'XX0002', message: 'two' },
    ]);
  });

  it('an unexpected exception is an internal error (exit 3) that says how to get details', async () => {
    const r = await capture(
      tool(() => {
        throw new TypeError('oops');
      }),
      ['go'],
    );
    expect(r.code).toBe(3);
    expect(r.err).toContain('internal error: oops');
    expect(r.err).toContain('--log-level debug');
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('with --log-level debug the internal error includes the stack', async () => {
    const r = await capture(
      tool(() => {
        throw new TypeError('oops');
      }),
      ['--log-level', 'debug', 'go'],
    );
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/\n\s+at /);
  });
});
