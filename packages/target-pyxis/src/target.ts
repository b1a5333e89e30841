/**
 * The Pyxis chip behind the `Target` contract, every part at once (tests,
 * docs generation). The tools load only the part they run through the
 * registry entry (entry.ts): `pyxis-sim` never loads the assembler.
 */
import type { Target } from '@pyxis/target';
import { pyxisMeta } from './entry.js';
import { pyxisAssembler } from './assembler.js';
import { pyxisLinker } from './linker.js';
import { pyxisMachine } from './machine.js';
import { pyxisInspect } from './inspect-hooks.js';

export const pyxisTarget: Target = {
  ...pyxisMeta,
  assembler: pyxisAssembler,
  linker: pyxisLinker,
  machine: pyxisMachine,
  inspect: pyxisInspect,
};
