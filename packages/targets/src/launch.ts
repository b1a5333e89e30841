/**
 * What the bin/ launchers run (start-up time, issue 15): a tool's driver from
 * the CLI bundle (packages/targets/bundle, made by scripts/bundle.mjs) while
 * that bundle is fresh, else from the built packages (dist/). Fresh means every
 * file the bundle was made from still has the size and mtime recorded in its
 * inputs.json, so a `tsc -b` after an edit is never shadowed by an old bundle.
 * PYXIS_NO_BUNDLE=1 always uses dist/. This module loads nothing but node:fs.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type ToolName = 'as' | 'ld' | 'sim';

const DRIVERS = { as: 'runAs', ld: 'runLd', sim: 'runSim' } as const;

/** True when `dir`/inputs.json exists and every input it lists is unchanged (size and whole-ms mtime). */
export function bundleFresh(dir: URL): boolean {
  let inputs: unknown;
  try {
    inputs = JSON.parse(readFileSync(new URL('inputs.json', dir), 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return false;
  const base = fileURLToPath(dir);
  for (const it of inputs) {
    if (!Array.isArray(it) || typeof it[0] !== 'string') return false;
    const s = statSync(base + it[0], { throwIfNoEntry: false });
    if (!s || s.size !== it[1] || Math.round(s.mtimeMs) !== it[2]) return false;
  }
  return true;
}

/**
 * Which code a launcher runs: 'bundle' or 'dist' (exported for the tests). An installed package (`npm pack`,
 * docs/api.md) ships the bundle and no sources: there it is always the bundle (packing resets every mtime, and
 * nothing can be stale against sources that are not there).
 */
export function launchSource(env: NodeJS.ProcessEnv = process.env, dir: URL = new URL('../bundle/', import.meta.url), sources: URL = new URL('../src/', import.meta.url)): 'bundle' | 'dist' {
  if (env['PYXIS_NO_BUNDLE'] === '1') return 'dist';
  if (!existsSync(sources) && existsSync(new URL('sim.js', dir))) return 'bundle';
  return bundleFresh(dir) ? 'bundle' : 'dist';
}

/** Runs `tool` with process.argv (the exit code is set by the driver's main). */
export async function launch(tool: ToolName): Promise<void> {
  if (launchSource() === 'bundle') {
    const m = (await import(new URL(`../bundle/${tool}.js`, import.meta.url).href)) as { run: () => Promise<void> };
    await m.run();
    return;
  }
  const m = (await import('./index.js')) as unknown as Record<string, (argv: string[]) => Promise<number>> & { main: (run: (argv: string[]) => Promise<number>) => Promise<void> };
  await m.main(m[DRIVERS[tool]]!);
}
