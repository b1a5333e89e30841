/**
 * A Redis server of the tests' own (Debian's `redis-server`) on a free loopback port, without persistence; stopped
 * by the test. Missing redis-server fails the tests under CI=true (.ci/run installs it) and skips them elsewhere.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const hasRedis = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export class RedisServer {
  private proc: ChildProcess | undefined;
  constructor(readonly port: number) {}
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const p = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = p;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' });
      if (r.stdout?.trim() === 'PONG') return;
      if (p.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
    this.proc = undefined;
  }
}
