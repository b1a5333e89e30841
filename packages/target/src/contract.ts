/**
 * The `Target` contract: what a machine (Pyxis, the systolic FPGA, NeuronCore,
 * XNU, a test-only toy) gives the three tools. The drivers in @pyxis/cli own the
 * conventions every tool shares (options, exit codes, output-path checks,
 * atomic writes, diagnostics rendering, logging, `inspect` of containers and
 * tensor files); a target owns what its machine means: how statements encode,
 * how a link script lays out an image, and which engines an image becomes on
 * the shared kernel (@pyxis/sim). Nothing here names a target.
 *
 * Back ends never write files and never print: they return bytes and text, and
 * report bad input by throwing `DiagnosticError` (or returning diagnostics),
 * so the drivers can refuse before any output exists.
 */
import type { Diagnostic, SourceMap } from '@pyxis/diagnostics';
import type { Container, InspectRecord, OutputBytes, TargetFlagNames } from '@pyxis/container';
import type { Simulator, TextSink, VcdTimeUnit } from '@pyxis/sim';
import type { ReportInput, ReportSection } from '@pyxis/report';
import type { ParamSet, ParamTable } from './params.js';

/**
 * A target-specific command-line option, as data (the drivers turn it into a
 * commander option, so `--help` lists it without loading the target).
 * `flags` follows commander: `--clusters <n>`, `--warn-uninit`, `--dump <spec>`.
 */
export interface OptionSpec {
  flags: string;
  description: string;
  /** Allowed values of a value option. */
  choices?: readonly string[];
  /** Default value (shown in --help). */
  default?: string | boolean;
  /** The option may be given several times; its value is then a string[]. */
  repeatable?: boolean;
  /**
   * A numeric option's allowed values: the drivers parse the value to a number, refuse anything outside
   * (usage error, exit 2, before any file is read) and print the range in `--help`.
   */
  range?: NumericRange;
}

/** The values a numeric option accepts: `min..max`, integers only unless `integer` is false. */
export interface NumericRange {
  min: number;
  max: number;
  /** Default true. */
  integer?: boolean;
  /** Unit for messages and help (`Hz`, `cycles`). */
  unit?: string;
}

/** Option values as parsed, keyed by commander's camel-case name (`--warn-uninit` -> `warnUninit`). */
export type OptionValues = Record<string, unknown>;

/** What the drivers give a back end: nothing here writes a file. */
export interface ToolServices {
  /** Source texts already read (diagnostics quote them). Add every text a back end reads. */
  sources: SourceMap;
  /** Structured log on stderr (pino): `log.info(obj, msg)`. */
  log: { info(obj: object, msg?: string): void; debug(obj: object, msg?: string): void };
}

// ---------------------------------------------------------------- assembler

export interface SourceInput {
  file: string;
  text: string;
}

export interface AssembleRequest {
  inputs: SourceInput[];
  /** Input language: one of `AssemblerBackend.inputKinds` (default: the first). */
  inputKind: string;
  includeDirs: string[];
  /** Build a listing (`--listing`). */
  listing: boolean;
  options: OptionValues;
  services: ToolServices;
}

export interface AssembleOutput {
  /** Warnings (and errors: any error makes the driver exit 1 without writing). */
  diagnostics: Diagnostic[];
  /** The object (`.pobj`). */
  object: Container;
  /** The listing: one string, or chunks (concatenated in order) that the driver writes as they are produced. */
  listing?: string | Iterable<string>;
  /** Produces an extra output kind (`--emit NAME`, one of `AssemblerBackend.emitKinds`). */
  emit?(kind: string): Uint8Array | string;
}

export interface EmitKind {
  name: string;
  /** Default file extension (`.blob`). */
  ext: string;
  /** Text outputs may go to stdout (`-o -`, or no `-o`). */
  text: boolean;
  description: string;
}

export interface AssemblerBackend {
  /** Source file extensions this target's sources use (`.pasm`); used to pick a target from a file name. */
  sourceExtensions: readonly string[];
  /** Input languages (`pasm`, `ir`); the first is the default of `--input`. */
  inputKinds: readonly string[];
  /** Outputs besides the object (`patch-blob`, `ir`). */
  emitKinds?: readonly EmitKind[];
  options?: readonly OptionSpec[];
  assemble(req: AssembleRequest): AssembleOutput;
  /** An object back to assemblable source (`--disassemble`). */
  disassemble?(object: Container, file: string): string;
  /** The same text as `disassemble`, as chunks the driver writes as they are produced (large objects); preferred when given. */
  disassembleChunks?(object: Container, file: string): Iterable<string>;
  /**
   * A file of the target's own binary format that is not a container (a raw Tensil `.tprog`), disassembled with
   * the target's options (`--arch`); undefined when the file is not one (the driver then reports the bad magic).
   */
  disassembleRaw?(file: string, bytes: Uint8Array, options: OptionValues): string | undefined;
}

