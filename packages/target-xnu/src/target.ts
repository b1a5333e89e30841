/**
 * The XNU PEx8 engine behind the `Target` contract: the back ends wrap
 * asm.ts, ld.ts and run.ts; nothing here computes.
 */
import { fileURLToPath } from 'node:url';
import type { Container } from '@pyxis/container';
import type { AssembleRequest, AssembleOutput, LinkRequest, MachineRequest, OptionValues, Target } from '@pyxis/target';
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { XNU_TARGET_NAME, XNU_TITLE, xnuOptions } from './entry.js';
import { assembleXnu, disassembleXnu, jobsOf } from './asm.js';
import { linkXnu, xnuMapJson, xnuMapText } from './ld.js';
import { checkDumps, dumpBytes, parseDumpSpec, runXnu, type DumpSpec, type XnuRunResult } from './run.js';
import { jobText } from './grammar.js';
import type { TimingModel } from './grammar.js';

function strings(o: OptionValues, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
}

function parseRun(o: OptionValues): { dumps: DumpSpec[]; timing: TimingModel } {
  const t = o['timing'] === undefined ? 'spec' : String(o['timing']);
  if (t !== 'spec' && t !== 'rtl') throw new UsageError(`--timing expects spec or rtl, got \`${t}\``);
  return { dumps: strings(o, 'dump').map(parseDumpSpec), timing: t };
}

function assemble(req: AssembleRequest): AssembleOutput {
  const r = assembleXnu(req.inputs, { sources: req.services.sources, includeDirs: req.includeDirs, listing: req.listing });
  // Any error: exit 1 with every diagnostic, and no object written.
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new DiagnosticError(r.diagnostics);
  return { diagnostics: r.diagnostics, object: r.object, ...(req.listing ? { listing: r.listing } : {}) };
}

function link(req: LinkRequest) {
  const r = linkXnu({ script: req.script, scriptFile: req.scriptFile, objects: req.objects, readObject: req.readObject });
  req.services.log.info({ jobs: r.jobs.length }, 'linked');
  return { image: r.image, diagnostics: r.diagnostics, mapText: () => xnuMapText(r), mapJson: () => xnuMapJson(r) };
}

export const xnuTarget: Target = {
  name: XNU_TARGET_NAME,
  title: XNU_TITLE,
  specs: ['xnu-pe-similarity-engine.md'],
  grammars: fileURLToPath(new URL('../../../grammars/xnu/', import.meta.url)),
  assembler: {
    sourceExtensions: ['.xasm'],
    inputKinds: ['xasm'],
    options: xnuOptions.as,
    assemble,
    disassemble: (object: Container, file: string) => disassembleXnu(object, file),
  },
  linker: { scriptExtensions: ['.ld'], options: xnuOptions.ld, link },
  machine: {
    options: xnuOptions.sim,
    checkOptions: (o) => void parseRun(o),
    plan(req: MachineRequest) {
      const p = parseRun(req.options);
      checkDumps(req.image, p.dumps);
      return { outputs: p.dumps.map((d) => d.file) };
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
            ...(req.clockHz !== undefined ? { clockHz: req.clockHz } : {}),
            ...(req.maxCycles !== undefined ? { maxCycles: req.maxCycles } : {}),
            ...(req.trace ? { trace: req.trace } : {}),
            ...(req.vcd ? { vcd: req.vcd } : {}),
            ...(req.onProgress ? { onProgress: req.onProgress } : {}),
          });
          result = r;
          const stop =
            r.stop === 'done'
              ? undefined
              : [{ severity: 'error' as const, code: 'SIM0002', message: `run stopped at cycle ${r.cycles}: ${r.stop === 'max-cycles' ? '--max-cycles reached' : 'deadlock'}` }];
          return {
            summary: r.summary,
            stats: r.stats,
            diagnostics: r.warnings,
            ...(stop ? { stop } : {}),
            outputs: r.stop === 'done' ? p.dumps.map((d) => [d.file, dumpBytes(r, d)] as [string, Uint8Array]) : [],
            cycles: r.cycles,
          };
        },
      };
    },
  },
  inspect: {
    describeContainer: (c: Container) => (c.target === XNU_TARGET_NAME ? jobsOf(c).map((j) => `xnu job ${j.name}: ${jobText(j.job)}`) : []),
  },
};
