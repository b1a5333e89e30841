/**
 * pyxis-gen option parsing found by using it as a new user (docs/generators.md "Options"): an empty --out is a usage
 * error (it used to resolve to the current directory and write the kernel there), an option given twice is GEN0070,
 * integers are decimal numerals, --seed is 0..2^32-1. The golden cases (errors-golden.test.ts) hold the messages.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireName } from '../../src/gen/errors.js';
import { gen, withTempDir } from './cli.harness.js';

const call = (args: string[]) =>
  gen(args, () => {
    throw new Error('no LUT expected');
  });

describe('pyxis-gen options', () => {
  it("--out '' (an empty variable in a script) is a usage error and writes nothing in the current directory", () => {
    const name = `audit2_empty_out_${process.pid}`;
    for (const out of ['', '  ']) {
      const r = call(['gemm', '--m', '8', '--k', '8', '--n', '8', '--name', name, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--out DIR is required \(got an empty path\)/);
      expect(r.out).toBe('');
      expect(existsSync(join(process.cwd(), `${name}.pasm`))).toBe(false);
    }
  });

  it('a failure while writing removes the files written and the directory the call made; a name too long for a file is GEN0005', () => {
    withTempDir('opt', (tmp) => {
      const out = join(tmp, 'a', 'b');
      const { code, err } = gen(['gemm', '--epilogue', 'gelu', '--out', out], () => {
        throw new Error('LUT script failed');
      });
      expect(code).toBe(3);
      expect(err).toMatch(/LUT script failed/);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(join(tmp, 'a')), 'the parent the call made').toBe(false);
    });
    expect(requireName('a'.repeat(128))).toBe('a'.repeat(128));
    expect(call(['gemm', '--name', 'a'.repeat(129), '--out', join(tmpdir(), 'pyxis-gen-never-written')])).toMatchObject({ code: 2, err: expect.stringMatching(/GEN0005\]: name: must be at most 128 characters \(got 129\)/) });
  });

  it('an option given twice is GEN0070 (exit 2) for value and flag options; --seed bounds; decimal integers', () => {
    // every call below fails before anything is written: NEVER must not come into existence
    withTempDir('opt', (tmp) => {
      const NEVER = join(tmp, 'never');
      expect(call(['gemm', '--m', '8', '--m', '16', '--out', NEVER])).toMatchObject({ code: 2, err: expect.stringMatching(/error\[GEN0070\]: --m given twice \(`--m 8`, then `--m 16`\); it takes one value/) });
      expect(call(['rows', '--run', '--run', '--out', NEVER]).err).toMatch(/GEN0070\]: --run given twice/);
      expect(call(['gemm', '--out', NEVER, '--out', NEVER + '2']).err).toMatch(/GEN0070\]: --out given twice/);
      expect(call(['gemm', '--seed', '-5', '--out', NEVER])).toMatchObject({ code: 1, err: expect.stringMatching(/GEN0002\]: seed: must be in 0\.\.4294967295 \(got -5/) });
      expect(call(['gemm', '--seed', '4294967296', '--out', NEVER]).code).toBe(1);
      for (const bad of ['0x10', '+16', '8.5', 'Infinity', '1e', '']) expect(call(['gemm', '--m', bad, '--out', NEVER]), bad).toMatchObject({ code: 2, err: expect.stringMatching(/GEN0001\]: m: must be a decimal integer/) });
      // 1e9 is a decimal numeral of an integer: its range check names the limit
      expect(call(['gemm', '--m', '1e9', '--out', NEVER]).err).toMatch(/GEN0002\]: m: must be in 1\.\.2097152/);
      expect(existsSync(NEVER) || existsSync(NEVER + '2')).toBe(false);
    });
  });
});
