import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const pkgs = ['diagnostics', 'codec', 'formats', 'container', 'asm', 'ld', 'sim', 'target', 'target-pyxis', 'cli', 'targets'];
/** Sub-path exports (`@pyxis/target-pyxis/asm`): package -> sub-paths, each `src/<sub>/index.ts` or `src/<sub>.ts`. */
const subpaths: Record<string, Record<string, string>> = {
  'target-pyxis': { asm: 'asm/index.ts', ld: 'ld/index.ts', sim: 'sim/index.ts', entry: 'entry.ts' },
};

// Tests import packages by name; point those names at the TypeScript sources so
// a test run never depends on a stale build.
export default defineConfig({
  resolve: {
    alias: [
      ...Object.entries(subpaths).flatMap(([p, subs]) =>
        Object.entries(subs).map(([sub, file]) => ({ find: `@pyxis/${p}/${sub}`, replacement: fileURLToPath(new URL(`./packages/${p}/src/${file}`, import.meta.url)) })),
      ),
      ...pkgs.map((p) => ({ find: new RegExp(`^@pyxis/${p}$`), replacement: fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url)) })),
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
