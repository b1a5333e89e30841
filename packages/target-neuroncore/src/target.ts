/**
 * The NeuronCore-v2 target behind the `Target` contract: assembler (assemble.ts), linker
 * (link.ts), machine (run.ts, wrapped in machine-part.ts, which `pyxis-sim` loads alone)
 * and the options only this target has (`--timing-only`, `--dump`, `--warn-uninit`).
 */
import { DiagnosticError, error } from '@pyxis/diagnostics';
import type { Container } from '@pyxis/container';
import type { Target } from '@pyxis/target';
import { ncOptions } from './entry.js';
import { assembleNc, ProgramError, programOf } from './assemble.js';
import { linkNc } from './link.js';
import { checkNcMetadata } from './validate.js';
import { disassembleNc } from './disasm.js';
import { sourceNc } from './source.js';
import { ncDocs, ncInspect } from './docs.js';
import { ncMachine, ncMeta } from './machine-part.js';

export const neuroncoreTarget: Target = {
  ...ncMeta,
  assembler: {
    sourceExtensions: ['.ncasm'],
    inputKinds: ['ncasm'],
    options: ncOptions.as,
    assemble(req) {
      const r = assembleNc(req.inputs, req.services.sources);
      // Errors are thrown (the driver then writes nothing and exits 1), warnings returned.
      if (r.diagnostics.some((d) => d.severity === 'error')) throw new DiagnosticError(r.diagnostics);
      req.services.log.info({ instructions: r.program.insns.length, tensors: r.program.tensors.length }, 'assembled');
      return { diagnostics: r.diagnostics, object: r.object, ...(req.listing ? { listing: disassembleNc(r.program) } : {}) };
    },
    disassemble: (object: Container, file: string) => {
      checkNcMetadata(object, file);
      try {
        return sourceNc(programOf(object, file));
      } catch (e) {
        if (e instanceof ProgramError) throw new DiagnosticError(error('NC0703', e.message));
        throw e;
      }
    },
  },
  linker: {
    scriptExtensions: ['.ld'],
    options: ncOptions.ld,
    link(req) {
      const r = linkNc(req.script, req.scriptFile, req.objects, req.readObject);
      const text = () => ['HBM tensors (address, bytes, dtype, shape, initial contents):', ...r.map.tensors.map((t) => `  0x${t.address.toString(16).padStart(10, '0')} ${String(t.bytes).padStart(11)} ${t.dtype.padEnd(8)} [${t.shape.join(', ')}] ${t.name}: ${t.init}`)].join('\n') + '\n';
      return { image: r.image, diagnostics: r.diagnostics, mapText: text, mapJson: () => JSON.stringify(r.map, null, 2) + '\n' };
    },
  },
  machine: ncMachine,
  inspect: ncInspect,
  docs: ncDocs,
};
