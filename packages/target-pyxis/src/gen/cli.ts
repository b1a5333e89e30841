/**
 * `pyxis-gen` (scripts/pyxis-gen.mjs): write a generated kernel (.pasm, .ld, seeded .npy inputs, VPU LUTs) to a
 * directory and, with --run, assemble, link, simulate it in-process and print the chip-level figures and the error
 * against float64 (docs/generators.md). Exit codes: 0 ok, 1 bad parameter (GENxxxx), 2 usage, 3 internal.
 */
import { existsSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeDirs, writeNpyFile } from '@pyxis/container';
import { DiagnosticError } from '@pyxis/diagnostics';
import { GenError } from './errors.js';
import { KINDS, USAGE } from './kinds.js';
import type { GenKernel } from './kernel.js';
import { runKernelFiles } from './runner.js';
import { JSON_SCHEMA, type GenJson } from './jsonReport.js';

export interface CliIo {
  out(s: string): void;
  err(s: string): void;
  /** Writes a VPU LUT (scripts/make-vpu-lut.mjs). */
  makeLut(fn: string, path: string): void;
}

/**
 * Writes the kernel's files into `dir`. Each file is written under a temporary name and renamed into place, and on a
 * failure the files of this call are removed: never a partial output file (a truncated .npy or half a set).
 */
export function writeKernel(k: GenKernel, dir: string, io: Pick<CliIo, 'makeLut'>): string[] {
  const made = !existsSync(dir);
  makeDirs(dir);
  const files: string[] = [];
  const put = (file: string, write: (path: string) => void) => {
    const tmp = join(dir, `.${file}.${process.pid}.tmp${extname(file)}`);
    try {
      write(tmp);
      renameSync(tmp, join(dir, file));
    } finally {
      rmSync(tmp, { force: true });
    }
    files.push(file);
  };
  try {
    put(`${k.name}.pasm`, (p) => writeFileSync(p, k.pasm));
    put(`${k.name}.ld`, (p) => writeFileSync(p, k.ld));
    for (const f of k.inputs) put(f.file, (p) => writeNpyFile(p, { dtype: 'float32', shape: f.shape, data: f.data }));
    for (const l of k.luts) put(l.file, (p) => io.makeLut(l.fn, p));
    put(`${k.name}.json`, (p) => writeFileSync(p, JSON.stringify({ ...k.meta }, null, 2) + '\n'));
  } catch (e) {
    for (const f of files) rmSync(join(dir, f), { force: true });
    // the directory this call made goes too (only if it is empty: nothing of anyone else's is removed)
    if (made) {
      try {
        rmdirSync(dir);
      } catch {
        /* not empty or not removable: leave it */
      }
    }
    throw e;
  }
  return files;
}

