#!/usr/bin/env node
// Bundles the three CLIs for start-up time (issue 15; scripts/bench-startup.mjs):
// the built packages (dist/, from `tsc -b`) and the JavaScript dependencies
// (commander, chalk, chevrotain) become a few chunks in packages/targets/bundle/,
// so a run resolves and reads a handful of files instead of ~100 modules.
// Targets stay lazy: each dynamic import (a target, its assembler, linker or
// machine) is its own chunk. pino, pino-pretty, cli-progress and bullmq stay external
// (loaded only when used). Run by `npm run build` and `prepare`, after tsc.
//
// The chunks sit three levels below the repository root like every
// packages/*/dist/*.js, so the `new URL('../../../grammars/...', import.meta.url)`
// paths of the packages resolve to the same files.
//
// The bin/ launchers use the bundle only while it is fresh: inputs.json lists
// every bundled file with its size and mtime, and a changed or missing input
// (say, `tsc -b` after an edit, without this script) makes them load dist/
// instead (packages/cli/src/launch.ts). Without esbuild (a production
// install) nothing is bundled and the launchers use dist/.
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'packages/targets/bundle');
const TOOLS = { as: 'runAs', ld: 'runLd', sim: 'runSim' };

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.warn('bundle: esbuild is not installed; the launchers load packages/*/dist (slower start-up)');
  process.exit(0);
}

/**
 * A plugin serving generated modules: an import of `PREFIX:KEY` resolves to the module `contents(KEY)`, whose
 * relative imports resolve from `resolveDir`.
 */
function virtualModules(name, prefix, resolveDir, contents) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${prefix}:`) }, (a) => ({ path: a.path.slice(prefix.length + 1), namespace: prefix }));
      b.onLoad({ filter: /.*/, namespace: prefix }, (a) => ({ resolveDir, loader: 'js', contents: contents(a.path) }));
    },
  };
}

/** One entry per tool: the targets registered, that tool's driver, the shared main. */
const entries = virtualModules(
  'pyxis-entries',
  'pyxis-entry',
  join(root, 'packages/targets/dist'),
  (tool) => `import './register.js';\nimport { main } from '../../cli/dist/tool.js';\nimport { ${TOOLS[tool]} } from '../../cli/dist/${tool}.js';\nexport const run = () => main(${TOOLS[tool]});\n`,
);

/**
 * @pyxis/asm loads Chevrotain's one-file build by a computed path (packages/asm/src/chevrotain.ts),
 * which a bundler cannot follow: here the same file is imported statically instead.
 */
const chevrotain = {
  name: 'chevrotain-one-file',
  setup(b) {
    b.onLoad({ filter: /[\\/]asm[\\/]dist[\\/]chevrotain\.js$/ }, async () => {
      const api = (await b.resolve('chevrotain', { kind: 'import-statement', resolveDir: join(root, 'packages/asm') })).path; // .../chevrotain/lib/src/api.js
      const oneFile = join(dirname(api), '..', 'chevrotain.mjs');
      return { loader: 'js', contents: `export { createToken, Lexer, EmbeddedActionsParser, defaultParserErrorProvider } from ${JSON.stringify(oneFile)};\n` };
    });
  },
};

/**
 * The partition worker of parallel runs (packages/sim kernel/threaded.ts, queued.ts; issue 22), as one file with the
 * partition builders inside: a worker then starts by reading one file instead of ~100 modules (~60 ms against
 * ~140 ms, docs/dev/performance.md "Parallel runs"). The builders' module is registered under the specifier the
 * partition specs name before the worker's own code runs (ES modules evaluate their imports in order).
 */
const workerEntry = virtualModules('pyxis-partition-worker', 'pyxis-worker', join(root, 'packages/sim/dist/kernel'), (key) =>
  key === 'register'
    ? `import { registerPartitionModule } from './partitionHost.js';\nimport * as pyxis from '../../../target-pyxis/dist/sim/parallel/index.js';\nregisterPartitionModule('@pyxis/target-pyxis/parallel', pyxis);\n`
    : `import 'pyxis-worker:register';\nimport './partitionWorker.js';\n`,
);

rmSync(outdir, { recursive: true, force: true });
let result;
let worker;
try {
  worker = await esbuild.build({
    entryPoints: [{ in: 'pyxis-worker:entry', out: 'partitionWorker' }],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir,
    external: ['pino', 'pino-pretty', 'cli-progress', 'bullmq'],
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    banner: { js: "import { createRequire as __pyxisCreateRequire } from 'node:module';\nconst require = __pyxisCreateRequire(import.meta.url);" },
    plugins: [workerEntry],
    metafile: true,
    logLevel: 'warning',
  });
  result = await esbuild.build({
    // the three tools, and the JavaScript API of the installed package (docs/api.md)
    entryPoints: [...Object.keys(TOOLS).map((t) => ({ in: `pyxis-entry:${t}`, out: t })), { in: join(root, 'packages/targets/dist/api-entry.js'), out: 'api' }],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir,
    external: ['pino', 'pino-pretty', 'cli-progress', 'bullmq'],
    // jsonc-parser's main is a UMD build whose require('./impl/...') calls esbuild cannot follow: bundle its ES module
    // build instead (so the installed package needs no copy of it either).
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    // CommonJS dependencies (commander) call require() for Node's own modules.
    banner: { js: "import { createRequire as __pyxisCreateRequire } from 'node:module';\nconst require = __pyxisCreateRequire(import.meta.url);" },
    plugins: [entries, chevrotain],
    metafile: true,
    logLevel: 'warning',
  });
} catch (e) {
  // a bundle is only a start-up optimisation: without one (esbuild binary missing on this platform, say) the
  // launchers load packages/*/dist; never leave a partial bundle behind
  rmSync(outdir, { recursive: true, force: true });
  console.warn(`bundle: not built (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the launchers load packages/*/dist (slower start-up)`);
  process.exit(0);
}

const inputs = [...new Set([...Object.keys(result.metafile.inputs), ...Object.keys(worker.metafile.inputs)])]
  .filter((f) => !f.startsWith('pyxis-entry:') && !f.startsWith('pyxis-worker:'))
  .map((f) => {
    const s = statSync(join(root, f));
    return [relative(outdir, join(root, f)), s.size, Math.round(s.mtimeMs)];
  });
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'inputs.json'), JSON.stringify(inputs) + '\n');
// the API's types: api.ts declares every exported type itself, so its .d.ts stands alone beside api.js
copyFileSync(join(root, 'packages/targets/dist/api.d.ts'), join(outdir, 'api.d.ts'));
const outputs = { ...result.metafile.outputs, ...worker.metafile.outputs };
const bytes = Object.values(outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`bundle: ${Object.keys(outputs).length} files, ${(bytes / 1024).toFixed(0)} KiB from ${inputs.length} inputs -> ${relative(root, outdir)}`);
