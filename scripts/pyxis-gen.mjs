#!/usr/bin/env node
// pyxis-gen: kernel generators for the Pyxis chip (docs/generators.md). Thin launcher over
// packages/target-pyxis/src/gen/cli.ts; VPU LUTs come from scripts/make-vpu-lut.mjs.
//   node scripts/pyxis-gen.mjs gemm --m 512 --k 1024 --n 512 --clusters 0,1,2,3 --uies 12 --out /tmp/g --run
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { genMain } from '../packages/target-pyxis/dist/gen/cli.js';

const lutScript = fileURLToPath(new URL('./make-vpu-lut.mjs', import.meta.url));
const code = genMain(process.argv.slice(2), {
  out: (s) => process.stdout.write(s + '\n'),
  err: (s) => process.stderr.write(s + '\n'),
  makeLut: (fn, path) => execFileSync(process.execPath, [lutScript, '--fn', fn, '-o', path], { stdio: 'ignore' }),
});
process.exitCode = code;
