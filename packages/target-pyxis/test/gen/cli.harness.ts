/**
 * Shared by the pyxis-gen command-line tests (test/gen/cli*.test.ts): genMain (the code under test) called in-process
 * with stdout / stderr collected, temporary output directories, and the chip §1 constants the figures are recomputed
 * from (never taken from the code under test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { genMain } from '../../src/gen/index.js';
import { writeKernel } from '../../src/gen/cli.js';
import { gemm } from '../../src/gen/gemm.js';
import type { GenKernel } from '../../src/gen/kernel.js';
import { runKernelFiles } from '../../src/gen/runner.js';

const LUT = fileURLToPath(new URL('../../../../scripts/make-vpu-lut.mjs', import.meta.url));

/** chip §1: the clock, 1.33 GHz. */
export const CLOCK = 1.33e9;
/** chip §1: one UIE's FP8 peak in TFLOPS, 2048 LLCs x 8 MACs x 2 FLOPs x 1.33 GHz (44, 43.6 unrounded); FP16 half. */
export const PEAK_UIE_FP8 = (2048 * 8 * 2 * CLOCK) / 1e12;

export type MakeLut = (fn: string, path: string) => void;
/** the real LUT maker: scripts/make-vpu-lut.mjs, as scripts/pyxis-gen.mjs runs it. */
export const scriptLut: MakeLut = (fn, path) => {
  execFileSync(process.execPath, [LUT, '--fn', fn, '-o', path], { stdio: 'ignore' });
};

export interface GenCall {
  code: number;
  /** stdout, one line per call of the output function */
  out: string;
  err: string;
}

/** genMain(args) with stdout and stderr collected; LUTs made by `makeLut` (default: the real script). */
export function gen(args: string[], makeLut: MakeLut = scriptLut): GenCall {
  let out = '';
  let err = '';
  const code = genMain(args, { out: (s) => (out += s + '\n'), err: (s) => (err += s + '\n'), makeLut });
  return { code, out, err };
}

/** f(dir) with a fresh temporary directory `pyxis-gen-<tag>-*`, removed afterwards whatever happens. */
export function withTempDir<T>(tag: string, f: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), `pyxis-gen-${tag}-`));
  try {
    return f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** gen(args(dir)) in a fresh temporary directory; `look(dir)` sees the directory before it is removed. */
export function genInTemp(tag: string, args: (dir: string) => string[], look?: (dir: string) => void): GenCall & { dir: string } {
  return withTempDir(tag, (dir) => {
    const r = gen(args(dir));
    look?.(dir);
    return { ...r, dir };
  });
}

/** what a kernel's float64 check returns */
export type CheckResult = ReturnType<NonNullable<GenKernel['check']>>;

/**
 * An 8 x 8 x 8 GEMM written to a temporary directory and run by runKernelFiles (the `--run` path) once per entry of
 * `checks`, its float64 check replaced by that entry: the figures and the verdict of a given error.
 */
export function runGemmWithChecks(tag: string, checks: CheckResult[]): Array<ReturnType<typeof runKernelFiles>> {
  return withTempDir(tag, (dir) => {
    const k = gemm({ m: 8, k: 8, n: 8 });
    writeKernel(k, dir, { makeLut: () => {} });
    return checks.map((c) => runKernelFiles({ ...k, check: () => c }, dir, {}));
  });
}

/** the number in the first group of `re` in `text` (the test fails naming both when it does not match). */
export function num(text: string, re: RegExp): number {
  const m = re.exec(text);
  expect(m, `${re} in\n${text}`).not.toBeNull();
  return Number(m![1]);
}
