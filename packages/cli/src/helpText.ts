/**
 * What `--help` prints after the options of each command: examples, exit codes and where the documentation
 * is (as `git` and `cargo` do), and the help width: the terminal's, else $COLUMNS, else 80, with option
 * descriptions wrapped even beside long option names.
 */
import type { Command } from 'commander';

type Examples = ReadonlyArray<readonly [command: string, what: string]>;

const EXAMPLES: Record<string, Examples> = {
  'pyxis-as': [
    ['pyxis-as prog.pasm', 'assemble into prog.pobj'],
    ['pyxis-as prog.pasm -o out.pobj --listing -', 'choose the object, print a listing'],
    ['pyxis-as a.pasm b.pasm -I include/ -o ab.pobj', 'several sources, an include directory'],
    ['pyxis-as prog.pasm --emit ir', "another output kind of the source's target"],
    ['pyxis-as --disassemble prog.pobj', 'an object back to source'],
    ['pyxis-as inspect prog.pobj', 'sections, symbols, relocations, metadata'],
  ],
  'pyxis-ld': [
    ['pyxis-ld prog.ld prog.pobj', 'link into prog.pimg'],
    ['pyxis-ld prog.ld a.pobj b.pobj -o out.pimg --map -', 'choose the image, print the map'],
    ['pyxis-ld prog.ld prog.pobj --map-json map.json', 'the map as JSON'],
    ['pyxis-ld inspect out.pimg --json', 'an image as JSON'],
  ],
  'pyxis-sim': [
    ['pyxis-sim run prog.pimg', 'simulate; summary on stdout'],
    ['pyxis-sim run prog.pimg --stats - > stats.json', 'statistics on stdout (summary on stderr)'],
    ['pyxis-sim run prog.pimg --trace t.json --vcd w.vcd', 'a Perfetto trace and a waveform'],
    ['pyxis-sim run prog.pimg --dump out=out.npy', 'a tensor after the run'],
    ['pyxis-sim inspect data.npy --data', 'a tensor file, values included'],
  ],
  'pyxis-sim run': [
    ['pyxis-sim run prog.pimg', 'simulate; summary on stdout'],
    ['pyxis-sim run prog.pimg --max-cycles 100000', 'stop a runaway program (exit 1, wait graph)'],
    ['pyxis-sim run prog.pimg --stats - > stats.json', 'statistics on stdout (summary on stderr)'],
    ['pyxis-sim run prog.pimg --trace - | gzip > t.json.gz', 'any one of --trace/--vcd/--stats may be -'],
    ['pyxis-sim run prog.pimg --dump out:f32=out.npy', 'a tensor decoded to float32 after the run'],
    ['pyxis-sim run prog.pimg --set KEY=VALUE', 'another machine parameter value (pyxis-sim params lists the keys)'],
  ],
  'pyxis-sim sweep': [
    ['pyxis-sim sweep samples/sweeps/hotbank.json -o out/hb', 'every input x parameter point: out/hb.csv, out/hb.jsonl'],
    ['pyxis-sim sweep s.json --queue redis://host:6379', 'the runs as BullMQ jobs; pyxis-sim worker runs them'],
  ],
  'pyxis-sim params': [
    ['pyxis-sim params --target NAME', "a target's machine parameters: key, default, range, unit, spec"],
  ],
  inspect: [
    ['inspect prog.pobj', 'a container: sections, symbols, relocations, metadata'],
    ['inspect prog.pimg --json --data', 'as JSON, with section contents'],
    ['inspect data.npy', 'a .npy or .safetensors tensor file'],
  ],
};

const DOCS: Record<string, string> = {
  'pyxis-as': 'docs/assembler.md',
  'pyxis-ld': 'docs/linker.md',
  'pyxis-sim': 'docs/simulator.md',
  'pyxis-sim sweep': 'docs/sweeps.md',
  'pyxis-sim worker': 'docs/sweeps.md',
  'pyxis-sim params': 'docs/sweeps.md, docs/isa/<target>/parameters.md',
  inspect: 'docs/container-format.md, docs/tensor-files.md',
};

const EXIT_CODES = 'Exit codes: 0 success; 1 bad input (diagnostics on stderr, no output file written); 2 usage error; 3 internal error (a bug: please report it).';

/** The width help is laid out for: the terminal's, else $COLUMNS, else 80. */
export function helpWidth(stream: NodeJS.WriteStream = process.stdout): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const c = Number(process.env['COLUMNS']);
  return Number.isInteger(c) && c >= 40 ? c : 80;
}

/** Greedy word wrap of one paragraph to `width`, continuation lines indented by `indent`. */
export function wrap(text: string, width: number, indent = 0): string {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/)) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = ' '.repeat(indent) + w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** The text after the options of `cmd` (`tool` = the program's name). */
export function helpAfter(tool: string, cmd: Command): string {
  const key = cmd.parent ? (cmd.name() === 'inspect' ? 'inspect' : `${tool} ${cmd.name()}`) : tool;
  const width = helpWidth();
  const examples = (EXAMPLES[key] ?? []).map(([c, w]) => [key === 'inspect' ? `${tool} ${c}` : c, w] as const);
  const out: string[] = [];
  if (examples.length) {
    out.push('Examples:');
    const col = Math.min(Math.max(...examples.map(([c]) => c.length)) + 2, Math.floor(width / 2));
    const pad = ' '.repeat(col + 2);
    const desc = (w: string) => wrap(w, Math.max(20, width - col - 2)).replace(/\n/g, `\n${pad}`);
    for (const [c, w] of examples) {
      if (c.length + 2 > col) out.push(`  ${c}`, pad + desc(w));
      else out.push(`  ${c.padEnd(col)}${desc(w)}`);
    }
    out.push('');
  }
  out.push(wrap(EXIT_CODES, width, 2));
  const docs = DOCS[key] ?? DOCS[tool];
  if (docs) out.push(wrap(`Documentation: ${docs} (docs/README.md lists every page).`, width, 2));
  return '\n' + out.join('\n');
}

/** Help layout and the text after the options, for a program and its sub-commands. */
export function configureHelp(tool: string, program: Command): void {
  for (const cmd of [program, ...program.commands]) {
    // Wrap descriptions even when long option names leave little room beside them (commander's default: 40).
    cmd.configureHelp({ minWidthToWrap: 24 });
    if (cmd.name() !== 'help') cmd.addHelpText('after', () => helpAfter(tool, cmd));
  }
}
