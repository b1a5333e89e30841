import { beginRunFileLog } from '@pyxis/container';
import { Command, CommanderError, Option } from 'commander';
import {
  DiagnosticError,
  ExitCode,
  SourceMap,
  UsageError,
  USAGE_CODE,
  nearest,
  renderDiagnostics,
  renderUsageError,
  shouldUseColor,
  type Diagnostic,
  type DiagnosticsFormat,
} from '@pyxis/diagnostics';
import type { ToolLogger } from './logger.js';
import { targetEntries, type ToolServices } from '@pyxis/target';
import { createLogger, type LogFormat } from './logger.js';
import { registerInspect } from './inspect.js';
import { configureHelp, helpWidth } from './helpText.js';

import { versionText } from './version.js';

export { VERSION, answerVersion, versionText } from './version.js';

/** Diagnostic code of a broken grammar file (exit 3): @pyxis/codec TableError. */
export const GRAMMAR_CODE = 'GR0001';

/** Diagnostic code of command-line usage errors (exit 2) in `--diagnostics-format json` output (@pyxis/diagnostics). */
export { USAGE_CODE };

/** What every command action receives besides its own options. */
export interface ToolContext {
  log: ToolLogger;
  sources: SourceMap;
  /**
   * Prints what a back end returned: warnings are printed; if any is an error,
   * all of them are thrown as one DiagnosticError (exit 1, nothing written),
   * so a back end may return errors instead of throwing them.
   */
  report(ds: readonly Diagnostic[]): void;
  /** stdout writer (tests capture it). */
  out(text: string): void;
}

export interface GlobalOptions {
  logLevel: string;
  logFormat?: LogFormat;
  diagnosticsFormat: DiagnosticsFormat;
  color?: boolean;
}

/** Adds the options shared by all three tools, so names stay consistent. */
export function addGlobalOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--log-level <level>', 'log verbosity').choices(['trace', 'debug', 'info', 'warn', 'error', 'silent']).default('warn'))
    .addOption(new Option('--log-format <format>', 'log output format (default: pretty on a TTY, json otherwise)').choices(['pretty', 'json']))
    .addOption(new Option('--diagnostics-format <format>', 'how errors and warnings are printed').choices(['human', 'json']).default('human'))
    .option('--no-color', 'disable colour in diagnostics and logs (also off when stderr is not a TTY or NO_COLOR is set)');
}

