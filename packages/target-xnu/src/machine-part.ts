/**
 * The part of the XNU target `pyxis-sim` runs: its machine, apart from
 * target.ts so that simulating loads neither the assembler nor the linker
 * (@pyxis/asm, @pyxis/ld, Chevrotain): entry.ts loads this module alone for `sim`.
 */
import { fileURLToPath } from 'node:url';
import type { MachineBackend, MachineRequest, OptionValues, Target } from '@pyxis/target';
import { xnuParamTable, xnuTimingFrom } from './grammar.js';
import { UsageError } from '@pyxis/diagnostics';
import { XNU_TARGET_NAME, XNU_TITLE, xnuOptions } from './entry.js';
import { checkDumps, dumpAllSpecs, dumpBytes, parseDumpSpec, readResults, runXnu, type DumpSpec, type XnuRunResult } from './run.js';
import type { TimingModel } from './grammar.js';
import { xnuReport } from './report.js';

/** The Target's fields every part carries. */
export const xnuMeta = {
  name: XNU_TARGET_NAME,
  title: XNU_TITLE,
  specs: ['xnu-pe-similarity-engine.md'],
  grammars: fileURLToPath(new URL('../../../grammars/xnu/', import.meta.url)),
} satisfies Partial<Target>;

function strings(o: OptionValues, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
}

function parseRun(o: OptionValues): { dumps: DumpSpec[]; dumpAll: string | undefined; timing: TimingModel } {
  const t = o['timing'] === undefined ? 'spec' : String(o['timing']);
  if (t !== 'spec' && t !== 'rtl') throw new UsageError(`--timing expects spec or rtl, got \`${t}\``);
  const all = o['dumpAll'];
  return { dumps: strings(o, 'dump').map(parseDumpSpec), dumpAll: all === undefined ? undefined : String(all), timing: t };
}

/** The --dump specs and, with --dump-all, one per job of the image. */
function allDumps(p: ReturnType<typeof parseRun>, req: MachineRequest): DumpSpec[] {
  return p.dumpAll === undefined ? p.dumps : [...p.dumps, ...dumpAllSpecs(req.image, p.dumpAll)];
}

export const xnuMachine: MachineBackend = {
  report: xnuReport,
  capabilities: { trace: true, vcd: true },
  options: xnuOptions.sim,
  checkOptions: (o) => void parseRun(o),
  parameters: xnuParamTable,
  plan(req: MachineRequest) {
    const p = parseRun(req.options);
    const dumps = allDumps(p, req);
    checkDumps(req.image, dumps);
    if (req.compare?.length) checkDumps(req.image, req.compare.map((n) => parseDumpSpec(`${n}=x.npy`)), '--compare');
    return { outputs: dumps.map((d) => d.file) };
  },
  create(req: MachineRequest) {
    const p = parseRun(req.options);
    let result: XnuRunResult | undefined;
    return {
      get kernel() {
        if (!result) throw new Error('the XNU machine builds its kernel when it runs');
        return result.kernel;
      },
      run() {
        const r = runXnu(req.image, req.file, {
          timing: p.timing,
          // this instance's parameters (the driver resolved --sim-config/--set/--clock-hz into them)
          ...(req.params
            ? { params: xnuTimingFrom(req.params), ...(req.params.sources.get('clock_hz') !== 'default' ? { clockHz: Number(req.params.values.get('clock_hz')) } : {}) }
            : req.clockHz !== undefined ? { clockHz: req.clockHz } : {}),
          ...(req.maxCycles !== undefined ? { maxCycles: req.maxCycles } : {}),
          ...(req.trace ? { trace: req.trace } : {}),
          ...(req.vcd ? { vcd: req.vcd } : {}),
          ...(req.vcdTimeUnit ? { vcdTimeUnit: req.vcdTimeUnit } : {}),
          ...(req.onProgress ? { onProgress: req.onProgress } : {}),
        });
        result = r;
        const stop =
          r.stop === 'done'
            ? undefined
            : [{ severity: 'error' as const, code: r.stop === 'max-cycles' ? 'SIM0011' : 'SIM0010', message: `run stopped at cycle ${r.cycles}: ${r.stop === 'max-cycles' ? '--max-cycles reached' : 'deadlock'}` }];
        return {
          summary: r.summary,
          stats: r.stats,
          diagnostics: r.warnings,
          ...(stop ? { stop } : {}),
          outputs: r.stop === 'done' ? allDumps(p, req).map((d) => [d.file, dumpBytes(r, d)] as [string, Uint8Array]) : [],
          readTensor: (name: string) => readResults(r, name),
          cycles: r.cycles,
        };
      },
    };
  },
};
