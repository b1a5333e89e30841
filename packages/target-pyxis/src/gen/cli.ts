/**
 * `pyxis-gen` (scripts/pyxis-gen.mjs): write a generated kernel (.pasm, .ld, seeded .npy inputs, VPU LUTs) to a
 * directory and, with --run, assemble, link, simulate it in-process and print the chip-level figures and the error
 * against float64 (docs/generators.md). Exit codes: 0 ok, 1 bad parameter (GENxxxx), an output that cannot be written
 * (IO0002) or a failed run (GEN0080-0082), 2 usage, 3 internal. Errors are printed as the other tools print theirs
 * (@pyxis/diagnostics: `error[GEN0003]: ...`, `pyxis-gen: error: ...` for usage, `--diagnostics-format json`).
 */
import { existsSync, mkdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { FileCodes, isSpecialOutput, writeErrorReason, writeFileAtomic, writeNpy } from '@pyxis/container';
import { DiagnosticError, error, renderDiagnostics, renderUsageError, type Diagnostic, type DiagnosticsFormat } from '@pyxis/diagnostics';
import { GenError } from './errors.js';
import { KINDS, USAGE } from './kinds.js';
import type { GenKernel } from './kernel.js';
import { runKernelFiles } from './runner.js';
import { JSON_SCHEMA, type GenJson, type RunJson } from './jsonReport.js';
import { diagnosticsFormatOf, parseGenArgs } from './cliArgs.js';

export interface CliIo {
  out(s: string): void;
  err(s: string): void;
  /** Writes a VPU LUT (scripts/make-vpu-lut.mjs). */
  makeLut(fn: string, path: string): void;
  /** What `--version` prints (the launcher: the tools' version text, packages/cli/src/version.ts). */
  version?: string;
  /** Colour in the diagnostics (the launcher: stderr is a terminal and NO_COLOR unset; `--no-color` turns it off). */
  color?: boolean;
}

/** IO0002 naming `path` for a file-system error (`(nothing written)`: the call removed what it had written). */
function cannotWrite(path: string, reason: string): DiagnosticError {
  return new DiagnosticError(error(FileCodes.cannotWrite, `cannot write \`${path}\`: ${reason} (nothing written)`));
}

/** The directories from `dir` up that do not exist yet, made top-down; returns them (deepest last). */
function makeOutDir(dir: string): string[] {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(d)) {
      // a device or a file where the directory should be (`--out /dev/null`): nothing is made, IO0002 names it
      if (!statSync(d).isDirectory()) throw cannotWrite(dir, d === dir ? 'not a directory' : `\`${d}\` is not a directory`);
      break;
    }
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  const made: string[] = [];
  try {
    for (const d of missing) {
      mkdirSync(d);
      made.push(d);
    }
  } catch (e) {
    removeDirs(made);
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw cannotWrite(dir, writeErrorReason(e));
  }
  return made;
}

/** Removes the directories this call made, deepest first (only if empty: nothing of anyone else's is removed). */
function removeDirs(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty or not removable: leave it and its parents
    }
  }
}

/**
 * Writes the kernel's files into `dir`. Each file is written under a temporary name and renamed into place, and on a
 * failure the files of this call and the directories it made are removed: never a partial output file (a truncated
 * .npy or half a set). A file that is a device or a FIFO (`NAME.pasm` linked to /dev/null) is written in place, as the
 * tools write `-o /dev/null` (@pyxis/container writeFileAtomic), and never removed. A file-system failure is IO0002
 * naming the file.
 */