// ---------------------------------------------------------------- linker

export interface LinkRequest {
  script: string;
  scriptFile: string;
  objects: Array<{ file: string; container: Container }>;
  /** Reads an object named by the script (validated container). */
  readObject(path: string): Container;
  options: OptionValues;
  services: ToolServices;
}

export interface LinkOutput {
  image: Container;
  /** Warnings (errors are thrown as DiagnosticError, or returned here: any error makes the driver exit 1 without writing). */
  diagnostics: Diagnostic[];
  /** GNU-ld-style text map (`--map`). */
  mapText(): string;
  /** The same map as JSON (`--map-json`). */
  mapJson(): string;
}

export interface LinkerBackend {
  /** Extensions of link scripts (`.ld`); every other input must be an object. */
  scriptExtensions: readonly string[];
  /** The extension of the default output (`-o` not given) for this script, when it is not `.pimg` (a system: `.psys`). */
  defaultOutputExtension?(scriptFile: string): string | undefined;
  options?: readonly OptionSpec[];
  link(req: LinkRequest): LinkOutput;
}

// ---------------------------------------------------------------- machine

/** What every simulation run takes, whatever the target. */
export interface MachineRequest {
  image: Container;
  file: string;
  maxCycles?: number;
  clockHz?: number;
  /** `--threads`: threads for a run of several partitions (kernel/threaded.ts); absent = the default (defaultThreads). */
  threads?: number;
  trace?: TextSink;
  vcd?: TextSink;
  /** VCD time unit: picoseconds (default) or one unit per cycle (`--vcd-time-unit cycle`). */
  vcdTimeUnit?: VcdTimeUnit;
  /** Called every so many kernel steps; `work`, when the machine can count it, is units done of a known total (trips). */
  onProgress?: (cycle: number, work?: ProgressWork) => void;
  /**
   * Tensors the driver reads after the run (`--compare NAME=REF.npy`): `plan` checks that the machine can produce
   * each (a usage or input error before the run), `MachineResult.readTensor` gives them.
   */
  compare?: string[];
  /**
   * The machine's parameters, resolved once by the driver (defaults <- `--sim-config` <- `--set`) and validated
   * against `MachineBackend.parameters()`. Absent: the defaults. The machine builds this instance from them and
   * from nothing else (no process-wide parameter state).
   */
  params?: ParamSet;
  options: OptionValues;
  services: ToolServices;
}

/** Work of a run a progress bar can show with a total and an ETA. */
export interface ProgressWork {
  done: number;
  total: number;
  /** What is counted (`trips`). */
  unit: string;
}

/** A tensor after a run, as float values in C order. */
export interface RunTensor {
  shape: number[];
  data: ArrayLike<number>;
}

export interface MachineResult {
  /** The human summary (printed on stdout, or stderr when stats go to stdout). */
  summary: string;
  /** Statistics for `--stats` (JSON). States what its numbers model (`model` field). */
  stats: Record<string, unknown>;
  /** Warnings to print. */
  diagnostics: Diagnostic[];
  /** A run that did not complete (deadlock, cycle limit): the driver reports it and exits 1. */
  stop?: Diagnostic[];
  /** Files the run produces (dumps), written atomically by the driver after a completed run; large ones as chunks. */
  outputs: Array<[file: string, bytes: OutputBytes]>;
  cycles: number;
  /** A tensor of a completed run as floats (what the target's float dump writes): `--compare`. */
  readTensor?(name: string): RunTensor;
}

/** A machine built from an image: engines on the shared kernel. */
export interface MachineInstance {
  /** The kernel the engines run on (tests and tools read stats and the engine list from it). */
  readonly kernel: Simulator;
  run(): MachineResult;
  /**
   * A run that may use worker threads (several partitions: docs/simulator.md "Parallel runs"); the driver prefers it
   * when present. Same result as `run()` for any `MachineRequest.threads`.
   */
  runAsync?(): Promise<MachineResult>;
}

