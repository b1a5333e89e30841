import { Option } from 'commander';
import { DiagnosticError, UsageError, binaryMessage, binaryTextProblem, didYouMean, error } from '@pyxis/diagnostics';
import { checkIncludeDirs } from '@pyxis/asm';
import { checkOutputPaths, readContainerFile, readInputText, writeContainerFile, writeFileAtomic, readInputFile, readContainer, startsWithContainerMagic } from '@pyxis/container';
import type { Command } from 'commander';
import { missingPart, targetEntries } from '@pyxis/target';
import { firstPositional, runTool, services, type ToolContext, type ToolIO } from './tool.js';
import { addTargetOption, addTargetOptions, chooseTargetName, headerTarget, resolveTarget } from './targetOptions.js';

interface AsOptions {
  output?: string;
  listing?: string;
  emit: string;
  input?: string;
  includeDir: string[];
  disassemble?: boolean;
  target?: string;
}

/** The registered targets' source extensions, for --help (`.pasm` pyxis, `.toy` the test toy). */
function sourceExtensionsHelp(): string {
  const es = targetEntries().filter((e) => e.sourceExtensions.length);
  return es.length ? es.map((e) => `${e.sourceExtensions.join(', ')}${es.length > 1 ? ` ${e.name}` : ''}`).join('; ') : 'any extension with --target';
}

function defaultOutput(src: string, ext: string): string {
  return src.replace(/\.(ir\.json|json|[a-z0-9]+)$/i, '') + ext;
}

async function doDisassemble(file: string, output: string | undefined, explicit: string | undefined, c: ToolContext, cmd: Command): Promise<void> {
  checkOutputPaths([output], [file]);
  const bytes = readInputFile(file);
  if (!startsWithContainerMagic(bytes)) {
    // not a container: the target's own raw format (`pyxis-as disassemble p.tprog --target systolic --arch a.tarch`)
    const { target, options } = await resolveTarget(chooseTargetName(explicit, [], () => undefined), 'as', cmd);
    const text = target.assembler?.disassembleRaw?.(file, bytes, options);
    if (text === undefined) readContainer(bytes, file); // reports the bad magic (CT0001)
    writeText(output, text!, c);
    return;
  }
  const object = readContainer(bytes, file);
  const { target } = await resolveTarget(explicit ?? object.target, 'as', cmd);
  const be = target.assembler;
  if (!be?.disassemble) throw missingPart(target, 'disassembler');
  writeText(output, be.disassembleChunks ? be.disassembleChunks(object, file) : be.disassemble(object, file), c);
}

/**
 * Writes a text output that may come in chunks (a listing, a disassembly): to a file through a temporary file
 * (each chunk encoded and written as it is produced, never the whole text in memory), or to stdout (`-`).
 */
function writeText(path: string | undefined, text: string | Iterable<string>, c: ToolContext): void {
  const chunks = typeof text === 'string' ? [text] : text;
  if (path && path !== '-') {
    const enc = new TextEncoder();
    writeFileAtomic(path, (function* () {
      for (const s of chunks) yield enc.encode(s);
    })());
  } else for (const s of chunks) c.out(s);
}

