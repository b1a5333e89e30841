/**
 * The sweep file (docs/sweeps.md): validated with JSON paths, expanded into runs. Nothing here runs anything.
 *
 * {
 *   "target": "pyxis",                                   optional: else what each image says
 *   "inputs": ["a.pimg", {"name": "b", "image": "b.pimg"}]   images, or
 *   "generator": {"command": ["node", "gen.mjs", "{K}"], "image": "out/mm_{K}.pimg", "params": {"K": [256, 512]}},
 *   "axes": {"hbm.read_latency_cycles": [100, 200], "amem.read_latency_cycles": {"from": 1, "to": 4, "step": 1}},
 *   "combine": "cartesian" | "zip",
 *   "random": {"samples": 8, "seed": 1, "axes": {"noc.latency_cycles": {"min": 1, "max": 100, "integer": true}}},
 *   "options": ["--timing-only"],                         extra `pyxis-sim run` options of every run
 *   "figures": {"cycles": "cycles", "tflops": "engines[0].uie.compute.tflops"}
 * }
 * Diagnostic codes: SWP0001 (not JSON), SWP0002 (a value of the wrong kind or range, with its JSON path),
 * SWP0003 (an unknown field, with did-you-mean), SWP0004 (zip axes of different lengths), SWP0005 (too many runs).
 */
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { DiagnosticError, nearest, type Diagnostic } from '@pyxis/diagnostics';
import { readInputText } from '@pyxis/container';

export const MAX_RUNS = 1_000_000;

export type AxisValue = number | boolean | string;

export interface SweepInput {
  name: string;
  image: string;
  /** Generator parameters that produced the image (row columns). */
  params: Record<string, AxisValue>;
}

export interface SweepSpec {
  file: string;
  target?: string;
  inputs: SweepInput[];
  generator?: { command: string[]; image: string; params: Record<string, AxisValue[]> };
  /** Parameter sets (machine parameters, `--set`), already combined. */
  points: Array<Record<string, AxisValue>>;
  options: string[];
  figures: Record<string, string>;
  /** Parameter columns in order. */
  paramKeys: string[];
  /** The parameter keys that are random axes (their JSON path is `$.random.axes.KEY`). */
  randomKeys: string[];
  genKeys: string[];
}

export interface SweepRun {
  /** Content key: hash of tool version, target, image bytes, parameters and options. */
  key: string;
  index: number;
  input: SweepInput;
  params: Record<string, AxisValue>;
}

function fail(file: string, code: string, path: string, message: string, notes: string[] = []): never {
  const d: Diagnostic = { severity: 'error', code, message: `${path}: ${message}`, span: { file, offset: 0 }, ...(notes.length ? { notes } : {}) };
  throw new DiagnosticError(d);
}

const TOP = ['target', 'inputs', 'generator', 'axes', 'combine', 'random', 'options', 'figures', 'doc', '$comment'];