export function writeKernel(k: GenKernel, dir: string, io: Pick<CliIo, 'makeLut'>): string[] {
  const made = makeOutDir(dir);
  const files: string[] = [];
  /** files this call created or replaced (removed on a failure), not the devices it wrote to */
  const placed: string[] = [];
  const put = (file: string, data: Uint8Array | string) => {
    const path = join(dir, file);
    const special = isSpecialOutput(path);
    writeFileAtomic(path, data);
    if (!special) placed.push(path);
    files.push(file);
  };
  const putLut = (file: string, fn: string) => {
    const path = join(dir, file);
    if (isSpecialOutput(path)) {
      io.makeLut(fn, path);
      files.push(file);
      return;
    }
    const tmp = join(dir, `.${file}.${process.pid}.tmp${extname(file)}`);
    try {
      io.makeLut(fn, tmp);
      renameSync(tmp, path);
    } catch (e) {
      if (typeof (e as NodeJS.ErrnoException).code === 'string' && typeof (e as NodeJS.ErrnoException).syscall === 'string') throw cannotWrite(path, writeErrorReason(e));
      throw e;
    } finally {
      rmSync(tmp, { force: true });
    }
    placed.push(path);
    files.push(file);
  };
  try {
    put(`${k.name}.pasm`, k.pasm);
    put(`${k.name}.ld`, k.ld);
    for (const f of k.inputs) put(f.file, writeNpy({ dtype: 'float32', shape: f.shape, data: f.data }));
    for (const l of k.luts) putLut(l.file, l.fn);
    put(`${k.name}.json`, JSON.stringify({ ...k.meta }, null, 2) + '\n');
  } catch (e) {
    for (const f of placed) rmSync(f, { force: true });
    removeDirs(made);
    if (e instanceof DiagnosticError) {
      // writeFileAtomic's IO0002 names the file; say that the kernel's other files are gone too
      throw new DiagnosticError(e.diagnostics.map((d) => (d.code === FileCodes.cannotWrite && !d.message.endsWith('(nothing written)') ? { ...d, message: `${d.message} (nothing written)` } : d)));
    }
    throw e;
  }
  return files;
}

/** Writes the usage and error text of one invocation in the tools' forms (@pyxis/diagnostics). */
class Printer {
  constructor(
    private readonly io: CliIo,
    readonly format: DiagnosticsFormat,
    private readonly color: boolean,
  ) {}
  /** A usage error (exit 2): `pyxis-gen: error: ...` with its notes, or one JSON line (CLI0001). */
  usage(message: string, notes: readonly string[] = []): number {
    this.io.err(renderUsageError('pyxis-gen', message, notes, this.format));
    return 2;
  }
  diagnostics(ds: readonly Diagnostic[]): void {
    const text = renderDiagnostics(ds, this.format, { color: this.color });
    if (text) this.io.err(text);
  }
  /** A generator's error: GENxxxx (exit 1, or 2 for usage), else an internal error (exit 3). */
  failed(e: unknown): number {
    if (e instanceof GenError) {
      this.diagnostics([e.toDiagnostic()]);
      return e.exitCode;
    }
    if (e instanceof DiagnosticError) {
      // IO0002 of a write (the writer names the file)
      this.diagnostics(e.diagnostics);
      return 1;
    }
    // as the tools (packages/cli tool.ts): the message, not a stack trace, unless asked for (PYXIS_GEN_STACK=1)
    const err = e as Error | undefined;
    this.io.err(`pyxis-gen: internal error: ${err?.message ?? String(e)}`);
    if (process.env.PYXIS_GEN_STACK) this.io.err(err?.stack ?? '');
    this.io.err('(this is a bug in pyxis-gen; rerun with PYXIS_GEN_STACK=1 for a stack trace and report it with the command line)');
    return 3;
  }
}

