/**
 * `pyxis-sim sweep SWEEP.json`: expands a sweep file into runs, skips the ones its table already holds (resume),
 * runs the rest on a local pool of child processes (`--jobs N`) and appends each row as it completes
 * (docs/sweeps.md). Diagnostic codes: SWP0006 (a generator command failed), SWP0007 (a run failed every attempt),
 * SWP0008 (some runs failed), SWP0009 (an axis names a parameter the machine lacks, or a value outside its range).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Option, type Command } from 'commander';
import type cliProgressModule from 'cli-progress';
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { checkOutputPaths, readInputFile } from '@pyxis/container';
import { findTargetEntry, loadTarget, resolveParams, type ParamTable } from '@pyxis/target';
import { chooseTargetName, headerTarget } from '../targetOptions.js';
import type { ToolContext } from '../tool.js';
import { VERSION } from '../version.js';
import { expandRuns, parseSweep, substitute, type SweepRun, type SweepSpec } from './spec.js';
import { ResultTable, type RunResult } from './table.js';
import { RetryableError, runOne, type RunJob } from './runOne.js';

export interface SweepOptions {
  output?: string;
  jobs?: string;
  attempts?: string;
  progress: boolean;
}

function intArg(flag: string, v: string | undefined, def: number, max: number): number {
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} expects an integer 1..${max}, got \`${v}\``);
  return n;
}

/** Runs the generator once per parameter combination, in the sweep file's directory (in order; a failure stops the sweep before any run). */
function generate(spec: SweepSpec): void {
  const g = spec.generator;
  if (!g) return;
  for (const input of spec.inputs) {
    const argv = g.command.map((a) => substitute(a, input.params));
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: dirname(resolve(spec.file)), stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0)
      throw new DiagnosticError({ severity: 'error', code: 'SWP0006', message: `generator \`${argv.join(' ')}\` ${r.error ? `could not start: ${r.error.message}` : `exited with ${r.status ?? r.signal}`}: ${(r.stderr ?? '').trim().split('\n').slice(-1)[0] ?? ''}`, span: { file: spec.file, offset: 0 } });
  }
}

/**
 * Every parameter axis checked against the machine parameter table of each input's target before anything runs:
 * a typo costs one diagnostic with its JSON path, not one failed run per point.
 */
async function checkAxes(spec: SweepSpec): Promise<void> {
  const tables = new Map<string, ParamTable | undefined>();
  const pathOf = (k: string) => (spec.randomKeys.includes(k) ? `$.random.axes.${k}` : `$.axes.${k}`);
  for (const input of spec.inputs) {
    const name = chooseTargetName(spec.target, [input.image], headerTarget);
    if (!findTargetEntry(name)) continue; // the run reports an unknown target itself
    if (!tables.has(name)) tables.set(name, (await loadTarget(name, 'sim')).machine?.parameters?.());
    const table = tables.get(name);
    if (!spec.paramKeys.length) continue;
    for (const k of spec.paramKeys) {
      if (!table) throw new DiagnosticError({ severity: 'error', code: 'SWP0009', message: `${pathOf(k)}: target ${name} (${input.name}) has no machine parameters`, span: { file: spec.file, offset: 0 } });
      const seen = new Set<string>();
      for (const p of spec.points) {
        const v = String(p[k]);
        if (seen.has(v)) continue;
        seen.add(v);
        try {
          resolveParams(table, { sets: [`${k}=${v}`] });
        } catch (e) {
          if (!(e instanceof UsageError)) throw e;
          throw new DiagnosticError({ severity: 'error', code: 'SWP0009', message: `${pathOf(k)}: ${stripKey(e.message.replace(/^--set:? ?/, ''), k)}`, span: { file: spec.file, offset: 0 } });
        }
      }
    }
  }
}

function stripKey(msg: string, k: string): string {
  return msg.startsWith(`${k}: `) ? msg.slice(k.length + 2) : msg;
}

export function jobOf(spec: SweepSpec, run: SweepRun): RunJob {
  return { key: run.key, image: run.input.image, ...(spec.target ? { target: spec.target } : {}), params: run.params, setKeys: spec.paramKeys, options: spec.options, figures: spec.figures };
}

export interface Engine {
  /** Runs every job; calls `done` for each result (exactly once per key). */
  run(jobs: RunJob[], done: (r: RunResult) => void): Promise<void>;
  close?(): Promise<void>;
}

/** The default engine: `jobs` child processes at a time, a run that crashes retried up to `attempts` times. */
export function localEngine(jobs: number, attempts: number): Engine {
  return {
    async run(list, done) {
      let next = 0;
      const worker = async () => {
        while (next < list.length) {
          const job = list[next++]!;
          for (let attempt = 1; ; attempt++) {
            try {
              done(await runOne(job));
              break;
            } catch (e) {
              if (!(e instanceof RetryableError) || attempt >= attempts) {
                done({ key: job.key, status: 'failed', exit: -1, diagnostic: `SWP0007: failed ${attempt} attempt(s): ${(e as Error).message}`, host_seconds: 0, figures: {} });
                break;
              }
            }
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(jobs, list.length) }, worker));
    },
  };
}

