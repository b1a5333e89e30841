/** `pyxis-gen --run`: assemble, link and simulate a written kernel in-process; figures and the float64 check. */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { assemble, loadPyxisIsa } from '../asm/index.js';
import { link } from '../ld/index.js';
import { dumpSymbol, makeUieFactory, simulateImage } from '../sim/index.js';
import { chipFigures, formatFigures, type ChipFigures } from './figures.js';
import type { GenKernel } from './kernel.js';
import { runJson, type RunJson } from './jsonReport.js';
import { splitFlops } from './precision.js';
import { formatStages, stageFigures } from './stages.js';

/** The cycle limit of `--run` without --max-cycles: far above any generated kernel's run, short of an endless one. */
export const DEFAULT_MAX_CYCLES = 50_000_000;

export interface KernelRun {
  ok: boolean;
  lines: string[];
  figures: ChipFigures;
  hostSeconds: number;
  error?: { max: number; rms: number; bound: number; what: string; rmsBound?: number };
  /** The same figures for `--json` (gen/jsonReport.ts). */
  json: RunJson;
}

export function runKernelFiles(k: GenKernel, dir: string, opts: { timingOnly?: boolean; maxCycles?: number }): KernelRun {
  const lines: string[] = [];
  // which FLOPs run at which rate: read from the program before it runs (a generator defect throws: exit 3)
  const split = splitFlops(k);
  const t0 = performance.now();
  const obj = assemble([{ file: join(dir, `${k.name}.pasm`), text: k.pasm }], { isa: loadPyxisIsa(), listing: false }).object;
  const linked = link({ script: k.ld, scriptFile: join(dir, `${k.name}.ld`), objects: [{ file: `${k.name}.pobj`, container: obj }] });
  const t1 = performance.now();
  for (const d of linked.diagnostics) lines.push(`link warning ${d.code}: ${d.message}`);
  const res = simulateImage(linked.image, `${k.name}.pimg`, { uieFactory: makeUieFactory({ timingOnly: opts.timingOnly ?? false }), maxCycles: opts.maxCycles ?? DEFAULT_MAX_CYCLES });
  const t2 = performance.now();
  const r = res.report;
  lines.push(`simulation: ${r.stop} (${r.clusters} cluster(s) x ${r.uies} UIE(s), ${r.trips_total} trips); host time: assemble + link ${((t1 - t0) / 1e3).toFixed(2)} s, simulate ${((t2 - t1) / 1e3).toFixed(2)} s${opts.timingOnly ? ' (--timing-only)' : ' (bit-exact)'}`);
  const f = chipFigures(r, split, k.meta.dtype);
  if (r.stop !== 'done') lines.push(`the simulation stopped (${r.stop === 'max-cycles' ? `the cycle limit ${opts.maxCycles ?? DEFAULT_MAX_CYCLES} reached${opts.maxCycles === undefined ? ' (default; --max-cycles N)' : ''}` : r.stop}) with ${r.trips_total} trips retired, before the kernel finished: the figures cover the cycles run, no error check (exit 1)`);
  lines.push(...formatFigures(f));
  const stages = k.stages ? stageFigures(r, split) : null;
  if (stages) lines.push(...formatStages(stages));
  const extra = k.reportLines ? k.reportLines(r) : [];
  lines.push(...extra);
  let ok = r.stop === 'done' && linked.diagnostics.length === 0;
  let error: KernelRun['error'];
  let pass = false;
  if (k.check && !opts.timingOnly && r.stop === 'done') {
    const e = k.check((s) => dumpSymbol(res.chip, linked.image, s, true).data as Float32Array);
    error = e;
    pass = e.max <= e.bound && (e.rmsBound === undefined || e.rms <= e.rmsBound);
    ok &&= pass;
    lines.push(`error vs float64: max ${e.max.toExponential(3)} (bound ${e.bound}; ${e.what}), RMS relative ${e.rms.toExponential(3)}${e.rmsBound !== undefined ? ` (bound ${e.rmsBound})` : ''}: ${pass ? 'ok' : 'ABOVE THE BOUND'}`);
  } else if (opts.timingOnly) lines.push('error vs float64: not computed (--timing-only skips the arithmetic)');
  else if (!k.check && k.uncheckedWhy && r.stop === 'done') lines.push(`error vs float64: not checked by --run (${k.uncheckedWhy})`);
  const json = runJson(r, f, {
    timingOnly: opts.timingOnly ?? false,
    maxCycles: opts.maxCycles ?? DEFAULT_MAX_CYCLES,
    dtype: k.meta.dtype,
    stages,
    error,
    pass,
    uncheckedWhy: k.uncheckedWhy,
    linkWarnings: linked.diagnostics.map((d) => `${d.code}: ${d.message}`),
    reportLines: extra,
    hostAssembleLink: (t1 - t0) / 1e3,
    hostSimulate: (t2 - t1) / 1e3,
    ok,
  });
  return { ok, lines, figures: f, hostSeconds: (t2 - t0) / 1e3, error, json };
}
