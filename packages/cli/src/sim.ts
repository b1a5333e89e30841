import { DiagnosticError, UsageError, type Diagnostic } from '@pyxis/diagnostics';
import { checkNotRead, checkOutputPaths, isSpecialOutput, peekContainerTarget, readContainer, readContainerInput, readInputFile, writeFileAtomic, INPUT_HEAD_BYTES, readInputHead, startsWithContainerMagic } from '@pyxis/container';
import { FileSink, singlePartitionStats, type TextSink } from '@pyxis/sim';
import { missingPart, paramRecord, SIM_CLOCK_HZ, SIM_MAX_CYCLES, SIM_THREADS, targetForSourceFile, type MachineRequest } from '@pyxis/target';
import { machineParams } from './params.js';
import { registerParams } from './paramsCommand.js';
import { registerSweep } from './sweep/command.js';
import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';
import { Option } from 'commander';
import { firstPositional, runTool, services, type ToolIO } from './tool.js';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { progressView } from './progress.js';
import { checkCompare, parseCompareSpec, readReference } from './compare.js';
import { addReportCommand, reportCollector, reportHtml, TeeSink } from './report.js';
import { addTargetOption, addTargetOptions, chooseTargetName, headerTarget, resolveTarget, specOption } from './targetOptions.js';

