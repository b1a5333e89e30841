/**
 * The JavaScript API of the installed package (`import { assemble, link, simulate } from 'pyxis-toolchain'`,
 * docs/api.md): the three tools on bytes and tensors, no files of the caller's written. Every built-in target works
 * through the same calls (the target comes from the source extension / `target` option, the object or the image).
 * The exported types are declared here and depend on nothing else, so the package's `api.d.ts` stands alone.
 * Bad input throws a `PyxisError` carrying the diagnostics (code, message, span) the tools would print. The built-in
 * targets must be registered first: the package's entry (api-entry.ts) imports ./register.js.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readContainer, peekContainerTarget, writeNpy, type Tensor as NpyTensor } from '@pyxis/container';
import { DiagnosticError, SourceMap, UsageError } from '@pyxis/diagnostics';
import { loadTarget, type MachineRequest } from '@pyxis/target';
import { runAs, runLd } from '@pyxis/cli';

/** A tensor in or out: C-order data of `shape`. */
export interface Tensor {
  dtype: 'float32' | 'float64' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32';
  shape: number[];
  data: Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;
}

/** A diagnostic as `--diagnostics-format json` prints it. */
export interface Diagnostic {
  severity: 'error' | 'warning' | 'note';
  code: string;
  message: string;
  span?: { file: string; line?: number; column?: number; offset?: number; length?: number };
  notes?: string[];
  spec?: string;
}

/** Thrown for bad input (exit code 1 of the tools) or bad options (2). */
export class PyxisError extends Error {
  constructor(
    message: string,
    readonly diagnostics: Diagnostic[],
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'PyxisError';
  }
}

export interface AssembleOptions {
  /** Source text, or several files (`.include`d ones too): the first is assembled. */
  source: string | Array<{ file: string; text: string }>;
  /** File name of a single source (its extension picks the target: `.pasm`, `.tasm`, `.xasm`, `.ncasm`). Default `input.pasm`. */
  file?: string;
  target?: string;
  /** Also return the listing. */
  listing?: boolean;
}

export interface AssembleResult {
  /** The object (`.pobj` bytes). */
  object: Uint8Array;
  listing?: string;
  /** Warnings. */
  diagnostics: Diagnostic[];
}

export interface LinkOptions {
  /** The link script text. */
  script: string;
  /** Its file name (`link.ld`); data files it names are looked up beside it. */
  scriptFile?: string;
  /** Objects by file name (`copy.pobj`), or in order. */
  objects: Record<string, Uint8Array> | Uint8Array[];
  /** Tensors the script names as `data = "NAME"` (written as NAME, an .npy beside the script). */
  tensors?: Record<string, Tensor>;
  /** Other files the script names (raw data, blobs), by name. */
  files?: Record<string, Uint8Array>;
  target?: string;
}

export interface LinkResult {
  /** The image (`.pimg` bytes). */
  image: Uint8Array;
  /** The GNU-ld-style map. */
  map: string;
  /** The same map as data. */
  mapJson: unknown;
  diagnostics: Diagnostic[];
}

export interface SimulateOptions {
  image: Uint8Array;
  /** Tensors to read after the run, by name (what `--compare NAME` and the target's float dump read). */
  outputs?: string[];
  /** Input tensors of targets that take them at run time (systolic `--input NAME=FILE`), by name. */
  inputs?: Record<string, Tensor>;
  maxCycles?: number;
  clockHz?: number;
  /** Target options by their camel-case name (`{ timingOnly: true }`). */
  options?: Record<string, unknown>;
}

export interface SimulateResult {
  /** `done`, or why the run stopped. */
  stop: string;
  cycles: number;
  /** The text summary `pyxis-sim run` prints. */
  summary: string;
  /** The `--stats` JSON object (states what its numbers model). */
  stats: Record<string, unknown>;
  /** The requested outputs as float64 tensors. */
  outputs: Record<string, Tensor>;
  diagnostics: Diagnostic[];
}

function parseDiagnostics(stderr: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as Diagnostic);
    } catch {
      // a log line, not a diagnostic
    }
  }
  return out;
}