/** pyxis-as: the assembler driver. The statements' meaning lives in the target's assembler back end. */
export function runAs(argv: string[], io?: ToolIO): Promise<number> {
  return runTool(
    'pyxis-as',
    'microcode assembler: sources -> .pobj objects, listings and the target\'s other outputs (--emit)',
    (program, ctx) => {
      program
        .argument('[source...]', `assembly sources (${sourceExtensionsHelp()}), other input languages with --input, or an object with --disassemble`)
        .option('-o, --output <file>', 'output file (default: the first source with .pobj, or the emit kind\'s extension; text emit kinds print to stdout; `-` = stdout for text outputs)')
        .option('--listing <file>', 'write a listing: PC, encoded words in hex, source line (`-` = stdout)')
        .addOption(new Option('--emit <kind>', 'what to produce: object, or an output kind of the target (a wrong kind is answered with the list)').default('object'))
        .addOption(new Option('--input <kind>', 'input language (default: the target\'s first; a wrong kind is answered with the list)'))
        .option('-I, --include-dir <dir>', 'extra directory searched by .include (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
        .option('--disassemble', 'disassemble a .pobj object into source');
      addTargetOption(program);
      addTargetOptions(program, 'as');
      program.action(async (sources: string[], opts: AsOptions) => {
        const c = ctx();
        if (sources.length === 0) throw new UsageError('no input files');
        if (opts.disassemble) {
          if (sources.length !== 1) throw new UsageError('--disassemble takes exactly one object');
          await doDisassemble(sources[0]!, opts.output, opts.target, c, program);
          return;
        }
        const name = chooseTargetName(opts.target, sources, headerTarget);
        const { target, options } = await resolveTarget(name, 'as', program);
        const be = target.assembler;
        if (!be) throw missingPart(target, 'assembler');
        // Without --emit, an output named with an emit kind's extension is that kind (`-o p.tprog` is a .tprog, as
        // `-o x.o` is an object for a C compiler); --emit given explicitly wins.
        const byExt = opts.emit === 'object' && opts.output && opts.output !== '-' && !opts.output.toLowerCase().endsWith('.pobj') ? be.emitKinds?.find((k) => !k.text && opts.output!.toLowerCase().endsWith(k.ext.toLowerCase())) : undefined;
        if (byExt) opts.emit = byExt.name;
        const emit = opts.emit === 'object' ? undefined : be.emitKinds?.find((k) => k.name === opts.emit);
        if (opts.emit !== 'object' && !emit)
          throw new UsageError(`--emit ${opts.emit}: target ${target.name} emits ${['object', ...(be.emitKinds ?? []).map((k) => k.name)].join(', ')}`, didYouMean(opts.emit, ['object', ...(be.emitKinds ?? []).map((k) => k.name)]).map((n) => n.replace(/^help: /, '')));
        const inputKind = opts.input ?? be.inputKinds[0]!;
        if (!be.inputKinds.includes(inputKind)) throw new UsageError(`--input ${inputKind}: target ${target.name} reads ${be.inputKinds.join(', ')}`, didYouMean(inputKind, be.inputKinds).map((n) => n.replace(/^help: /, '')));
        const textOut = emit?.text === true;
        if (opts.output === '-' && !textOut) throw new UsageError(`-o - (stdout) is only for text outputs (${['--disassemble', ...(be.emitKinds ?? []).filter((k) => k.text).map((k) => `--emit ${k.name}`)].join(', ')}), not --emit ${opts.emit}`);
        const toStdout = textOut && (!opts.output || opts.output === '-');
        if (toStdout && opts.listing === '-') throw new UsageError(`--emit ${opts.emit} and --listing - would both print on stdout; give one of them a file`);
        // Every destination is checked first: a bad path costs no assembly and leaves no other output behind.
        const mainOut = toStdout ? undefined : (opts.output ?? defaultOutput(sources[0]!, emit ? emit.ext : '.pobj'));
        checkOutputPaths([mainOut, opts.listing], sources);
        const inputs = sources.map((file) => ({ file, text: readInputText(file) }));
        // a binary file given as a source is AS0106 at its first NUL / invalid byte for every target (the shared front
        // end says so itself; a target with its own lexer would quote the bytes as "unexpected characters")
        if (inputKind === be.inputKinds[0]) {
          const bins = inputs.flatMap(({ file, text }) => {
            const bin = binaryTextProblem(text);
            return bin ? [error('AS0106', binaryMessage(file, bin, 'assembly source'), { span: { file, offset: bin.offset } })] : [];
          });
          if (bins.length) throw new DiagnosticError(bins);
        }
        // a -I directory that cannot be searched is named once (AS0110), also next to the assembly's errors
        const dirWarnings = checkIncludeDirs(opts.includeDir);
        let result: ReturnType<typeof be.assemble>;
        try {
          result = be.assemble({ inputs, inputKind, includeDirs: opts.includeDir, listing: !!opts.listing, options, services: services(c) });
        } catch (e) {
          if (e instanceof DiagnosticError && dirWarnings.length) throw new DiagnosticError([...dirWarnings, ...e.diagnostics]);
          throw e;
        }
        const diagnostics = [...dirWarnings, ...result.diagnostics];
        if (diagnostics.length) c.report(diagnostics);
        c.log.info({ target: target.name }, 'assembled');
        // `.include`d files are known only now: no output may replace one either (IO0003).
        checkOutputPaths([mainOut, opts.listing], [...sources, ...c.sources.files().filter((f) => !f.startsWith('<'))], { recheck: true });
        // Produce every output in memory first, then write: no partial outputs on error.
        const writes: Array<() => void> = [];
        if (!emit) writes.push(() => writeContainerFile(mainOut!, result.object));
        else {
          if (!result.emit) throw missingPart(target, `--emit ${emit.name} output`);
          const data = result.emit(emit.name);
          if (mainOut) writes.push(() => writeFileAtomic(mainOut, data));
          else writes.push(() => c.out(typeof data === 'string' ? data : Buffer.from(data).toString('latin1')));
        }
        if (opts.listing) {
          const l = opts.listing;
          writes.push(() => writeText(l, result.listing ?? '', c));
        }
        for (const w of writes) w();
      });
      program
        .command('disassemble')
        .description('print an object (.pobj) as assemblable source')
        .argument('<object>', 'object file')
        .option('-o, --output <file>', 'write the source to a file instead of stdout')
        // commander hands `-o` to the parent program (it defines `-o` too) unless it follows the sub-command's own options
        .action((file: string, opts: { output?: string }, cmd: { parent?: { opts(): { output?: string; target?: string } } | null }) =>
          doDisassemble(file, opts.output ?? cmd.parent?.opts().output, cmd.parent?.opts().target, ctx(), program),
        );
    },
    argv,
    io,
    (a) => {
      // a link script given to the assembler (the shared link-script form, @pyxis/ld): name the linker
      const first = firstPositional(a);
      if (first !== undefined && first.toLowerCase().endsWith('.ld'))
        throw new UsageError(`${first} is a link script: link it with \`pyxis-ld ${first} OBJ.pobj ...\` (pyxis-as assembles sources: ${sourceExtensionsHelp()})`);
    },
  );
}
