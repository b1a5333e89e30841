import { Option } from 'commander';
import { UsageError } from '@pyxis/diagnostics';
import { checkOutputPaths, readContainerFile, readInputText, writeContainerFile, writeFileAtomic } from '@pyxis/container';
import {
  assemble,
  assembleIr,
  disassemble,
  emitIr,
  irToText,
  loadPyxisIsa,
  programsFromContainer,
  programsPatchBlob,
  vpuProgramsFromContainer,
  type AssembleResult,
} from '@pyxis/asm';
import { runTool, type ToolContext, type ToolIO } from './tool.js';

interface AsOptions {
  output?: string;
  listing?: string;
  emit: 'object' | 'patch-blob' | 'ir';
  input: 'pasm' | 'ir';
  includeDir: string[];
  disassemble?: boolean;
}

function defaultOutput(src: string, ext: string): string {
  return src.replace(/\.(pasm|json|ir\.json)$/i, '') + ext;
}

function doDisassemble(file: string, output: string | undefined, c: ToolContext): void {
  checkOutputPaths([output]);
  const text = disassemble(readContainerFile(file), { file });
  if (output && output !== '-') writeFileAtomic(output, text);
  else c.out(text);
}

/** pyxis-as: the assembler driver. The work lives in @pyxis/asm. */
export function runAs(argv: string[], io?: ToolIO): Promise<number> {
  return runTool(
    'pyxis-as',
    'Pyxis microcode assembler: .pasm source -> .pobj objects, listings, patch blobs, IR',
    (program, ctx) => {
      program
        .argument('[source...]', 'assembly sources (.pasm), or IR (.json) with --input ir, or an object with --disassemble')
        .option('-o, --output <file>', 'output file (default: the first source with .pobj, or .blob for --emit patch-blob; --emit ir prints to stdout; `-` = stdout for text outputs)')
        .option('--listing <file>', 'write a listing: PC, encoded words in hex, source line (`-` = stdout)')
        .addOption(new Option('--emit <kind>', 'what to produce').choices(['object', 'patch-blob', 'ir']).default('object'))
        .addOption(new Option('--input <kind>', 'input language').choices(['pasm', 'ir']).default('pasm'))
        .option('-I, --include-dir <dir>', 'extra directory searched by .include (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
        .option('--disassemble', 'disassemble a .pobj object into .pasm source')
        .action((sources: string[], opts: AsOptions) => {
          const c = ctx();
          if (sources.length === 0) throw new UsageError('no input files');
          if (opts.output === '-' && opts.emit !== 'ir' && !opts.disassemble) throw new UsageError(`-o - (stdout) is only for text outputs (--emit ir, --disassemble), not --emit ${opts.emit}`);
          const irToStdout = opts.emit === 'ir' && (!opts.output || opts.output === '-');
          if (irToStdout && opts.listing === '-') throw new UsageError('--emit ir and --listing - would both print on stdout; give one of them a file');
          if (opts.disassemble) {
            if (sources.length !== 1) throw new UsageError('--disassemble takes exactly one object');
            doDisassemble(sources[0]!, opts.output, c);
            return;
          }
          // Every destination is checked first: a bad path costs no assembly and leaves no other output behind.
          const objectOut = opts.emit === 'object' ? (opts.output ?? defaultOutput(sources[0]!, '.pobj')) : opts.emit === 'patch-blob' ? (opts.output ?? defaultOutput(sources[0]!, '.blob')) : opts.output;
          checkOutputPaths([objectOut, opts.listing]);
          const isa = loadPyxisIsa();
          let result: AssembleResult;
          if (opts.input === 'ir') {
            if (sources.length !== 1) throw new UsageError('--input ir takes exactly one file');
            const text = readInputText(sources[0]!);
            result = assembleIr(text, { isa, file: sources[0]!, sources: c.sources, listing: !!opts.listing });
          } else {
            const inputs = sources.map((file) => ({ file, text: readInputText(file) }));
            result = assemble(inputs, { isa, sources: c.sources, includeDirs: opts.includeDir, listing: !!opts.listing });
          }
          if (result.diagnostics.length) c.report(result.diagnostics);
          c.log.info({ programs: result.programs.length }, 'assembled');
          // Produce every output in memory first, then write: no partial outputs on error.
          const writes: Array<() => void> = [];
          if (opts.emit === 'object') {
            writes.push(() => writeContainerFile(objectOut!, result.object));
          } else if (opts.emit === 'ir') {
            const text = irToText(emitIr(programsFromContainer(result.object, isa), isa, vpuProgramsFromContainer(result.object, isa)));
            if (opts.output && opts.output !== '-') writes.push(() => writeFileAtomic(opts.output!, text));
            else writes.push(() => c.out(text));
          } else {
            const { blob } = programsPatchBlob(result.programs, isa, result.vpuPrograms);
            writes.push(() => writeFileAtomic(objectOut!, blob));
          }
          if (opts.listing) {
            const l = opts.listing;
            writes.push(() => (l === '-' ? c.out(result.listing) : writeFileAtomic(l, result.listing)));
          }
          for (const w of writes) w();
        });
      program
        .command('disassemble')
        .description('print an object (.pobj) as assemblable .pasm source')
        .argument('<object>', 'object file')
        .option('-o, --output <file>', 'write the source to a file instead of stdout')
        // commander hands `-o` to the parent program (it defines `-o` too) unless it follows the sub-command's own options
        .action((file: string, opts: { output?: string }, cmd: { parent?: { opts(): { output?: string } } | null }) => doDisassemble(file, opts.output ?? cmd.parent?.opts().output, ctx()));
    },
    argv,
    io,
  );
}
