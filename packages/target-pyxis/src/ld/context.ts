/**
 * The link context: everything the linker phases share (docs/linker.md,
 * "Phases"). `link()` (link.ts) creates it and runs the phases in order; each
 * phase reads what earlier phases resolved and adds to it. Diagnostics
 * collect in `bag`; a phase boundary throws when it holds errors.
 */
import { dirname, resolve } from 'node:path';
import { DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';
import type { CompiledTable, FieldValues } from '@pyxis/codec';
import { readRegularFile, type Container } from '@pyxis/container';
import { parseLinkScript, scriptReader, type LinkScript, type ScriptBlock, type ScriptReader } from '@pyxis/ld';
import { loadMemoryMap, type MemoryMap } from '../common/memoryMap.js';
import type { QueueInfo } from './image.js';
import type { BlobDef, TensorDef, TripDef } from './linkTypes.js';
import type { ProgramDef, VpuProgramDef } from './microcode.js';
import type { Placed, Region } from './placement.js';
import type { DbRegion } from './weights/index.js';
import { tensorLayout } from './tensors.js';

export const CHIP = 'pyxis-chip-fspec.md';
export const SEQ = 'pyxis-uie-sequencers-fspec.md';

export interface LinkInputObject {
  /** File name (for messages). */
  file: string;
  container: Container;
}

export interface LinkOptions {
  /** Link-script text and its file name (relative data paths resolve against its directory). */
  script: string;
  scriptFile?: string;
  /** Objects given on the command line (in addition to the script's `input` statements). */
  objects?: LinkInputObject[];
  /** Reads a file (default: fs). */
  readFile?: (path: string) => Uint8Array;
  /** Reads a .pobj container (default: @pyxis/container readContainer of readFile). */
  readObject?: (path: string) => Container;
  /** Largest barrier id per cluster (default 1023, chip §11.6.3); smaller values force id reuse (tests). */
  maxBarrierId?: number;
  /**
   * Most descriptors per descriptor list (default DEFAULT_LIST_DESCRIPTORS, never more than the
   * 16-bit descriptor_list_length allows, chip Table 11-2). Longer queues are split into several
   * lists, enqueued in order (chip §11.5.1).
   */
  maxListDescriptors?: number;
}

/** A script `queue` with its trips (trip-descriptor queues of chip Table 11-1). */
export interface QueueDef {
  q: QueueInfo;
  cluster: number;
  region?: Region;
  span: SourceSpan;
  trips: TripDef[];
}

/** A datagram descriptor ring (chip §11.5.2): queue 0x23-0x26, 8-byte descriptors without header. */
export interface DgramRing {
  name: string;
  id: number;
  tx: boolean;
  cluster: number;
  span: SourceSpan;
  entries: Array<{ name: string; span: SourceSpan; t: TensorDef; tSpan: SourceSpan; voq: number; rxq: number; bytes?: number; bytesSpan?: SourceSpan }>;
  placed?: Placed;
}

export interface WeightDb {
  name: string;
  kind: string;
  bytes: Uint8Array;
  placed: Placed;
  report: Record<string, unknown>;
  parts: DbRegion[];
}

/** Config table / CSR entries preloaded in cfg space (memory_map.json regions). */
export interface CfgPreload {
  name: string;
  cluster: number;
  address: number;
  data: Uint8Array;
  span: SourceSpan;
  /** The memory_map.json region and its first entry (checks after barrier allocation: checkBtMemPreloads). */
  region?: string;
  index?: number;
  entries?: number;
}

/** A config entry with fields naming tensors, re-encoded once the tensors are placed. */
export interface CfgFixup {
  preload: number;
  entry: number;
  stride: number;
  table: CompiledTable;
  values: FieldValues;
  cluster: number;
  refs: Array<{ field: string; shift: number; t: TensorDef; span: SourceSpan }>;
  autoHash: boolean;
}

export interface LinkContext {
  opts: LinkOptions;
  scriptFile: string;
  /** Relative data paths resolve against the script's directory. */
  baseDir: string;
  readFile: (path: string) => Uint8Array;
  bag: DiagnosticBag;
  script: LinkScript;
  /** Attribute and value readers reporting into `bag` (@pyxis/ld). */
  r: ScriptReader;
  memoryMap: () => MemoryMap;
  /** The script's top-level statements of one kind, in order. */
  blocks: (kind: string) => ScriptBlock[];
  regions: Map<string, Region>;
  tensors: Map<string, TensorDef>;
  /** Everything the allocator places, in declaration order (first-fit order). */
  placements: Placed[];
  weightDbs: WeightDb[];
  /** Weight databases seen as byte tensors (trips and config fields may name them). */
  dbTensors: Map<string, TensorDef>;
  cfgPreloads: CfgPreload[];
  cfgFixups: CfgFixup[];
  blobs: Map<string, BlobDef>;
  programs: Map<string, ProgramDef>;
  vpuPrograms: Map<string, VpuProgramDef>;
  queues: QueueDef[];
  trips: TripDef[];
  tripByName: Map<string, TripDef>;
  dgramRings: DgramRing[];
}

export function createLinkContext(opts: LinkOptions): LinkContext {
  const scriptFile = opts.scriptFile ?? '<script>';
  const bag = new DiagnosticBag();
  const script = parseLinkScript(opts.script, scriptFile);
  return {
    opts,
    scriptFile,
    baseDir: opts.scriptFile ? dirname(resolve(opts.scriptFile)) : process.cwd(),
    readFile: opts.readFile ?? ((p: string) => readRegularFile(p)),
    bag,
    script,
    r: scriptReader(bag),
    memoryMap: loadMemoryMap,
    blocks: (kind) => script.blocks.filter((b) => b.kind === kind),
    regions: new Map(),
    tensors: new Map(),
    placements: [],
    weightDbs: [],
    dbTensors: new Map(),
    cfgPreloads: [],
    cfgFixups: [],
    blobs: new Map(),
    programs: new Map(),
    vpuPrograms: new Map(),
    queues: [],
    trips: [],
    tripByName: new Map(),
    dgramRings: [],
  };
}

/** A tensor, or a weight database seen as a byte tensor, by name. */
export function tensorOrDb(ctx: LinkContext, n: string): TensorDef | undefined {
  return ctx.tensors.get(n) ?? dbTensor(ctx, n);
}

/** Names offered by did-you-mean for a tensor reference. */
export function tensorNames(ctx: LinkContext): string[] {
  return [...ctx.tensors.keys(), ...ctx.weightDbs.map((w) => w.name)];
}

/** A weight database seen as a byte tensor, so trips can name it as `weights`/`src`/`dst`. */
export function dbTensor(ctx: LinkContext, n: string): TensorDef | undefined {
  const w = ctx.weightDbs.find((x) => x.name === n);
  if (!w) return undefined;
  let t = ctx.dbTensors.get(n);
  if (!t) {
    // a linear16 database holds 16-bit LnsI5F10 weights (chip §14.1): the conv1x1 / matmul size rules (seq §1.2)
    // take 4 instead of 8 input channels from the element width
    const wide = w.kind === 'linear16';
    const elemBytes = wide ? 2 : 1;
    const shape = [1, Math.floor(w.bytes.length / elemBytes)];
    ctx.dbTensors.set(n, (t = { name: n, span: w.placed.span!, format: wide ? 'LnsI5F10' : 'LnsI4F3', elemBytes, eb: 0, shape, layout: tensorLayout(shape, elemBytes), role: 'compressed', placed: w.placed }));
  }
  return t;
}
