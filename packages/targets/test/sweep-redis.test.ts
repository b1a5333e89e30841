/**
 * The distributed sweep engine on a real Redis (issue 24): BullMQ jobs, `pyxis-sim worker` processes, a worker
 * killed with SIGKILL mid-job, Redis restarted mid-sweep, and the same table as the local pool. Each test starts
 * its own redis-server on a free loopback port and stops it; without redis-server the tests fail under CI=true.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeContainerFile } from '@pyxis/container';
import { copyImage } from './sweep-fixtures.js';
import { freePort, hasRedis, RedisServer } from './redis-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/pyxis-sim');
const dir = mkdtempSync(join(tmpdir(), 'pyxis-sweep-redis-'));
const env = { ...process.env, CI: '1', PYXIS_SWEEP_CACHE: join(dir, 'cache') };
writeContainerFile(join(dir, 'copy.pimg'), copyImage());

const procs: ChildProcess[] = [];
const servers: RedisServer[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const s of servers.splice(0)) await s.stop();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Proc {
  p: ChildProcess;
  out: string;
  exited: Promise<number | null>;
}
function start(args: string[]): Proc {
  const p = spawn(process.execPath, [bin, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(p);
  const h: Proc = { p, out: '', exited: new Promise((r) => p.once('exit', (code) => r(code))) };
  p.stdout!.on('data', (b: Buffer) => (h.out += b.toString()));
  p.stderr!.on('data', (b: Buffer) => (h.out += b.toString()));
  return h;
}
async function until(cond: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const rows = (base: string) => (existsSync(`${base}.jsonl`) ? readFileSync(`${base}.jsonl`, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
/** What two engines must agree on: everything but host time. */
const table = (base: string) => rows(base).map(({ host_seconds: _h, ...r }) => r).sort((a, b) => a.run - b.run);

async function redis(): Promise<RedisServer> {
  if (!hasRedis) throw new Error('redis-server is not installed (Debian package redis-server; .ci/run installs it)');
  const s = new RedisServer(await freePort());
  servers.push(s);
  await s.start();
  return s;
}
function sweep(name: string, lats: number[]): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(f, JSON.stringify({ inputs: ['copy.pimg'], axes: { 'hbm.read_latency_cycles': lats }, figures: { cycles: 'cycles' } }));
  return f;
}
const range = (a: number, n: number) => Array.from({ length: n }, (_, i) => a + i);

describe.skipIf(!hasRedis && process.env['CI'] !== 'true')('pyxis-sim sweep --queue (BullMQ on Redis)', () => {
  it('3 workers, 50 jobs, one worker killed with SIGKILL mid-job: 50 rows, each once', async () => {
    const s = await redis();
    const workers = [0, 1, 2].map(() => start(['worker', '--queue', s.url]));
    const sub = start(['sweep', sweep('kill', range(100, 50)), '-o', join(dir, 'kill'), '--queue', s.url]);
    // kill worker 0 right after it has started its third job (it is running it: mid-job)
    await until(() => (workers[0]!.out.match(/^start /gm) ?? []).length >= 3);
    workers[0]!.p.kill('SIGKILL');
    const victim = /^start (\w+)/gm.exec(workers[0]!.out.split('\n').filter((l) => l.startsWith('start')).pop()!)![1]!;
    expect(await sub.exited).toBe(0);
    const got = rows(join(dir, 'kill'));
    expect(got.length).toBe(50);
    expect(new Set(got.map((r) => r.key)).size).toBe(50);
    expect(got.every((r) => r.status === 'ok')).toBe(true);
    // one HBM read latency per copy: cycles - latency is the same on every row
    expect(new Set(got.map((r) => r.figures.cycles - r.params['hbm.read_latency_cycles'])).size).toBe(1);
    // the killed worker's job was finished by another worker
    expect(got.some((r) => r.key === victim)).toBe(true);
    expect(workers[1]!.out + workers[2]!.out).toContain(`start ${victim}`);
  }, 120_000);

  it('Redis restarted mid-sweep: the sweep resumes and every row is there once', async () => {
    const s = await redis();
    for (let i = 0; i < 2; i++) start(['worker', '--queue', s.url]);
    const base = join(dir, 'restart');
    const sub = start(['sweep', sweep('restart', range(200, 12)), '-o', base, '--queue', s.url]);
    await until(() => rows(base).length >= 3);
    await s.stop(); // the data goes with it (no persistence): the submitter queues the missing runs again
    await new Promise((r) => setTimeout(r, 300));
    await s.start();
    expect(await sub.exited).toBe(0);
    const got = rows(base);
    expect(got.length).toBe(12);
    expect(new Set(got.map((r) => r.key)).size).toBe(12);
    expect(got.every((r) => r.status === 'ok')).toBe(true);
  }, 120_000);

  it('the local pool and the Redis engine give identical tables', async () => {
    const s = await redis();
    for (let i = 0; i < 2; i++) start(['worker', '--queue', s.url]);
    const f = sweep('same', [50, 150, 250, 350]);
    const q = start(['sweep', f, '-o', join(dir, 'same-q'), '--queue', s.url]);
    const l = start(['sweep', f, '-o', join(dir, 'same-l'), '--jobs', '2']);
    expect(await q.exited).toBe(0);
    expect(await l.exited).toBe(0);
    expect(table(join(dir, 'same-q')).length).toBe(4);
    expect(table(join(dir, 'same-q'))).toEqual(table(join(dir, 'same-l')));
  }, 90_000);
});
