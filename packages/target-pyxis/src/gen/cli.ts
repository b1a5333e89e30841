/**
 * `pyxis-gen` (scripts/pyxis-gen.mjs): write a generated kernel (.pasm, .ld, seeded .npy inputs, VPU LUTs) to a
 * directory and, with --run, assemble, link, simulate it in-process and print the chip-level figures and the error
 * against float64 (docs/generators.md). Exit codes: 0 ok, 1 bad parameter (GENxxxx), 2 usage, 3 internal.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeNpyFile } from '@pyxis/container';
import { DiagnosticError } from '@pyxis/diagnostics';
import { GenError } from './errors.js';
import { KINDS, USAGE } from './kinds.js';
import type { GenKernel } from './kernel.js';
import { runKernelFiles } from './runner.js';

export interface CliIo {
  out(s: string): void;
  err(s: string): void;
  /** Writes a VPU LUT (scripts/make-vpu-lut.mjs). */
  makeLut(fn: string, path: string): void;
}

export function writeKernel(k: GenKernel, dir: string, io: Pick<CliIo, 'makeLut'>): string[] {
  mkdirSync(dir, { recursive: true });
  const files = [`${k.name}.pasm`, `${k.name}.ld`];
  writeFileSync(join(dir, files[0]!), k.pasm);
  writeFileSync(join(dir, files[1]!), k.ld);
  for (const f of k.inputs) {
    writeNpyFile(join(dir, f.file), { dtype: 'float32', shape: f.shape, data: f.data });
    files.push(f.file);
  }
  for (const l of k.luts) {
    io.makeLut(l.fn, join(dir, l.file));
    files.push(l.file);
  }
  const meta = { ...k.meta };
  writeFileSync(join(dir, `${k.name}.json`), JSON.stringify(meta, null, 2) + '\n');
  files.push(`${k.name}.json`);
  return files;
}

export function genMain(argv: string[], io: CliIo): number {
  const kind = argv[0];
  if (!kind || kind === '--help' || kind === '-h') {
    (kind ? io.out : io.err)(USAGE);
    return kind ? 0 : 2;
  }
  const spec = KINDS[kind];
  if (!spec) {
    io.err(`pyxis-gen: unknown kernel kind "${kind}" (one of ${Object.keys(KINDS).join(', ')})\n\n${USAGE}`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv.slice(1),
      options: {
        out: { type: 'string', short: 'o' },
        run: { type: 'boolean' },
        'timing-only': { type: 'boolean' },
        'max-cycles': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(Object.entries(spec.options).map(([k, o]) => [k, { type: o.type }])),
      },
      strict: true,
    }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    io.err(`pyxis-gen ${kind}: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values['help']) {
    io.out(USAGE);
    return 0;
  }
  const outDir = typeof values['out'] === 'string' ? resolve(values['out']) : undefined;
  if (!outDir) {
    io.err(`pyxis-gen ${kind}: --out DIR is required`);
    return 2;
  }
  try {
    let k: GenKernel | undefined = spec.make(values);
    for (const n of k.notes ?? []) io.out(n);
    const files = writeKernel(k, outDir, io);
    io.out(`pyxis-gen ${kind}: wrote ${files.length} files to ${outDir}: ${files.join(', ')}`);
    io.out(`  pyxis-as ${k.name}.pasm -o ${k.name}.pobj && pyxis-ld ${k.name}.ld ${k.name}.pobj -o ${k.name}.pimg && pyxis-sim run ${k.name}.pimg`);
    if (values['run']) {
      // the input arrays are in the written files now (the linker reads them from there): keep only what the run
      // needs, so that the generator's float32 copies of the weights (~20 bytes per weight with their transposes)
      // are not held through the simulation; --timing-only has no check, so the check's model goes too
      const timingOnly = !!values['timing-only'];
      const slim: GenKernel = { name: k.name, pasm: k.pasm, ld: k.ld, meta: k.meta, inputs: [], luts: [], reportLines: k.reportLines, check: timingOnly ? undefined : k.check };
      k = undefined;
      const maxCycles = values['max-cycles'] !== undefined ? Number(values['max-cycles']) : undefined;
      if (maxCycles !== undefined && !(Number.isInteger(maxCycles) && maxCycles > 0)) {
        io.err(`pyxis-gen: --max-cycles must be a positive integer`);
        return 2;
      }
      const r = runKernelFiles(slim, outDir, { timingOnly, maxCycles });
      for (const l of r.lines) io.out(l);
      return r.ok ? 0 : 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof GenError) {
      io.err(`pyxis-gen ${kind}: error ${e.message}`);
      return e.exitCode;
    }
    if (e instanceof DiagnosticError) {
      io.err(`pyxis-gen ${kind}: ${e.message}`);
      return 1;
    }
    io.err(`pyxis-gen ${kind}: internal error: ${(e as Error).stack ?? String(e)}`);
    return 3;
  }
}