export interface ToolIO {
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

/**
 * Builds a commander program with the shared conventions and runs it:
 * exit 0 ok, 1 input error (diagnostics, no stack), 2 usage, 3 internal.
 */
export async function runTool(
  name: string,
  description: string,
  configure: (program: Command, ctx: () => ToolContext) => void,
  argv: string[] = process.argv.slice(2),
  io: ToolIO = {},
  /** Checks the command line before commander parses it (first-mistake hints as UsageErrors with notes). */
  preflight?: (argv: readonly string[]) => void,
): Promise<number> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const sources = new SourceMap();
  let ctx: ToolContext | undefined;
  // Usage errors are found while parsing, before the options are known: look at argv so that
  // `--diagnostics-format json` makes them JSON lines too (CI parses stderr line by line).
  const jsonUsage = argv.some((a, i) => a === '--diagnostics-format=json' || (a === '--diagnostics-format' && argv[i + 1] === 'json'));
  const usageJson = (message: string, notes: readonly string[] = []) => JSON.stringify({ severity: 'error', code: USAGE_CODE, message, ...(notes.length ? { notes } : {}) }) + '\n';
  const output = {
    writeOut: stdout,
    writeErr: stderr,
    getOutHelpWidth: () => helpWidth(process.stdout),
    getErrHelpWidth: () => helpWidth(process.stderr),
    // commander's own usage errors in the tools' form: `TOOL: error: ...`, its "(Did you mean --x?)" as a help note
    // (human) or in `notes` (JSON), as the UsageErrors of the actions are printed
    outputError: (str: string, write: (s: string) => void) => {
      const lines = str.trim().replace(/^error: /, '').split('\n');
      const notes = lines.slice(1).map((l) => l.replace(/^\(Did you mean (.*)\?\)$/, (_, x: string) => `did you mean \`${x}\`?`));
      // a value outside an option's choices: `--OPT: must be A, B or C (got \`x\`)` with did-you-mean, as pyxis-gen says it
      const choice = /^option '(-[^ ']+)[^']*' argument '(.*)' is invalid\. Allowed choices are (.*)\.$/s.exec(lines[0]!);
      if (choice) {
        const [, opt, got, list] = choice;
        const choices = list!.split(', ');
        lines[0] = `${opt}: must be ${choices.length > 1 ? `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}` : choices[0]} (got \`${got}\`)`;
        const near = nearest(got!, choices);
        if (near) notes.unshift(`did you mean \`${near}\`?`);
      }
      write(jsonUsage ? usageJson(lines[0]!, notes) : `${name}: error: ${lines[0]}\n${notes.map((n) => `  = help: ${n}\n`).join('')}`);
    },
  };
  const hint = jsonUsage ? false : '(run with --help for usage)';
  const program = new Command(name);
  program
    .description(description)
    .version(versionText(name, targetEntries().map((e) => e.name)), '-V, --version', 'print the tool, its version and the registered targets')
    .exitOverride()
    .showHelpAfterError(hint)
    .configureOutput(output);
  addGlobalOptions(program);
  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  const render = (ds: readonly Diagnostic[]) => {
    const g = globals();
    const text = renderDiagnostics(ds, g.diagnosticsFormat, { color: g.color !== false && shouldUseColor(), sources });
    if (text) stderr(text + '\n');
  };
  const getCtx = (): ToolContext => {
    if (!ctx) {
      const g = globals();
      ctx = {
        log: createLogger({ name, level: g.logLevel, color: g.color !== false, ...(g.logFormat ? { format: g.logFormat } : {}) }),
        sources,
        report: (ds) => {
          if (ds.some((d) => d.severity === 'error')) throw new DiagnosticError([...ds]);
          render(ds);
        },
        out: stdout,
      };
    }
    return ctx;
  };
  configure(program, getCtx);
  // `<tool> help [command]` works in every tool (commander only adds it by itself when the program has no action).
  program.helpCommand('help [command]', 'display help for command');
  // Every tool can inspect containers and tensor files the same way.
  if (!program.commands.some((c) => c.name() === 'inspect')) registerInspect(program, getCtx);
  // Sub-commands inherit the shared options and conventions.
  for (const sub of program.commands) {
    sub.exitOverride().showHelpAfterError(hint).configureOutput(output);
  }
  // Examples, exit codes and documentation after the options; wrapped to the terminal.
  configureHelp(name, program);
  refuseRepeatedOptions(program);
  // every file this invocation reads is protected from its outputs (@pyxis/container beginRunFileLog)
  const endFileLog = beginRunFileLog();
  try {
    preflight?.(argv);
    checkHelpTopic(program, argv);
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // `help` / --help / --version: 0. Help shown because a required command is missing (`pyxis-sim` alone): a usage error.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return ExitCode.ok;
      if (e.code === 'commander.help') return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      return ExitCode.usage;
    }
    if (e instanceof DiagnosticError) {
      render(e.diagnostics);
      return ExitCode.input;
    }
    if (e instanceof UsageError) {
      stderr(renderUsageError(name, e.message, e.notes, jsonUsage ? 'json' : 'human') + '\n');
      return ExitCode.usage;
    }
    // duck-typed: the kernel is not loaded by every tool (start-up time)
    if (e instanceof Error && e.name === 'PartitionFailure') {
      const f = e as Error & { diagnostics: unknown[] | null; stackText: string };
      // A partition of a parallel run (kernel/threaded.ts) failed on its thread: its input errors are input errors
      // (exit 1); anything else is a fault of the model, named by partition (exit 3), never a hang.
      if (f.diagnostics) {
        render(f.diagnostics as Diagnostic[]);
        return ExitCode.input;
      }
      render([{ severity: 'error', code: 'SIM0800', message: e.message, notes: ['this is a bug in the simulator model of that partition; rerun with --threads 1 to reproduce it on one thread'] }]);
      if (globals().logLevel === 'debug' || globals().logLevel === 'trace') stderr(`${f.stackText}\n`);
      return ExitCode.internal;
    }
    if (isTableError(e)) {
      // The target's own data is broken (or PYXIS_GRAMMARS points at a bad copy): not the user's input, but no bug
      // in the code either. One diagnostic naming the file, table and field; exit 3 like every other tool fault.
      const span = e.file !== undefined && e.line !== undefined ? { file: e.file, line: e.line, column: e.column ?? 1, length: 1 } : undefined;
      render([{ severity: 'error', code: GRAMMAR_CODE, message: e.message, ...(span ? { span } : {}), notes: ["a target's grammar files are part of the toolchain: reinstall, fix the file, or point PYXIS_GRAMMARS at a good copy"] }]);
      return ExitCode.internal;
    }
    const err = e as Error;
    const nodeErr = err as NodeJS.ErrnoException;
    // File-system errors that escaped the readers/writers (which report IO0001/IO0002 themselves).
    if (nodeErr && (nodeErr.code === 'ENOENT' || nodeErr.code === 'EACCES' || nodeErr.code === 'EPERM' || nodeErr.code === 'EISDIR' || nodeErr.code === 'ENOTDIR' || nodeErr.code === 'ENOSPC' || nodeErr.code === 'EROFS')) {
      const what = nodeErr.path ?? err.message;
      const reason = nodeErr.code === 'ENOENT' || nodeErr.code === 'ENOTDIR' ? 'no such file or directory' : nodeErr.code === 'EISDIR' ? 'is a directory' : nodeErr.code === 'ENOSPC' ? 'no space left on device' : 'permission denied';
      render([{ severity: 'error', code: 'IO0001', message: `${what}: ${reason}` }]);
      return ExitCode.input;
    }
    const debug = globals().logLevel === 'debug' || globals().logLevel === 'trace';
    stderr(`${name}: internal error: ${err?.message ?? String(e)}\n`);
    stderr(debug ? `${err?.stack ?? ''}\n` : `(this is a bug in ${name}; rerun with --log-level debug for a stack trace and report it)\n`);
    return ExitCode.internal;
  } finally {
    endFileLog();
  }
}

