/**
 * The systolic accelerator behind the `Target` contract: the assembler reads
 * the readable dialect (text.ts) into an object holding the `.tprog` bytes,
 * the linker's "script" is a Tensil `.tmodel`, the simulator runs a `.tmodel`
 * directly (loadImage) or its linked `.pimg`, and `inspect` disassembles
 * `.tprog`/`.tmodel` files.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { FORMAT_VERSION, readInputText, readNpyFile, writeNpy, type Container, type Tensor } from '@pyxis/container';
import type { AssembleRequest, MachineRequest, OptionValues, Target } from '@pyxis/target';
import { parseArch, parseArchText, type Arch } from './arch.js';
import { SYSTOLIC_TARGET_NAME, SYSTOLIC_TITLE, systolicOptions } from './entry.js';
import { decodeProgram } from './isa.js';
import { imageFromTModel, imageParts, parseTModel } from './model.js';
import { quantiseInput, readOutput, simulate } from './run.js';
import { assembleSystolic, disassembleProgram, systolicListing } from './text.js';

function strings(o: OptionValues, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
}

function archOption(o: OptionValues): Arch | undefined {
  const f = o['arch'];
  if (f === undefined) return undefined;
  const file = String(f);
  if (!existsSync(file)) throw new UsageError(`--arch: no such file ${file}`);
  return parseArchText(readInputText(file), file);
}

function parsePairs(o: OptionValues, key: string, flag: string): Array<{ name: string; file: string }> {
  return strings(o, key).map((s) => {
    const eq = s.lastIndexOf('=');
    if (eq <= 0 || eq === s.length - 1) throw new UsageError(`${flag} expects NAME=FILE.npy, got \`${s}\``);
    return { name: s.slice(0, eq), file: s.slice(eq + 1) };
  });
}

function assemble(req: AssembleRequest) {
  const arch = archOption(req.options);
  if (!arch) throw new UsageError('the systolic assembler needs --arch FILE.tarch (the instruction layout depends on it)');
  const r = assembleSystolic(req.inputs, arch, { sources: req.services.sources, includeDirs: req.includeDirs });
  // Any error: exit 1 with every diagnostic, and no object written.
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new DiagnosticError(r.diagnostics);
  const prog = r.bytes;
  const object: Container = {
    kind: 'pobj', version: FORMAT_VERSION, target: SYSTOLIC_TARGET_NAME,
    sections: [{ name: 'program', kind: 'code', space: 'program', address: 0, size: prog.length, align: 1, flags: 0, data: prog }],
    symbols: [], relocations: [],
    metadata: { producer: 'pyxis systolic assembler', arch, sources: req.inputs.map((i) => i.file) },
  };
  return {
    diagnostics: r.diagnostics,
    object,
    ...(req.listing ? { listing: systolicListing(r, req.services.sources) } : {}),
    emit(kind: string): Uint8Array | string {
      if (kind === 'tprog') return prog;
      throw new UsageError(`target systolic cannot emit \`${kind}\``);
    },
  };
}

function disassembleContainer(c: Container, file: string): string {
  const parts = imageParts(c, file);
  return disassembleProgram(decodeProgram(parts.program, parts.arch, file), parts.arch);
}

function planRun(req: MachineRequest) {
  const inputs = parsePairs(req.options, 'input', '--input');
  const outputs = parsePairs(req.options, 'output', '--output');
  const parts = imageParts(req.image, req.file);
  const arch = archOption(req.options);
  if (arch) parts.arch = arch;
  for (const i of inputs) if (!parts.inputs.some((r) => r.name === i.name)) throw new UsageError(`--input ${i.name}: the model's inputs are ${parts.inputs.map((r) => r.name).join(', ') || 'none'}`);
  for (const i of outputs) if (!parts.outputs.some((r) => r.name === i.name)) throw new UsageError(`--output ${i.name}: the model's outputs are ${parts.outputs.map((r) => r.name).join(', ') || 'none'}`);
  const samples = req.options['samples'] === undefined ? undefined : String(req.options['samples']);
  return { inputs, outputs, parts, samples };
}

export const systolicTarget: Target = {
  name: SYSTOLIC_TARGET_NAME,
  title: SYSTOLIC_TITLE,
  specs: ['systolic-fpga-hardware.md'],
  grammars: fileURLToPath(new URL('../../../grammars/systolic/', import.meta.url)),
  assembler: {
    sourceExtensions: ['.tasm'],
    inputKinds: ['tasm'],
    emitKinds: [{ name: 'tprog', ext: '.tprog', text: false, description: 'the raw Tensil program (.tprog bytes)' }],
    options: systolicOptions.as,
    assemble,
    disassemble: disassembleContainer,
  },
  linker: {
    scriptExtensions: ['.tmodel'],
    options: systolicOptions.ld,
    link(req) {
      const image = imageFromTModel(req.script, req.scriptFile, archOption(req.options));
      const parts = imageParts(image, req.scriptFile);
      for (const inp of parsePairs(req.options, 'input', '--input')) {
        const ref = parts.inputs.find((r) => r.name === inp.name);
        if (!ref) throw new UsageError(`--input ${inp.name}: the model's inputs are ${parts.inputs.map((r) => r.name).join(', ') || 'none'}`);
        const { bytes, maxError } = quantiseInput(readNpyFile(inp.file), ref, parts.arch, inp.file);
        image.sections.push({ name: `input:${ref.name}`, kind: 'data', space: 'dram0', address: ref.base, size: bytes.length, align: 1, flags: 0, data: bytes });
        req.services.log.info({ input: ref.name, file: inp.file, max_abs_quantisation_error: maxError }, 'input packed');
      }
      decodeProgram(parts.program, parts.arch, req.scriptFile); // refuse an image whose program does not decode
      const map = { model: parts.model, arch: parts.arch, sections: image.sections.map((s) => ({ name: s.name, space: s.space, address_vectors: s.address, bytes: s.size })), inputs: parts.inputs, outputs: parts.outputs };
      return {
        image,
        diagnostics: [],
        mapText: () => [`model ${map.model}`, ...map.sections.map((s) => `${s.name.padEnd(10)} ${s.space.padEnd(8)} vector ${s.address_vectors}  ${s.bytes} bytes`), ...map.inputs.map((r) => `input  ${r.name} dram0 vector ${r.base} (${r.size} vectors)`), ...map.outputs.map((r) => `output ${r.name} dram0 vector ${r.base} (${r.size} vectors)`)].join('\n') + '\n',
        mapJson: () => JSON.stringify(map, null, 2) + '\n',
      };
    },
  },
  machine: {
    options: systolicOptions.sim,
    checkOptions(o) {
      parsePairs(o, 'input', '--input');
      parsePairs(o, 'output', '--output');
    },
    loadImage(file, bytes) {
      return imageFromTModel(new TextDecoder().decode(bytes), file);
    },
    plan(req) {
      const p = planRun(req);
      return { outputs: [...p.outputs.map((o) => o.file), ...(p.samples ? [p.samples] : [])] };
    },
    create(req) {
      const plan = planRun(req);
      const tensors = new Map<string, Tensor>();
      for (const i of plan.inputs) tensors.set(i.name, readNpyFile(i.file));
      let outcome: ReturnType<typeof simulate> | undefined;
      return {
        get kernel() {
          if (!outcome) throw new Error('the systolic machine builds its kernel when it runs');
          return outcome.kernel;
        },
        run() {
          const o = (outcome = simulate({
            parts: plan.parts, file: req.file, inputs: tensors,
            ...(req.clockHz !== undefined ? { clockHz: req.clockHz } : {}),
            ...(req.maxCycles !== undefined ? { maxCycles: req.maxCycles } : {}),
            ...(req.trace ? { trace: req.trace } : {}),
          }));
          const outputs: Array<[string, Uint8Array]> = [];
          if (o.stop === 'done') {
            for (const x of plan.outputs) outputs.push([x.file, writeNpy(readOutput(o.machine, plan.parts.outputs.find((r) => r.name === x.name)!))]);
            if (plan.samples) {
              const buf = new Uint8Array(o.machine.samples.length * 8);
              const dv = new DataView(buf.buffer);
              o.machine.samples.forEach((s, k) => dv.setBigUint64(k * 8, s.word, true));
              outputs.push([plan.samples, buf]);
            }
          }
          return {
            summary: o.summary,
            stats: o.stats,
            diagnostics: o.warnings,
            ...(o.stop !== 'done' ? { stop: [{ severity: 'error' as const, code: 'SYS0402', message: `run stopped (${o.stop}) at cycle ${o.cycles}, instruction ${o.machine.pc}`, span: { file: req.file, offset: 0 } }] } : {}),
            outputs,
            cycles: o.cycles,
          };
        },
      };
    },
  },
  inspect: {
    options: systolicOptions.inspect,
    sniff(req) {
      const lower = req.file.toLowerCase();
      if (lower.endsWith('.tmodel')) {
        const image = imageFromTModel(new TextDecoder().decode(req.bytes), req.file, archOption(req.options));
        return disassembleContainer(image, req.file);
      }
      if (lower.endsWith('.tprog')) {
        const arch = archOption(req.options);
        if (!arch) throw new UsageError('a bare .tprog needs --arch FILE.tarch to be decoded (or inspect its .tmodel)');
        return disassembleProgram(decodeProgram(req.bytes, arch, req.file), arch);
      }
      if (lower.endsWith('.tarch')) {
        const arch = parseArch(JSON.parse(new TextDecoder().decode(req.bytes)), req.file);
        return JSON.stringify(arch, null, 2) + '\n';
      }
      return undefined;
    },
    hint: (_b, file) => (file.toLowerCase().endsWith('.tprog') ? 'a Tensil program: `inspect --target systolic --arch FILE.tarch FILE.tprog`' : undefined),
    describeContainer(c) {
      if (c.target !== SYSTOLIC_TARGET_NAME) return [];
      try {
        const text = disassembleContainer(c, 'image');
        return ['program:', ...text.split('\n').slice(0, 40).map((l) => `  ${l}`)];
      } catch (e) {
        if (e instanceof DiagnosticError) return [`program does not decode: ${e.message}`];
        throw e;
      }
    },
  },
};

export { parseTModel };
