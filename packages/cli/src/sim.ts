import { DiagnosticError, UsageError, type Diagnostic } from '@pyxis/diagnostics';
import { checkOutputPaths, peekContainerTarget, readContainer, readContainerInput, readInputFile, writeFileAtomic } from '@pyxis/container';
import { FileSink, type TextSink } from '@pyxis/sim';
import { missingPart, paramRecord, SIM_CLOCK_HZ, SIM_MAX_CYCLES, targetForSourceFile, type MachineRequest } from '@pyxis/target';
import { machineParams } from './params.js';
import { registerParams } from './paramsCommand.js';
import { registerSweep } from './sweep/command.js';
import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';
import { Option } from 'commander';
import { runTool, services, type ToolIO } from './tool.js';
import { progressView } from './progress.js';
import { checkCompare, parseCompareSpec, readReference } from './compare.js';
import { addReportCommand, reportCollector, reportHtml, TeeSink } from './report.js';
import { addTargetOption, addTargetOptions, chooseTargetName, headerTarget, resolveTarget, specOption } from './targetOptions.js';

interface RunOptions {
  clockHz?: number;
  maxCycles?: number;
  trace?: string;
  vcd?: string;
  stats?: string;
  report?: string;
  compare?: string[];
  vcdTimeUnit?: 'ps' | 'cycle';
  progress: boolean;
  target?: string;
  set?: string[];
  simConfig?: string;
}

/** A trace or VCD on standard output (`--trace -`): streamed in 64 KiB chunks through the tool's stdout writer. */
class StdoutSink implements TextSink {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly out: (s: string) => void) {}
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= 1 << 16) this.flush();
  }
  private flush(): void {
    if (this.parts.length) this.out(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
  }
  abort(): void {
    this.parts = [];
    this.size = 0;
  }
}

