/** The Pyxis assembler back end: `.pasm` (or IR) -> object, listing, IR and patch-blob outputs (./asm). */
import { UsageError } from '@pyxis/diagnostics';
import type { Container } from '@pyxis/container';
import type { AssembleOutput, AssembleRequest, AssemblerBackend } from '@pyxis/target';
import { pyxisOptions } from './entry.js';
import { checkPyxisMetadata } from './common/metadata.js';
import { assemble, assembleIr, concatChunks, disassembleChunks, emitIr, irToText, loadPyxisIsa, programsFromContainer, programsPatchBlob, vpuProgramsFromContainer, type AssembleResult } from './asm/index.js';

function assemblePyxis(req: AssembleRequest): AssembleOutput {
  const isa = loadPyxisIsa();
  let result: AssembleResult;
  if (req.inputKind === 'ir') {
    if (req.inputs.length !== 1) throw new UsageError('--input ir takes exactly one file');
    const { file, text } = req.inputs[0]!;
    result = assembleIr(text, { isa, file, sources: req.services.sources, listing: false });
  } else {
    result = assemble(req.inputs, { isa, sources: req.services.sources, includeDirs: req.includeDirs, listing: false });
  }
  return {
    diagnostics: result.diagnostics,
    object: result.object,
    // the listing is streamed to its file as it is produced (never the whole text in memory)
    ...(req.listing ? { listing: result.listingChunks() } : {}),
    emit(kind: string): Uint8Array | string {
      if (kind === 'ir') return irToText(emitIr(programsFromContainer(result.object, isa), isa, vpuProgramsFromContainer(result.object, isa)));
      if (kind === 'patch-blob') return programsPatchBlob(result.programs, isa, result.vpuPrograms).blob;
      throw new UsageError(`target pyxis cannot emit \`${kind}\``);
    },
  };
}

/** The disassembly of an object in chunks (the metadata is checked first). */
function pyxisDisassembly(object: Container, file: string): Iterable<string> {
  if (object.kind === 'pobj') checkPyxisMetadata(object, file);
  return disassembleChunks(object, { isa: loadPyxisIsa(), file });
}

export const pyxisAssembler: AssemblerBackend = {
  sourceExtensions: ['.pasm'],
  inputKinds: ['pasm', 'ir'],
  emitKinds: [
    { name: 'patch-blob', ext: '.blob', text: false, description: 'MPE patch blob (chip §12.6.1)' },
    { name: 'ir', ext: '.ir.json', text: true, description: 'canonical JSON IR (prints to stdout without -o)' },
  ],
  options: pyxisOptions.as,
  assemble: assemblePyxis,
  disassemble: (object: Container, file: string) => concatChunks(pyxisDisassembly(object, file)),
  disassembleChunks: pyxisDisassembly,
};
