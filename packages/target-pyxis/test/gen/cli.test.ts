/** scripts/pyxis-gen.mjs's entry (genMain): usage, bad parameters, files written, --run (docs/generators.md exit codes). */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gen as call, withTempDir } from './cli.harness.js';

describe('pyxis-gen command line', () => {
  it('usage: no kind, unknown kind, unknown option, a non-number, missing --out -> exit 2 with the usage', () => {
    expect(call([]).code).toBe(2);
    expect(call(['--help']).code).toBe(0);
    expect(call(['conv5x5', '--out', '/tmp/x']).err).toMatch(/^pyxis-gen: error: unknown kernel kind `conv5x5`\n  = help: did you mean `conv3x3`\?/);
    expect(call(['gemm', '--bogus', '--out', '/tmp/x']).code).toBe(2);
    const nan = call(['gemm', '--m', 'abc', '--out', '/tmp/x']);
    expect(nan.code).toBe(2);
    expect(nan.err).toMatch(/GEN0001\]: m: must be a decimal integer/);
    expect(call(['gemm', '--m', '128']).err).toMatch(/--out DIR is required/);
  });

  it('a parameter the hardware cannot run -> exit 1, the parameter and the limit named, no files written', () => {
    withTempDir('cli', (tmp) => {
      const dir = join(tmp, 'out');
      const r = call(['gemm', '--m', '128', '--k', '202', '--n', '128', '--out', dir]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/GEN0003\]: k: must be a multiple of 8 \(got 202\): seq §1.2 rule 3/);
      expect(existsSync(dir)).toBe(false);
      expect(call(['gemm', '--uies', '13', '--out', dir]).err).toMatch(/GEN0004\]: uies: must be 1..12 UIEs per cluster/);
      expect(call(['transformer', '--heads', '3', '--out', dir]).err).toMatch(/GEN0003\]: heads/);
    });
  });

  it('an output directory that cannot be made -> exit 1 naming it, nothing written, no hang (a path under /proc)', () => {
    withTempDir('cli', (tmp) => {
      const file = join(tmp, 'file');
      writeFileSync(file, 'x');
      for (const out of [file, join(file, 'sub'), '/proc/pyxis-gen-no-such-dir']) {
        const r = call(['gemm', '--out', out]);
        expect(r.code, out).toBe(1);
        expect(r.err).toMatch(/^error\[IO0002\]: cannot write `.*`: .*\(nothing written\)$/m);
        expect(r.out).toBe('');
      }
      expect(readFileSync(file, 'utf8')).toBe('x');
    });
  });

  it('writes .pasm, .ld, inputs, LUTs and .json; --run simulates and checks against float64 (exit 0)', () => {
    withTempDir('cli', (dir) => {
      const r = call(['gemm', '--m', '128', '--k', '128', '--n', '128', '--epilogue', 'gelu', '--out', dir, '--run']);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      for (const f of ['gemm.pasm', 'gemm.ld', 'gemm_a.npy', 'gemm_b.npy', 'gemm_gelu_lut.npy', 'gemm.json']) expect(existsSync(join(dir, f)), f).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, 'gemm.json'), 'utf8')).flops).toBe(2 * 128 ** 3);
      expect(r.out).toMatch(/compute: [\d.]+ TFLOPS of 2092 peak/);
      expect(r.out).toMatch(/HBM: [\d.]+ MB moved, \d+ GB\/s of 4915/);
      expect(r.out).toMatch(/error vs float64: max [\d.e-]+ \(bound 0.06.*: ok/);
    });
  });
});
