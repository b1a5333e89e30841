/**
 * The program section of a NeuronCore object or image (docs/spec-notes.md "neuroncore: object encoding"): written by
 * the assembler (programObject) and read back (programOf), apart from assemble.ts so that `pyxis-sim` loads no
 * assembler (@pyxis/asm, Chevrotain). assemble.ts re-exports these.
 */
import { FORMAT_VERSION, type Container } from '@pyxis/container';
import type { NcProgram } from './ir.js';
import { programProblem } from './validate.js';

export const NC_PROGRAM_SECTION = 'nc.program';

/** The program of an object or image: JSON validated against PROGRAM_SCHEMA and its references (validate.ts). */
export function programOf(c: Container, file: string): NcProgram {
  const s = c.sections.find((x) => x.name === NC_PROGRAM_SECTION);
  if (!s) throw new ProgramError(`\`${file}\` has no \`${NC_PROGRAM_SECTION}\` section (not a NeuronCore object or image)`);
  let problem: string | undefined;
  try {
    const text = new TextDecoder().decode(s.data);
    // Non-finite numbers travel as {"$num": "-Infinity"}; without any, parse without a reviver (several times faster).
    const p = (text.includes('"$num"') ? JSON.parse(text, (_k, v: unknown) => (v && typeof v === 'object' && '$num' in v ? Number((v as { $num: string }).$num) : v)) : JSON.parse(text)) as NcProgram;
    problem = programProblem(p);
    if (!problem) return p;
  } catch {
    // JSON that does not parse (or a reviver value that does not convert)
  }
  throw new ProgramError(`\`${file}\`: the \`${NC_PROGRAM_SECTION}\` section is not a valid program${problem ? `: ${problem}` : ''}`);
}

export class ProgramError extends Error {}

/** The `.pobj` object of an assembled program: the program as JSON in the `nc.program` section, one symbol a tensor. */
export function programObject(program: NcProgram, files: string[]): Container {
  // JSON has no infinities/NaN (an affine_select fill of -inf): they travel as {"$num": "-Infinity"}.
  // Only attribute values can be non-finite; without any, JSON.stringify runs without a replacer (several times faster).
  const nonFinite = program.insns.some((i) => {
    for (const k in i.attrs) {
      const v = i.attrs[k];
      if ((typeof v === 'number' && !Number.isFinite(v)) || (Array.isArray(v) && v.some((x) => typeof x === 'number' && !Number.isFinite(x)))) return true;
    }
    return false;
  });
  const json = nonFinite ? JSON.stringify(program, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $num: String(v) } : v)) : JSON.stringify(program);
  const data = new TextEncoder().encode(json);
  return {
    kind: 'pobj',
    version: FORMAT_VERSION,
    target: 'neuroncore',
    sections: [{ name: NC_PROGRAM_SECTION, kind: 'meta', space: 'none', address: 0, size: data.length, align: 8, flags: 0, data }],
    symbols: program.tensors.map((t) => ({
      name: t.name,
      kind: 'tensor' as const,
      section: -1,
      offset: t.offset,
      size: t.bytes,
      global: true,
      tensor: { shape: t.shape, format: t.dtype, eb: 0 },
    })),
    relocations: [],
    metadata: { producer: 'pyxis-as --target neuroncore', sources: files, instructions: program.insns.length },
  };
}
