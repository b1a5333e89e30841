/**
 * The address spaces of an XNU object or image and the jobs it holds: what
 * the simulator needs of asm.ts and ld.ts, apart from them so that `pyxis-sim`
 * loads neither (nor @pyxis/asm, @pyxis/ld, Chevrotain). asm.ts and ld.ts re-export these.
 */
import type { Container } from '@pyxis/container';
import { decodeJob, jobTable, type Job } from './grammar.js';

export const JOB_SPACE = 'xnu.ctrl';
export const LMEM_SPACE = 'xnu.lmem';
export const DDR_SPACE = 'ddr';

/** The jobs of an object or image: (program name, job, section index, offset in the section). */
export function jobsOf(c: Container): Array<{ name: string; job: Job; section: number; offset: number }> {
  const out: Array<{ name: string; job: Job; section: number; offset: number }> = [];
  for (const s of c.symbols) {
    if (s.kind !== 'program') continue;
    const sec = c.sections[s.section];
    if (!sec || sec.space !== JOB_SPACE || sec.data.length < jobTable().bytes) continue;
    out.push({ name: s.name, job: decodeJob(sec.data, s.offset), section: s.section, offset: s.offset });
  }
  return out;
}

