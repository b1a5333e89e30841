import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const pkgs = ['diagnostics', 'codec', 'formats', 'container', 'asm', 'ld', 'sim', 'cli'];

// Tests import packages by name; point those names at the TypeScript sources so
// a test run never depends on a stale build.
export default defineConfig({
  resolve: {
    alias: Object.fromEntries(
      pkgs.map((p) => [`@pyxis/${p}`, fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url))]),
    ),
  },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