interface RunOptions {
  clockHz?: number;
  maxCycles?: number;
  threads?: number;
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

/** A trace or VCD on a device or FIFO: streamed to it as to stdout, closed with the sink. */
function deviceSink(file: string): TextSink {
  const failed = (e: unknown): never => {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DiagnosticError({ severity: 'error', code: 'IO0002', message: `cannot write \`${file}\`: ${code === 'ENOSPC' ? 'no space left on device' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message}` });
  };
  let fd: number | undefined;
  try {
    fd = openSync(file, 'w');
  } catch (e) {
    failed(e);
  }
  const inner = new StdoutSink((s) => {
    try {
      writeSync(fd!, s);
    } catch (e) {
      failed(e);
    }
  });
  const done = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    write: (s) => inner.write(s),
    close: () => {
      inner.close();
      done();
    },
    abort: () => {
      inner.abort();
      done();
    },
  };
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
      .addOption(specOption(SIM_THREADS))
      .option('--trace <file.json>', 'write a Perfetto/Chrome trace-event JSON file (`-` = stdout)')
      .option('--vcd <file.vcd>', 'write a VCD waveform of the target\'s signals (each target\'s page lists them; refused by a target that writes none) (`-` = stdout)')
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
      const { clockHz, maxCycles, threads } = opts;
      // The target (from the image header when it can be read) checks its option syntax before the full read: usage errors first.
      const { target, options } = await resolveTarget(chooseTargetName(opts.target, [image], headerTarget), 'sim', run);
      const machine = target.machine;
      if (!machine) throw missingPart(target, 'simulator');
      // An output the target does not write is refused, not ignored (MachineCapabilities; nothing read or created yet).
      const caps = machine.capabilities ?? {};
      for (const [flag, given, has, what] of [['--trace', opts.trace, caps.trace, 'trace'], ['--vcd', opts.vcd, caps.vcd, 'VCD waveform']] as const)
        if (given !== undefined && has === false)
          throw new UsageError(`${flag}: target \`${target.name}\` writes no ${what}; its run writes ${[caps.trace !== false ? '--trace' : '', caps.vcd !== false ? '--vcd' : '', '--stats'].filter(Boolean).join(', ')} and the outputs of its own options (\`pyxis-sim run --target ${target.name} --help\`)`);
      machine.checkOptions?.(options);
      // A target's own input format (no container magic, an extension it claims) runs as it is; anything else
      // must be a container, refused from its first bytes when it is not one (no gigabyte read first).
      // A target's own input format runs as it is (`imageExtensions`); another file a target claims as a source is
      // an assembly source given to the simulator: name the tools that make an image of it.
      const loadable = !!machine.loadImage && (machine.imageExtensions ?? []).some((x) => image.toLowerCase().endsWith(x.toLowerCase()));
      if (!loadable && targetForSourceFile(image) !== undefined && !startsWithContainerMagic(readInputHead(image, INPUT_HEAD_BYTES).head))
        throw new UsageError(`${image} is an assembly source: assemble it with \`pyxis-as ${image} -o OBJ.pobj\`, then link the object with \`pyxis-ld\` and run the image`);
      // a link script given to the simulator (the shared link-script form, @pyxis/ld): name the linker, as pyxis-as does
      if (!loadable && image.toLowerCase().endsWith('.ld') && !startsWithContainerMagic(readInputHead(image, INPUT_HEAD_BYTES).head))
        throw new UsageError(`${image} is a link script: link it with \`pyxis-ld ${image} OBJ.pobj -o IMAGE.pimg\`, then run the image`);
      // a system description given to the simulator: it is linked into a .psys first (docs/system.md)
      if (!loadable && image.toLowerCase().endsWith('.json') && !startsWithContainerMagic(readInputHead(image, INPUT_HEAD_BYTES).head))
        throw new UsageError(`${image} is not an image; if it is a system description, link it first: \`pyxis-ld ${image} -o SYSTEM.psys\`, then \`pyxis-sim run SYSTEM.psys\` (docs/system.md)`);
      const own = loadable;
      const bytes = own ? readInputFile(image) : readContainerInput(image);
      const container = own && peekContainerTarget(bytes) === undefined ? machine.loadImage!(image, bytes) : readContainer(bytes, image);
      if (container.target !== target.name)
        throw new DiagnosticError({ severity: 'error', code: 'CLI0002', message: `${image} is an image for target \`${container.target}\`, not \`${target.name}\``, span: { file: image, offset: 24 } });
      const req: MachineRequest = { image: container, file: image, options, services: services(c) };
      const compares = (opts.compare ?? []).map(parseCompareSpec);
      if (compares.length) req.compare = compares.map((s) => s.name);
      const params = machineParams(target, machine, { ...(opts.set ? { set: opts.set } : {}), ...(opts.simConfig ? { simConfig: opts.simConfig } : {}), ...(clockHz !== undefined ? { clockHz } : {}) });
      if (params) req.params = params;
      if (maxCycles !== undefined) req.maxCycles = maxCycles;
      if (clockHz !== undefined) req.clockHz = clockHz;
      if (threads !== undefined) req.threads = threads;
      // Fail before the run on anything that would only fail after it: option values, dump specs, output directories.
      const planned = machine.plan(req);
      // references read before the run (a missing or malformed file never costs a simulation), after the plan has
      // checked their names (usage errors, exit 2, come before input errors, as for --dump)
      const refs = compares.map(readReference);
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
      const sinks: TextSink[] = [];
      const sink = (f: string) => {
        // a device or FIFO (`--trace /dev/null`) is written in place: FileSink's rename would replace the node
        const k = f === '-' ? new StdoutSink(c.out) : isSpecialOutput(f) ? deviceSink(f) : new FileSink(f);
        sinks.push(k);
        return k;
      };
      const collector = opts.report ? reportCollector() : undefined;
      if (opts.trace) req.trace = collector ? new TeeSink([sink(opts.trace), collector]) : sink(opts.trace);
      else if (collector) req.trace = collector;
      if (opts.vcd) req.vcd = sink(opts.vcd);
      if (opts.vcdTimeUnit === 'cycle') req.vcdTimeUnit = 'cycle';
      let result;
      try {
        const instance = machine.create(req);
        result = instance.runAsync ? await instance.runAsync() : instance.run();
      } catch (e) {
        // an error (malformed image found late, runtime rule): no trace or VCD at all, never a `.partial`
        for (const k of sinks) k.abort();
        throw e;
      } finally {
        bar?.stop();
      }
      // A completed or stopped run keeps its trace and VCD (complete up to the stop): a sink the target left open is
      // closed here, so no target can leave a `.partial` behind (docs/simulator.md "what a stopped run keeps").
      for (const k of sinks) k.close();
      const wall = (Date.now() - t0) / 1000;
      if (result.diagnostics.length) c.report(result.diagnostics);
      // files read during the run (inputs named by options or a manifest): no output may replace one (IO0003)
      checkNotRead([opts.stats, opts.report, ...result.outputs.map(([f]) => f)]);
            // A machine that ran partitions on threads reports `parallel` itself; any other run is one partition.
      const parallel = result.stats['parallel'] ?? singlePartitionStats(threads);
      const statsObject = { image, target: target.name, host_seconds: wall, ...result.stats, ...(params ? { parameters: paramRecord(params) } : {}), parallel };
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
  }, argv, io, (a) => {
    // `pyxis-sim IMAGE` (forgetting `run`): the likeliest first mistake gets the command that was meant
    const first = firstPositional(a);
    if (first !== undefined && !['run', 'inspect', 'help', 'params', 'sweep', 'worker', 'report'].includes(first) && existsSync(first))
      throw new UsageError(`unknown command \`${first}\``, [`did you mean \`pyxis-sim run ${first}\`?`]);
  });
}