export function genMain(argv: string[], io: CliIo): number {
  const noColor = argv.includes('--no-color');
  const p = new Printer(io, diagnosticsFormatOf(argv), !noColor && !!io.color);
  const args = parseGenArgs(argv);
  switch (args.what) {
    case 'help':
      io.out(USAGE);
      return 0;
    case 'version':
      io.out(io.version ?? 'pyxis-gen');
      return 0;
    case 'usage-error':
      if (args.usage && p.format === 'human') {
        io.err(USAGE);
        io.err('');
      }
      return p.usage(args.message, args.notes);
    case 'diagnostic':
      p.diagnostics([args.diagnostic]);
      return 2;
  }
  const { kind, values } = args;
  const spec = KINDS[kind]!;
  // `--out ''` is not "the current directory" (resolve('') would be): a script's empty variable must not scatter files
  const outDir = typeof values['out'] === 'string' && values['out'].trim() !== '' ? resolve(values['out']) : undefined;
  if (!outDir) return p.usage(`--out DIR is required${values['out'] !== undefined ? ' (got an empty path)' : ''}`);
  // run options are checked before anything is generated or written
  let maxCycles: number | undefined;
  if (values['max-cycles'] !== undefined) {
    maxCycles = Number(values['max-cycles']);
    if (!(typeof values['max-cycles'] === 'string' && /^\d+$/.test(values['max-cycles'].trim()) && Number.isSafeInteger(maxCycles) && maxCycles > 0)) {
      return p.usage(`--max-cycles: must be an integer 1..${Number.MAX_SAFE_INTEGER} (got \`${String(values['max-cycles'])}\`)`);
    }
  }
  if (!values['run'] && (values['timing-only'] || maxCycles !== undefined)) {
    return p.usage(`${values['timing-only'] ? '--timing-only' : '--max-cycles'} goes with --run (it sets up the simulation)`);
  }
  let k: GenKernel | undefined;
  try {
    k = spec.make(values);
  } catch (e) {
    return p.failed(e);
  }
  let files: string[];
  try {
    files = writeKernel(k, outDir, io);
  } catch (e) {
    return p.failed(e);
  }
  // --json: stdout holds the one JSON object and nothing else; the text a person reads goes to stderr (with
  // --diagnostics-format json it is left out: stderr then holds JSON lines only, and the object has every figure)
  const json = !!values['json'];
  const text = !json ? io.out : p.format === 'json' ? () => {} : io.err;
  const obj: GenJson = {
    schema: JSON_SCHEMA,
    kind,
    name: k.name,
    options: Object.fromEntries(Object.entries(values).filter((e): e is [string, string | boolean] => e[1] !== undefined)),
    out_dir: outDir,
    files,
    notes: [...(k.notes ?? [])],
    meta: { ...k.meta },
    run: null,
    exit_code: 0,
  };
  const done = (code: number): number => {
    if (json) io.out(JSON.stringify({ ...obj, exit_code: code }, null, 2));
    return code;
  };
  try {
    for (const n of k.notes ?? []) text(n);
    text(`pyxis-gen ${kind}: wrote ${files.length} files to ${outDir}: ${files.join(', ')}`);
    text(`  pyxis-as ${k.name}.pasm -o ${k.name}.pobj && pyxis-ld ${k.name}.ld ${k.name}.pobj -o ${k.name}.pimg && pyxis-sim run ${k.name}.pimg`);
    if (values['run']) {
      // the input arrays are in the written files now (the linker reads them from there): keep only what the run
      // needs, so that the generator's float32 copies of the weights (~20 bytes per weight with their transposes)
      // are not held through the simulation; --timing-only has no check, so the check's model goes too
      const timingOnly = !!values['timing-only'];
      const slim: GenKernel = { name: k.name, pasm: k.pasm, ld: k.ld, meta: k.meta, inputs: [], luts: [], reportLines: k.reportLines, stages: k.stages, check: timingOnly ? undefined : k.check, uncheckedWhy: k.uncheckedWhy };
      k = undefined;
      const r = runKernelFiles(slim, outDir, { timingOnly, maxCycles });
      for (const l of r.lines) text(l);
      obj.run = r.json;
      // a failed run says why on stderr as an error with a code (exit 1), besides its text and its JSON
      p.diagnostics(runFailures(r.json, maxCycles === undefined));
      return done(r.ok ? 0 : 1);
    }
    return done(0);
  } catch (e) {
    if (e instanceof DiagnosticError) {
      // the generated program was rejected by the assembler or the linker: a generator defect, not the user's input
      io.err('pyxis-gen: internal error: the tools rejected the generated program (a generator defect, please report it):');
      p.diagnostics(e.diagnostics);
      return 3;
    }
    return p.failed(e);
  }
}

/**
 * Why a `--run` failed (exit 1): GEN0081 the simulation stopped before the kernel finished, GEN0082 the linker warned
 * about the generated program, GEN0080 the error against float64 above its bound. Empty for a run that passed.
 */
export function runFailures(r: RunJson, defaultLimit: boolean): Diagnostic[] {
  if (r.ok) return [];
  const ds: Diagnostic[] = [];
  if (r.stop !== 'done') {
    const limit = r.stop === 'max-cycles' ? `the cycle limit ${r.max_cycles} reached` : r.stop;
    ds.push(error('GEN0081', `the simulation stopped (${limit}) after ${r.trips_total} trips, before the kernel finished: no TFLOPS and no error check`, r.stop === 'max-cycles' ? { notes: [`${defaultLimit ? 'the default limit; ' : ''}--max-cycles N sets another`] } : {}));
  }
  if (r.link_warnings.length) ds.push(error('GEN0082', `the linker warned about the generated program (a generator defect, please report it): ${r.link_warnings.join('; ')}`));
  if (r.error && !r.error.pass) {
    const e = r.error;
    const fmt = (x: number | null) => (x === null ? 'not finite' : x.toExponential(3));
    ds.push(error('GEN0080', `error vs float64 above its bound: max ${fmt(e.max)} (bound ${e.max_bound}; ${e.what}), RMS relative ${fmt(e.rms)}${e.rms_bound !== null ? ` (bound ${e.rms_bound})` : ''}`));
  }
  return ds;
}

