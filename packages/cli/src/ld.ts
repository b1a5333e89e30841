import { extname } from 'node:path';
import { UsageError } from '@pyxis/diagnostics';
import { checkOutputPaths, readContainerFile, readInputText, writeContainerFile, writeFileAtomic } from '@pyxis/container';
import { DEFAULT_LIST_DESCRIPTORS, link, mapJson, mapText } from '@pyxis/ld';
import { runTool, type ToolIO } from './tool.js';

interface LdOptions {
  output?: string;
  map?: string;
  mapJson?: string;
  maxListDescriptors?: string;
}

/** pyxis-ld: the linker driver. The work lives in @pyxis/ld. */
export function runLd(argv: string[], io?: ToolIO): Promise<number> {
  return runTool('pyxis-ld', 'Pyxis linker: objects + tensors + link script -> loadable .pimg image', (program, ctx) => {
    program
      .argument('[inputs...]', 'one link script (.ld) and any number of objects (.pobj)')
      .option('-o, --output <file>', 'output image (default: <script>.pimg)')
      .option('--map <file>', 'write a GNU-ld-style text map (`-` = stdout)')
      .option('--map-json <file>', 'write the map as JSON (`-` = stdout)')
      .option('--max-list-descriptors <n>', `most descriptors per descriptor list; longer queues get several lists (default: ${DEFAULT_LIST_DESCRIPTORS})`)
      .action((inputs: string[], opts: LdOptions) => {
        const c = ctx();
        const scripts = inputs.filter((f) => extname(f) !== '.pobj');
        const objs = inputs.filter((f) => extname(f) === '.pobj');
        if (scripts.length !== 1) throw new UsageError(scripts.length ? `expected one link script and objects ending in .pobj, got ${scripts.length} non-.pobj inputs: ${scripts.join(', ')}` : 'no link script given');
        const scriptFile = scripts[0]!;
        if (opts.map === '-' && opts.mapJson === '-') throw new UsageError('--map - and --map-json - would both print on stdout; give one of them a file');
        if (opts.output === '-') throw new UsageError('-o - (stdout) is only for text outputs (--map -, --map-json -), not the binary image');
        const out = opts.output ?? scriptFile.replace(/\.[^./\\]*$/, '') + '.pimg';
        // Every destination is checked before linking: a bad --map path costs no link and leaves no stray image.
        checkOutputPaths([out, opts.map, opts.mapJson]);
        const text = readInputText(scriptFile);
        c.sources.add(scriptFile, text);
        const maxList = opts.maxListDescriptors === undefined ? undefined : Number(opts.maxListDescriptors);
        if (maxList !== undefined && (!Number.isInteger(maxList) || maxList < 1)) throw new UsageError(`--max-list-descriptors must be a positive integer, got ${opts.maxListDescriptors}`);
        const objects = objs.map((file) => ({ file, container: readContainerFile(file) }));
        const result = link({ script: text, scriptFile, objects, readObject: (p) => readContainerFile(p), ...(maxList !== undefined ? { maxListDescriptors: maxList } : {}) });
        if (result.diagnostics.length) c.report(result.diagnostics);
        writeContainerFile(out, result.image);
        const emit = (file: string | undefined, text: string) => {
          if (!file) return;
          if (file === '-') c.out(text);
          else writeFileAtomic(file, text);
        };
        emit(opts.map, mapText(result.map));
        emit(opts.mapJson, mapJson(result.map));
        for (const w of result.map.weights) c.log.info({ weights: w.name, kind: w.kind, bytes: w.bytes, ...w.report }, 'weight database');
        c.log.info({ output: out, sections: result.image.sections.length, trips: result.map.trips.length, barriers: result.map.barriers.length }, 'linked');
      });
  }, argv, io);
}
