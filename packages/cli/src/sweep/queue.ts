/**
 * The distributed engine (docs/sweeps.md): runs travel as BullMQ jobs on Redis. The submitter adds one job per run
 * with the run's content key as its job id (a key is never queued twice), uploads each image once as a
 * content-addressed blob (`pyxis-sweep:blob:SHA256`, up to MAX_BLOB_BYTES; larger images travel by path and need a
 * shared file system), and polls the jobs' states: a completed job's return value is the row, a job that failed
 * every attempt becomes a failed row, a job that vanished (Redis restarted without its data) is queued again.
 * Workers (`pyxis-sim worker --queue URL`) run each job as a child process (runOne.ts). A worker killed mid-job loses
 * its lock; BullMQ's stalled-job check gives the job to another worker, at most `attempts` times.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { connect } from 'node:net';
import { Queue, Worker, type Job } from 'bullmq';
import { makeDirs } from '@pyxis/container';
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { RetryableError, runOne, type RunJob } from './runOne.js';
import type { Engine } from './command.js';
import type { RunResult } from './table.js';

export const QUEUE_NAME = 'pyxis-sweep';
/** Images up to this size travel through Redis; larger ones by path (a shared file system). */
export const MAX_BLOB_BYTES = 64 << 20;
/** A worker that stops renewing its lock this long is considered dead (its job stalls and is retried). */
export const LOCK_MS = 3000;
const POLL_MS = 100;
/** How long the first PING may take before the sweep or worker gives up (SWP0010). */
export const CONNECT_MS = 10_000;

/**
 * The server answers PING within CONNECT_MS, or SWP0010: a server that is not there is a diagnostic, not a silent
 * wait (BullMQ's client would retry forever, and cannot even be closed before it has connected once).
 */
function ping(host: string, port: number, url: string): Promise<void> {
  return new Promise((resolveP, reject) => {
    const fail = (why: string) => {
      sock.destroy();
      clearTimeout(timer);
      reject(new DiagnosticError({ severity: 'error', code: 'SWP0010', message: `cannot reach Redis at ${url}: ${why}` }));
    };
    const sock = connect({ host, port });
    const timer = setTimeout(() => fail(`no answer within ${CONNECT_MS / 1000} s`), CONNECT_MS);
    let got = '';
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (b) => {
      got += b.toString('latin1');
      if (!got.includes('\r\n')) return;
      clearTimeout(timer);
      sock.destroy();
      if (got.startsWith('+PONG')) resolveP();
      else fail(`it answered PING with \`${got.trim().split('\n')[0]!.trim().slice(0, 80)}\` (not a Redis server?)`);
    });
    sock.on('error', (e) => fail(e.message));
  });
}

interface QueuedJob extends RunJob {
  /** sha256 of the image when it travels as a blob, with its extension (the worker's file name). */
  blob?: { hash: string; ext: string };
}

export function parseRedisUrl(url: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--queue expects redis://HOST:PORT, got \`${url}\``);
  }
  if (u.protocol !== 'redis:' || !u.hostname) throw new UsageError(`--queue expects redis://HOST:PORT, got \`${url}\``);
  return { host: u.hostname, port: u.port ? Number(u.port) : 6379 };
}

const blobKey = (hash: string) => `${QUEUE_NAME}:blob:${hash}`;

/** The ioredis calls the blob store uses (BullMQ's client type names only its own). */
interface BlobClient {
  exists(key: string): Promise<number>;
  set(key: string, value: Buffer): Promise<unknown>;
  getBuffer(key: string): Promise<Buffer | null>;
}

