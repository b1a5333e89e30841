/**
 * One sweep run: `pyxis-sim run IMAGE --stats - --set K=V ...` in a child process (isolated: a crash or a kill loses
 * that run only), its stats parsed and the figures picked. Exit 1 or 2 is a deterministic failure (the diagnostic is
 * recorded, never retried); a signal or exit 3 is an error the engine may retry.
 */
import { spawn } from 'node:child_process';
import { statPath, type AxisValue } from './spec.js';
import type { RunResult } from './table.js';

/** What a worker needs to run one job (it travels through Redis as JSON). */
export interface RunJob {
  key: string;
  image: string;
  target?: string;
  params: Record<string, AxisValue>;
  /** Names of the params that are machine parameters (the rest are generator parameters). */
  setKeys: string[];
  options: string[];
  figures: Record<string, string>;
}

/** The command that runs `pyxis-sim` (the launcher this process was started from, unless PYXIS_SIM_BIN says). */
export function simCommand(): string[] {
  const bin = process.env['PYXIS_SIM_BIN'];
  if (bin) return [process.execPath, bin];
  return [process.execPath, process.argv[1]!];
}

export class RetryableError extends Error {}

export function runOne(job: RunJob, cmd: string[] = simCommand(), onSpawn?: (pid: number) => void): Promise<RunResult> {
  const args = [...cmd.slice(1), 'run', job.image, '--stats', '-', '--no-progress', '--diagnostics-format', 'json'];
  if (job.target) args.push('--target', job.target);
  for (const k of job.setKeys) args.push('--set', `${k}=${job.params[k]}`);
  args.push(...job.options);
  const t0 = process.hrtime.bigint();
  return new Promise((resolveP, reject) => {
    const child = spawn(cmd[0]!, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => reject(new RetryableError(`cannot start pyxis-sim: ${e.message}`)));
    child.on('close', (code, signal) => {
      const host = Number(process.hrtime.bigint() - t0) / 1e9;
      const stderr = Buffer.concat(err).toString('utf8');
      if (signal || code === null || code === 3) return reject(new RetryableError(signal ? `pyxis-sim killed by ${signal}` : `pyxis-sim internal error: ${stderr.trim().split('\n')[0] ?? ''}`));
      const figures: Record<string, unknown> = {};
      if (code === 0) {
        let stats: unknown;
        try {
          stats = JSON.parse(Buffer.concat(out).toString('utf8'));
        } catch {
          return reject(new RetryableError('pyxis-sim wrote no stats JSON'));
        }
        for (const [k, p] of Object.entries(job.figures)) figures[k] = statPath(stats, p);
        return resolveP({ key: job.key, status: 'ok', exit: 0, host_seconds: host, figures });
      }
      resolveP({ key: job.key, status: 'failed', exit: code, diagnostic: firstError(stderr), host_seconds: host, figures });
    });
  });
}

/** The first error of a JSON diagnostics stream, as `CODE: message`. */
function firstError(stderr: string): string {
  for (const line of stderr.split('\n')) {
    try {
      const d = JSON.parse(line) as { severity?: string; code?: string; message?: string };
      if (d.severity === 'error') return `${d.code ?? ''}: ${d.message ?? ''}`.slice(0, 500);
    } catch {
      // not a JSON line
    }
  }
  return stderr.trim().split('\n')[0]?.slice(0, 500) ?? '';
}
