/**
 * The systolic accelerator behind the `Target` contract: the assembler reads
 * the readable dialect (text.ts) into an object holding the `.tprog` bytes,
 * the linker's "script" is a Tensil `.tmodel`, the simulator runs a `.tmodel`
 * directly (loadImage) or its linked `.pimg`, and `inspect` disassembles
 * `.tprog`/`.tmodel` files. The machine lives in machine-part.ts, which `pyxis-sim`
 * loads alone (entry.ts).
 */
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { FORMAT_VERSION, type Container, type InspectRecord } from '@pyxis/container';
import type { AssembleRequest, Target } from '@pyxis/target';
import { parseArch, type Arch } from './arch.js';
import { SYSTOLIC_TARGET_NAME, systolicOptions } from './entry.js';
import { decodeProgram, instructionTables, type Program } from './isa.js';
import { imageFromTModel, imageParts, parseTModel } from './model.js';
import { linkSystolic } from './ld.js';
import { archOption, systolicMachine, systolicMeta } from './machine-part.js';
import { assembleSystolic, disassembleProgram, systolicListing } from './text.js';

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

/** Each instruction of a systolic container's program with its place in the `program` section (inspect's records). */
function programRecords(c: Container): InspectRecord[] {
  const section = c.sections.findIndex((s) => s.name === 'program');
  if (c.target !== SYSTOLIC_TARGET_NAME || section < 0) return [];
  try {
    const parts = imageParts(c, 'image');
    const bytes = instructionTables(parts.arch).layout.bytes;
    const lines = disassembleProgram(decodeProgram(parts.program, parts.arch, parts.programFile ?? 'image', parts.programOffset), parts.arch, false).split('\n');
    return lines.filter((l) => l).map((l, pc) => ({ section, offset: pc * bytes, size: bytes, what: `instruction ${pc}: ${l.trim()}` }));
  } catch (e) {
    if (e instanceof DiagnosticError) return []; // describeContainer says why the program does not decode
    throw e;
  }
}

function disassembleContainer(c: Container, file: string): string {
  const parts = imageParts(c, file);
  return disassembleProgram(decodeProgram(parts.program, parts.arch, parts.programFile ?? file, parts.programOffset), parts.arch);
}

export const systolicTarget: Target = {
  ...systolicMeta,
  assembler: {
    sourceExtensions: ['.tasm'],
    inputKinds: ['tasm'],
    emitKinds: [{ name: 'tprog', ext: '.tprog', text: false, description: 'the raw Tensil program (.tprog bytes)' }],
    options: systolicOptions.as,
    assemble,
    disassemble: disassembleContainer,
    disassembleRaw(file, bytes, options) {
      if (!file.toLowerCase().endsWith('.tprog')) return undefined;
      const arch = archOption(options);
      if (!arch) throw new UsageError('a bare .tprog needs --arch FILE.tarch to be decoded (or disassemble its object)');
      return disassembleProgram(decodeProgram(bytes, arch, file), arch);
    },
  },
  linker: {
    scriptExtensions: ['.tmodel'],
    options: systolicOptions.ld,
    link: linkSystolic,
  },
  machine: systolicMachine,
  inspect: {
    options: systolicOptions.inspect,
    sniff(req) {
      const lower = req.file.toLowerCase();
      // `--json` is JSON here too (a CI step parses it): the architecture and one record per instruction
      const json = (format: string, arch: Arch, program: Program) => {
        const B = instructionTables(arch).layout.bytes;
        const lines = disassembleProgram(program, arch, false).split('\n').filter((l) => l);
        return JSON.stringify({ file: req.file, format, target: SYSTOLIC_TARGET_NAME, arch, instructions: lines.map((l, pc) => ({ pc, offset: pc * B, text: l.trim() })) }, null, 2) + '\n';
      };
      if (lower.endsWith('.tmodel')) {
        const image = imageFromTModel(new TextDecoder().decode(req.bytes), req.file, archOption(req.options));
        if (!req.json) return disassembleContainer(image, req.file);
        const parts = imageParts(image, req.file);
        return json('tmodel', parts.arch, decodeProgram(parts.program, parts.arch, parts.programFile ?? req.file, parts.programOffset));
      }
      if (lower.endsWith('.tprog')) {
        const arch = archOption(req.options);
        if (!arch) throw new UsageError('a bare .tprog needs --arch FILE.tarch to be decoded (or inspect its .tmodel)');
        const program = decodeProgram(req.bytes, arch, req.file);
        return req.json ? json('tprog', arch, program) : disassembleProgram(program, arch);
      }
      if (lower.endsWith('.tarch')) {
        const arch = parseArch(JSON.parse(new TextDecoder().decode(req.bytes)), req.file);
        return JSON.stringify(arch, null, 2) + '\n';
      }
      return undefined;
    },
    records: programRecords,
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