/**
 * The shared outputs a machine writes (`pyxis-sim run --trace/--vcd`): an option whose capability is
 * `false` is refused by the driver (usage error, exit 2) before any file is read or created, instead of the
 * target ignoring it. Absent = supported.
 */
export interface MachineCapabilities {
  /** Writes a Perfetto trace to `MachineRequest.trace`. */
  trace?: boolean;
  /** Writes a VCD waveform to `MachineRequest.vcd`. */
  vcd?: boolean;
}

export interface MachineBackend {
  options?: readonly OptionSpec[];
  /** What this machine writes of the shared outputs (trace, VCD). */
  capabilities?: MachineCapabilities;
  /**
   * The machine's parameter table (timing and size parameters: name, default, type, range, unit, spec), derived
   * from the target's configuration data (params.ts). `--set` and `--sim-config` are validated against it and the
   * stats JSON records every effective value with its source.
   */
  parameters?(): ParamTable;
  /** Checks the syntax of this target's option values before any file is read (usage errors come first). */
  checkOptions?(options: OptionValues): void;
  /**
   * Checks the request against the image before anything runs and returns the
   * files the run will write besides trace/VCD/stats (dumps), so the driver can
   * check every output path first. Throws DiagnosticError / UsageError.
   */
  plan(req: MachineRequest): { outputs: string[] };
  create(req: MachineRequest): MachineInstance;
  /**
   * Inputs of this target that are not containers but run as they are (a
   * Tensil `.tmodel` with its program and constants): returns the image, or
   * throws DiagnosticError. The driver calls it for a file whose extension the
   * target claims (`TargetEntry.sourceExtensions`) and that has no container magic.
   */
  loadImage?(file: string, bytes: Uint8Array): Container;
  /**
   * The HTML run report's sections of this machine (`pyxis-sim run --report`, `pyxis-sim report`), from the run's
   * statistics and its summarised trace; the report adds the kernel's engine figures and the trace's timeline
   * (docs/report.md). Must accept statistics read back from a file: check every field it reads.
   */
  report?(input: ReportInput): MachineReport;
  /** Extensions of the files `loadImage` reads (`.tmodel`); any other source extension of the target is refused with a hint. */
  imageExtensions?: readonly string[];
}

/** What a machine's report hook returns. */
export interface MachineReport {
  sections: ReportSection[];
  /** What the run's figures model, when its statistics have no `model` field. */
  model?: string;
  /** Trace tracks (by name) the sections already draw: left out of the generic timeline. */
  skipTracks?: (trackName: string) => boolean;
  /** Trace counters (by name) the sections already draw: left out of the generic counter charts. */
  skipCounters?: (counterName: string) => boolean;
  /** Leave out the generic per-engine bars (the sections draw the engines). */
  noEngineSection?: boolean;
}

// ---------------------------------------------------------------- inspect, docs

export interface InspectRequest {
  file: string;
  bytes: Uint8Array;
  json: boolean;
  data: boolean;
  options: OptionValues;
}

export interface InspectHooks {
  options?: readonly OptionSpec[];
  /**
   * Formats without magic that this target reads (Pyxis MPE patch blobs):
   * returns the printed text, or undefined when the file is not one. When the
   * target's own option asked for this reading, errors are thrown, not swallowed.
   */
  sniff?(req: InspectRequest): string | undefined;
  /** For a file no reader accepts: a note saying how this target could read it. */
  hint?(bytes: Uint8Array, file: string): string | undefined;
  /** Records inside the container's sections (descriptors, enqueue records): printed with their file offsets, text and JSON. */
  records?(c: Container): InspectRecord[];
  /** Extra lines after the generic container printout (text mode only). */
  describeContainer?(c: Container): string[];
  /** Names of the target's own section flag bits (`{ target0: 'unhashed' }`), shown by inspect. */
  sectionFlags?: TargetFlagNames;
}

export interface DocsHooks {
  /** Generated reference pages: path relative to `docs/isa/<target>/` -> Markdown. */
  generate(): Map<string, string>;
}

// ---------------------------------------------------------------- the contract

export interface Target {
  /** The container `target` field and the `--target` name. */
  name: string;
  title: string;
  /** Spec files under shared/spec this target follows. */
  specs: readonly string[];
  /** Absolute path of the target's grammar folder (JSON field tables). */
  grammars: string;
  assembler?: AssemblerBackend;
  linker?: LinkerBackend;
  machine?: MachineBackend;
  inspect?: InspectHooks;
  docs?: DocsHooks;
}