/** `TOOL help NAME` for a command the tool does not have: the unknown command named (commander printed the whole help). */
function checkHelpTopic(program: Command, argv: readonly string[]): void {
  const at = argv.findIndex((a, i) => !a.startsWith('-') && !VALUE_OPTIONS.has(argv[i - 1] ?? ''));
  if (at < 0 || argv[at] !== 'help' || at + 1 >= argv.length || argv[at + 1]!.startsWith('-')) return;
  const topic = argv[at + 1]!;
  const names = [...program.commands.flatMap((c) => [c.name(), ...c.aliases()]), 'help'];
  if (!names.includes(topic)) throw new UsageError(`unknown command '${topic}'`, [...(nearest(topic, names) ? [`did you mean \`${nearest(topic, names)}\`?`] : []), `commands: ${names.join(', ')}`]);
}

/**
 * An option that takes one value given twice (`-o a.pobj -o b.pobj`) is a usage error (exit 2), as in LLVM's tools and
 * pyxis-gen (GEN0070), not "the last one wins": one of the two is a typo. Repeatable options (those that collect their
 * values: `--set`, `--compare`, `-I`, a target's `--input`) and flags are not concerned.
 */
function refuseRepeatedOptions(cmd: Command): void {
  for (const opt of cmd.options) {
    if (!(opt.required || opt.optional) || opt.variadic || opt.negate || Array.isArray(opt.defaultValue)) continue;
    if (opt.parseArg) {
      let collects = false;
      try {
        collects = Array.isArray(opt.parseArg('x', [] as never));
      } catch {
        /* a checking parser (a range, choices): one value */
      }
      if (collects) continue;
    }
    let first: string | undefined;
    const flag = [opt.short, opt.long].filter(Boolean).join('/') || opt.flags;
    cmd.on(`option:${opt.name()}`, (v: string) => {
      if (first !== undefined) throw new UsageError(`${flag} given twice (\`${first}\`, then \`${v}\`); it takes one value: give it once`);
      first = v;
    });
  }
  for (const sub of cmd.commands) refuseRepeatedOptions(sub);
}

/**
 * @pyxis/codec's TableError, recognised by name: the drivers do not load the
 * codec themselves (start-up time), and a target may bring its own copy.
 */
function isTableError(e: unknown): e is Error & { file?: string; line?: number; column?: number } {
  return e instanceof Error && e.name === 'TableError';
}

/** What a target's back end gets from the driver (@pyxis/target ToolServices). */
export function services(c: ToolContext): ToolServices {
  return { sources: c.sources, log: c.log };
}

/** Entry point used by bin/ launchers. */
export async function main(run: (argv: string[]) => Promise<number>): Promise<void> {
  // A reader that goes away (`pyxis-sim run --help | head`) is not an error of ours: stop quietly, no stack trace.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  const code = await run(process.argv.slice(2));
  process.exitCode = code;
}

/** Global options that take a value (the first positional argument is found past them). */
const VALUE_OPTIONS = new Set(['--log-level', '--log-format', '--diagnostics-format']);

/** The first positional argument of a command line, if any (options and their values skipped). */
export function firstPositional(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1];
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return a;
  }
  return undefined;
}
