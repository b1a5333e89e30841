/**
 * pyxis-gen follows the command-line conventions of pyxis-as/ld/sim (docs/generators.md "Options"; packages/cli
 * tool.ts): --version / --help on stdout with exit 0, usage errors as `pyxis-gen: error:` with a did-you-mean,
 * `--diagnostics-format json` (every stderr line a JSON diagnostic), IO0002 for an output that cannot be written
 * (never Node's own text), devices written in place, a failed --run named by a GEN code (exit 1).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { genMain } from '../../src/gen/index.js';
import { runFailures } from '../../src/gen/cli.js';
import { KINDS, USAGE } from '../../src/gen/kinds.js';
import { gen, runGemmWithChecks, withTempDir, type GenCall } from './cli.harness.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const noLut = () => {
  throw new Error('no LUT expected');
};
/** genMain with the launcher's extras (version text, colour) */
function genWith(args: string[], extra: { version?: string; color?: boolean }): GenCall {
  let out = '';
  let err = '';
  const code = genMain(args, { out: (s) => (out += s + '\n'), err: (s) => (err += s + '\n'), makeLut: noLut, ...extra });
  return { code, out, err };
}

/** Optimal string alignment distance (Levenshtein + adjacent swaps), written here independently of the code under test. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const c = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + c);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

describe('pyxis-gen: the tools conventions', () => {
  it('--version, -V and KIND --version print the version on stdout (exit 0); the launcher answers like pyxis-as', () => {
    for (const args of [['--version'], ['-V'], ['gemm', '--version'], ['--diagnostics-format', 'json', '--version']]) {
      expect(genWith(args, { version: 'pyxis-gen 9.9.9' }), args.join(' ')).toEqual({ code: 0, out: 'pyxis-gen 9.9.9\n', err: '' });
    }
    // the script's fast path: the same version number as the tools, the one target it generates for
    const asVersion = /^pyxis-as (\S+) /.exec(execFileSync(process.execPath, [join(ROOT, 'bin/pyxis-as'), '--version'], { encoding: 'utf8' }))![1];
    for (const flag of ['--version', '-V']) {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/pyxis-gen.mjs'), flag], { encoding: 'utf8' });
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: `pyxis-gen ${asVersion} (targets: pyxis)\n`, stderr: '' });
    }
  });

  it('--help, -h, help and help KIND print the usage on stdout (exit 0); nothing at all is a usage error (exit 2)', () => {
    for (const args of [['--help'], ['-h'], ['help'], ['help', 'gemm'], ['gemm', '--help'], ['rows', '-h']]) {
      expect(gen(args, noLut), args.join(' ')).toEqual({ code: 0, out: USAGE + '\n', err: '' });
    }
    const none = gen([], noLut);
    expect(none.code).toBe(2);
    expect(none.out).toBe('');
    expect(none.err).toMatch(/^pyxis-gen: error: no kernel kind given$/m);
  });

  it('the usage states the conv3x3 --width rules the generator enforces (H a multiple of 8: GEN0003; H x W/8: GEN0092)', () => {
    expect(USAGE).toMatch(/--width W > 128 \(a multiple of 16, stride 1\): .*H a multiple of 8 with H x W\/8 <= 65535/);
    expect(gen(['conv3x3', '--width', '256', '--height', '12', '--out', '/nonexistent-never-written'], noLut)).toMatchObject({ code: 1, err: expect.stringMatching(/error\[GEN0003\]/) });
  });

  it('did-you-mean for a mistyped option of every kind: the nearest option (by an independent edit distance)', () => {
    for (const [kind, spec] of Object.entries(KINDS)) {
      const flags = ['out', 'run', 'json', 'timing-only', 'max-cycles', 'diagnostics-format', 'no-color', 'help', 'version', ...Object.keys(spec.options)].map((o) => `--${o}`);
      for (const flag of flags) {
        const name = flag.slice(2);
        if (name.length < 3) continue; // `--m` has no typo one edit away that is not another option's name
        // swap two adjacent letters in the middle: one edit
        const at = Math.floor(name.length / 2) - 1;
        const typo = `--${name.slice(0, at)}${name[at + 1]}${name[at]}${name.slice(at + 2)}`;
        if (flags.includes(typo)) continue;
        const r = gen([kind, typo, '--out', '/nonexistent-never-written'], noLut);
        expect(r.code, `${kind} ${typo}`).toBe(2);
        expect(r.out).toBe('');
        const best = Math.min(...flags.map((f) => osa(typo, f)));
        const said = /did you mean `(--[\w-]+)`\?/.exec(r.err)?.[1];
        expect(said, `${kind} ${typo}: ${r.err}`).toBeDefined();
        expect(osa(typo, said!), `${kind} ${typo} -> ${said}`).toBe(best);
      }
    }
  });

  it('--diagnostics-format json: every line on stderr is one JSON diagnostic with a code, nothing on stdout', () => {
    withTempDir('conv', (tmp) => {
      const cases: Array<[string[], number, string]> = [
        [['gem'], 2, 'CLI0001'],
        [['gemm', '--mm', '8'], 2, 'CLI0001'],
        [['gemm', '--m', '8', '--m', '16'], 2, 'GEN0070'],
        [['gemm', '--m', '100'], 1, 'GEN0003'],
        [['gemm', '--epilogue', 'gleu'], 2, 'GEN0006'],
        [['gemm', '--out', '/dev/null'], 1, 'IO0002'],
        [['gemm', '--m', '8', '--k', '8', '--n', '8', '--run', '--max-cycles', '100', '--out', join(tmp, 'stop')], 1, 'GEN0081'],
      ];
      for (const [args, code, diag] of cases) {
        for (const fmt of [['--diagnostics-format', 'json'], ['--diagnostics-format=json']]) {
          const all = args.includes('--out') ? [...fmt, ...args] : [...args, '--out', join(tmp, 'never'), ...fmt];
          const r = gen(all, noLut);
          expect(r.code, all.join(' ')).toBe(code);
          if (!args.includes('--run')) expect(r.out).toBe('');
          const lines = r.err.trimEnd().split('\n');
          const ds = lines.map((l) => JSON.parse(l) as { severity: string; code: string; message: string; notes?: string[] });
          expect(ds.map((d) => [d.severity, d.code]), all.join(' ')).toContainEqual(['error', diag]);
          if (diag === 'GEN0006') expect(ds[0]!.notes).toEqual(['help: did you mean `gelu`?']);
        }
      }
      expect(existsSync(join(tmp, 'never'))).toBe(false);
      // --json with --diagnostics-format json: stdout one object, stderr nothing (the text is in the object)
      const ok = gen(['gemm', '--m', '8', '--k', '8', '--n', '8', '--json', '--diagnostics-format', 'json', '--out', join(tmp, 'ok')], noLut);
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.out).schema).toBe('pyxis-gen/1');
      expect(ok.err).toBe('');
    });
  });

  it('colour only when the launcher asks for it, and never with --no-color (before or after the kind)', () => {
    const esc = '\u001b[';
    expect(genWith(['gemm', '--m', '100', '--out', '/nonexistent-never-written'], { color: true }).err).toContain(esc);
    expect(genWith(['gemm', '--m', '100', '--out', '/nonexistent-never-written'], {}).err).not.toContain(esc);
    for (const args of [['--no-color', 'gemm', '--m', '100'], ['gemm', '--m', '100', '--no-color']]) {
      const r = genWith([...args, '--out', '/nonexistent-never-written'], { color: true });
      expect(r.code).toBe(1);
      expect(r.err).toBe('error[GEN0003]: m: must be a multiple of 8 (got 100): seq §1.3 rule 4: a MatMul output has a multiple of 8 data-rows (the 8 virtual grid-rows of an LLC grid-row)\n');
    }
  });

  it('devices: --out /dev/null is IO0002 and /dev/null stays a device; a kernel file linked to /dev/null is written in place', () => {
    const r = gen(['gemm', '--out', '/dev/null'], noLut);
    expect(r).toEqual({ code: 1, out: '', err: 'error[IO0002]: cannot write `/dev/null`: not a directory (nothing written)\n' });
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    withTempDir('conv', (tmp) => {
      const out = join(tmp, 'k');
      mkdirSync(out);
      symlinkSync('/dev/null', join(out, 'gemm.json'));
      const ok = gen(['gemm', '--m', '8', '--k', '8', '--n', '8', '--out', out], noLut);
      expect(ok.code).toBe(0);
      expect(lstatSync(join(out, 'gemm.json')).isSymbolicLink()).toBe(true);
      expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
      expect(readdirSync(out).sort()).toEqual(['gemm.json', 'gemm.ld', 'gemm.pasm', 'gemm_a.npy', 'gemm_b.npy', 'gemm_ref_a.npy', 'gemm_ref_b.npy']);
    });
  });

  it('a write that fails (a file linked to /dev/full: ENOSPC) is IO0002 naming the file, the files written before are removed, the link kept', () => {
    if (!existsSync('/dev/full')) throw new Error('/dev/full is needed by this test (Linux)');
    withTempDir('conv', (tmp) => {
      const out = join(tmp, 'k');
      mkdirSync(out);
      symlinkSync('/dev/full', join(out, 'gemm_a.npy'));
      const r = gen(['gemm', '--m', '8', '--k', '8', '--n', '8', '--out', out], noLut);
      expect(r).toEqual({ code: 1, out: '', err: `error[IO0002]: cannot write \`${join(out, 'gemm_a.npy')}\`: no space left on device (nothing written)\n` });
      expect(readdirSync(out)).toEqual(['gemm_a.npy']);
      expect(lstatSync(join(out, 'gemm_a.npy')).isSymbolicLink()).toBe(true);
    });
  });

  it('a directory under a device cannot be made: IO0002 naming the device', () => {
    const deep = join('/dev/null', 'x', 'y');
    expect(gen(['gemm', '--out', deep], noLut)).toEqual({ code: 1, out: '', err: `error[IO0002]: cannot write \`${deep}\`: \`/dev/null\` is not a directory (nothing written)\n` });
  });

  it('a failed --run is named on stderr with a GEN code (exit 1): stopped GEN0081, above the bound GEN0080', () => {
    withTempDir('conv', (tmp) => {
      const r = gen(['gemm', '--m', '8', '--k', '8', '--n', '8', '--run', '--max-cycles', '100', '--out', tmp], noLut);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^error\[GEN0081\]: the simulation stopped \(the cycle limit 100 reached\) after \d+ trips, before the kernel finished/m);
      expect(r.out).toMatch(/^simulation: max-cycles/m);
    });
    const [above, within] = runGemmWithChecks('conv', [
      { max: 0.1, bound: 1, rms: 0.09, rmsBound: 0.08, what: 'test' },
      { max: 0.1, bound: 1, rms: 0.05, rmsBound: 0.08, what: 'test' },
    ]);
    expect(runFailures(above!.json, true).map((d) => `${d.code}: ${d.message}`)).toEqual(['GEN0080: error vs float64 above its bound: max 1.000e-1 (bound 1; test), RMS relative 9.000e-2 (bound 0.08)']);
    expect(runFailures(within!.json, true)).toEqual([]);
  });
});