export function imageHash(path: string): string {
  return createHash('sha256').update(readInputFile(path)).digest('hex');
}

/** Runs a sweep with an engine; returns the counts. Shared by the local pool and the Redis submitter. */
export async function runSweep(spec: SweepSpec, out: string, engine: Engine, ctx: { progress: boolean; say: (s: string) => void }): Promise<{ total: number; skipped: number; ok: number; failed: number }> {
  // the table's files: writable, and neither the sweep file nor an image (IO0002/IO0003) before anything runs
  checkOutputPaths([`${out}.csv`, `${out}.jsonl`], [spec.file, ...spec.inputs.map((i) => i.image)]);
  generate(spec);
  await checkAxes(spec);
  const runs = expandRuns(spec, imageHash, VERSION);
  const table = new ResultTable(spec, `${out}.csv`, `${out}.jsonl`);
  const todo = runs.filter((r) => !table.has(r.key));
  const byKey = new Map(todo.map((r) => [r.key, r]));
  let ok = 0;
  let failed = 0;
  const t0 = Date.now();
  let bar: cliProgressModule.SingleBar | undefined;
  if (ctx.progress && process.stderr.isTTY && !process.env['CI']) {
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
    bar = new cliProgress.SingleBar({ stream: process.stderr, format: 'pyxis-sim sweep |{bar}| {value}/{total} done, {failed} failed, ETA {eta_formatted}', hideCursor: true, clearOnComplete: true, etaBuffer: 20 }, cliProgress.Presets.shades_classic);
    bar.start(todo.length, 0, { failed: 0 });
  }
  try {
    await engine.run(
      todo.map((r) => jobOf(spec, r)),
      (res) => {
        const run = byKey.get(res.key);
        if (!run || !table.add(run, res)) return;
        if (res.status === 'ok') ok++;
        else failed++;
        bar?.update(ok + failed, { failed });
      },
    );
  } finally {
    bar?.stop();
    await engine.close?.();
  }
  // every run has its row (an engine that returned without one is a bug of ours, not a result)
  const lost = todo.filter((r) => !table.has(r.key)).length;
  if (lost) throw new Error(`${lost} run(s) ended without a row (engine fault); re-run the sweep to complete them`);
  const secs = (Date.now() - t0) / 1000;
  ctx.say(`pyxis-sim sweep: ${runs.length} runs: ${ok} ok, ${failed} failed, ${runs.length - todo.length} already in ${out}.jsonl; ${secs.toFixed(1)} s (${todo.length ? (todo.length / Math.max(secs, 1e-3)).toFixed(2) : '0'} runs/s)\n`);
  return { total: runs.length, skipped: runs.length - todo.length, ok, failed };
}

export function registerSweep(program: Command, ctx: () => ToolContext, queueEngine?: (url: string, attempts: number) => Promise<Engine>): void {
  const cmd = program
    .command('sweep')
    .description('run a design-space sweep: every input x every parameter point, one row per run in OUT.csv and OUT.jsonl (docs/sweeps.md)')
    .argument('<sweep.json>', 'sweep file: inputs or a generator, parameter axes, figures')
    .option('-o, --output <base>', 'results table base name: writes BASE.csv and BASE.jsonl (default: the sweep file without .json); rows already there are skipped (resume)')
    .option('-j, --jobs <n>', 'local pool: runs at a time (default: the number of CPUs)')
    .option('--attempts <n>', 'tries of a run that crashes or is killed (a run that fails with a diagnostic is not retried)', '3')
    .addOption(new Option('--queue <redis-url>', 'submit the runs as BullMQ jobs on Redis (redis://HOST:PORT); `pyxis-sim worker --queue URL` processes them'))
    .option('--no-progress', 'never show a progress bar');
  cmd.action(async (file: string, o: SweepOptions & { queue?: string }) => {
    const c = ctx();
    const attempts = intArg('--attempts', o.attempts, 3, 100);
    const jobs = intArg('--jobs', o.jobs, availableParallelism(), 1024);
    const spec = parseSweep(file);
    const out = o.output ?? file.replace(/\.json$/i, '');
    let engine: Engine;
    if (o.queue) {
      if (!queueEngine) throw new UsageError('--queue is not available in this build');
      engine = await queueEngine(o.queue, attempts);
    } else engine = localEngine(jobs, attempts);
    const r = await runSweep(spec, out, engine, { progress: o.progress, say: c.out });
    if (r.failed) throw new DiagnosticError({ severity: 'error', code: 'SWP0008', message: `${r.failed} of ${r.total} runs failed (status "failed" in ${out}.csv, with their diagnostic)` });
  });
}
