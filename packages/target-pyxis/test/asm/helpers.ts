import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assemble, loadPyxisIsa, programsFromContainer, type DecodedProgram } from '@pyxis/target-pyxis/asm';

export const isa = loadPyxisIsa();
export const samplesDir = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));

export function sample(name: string): string {
  return readFileSync(samplesDir + name, 'utf8');
}

/** Assembles text and returns its programs decoded back through the tables, by name. */
export function programs(text: string, file = 'test.pasm'): Map<string, DecodedProgram> {
  const r = assemble({ file, text }, { isa });
  const m = new Map<string, DecodedProgram>();
  for (const p of programsFromContainer(r.object, isa)) m.set(p.name, p);
  return m;
}
