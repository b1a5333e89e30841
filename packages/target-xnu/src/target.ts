/**
 * The XNU PEx8 engine behind the `Target` contract: the back ends wrap
 * asm.ts, ld.ts and run.ts (the machine: machine-part.ts, which `pyxis-sim` loads
 * alone); nothing here computes.
 */
import type { Container } from '@pyxis/container';
import type { AssembleRequest, AssembleOutput, LinkRequest, Target } from '@pyxis/target';
import { DiagnosticError } from '@pyxis/diagnostics';
import { XNU_TARGET_NAME, xnuOptions } from './entry.js';
import { assembleXnu, disassembleXnu, jobsOf } from './asm.js';
import { linkXnu, xnuMapJson, xnuMapText } from './ld.js';
import { jobTable, jobText } from './grammar.js';
import { xnuMachine, xnuMeta } from './machine-part.js';

function assemble(req: AssembleRequest): AssembleOutput {
  const r = assembleXnu(req.inputs, { sources: req.services.sources, includeDirs: req.includeDirs, listing: req.listing });
  // Any error: exit 1 with every diagnostic, and no object written.
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new DiagnosticError(r.diagnostics);
  return { diagnostics: r.diagnostics, object: r.object, ...(req.listing ? { listing: r.listing } : {}) };
}

function link(req: LinkRequest) {
  const r = linkXnu({ script: req.script, scriptFile: req.scriptFile, objects: req.objects, readObject: req.readObject });
  req.services.log.info({ jobs: r.jobs.length }, 'linked');
  return { image: r.image, diagnostics: r.diagnostics, mapText: () => xnuMapText(r), mapJson: () => xnuMapJson(r) };
}

export const xnuTarget: Target = {
  ...xnuMeta,
  assembler: {
    sourceExtensions: ['.xasm'],
    inputKinds: ['xasm'],
    options: xnuOptions.as,
    assemble,
    disassemble: (object: Container, file: string) => disassembleXnu(object, file),
  },
  linker: { scriptExtensions: ['.ld'], options: xnuOptions.ld, link },
  machine: xnuMachine,
  inspect: {
    // each job descriptor (chip job table, grammars/xnu) at its place in its section
    records: (c: Container) => (c.target === XNU_TARGET_NAME ? jobsOf(c).map((j) => ({ section: j.section, offset: j.offset, size: jobTable().bytes, what: `xnu job ${j.name}` })) : []),
    describeContainer: (c: Container) => (c.target === XNU_TARGET_NAME ? jobsOf(c).map((j) => `xnu job ${j.name}: ${jobText(j.job)}`) : []),
  },
};
