/**
 * A test-only target that proves the `Target` contract: a machine that is not
 * Pyxis, whose grammar folder lives in the test tree, driven through the same
 * CLI functions as the shipped targets. If adding it needed a change to a
 * shared package or a driver, the contract was not target-neutral.
 */
import { fileURLToPath } from 'node:url';
import { loadTableFrom, type CompiledTable } from '@pyxis/codec';
import type { Container } from '@pyxis/container';
import type { Target } from '@pyxis/target';
import { assembleToy, disassembleWords } from './asm.js';
import { linkToy } from './ld.js';
import { createToyMachine, LATENCY } from './machine.js';

function timingPage(insn: CompiledTable): string {
  const ops = [...insn.byName.get('opcode')!.enumNames!.values()];
  return ['# Toy machine timing', '', '| instruction | cycles |', '|---|---|', ...ops.map((o) => `| \`${o}\` | ${LATENCY[o]} |`), ''].join('\n');
}

export const TOY_GRAMMARS = fileURLToPath(new URL('./grammars/toy/', import.meta.url));

/**
 * The toy target reading its tables from `grammars` (a test passes a broken
 * copy to see the error); tables are loaded on first use, like a real target.
 */
export function makeToyTarget(grammars = TOY_GRAMMARS, name = 'toy'): Target {
  const insn = () => loadTableFrom(grammars, 'toy_insn');
  const describe = (c: Container): string[] => {
    const out: string[] = [];
    for (const s of c.sections) {
      if (s.space !== 'imem') continue;
      out.push(`Code ${s.name} (imem ${s.address}):`);
      disassembleWords(insn(), s.data).forEach((l, i) => out.push(`  ${String(s.address + i).padStart(4)}  ${l}`));
    }
    return out;
  };
  return {
    name,
    title: 'toy accumulator machine (test only)',
    specs: [],
    grammars,
    assembler: {
      sourceExtensions: ['.toy'],
      inputKinds: ['toy'],
      assemble: (req) => assembleToy(req, insn()),
      disassemble: (object) =>
        object.symbols
          .filter((s) => s.kind === 'program')
          .map((p) => `.program ${p.name} acc {\n${disassembleWords(insn(), object.sections[p.section]!.data).map((l) => `  ${l}\n`).join('')}}\n`)
          .join('\n'),
    },
    linker: {
      scriptExtensions: ['.ld'],
      link: (req) => linkToy(req, insn()),
    },
    machine: {
      options: [{ flags: '--dump-data <file.bin>', description: 'write the 256 data words (little-endian u16) after the run' }],
      plan: (req) => ({ outputs: typeof req.options['dumpData'] === 'string' ? [req.options['dumpData']] : [] }),
      create: (req) => createToyMachine(req, insn()),
    },
    inspect: { describeContainer: describe, sectionFlags: { target0: 'scratch' } },
    // The tables' pages are generic (scripts/gen-docs.mjs); the hook adds what only this target knows: its timing.
    docs: { generate: () => new Map([['timing.md', timingPage(insn())]]) },
  };
}

export const toyTarget = makeToyTarget();
