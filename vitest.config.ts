import { defineConfig } from 'vitest/config';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./', import.meta.url));

/**
 * Tests import packages by name (`@pyxis/asm`, `@pyxis/target-pyxis/sim`);
 * point those names at the TypeScript sources so a test run never depends on
 * a stale build. Every package under packages/ and every sub-path of its
 * `exports` map is aliased (dist/x.js -> src/x.ts), so a new package needs no
 * edit here.
 */
function aliases(): Array<{ find: RegExp; replacement: string }> {
  const out: Array<{ find: RegExp; replacement: string }> = [];
  for (const dir of readdirSync(`${root}packages`).sort()) {
    const pj = `${root}packages/${dir}/package.json`;
    if (!existsSync(pj)) continue;
    const pkg = JSON.parse(readFileSync(pj, 'utf8')) as { name: string; exports?: Record<string, { default: string }> };
    for (const [sub, target] of Object.entries(pkg.exports ?? { '.': { default: './dist/index.js' } })) {
      const spec = sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`;
      const src = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      out.push({ find: new RegExp(`^${spec.replace(/[/\-.]/g, (c) => `\\${c}`)}$`), replacement: `${root}packages/${dir}/${src}` });
    }
  }
  return out;
}

export default defineConfig({
  resolve: { alias: aliases() },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    // one temporary folder per run for everything the tests create (removed at the end: vitest.global-setup.ts)
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
