/**
 * The Pyxis machine back end: an image -> the chip model on the shared kernel
 * (./sim); option parsing only Pyxis has (cluster and UIE counts, dumps, the
 * run-ahead quantum). It needs neither the assembler nor the linker, so
 * `pyxis-sim` never loads them (scripts/bench-startup.mjs).
 */
import { writeNpy, type OutputBytes } from '@pyxis/container';
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import type { MachineBackend, MachineRequest, OptionValues } from '@pyxis/target';
import { pyxisOptions } from './entry.js';
import { pyxisReport } from './report.js';
import { intOption, strings } from './options.js';
import { isSystemContainer } from './sim/fabric/systemImage.js';
import { planSystem, runSystemMachine, runSystemMachineAsync, stripChipPrefix } from './systemMachine.js';
import { runChipThreaded } from './sim/parallel/threadedChip.js';
import { parallelStats, parallelSummary, singlePartitionStats } from '@pyxis/sim';
import type { PyxisChip } from './sim/chip.js';
import {
  checkDumpSpecs, dumpRegion, dumpSymbol, formatSummary, inspectImage, parseDumpSpec, parseRegionSpec, simulateImage, stopDiagnostic,
  makeUieFactory, pyxisParamTable, simConfigFrom, type DumpSpec, type ImageModel, type RegionSpec, type SimulateOptions, type SimulationResult,
} from './sim/index.js';

interface PyxisRunPlan {
  /** `--timing-only`: the LLC arithmetic is skipped (the report and the stats JSON say so). */
  timingOnly: boolean;
  dumps: DumpSpec[];
  regions: RegionSpec[];
  options: SimulateOptions;
}

function parseRunOptions(o: OptionValues) {
  return {
    dumps: strings(o, 'dump').map(parseDumpSpec),
    regions: strings(o, 'dumpRegion').map(parseRegionSpec),
    clusters: intOption(o, 'clusters', '--clusters', 1, 4),
    uies: intOption(o, 'uies', '--uies', 0, 12),
    quantum: intOption(o, 'quantum', '--quantum', 1, 1 << 20),
  };
}

/** The image model of a request, read once however many times planning and running ask for it. */
const models = new WeakMap<MachineRequest, ImageModel>();
function imageOf(req: MachineRequest): ImageModel {
  let m = models.get(req);
  if (!m) models.set(req, (m = inspectImage(req.image, req.file)));
  return m;
}

function planRun(req: MachineRequest): PyxisRunPlan {
  const o = req.options;
  if (o['fabricFaults'] !== undefined) throw new UsageError(`--fabric-faults applies to systems (a .psys linked from a system description, docs/system.md); ${req.file} is a single-chip image`);
  const { dumps, regions, clusters, uies, quantum } = parseRunOptions(o);
  checkDumpSpecs(req.image, clusters ?? imageOf(req).clusters, dumps, regions);
  const so: SimulateOptions = { uieFactory: makeUieFactory({ timingOnly: !!o['timingOnly'] }) };
  if (clusters !== undefined) so.clusters = clusters;
  if (uies !== undefined) so.uies = uies;
  if (quantum !== undefined) so.quantum = quantum;
  if (req.maxCycles !== undefined) so.maxCycles = req.maxCycles;
  // the parameters of this machine instance (the driver resolved --sim-config/--set/--clock-hz into them)
  if (req.params) so.config = simConfigFrom(req.params);
  else if (req.clockHz !== undefined) so.clockHz = req.clockHz;
  if (o['warnUninit']) so.warnUninit = true;
  if (req.onProgress) so.onProgress = req.onProgress;
  if (req.trace) so.trace = req.trace;
  if (req.vcd) so.vcd = req.vcd;
  if (req.vcdTimeUnit) so.vcdTimeUnit = req.vcdTimeUnit;
  return { timingOnly: !!o['timingOnly'], dumps, regions, options: so };
}

/** The dump files of a completed run: tensors from `memory` (a chip, or a cluster-partitioned run's spans), regions from `chip`. */
function dumpOutputs(req: MachineRequest, plan: PyxisRunPlan, memory: PyxisChip, chip: PyxisChip | null): Array<[string, OutputBytes]> {
  const outputs: Array<[string, OutputBytes]> = [];
  for (const d of plan.dumps) {
    const t = dumpSymbol(memory, req.image, d.symbol, d.f32);
    // FILE.bin: the raw little-endian data (the codes, or float32 with :f32); FILE.npy: the same in an .npy
    outputs.push([d.file, d.file.toLowerCase().endsWith('.bin') ? new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength).slice() : writeNpy(t)]);
  }
  if (chip) for (const r of plan.regions) outputs.push([r.file, dumpRegion(chip, r)]);
  return outputs;
}

