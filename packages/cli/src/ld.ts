import { DiagnosticError, UsageError, binaryMessage, binaryTextProblem, error } from '@pyxis/diagnostics';
import { MAGIC, checkNotRead, checkOutputPaths, readContainer, readContainerFile, readContainerInput, readInputHead, readInputText, startsWithContainerMagic, writeContainerFile, writeFileAtomic } from '@pyxis/container';
import { missingPart, targetForSourceFile } from '@pyxis/target';
import { runTool, services, type ToolIO } from './tool.js';
import { addTargetOption, addTargetOptions, chooseTargetName, containerTargetOf, resolveTarget } from './targetOptions.js';

interface LdOptions {
  output?: string;
  map?: string;
  mapJson?: string;
  target?: string;
}

const OBJECT_EXT = '.pobj';

/** pyxis-ld: the linker driver. The layout lives in the target's linker back end. */
export function runLd(argv: string[], io?: ToolIO): Promise<number> {
  return runTool('pyxis-ld', 'linker: objects + tensors + link script -> loadable .pimg image', (program, ctx) => {
    program
      .argument('[inputs...]', 'one link script (.ld) and any number of objects (.pobj)')
      .option('-o, --output <file>', 'output image (default: <script>.pimg; a system description SYSTEM.json: SYSTEM.psys)')
      .option('--map <file>', 'write a GNU-ld-style text map (`-` = stdout)')
      .option('--map-json <file>', 'write the map as JSON (`-` = stdout)');
    addTargetOption(program);
    addTargetOptions(program, 'ld');
    program.action(async (inputs: string[], opts: LdOptions) => {
      const c = ctx();
      const isObject = (f: string) => f.toLowerCase().endsWith(OBJECT_EXT);
      const scripts = inputs.filter((f) => !isObject(f));
      const objs = inputs.filter(isObject);
      if (scripts.length !== 1) throw new UsageError(scripts.length ? `expected one link script and objects ending in .pobj, got ${scripts.length} non-.pobj inputs: ${scripts.join(', ')}` : 'no link script given');
      const scriptFile = scripts[0]!;
      if (opts.map === '-' && opts.mapJson === '-') throw new UsageError('--map - and --map-json - would both print on stdout; give one of them a file');
      if (opts.output === '-') throw new UsageError('-o - (stdout) is only for text outputs (--map -, --map-json -), not the binary image');
      let out = opts.output ?? scriptFile.replace(/\.[^./\\]*$/, '') + '.pimg';
      // a container given where the link script goes (an image, a system, an object without .pobj): say so, instead
      // of lexing its bytes as a script; before the output check: `pyxis-ld chip.pimg` defaults its output to chip.pimg
      const head = readInputHead(scriptFile, 8).head;
      if (startsWithContainerMagic(head)) {
        const isImage = [...MAGIC.pimg].every((ch, i) => head[i] === ch.charCodeAt(0));
        throw new UsageError(
          isImage
            ? `${scriptFile} is a linked image (.pimg / .psys), not a link script: pyxis-ld links one link script (or a system description .json) with .pobj objects; run the image with \`pyxis-sim run ${scriptFile}\``
            : `${scriptFile} is an object container: give objects with the .pobj extension, together with one link script`,
        );
      }
      // Every destination is checked before linking: a bad --map path costs no link and leaves no stray image.
      checkOutputPaths([out, opts.map, opts.mapJson], [scriptFile, ...objs]);
      const objectBytes = objs.map((file) => ({ file, bytes: readContainerInput(file) }));
      // The target: --target, else the objects' container headers or an extension a target claims (`.tmodel`), else the default.
      const name = chooseTargetName(opts.target, [...objs, scriptFile], (f) => { const o = objectBytes.find((x) => x.file === f); return o ? containerTargetOf(o.bytes) : undefined; });
      const { target, options } = await resolveTarget(name, 'ld', program);
      if (!target.linker) throw missingPart(target, 'linker');
      const ext = opts.output === undefined ? target.linker.defaultOutputExtension?.(scriptFile) : undefined;
      if (ext) {
        out = scriptFile.replace(/\.[^./\\]*$/, '') + ext;
        checkOutputPaths([out], [scriptFile, ...objs]);
      }
      // an assembly source given as the link script: name the tool that makes the object
      if (targetForSourceFile(scriptFile) !== undefined && !target.linker.scriptExtensions.some((x) => scriptFile.toLowerCase().endsWith(x.toLowerCase())))
        throw new UsageError(`${scriptFile} is an assembly source: assemble it with \`pyxis-as ${scriptFile} -o OBJ.pobj\`, then link the object with a link script (${target.linker.scriptExtensions.join(', ')})`);
      const text = readInputText(scriptFile);
      // a binary file given as the script (LD0005, every target): named once, not lexed into "unexpected characters"
      const bin = binaryTextProblem(text);
      if (bin) throw new DiagnosticError(error('LD0005', binaryMessage(scriptFile, bin, `a link script (${target.linker.scriptExtensions.join(', ')})`), { span: { file: scriptFile, offset: bin.offset } }));
      c.sources.add(scriptFile, text);
      const objects = objectBytes.map(({ file, bytes }) => ({ file, container: readContainer(bytes, file) }));
      const result = target.linker.link({ script: text, scriptFile, objects, readObject: (p) => readContainerFile(p), options, services: services(c) });
      if (result.diagnostics.length) c.report(result.diagnostics);
      // files the script or a manifest named were read during the link: none may be replaced (IO0003)
      checkNotRead([out, opts.map, opts.mapJson]);
      writeContainerFile(out, result.image);
      const emit = (file: string | undefined, make: () => string) => {
        if (!file) return;
        const text = make();
        if (file === '-') c.out(text);
        else writeFileAtomic(file, text);
      };
      emit(opts.map, result.mapText);
      emit(opts.mapJson, result.mapJson);
      c.log.info({ output: out, target: target.name }, 'linked');
    });
  }, argv, io);
}