/** pyxis-sim: the simulator driver. The machine comes from the image's target (its machine back end). */
export function runSim(argv: string[], io?: ToolIO): Promise<number> {
  const stderr = io?.stderr ?? ((s: string) => void process.stderr.write(s));
  return runTool('pyxis-sim', 'simulator: run a .pimg image and report cycles, traces and memory dumps', (program, ctx) => {
    const run = program
      .command('run')
      .description('simulate a linked image until every queue is empty and every engine idle')
      .argument('<image>', '.pimg image')
      .addOption(specOption(SIM_CLOCK_HZ))
      .addOption(specOption(SIM_MAX_CYCLES))
      .option('--trace <file.json>', 'write a Perfetto/Chrome trace-event JSON file (`-` = stdout)')
      .option('--vcd <file.vcd>', 'write a VCD waveform: FIFO occupancies, sequencer PCs, barrier counts (`-` = stdout)')
      .option('--stats <file.json>', 'write statistics as JSON (`-` = stdout; with any `-` the summary goes to stderr)')
      .addOption(new Option('--vcd-time-unit <unit>', 'VCD time unit: ps of simulated time, or one unit per clock cycle').choices(['ps', 'cycle']).default('ps'))
      .option('--compare <spec>', 'after the run, compare tensor NAME with a reference: NAME=REF.npy[,rtol=R][,atol=A] (numpy.allclose; default rtol=1e-5, atol=1e-8); prints max/RMS error, exits 1 outside the tolerance; repeatable', (v: string, p: string[] | undefined) => [...(p ?? []), v])
      .option('--report <file.html>', 'write the HTML run report: one self-contained file of charts (docs/report.md; `-` = stdout)')
      .option('--no-progress', 'never show a progress bar')
      .option('--set <key=value>', "set a machine parameter (repeatable; `pyxis-sim params` lists every key with its default, range and unit); applied after --sim-config", (v: string, prev: string[] = []) => [...prev, v])
      .option('--sim-config <file.json>', "machine parameters from a JSON file: nested like the target's config file or flat dotted keys (docs/sweeps.md)");
    addTargetOption(run);
    addTargetOptions(run, 'sim');
    registerParams(program, ctx);
    registerSweep(program, ctx, async (url, attempts) => (await import('./sweep/queue.js')).queueEngine(url, attempts));
    program
      .command('worker')
      .description('process sweep runs from a BullMQ queue on Redis (docs/sweeps.md); stops on SIGINT/SIGTERM')
      .requiredOption('--queue <redis-url>', 'redis://HOST:PORT')
      .option('-j, --jobs <n>', 'runs at a time', '1')
      .action(async (o: { queue: string; jobs: string }) => {
        const n = Number(o.jobs);
        if (!Number.isInteger(n) || n < 1 || n > 1024) throw new UsageError(`--jobs expects an integer 1..1024, got \`${o.jobs}\``);
        await (await import('./sweep/queue.js')).runWorker(o.queue, n, ctx().out);
      });
    run.action(async (image: string, opts: RunOptions) => {
      const c = ctx();
      const toStdout = [['--trace', opts.trace], ['--vcd', opts.vcd], ['--stats', opts.stats], ['--report', opts.report]].filter(([, v]) => v === '-').map(([k]) => k);
      if (toStdout.length > 1) throw new UsageError(`${toStdout.join(' and ')} would ${toStdout.length === 2 ? 'both' : 'all'} write to standard output (\`-\`); give all but one of them a file`);
      // Parsed and range-checked by commander (specOption): numbers here.
      const { clockHz, maxCycles } = opts;
      // The target (from the image header when it can be read) checks its option syntax before the full read: usage errors first.
      const { target, options } = await resolveTarget(chooseTargetName(opts.target, [image], headerTarget), 'sim', run);
      const machine = target.machine;
      if (!machine) throw missingPart(target, 'simulator');
      machine.checkOptions?.(options);
      // A target's own input format (no container magic, an extension it claims) runs as it is; anything else
      // must be a container, refused from its first bytes when it is not one (no gigabyte read first).
      const own = machine.loadImage && targetForSourceFile(image) === target.name;
      const bytes = own ? readInputFile(image) : readContainerInput(image);
      const container = own && peekContainerTarget(bytes) === undefined ? machine.loadImage!(image, bytes) : readContainer(bytes, image);
      if (container.target !== target.name)
        throw new DiagnosticError({ severity: 'error', code: 'CLI0002', message: `${image} is an image for target \`${container.target}\`, not \`${target.name}\``, span: { file: image, offset: 24 } });
      const req: MachineRequest = { image: container, file: image, options, services: services(c) };
      // references read before the run: a missing or malformed file never costs a simulation
      const compares = (opts.compare ?? []).map(parseCompareSpec);
      const refs = compares.map(readReference);
      if (compares.length) req.compare = compares.map((s) => s.name);
      const params = machineParams(target, machine, { ...(opts.set ? { set: opts.set } : {}), ...(opts.simConfig ? { simConfig: opts.simConfig } : {}), ...(clockHz !== undefined ? { clockHz } : {}) });
      if (params) req.params = params;
      if (maxCycles !== undefined) req.maxCycles = maxCycles;
      if (clockHz !== undefined) req.clockHz = clockHz;
      // Fail before the run on anything that would only fail after it: option values, dump specs, output directories.
      const planned = machine.plan(req);
      checkOutputPaths([opts.trace, opts.vcd, opts.stats, opts.report, ...planned.outputs], [image, ...(opts.simConfig ? [opts.simConfig] : [])]);
      // Progress bar: stderr only, TTY only, never in CI, only once the run has taken > 1 s.
      const t0 = Date.now();
      let bar: cliProgressModule.SingleBar | undefined;
      const wantBar = opts.progress && !io?.stderr && process.stderr.isTTY && !process.env['CI'];
      if (wantBar)
        req.onProgress = (cycle, work) => {
          const v = progressView('pyxis-sim', cycle, work, maxCycles);
          if (!bar && Date.now() - t0 > 1000) {
            // loaded only when a bar is shown (CommonJS, so synchronously): most runs never need it
            const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
            bar = new cliProgress.SingleBar({ stream: process.stderr, format: v.format, hideCursor: true, clearOnComplete: true, etaBuffer: 50 }, cliProgress.Presets.shades_classic);
            bar.start(v.total, v.value, { cycle });
          }
          if (bar && v.total && v.total !== bar.getTotal()) bar.setTotal(v.total);
          bar?.update(v.value, { cycle });
        };
      const sink = (f: string) => (f === '-' ? new StdoutSink(c.out) : new FileSink(f));
      const collector = opts.report ? reportCollector() : undefined;
      if (opts.trace) req.trace = collector ? new TeeSink([sink(opts.trace), collector]) : sink(opts.trace);
      else if (collector) req.trace = collector;
      if (opts.vcd) req.vcd = sink(opts.vcd);
      if (opts.vcdTimeUnit === 'cycle') req.vcdTimeUnit = 'cycle';
      let result;
      try {
        result = machine.create(req).run();
      } finally {
        bar?.stop();
      }
      const wall = (Date.now() - t0) / 1000;
      if (result.diagnostics.length) c.report(result.diagnostics);
      const statsObject = { image, target: target.name, host_seconds: wall, ...result.stats, ...(params ? { parameters: paramRecord(params) } : {}) };
      const statsText = JSON.stringify(statsObject, null, 2) + '\n';
      if (opts.stats === '-') {
        c.out(statsText);
        stderr(result.summary);
      } else if (toStdout.length) {
        stderr(result.summary);
        if (opts.stats) writeFileAtomic(opts.stats, statsText);
      } else {
        c.out(result.summary);
        if (opts.stats) writeFileAtomic(opts.stats, statsText);
      }
      // The report shows stopped runs too (where the time went before a deadlock is what one wants to see).
      if (opts.report) {
        const html = reportHtml(target, statsObject, collector?.model());
        if (opts.report === '-') c.out(html);
        else writeFileAtomic(opts.report, html);
      }
      if (result.stop) throw new DiagnosticError(result.stop as Diagnostic[]);
      // Dumps were produced in memory by the machine; written atomically only after a completed run.
      for (const [f, bytes] of result.outputs) writeFileAtomic(f, bytes);
      if (compares.length) {
        if (!result.readTensor) throw new UsageError(`--compare: target ${target.name} cannot give tensors after a run`);
        const failed: Diagnostic[] = [];
        compares.forEach((spec, i) => {
          try {
            (toStdout.length ? stderr : c.out)(checkCompare(spec, result.readTensor!(spec.name), refs[i]!));
          } catch (e) {
            if (e instanceof DiagnosticError) failed.push(...e.diagnostics);
            else throw e;
          }
        });
        if (failed.length) throw new DiagnosticError(failed);
      }
      c.log.info({ cycles: result.cycles, wall }, 'simulated');
    });
    addReportCommand(program, ctx);
  }, argv, io);
}