async function tool(run: typeof runAs, args: string[]): Promise<{ diagnostics: Diagnostic[]; out: string }> {
  let err = '';
  let out = '';
  const code = await run(['--diagnostics-format', 'json', '--log-level', 'silent', ...args], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  const diagnostics = parseDiagnostics(err);
  if (code !== 0) throw new PyxisError(diagnostics.find((d) => d.severity === 'error')?.message ?? (err.trim() || `exit ${code}`), diagnostics, code);
  return { diagnostics, out };
}

function withDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-api-'));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

function safeName(name: string): string {
  const b = basename(name);
  if (!b || b === '.' || b === '..' || b !== name) throw new PyxisError(`file name \`${name}\` must be a plain file name`, [], 2);
  return b;
}

/** Assembles source text into an object. */
export function assemble(o: AssembleOptions): Promise<AssembleResult> {
  return withDir(async (dir) => {
    const files = typeof o.source === 'string' ? [{ file: o.file ?? 'input.pasm', text: o.source }] : o.source;
    if (!files.length) throw new PyxisError('no source', [], 2);
    for (const f of files) writeFileSync(join(dir, safeName(f.file)), f.text);
    const obj = join(dir, 'out.pobj');
    const args = [join(dir, files[0]!.file), '-o', obj, ...(o.target ? ['--target', o.target] : []), ...(o.listing ? ['--listing', join(dir, 'out.lst')] : [])];
    const r = await tool(runAs, args);
    return { object: new Uint8Array(readFileSync(obj)), ...(o.listing ? { listing: readFileSync(join(dir, 'out.lst'), 'utf8') } : {}), diagnostics: r.diagnostics };
  });
}

/** Links objects (and tensors the script names) into an image. */
export function link(o: LinkOptions): Promise<LinkResult> {
  return withDir(async (dir) => {
    const script = join(dir, safeName(o.scriptFile ?? 'link.ld'));
    writeFileSync(script, o.script);
    const objs = Array.isArray(o.objects) ? o.objects.map((b, i) => [`object${i}.pobj`, b] as const) : Object.entries(o.objects);
    for (const [n, b] of objs) writeFileSync(join(dir, safeName(n)), b);
    for (const [n, t] of Object.entries(o.tensors ?? {})) writeFileSync(join(dir, safeName(n)), writeNpy(t as NpyTensor));
    for (const [n, b] of Object.entries(o.files ?? {})) writeFileSync(join(dir, safeName(n)), b);
    const img = join(dir, 'out.pimg');
    const r = await tool(runLd, [script, ...objs.map(([n]) => join(dir, n)), '-o', img, '--map', join(dir, 'out.map'), '--map-json', join(dir, 'out.map.json'), ...(o.target ? ['--target', o.target] : [])]);
    return { image: new Uint8Array(readFileSync(img)), map: readFileSync(join(dir, 'out.map'), 'utf8'), mapJson: JSON.parse(readFileSync(join(dir, 'out.map.json'), 'utf8')) as unknown, diagnostics: r.diagnostics };
  });
}

const toDiag = (e: unknown): Diagnostic[] => (e instanceof DiagnosticError ? (e.diagnostics as unknown as Diagnostic[]) : []);

/** Simulates an image; returns the figures and the requested output tensors. */
export function simulate(o: SimulateOptions): Promise<SimulateResult> {
  return withDir(async (dir) => {
    try {
      const name = peekContainerTarget(o.image);
      if (name === undefined) throw new PyxisError('the image is not a .pimg container', [], 1);
      const target = await loadTarget(name, 'sim');
      const machine = target.machine;
      if (!machine) throw new PyxisError(`target ${name} has no simulator`, [], 2);
      const options: Record<string, unknown> = { ...(o.options ?? {}) };
      const inputs = Object.entries(o.inputs ?? {});
      if (inputs.length) {
        options['input'] = inputs.map(([n, t], i) => {
          const f = join(dir, `input${i}.npy`);
          writeFileSync(f, writeNpy(t as NpyTensor));
          return `${n}=${f}`;
        });
      }
      machine.checkOptions?.(options);
      const file = 'image.pimg';
      const req: MachineRequest = { image: readContainer(o.image, file), file, options, services: { sources: new SourceMap(), log: { info: () => undefined, debug: () => undefined } } };
      if (o.maxCycles !== undefined) req.maxCycles = o.maxCycles;
      if (o.clockHz !== undefined) req.clockHz = o.clockHz;
      if (o.outputs?.length) req.compare = [...o.outputs];
      machine.plan(req);
      const r = machine.create(req).run();
      const outputs: Record<string, Tensor> = {};
      if (!r.stop)
        for (const n of o.outputs ?? []) {
          const t = r.readTensor?.(n);
          if (!t) throw new PyxisError(`target ${name} cannot give tensors after a run`, [], 2);
          outputs[n] = { dtype: 'float64', shape: [...t.shape], data: Float64Array.from(t.data, Number) };
        }
      const stop = typeof r.stats['stop'] === 'string' ? r.stats['stop'] : r.stop ? 'stopped' : 'done';
      return { stop, cycles: r.cycles, summary: r.summary, stats: r.stats, outputs, diagnostics: [...(r.diagnostics as unknown as Diagnostic[]), ...((r.stop ?? []) as unknown as Diagnostic[])] };
    } catch (e) {
      if (e instanceof PyxisError) throw e;
      if (e instanceof UsageError) throw new PyxisError(e.message, [], 2);
      if (e instanceof DiagnosticError) throw new PyxisError(e.diagnostics[0]?.message ?? 'input error', toDiag(e), 1);
      throw e;
    }
  });
}
