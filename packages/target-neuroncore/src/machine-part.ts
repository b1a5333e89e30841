/**
 * The part of the NeuronCore target `pyxis-sim` runs: its machine, apart from
 * target.ts so that simulating loads neither the assembler nor the linker
 * (@pyxis/asm, @pyxis/ld, Chevrotain): entry.ts loads this module alone for `sim`.
 */
import { costFrom, ncParamTable } from './isa.js';
import { DiagnosticError, UsageError, error, unknownName } from '@pyxis/diagnostics';
import { writeNpy } from '@pyxis/container';
import type { MachineBackend, MachineRequest, OptionValues, Target } from '@pyxis/target';
import { NC_TARGET_NAME, NC_TITLE, ncOptions } from './entry.js';
import { ProgramError, programOf } from './program.js';
import { MAX_SIM_HBM, checkNcMetadata, hbmProblem } from './validate.js';
import { hbmAddresses } from './run.js';
import { formatSummary, runImage, stopDiagnostics, type NcRun } from './run.js';
import { GRAMMARS, SPEC } from './isa.js';
import { dumpTensor } from './dump.js';
import { neuroncoreReport } from './report.js';

/** The Target's fields every part carries. */
export const ncMeta = {
  name: NC_TARGET_NAME,
  title: NC_TITLE,
  specs: [SPEC],
  grammars: GRAMMARS,
} satisfies Partial<Target>;

interface DumpSpec {
  tensor: string;
  file: string;
}

function dumpSpecs(o: OptionValues): DumpSpec[] {
  const v = o['dump'];
  const list = Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
  return list.map((s) => {
    const m = /^([A-Za-z_]\w*)(?::f32)?=(.+)$/.exec(s);
    if (!m) throw new UsageError(`--dump expects TENSOR=FILE.npy, got \`${s}\``);
    return { tensor: m[1]!, file: m[2]! };
  });
}

/** The image's program, after its metadata, program section and HBM layout are validated (validate.ts). */
function program(req: MachineRequest) {
  checkNcMetadata(req.image, req.file);
  let p;
  try {
    p = programOf(req.image, req.file);
  } catch (e) {
    if (e instanceof ProgramError) throw new DiagnosticError(error('NC0703', e.message));
    throw e;
  }
  const bad = hbmProblem(req.image, p, hbmAddresses(req.image, p));
  if (bad) throw new DiagnosticError(error('NC0703', `\`${req.file}\`: ${bad}`));
  const hbm = Number(req.image.metadata['hbm_bytes'] ?? 0);
  if (hbm > MAX_SIM_HBM && !req.options['timingOnly'])
    throw new DiagnosticError(error('NC0704', `\`${req.file}\` lays out ${hbm} bytes of HBM; the simulator holds at most ${MAX_SIM_HBM} bytes of HBM data (run with --timing-only for the timing alone)`));
  return p;
}

function plan(req: MachineRequest): DumpSpec[] {
  const dumps = dumpSpecs(req.options);
  checkDumps(req, dumps.map((d) => d.tensor));
  return dumps;
}

/** HBM tensors of the image that a run can dump (or compare, `--compare`): usage errors before the run. */
function checkDumps(req: MachineRequest, names: readonly string[], flag = '--dump'): void {
  const p = program(req); // validates the image even without names
  for (const name of names) {
    const t = p.tensors.find((x) => x.name === name);
    const hbm = () => p.tensors.filter((x) => x.mem === 'hbm').map((x) => x.name);
    if (!t) throw unknownName(flag, 'HBM tensor', name, 'the image', hbm());
    if (t.mem !== 'hbm') throw new UsageError(`${flag} ${name}: \`${name}\` is in ${t.mem.toUpperCase()}; only HBM tensors are dumped`, [`HBM tensors in the image: ${hbm().join(', ')}`]);
    if (req.options['timingOnly']) throw new UsageError(`${flag} needs the arithmetic: drop --timing-only`);
  }
}

export const ncMachine: MachineBackend = {
  report: neuroncoreReport,
  // a Perfetto trace of the engines and DMA queues; no VCD (refused by the driver: docs/neuroncore.md)
  capabilities: { trace: true, vcd: false },
  options: ncOptions.sim,
  checkOptions: (o) => void dumpSpecs(o),
  parameters: ncParamTable,
  plan(req) {
    const outputs = plan(req).map((d) => d.file);
    if (req.compare?.length) checkDumps(req, req.compare, '--compare');
    return { outputs };
  },
  create(req) {
    const dumps = plan(req);
    let run: NcRun | undefined;
    return {
      get kernel() {
        if (!run) throw new Error('the NeuronCore machine builds its kernel when it runs');
        return run.kernel;
      },
      run() {
        run = runImage(req.image, req.file, {
          timingOnly: !!req.options['timingOnly'],
          warnUninit: !!req.options['warnUninit'],
          ...(req.params ? { cost: costFrom(req.params) } : {}),
          ...(req.maxCycles !== undefined ? { maxTicks: req.maxCycles } : {}),
          ...(req.trace ? { trace: req.trace } : {}),
          ...(req.onProgress ? { onProgress: req.onProgress } : {}),
        });
        const r = run;
        const stop = stopDiagnostics(r.report);
        const outputs: Array<[string, Uint8Array]> = [];
        if (!stop) for (const d of dumps) outputs.push([d.file, writeNpy(dumpTensor(r, d.tensor))]);
        return {
          summary: formatSummary(r.report),
          stats: { ...r.report } as unknown as Record<string, unknown>,
          diagnostics: req.options['warnUninit'] ? r.warnings : [],
          ...(stop ? { stop } : {}),
          outputs,
          cycles: r.report.ticks,
          readTensor: (name: string) => dumpTensor(r, name),
        };
      },
    };
  },
};
