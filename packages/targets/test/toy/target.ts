/**
 * A test-only target that proves the `Target` contract: a machine that is not
 * Pyxis, whose grammar folder lives in the test tree, driven through the same
 * CLI functions as the shipped targets. If adding it needed a change to a
 * shared package or a driver, the contract was not target-neutral.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadTableFile, tableToMarkdown, type CompiledTable } from '@pyxis/codec';
import type { Container } from '@pyxis/container';
import type { Target } from '@pyxis/target';
import { assembleToy, disassembleWords } from './asm.js';
import { linkToy } from './ld.js';
import { createToyMachine } from './machine.js';

export const TOY_GRAMMARS = fileURLToPath(new URL('./grammars/toy/', import.meta.url));

let insnTable: CompiledTable | undefined;
/** The instruction table, read from the target's own grammar folder on first use. */
export function toyInsn(grammars = TOY_GRAMMARS): CompiledTable {
  return (insnTable ??= loadTableFile(join(grammars, 'toy_insn.json')));
}

function describe(c: Container): string[] {
  const out: string[] = [];
  for (const s of c.sections) {
    if (s.space !== 'imem') continue;
    out.push(`Code ${s.name} (imem ${s.address}):`);
    disassembleWords(toyInsn(), s.data).forEach((l, i) => out.push(`  ${String(s.address + i).padStart(4)}  ${l}`));
  }
  return out;
}

export const toyTarget: Target = {
  name: 'toy',
  title: 'toy accumulator machine (test only)',
  specs: [],
  grammars: TOY_GRAMMARS,
  assembler: {
    sourceExtensions: ['.tasm'],
    inputKinds: ['tasm'],
    assemble: (req) => assembleToy(req, toyInsn()),
    disassemble: (object) =>
      object.symbols
        .filter((s) => s.kind === 'program')
        .map((p) => `.program ${p.name} acc {\n${disassembleWords(toyInsn(), object.sections[p.section]!.data).map((l) => `  ${l}\n`).join('')}}\n`)
        .join('\n'),
  },
  linker: {
    scriptExtensions: ['.ld'],
    link: (req) => linkToy(req, toyInsn()),
  },
  machine: {
    options: [{ flags: '--dump-data <file.bin>', description: 'write the 256 data words (little-endian u16) after the run' }],
    plan: (req) => ({ outputs: typeof req.options['dumpData'] === 'string' ? [req.options['dumpData']] : [] }),
    create: (req) => createToyMachine(req, toyInsn()),
  },
  inspect: { describeContainer: describe },
  docs: { generate: () => new Map([['toy_insn.md', `# Toy ISA\n\n${tableToMarkdown(toyInsn())}`]]) },
};
