#!/usr/bin/env node
// Long fuzz run (issue 15): PYXIS_FUZZ_CASES cases per input kind (default 200) through the real tools, in
// worker threads that are stopped and replaced when a case exceeds the time limit (a hang). Prints cases and
// results per class for every kind, then each failure with its reproduction command; exit 1 on any failure
// (internal error, hang, stack trace, partial output). Build first: npx tsc -b.
//
//   PYXIS_FUZZ_CASES=10000 node scripts/fuzz.mjs            the acceptance run (10,000 per kind)
//   PYXIS_FUZZ_KINDS=pimg,npy PYXIS_FUZZ_SEED=5000 ...      some kinds, other seeds
//   PYXIS_FUZZ_WORKERS=2 PYXIS_FUZZ_TIMEOUT_MS=60000 ...    parallelism and the hang limit (wall clock)
//   PYXIS_FUZZ_PROGRESS=500 ...                              a progress line every 500 cases (also when not a terminal)
//   node scripts/fuzz.mjs --kind pimg --seed 17 [--keep DIR] one case: its class, stderr and (with --keep) its files
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = (k, d) => process.env[k] ?? d;

if (!isMainThread) {
  const lib = await import('./fuzz-lib.mjs');
  const { workerData } = await import('node:worker_threads');
  const root = workerData.root;
  parentPort.on('message', async ({ kind, seed, timeoutMs }) => {
    let res;
    try {
      const c = await lib.makeCase(kind, seed);
      res = await lib.runCase(c, root, timeoutMs);
    } catch (e) {
      res = { cls: 'stack', err: String(e?.stack ?? e), ms: 0 };
    }
    parentPort.postMessage({ kind, seed, ...res });
  });
  parentPort.postMessage({ ready: true });
} else {
  const lib = await import('./fuzz-lib.mjs');
  const args = process.argv.slice(2);
  const arg = (k) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (arg('--kind') !== undefined) {
    // one case, in this process
    const kind = arg('--kind');
    const seed = Number(arg('--seed') ?? 0);
    const c = await lib.makeCase(kind, seed);
    const keep = arg('--keep');
    if (keep) {
      mkdirSync(keep, { recursive: true });
      for (const [f, d] of Object.entries(c.files)) writeFileSync(join(keep, f), d);
      console.log(`files in ${keep}; run: pyxis-${c.tool} ${c.args.join(' ')}`);
    }
    const root = lib.newRoot();
    const r = await lib.runCase(c, root, 1e9);
    lib.cleanup(root);
    console.log(`${kind} seed ${seed}: ${r.cls} (exit ${r.code}, ${r.ms} ms) pyxis-${c.tool} ${c.args.join(' ').slice(0, 300)}`);
    process.stdout.write(r.err + '\n');
    process.exit(lib.FAILURES.includes(r.cls) ? 1 : 0);
  }
  const cases = Number(env('PYXIS_FUZZ_CASES', '200'));
  const seed0 = Number(env('PYXIS_FUZZ_SEED', '0'));
  const kinds = env('PYXIS_FUZZ_KINDS', lib.KINDS.join(',')).split(',');
  const workers = Math.max(1, Number(env('PYXIS_FUZZ_WORKERS', '1')));
  const timeoutMs = Number(env('PYXIS_FUZZ_TIMEOUT_MS', '60000'));
  const queue = [];
  for (const kind of kinds) for (let s = seed0; s < seed0 + cases; s++) queue.push({ kind, seed: s });
  const counts = Object.fromEntries(kinds.map((k) => [k, Object.fromEntries(lib.CLASSES.map((c) => [c, 0]))]));
  const failures = [];
  const t0 = Date.now();
  const total = queue.length;
  const progress = Number(env('PYXIS_FUZZ_PROGRESS', '0'));
  let done = 0;
  const self = fileURLToPath(import.meta.url);
  const root = lib.newRoot(); // the workers' case directories live under it; removed at the end
  const record = (r) => {
    counts[r.kind][r.cls]++;
    done++;
    if (lib.FAILURES.includes(r.cls)) failures.push(r);
    if (progress && done % progress === 0) process.stderr.write(`${done}/${total} cases, ${failures.length} failures, ${((Date.now() - t0) / 1000).toFixed(0)} s; ${kinds.map((k) => `${k}: ${lib.CLASSES.map((c) => `${c} ${counts[k][c]}`).join(', ')}`).join('; ')}\n`);
    else if (process.stderr.isTTY && done % 50 === 0) process.stderr.write(`\r${done}/${total} cases, ${failures.length} failures`);
  };
  const slot = () =>
    new Promise((resolveSlot) => {
      let w;
      let current;
      let timer;
      const start = () => {
        w = new Worker(self, { workerData: { root } });
        w.on('message', (m) => {
          if (m.ready) return next();
          clearTimeout(timer);
          record(m);
          next();
        });
        w.on('error', (e) => {
          clearTimeout(timer);
          if (current) record({ ...current, cls: 'stack', err: String(e?.stack ?? e), ms: 0 });
          start();
        });
      };
      const next = () => {
        current = queue.shift();
        if (!current) {
          w.terminate();
          return resolveSlot();
        }
        timer = setTimeout(() => {
          // a case that does not end: stop the worker (synchronous loops included) and go on in a new one
          const c = current;
          current = undefined;
          w.removeAllListeners();
          w.terminate();
          record({ ...c, cls: 'hang', err: `no result after ${timeoutMs} ms`, ms: timeoutMs });
          start();
        }, timeoutMs);
        w.postMessage({ ...current, timeoutMs });
      };
      start();
    });
  await Promise.all(Array.from({ length: workers }, slot));
  lib.cleanup(root);
  if (process.stderr.isTTY) process.stderr.write('\n');
  const wall = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`fuzz: ${done} cases (${cases} per kind from seed ${seed0}), ${workers} worker(s), ${wall} s`);
  console.log(['kind'.padEnd(8), 'cases'.padStart(7), ...lib.CLASSES.map((c) => c.padStart(11))].join(' '));
  for (const k of kinds) {
    const n = Object.values(counts[k]).reduce((a, b) => a + b, 0);
    console.log([k.padEnd(8), String(n).padStart(7), ...lib.CLASSES.map((c) => String(counts[k][c]).padStart(11))].join(' '));
  }
  console.log(`failures (internal, hang, stack, partial): ${failures.length}`);
  for (const f of failures.slice(0, 50)) console.log(`  ${f.kind} seed ${f.seed}: ${f.cls} -- ${(f.err ?? '').split('\n').find((l) => l.trim()) ?? ''}\n    reproduce: node scripts/fuzz.mjs --kind ${f.kind} --seed ${f.seed}`);
  process.exit(failures.length ? 1 : 0);
}
