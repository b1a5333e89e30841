#!/usr/bin/env node
// pyxis-gen: kernel generators for the Pyxis chip (docs/generators.md). Thin launcher over
// packages/target-pyxis/src/gen/cli.ts; VPU LUTs come from scripts/make-vpu-lut.mjs. `--version` alone is answered
// before the generators are loaded, as bin/pyxis-as does (start-up time).
//   node scripts/pyxis-gen.mjs gemm --m 512 --k 1024 --n 512 --clusters 0,1,2,3 --uies 12 --out /tmp/g --run
import { answerVersion, versionText } from '../packages/cli/dist/version.js';

const argv = process.argv.slice(2);
const TARGETS = ['pyxis'];
if (!answerVersion(argv, undefined, 'pyxis-gen', TARGETS)) {
  const [{ execFileSync }, { fileURLToPath }, { shouldUseColor }, { genMain }] = await Promise.all([
    import('node:child_process'),
    import('node:url'),
    import('../packages/diagnostics/dist/index.js'),
    import('../packages/target-pyxis/dist/gen/cli.js'),
  ]);
  // a reader that goes away (`pyxis-gen --help | head`) is not an error of ours: stop quietly, as the tools do
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  const lutScript = fileURLToPath(new URL('./make-vpu-lut.mjs', import.meta.url));
  process.exitCode = genMain(argv, {
    out: (s) => process.stdout.write(s + '\n'),
    err: (s) => process.stderr.write(s + '\n'),
    makeLut: (fn, path) => execFileSync(process.execPath, [lutScript, '--fn', fn, '-o', path], { stdio: 'ignore' }),
    version: versionText('pyxis-gen', TARGETS),
    color: shouldUseColor(process.stderr),
  });
}
