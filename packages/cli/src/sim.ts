import { UsageError } from '@pyxis/diagnostics';
import { checkOutputPaths, readContainerFile, writeFileAtomic, writeNpy } from '@pyxis/container';
import {
  checkDumpSpecs,
  FileSink,
  inspectImage,
  defaultUieFactory,
  dumpRegion,
  dumpSymbol,
  formatSummary,
  parseDumpSpec,
  parseRegionSpec,
  simulateImage,
  stopDiagnostic,
  type SimulateOptions,
} from '@pyxis/sim';
import cliProgress from 'cli-progress';
import { runTool, type ToolIO } from './tool.js';

interface RunOptions {
  clusters?: string;
  uies?: string;
  clockHz?: string;
  maxCycles?: string;
  trace?: string;
  vcd?: string;
  stats?: string;
  dump: string[];
  dumpRegion: string[];
  progress: boolean;
  warnUninit?: boolean;
  quantum?: string;
}

const collect = (v: string, prev: string[]) => [...prev, v];

function int(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${name} expects an integer >= ${min}, got \`${v}\``);
  return n;
}

/** pyxis-sim: the simulator driver. The work lives in @pyxis/sim. */
export function runSim(argv: string[], io?: ToolIO): Promise<number> {
  const stderr = io?.stderr ?? ((s: string) => void process.stderr.write(s));
  return runTool('pyxis-sim', 'Pyxis chip simulator: run a .pimg image and report cycles, traces and memory dumps', (program, ctx) => {
    program
      .command('run')
      .description('simulate a linked image until every queue is empty and every engine idle')
      .argument('<image>', '.pimg image')
      .option('--clusters <n>', 'clusters to simulate (default: what the image uses; full chip 4)')
      .option('--uies <n>', 'UIEs per cluster (default: what the image uses; full chip 12)')
      .option('--clock-hz <hz>', 'clock frequency for simulated time (default: 1.33e9, from grammars/pyxis/sim_config.json)')
      .option('--max-cycles <n>', 'stop (exit 1, with the wait graph) after this many cycles')
      .option('--trace <file.json>', 'write a Perfetto/Chrome trace-event JSON file')
      .option('--vcd <file.vcd>', 'write a VCD waveform (FIFO occupancies, sequencer PCs, barrier counts)')
      .option('--stats <file.json>', 'write statistics as JSON (`-` = stdout)')
      .option('--dump <SYMBOL[:f32]=FILE.npy>', 'dump a tensor symbol after the run (repeatable)', collect, [])
      .option('--dump-region <SPACE:ADDR:LEN=FILE.bin>', 'dump raw bytes (SPACE = hbm, hbm_striped, amem[C], cfg[C]; repeatable)', collect, [])
      .option('--warn-uninit', 'report reads of uninitialised AMEM/HBM as warnings with their addresses')
      .option('--quantum <n>', 'cycles a UIE may run ahead of the global clock when no trip can reach it (default: 256; 1 = strict lockstep; results are identical, see docs/simulator.md)')
      .option('--no-progress', 'never show a progress bar')
      .action((image: string, opts: RunOptions) => {
        const c = ctx();
        const dumps = opts.dump.map(parseDumpSpec);
        const regions = opts.dumpRegion.map(parseRegionSpec);
        const clockHz = opts.clockHz === undefined ? undefined : Number(opts.clockHz);
        if (clockHz !== undefined && !(clockHz > 0 && Number.isFinite(clockHz))) throw new UsageError(`--clock-hz expects a positive number, got \`${opts.clockHz}\``);
        const clusters = int('--clusters', opts.clusters, 1);
        const uies = int('--uies', opts.uies, 0);
        const maxCycles = int('--max-cycles', opts.maxCycles, 1);
        const quantum = int('--quantum', opts.quantum, 1);
        if (quantum !== undefined && quantum > 1 << 20) throw new UsageError(`--quantum expects an integer in 1..${1 << 20}, got \`${opts.quantum}\``);
        const container = readContainerFile(image);
        // Fail before the run on anything that would only fail after it: dump specs and output directories.
        checkDumpSpecs(container, clusters ?? inspectImage(container, image).clusters, dumps, regions);
        checkOutputPaths([opts.trace, opts.vcd, opts.stats, ...dumps.map((d) => d.file), ...regions.map((r) => r.file)]);
        const so: SimulateOptions = { uieFactory: defaultUieFactory };
        if (clusters !== undefined) so.clusters = clusters;
        if (uies !== undefined) so.uies = uies;
        if (maxCycles !== undefined) so.maxCycles = maxCycles;
        if (clockHz !== undefined) so.clockHz = clockHz;
        if (opts.warnUninit) so.warnUninit = true;
        if (quantum !== undefined) so.quantum = quantum;
        // Progress bar: stderr only, TTY only, never in CI, only once the run has taken > 1 s.
        const t0 = Date.now();
        let bar: cliProgress.SingleBar | undefined;
        const wantBar = opts.progress && !io?.stderr && process.stderr.isTTY && !process.env['CI'];
        if (wantBar)
          so.onProgress = (cycle) => {
            if (!bar && Date.now() - t0 > 1000) {
              bar = new cliProgress.SingleBar(
                { stream: process.stderr, format: maxCycles ? 'pyxis-sim |{bar}| {value}/{total} cycles' : 'pyxis-sim {value} cycles simulated', hideCursor: true, clearOnComplete: true },
                cliProgress.Presets.shades_classic,
              );
              bar.start(maxCycles ?? 0, cycle);
            }
            bar?.update(cycle);
          };
        if (opts.trace) so.trace = new FileSink(opts.trace);
        if (opts.vcd) so.vcd = new FileSink(opts.vcd);
        let result;
        try {
          result = simulateImage(container, image, so);
        } finally {
          bar?.stop();
        }
        const { chip, report } = result;
        const wall = (Date.now() - t0) / 1000;
        if (report.warnings.length) c.report(report.warnings);
        const statsText = JSON.stringify({ image, host_seconds: wall, ...report }, null, 2) + '\n';
        const summary = formatSummary(report);
        if (opts.stats === '-') {
          c.out(statsText);
          stderr(summary);
        } else {
          c.out(summary);
          if (opts.stats) writeFileAtomic(opts.stats, statsText);
        }
        const stop = stopDiagnostic(report);
        if (stop) throw stop;
        // Dumps are produced in memory first, then written atomically.
        const outputs: Array<[string, Uint8Array]> = [];
        for (const d of dumps) outputs.push([d.file, writeNpy(dumpSymbol(chip, container, d.symbol, d.f32))]);
        for (const r of regions) outputs.push([r.file, dumpRegion(chip, r)]);
        for (const [f, bytes] of outputs) writeFileAtomic(f, bytes);
        c.log.info({ cycles: report.cycles, wall }, 'simulated');
      });
  }, argv, io);
}
