/**
 * Shared by the generator tests (test/gen/*.test.ts): write a generated kernel's inputs to a temporary directory,
 * assemble + link + simulate it in-process, read tensors back. The float64 references are written in the tests and in
 * the *.ref.ts modules (float64.ref.ts, re-exported here; transformer.ref.ts; conv.ref.ts), never taken from the
 * generator or the model: those modules import nothing from packages/<name>/src; only runKernel / linkOnly and the
 * types here do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeNpyFile } from '@pyxis/container';
import type { Diagnostic } from '@pyxis/diagnostics';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { dumpSymbol, makeUieFactory, simulateImage, type SimReport } from '@pyxis/target-pyxis/sim';
import type { GenKernel } from '../../src/gen/kernel.js';

// the float64 references, re-exported: the tests import them from here or from float64.ref.ts
export * from './float64.ref.js';

const isa = loadPyxisIsa();
const LUT_SCRIPT = fileURLToPath(new URL('../../../../scripts/make-vpu-lut.mjs', import.meta.url));

export interface GenRun {
  report: SimReport;
  warnings: Diagnostic[];
  tensor(name: string): Float32Array;
  /** The bytes the linker placed for a symbol (e.g. a weight database), from the image. */
  raw(name: string): Uint8Array;
}

/** write the kernel's inputs and LUTs to `dir`, assemble and link (the linker throws its errors as a DiagnosticError). */
function build(k: GenKernel, dir: string, luts: boolean): ReturnType<typeof link> {
  for (const f of k.inputs) writeNpyFile(join(dir, f.file), { dtype: 'float32', shape: f.shape, data: f.data });
  if (luts) for (const l of k.luts) execFileSync(process.execPath, [LUT_SCRIPT, '--fn', l.fn, '-o', join(dir, l.file)], { stdio: 'ignore' });
  const obj = assemble([{ file: `${k.name}.pasm`, text: k.pasm }], { isa, listing: false }).object;
  return link({ script: k.ld, scriptFile: join(dir, `${k.name}.ld`), objects: [{ file: `${k.name}.pobj`, container: obj }] });
}

/** assemble and link only (inputs written, no LUTs, no run): the linker's warnings. */
export function linkOnly(k: GenKernel): Diagnostic[] {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-gen-'));
  try {
    return build(k, dir, false).diagnostics;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function runKernel(k: GenKernel, opts: { timingOnly?: boolean; maxCycles?: number } = {}): GenRun {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-gen-'));
  try {
    const linked = build(k, dir, true);
    const res = simulateImage(linked.image, `${k.name}.pimg`, { uieFactory: makeUieFactory({ timingOnly: opts.timingOnly ?? false }), maxCycles: opts.maxCycles ?? 5_000_000 });
    const image = linked.image;
    return {
      report: res.report,
      warnings: linked.diagnostics,
      tensor: (name) => dumpSymbol(res.chip, image, name, true).data as Float32Array,
      raw: (name) => {
        const sym = image.symbols.find((x) => x.name === name);
        const sec = sym ? image.sections[sym.section] : undefined;
        if (!sym || !sec?.data) throw new Error(`no placed symbol ${name}`);
        return sec.data.subarray(sym.offset, sym.offset + sym.size);
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** the sum over the UIEs of a compute counter of the run's report (`exec_valid`, `macs`). */
export function computeTotal(report: SimReport, counter: 'exec_valid' | 'macs'): number {
  let n = 0;
  for (const e of report.engines) n += (e.uie?.['compute'] as Record<string, number | undefined> | undefined)?.[counter] ?? 0;
  return n;
}

/** input tensor `file` of a kernel (as written to disk). */
export function input(k: GenKernel, file: string): Float64Array {
  const f = k.inputs.find((x) => x.file === file);
  if (!f) throw new Error(`kernel ${k.name} has no input ${file}`);
  return Float64Array.from(f.data);
}
