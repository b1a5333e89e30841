/**
 * The program section of a NeuronCore object or image, read back: what the
 * simulator needs of assemble.ts, apart from it so that `pyxis-sim` loads no
 * assembler (@pyxis/asm, Chevrotain). assemble.ts re-exports these.
 */
import type { Container } from '@pyxis/container';
import type { NcProgram } from './ir.js';

export const NC_PROGRAM_SECTION = 'nc.program';

/** The program of an object or image (validated JSON). */
export function programOf(c: Container, file: string): NcProgram {
  const s = c.sections.find((x) => x.name === NC_PROGRAM_SECTION);
  if (!s) throw new ProgramError(`\`${file}\` has no \`${NC_PROGRAM_SECTION}\` section (not a NeuronCore object or image)`);
  try {
    const text = new TextDecoder().decode(s.data);
    // Non-finite numbers travel as {"$num": "-Infinity"}; without any, parse without a reviver (several times faster).
    const p = (text.includes('"$num"') ? JSON.parse(text, (_k, v: unknown) => (v && typeof v === 'object' && '$num' in v ? Number((v as { $num: string }).$num) : v)) : JSON.parse(text)) as NcProgram;
    if (!Array.isArray(p.insns) || !Array.isArray(p.tensors) || !Array.isArray(p.semaphores)) throw new Error('shape');
    return p;
  } catch {
    throw new ProgramError(`\`${file}\`: the \`${NC_PROGRAM_SECTION}\` section is not a valid program`);
  }
}

export class ProgramError extends Error {}