function runPyxis(req: MachineRequest, plan: PyxisRunPlan): { result: SimulationResult; outputs: Array<[string, OutputBytes]> } {
  // the model when planning read it; else the container (simulateImage reads it, closing the sinks on an error)
  const result = simulateImage(models.get(req) ?? req.image, req.file, plan.options);
  return { result, outputs: result.report.stop === 'done' ? dumpOutputs(req, plan, result.chip, result.chip) : [] };
}

export const pyxisMachine: MachineBackend = {
  capabilities: { trace: true, vcd: true },
  options: pyxisOptions.sim,
  checkOptions: (o) => void parseRunOptions(stripChipPrefix(o)),
  report: pyxisReport,
  parameters: pyxisParamTable,
  plan(req) {
    if (isSystemContainer(req.image)) return planSystem(req);
    const p = planRun(req);
    if (req.compare?.length)
      try {
        checkDumpSpecs(req.image, p.options.clusters ?? imageOf(req).clusters, req.compare.map((symbol) => ({ symbol, f32: true, file: '' })), [], '--compare');
      } catch (e) {
        // the same checks as --dump's, named by the option the user gave
        if (e instanceof DiagnosticError) throw new DiagnosticError(e.diagnostics.map((d) => ({ ...d, message: d.message.replace(/^--dump/, '--compare') })));
        throw e;
      }
    return { outputs: [...p.dumps.map((d) => d.file), ...p.regions.map((r) => r.file)] };
  },
  create(req) {
    if (isSystemContainer(req.image)) {
      let result: ReturnType<typeof runSystemMachine> | undefined;
      return {
        get kernel(): never {
          throw new Error('a system run has one kernel per chip (docs/system.md)');
        },
        run() {
          return (result ??= runSystemMachine(req));
        },
        async runAsync() {
          return (result ??= await runSystemMachineAsync(req));
        },
      };
    }
    const plan = planRun(req);
    let kernel: SimulationResult['chip']['sim'] | undefined;
    const single = (report: SimulationResult['report'], chip: PyxisChip, outputs: Array<[string, OutputBytes]>, parallel?: Record<string, unknown>, line = '') => {
      const stop = stopDiagnostic(report);
      return {
        summary: formatSummary(report) + line,
        stats: { ...report, ...(plan.timingOnly ? { timing_only: true } : {}), ...(parallel ? { parallel } : {}) } as Record<string, unknown>,
        diagnostics: report.warnings,
        ...(stop ? { stop: stop.diagnostics } : {}),
        outputs,
        cycles: report.cycles,
        readTensor: (name: string) => dumpSymbol(chip, req.image, name, true),
      };
    };
    return {
      // The clusters of the chip as partitions on threads when the image allows (sim/parallel/threadedChip.ts).
      async runAsync() {
        const symbols = [...new Set([...plan.dumps.map((d) => d.symbol), ...(req.compare ?? [])])];
        const r = await runChipThreaded(models.get(req) ?? req.image, req.file, { ...plan.options, timingOnly: plan.timingOnly, symbols, regions: plan.regions.length > 0, ...(req.threads !== undefined ? { threads: req.threads } : {}) });
        if (r.chip) kernel = r.chip.sim;
        const view = (r.chip ?? r.memory) as PyxisChip;
        const outputs = r.report.stop === 'done' ? dumpOutputs(req, plan, view, r.chip) : [];
        const parallel = r.parallel ? { ...parallelStats(r.parallel, req.threads), note: r.parallel.note ?? r.note } : singlePartitionStats(req.threads, r.note ?? 'one partition');
        return single(r.report, view, outputs, parallel, r.parallel ? parallelSummary(r.parallel) : '');
      },
      get kernel() {
        if (!kernel) throw new Error('the Pyxis machine builds its kernel when it runs');
        return kernel;
      },
      run() {
        const { result, outputs } = runPyxis(req, plan);
        kernel = result.chip.sim;
        return single(result.report, result.chip, outputs);
      },
    };
  },
};
