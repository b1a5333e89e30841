/**
 * The Pyxis chip behind the `Target` contract: the three back ends wrap the
 * libraries of ./asm, ./ld and ./sim; option parsing that only Pyxis has
 * (cluster and UIE counts, dumps, the run-ahead quantum) lives here.
 */
import { fileURLToPath } from 'node:url';
import { UsageError } from '@pyxis/diagnostics';
import { writeNpy, type Container } from '@pyxis/container';
import type { AssembleOutput, AssembleRequest, LinkRequest, MachineRequest, OptionValues, Target } from '@pyxis/target';
import { PYXIS_TARGET_NAME, PYXIS_TITLE, pyxisOptions } from './entry.js';
import { assemble, assembleIr, disassemble, emitIr, irToText, loadPyxisIsa, programsFromContainer, programsPatchBlob, vpuProgramsFromContainer, type AssembleResult } from './asm/index.js';
import { link, mapJson, mapText } from './ld/index.js';
import {
  checkDumpSpecs, dumpRegion, dumpSymbol, formatSummary, inspectImage, parseDumpSpec, parseRegionSpec, simulateImage, stopDiagnostic,
  defaultUieFactory, type DumpSpec, type RegionSpec, type SimulateOptions, type SimulationResult,
} from './sim/index.js';
import { patchBlobHint, sniffPatchBlob } from './inspect.js';

function intOption(o: OptionValues, key: string, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} expects an integer${max < Number.MAX_SAFE_INTEGER ? ` in ${min}..${max}` : ` >= ${min}`}, got \`${String(v)}\``);
  return n;
}

function strings(o: OptionValues, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
}

function assemblePyxis(req: AssembleRequest): AssembleOutput {
  const isa = loadPyxisIsa();
  let result: AssembleResult;
  if (req.inputKind === 'ir') {
    if (req.inputs.length !== 1) throw new UsageError('--input ir takes exactly one file');
    const { file, text } = req.inputs[0]!;
    result = assembleIr(text, { isa, file, sources: req.services.sources, listing: req.listing });
  } else {
    result = assemble(req.inputs, { isa, sources: req.services.sources, includeDirs: req.includeDirs, listing: req.listing });
  }
  return {
    diagnostics: result.diagnostics,
    object: result.object,
    ...(req.listing ? { listing: result.listing } : {}),
    emit(kind: string): Uint8Array | string {
      if (kind === 'ir') return irToText(emitIr(programsFromContainer(result.object, isa), isa, vpuProgramsFromContainer(result.object, isa)));
      if (kind === 'patch-blob') return programsPatchBlob(result.programs, isa, result.vpuPrograms).blob;
      throw new UsageError(`target pyxis cannot emit \`${kind}\``);
    },
  };
}

function linkPyxis(req: LinkRequest) {
  const maxList = intOption(req.options, 'maxListDescriptors', '--max-list-descriptors', 1);
  const result = link({
    script: req.script,
    scriptFile: req.scriptFile,
    objects: req.objects,
    readObject: req.readObject,
    ...(maxList !== undefined ? { maxListDescriptors: maxList } : {}),
  });
  for (const w of result.map.weights) req.services.log.info({ weights: w.name, kind: w.kind, bytes: w.bytes, ...w.report }, 'weight database');
  req.services.log.info({ sections: result.image.sections.length, trips: result.map.trips.length, barriers: result.map.barriers.length }, 'linked');
  return { image: result.image, diagnostics: result.diagnostics, mapText: () => mapText(result.map), mapJson: () => mapJson(result.map) };
}

interface PyxisRunPlan {
  dumps: DumpSpec[];
  regions: RegionSpec[];
  options: SimulateOptions;
}

function parseRunOptions(o: OptionValues) {
  return {
    dumps: strings(o, 'dump').map(parseDumpSpec),
    regions: strings(o, 'dumpRegion').map(parseRegionSpec),
    clusters: intOption(o, 'clusters', '--clusters', 1),
    uies: intOption(o, 'uies', '--uies', 0),
    quantum: intOption(o, 'quantum', '--quantum', 1, 1 << 20),
  };
}

