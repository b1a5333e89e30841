import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { runTool, runAs, runLd, runSim } from '@pyxis/targets';

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
      expect(r.out.trim()).toMatch(new RegExp(`^${name} \\d+\\.\\d+\\.\\d+ \\(targets: pyxis, systolic, xnu, neuroncore\\)$`));
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

describe('file-system errors: exit 1, one diagnostic per bad path, nothing written', () => {
  const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
  const copyPasm = join(samples, 'copy.pasm');
  const copyLd = join(samples, 'copy.ld');

  it('pyxis-as: a listing in a missing directory writes no object either', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-cli-'));
    const r = await capture(runAs, [copyPasm, '-o', join(dir, 'copy.pobj'), '--listing', join(dir, 'nope', 'copy.lst')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`error[IO0002]: cannot write \`${join(dir, 'nope', 'copy.lst')}\`: no such directory`);
    expect(r.err).not.toContain('.tmp');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('pyxis-ld: every bad destination is reported (exit 1) and no image is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-cli-'));
    const obj = join(dir, 'copy.pobj');
    expect((await capture(runAs, [copyPasm, '-o', obj])).code).toBe(0);
    const r = await capture(runLd, [copyLd, obj, '-o', join(dir, 'copy.pimg'), '--map', join(dir, 'nope', 'copy.map'), '--map-json', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`cannot write \`${join(dir, 'nope', 'copy.map')}\`: no such directory`);
    expect(r.err).toContain(`cannot write \`${dir}\`: it is a directory`);
    expect(readdirSync(dir)).toEqual(['copy.pobj']);
    // and the image is not a text output
    expect((await capture(runLd, [copyLd, obj, '-o', '-'])).code).toBe(2);
  });

  it('a directory given as an input is IO0001, not an internal error', async () => {
    for (const [, run] of tools) {
      const r = await capture(run, ['inspect', samples]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`error[IO0001]: cannot read \`${samples}\`: it is a directory`);
    }
    const r = await capture(runAs, [samples]);
    expect(r.code).toBe(1);
  });

  it('pyxis-as disassemble of a linked image says so (AS0500) instead of decoding garbage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-cli-'));
    const obj = join(dir, 'copy.pobj');
    const img = join(dir, 'copy.pimg');
    expect((await capture(runAs, [copyPasm, '-o', obj])).code).toBe(0);
    expect((await capture(runLd, [copyLd, obj, '-o', img])).code).toBe(0);
    const r = await capture(runAs, ['disassemble', img]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error[AS0500]');
    expect(r.err).toContain('not a .pobj object');
  });
});

describe('help', () => {
  for (const [name, run] of tools) {
    it(`${name} help [command] works like --help`, async () => {
      const r = await capture(run, ['help', 'inspect']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: ${name} inspect [options] <file>`);
      const top = await capture(run, ['help']);
      expect(top.code).toBe(0);
      expect(top.out).toContain(`Usage: ${name}`);
    });
  }
});

describe('stdout carries at most one output', () => {
  const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
  it('pyxis-as --emit ir with --listing - is a usage error; pyxis-ld --map - with --map-json - too', async () => {
    const a = await capture(runAs, [join(samples, 'copy.pasm'), '--emit', 'ir', '--listing', '-']);
    expect(a.code).toBe(2);
    expect(a.out).toBe('');
    expect(a.err).toContain('both print on stdout');
    const l = await capture(runLd, [join(samples, 'copy.ld'), '--map', '-', '--map-json', '-', '-o', join(mkdtempSync(join(tmpdir(), 'pyxis-cli-')), 'x.pimg')]);
    expect(l.code).toBe(2);
    expect(l.err).toContain('both print on stdout');
  });
});

describe('inspect dispatch and missing commands', () => {
  it('a file named .safetensors / .npy without the magic gets the tensor reader error, not "not a Pyxis container"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-cli-'));
    const st = join(dir, 'w.safetensors');
    writeFileSync(st, '{"a":1}\n');
    const r = await capture(runLd, ['inspect', st]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error\[TF\d{4}\]/);
    const np = join(dir, 'x.npy');
    writeFileSync(np, 'not numpy at all');
    const n = await capture(runLd, ['inspect', np]);
    expect(n.code).toBe(1);
    expect(n.err).toContain('error[TF0001]');
  });

  it('pyxis-sim without a command prints usage and exits 2; `pyxis-sim help` exits 0', async () => {
    const r = await capture(runSim, []);
    expect(r.code).toBe(2);
    expect(r.out + r.err).toContain('Usage: pyxis-sim');
    expect((await capture(runSim, ['help'])).code).toBe(0);
  });
});

describe('usage errors with --diagnostics-format json', () => {
  for (const [name, run] of tools) {
    it(`${name}: an unknown option is one JSON line (code CLI0001), exit 2`, async () => {
      const r = await capture(run, ['--diagnostics-format', 'json', '--definitely-not-an-option']);
      expect(r.code).toBe(2);
      const lines = r.err.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines).toEqual([{ severity: 'error', code: 'CLI0001', message: "unknown option '--definitely-not-an-option'" }]);
    });
  }
  it('UsageErrors thrown by an action are JSON too', async () => {
    const r = await capture(runAs, ['--diagnostics-format=json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.err.trim())).toEqual({ severity: 'error', code: 'CLI0001', message: 'no input files' });
  });
});