function obj(file: string, v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(file, 'SWP0002', path, `must be an object, got ${kind(v)}`);
  return v as Record<string, unknown>;
}
function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`.slice(0, 60);
}
function known(file: string, o: Record<string, unknown>, path: string, keys: string[]): void {
  for (const k of Object.keys(o))
    if (!keys.includes(k)) {
      const n = nearest(k, keys);
      fail(file, 'SWP0003', `${path}.${k}`, `unknown field${n ? `; did you mean \`${n}\`?` : ''}`, [`fields here: ${keys.filter((x) => !x.startsWith('$')).join(', ')}`]);
    }
}
function str(file: string, v: unknown, path: string): string {
  if (typeof v !== 'string' || !v) fail(file, 'SWP0002', path, `must be a non-empty string, got ${kind(v)}`);
  return v;
}
function scalar(file: string, v: unknown, path: string): AxisValue {
  if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'boolean' && typeof v !== 'string') fail(file, 'SWP0002', path, `must be a number, boolean or string, got ${kind(v)}`);
  return v as AxisValue;
}

/** An axis: a list of values, or a range `{from, to, step}` (inclusive, step > 0). */
function axis(file: string, v: unknown, path: string): AxisValue[] {
  if (Array.isArray(v)) {
    if (!v.length) fail(file, 'SWP0002', path, 'an axis needs at least one value');
    return v.map((x, i) => scalar(file, x, `${path}[${i}]`));
  }
  const o = obj(file, v, path);
  known(file, o, path, ['from', 'to', 'step']);
  const num = (k: string) => {
    const x = o[k];
    if (typeof x !== 'number' || !Number.isFinite(x)) fail(file, 'SWP0002', `${path}.${k}`, `must be a number, got ${kind(x)}`);
    return x;
  };
  const from = num('from');
  const to = num('to');
  const step = o['step'] === undefined ? 1 : num('step');
  if (step <= 0) fail(file, 'SWP0002', `${path}.step`, `must be > 0, got ${step}`);
  if (to < from) fail(file, 'SWP0002', `${path}.to`, `must be >= from (${from}), got ${to}`);
  const n = Math.floor((to - from) / step + 1e-9) + 1;
  if (n > MAX_RUNS) fail(file, 'SWP0005', path, `${n} values: more than ${MAX_RUNS}`);
  return Array.from({ length: n }, (_, i) => Number((from + i * step).toPrecision(12)));
}

function cartesian(axes: Array<[string, AxisValue[]]>): Array<Record<string, AxisValue>> {
  const size = axes.reduce((n, [, vs]) => n * vs.length, 1);
  if (size > MAX_RUNS) throw new RangeError(String(size));
  let out: Array<Record<string, AxisValue>> = [{}];
  for (const [k, vs] of axes) out = out.flatMap((p) => vs.map((v) => ({ ...p, [k]: v })));
  return out;
}

/** mulberry32: a small seeded generator, so a seed gives the same samples on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `{K}` in a generator command or image path. */
export function substitute(s: string, params: Record<string, AxisValue>): string {
  return s.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

export function parseSweep(file: string, text: string = readInputText(file)): SweepSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    fail(file, 'SWP0001', '$', `not valid JSON: ${(e as Error).message}`);
  }
  const base = dirname(resolve(file));
  const top = obj(file, raw, '$');
  known(file, top, '$', TOP);
  const spec: SweepSpec = { file, inputs: [], points: [], options: [], figures: {}, paramKeys: [], randomKeys: [], genKeys: [] };
  if (top['target'] !== undefined) spec.target = str(file, top['target'], '$.target');
  if ((top['inputs'] === undefined) === (top['generator'] === undefined)) fail(file, 'SWP0002', '$', 'give exactly one of `inputs` (images) and `generator` (a command that makes them)');
  if (top['inputs'] !== undefined) {
    if (!Array.isArray(top['inputs']) || !top['inputs'].length) fail(file, 'SWP0002', '$.inputs', `must be a non-empty array, got ${kind(top['inputs'])}`);
    const names = new Set<string>();
    top['inputs'].forEach((x, i) => {
      const p = `$.inputs[${i}]`;
      let name: string;
      let image: string;
      if (typeof x === 'string') {
        image = str(file, x, p);
        name = image.replace(/^.*\//, '').replace(/\.[^.]*$/, '');
      } else {
        const o = obj(file, x, p);
        known(file, o, p, ['name', 'image']);
        image = str(file, o['image'], `${p}.image`);
        name = o['name'] === undefined ? image.replace(/^.*\//, '').replace(/\.[^.]*$/, '') : str(file, o['name'], `${p}.name`);
      }
      if (names.has(name)) fail(file, 'SWP0002', p, `input name \`${name}\` is used twice (give each a "name")`);
      names.add(name);
      spec.inputs.push({ name, image: resolve(base, image), params: {} });
    });
  } else {
    const g = obj(file, top['generator'], '$.generator');
    known(file, g, '$.generator', ['command', 'image', 'params']);
    const cmd = g['command'];
    if (!Array.isArray(cmd) || !cmd.length) fail(file, 'SWP0002', '$.generator.command', `must be a non-empty array of strings (argv), got ${kind(cmd)}`);
    const command = cmd.map((c, i) => str(file, c, `$.generator.command[${i}]`));
    const image = str(file, g['image'], '$.generator.image');
    const gp = obj(file, g['params'] ?? {}, '$.generator.params');
    const params: Record<string, AxisValue[]> = {};
    for (const [k, v] of Object.entries(gp)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) fail(file, 'SWP0002', `$.generator.params.${k}`, 'a generator parameter is a name of letters, digits and _');
      params[k] = axis(file, v, `$.generator.params.${k}`);
    }
    spec.generator = { command, image, params };
    spec.genKeys = Object.keys(params);
    for (const p of cartesian(Object.entries(params))) spec.inputs.push({ name: substitute(image, p).replace(/^.*\//, '').replace(/\.[^.]*$/, ''), image: resolve(base, substitute(image, p)), params: p });
  }
  const combine = top['combine'] ?? 'cartesian';
  if (combine !== 'cartesian' && combine !== 'zip') fail(file, 'SWP0002', '$.combine', `must be "cartesian" or "zip", got ${kind(combine)}`);
  const axes: Array<[string, AxisValue[]]> = Object.entries(obj(file, top['axes'] ?? {}, '$.axes')).map(([k, v]) => [k, axis(file, v, `$.axes.${k}`)]);
  let points: Array<Record<string, AxisValue>>;
  if (combine === 'zip' && axes.length) {
    const n = axes[0]![1].length;
    const bad = axes.find(([, v]) => v.length !== n);
    if (bad) fail(file, 'SWP0004', `$.axes.${bad[0]}`, `zip needs axes of one length: ${axes.map(([k, v]) => `${k} has ${v.length}`).join(', ')}`);
    points = Array.from({ length: n }, (_, i) => Object.fromEntries(axes.map(([k, v]) => [k, v[i]!])));
  } else {
    try {
      points = cartesian(axes);
    } catch (e) {
      fail(file, 'SWP0005', '$.axes', `the cartesian product has ${(e as Error).message} points: more than ${MAX_RUNS}`);
    }
  }
  spec.paramKeys = axes.map(([k]) => k);
  if (top['random'] !== undefined) {
    const r = obj(file, top['random'], '$.random');
    known(file, r, '$.random', ['samples', 'seed', 'axes']);
    const samples = r['samples'];
    if (typeof samples !== 'number' || !Number.isInteger(samples) || samples < 1 || samples > MAX_RUNS) fail(file, 'SWP0002', '$.random.samples', `must be an integer 1..${MAX_RUNS}, got ${kind(samples)}`);
    const seed = r['seed'] ?? 1;
    if (typeof seed !== 'number' || !Number.isInteger(seed)) fail(file, 'SWP0002', '$.random.seed', `must be an integer, got ${kind(seed)}`);
    const next = rng(seed);
    const ra = Object.entries(obj(file, r['axes'], '$.random.axes')).map(([k, v]) => {
      const p = `$.random.axes.${k}`;
      const o = obj(file, v, p);
      known(file, o, p, ['min', 'max', 'integer']);
      const min = o['min'];
      const max = o['max'];
      if (typeof min !== 'number' || typeof max !== 'number' || !(max >= min)) fail(file, 'SWP0002', p, `needs numbers min <= max, got min ${kind(min)}, max ${kind(max)}`);
      if (spec.paramKeys.includes(k)) fail(file, 'SWP0002', p, `\`${k}\` is also a regular axis`);
      return { k, min, max, integer: o['integer'] !== false };
    });
    if (points.length * samples > MAX_RUNS) fail(file, 'SWP0005', '$.random.samples', `${points.length * samples} points: more than ${MAX_RUNS}`);
    points = points.flatMap((p) =>
      Array.from({ length: samples }, () => {
        const q = { ...p };
        for (const a of ra) q[a.k] = a.integer ? Math.ceil(a.min) + Math.floor(next() * (Math.floor(a.max) - Math.ceil(a.min) + 1)) : a.min + next() * (a.max - a.min);
        return q;
      }),
    );
    spec.paramKeys.push(...ra.map((a) => a.k));
    spec.randomKeys = ra.map((a) => a.k);
  }
  spec.points = points;
  if (top['options'] !== undefined) {
    if (!Array.isArray(top['options'])) fail(file, 'SWP0002', '$.options', `must be an array of strings, got ${kind(top['options'])}`);
    spec.options = top['options'].map((o, i) => str(file, o, `$.options[${i}]`));
    // options every run already gets (runOne.ts): given again they would be a usage error in every run (an option given twice)
    const bad = spec.options.findIndex((o) => /^--(stats|trace|vcd|set|sim-config|target|diagnostics-format)\b/.test(o));
    if (bad >= 0) fail(file, 'SWP0002', `$.options[${bad}]`, `\`${spec.options[bad]}\` is set by the sweep itself (parameters go in "axes", the target in "target")`);
  }
  const figs = obj(file, top['figures'] ?? { cycles: 'cycles' }, '$.figures');
  for (const [k, v] of Object.entries(figs)) {
    const p = str(file, v, `$.figures.${k}`);
    if (!/^[A-Za-z_$][\w$]*(\.[\w$]+|\[\d+\]|\["[^"\\]*"\])*$/.test(p)) fail(file, 'SWP0002', `$.figures.${k}`, `\`${p}\` is not a stats path (a.b[0].c, ["key.with.dots"])`);
    spec.figures[k] = p;
  }
  const clash = [...spec.genKeys, ...spec.paramKeys].find((k) => k in spec.figures || ['run', 'input', 'status', 'host_seconds', 'diagnostic', 'key'].includes(k));
  if (clash) fail(file, 'SWP0002', '$.figures', `column \`${clash}\` is both a parameter and a figure (or a reserved column)`);
  if (spec.inputs.length * spec.points.length > MAX_RUNS) fail(file, 'SWP0005', '$', `${spec.inputs.length * spec.points.length} runs: more than ${MAX_RUNS}`);
  return spec;
}

/** A figure out of a stats object (`engines[0].uie.compute.tflops`, `parameters["hbm.read_latency_cycles"].value`); undefined when absent. */
export function statPath(stats: unknown, path: string): unknown {
  let cur = stats;
  for (const m of path.matchAll(/\["([^"]*)"\]|\[(\d+)\]|([^.[\]]+)/g)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[m[1] ?? m[2] ?? m[3]!];
  }
  return cur;
}

/** The runs of a spec, keyed by content: `imageHash(path)` gives the bytes' hash (inputs exist by now). */
export function expandRuns(spec: SweepSpec, imageHash: (path: string) => string, version: string): SweepRun[] {
  const runs: SweepRun[] = [];
  for (const input of spec.inputs) {
    const h = imageHash(input.image);
    for (const point of spec.points) {
      const params = { ...input.params, ...point };
      const key = createHash('sha256')
        .update(JSON.stringify({ v: version, t: spec.target ?? '', i: input.name, h, p: Object.entries(params).sort(), o: spec.options }))
        .digest('hex')
        .slice(0, 32);
      runs.push({ key, index: runs.length, input, params });
    }
  }
  return runs;
}
