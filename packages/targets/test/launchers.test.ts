/**
 * The bin/ launchers (start-up time, issue 15): `--version` alone is answered
 * before anything heavy is loaded, and it says exactly what the driver
 * (commander) says; every other command line reaches the driver. The launchers
 * run the built code (dist/), which CI builds before the tests (`npm ci`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TARGETS, BUILTIN_TARGET_NAMES, VERSION, answerVersion, runAs, runLd, runSim } from '@pyxis/targets';
import { bundleFresh, launchSource, startEarlyWorkers } from '../src/launch.js';
import { availableParallelism } from 'node:os';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = (tool: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [`${root}bin/${tool}`, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });

describe('answerVersion (the launchers\' fast path)', () => {
  it('answers exactly `--version` or `-V` alone, nothing else', () => {
    for (const argv of [['--version'], ['-V']]) {
      let out = '';
      expect(answerVersion(argv, (s) => void (out += s), 'pyxis-as', ['a', 'b'])).toBe(true);
      expect(out).toBe(`pyxis-as ${VERSION} (targets: a, b)\n`);
    }
    for (const argv of [[], ['--help'], ['run', '--version'], ['--version', 'x.pasm'], ['-V', '-V'], ['--versions'], ['-v']])
      expect(answerVersion(argv, () => expect.unreachable())).toBe(false);
  });

  it('prints what the driver prints for --version: the tool, the version, the registered targets', async () => {
    for (const [tool, run] of [['pyxis-as', runAs], ['pyxis-ld', runLd], ['pyxis-sim', runSim]] as const) {
      let out = '';
      expect(await run(['--version'], { stdout: (s) => void (out += s), stderr: () => undefined })).toBe(0);
      let fast = '';
      answerVersion(['--version'], (s) => void (fast += s), tool, BUILTIN_TARGET_NAMES);
      expect(out).toBe(fast);
      expect(out).toBe(`${tool} ${VERSION} (targets: ${BUILTIN_TARGETS.map((e) => e.name).join(', ')})\n`);
    }
  });
});

describe('bin/ launchers', () => {
  for (const tool of ['pyxis-as', 'pyxis-ld', 'pyxis-sim']) {
    it(`${tool} --version and -V: the version, exit 0`, () => {
      for (const flag of ['--version', '-V']) {
        const r = bin(tool, [flag]);
        expect(r.status).toBe(0);
        expect(r.stdout).toBe(`${tool} ${VERSION} (targets: ${BUILTIN_TARGET_NAMES.join(', ')})\n`);
        expect(r.stderr).toBe('');
      }
    });
    it(`${tool} --help and a usage error reach the driver`, () => {
      const h = bin(tool, ['--help']);
      expect(h.status).toBe(0);
      expect(h.stdout).toContain(`Usage: ${tool}`);
      const u = bin(tool, ['--definitely-not-an-option']);
      expect(u.status).toBe(2);
      expect(u.stderr).toContain("unknown option '--definitely-not-an-option'");
    });
  }
});

describe('bundle freshness (packages/targets/src/launch.ts)', () => {
  it('fresh only while every listed input keeps its size and mtime', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-launch-'));
    const url = pathToFileURL(dir + '/');
    try {
      expect(bundleFresh(url)).toBe(false); // no inputs.json
      writeFileSync(join(dir, 'a.js'), 'x');
      utimesSync(join(dir, 'a.js'), 1_700_000_000, 1_700_000_000);
      writeFileSync(join(dir, 'inputs.json'), JSON.stringify([['a.js', 1, 1_700_000_000_000]]));
      expect(bundleFresh(url)).toBe(true);
      expect(launchSource({}, url)).toBe('bundle');
      expect(launchSource({ PYXIS_NO_BUNDLE: '1' }, url)).toBe('dist');
      writeFileSync(join(dir, 'a.js'), 'y'); // same size, new mtime: an edit
      expect(bundleFresh(url)).toBe(false);
      expect(launchSource({}, url)).toBe('dist');
      writeFileSync(join(dir, 'inputs.json'), JSON.stringify([['gone.js', 1, 0]]));
      expect(bundleFresh(url)).toBe(false);
      for (const bad of ['[]', '{}', 'not json', '[[1,2,3]]']) {
        writeFileSync(join(dir, 'inputs.json'), bad);
        expect(bundleFresh(url)).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the bundled and the unbundled tools make the same object, image and run of the copy sample', () => {
    // `npm run build` (and `npm ci`) make the bundle; without it this would compare dist with itself
    expect(launchSource({}), 'packages/targets/bundle is missing or stale: run `npm run build`').toBe('bundle');
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-launch-'));
    try {
      const outputs = (env: Record<string, string>, tag: string) => {
        const obj = join(dir, `${tag}.pobj`);
        const img = join(dir, `${tag}.pimg`);
        expect(bin('pyxis-as', ['samples/pyxis/copy.pasm', '-o', obj], env).status).toBe(0);
        expect(bin('pyxis-ld', ['samples/pyxis/copy.ld', obj, '-o', img], env).status).toBe(0);
        const run = bin('pyxis-sim', ['run', img], env);
        expect(run.status).toBe(0);
        return { obj: readFileSync(obj).toString('hex'), img: readFileSync(img).toString('hex'), run: run.stdout };
      };
      expect(outputs({}, 'b')).toEqual(outputs({ PYXIS_NO_BUNDLE: '1' }, 'd'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('startEarlyWorkers (pyxis-sim run --threads N: the partition workers start before the CLI loads)', () => {
  const entry = new URL('packages/targets/bundle/partitionWorker.js', `file://${root}`);
  const key = Symbol.for('sim-kernel.earlyWorkers');
  const g = globalThis as Record<symbol, Array<{ href: string; worker: import('node:worker_threads').Worker }> | undefined>;
  it('starts min(N, cores) - 1 workers for `run ... --threads N`, N >= 2, and none for anything else', async () => {
    expect(launchSource({}), 'run `npm run build`').toBe('bundle');
    const cores = availableParallelism();
    try {
      for (const [args, n] of [
        [['run', 'x.pimg', '--threads', '1'], 0],
        [['run', 'x.pimg', '--threads', 'two'], 0],
        [['run', 'x.pimg', '--threads', '0'], 0],
        [['run', 'x.pimg', '--threads', '2.5'], 0],
        [['run', 'x.pimg', '--threads', '999'], 0],
        [['run', 'x.pimg'], 0],
        [['sweep', 'x.pimg', '--threads', '2'], 0],
        [['run', 'x.pimg', '--', '--threads', '2'], 0],
        [['run', 'x.pimg', '--threads', '2'], Math.min(2, cores) - 1],
        [['run', '--threads=3', 'x.pimg'], Math.min(3, cores) - 1],
      ] as Array<[string[], number]>) {
        const before = g[key]?.length ?? 0;
        expect(startEarlyWorkers(args, entry), args.join(' ')).toBe(n);
        expect((g[key]?.length ?? 0) - before).toBe(n);
      }
      expect(startEarlyWorkers(['run', 'x.pimg', '--threads', '2'], new URL('file:///nonexistent/partitionWorker.js'))).toBe(0);
      for (const w of g[key] ?? []) expect(w.href).toBe(entry.href);
    } finally {
      await Promise.all((g[key] ?? []).map((w) => w.worker.terminate()));
      delete g[key];
    }
  });
});