export async function queueEngine(url: string, attempts: number): Promise<Engine> {
  const connection = { ...parseRedisUrl(url), maxRetriesPerRequest: null };
  await ping(connection.host, connection.port, url);
  const queue = new Queue(QUEUE_NAME, { connection });
  queue.on('error', () => {}); // reconnects by itself; polling reports progress
  const blobs = new Map<string, { hash: string; ext: string } | undefined>();
  const blobOf = (image: string) => {
    if (!blobs.has(image)) {
      const bytes = readFileSync(image);
      blobs.set(image, bytes.length <= MAX_BLOB_BYTES ? { hash: createHash('sha256').update(bytes).digest('hex'), ext: extname(image) } : undefined);
    }
    return blobs.get(image);
  };
  const submit = async (job: RunJob) => {
    const client = (await queue.client) as unknown as BlobClient;
    const blob = blobOf(job.image);
    if (blob && !(await client.exists(blobKey(blob.hash)))) await client.set(blobKey(blob.hash), readFileSync(job.image));
    const data: QueuedJob = { ...job, ...(blob ? { blob } : {}) };
    await queue.add('run', data, { jobId: job.key, attempts, removeOnComplete: false, removeOnFail: false });
  };
  return {
    async run(list, done) {
      const pending = new Map(list.map((j) => [j.key, j]));
      let lastOk = Date.now();
      let warned = 0;
      const unreachable = () => {
        // Redis away (restarting): keep trying, and say so every 10 s on stderr
        if (Date.now() - lastOk > 10_000 && Date.now() - warned > 10_000) {
          warned = Date.now();
          process.stderr.write(`pyxis-sim sweep: waiting for Redis at ${url} (${pending.size} runs pending)\n`);
        }
      };
      for (;;) {
        try {
          for (const j of pending.values()) if (!(await queue.getJob(j.key))) await submit(j);
          break;
        } catch {
          unreachable();
          await sleep(POLL_MS * 5);
        }
      }
      while (pending.size) {
        await sleep(POLL_MS);
        try {
          for (const [key, j] of [...pending]) {
            const job = await queue.getJob(key);
            lastOk = Date.now();
            if (!job) {
              await submit(j); // Redis lost it (restart without persistence): queue it again
              continue;
            }
            // the job's hash is read in one go: a return value there is the finished result (a state read separately
            // could say "completed" for a job fetched just before it completed, without its return value)
            const rv = job.returnvalue as RunResult | null | undefined;
            if (job.finishedOn && rv && typeof rv === 'object' && rv.key === key) {
              done(rv);
              pending.delete(key);
            } else if ((await job.getState()) === 'failed') {
              const f = await queue.getJob(key);
              if (f && f.attemptsMade >= attempts) {
                done({ key, status: 'failed', exit: -1, diagnostic: `SWP0007: failed ${f.attemptsMade} attempt(s): ${f.failedReason ?? ''}`.slice(0, 500), host_seconds: 0, figures: {} });
                pending.delete(key);
              }
            }
          }
        } catch {
          unreachable(); // Redis unreachable (restarting): try again on the next poll
        }
      }
    },
    async close() {
      await queue.close();
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** `pyxis-sim worker --queue URL`: processes jobs until SIGINT/SIGTERM. */
export async function runWorker(url: string, concurrency: number, say: (s: string) => void): Promise<void> {
  const connection = { ...parseRedisUrl(url), maxRetriesPerRequest: null };
  await ping(connection.host, connection.port, url);
  // images fetched from Redis, by content hash (PYXIS_SWEEP_CACHE, default TMPDIR/pyxis-sweep-cache)
  const cache = process.env['PYXIS_SWEEP_CACHE'] ?? join(tmpdir(), 'pyxis-sweep-cache');
  makeDirs(cache);
  let worker: Worker | undefined;
  const imageOf = async (data: QueuedJob): Promise<string> => {
    if (!data.blob) return data.image;
    const file = join(cache, `${data.blob.hash}${data.blob.ext}`);
    if (existsSync(file)) return file;
    const client = (await worker!.client) as unknown as BlobClient;
    const bytes = await client.getBuffer(blobKey(data.blob.hash));
    if (!bytes) throw new RetryableError(`image blob ${data.blob.hash} is not in Redis`);
    const tmp = `${file}.${process.pid}.partial`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, file);
    return file;
  };
  worker = new Worker(
    QUEUE_NAME,
    async (job: Job<QueuedJob>) => {
      const image = await imageOf(job.data);
      say(`start ${job.id} attempt ${job.attemptsMade + 1}\n`);
      // a deterministic failure is a result (a row), not an error BullMQ would retry
      const r = await runOne({ ...job.data, image });
      say(`done ${job.id} ${r.status}\n`);
      return r;
    },
    { connection, concurrency, lockDuration: LOCK_MS, stalledInterval: LOCK_MS / 2, maxStalledCount: 2 },
  );
  let lastErr = 0;
  worker.on('error', (e) => {
    // reconnects by itself; one line every 10 s at most
    if (Date.now() - lastErr > 10_000) process.stderr.write(`pyxis-sim worker: ${e.message}\n`);
    lastErr = Date.now();
  });
  say(`pyxis-sim worker: processing ${QUEUE_NAME} on ${url} (${concurrency} at a time)\n`);
  await new Promise<void>((resolveP) => {
    const stop = () => void worker!.close().then(() => resolveP());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
