/**
 * The program section of a NeuronCore object or image, read back: what the
 * simulator needs of assemble.ts, apart from it so that `pyxis-sim` loads no
 * assembler (@pyxis/asm, Chevrotain). assemble.ts re-exports these.
 */
import type { Container } from '@pyxis/container';
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
