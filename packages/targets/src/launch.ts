/**
 * What the bin/ launchers run (start-up time, issue 15): a tool's driver from
 * the CLI bundle (packages/targets/bundle, made by scripts/bundle.mjs) while
 * that bundle is fresh, else from the built packages (dist/). Fresh means every
 * file the bundle was made from still has the size and mtime recorded in its
 * inputs.json, so a `tsc -b` after an edit is never shadowed by an old bundle.
 * PYXIS_NO_BUNDLE=1 always uses dist/. This module loads nothing but node built-ins.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

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
    if (tool === 'sim') startEarlyWorkers(process.argv.slice(2), new URL('../bundle/partitionWorker.js', import.meta.url));
    const m = (await import(new URL(`../bundle/${tool}.js`, import.meta.url).href)) as { run: () => Promise<void> };
    await m.run();
    return;
  }
  const m = (await import('./index.js')) as unknown as Record<string, (argv: string[]) => Promise<number>> & { main: (run: (argv: string[]) => Promise<number>) => Promise<void> };
  await m.main(m[DRIVERS[tool]]!);
}

/**
 * `pyxis-sim run ... --threads N` (N >= 2, an integer): starts the partition workers the run may use now, before the
 * CLI bundle is even read, so that each worker's own start-up (a V8 isolate reading the bundled worker entry, 60-300
 * ms) overlaps the calling thread's (reading the bundle, the image, planning) instead of delaying the worker's first
 * partition (docs/dev/performance.md "Parallel runs"). At most one per other host core. They wait under a global
 * symbol for @pyxis/sim's prestartWorkers (kernel/threaded.ts EARLY_WORKERS) to claim them, `unref`'d: a run that
 * uses none (one partition, bad input, another target) never waits for them, and they end with the process. Nothing
 * else is parsed here: a malformed `--threads` is the CLI's usage error, with no worker started.
 */
export function startEarlyWorkers(args: string[], entry: URL): number {
  if (args[0] !== 'run' || !existsSync(entry)) return 0;
  let n = NaN;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '--threads') n = Number(args[i + 1]);
    else if (a.startsWith('--threads=')) n = Number(a.slice('--threads='.length));
  }
  if (!Number.isInteger(n) || n < 2 || n > 256) return 0;
  const k = Math.min(n, availableParallelism()) - 1;
  const key = Symbol.for('sim-kernel.earlyWorkers');
  const g = globalThis as Record<symbol, unknown[] | undefined>;
  const pool = (g[key] ??= []);
  for (let j = 0; j < k; j++) {
    const p: { href: string; worker: Worker; failure: Error | null } = { href: entry.href, worker: new Worker(entry, { workerData: { preload: [] } }), failure: null };
    p.worker.unref();
    p.worker.on('error', (e) => (p.failure ??= e instanceof Error ? e : new Error(String(e))));
    p.worker.on('exit', (code) => (p.failure ??= new Error(`its worker thread exited (code ${code}) before the run`)));
    pool.push(p);
  }
  return k;
}
