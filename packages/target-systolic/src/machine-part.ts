/**
 * The part of the systolic target `pyxis-sim` runs: its machine (and the
 * option helpers the other parts share), kept apart from target.ts so that
 * simulating loads neither the assembler (text.ts, @pyxis/asm, Chevrotain) nor
 * the linker: entry.ts loads this module alone for `sim` (start-up time).
 */
import { fileURLToPath } from 'node:url';
import { DiagnosticError, UsageError, unknownName } from '@pyxis/diagnostics';
import { makeTensor, readInputFile, readInputText, readNpyFile, writeNpy, type Tensor } from '@pyxis/container';
import { paramTree, type MachineRequest, type MachineBackend, type OptionValues, type Target } from '@pyxis/target';
import { systolicParamTable, TIMING, type TimingData } from './grammar.js';
import { parseArchText, type Arch } from './arch.js';
import { SYSTOLIC_TARGET_NAME, SYSTOLIC_TITLE, systolicOptions } from './entry.js';
import { fixedType, readFixed } from './fixed.js';
import { imageFromTModel, imageParts } from './model.js';
import { readOutput, simulate } from './run.js';
import { systolicReport } from './report.js';

/** The Target's fields every part carries. */
export const systolicMeta = {
  name: SYSTOLIC_TARGET_NAME,
  title: SYSTOLIC_TITLE,
  specs: ['systolic-fpga-hardware.md'],
  grammars: fileURLToPath(new URL('../../../grammars/systolic/', import.meta.url)),
} satisfies Partial<Target>;

function strings(o: OptionValues, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
}

export function archOption(o: OptionValues): Arch | undefined {
  const f = o['arch'];
  if (f === undefined) return undefined;
  const file = String(f);
  return parseArchText(readInputText(file), file);
}

export function parsePairs(o: OptionValues, key: string, flag: string): Array<{ name: string; file: string }> {
  const pairs = strings(o, key).map((s) => {
    const eq = s.lastIndexOf('=');
    if (eq <= 0 || eq === s.length - 1) throw new UsageError(`${flag} expects NAME=FILE.npy, got \`${s}\``);
    return { name: s.slice(0, eq), file: s.slice(eq + 1) };
  });
  // one tensor given two contents: refused, never "the later wins" (an output may go to several files)
  if (key === 'input')
    pairs.forEach((p, i) => {
      const j = pairs.findIndex((q) => q.name === p.name);
      if (j < i) throw new UsageError(`${flag} ${p.name} is given twice (${pairs[j]!.file} and ${p.file})`);
    });
  return pairs;
}

function planRun(req: MachineRequest) {
  const inputs = parsePairs(req.options, 'input', '--input');
  const outputs = parsePairs(req.options, 'output', '--output');
  const parts = imageParts(req.image, req.file);
  const arch = archOption(req.options);
  if (arch) parts.arch = arch;
  for (const i of inputs) if (!parts.inputs.some((r) => r.name === i.name)) throw unknownName('--input', 'input', i.name, 'the model', parts.inputs.map((r) => r.name));
  for (const i of outputs) if (!parts.outputs.some((r) => r.name === i.name)) throw unknownName('--output', 'output', i.name, 'the model', parts.outputs.map((r) => r.name));
  const samples = req.options['samples'] === undefined ? undefined : String(req.options['samples']);
  return { inputs, outputs, parts, samples };
}

/** An input file: `.npy`, or raw `.tdata` (fixed point of the data type, whole vectors) as an int32 tensor of raw values. */
function readTensor(file: string, arch: Arch): Tensor {
  if (!file.toLowerCase().endsWith('.tdata')) return readNpyFile(file);
  const ft = fixedType(arch.data_type);
  const bytes = readInputFile(file);
  const vbytes = arch.array_size * ft.bytes;
  if (bytes.length % vbytes)
    throw new DiagnosticError({ severity: 'error', code: 'SYS0202', message: `${file} holds ${bytes.length} bytes, not a whole number of ${vbytes}-byte vectors`, span: { file, offset: bytes.length - (bytes.length % vbytes) } });
  const data = new Int32Array(bytes.length / ft.bytes);
  readFixed(ft, bytes, 0, data, 0, data.length);
  return makeTensor('int32', [bytes.length / vbytes, arch.array_size], data);
}

export const systolicMachine: MachineBackend = {
  report: systolicReport,
  // a Perfetto trace of the decoder and units; no VCD (refused by the driver: docs/systolic.md)
  capabilities: { trace: true, vcd: false },
  imageExtensions: ['.tmodel'],
  options: systolicOptions.sim,
  checkOptions(o) {
    parsePairs(o, 'input', '--input');
    parsePairs(o, 'output', '--output');
  },
  parameters: systolicParamTable,
  loadImage(file, bytes) {
    return imageFromTModel(new TextDecoder().decode(bytes), file);
  },
  plan(req) {
    const p = planRun(req);
    for (const n of req.compare ?? [])
      if (!p.parts.outputs.some((r) => r.name === n)) throw unknownName('--compare', 'output', n, 'the model', p.parts.outputs.map((r) => r.name));
    return { outputs: [...p.outputs.map((o) => o.file), ...(p.samples ? [p.samples] : [])] };
  },
  create(req) {
    const plan = planRun(req);
    const tensors = new Map<string, Tensor>();
    for (const i of plan.inputs) tensors.set(i.name, readTensor(i.file, plan.parts.arch));
    let outcome: ReturnType<typeof simulate> | undefined;
    return {
      get kernel() {
        if (!outcome) throw new Error('the systolic machine builds its kernel when it runs');
        return outcome.kernel;
      },
      run() {
        const o = (outcome = simulate({
          parts: plan.parts, file: req.file, inputs: tensors,
          // this instance's parameters (the driver resolved --sim-config/--set/--clock-hz into them)
          ...(req.params ? { timing: paramTree<TimingData>(req.params, TIMING) } : req.clockHz !== undefined ? { clockHz: req.clockHz } : {}),
          ...(req.maxCycles !== undefined ? { maxCycles: req.maxCycles } : {}),
          ...(req.trace ? { trace: req.trace } : {}),
        }));
        const outputs: Array<[string, Uint8Array]> = [];
        if (o.stop === 'done') {
          for (const x of plan.outputs) outputs.push([x.file, writeNpy(readOutput(o.machine, plan.parts.outputs.find((r) => r.name === x.name)!))]);
          if (plan.samples) {
            outputs.push([plan.samples, o.machine.sampler.bytes()]);
          }
        }
        return {
          summary: o.summary,
          stats: o.stats,
          diagnostics: o.warnings,
          ...(o.stop !== 'done' ? { stop: [{ severity: 'error' as const, code: 'SYS0402', message: `run stopped (${o.stop}) at cycle ${o.cycles}, instruction ${o.machine.pc}`, span: { file: req.file, offset: 0 } }] } : {}),
          outputs,
          cycles: o.cycles,
          readTensor: (name: string) => {
            const ref = plan.parts.outputs.find((r) => r.name === name);
            if (!ref) throw unknownName('--compare', 'output', name, 'the model', plan.parts.outputs.map((r) => r.name));
            const t = readOutput(o.machine, ref);
            return { shape: t.shape, data: t.data as Float32Array };
          },
        };
      },
    };
  },
};