/** `--m -128`: node's parseArgs takes a value starting with '-' for an option; join it (`--m=-128`) so the range check names it. */
function joinNegative(args: string[], stringOpts: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a.startsWith('--') && !a.includes('=') && stringOpts.has(a.slice(2)) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

export function genMain(argv: string[], io: CliIo): number {
  const kind = argv[0];
  if (!kind || kind === '--help' || kind === '-h') {
    (kind ? io.out : io.err)(USAGE);
    return kind ? 0 : 2;
  }
  const spec = KINDS[kind];
  if (!spec && kind.startsWith('-')) {
    // `pyxis-gen --json gemm ...`: the options follow the kind (each kind has its own)
    io.err(`pyxis-gen: the kernel kind comes first, then its options (got "${kind}"; one of ${Object.keys(KINDS).join(', ')})\n\n${USAGE}`);
    return 2;
  }
  if (!spec) {
    io.err(`pyxis-gen: unknown kernel kind "${kind}" (one of ${Object.keys(KINDS).join(', ')})\n\n${USAGE}`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  const options = {
    out: { type: 'string', short: 'o' },
    run: { type: 'boolean' },
    json: { type: 'boolean' },
    'timing-only': { type: 'boolean' },
    'max-cycles': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    ...Object.fromEntries(Object.entries(spec.options).map(([k, o]) => [k, { type: o.type }])),
  } as const satisfies Record<string, { type: 'string' | 'boolean'; short?: string }>;
  try {
    const strings = new Set(Object.entries(options).filter(([, o]) => o.type === 'string').map(([k]) => k));
    const parsed = parseArgs({ args: joinNegative(argv.slice(1), strings), options, strict: true, tokens: true });
    values = parsed.values as Record<string, string | boolean | undefined>;
    // an option given twice is a usage error (GEN0070), not "the last one wins": `--m 8 ... --m 16` is a typo or a
    // script bug, and a silently dropped value would generate another kernel than the one asked for
    const seen = new Map<string, string>();
    for (const t of parsed.tokens ?? []) {
      if (t.kind !== 'option') continue;
      const prev = seen.get(t.name);
      if (prev !== undefined) {
        io.err(`pyxis-gen ${kind}: error GEN0070: ${t.name}: given twice (${prev}, then ${t.rawName}${t.value !== undefined ? ` ${t.value}` : ''}); give each option once`);
        return 2;
      }
      seen.set(t.name, `${t.rawName}${t.value !== undefined ? ` ${t.value}` : ''}`);
    }
  } catch (e) {
    io.err(`pyxis-gen ${kind}: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values['help']) {
    io.out(USAGE);
    return 0;
  }
  // `--out ''` is not "the current directory" (resolve('') would be): a script's empty variable must not scatter files
  const outDir = typeof values['out'] === 'string' && values['out'].trim() !== '' ? resolve(values['out']) : undefined;
  if (!outDir) {
    io.err(`pyxis-gen ${kind}: --out DIR is required${values['out'] !== undefined ? ' (got an empty path)' : ''}`);
    return 2;
  }
  // run options are checked before anything is generated or written
  let maxCycles: number | undefined;
  if (values['max-cycles'] !== undefined) {
    maxCycles = Number(values['max-cycles']);
    if (!(typeof values['max-cycles'] === 'string' && /^\d+$/.test(values['max-cycles'].trim()) && Number.isSafeInteger(maxCycles) && maxCycles > 0)) {
      io.err(`pyxis-gen ${kind}: --max-cycles must be an integer 1..${Number.MAX_SAFE_INTEGER} (got "${String(values['max-cycles'])}")`);
      return 2;
    }
  }
  if (!values['run'] && (values['timing-only'] || maxCycles !== undefined)) {
    io.err(`pyxis-gen ${kind}: --timing-only and --max-cycles go with --run (they set up the simulation)`);
    return 2;
  }
  let k: GenKernel | undefined;
  try {
    k = spec.make(values);
  } catch (e) {
    return failed(kind, e, io);
  }
  let files: string[];
  try {
    files = writeKernel(k, outDir, io);
  } catch (e) {
    const fsErr = e as NodeJS.ErrnoException;
    if (typeof fsErr.code === 'string' && typeof fsErr.syscall === 'string') {
      io.err(`pyxis-gen ${kind}: cannot write the kernel to ${outDir}: ${fsErr.message} (nothing written)`);
      return 1;
    }
    return failed(kind, e, io);
  }
  // --json: stdout holds the one JSON object and nothing else; the text a person reads goes to stderr
  const json = !!values['json'];
  const text = json ? io.err : io.out;
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
      return done(r.ok ? 0 : 1);
    }
    return done(0);
  } catch (e) {
    if (e instanceof DiagnosticError) {
      // the generated program was rejected by the assembler or the linker: a generator defect, not the user's input
      io.err(`pyxis-gen ${kind}: internal error: the tools rejected the generated program (a generator defect, please report it): ${e.message}`);
      return 3;
    }
    return failed(kind, e, io);
  }
}

/** A generator's error: GENxxxx (exit 1, or 2 for usage), else an internal error (exit 3). */
function failed(kind: string, e: unknown, io: Pick<CliIo, 'err'>): number {
  if (e instanceof GenError) {
    io.err(`pyxis-gen ${kind}: error ${e.message}`);
    return e.exitCode;
  }
  io.err(`pyxis-gen ${kind}: internal error: ${(e as Error).stack ?? String(e)}`);
  return 3;
}