function planRun(req: MachineRequest): PyxisRunPlan {
  const o = req.options;
  const { dumps, regions, clusters, uies, quantum } = parseRunOptions(o);
  checkDumpSpecs(req.image, clusters ?? inspectImage(req.image, req.file).clusters, dumps, regions);
  const so: SimulateOptions = { uieFactory: defaultUieFactory };
  if (clusters !== undefined) so.clusters = clusters;
  if (uies !== undefined) so.uies = uies;
  if (quantum !== undefined) so.quantum = quantum;
  if (req.maxCycles !== undefined) so.maxCycles = req.maxCycles;
  if (req.clockHz !== undefined) so.clockHz = req.clockHz;
  if (o['warnUninit']) so.warnUninit = true;
  if (req.onProgress) so.onProgress = req.onProgress;
  if (req.trace) so.trace = req.trace;
  if (req.vcd) so.vcd = req.vcd;
  return { dumps, regions, options: so };
}

function runPyxis(req: MachineRequest, plan: PyxisRunPlan): { result: SimulationResult; outputs: Array<[string, Uint8Array]> } {
  const result = simulateImage(req.image, req.file, plan.options);
  const outputs: Array<[string, Uint8Array]> = [];
  if (result.report.stop === 'done') {
    for (const d of plan.dumps) outputs.push([d.file, writeNpy(dumpSymbol(result.chip, req.image, d.symbol, d.f32))]);
    for (const r of plan.regions) outputs.push([r.file, dumpRegion(result.chip, r)]);
  }
  return { result, outputs };
}

export const pyxisTarget: Target = {
  name: PYXIS_TARGET_NAME,
  title: PYXIS_TITLE,
  specs: ['pyxis-chip-fspec.md', 'pyxis-uie-sequencers-fspec.md'],
  grammars: fileURLToPath(new URL('../../../grammars/pyxis/', import.meta.url)),
  assembler: {
    sourceExtensions: ['.pasm'],
    inputKinds: ['pasm', 'ir'],
    emitKinds: [
      { name: 'patch-blob', ext: '.blob', text: false, description: 'MPE patch blob (chip §12.6.1)' },
      { name: 'ir', ext: '.ir.json', text: true, description: 'canonical JSON IR (prints to stdout without -o)' },
    ],
    options: pyxisOptions.as,
    assemble: assemblePyxis,
    disassemble: (object: Container, file: string) => disassemble(object, { isa: loadPyxisIsa(), file }),
  },
  linker: {
    scriptExtensions: ['.ld'],
    options: pyxisOptions.ld,
    link: linkPyxis,
  },
  machine: {
    options: pyxisOptions.sim,
    checkOptions: (o) => void parseRunOptions(o),
    plan(req) {
      const p = planRun(req);
      return { outputs: [...p.dumps.map((d) => d.file), ...p.regions.map((r) => r.file)] };
    },
    create(req) {
      const plan = planRun(req);
      let kernel: SimulationResult['chip']['sim'] | undefined;
      return {
        get kernel() {
          if (!kernel) throw new Error('the Pyxis machine builds its kernel when it runs');
          return kernel;
        },
        run() {
          const { result, outputs } = runPyxis(req, plan);
          kernel = result.chip.sim;
          const { report } = result;
          const stop = stopDiagnostic(report);
          return {
            summary: formatSummary(report),
            stats: { ...report } as Record<string, unknown>,
            diagnostics: report.warnings,
            ...(stop ? { stop: stop.diagnostics } : {}),
            outputs,
            cycles: report.cycles,
          };
        },
      };
    },
  },
  inspect: {
    options: pyxisOptions.inspect,
    sniff: sniffPatchBlob,
    hint: patchBlobHint,
  },
};
