/**
 * The linker: link script + objects + tensor files -> `.pimg` Container
 * (docs/image-layout.md, docs/linker.md). Phases:
 *   1. parse script, resolve regions, tensors, blobs, queues and trips;
 *   2. load programs from objects, place microcode (32-word sequencer memories);
 *   3. allocate barriers from the dependency DAG (barriers.ts);
 *   4. allocate memory, encode descriptors, enqueue records, symbols, metadata;
 *   5. checks (alignment, views, RMW, partial-write overlaps).
 * Bad input throws DiagnosticError; nothing is written here (the CLI writes atomically).
 */
import { readFileSync, existsSync } from 'node:fs';
import { resolve, dirname, extname, relative, isAbsolute } from 'node:path';
import { DiagnosticBag, DiagnosticError, didYouMean, error, warning, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { decode, encode, loadTable, validate, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { FORMAT_VERSION, SectionFlags, alignUp, readContainer, readNpy, readSafetensors, type Container, type Section, type SymbolEntry, type Tensor } from '@pyxis/container';
import { parseLinkScript, showValue, type LinkScript, type ScriptBlock, type ScriptValue } from '@pyxis/ld';
import { allocateBarriers, ancestorBits, BarrierError, type BarrierPlan, type TripNode } from './barriers.js';
import {
  AMEM_SIZE, HASH_BLOCK, NOC, amemEngineAddress, hbmEngineAddress, icdmaDestination, loadMemoryMap, queueByName, queueName,
  QUEUE_NAMES, remapWindows, type MemoryMap, type QueueInfo,
} from './image.js';
import { ELEMENT_FORMATS, PARTITION, byteStrides, encodeFloats, intervalsIntersect, packTensor, rowIntervals, tensorLayout } from './tensors.js';
import type { LinkMap } from './map.js';
import * as W from './weights/index.js';
import { encodePatchBlob, loadPyxisIsa, type MicroPatch } from '../asm/index.js';
import { allocate, checkViews, type Placed, type Region } from './placement.js';
import type { BlobDef, TensorDef, TripDef } from './linkTypes.js';
import {
  countPatches, loadPrograms, placeVpu, planMicrocode, relocate,
  type AppliedRelocation, type MicrocodePlacement, type ProgramDef, type VpuProgramDef,
} from './microcode.js';
import { checkSizeRules } from './checks.js';

export { countPatches, microPatch } from './microcode.js';
export type { AppliedRelocation, MicrocodePlacement } from './microcode.js';

const CHIP = 'pyxis-chip-fspec.md';
const SEQ = 'pyxis-uie-sequencers-fspec.md';

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

/** Default descriptors per list: bounded contiguous allocations, 4 lists (16K trips) in flight per ring. */
export const DEFAULT_LIST_DESCRIPTORS = 4096;

export interface LinkResult {
  image: Container;
  map: LinkMap;
  /** Warnings (errors are thrown). */
  diagnostics: Diagnostic[];
}

/** A datagram descriptor ring (chip §11.5.2): queue 0x23-0x26, 8-byte descriptors without header. */
interface DgramRing {
  name: string;
  id: number;
  tx: boolean;
  cluster: number;
  span: SourceSpan;
  entries: Array<{ name: string; span: SourceSpan; t: TensorDef; tSpan: SourceSpan; voq: number; rxq: number; bytes?: number; bytesSpan?: SourceSpan }>;
  placed?: Placed;
}

interface WeightDb {
  name: string;
  kind: string;
  bytes: Uint8Array;
  placed: Placed;
  report: Record<string, unknown>;
  parts: W.DbRegion[];
}

const UIE_OPS = ['conv3x3_s1', 'conv3x3_s2', 'conv1x1', 'matmul', 'copy'];

/**
 * Config-table fields that may name a tensor (or weight database) instead of a
 * number: field -> address shift (the field holds AMEM address bits [25:shift]).
 * The linker fills them after placement, raises the tensor's alignment to
 * 2^shift and, when the table has `bank_hash_dsbl` and the entry does not give
 * it, sets it from the tensor's region view (chip §7.5, §7.6; seq §8).
 */
const SYMBOL_FIELDS: Record<string, Record<string, number>> = {
  itfe_command: { x_table_base_addr: 7, y_table_base_addr: 7 },
};

function isNumber(v: ScriptValue): v is Extract<ScriptValue, { kind: 'number' }> {
  return v.kind === 'number';
}

export function link(opts: LinkOptions): LinkResult {
  const scriptFile = opts.scriptFile ?? '<script>';
  const baseDir = opts.scriptFile ? dirname(resolve(opts.scriptFile)) : process.cwd();
  const readFile = opts.readFile ?? ((p: string) => new Uint8Array(readFileSync(p)));
  const bag = new DiagnosticBag();
  const warnings: Diagnostic[] = [];
  const script: LinkScript = parseLinkScript(opts.script, scriptFile);
  const err = (code: string, message: string, span?: SourceSpan, extra: Partial<Diagnostic> = {}) => bag.add(error(code, message, { ...(span ? { span } : {}), ...extra }));

  // ---------- attribute helpers ----------
  const attrsOf = (b: ScriptBlock, allowed: readonly string[], what: string) => {
    const m = new Map<string, { value: ScriptValue; keySpan: SourceSpan }>();
    for (const a of b.attrs) {
      if (!allowed.includes(a.key)) {
        err('LD0101', `unknown attribute \`${a.key}\` in ${what}`, a.keySpan, { notes: didYouMean(a.key, allowed).concat([`note: allowed: ${allowed.join(', ')}`]) });
        continue;
      }
      if (m.has(a.key)) err('LD0102', `attribute \`${a.key}\` given twice in ${what}`, a.keySpan);
      m.set(a.key, { value: a.value, keySpan: a.keySpan });
    }
    return m;
  };
  const num = (v: ScriptValue | undefined, what: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    if (!v) return undefined;
    if (!isNumber(v) || !Number.isInteger(v.value)) {
      err('LD0103', `${what} must be an integer, got \`${showValue(v)}\``, v.span);
      return undefined;
    }
    if (v.value < min || v.value > max) {
      err('LD0104', `${what} ${v.value} is out of range ${min}..${max}`, v.span);
      return undefined;
    }
    return v.value;
  };
  const ident = (v: ScriptValue | undefined, what: string): string | undefined => {
    if (!v) return undefined;
    if (v.kind !== 'ident' && v.kind !== 'string') {
      err('LD0103', `${what} must be a name, got \`${showValue(v)}\``, v.span);
      return undefined;
    }
    return v.value;
  };
  const bool = (v: ScriptValue | undefined, what: string): boolean | undefined => {
    if (!v) return undefined;
    if (v.kind === 'ident' && (v.value === 'true' || v.value === 'false')) return v.value === 'true';
    if (isNumber(v) && (v.value === 0 || v.value === 1)) return v.value === 1;
    err('LD0103', `${what} must be true or false, got \`${showValue(v)}\``, v.span);
    return undefined;
  };

  let mm: MemoryMap | undefined;
  const memoryMap = (): MemoryMap => (mm ??= loadMemoryMap());

  // ---------- regions ----------
  const regions = new Map<string, Region>();
  const blocks = (kind: string) => script.blocks.filter((b) => b.kind === kind);
  const KINDS = ['memory', 'tensor', 'blob', 'weights', 'config', 'queue'];
  for (const b of script.blocks)
    if (!KINDS.includes(b.kind)) err('LD0100', `unknown statement \`${b.kind}\``, b.kindSpan, { notes: didYouMean(b.kind, [...KINDS, 'input', 'after']) });
  const named = (b: ScriptBlock, what: string): string | undefined => {
    if (!b.name) err('LD0105', `${what} needs a name`, b.kindSpan);
    return b.name;
  };
  for (const b of blocks('memory')) {
    const name = named(b, '`memory`');
    if (!name) continue;
    const a = attrsOf(b, ['space', 'cluster', 'view', 'origin', 'length'], `memory \`${name}\``);
    const space = ident(a.get('space')?.value, '`space`') ?? 'amem';
    if (space !== 'amem' && space !== 'hbm') {
      err('LD0106', `memory space must be \`amem\` or \`hbm\`, got \`${space}\``, a.get('space')!.value.span);
      continue;
    }
    const cluster = space === 'amem' ? num(a.get('cluster')?.value, '`cluster`', 0, 3) ?? 0 : -1;
    const view = ident(a.get('view')?.value, '`view`') ?? 'hashed';
    if (view !== 'hashed' && view !== 'unhashed') err('LD0106', `view must be \`hashed\` or \`unhashed\`, got \`${view}\``, a.get('view')!.value.span, { spec: `${CHIP} §7.5` });
    const limit = space === 'amem' ? AMEM_SIZE : 64 * 2 ** 30;
    const origin = num(a.get('origin')?.value, '`origin`', 0, limit) ?? 0;
    const length = num(a.get('length')?.value, '`length`', 1, limit) ?? limit - origin;
    if (origin + length > limit)
      err('LD0301', `memory \`${name}\` [0x${origin.toString(16)}, 0x${(origin + length).toString(16)}) exceeds the ${space === 'amem' ? '64 MiB AMEM' : 'HBM address range'}`, b.nameSpan, { spec: space === 'amem' ? `${CHIP} §7` : `${CHIP} §8.2` });
    if (regions.has(name)) err('LD0107', `memory \`${name}\` is declared twice`, b.nameSpan);
    regions.set(name, { name, space, cluster, unhashed: view === 'unhashed', origin, length, span: b.nameSpan!, used: 0, items: [] });
  }
  // overlapping region declarations
  const rl = [...regions.values()];
  for (let i = 0; i < rl.length; i++)
    for (let j = i + 1; j < rl.length; j++) {
      const x = rl[i]!;
      const y = rl[j]!;
      if (x.space === y.space && x.cluster === y.cluster && x.origin < y.origin + y.length && y.origin < x.origin + x.length)
        err('LD0302', `memory \`${y.name}\` overlaps memory \`${x.name}\``, y.span, { spec: y.space === 'amem' ? `${CHIP} §7, §7.5` : `${CHIP} §8.2`, secondary: x.span ? [{ span: x.span, label: 'declared here' }] : [] });
    }

  // ---------- queues (cluster list needed for default regions) ----------
  interface QueueDef { q: QueueInfo; cluster: number; region?: Region; span: SourceSpan; trips: TripDef[] }
  const queues: QueueDef[] = [];
  const trips: TripDef[] = [];
  const tripByName = new Map<string, TripDef>();
  const queueBlocks = blocks('queue');
  const defaultRegion = (cluster: number): Region => {
    for (const r of regions.values()) if (r.space === 'amem' && r.cluster === cluster && !r.unhashed) return r;
    for (const r of regions.values()) if (r.space === 'amem' && r.cluster === cluster) return r;
    const name = `amem${cluster}`;
    let r = regions.get(name);
    if (!r) regions.set(name, (r = { name, space: 'amem', cluster, unhashed: false, origin: 0, length: AMEM_SIZE, used: 0, items: [] }));
    return r;
  };
  const regionRef = (v: ScriptValue | undefined, what: string): Region | undefined => {
    const n = ident(v, what);
    if (n === undefined) return undefined;
    const r = regions.get(n);
    if (!r) err('LD0108', `no memory region \`${n}\``, v!.span, { notes: didYouMean(n, regions.keys()) });
    return r;
  };

  // ---------- tensors ----------
  const tensors = new Map<string, TensorDef>();
  const placements: Placed[] = [];
  const loadData = (path: string, span: SourceSpan): Uint8Array | undefined => {
    const full = resolve(baseDir, path);
    try {
      return readFile(full);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      err('LD0201', code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${(e as Error).message}`, span);
      return undefined;
    }
  };
  /** Reads a `.npy` / `.safetensors` tensor named by `v` (`key` picks one of several); errors go to the bag. */
  const readTensorFile = (v: ScriptValue, keyV: ScriptValue | undefined, what: string, otherTypes: string): { path: string; tensor: Tensor } | undefined => {
    const p = ident(v, what);
    const bytes = p !== undefined ? loadData(p, v.span) : undefined;
    if (p === undefined || !bytes) return undefined;
    let tensor: Tensor | undefined;
    try {
      // Byte-offset diagnostics name the file as the user can open it (relative to the working directory), not as the script wrote it.
      const shown = displayPath(resolve(baseDir, p));
      if (extname(p) === '.npy') tensor = readNpy(bytes, shown);
      else if (extname(p) === '.safetensors') {
        const all = readSafetensors(bytes, shown);
        const key = ident(keyV, '`key`');
        if (key === undefined && all.size !== 1) err('LD0203', `${p} holds ${all.size} tensors; name one with \`key = "..."\``, v.span, { notes: [`note: tensors: ${[...all.keys()].slice(0, 10).join(', ')}`] });
        else {
          tensor = key === undefined ? [...all.values()][0] : all.get(key);
          if (!tensor) err('LD0203', `${p} has no tensor \`${key}\``, keyV!.span, { notes: didYouMean(key!, all.keys()) });
        }
      } else err('LD0204', `unknown data file type \`${extname(p)}\` (use .npy or .safetensors${otherTypes})`, v.span);
    } catch (e) {
      if (e instanceof DiagnosticError) bag.addAll(e.diagnostics.map((d) => ({ ...d, secondary: [...(d.secondary ?? []), { span: v.span, label: 'loaded from here' }] })));
      else err('LD0205', `cannot read ${p}: ${(e as Error).message}`, v.span);
    }
    return tensor ? { path: p, tensor } : undefined;
  };
  for (const b of blocks('tensor')) {
    const name = named(b, '`tensor`');
    if (!name) continue;
    const a = attrsOf(b, ['format', 'shape', 'eb', 'region', 'address', 'align', 'strides', 'row_stride', 'chan_stride', 'data', 'key', 'raw', 'zero', 'saturate', 'role'], `tensor \`${name}\``);
    if (tensors.has(name)) err('LD0109', `tensor \`${name}\` is declared twice`, b.nameSpan);
    const fmtV = a.get('format')?.value;
    const fmtName = ident(fmtV, '`format`');
    const fmt = fmtName ? ELEMENT_FORMATS[fmtName] : undefined;
    if (!fmtV) err('LD0110', `tensor \`${name}\` needs a \`format\``, b.nameSpan);
    else if (fmtName && !fmt) err('LD0111', `unknown element format \`${fmtName}\``, fmtV.span, { notes: didYouMean(fmtName, Object.keys(ELEMENT_FORMATS)) });
    const shapeV = a.get('shape')?.value;
    let shape: number[] = [];
    if (!shapeV) err('LD0110', `tensor \`${name}\` needs a \`shape\``, b.nameSpan);
    else if (shapeV.kind !== 'list' || shapeV.items.length === 0) err('LD0103', '`shape` must be a list like [C, H, W]', shapeV.span);
    else shape = shapeV.items.map((it) => num(it, 'a dimension', 1, 1 << 24) ?? 1);
    const eb = num(a.get('eb')?.value, '`eb`', -63, 63) ?? 0;
    if (eb !== 0 && fmt && /^(OCP_|IEEE_)/.test(fmt.name))
      bag.add(warning('LD0117', `tensor \`${name}\`: ${fmt.name} has the standard exponent bias; \`eb = ${eb}\` does not change the stored values (it is only recorded in the symbol table). The import to RFP16 adjusts the EB at run time`, { span: a.get('eb')!.value.span, spec: `${CHIP} §4.9, §4.10` }));
    let chanS: number | undefined;
    let rowS: number | undefined;
    const sv = a.get('strides')?.value;
    if (sv) {
      if (sv.kind !== 'list' || sv.items.length !== 2) err('LD0103', '`strides` must be [chan_stride, row_stride] in partitions', sv.span);
      else {
        chanS = num(sv.items[0], 'channel stride', 0, AMEM_SIZE / 16);
        rowS = num(sv.items[1], 'row stride', 0, AMEM_SIZE / 16);
      }
    }
    rowS = num(a.get('row_stride')?.value, '`row_stride`', 0, AMEM_SIZE / 16) ?? rowS;
    chanS = num(a.get('chan_stride')?.value, '`chan_stride`', 0, AMEM_SIZE / 16) ?? chanS;
    if (!fmt) continue;
    const layout = tensorLayout(shape, fmt.bytes, { ...(chanS !== undefined ? { chan: chanS } : {}), ...(rowS !== undefined ? { row: rowS } : {}) });
    const minRow = Math.ceil(layout.rowBytes / PARTITION);
    if (layout.rowStride < minRow && layout.H > 1)
      err('LD0112', `tensor \`${name}\`: row stride ${layout.rowStride} partitions is smaller than a row (${minRow} partitions)`, (a.get('row_stride') ?? a.get('strides'))!.value.span, { spec: `${CHIP} §7.2` });
    if (fmt.bytes === 2 && (layout.rowStride % 2 || layout.chanStride % 2))
      err('LD0113', `tensor \`${name}\`: 16-bit tensors need even row/channel strides (even partitions)`, (a.get('strides') ?? a.get('row_stride') ?? a.get('chan_stride'))!.value.span, { spec: `${CHIP} §7.3; ${SEQ} §1.1` });
    const region = a.has('region') ? regionRef(a.get('region')!.value, '`region`') : defaultRegion(0);
    const role = ident(a.get('role')?.value, '`role`') ?? 'data';
    if (!['data', 'indirection', 'compressed'].includes(role)) err('LD0114', `unknown tensor role \`${role}\``, a.get('role')!.value.span, { notes: didYouMean(role, ['data', 'indirection', 'compressed']) });
    const minAlign = region?.space === 'hbm' ? 1024 : role !== 'data' ? 128 : fmt.bytes === 2 ? 32 : 16;
    const align = num(a.get('align')?.value, '`align`', 1, 1 << 30) ?? minAlign;
    if (align & (align - 1)) err('LD0115', `\`align\` must be a power of two, got ${align}`, a.get('align')!.value.span);
    const fixed = num(a.get('address')?.value, '`address`', 0, 64 * 2 ** 30);
    if (!region) continue;
    const placed: Placed = { name, what: 'tensor', region, size: layout.size, align: Math.max(align, minAlign), address: 0, span: b.nameSpan!, ...(fixed !== undefined ? { fixed } : {}) };
    const t: TensorDef = { name, span: b.nameSpan!, format: fmt.name, elemBytes: fmt.bytes, eb, shape, layout, role, placed };
    // data
    const count = shape.reduce((x, y) => x * y, 1);
    const saturate = bool(a.get('saturate')?.value, '`saturate`') ?? true;
    const dataV = a.get('data')?.value;
    const rawV = a.get('raw')?.value;
    const zero = bool(a.get('zero')?.value, '`zero`');
    if ([dataV, rawV, zero ? a.get('zero') : undefined].filter(Boolean).length > 1) err('LD0116', `tensor \`${name}\`: give only one of \`data\`, \`raw\`, \`zero\``, b.nameSpan);
    if (rawV) {
      const p = ident(rawV, '`raw`');
      const bytes = p ? loadData(p, rawV.span) : undefined;
      if (bytes) {
        if (bytes.length !== count * fmt.bytes)
          err('LD0202', `raw file ${p} has ${bytes.length} bytes; tensor \`${name}\` ${JSON.stringify(shape)} of ${fmt.name} needs ${count * fmt.bytes}`, rawV.span);
        else {
          const codes = fmt.bytes === 1 ? bytes : new Uint16Array(count).map((_, i) => bytes[2 * i]! | (bytes[2 * i + 1]! << 8));
          t.bytes = packTensor(layout, codes);
        }
      }
    } else if (dataV) {
      const got = readTensorFile(dataV, a.get('key')?.value, '`data`', ', or `raw = "file"` for pre-encoded codes');
      if (got) {
        const { path: p, tensor } = got;
        const n = tensor.data.length;
        const sameShape = tensor.shape.length === shape.length ? tensor.shape.every((d, i) => d === shape[i]) : n === count;
        if (!sameShape || n !== count)
          err('LD0206', `${p}: shape ${JSON.stringify(tensor.shape)} does not match tensor \`${name}\` shape ${JSON.stringify(shape)}`, dataV.span);
        else if (tensor.dtype === 'float32' || tensor.dtype === 'float64' || tensor.dtype === 'float16' || tensor.dtype === 'bfloat16') {
          const vals = toFloats(tensor);
          try {
            const r = encodeFloats(fmt.name, vals, eb, saturate);
            if (r.error) err('LD0207', `tensor \`${name}\`: ${r.error}`, dataV.span);
            else t.bytes = packTensor(layout, r.codes);
          } catch (e) {
            if (e instanceof DiagnosticError) bag.addAll(e.diagnostics.map((d) => ({ ...d, span: dataV.span })));
            else err('LD0207', `tensor \`${name}\`: cannot convert to ${fmt.name}: ${(e as Error).message}`, dataV.span);
          }
        } else if ((fmt.bytes === 1 && (tensor.dtype === 'uint8' || tensor.dtype === 'int8')) || (fmt.bytes === 2 && (tensor.dtype === 'uint16' || tensor.dtype === 'int16'))) {
          // integer arrays of the element width are taken as codes (Int16 values are their own codes)
          t.bytes = packTensor(layout, tensor.data as ArrayLike<number>);
        } else err('LD0208', `${p}: dtype ${tensor.dtype} cannot initialise a ${fmt.name} tensor (give floats, or ${fmt.bytes === 1 ? 'uint8/int8' : 'uint16/int16'} codes)`, dataV.span);
      }
    }
    tensors.set(name, t);
    placements.push(placed);
  }

  // ---------- weight databases (chip §14, §15; packers in ./weights) ----------
  const weightDbs: WeightDb[] = [];
  const loadFloats = (v: ScriptValue, keyV: ScriptValue | undefined, what: string): { shape: number[]; data: Float32Array | Float64Array } | undefined => {
    const got = readTensorFile(v, keyV, what, '');
    if (!got) return undefined;
    const { path: p, tensor } = got;
    if (!['float16', 'bfloat16', 'float32', 'float64'].includes(tensor.dtype)) {
      err('LD0208', `${p}: weights must be floats (float16/bfloat16/float32/float64), got ${tensor.dtype}`, v.span);
      return undefined;
    }
    return { shape: tensor.shape, data: toFloats(tensor) };
  };
  for (const b of blocks('weights')) {
    const name = named(b, '`weights`');
    if (!name) continue;
    const a = attrsOf(b, ['kind', 'data', 'key', 'beta', 'beta_key', 'eb', 'beta_eb', 'filters_per_grid_row', 'grid_rows', 'organisation', 'block_size', 'region', 'address'], `weights \`${name}\``);
    const kinds = ['conv3x3', 'linear8', 'linear16', 'compressed'];
    const kind = ident(a.get('kind')?.value, '`kind`');
    if (!kind || !kinds.includes(kind)) {
      err('LD0140', `weights \`${name}\` needs \`kind\` = ${kinds.join(' | ')}`, a.get('kind')?.value.span ?? b.nameSpan, { notes: kind ? didYouMean(kind, kinds) : [] });
      continue;
    }
    if (!a.get('data')) {
      err('LD0110', `weights \`${name}\` needs \`data\``, b.nameSpan);
      continue;
    }
    const w = loadFloats(a.get('data')!.value, a.get('key')?.value, '`data`');
    const beta = a.get('beta') ? loadFloats(a.get('beta')!.value, a.get('beta_key')?.value, '`beta`') : undefined;
    const eb = num(a.get('eb')?.value, '`eb`', -63, 63);
    const region = a.has('region') ? regionRef(a.get('region')!.value, '`region`') : defaultRegion(0);
    const fixed = num(a.get('address')?.value, '`address`', 0, 64 * 2 ** 30);
    if (!w || !region) continue;
    const source = { file: (a.get('data')!.value as { value: string }).value, name };
    try {
      let bytes: Uint8Array;
      let report: Record<string, unknown> = {};
      const parts: W.DbRegion[] = []; // named byte ranges, symbols `<name>.<part>`
      let web = 0; // EB of the stored weights: given, or fitted to the largest weight (W.fittedEb)
      if (kind === 'conv3x3') {
        const fpg = num(a.get('filters_per_grid_row')?.value, '`filters_per_grid_row`', 1, 8) ?? 1;
        const gr = num(a.get('grid_rows')?.value, '`grid_rows`', 1, 16);
        const r = W.pack3x3DatabaseFromFloats(w.data, w.shape, { eb: (web = eb ?? W.fittedEb('LnsI4F3', w.data, beta?.data)), filtersPerGridRow: fpg, ...(gr !== undefined ? { gridRows: gr } : {}), ...(beta ? { beta: beta.data } : {}), source });
        bytes = r.bytes;
        report = { layout: r.layout.kind, eb: web, ...r.report, ...(r.betaMaxRelError !== undefined ? { betaMaxRelError: r.betaMaxRelError } : {}) };
      } else if (kind === 'linear8') {
        const betaEb = num(a.get('beta_eb')?.value, '`beta_eb`', -63, 63);
        const r = W.pack1x1I4F3DatabaseFromFloats(w.data, w.shape, { eb: (web = eb ?? W.fittedEb('LnsI4F3', w.data)), ...(beta ? { beta: beta.data } : {}), ...(betaEb !== undefined ? { betaEb } : {}), source });
        bytes = r.bytes;
        report = { layout: r.layout.kind, eb: web, ...r.report, ...(r.betaMaxRelError !== undefined ? { betaMaxRelError: r.betaMaxRelError } : {}) };
      } else if (kind === 'linear16') {
        const r = W.pack1x1I5F10DatabaseFromFloats(w.data, w.shape, { eb: (web = eb ?? W.fittedEb('LnsI5F10', w.data, beta?.data)), ...(beta ? { beta: beta.data } : {}), source });
        bytes = r.bytes;
        report = { layout: r.layout.kind, eb: web, ...r.report, ...(r.betaMaxRelError !== undefined ? { betaMaxRelError: r.betaMaxRelError } : {}) };
      } else {
        const orgName = ident(a.get('organisation')?.value, '`organisation`') ?? 'cin_per_cout';
        const organisation = orgName === 'cout_per_cin' ? 'coutPerCin' : orgName === 'cin_per_cout' ? 'cinPerCout' : undefined;
        if (!organisation) {
          err('LD0141', `\`organisation\` must be cin_per_cout or cout_per_cin`, a.get('organisation')!.value.span, { spec: `${CHIP} §15.4` });
          continue;
        }
        const bs = num(a.get('block_size')?.value, '`block_size`', 4, 32) ?? 32;
        const r = W.compressWeights(w.data, w.shape, { organisation, blockSize: bs, ...(eb !== undefined ? { eb } : {}), source });
        bytes = r.bytes;
        report = { layout: 'compressed', organisation: orgName, block_size: bs, eb: r.eb, ...r.report };
        parts.push({ name: 'codebook', offset: 0, size: 128 }, { name: 'superblocks', offset: 128, size: r.bytes.length - 128 });
        if (beta) {
          // Beta is not inside the superblocks (4-bit indices only): a trailing 16-bit group
          // (pack1x1BetaGroup), 128-byte aligned after them, symbol `<name>.beta` (chip §15.5).
          const betaEb = num(a.get('beta_eb')?.value, '`beta_eb`', -63, 63) ?? r.eb;
          const g = W.betaGroupFromFloats(beta.data, w.shape[0]!, betaEb, source);
          const at = alignUp(r.bytes.length, 128);
          bytes = new Uint8Array(at + g.bytes.length);
          bytes.set(r.bytes);
          bytes.set(g.bytes, at);
          parts.push({ name: 'beta', offset: at, size: g.bytes.length });
          report = { ...report, beta_offset: at, beta_eb: betaEb, betaMaxRelError: g.report.maxRelError };
        }
      }
      if (typeof report['saturated'] === 'number' && report['saturated'] > 0)
        bag.add(warning('LD0706', `weights \`${name}\`: ${report['saturated']} of ${report['weights']} weights exceed the largest ${kind === 'linear16' ? 'LnsI5F10' : 'LnsI4F3'} magnitude at EB ${report['eb']} and were saturated (raise \`eb\`)`, { span: (a.get('eb') ?? a.get('data'))!.value.span, spec: `${CHIP} §4, §14.1` }));
      const nz = (report['weights'] as number) - (report['zeroWeights'] as number);
      if (kind !== 'compressed' && typeof report['flushedToZero'] === 'number' && report['flushedToZero'] * 100 > nz)
        bag.add(warning('LD0707', `weights \`${name}\`: ${report['flushedToZero']} of ${nz} non-zero weights are below the smallest ${kind === 'linear16' ? 'LnsI5F10' : 'LnsI4F3'} magnitude at EB ${report['eb']} and became zero (lower \`eb\`, or omit it to fit it to the weights)`, { span: (a.get('eb') ?? a.get('data'))!.value.span, spec: `${CHIP} §4` }));
      const placed: Placed = { name, what: 'weight database', region, size: bytes.length, align: 128, address: 0, span: b.nameSpan!, ...(fixed !== undefined ? { fixed } : {}) };
      placements.push(placed);
      weightDbs.push({ name, kind, bytes, placed, report, parts });
    } catch (e) {
      if (e instanceof DiagnosticError) bag.addAll(e.diagnostics.map((d) => ({ ...d, span: b.nameSpan!, notes: [...(d.notes ?? []), `note: from weights \`${name}\``] })));
      else throw e;
    }
  }

  /** A weight database seen as a byte tensor, so trips can name it as `weights`/`src`/`dst`. */
  const dbTensors = new Map<string, TensorDef>();
  const dbTensor = (n: string): TensorDef | undefined => {
    const w = weightDbs.find((x) => x.name === n);
    if (!w) return undefined;
    let t = dbTensors.get(n);
    if (!t) {
      const shape = [1, w.bytes.length];
      dbTensors.set(n, (t = { name: n, span: w.placed.span!, format: 'LnsI4F3', elemBytes: 1, eb: 0, shape, layout: tensorLayout(shape, 1), role: 'compressed', placed: w.placed }));
    }
    return t;
  };

  // ---------- config tables / CSRs preloaded in cfg space (memory_map.json regions) ----------
  const cfgPreloads: Array<{ name: string; cluster: number; address: number; data: Uint8Array; span: SourceSpan }> = [];
  /** Entries with tensor-valued fields, re-encoded once the tensors are placed. */
  const cfgFixups: Array<{ preload: number; entry: number; stride: number; table: CompiledTable; values: FieldValues; cluster: number; refs: Array<{ field: string; shift: number; t: TensorDef; span: SourceSpan }>; autoHash: boolean }> = [];
  for (const b of blocks('config')) {
    const rname = named(b, '`config`');
    if (!rname) continue;
    const region = memoryMap().regions.get(rname);
    if (!region) {
      err('LD0150', `no configuration region \`${rname}\` in grammars/pyxis/memory_map.json`, b.nameSpan, { notes: didYouMean(rname, memoryMap().regions.keys()) });
      continue;
    }
    const a = attrsOf(b, ['cluster', 'uie', 'index', 'values'], `config \`${rname}\``);
    const cluster = num(a.get('cluster')?.value, '`cluster`', 0, 3) ?? 0;
    // cluster CSRs (memory_map.json kind cluster_csr) exist once per cluster: no `uie`
    const perCluster = region.scope === 'cluster';
    if (perCluster && a.has('uie')) err('LD0158', `\`${rname}\` is a cluster CSR (one per cluster); \`uie\` does not apply`, a.get('uie')!.keySpan);
    if (rname === 'cluster.enqueue') {
      err('LD0158', 'the linker writes the enqueue records itself (`.enqueue`); preloading the enqueue CSR would enqueue lists twice', b.nameSpan, { spec: `${CHIP} §11.5.1.1` });
      continue;
    }
    const uie = perCluster ? 0 : num(a.get('uie')?.value, '`uie`', 0, 11) ?? 0;
    const index = num(a.get('index')?.value, '`index`', 0, region.words - 1) ?? 0;
    const entries: Uint8Array[] = [];
    const table = region.table ? loadTable('pyxis', region.table) : undefined;
    // raw values (CSRs without a field table, or whole entries as integers)
    const vv = a.get('values')?.value;
    if (vv) {
      const items = vv.kind === 'list' ? vv.items : [vv];
      for (const it of items) {
        const n = num(it, 'a register value', 0, Number.MAX_SAFE_INTEGER);
        if (n === undefined) continue;
        const e = new Uint8Array(region.stride);
        let x = BigInt(n);
        for (let k = 0; k < Math.min(8, region.stride); k++, x >>= 8n) e[k] = Number(x & 0xffn);
        entries.push(e);
      }
    }
    for (const child of b.children) {
      if (child.kind !== 'entry') {
        err('LD0151', `expected \`entry { field = value; ... }\` inside config, found \`${child.kind}\``, child.kindSpan);
        continue;
      }
      if (!table) {
        err('LD0152', `region \`${rname}\` has no field table; give \`values = [...]\``, child.kindSpan);
        continue;
      }
      const values: FieldValues = {};
      const refs: Array<{ field: string; shift: number; t: TensorDef; span: SourceSpan }> = [];
      for (const at of child.attrs) {
        const f = table.byName.get(at.key);
        if (!f) {
          err('LD0153', `\`${at.key}\` is not a field of ${table.name}`, at.keySpan, { notes: didYouMean(at.key, table.fields.filter((x) => !x.reserved).map((x) => x.name)) });
          continue;
        }
        const shift = SYMBOL_FIELDS[table.name]?.[f.name];
        if (shift !== undefined && at.value.kind === 'ident') {
          const t = tensors.get(at.value.value) ?? dbTensor(at.value.value);
          if (!t) {
            err('LD0126', `no tensor or weight database \`${at.value.value}\``, at.value.span, { notes: didYouMean(at.value.value, [...tensors.keys(), ...weightDbs.map((w) => w.name)]) });
            continue;
          }
          if (t.placed.fixed === undefined) t.placed.align = Math.max(t.placed.align, 2 ** shift);
          refs.push({ field: f.name, shift, t, span: at.value.span });
          values[f.name] = 0; // filled after placement
          continue;
        }
        const conv = (v: ScriptValue): number | string | undefined => (v.kind === 'number' ? v.value : v.kind === 'ident' || v.kind === 'string' ? v.value : undefined);
        if (at.value.kind === 'list') values[at.key] = at.value.items.map((x) => conv(x) ?? 0);
        else {
          const c = conv(at.value);
          if (c === undefined) err('LD0103', `\`${at.key}\` needs a number or a name`, at.value.span);
          else values[at.key] = c;
        }
      }
      const issues = validate(table, values);
      if (issues.length) {
        for (const is of issues) {
          const at = child.attrs.find((x) => x.key === is.field);
          err('LD0154', `${table.name}: ${is.message}`, at?.value.span ?? child.kindSpan);
        }
        continue;
      }
      const e = new Uint8Array(region.stride);
      encode(table, values, e, 0);
      if (refs.length)
        cfgFixups.push({ preload: cfgPreloads.length, entry: entries.length, stride: region.stride, table, values, cluster, refs, autoHash: table.byName.has('bank_hash_dsbl') && !child.attrs.some((x) => x.key === 'bank_hash_dsbl') });
      entries.push(e);
    }
    const dropFixups = () => { while (cfgFixups.length && cfgFixups[cfgFixups.length - 1]!.preload === cfgPreloads.length) cfgFixups.pop(); };
    if (!entries.length) {
      dropFixups();
      err('LD0155', `config \`${rname}\` writes nothing (give entry blocks or values)`, b.nameSpan);
      continue;
    }
    if (index + entries.length > region.words) {
      dropFixups();
      err('LD0156', `config \`${rname}\`: entries ${index}..${index + entries.length - 1} exceed its ${region.words} entries`, b.nameSpan);
      continue;
    }
    const data = new Uint8Array(entries.length * region.stride);
    entries.forEach((e, k) => data.set(e, k * region.stride));
    cfgPreloads.push({ name: perCluster ? `.cfg.c${cluster}.${rname}.${index}` : `.cfg.c${cluster}.uie${uie}.${rname}.${index}`, cluster, address: region.address + uie * memoryMap().uieStride + index * region.stride, data, span: b.nameSpan! });
  }
  for (let x = 0; x < cfgPreloads.length; x++)
    for (let y = 0; y < x; y++) {
      const A = cfgPreloads[x]!;
      const B = cfgPreloads[y]!;
      if (A.cluster === B.cluster && A.address < B.address + B.data.length && B.address < A.address + A.data.length)
        err('LD0157', `config ${A.name} overlaps ${B.name}`, A.span, { secondary: [{ span: B.span, label: 'overlapped' }] });
    }

  // ---------- blobs ----------
  const blobs = new Map<string, BlobDef>();
  for (const b of blocks('blob')) {
    const name = named(b, '`blob`');
    if (!name) continue;
    const a = attrsOf(b, ['file', 'region', 'address'], `blob \`${name}\``);
    const fv = a.get('file')?.value;
    if (!fv) {
      err('LD0110', `blob \`${name}\` needs a \`file\``, b.nameSpan);
      continue;
    }
    const p = ident(fv, '`file`');
    const bytes = p ? loadData(p, fv.span) : undefined;
    const region = a.has('region') ? regionRef(a.get('region')!.value, '`region`') : defaultRegion(0);
    if (!bytes || !region) continue;
    const patches = countPatches(bytes);
    if (typeof patches === 'string') {
      err('LD0209', `patch blob ${p}: ${patches}`, fv.span, { spec: `${CHIP} §12.6.1.2, §12.6.1.3` });
      continue;
    }
    const fixed = num(a.get('address')?.value, '`address`', 0, 64 * 2 ** 30);
    const placed: Placed = { name, what: 'patch blob', region, size: bytes.length, align: 8, address: 0, span: b.nameSpan!, ...(fixed !== undefined ? { fixed } : {}) };
    blobs.set(name, { name, span: b.nameSpan!, bytes, patches, placed });
    placements.push(placed);
  }

  // ---------- objects / programs ----------
  const programs = new Map<string, ProgramDef>();
  const objects: LinkInputObject[] = [...(opts.objects ?? [])];
  for (const inp of script.inputs) {
    const full = resolve(baseDir, inp.path);
    if (!opts.readObject && !opts.readFile && !existsSync(full)) {
      err('LD0201', `no such file: ${inp.path}`, inp.span);
      continue;
    }
    try {
      const c = opts.readObject ? opts.readObject(full) : readObjectDefault(full, readFile);
      objects.push({ file: inp.path, container: c });
    } catch (e) {
      if (e instanceof DiagnosticError) bag.addAll(e.diagnostics);
      else if ((e as NodeJS.ErrnoException).code === 'ENOENT') err('LD0201', `no such file: ${inp.path}`, inp.span);
      else err('LD0210', `cannot read object ${inp.path}: ${(e as Error).message}`, inp.span);
    }
  }
  const vpuPrograms = new Map<string, VpuProgramDef>();
  for (const o of objects) loadPrograms(o, programs, vpuPrograms, memoryMap, bag);

  // ---------- queues and trips ----------
  const uieSeqNames = (): string[] => memoryMap().sequencers.map((s) => s.name);
  const UIE_ATTRS_BASE = ['read', 'write', 'weights', 'read_indirect', 'write_indirect', 'trip_power', 'rmw_source', 'after', 'op'];
  const DMA_ATTRS = ['src', 'dst', 'length', 'trip_power', 'after', 'plane_mask'];
  const MPE_ATTRS = ['blob', 'src', 'dst', 'length', 'after'];
  const RDMA_TX_ATTRS = ['src', 'tjid', 'rjid', 'dest_voq', 'page_size_words', 'after'];
  const RDMA_RX_ATTRS = ['dst', 'tjid', 'rjid', 'msg_voq', 'after'];
  const seenQueue = new Map<string, SourceSpan>();
  const dgramRings: DgramRing[] = [];
  for (const qb of queueBlocks) {
    const qname = named(qb, '`queue`');
    if (!qname) continue;
    const a = attrsOf(qb, ['cluster', 'region'], `queue \`${qname}\``);
    const cluster = num(a.get('cluster')?.value, '`cluster`', 0, 3) ?? 0;
    // `icdma_to<D>`: the ICDMA queue of this cluster whose destination is cluster D (chip Table 11-1)
    const dg = /^dgram_(tx|rx)([01])$/.exec(qname);
    if (dg) {
      // Datagram rings (chip §11.5.2): descriptors without the common header, ring pointers
      // managed by software; the linker builds and places the ring, no enqueue record, no barriers.
      const tx = dg[1] === 'tx';
      const id = (tx ? 0x23 : 0x25) + +dg[2]!;
      const key = `${cluster}:${id}`;
      if (seenQueue.has(key)) err('LD0121', `queue \`${qname}\` of cluster ${cluster} is declared twice`, qb.nameSpan, { secondary: [{ span: seenQueue.get(key)!, label: 'first declared here' }] });
      seenQueue.set(key, qb.nameSpan!);
      const region = a.has('region') ? regionRef(a.get('region')!.value, '`region`') : defaultRegion(cluster);
      const ring: DgramRing = { name: qname, id, tx, cluster, span: qb.nameSpan!, entries: [] };
      for (const db of qb.children) {
        if (db.kind !== 'datagram') {
          err('LD0123', `expected \`datagram\` inside datagram queue \`${qname}\`, found \`${db.kind}\``, db.kindSpan, { spec: `${CHIP} §11.5.2` });
          continue;
        }
        const dname = named(db, '`datagram`');
        if (!dname) continue;
        const key2 = tx ? 'src' : 'dst';
        const da = attrsOf(db, tx ? ['src', 'dest_voq', 'rxq_index', 'bytes'] : ['dst', 'bytes'], `datagram \`${dname}\``);
        const v = da.get(key2)?.value;
        if (!v) {
          err('LD0132', `datagram \`${dname}\` needs \`${key2}\``, db.nameSpan, { spec: `${CHIP} §11.4.${tx ? 8 : 9}` });
          continue;
        }
        const n = ident(v, `\`${key2}\``);
        const t = n === undefined ? undefined : tensors.get(n) ?? dbTensor(n);
        if (n !== undefined && !t) err('LD0126', `no tensor or weight database \`${n}\``, v.span, { notes: didYouMean(n, [...tensors.keys(), ...weightDbs.map((w) => w.name)]) });
        const bytesV = da.get('bytes')?.value;
        const bytes = num(bytesV, '`bytes`', 1, 16256);
        const voq = tx ? num(da.get('dest_voq')?.value, '`dest_voq`', 0, 8191) ?? 0 : 0;
        const rxq = tx ? num(da.get('rxq_index')?.value, '`rxq_index`', 0, 1) ?? 0 : 0;
        if (t && t.placed.fixed === undefined) t.placed.align = Math.max(t.placed.align, 128); // AMEM address [26:7]
        if (t) ring.entries.push({ name: dname, span: db.nameSpan!, t, tSpan: v.span, voq, rxq, ...(bytes !== undefined ? { bytes, bytesSpan: bytesV!.span } : {}) });
      }
      if (region && region.space === 'amem' && region.cluster !== cluster) {
        err('LD0504', `datagram ring ${qname} (cluster ${cluster}) cannot live in memory \`${region.name}\` of cluster ${region.cluster}: the DPE window reaches only its own cluster's AMEM (and HBM)`, a.get('region')?.value.span ?? qb.nameSpan, { spec: `${CHIP} §11.5.2, §12.7` });
        continue;
      }
      if (region && ring.entries.length) {
        // a ring of N descriptors holds N-1 entries (§11.5.2.1): one spare slot
        ring.placed = { name: `.dgram.c${cluster}.${qname}`, what: 'datagram ring', region, size: (ring.entries.length + 1) * 8, align: 8, address: 0, span: qb.nameSpan! };
        placements.push(ring.placed);
      }
      dgramRings.push(ring);
      continue;
    }
    const to = /^icdma_to(\d)$/.exec(qname);
    let q = queueByName(qname);
    if (to) {
      const idx = [0, 1, 2].find((i) => icdmaDestination(cluster, i) === +to[1]!);
      if (idx === undefined) {
        err('LD0120', `cluster ${cluster} has no ICDMA queue to cluster ${to[1]} (chip Table 11-1)`, qb.nameSpan, { spec: `${CHIP} §11.5, §12.2` });
        continue;
      }
      q = { ...queueByName(`icdma${idx}`)!, name: qname };
    }
    if (!q) {
      err('LD0120', `unknown queue \`${qname}\` (chip Table 11-1)`, qb.nameSpan, { notes: didYouMean(qname, [...QUEUE_NAMES, 'icdma_to0', 'icdma_to1', 'icdma_to2', 'icdma_to3', 'barrier']), spec: `${CHIP} §11.5` });
      continue;
    }
    const key = `${cluster}:${q.id}`;
    if (seenQueue.has(key)) err('LD0121', `queue \`${qname}\` of cluster ${cluster} is declared twice`, qb.nameSpan, { secondary: [{ span: seenQueue.get(key)!, label: 'first declared here' }] });
    seenQueue.set(key, qb.nameSpan!);
    if (q.kind === 'barrier') err('LD0122', 'the barrier-config queue is filled by the linker from the `after` dependencies; it cannot be declared', qb.nameSpan, { spec: `${CHIP} §11.4.11` });
    const region = a.has('region') ? regionRef(a.get('region')!.value, '`region`') : defaultRegion(cluster);
    const qd: QueueDef = { q, cluster, span: qb.nameSpan!, trips: [], ...(region ? { region } : {}) };
    queues.push(qd);
    for (const tb of qb.children) {
      if (tb.kind !== 'trip') {
        err('LD0123', `expected \`trip\` inside a queue, found \`${tb.kind}\``, tb.kindSpan);
        continue;
      }
      const tname = named(tb, '`trip`');
      if (!tname) continue;
      const allowed = q.kind === 'uie' ? [...uieSeqNames(), ...UIE_ATTRS_BASE] : q.kind === 'mpe' ? MPE_ATTRS : q.kind === 'rdma_tx' ? RDMA_TX_ATTRS : q.kind === 'rdma_rx' ? RDMA_RX_ATTRS : DMA_ATTRS;
      const ta = attrsOf(tb, allowed, `${q.kind} trip \`${tname}\``);
      const trip: TripDef = { name: tname, span: tb.nameSpan!, queue: q, cluster, block: tb, afters: [], programs: new Map(), tensors: new Map(), nums: new Map() };
      if (tripByName.has(tname)) err('LD0125', `trip \`${tname}\` is declared twice`, tb.nameSpan, { secondary: [{ span: tripByName.get(tname)!.span, label: 'first declared here' }] });
      tripByName.set(tname, trip);
      const tensorRef = (key: string) => {
        const v = ta.get(key)?.value;
        const n = ident(v, `\`${key}\``);
        if (n === undefined) return;
        const t = tensors.get(n) ?? dbTensor(n);
        if (!t) err('LD0126', `no tensor or weight database \`${n}\``, v!.span, { notes: didYouMean(n, [...tensors.keys(), ...weightDbs.map((w) => w.name)]) });
        else trip.tensors.set(key, { t, span: v!.span });
      };
      const numAttr = (key: string, min: number, max: number) => {
        const v = ta.get(key)?.value;
        const n = num(v, `\`${key}\``, min, max);
        if (n !== undefined) trip.nums.set(key, { v: n, span: v!.span });
      };
      const av = ta.get('after')?.value;
      if (av) {
        const items = av.kind === 'list' ? av.items : [av];
        for (const it of items) {
          const n = ident(it, '`after`');
          if (n !== undefined) trip.afters.push({ name: n, span: it.span });
        }
      }
      if (q.kind === 'uie') {
        for (const s of uieSeqNames()) {
          const v = ta.get(s)?.value;
          const n = ident(v, `\`${s}\``);
          if (n === undefined) continue;
          const p = programs.get(n);
          if (!p) err('LD0127', `no program \`${n}\` in the input objects`, v!.span, { notes: didYouMean(n, programs.keys()) });
          else if (p.seq !== s) err('LD0128', `program \`${n}\` is ${p.seq} microcode (from ${p.file}); it cannot run on the ${s} sequencer`, v!.span);
          else trip.programs.set(s, { prog: p, span: v!.span });
        }
        for (const k of ['read', 'write', 'weights', 'rmw_source']) {
          tensorRef(k);
          const x = trip.tensors.get(k);
          if (x && (x.t.placed.region.space !== 'amem' || x.t.placed.region.cluster !== cluster))
            err('LD0508', `UIE trip \`${tname}\`: \`${k}\` tensor \`${x.t.name}\` is in ${x.t.placed.region.space === 'hbm' ? 'HBM' : `the AMEM of cluster ${x.t.placed.region.cluster}`}; a UIE reads and writes its own cluster's AMEM (cluster ${cluster})`, x.span, { spec: `${CHIP} §11.4.2` });
        }
        numAttr('read_indirect', 0, 3);
        numAttr('write_indirect', 0, 3);
        numAttr('trip_power', 0, 127);
        const opV = ta.get('op')?.value;
        const opName = ident(opV, '`op`');
        if (opName !== undefined) {
          if (!UIE_OPS.includes(opName)) err('LD0134', `unknown UIE operation \`${opName}\``, opV!.span, { notes: didYouMean(opName, UIE_OPS).concat([`note: one of ${UIE_OPS.join(', ')}`]) });
          else trip.op = { name: opName, span: opV!.span };
        }
        for (const [k, seqName] of [['read_indirect', 'amem_read'], ['write_indirect', 'amem_write']] as const)
          if (trip.nums.has(k) && !trip.programs.has(seqName))
            err('LD0129', `\`${k}\` enables an ITFE but the trip has no ${seqName} program`, trip.nums.get(k)!.span, { spec: `${CHIP} §11.4.2` });
      } else if (q.kind === 'rdma_tx' || q.kind === 'rdma_rx') {
        // chip §11.4.6 / §11.4.7: the AMEM buffer is in the queue's own cluster, 128-byte words
        const key = q.kind === 'rdma_tx' ? 'src' : 'dst';
        tensorRef(key);
        const x = trip.tensors.get(key);
        if (!ta.has(key)) err('LD0132', `${q.kind} trip \`${tname}\` needs \`${key}\``, tb.nameSpan, { spec: `${CHIP} §11.4.6, §11.4.7` });
        else if (x && (x.t.placed.region.space !== 'amem' || x.t.placed.region.cluster !== cluster))
          err('LD0501', `${q.kind} trip \`${tname}\`: tensor \`${x.t.name}\` must be in the AMEM of cluster ${cluster}`, x.span, { spec: `${CHIP} §11.4.6, §11.4.7` });
        else if (x) {
          x.t.placed.align = Math.max(x.t.placed.align, 128);
          x.t.placed.size = alignUp(x.t.placed.size, 128);
          if (x.t.placed.size / 128 > 65536) err('LD0509', `${q.kind} trip \`${tname}\`: ${x.t.placed.size} bytes exceed 2^16 words of 128 bytes`, x.span, { spec: `${CHIP} §11.4.6` });
        }
        numAttr('tjid', 0, 255);
        numAttr('rjid', 0, 255);
        numAttr(q.kind === 'rdma_tx' ? 'dest_voq' : 'msg_voq', 0, 8191);
        if (q.kind === 'rdma_tx') numAttr('page_size_words', 32, 127);
      } else if (q.kind === 'mpe') {
        const bv = ta.get('blob')?.value;
        if (bv) {
          const n = ident(bv, '`blob`');
          const bl = n !== undefined ? blobs.get(n) : undefined;
          if (n !== undefined && !bl) err('LD0130', `no blob \`${n}\``, bv.span, { notes: didYouMean(n, blobs.keys()) });
          if (bl) {
            trip.blob = bl;
            if (bl.placed.region.space === 'amem' && bl.placed.region.cluster !== cluster)
              err('LD0501', `MPE trip \`${tname}\`: blob \`${bl.name}\` is in the AMEM of cluster ${bl.placed.region.cluster}; the patch blob must be cluster-local`, bv.span, { spec: `${CHIP} §12.6.1.1, §12.7` });
          }
          if (ta.has('src') || ta.has('dst')) err('LD0131', 'an MPE trip is either patch mode (`blob`) or DMA mode (`src`, `dst`)', bv.span, { spec: `${CHIP} §11.4.10` });
        } else {
          tensorRef('src');
          tensorRef('dst');
          if (!ta.has('src') || !ta.has('dst')) err('LD0132', `MPE trip \`${tname}\` needs \`blob\` (patch mode) or \`src\` and \`dst\` (DMA mode)`, tb.nameSpan, { spec: `${CHIP} §11.4.10` });
        }
        numAttr('length', 8, 65536 * 8);
      } else {
        tensorRef('src');
        tensorRef('dst');
        if (!ta.has('src') || !ta.has('dst')) err('LD0132', `${q.kind} trip \`${tname}\` needs \`src\` and \`dst\` tensors`, tb.nameSpan);
        numAttr('length', 1, 2 ** 40);
        numAttr('trip_power', 0, 127);
        numAttr('plane_mask', 1, 15);
      }
      qd.trips.push(trip);
      trips.push(trip);
    }
  }
  for (const t of trips) if (t.op) checkSizeRules(t, bag);
  for (const st of script.afters)
    for (const c of st.consumers) {
      const t = tripByName.get(c.name);
      if (!t) err('LD0133', `no trip \`${c.name}\``, c.span, { notes: didYouMean(c.name, tripByName.keys()) });
      else t.afters.push(...st.producers);
    }
  bag.throwIfErrors();

  // ---------- DMA endpoint checks and padding ----------
  for (const t of trips) {
    const k = t.queue.kind;
    if (k !== 'h2a' && k !== 'a2h' && k !== 'icdma' && !(k === 'mpe' && !t.blob)) continue;
    const src = t.tensors.get('src');
    const dst = t.tensors.get('dst');
    if (!src || !dst) continue;
    const want = (x: { t: TensorDef; span: SourceSpan }, space: 'amem' | 'hbm', cluster: number | undefined, role: string) => {
      const r = x.t.placed.region;
      if (r.space !== space || (cluster !== undefined && r.cluster !== cluster))
        err('LD0501', `${k} trip \`${t.name}\`: ${role} tensor \`${x.t.name}\` is in ${r.space}${r.space === 'amem' ? ` of cluster ${r.cluster}` : ''}; it must be in ${space}${cluster !== undefined ? ` of cluster ${cluster}` : ''}`, x.span, { spec: `${CHIP} §12.1, §12.2` });
    };
    const unit = k === 'h2a' || k === 'a2h' ? 1024 : k === 'icdma' ? 128 : 8;
    if (k === 'h2a') {
      want(src, 'hbm', undefined, 'source');
      want(dst, 'amem', t.cluster, 'destination');
    } else if (k === 'a2h') {
      want(src, 'amem', t.cluster, 'source');
      want(dst, 'hbm', undefined, 'destination');
    } else if (k === 'icdma') {
      want(src, 'amem', t.cluster, 'source');
      want(dst, 'amem', icdmaDestination(t.cluster, t.queue.index), 'destination');
    } else {
      // MPE DMA mode: 32-bit engine addresses reach this cluster's AMEM and HBM [0, 2 GiB) (chip §12.7)
      for (const [x, role] of [[src, 'source'], [dst, 'destination']] as const)
        if (x.t.placed.region.space === 'amem' && x.t.placed.region.cluster !== t.cluster)
          err('LD0501', `MPE trip \`${t.name}\`: ${role} tensor \`${x.t.name}\` is in the AMEM of cluster ${x.t.placed.region.cluster}; the MPE windows reach only cluster ${t.cluster}'s AMEM and HBM`, x.span, { spec: `${CHIP} §12.7` });
    }
    const len = t.nums.get('length')?.v ?? Math.max(src.t.layout.size, dst.t.layout.size);
    const padded = alignUp(len, unit);
    if (padded / unit > 65536) {
      err('LD0509', `${k} trip \`${t.name}\` moves ${padded} bytes; one descriptor moves at most ${65536 * unit} (16-bit length in ${unit}-byte units, N-1 encoded): split the transfer`, t.span, { spec: k === 'mpe' ? `${CHIP} §12.6.2.1` : k === 'icdma' ? `${CHIP} §11.4.5` : `${CHIP} §11.4.3, §11.4.4` });
      continue;
    }
    // Transfers are whole units: make both allocations cover them.
    for (const x of [src, dst]) {
      if (x.t.placed.size < padded) x.t.placed.size = padded;
      const al = x.t.placed.region.space === 'hbm' ? (k === 'mpe' ? 8 : 1024) : k === 'mpe' ? 8 : 128;
      if (x.t.placed.fixed !== undefined && x.t.placed.fixed % al)
        err('LD0502', `${k} trip \`${t.name}\`: tensor \`${x.t.name}\` at 0x${x.t.placed.fixed.toString(16)} is not ${al}-byte aligned`, x.span, { spec: k === 'mpe' ? `${CHIP} §12.6.2.2` : `${CHIP} §12.1, §12.2` });
      x.t.placed.align = Math.max(x.t.placed.align, al);
    }
    t.nums.set('length', { v: padded, span: t.span });
  }
  bag.throwIfErrors();

  // ---------- microcode placement ----------
  const placement: MicrocodePlacement[] = [];
  const uieTrips = new Map<string, TripDef[]>(); // cluster:uie -> trips in queue order
  for (const t of trips) if (t.queue.kind === 'uie') {
    const k = `${t.cluster}:${t.queue.index}`;
    if (!uieTrips.has(k)) uieTrips.set(k, []);
    uieTrips.get(k)!.push(t);
  }
  // startPc per trip per seq
  const startPc = new Map<TripDef, Map<string, number>>();
  const cfgImages = new Map<string, { cluster: number; uie: number; seq: string; ctrl: Uint8Array; op: Uint8Array; words: number }>();
  const overlayPatches: Array<{ cluster: number; uie: number; phase: number; before: TripDef | undefined; after: TripDef; bytes: Uint8Array; patches: number; list: MicroPatch[] }> = [];
  const vpuImages: Array<{ cluster: number; uie: number; prog: VpuProgramDef; addr: number }> = [];
  const appliedRelocs: AppliedRelocation[] = [];
  const imem = memoryMap().regions.get('vpu.imem');
  for (const [key, list] of uieTrips) {
    const [cluster, uie] = key.split(':').map(Number) as [number, number];
    const plan = planMicrocode(list, memoryMap());
    if (typeof plan === 'string') {
      err('LD0601', plan, list[0]!.span, { spec: `${CHIP} §11.1, §12.6; ${SEQ} §2` });
      continue;
    }
    // VPU programs referenced by the UIE's VI op words: preloaded, no overlays (seq §12)
    const vpuAt = placeVpu(list, vpuPrograms, imem?.words ?? 0, (code, msg, span) => err(code, msg, span, { spec: `${SEQ} §12` }));
    for (const [name, addr] of vpuAt) {
      const prog = vpuPrograms.get(name)!;
      vpuImages.push({ cluster, uie, prog, addr });
      placement.push({ cluster, uie, seq: 'vpu', program: name, pc: addr, words: prog.words, phase: 0 });
    }
    const firstUse = new Map<ProgramDef, SourceSpan>();
    for (const t of list) for (const { prog, span } of t.programs.values()) if (!firstUse.has(prog)) firstUse.set(prog, span);
    for (const ph of plan.phases) {
      for (const [seq, progs] of ph.bySeq) {
        const sm = memoryMap().byName.get(seq)!;
        const img = { ctrl: new Uint8Array(sm.ctrl.words * sm.ctrl.stride), op: new Uint8Array(sm.op.words * sm.op.stride), words: 0 };
        for (const { prog, pc } of progs) {
          placement.push({ cluster, uie, seq, program: prog.name, pc, words: prog.words, phase: ph.index });
          const { ctrl, op } = relocate(prog, pc, sm, (sym) => (sym === prog.name ? pc : vpuAt.get(sym)), (r, value, msg) => {
            if (msg === undefined) appliedRelocs.push({ cluster, uie, phase: ph.index, seq, program: prog.name, mem: r.mem, pc: pc + r.word, kind: r.kind, symbol: r.symbol, value: value! });
            else if (value !== undefined || !vpuPrograms.has(r.symbol)) // unplaced VPU programs already have LD0602
              err('LD0603', `program \`${prog.name}\` (${prog.file}) word ${r.word}: relocation ${r.kind} against \`${r.symbol}\`: ${msg}`, firstUse.get(prog), { notes: vpuPrograms.size || !r.symbol.startsWith('vpu.') ? [] : ['note: no input object defines a VPU program (`.vpu name { ... }`)'], spec: `${SEQ} §12` });
          });
          img.ctrl.set(ctrl, pc * sm.ctrl.stride);
          img.op.set(op, pc * sm.op.stride);
          img.words = Math.max(img.words, pc + prog.words);
        }
        if (ph.index === 0) cfgImages.set(`${cluster}:${uie}:${seq}`, { cluster, uie, seq, ctrl: img.ctrl.subarray(0, img.words * sm.ctrl.stride), op: img.op.subarray(0, img.words * sm.op.stride), words: img.words });
        else {
          // accumulate into the overlay patch of this phase
          let op = overlayPatches.find((o) => o.cluster === cluster && o.uie === uie && o.phase === ph.index);
          if (!op) overlayPatches.push((op = { cluster, uie, phase: ph.index, before: ph.prevLast, after: ph.first, bytes: new Uint8Array(0), patches: 0, list: [] }));
          const base = memoryMap().uieStride * uie;
          // One micro_patch per program and memory; register elements are whole words
          // (memory_map strides are already multiples of 8 bytes, chip §12.6.1.2).
          for (const { prog, pc } of progs) {
            op.list.push({ target_address: sm.ctrl.address + base + pc * sm.ctrl.stride, reg_size: sm.ctrl.stride, reg_repeat: prog.words, data: img.ctrl.slice(pc * sm.ctrl.stride, (pc + prog.words) * sm.ctrl.stride) });
            op.list.push({ target_address: sm.op.address + base + pc * sm.op.stride, reg_size: sm.op.stride, reg_repeat: prog.words, data: img.op.slice(pc * sm.op.stride, (pc + prog.words) * sm.op.stride) });
          }
        }
      }
    }
    for (const [t, m] of plan.startPc) startPc.set(t, m);
  }
  bag.throwIfErrors();

  // Overlay patch trips go to MPE queue mpe<uie> of the cluster (chip §12.6.3: one MPE per UIE).
  const genTrips: TripDef[] = [];
  const extraDeps: Array<[TripDef, TripDef]> = [];
  for (const o of overlayPatches) {
    o.bytes = encodePatchBlob(o.list, loadPyxisIsa()); // the assembler's MPE patch-blob writer
    o.patches = o.list.length;
    const q = queueByName(`mpe${o.uie}`)!;
    const region = defaultRegion(o.cluster);
    const name = `__overlay.c${o.cluster}.uie${o.uie}.${o.phase}`;
    const placed: Placed = { name, what: 'overlay patch blob', region, size: o.bytes.length, align: 8, address: 0 };
    const blob: BlobDef = { name, span: o.after.span, bytes: o.bytes, patches: o.patches, placed };
    blobs.set(name, blob);
    placements.push(placed);
    const t: TripDef = { name, span: o.after.span, queue: q, cluster: o.cluster, block: o.after.block, afters: [], programs: new Map(), tensors: new Map(), nums: new Map(), blob, generated: true };
    genTrips.push(t);
    if (o.before) extraDeps.push([t, o.before]);
    extraDeps.push([o.after, t]);
  }
  // Insert generated trips into their queues (MPE queues keep script trips first in order of phases).
  for (const t of genTrips) {
    let qd = queues.find((x) => x.cluster === t.cluster && x.q.id === t.queue.id);
    if (!qd) queues.push((qd = { q: t.queue, cluster: t.cluster, region: defaultRegion(t.cluster), span: t.span, trips: [] }));
    qd.trips.push(t);
    trips.push(t);
    tripByName.set(t.name, t);
  }

  // ---------- barriers ----------
  const orderedTrips: TripDef[] = [];
  for (const qd of queues) for (const t of qd.trips) orderedTrips.push(t);
  const index = new Map(orderedTrips.map((t, i) => [t, i]));
  const deps: Array<[number, number]> = [];
  for (const t of orderedTrips)
    for (const p of t.afters) {
      const pt = tripByName.get(p.name);
      if (!pt) err('LD0133', `no trip \`${p.name}\``, p.span, { notes: didYouMean(p.name, tripByName.keys()) });
      else if (pt === t) err('LD0400', `trip \`${t.name}\` cannot run after itself`, p.span, { spec: `${CHIP} §11.6` });
      else deps.push([index.get(t)!, index.get(pt)!]);
    }
  for (const [c, p] of extraDeps) deps.push([index.get(c)!, index.get(p)!]);
  bag.throwIfErrors();
  const nodes: TripNode[] = orderedTrips.map((t) => ({ name: t.name, cluster: t.cluster, queue: t.queue.id, canNoop: t.queue.kind === 'uie' }));
  let plan: BarrierPlan;
  try {
    plan = allocateBarriers({ trips: nodes, deps }, opts.maxBarrierId ? { maxBarrierId: opts.maxBarrierId } : {});
  } catch (e) {
    if (e instanceof BarrierError) {
      const spans = e.trips.map((i) => orderedTrips[i]!.span);
      throw new DiagnosticError(error(e.code, e.message, { ...(spans[0] ? { span: spans[0] } : {}), secondary: spans.slice(1, 6).map((s) => ({ span: s, label: 'involved' })), spec: e.spec }));
    }
    throw e;
  }

  // ---------- static checks (need the DAG) ----------
  const anc = ancestorBits(orderedTrips.length, deps);
  const ordered = (a: number, b: number) => anc.has(a, b) || anc.has(b, a);

  // ---------- allocation of data ----------
  // Descriptor lists: size known now.
  const descTables = {
    uie: loadTable('pyxis', 'desc_uie'),
    h2a: loadTable('pyxis', 'desc_h2a'),
    a2h: loadTable('pyxis', 'desc_a2h'),
    icdma: loadTable('pyxis', 'desc_icdma'),
    mpe_patch: loadTable('pyxis', 'desc_mpe_patch'),
    mpe_dma: loadTable('pyxis', 'desc_mpe_dma'),
    barrier: loadTable('pyxis', 'desc_barrier_config'),
    enqueue: loadTable('pyxis', 'desc_enqueue_record'),
    rdma_tx: loadTable('pyxis', 'desc_rdma_tx'),
    dgram_tx: loadTable('pyxis', 'desc_dgram_tx'),
    dgram_rx: loadTable('pyxis', 'desc_dgram_rx'),
    rdma_rx: loadTable('pyxis', 'desc_rdma_rx'),
  };
  const descBytes = (kind: string): number => (kind === 'uie' ? descTables.uie.bytes : kind === 'barrier' ? descTables.barrier.bytes : kind === 'mpe' ? descTables.mpe_patch.bytes : descTables.h2a.bytes);
  interface ListDef { cluster: number; queue: QueueInfo; trips: number[]; placed: Placed; part: number }
  const lists: ListDef[] = [];
  const plannedByQueue = new Map<string, number[]>();
  plan.trips.forEach((pt, i) => {
    const k = `${pt.cluster}:${pt.queue}`;
    if (!plannedByQueue.has(k)) plannedByQueue.set(k, []);
    plannedByQueue.get(k)!.push(i);
  });
  // barrier-config queues: one per cluster with barriers
  const barriersByCluster = new Map<number, number[]>();
  plan.barriers.forEach((b, i) => {
    if (!barriersByCluster.has(b.cluster)) barriersByCluster.set(b.cluster, []);
    barriersByCluster.get(b.cluster)!.push(i);
  });
  const MAX_LIST_UNITS = 65536; // descriptor_list_length is 16 bits, N-1 encoded (chip Table 11-2)
  // Lists per queue are unbounded: the 4-entry ring (chip §11.5.1) limits lists in flight, and the
  // host enqueues the next list of a queue when a ring slot frees (docs/spec-notes.md).
  const listMax = Math.max(1, opts.maxListDescriptors ?? DEFAULT_LIST_DESCRIPTORS);
  const makeLists = (cluster: number, q: QueueInfo, items: number[], region: Region) => {
    const per = Math.min(listMax, Math.floor((MAX_LIST_UNITS * 8) / descBytes(q.kind)));
    const parts = Math.ceil(items.length / per);
    if (region.space === 'amem' && region.cluster !== cluster)
      err('LD0504', `descriptor lists of queue ${q.name} (cluster ${cluster}) cannot live in memory \`${region.name}\` of cluster ${region.cluster}: the DPE window reaches only its own cluster's AMEM`, region.span, { spec: `${CHIP} §12.7` });
    for (let p = 0; p < parts; p++) {
      const chunk = items.slice(p * per, (p + 1) * per);
      const name = `.desc.c${cluster}.q${q.id.toString(16).padStart(2, '0')}.${p}`;
      const placed: Placed = { name, what: 'descriptor list', region, size: chunk.length * descBytes(q.kind), align: 8, address: 0 };
      placements.push(placed);
      lists.push({ cluster, queue: q, trips: chunk, placed, part: p });
    }
  };
  for (const [c, bs] of [...barriersByCluster].sort((x, y) => x[0] - y[0])) makeLists(c, queueByName('barrier')!, bs, defaultRegion(c));
  const queueOrder = [...queues].sort((a, b) => a.cluster - b.cluster || a.q.id - b.q.id);
  for (const qd of queueOrder) {
    const items = plannedByQueue.get(`${qd.cluster}:${qd.q.id}`) ?? [];
    if (items.length) makeLists(qd.cluster, qd.q, items, qd.region ?? defaultRegion(qd.cluster));
  }
  bag.throwIfErrors();
  allocate(placements, bag);
  bag.throwIfErrors();

  // ---------- config fields naming tensors (SYMBOL_FIELDS), now that tensors are placed ----------
  for (const fx of cfgFixups) {
    let ok = true;
    let unhashed: boolean | undefined;
    for (const r of fx.refs) {
      const p = r.t.placed;
      if (p.region.space !== 'amem' || p.region.cluster !== fx.cluster) {
        err('LD0159', `${fx.table.name}.${r.field}: \`${r.t.name}\` is in ${p.region.space === 'hbm' ? 'HBM' : `the AMEM of cluster ${p.region.cluster}`}; index tables are read from the AMEM of cluster ${fx.cluster}`, r.span, { spec: `${CHIP} §7.6` });
        ok = false;
      } else if (p.address % 2 ** r.shift) {
        err('LD0803', `${fx.table.name}.${r.field}: indirection table \`${r.t.name}\` at 0x${p.address.toString(16)} is not ${2 ** r.shift}-byte aligned`, r.span, { spec: `${SEQ} §1.1; ${CHIP} §7.6` });
        ok = false;
      } else if (unhashed !== undefined && unhashed !== p.region.unhashed) {
        err('LD0159', `${fx.table.name}: \`${r.t.name}\` is in the ${p.region.unhashed ? 'unhashed' : 'hashed'} view but the other index table is not; one command has one bank_hash_dsbl`, r.span, { spec: `${CHIP} §7.5` });
        ok = false;
      } else {
        unhashed = p.region.unhashed;
        fx.values[r.field] = p.address >> r.shift;
      }
    }
    if (!ok) continue;
    if (fx.autoHash && unhashed !== undefined) fx.values['bank_hash_dsbl'] = unhashed ? 1 : 0;
    const issues = validate(fx.table, fx.values);
    if (issues.length) {
      for (const is of issues) err('LD0154', `${fx.table.name}: ${is.message}`, fx.refs[0]!.span);
      continue;
    }
    encode(fx.table, fx.values, cfgPreloads[fx.preload]!.data, fx.entry * fx.stride);
  }

  // ---------- checks on placed objects ----------
  checkViews(placements, bag);
  for (const t of tensors.values()) {
    const a = t.placed.address;
    if (t.placed.region.space === 'amem') {
      if (t.elemBytes === 2 && a % 32) err('LD0801', `16-bit tensor \`${t.name}\` at 0x${a.toString(16)} is not on an even partition (32-byte) boundary`, t.span, { spec: `${CHIP} §7.3; ${SEQ} §1.1` });
      else if (a % 16) err('LD0802', `tensor \`${t.name}\` at 0x${a.toString(16)} is not partition (16-byte) aligned`, t.span, { spec: `${CHIP} §7.1` });
      if (t.role !== 'data' && a % 128) err('LD0803', `${t.role === 'indirection' ? 'indirection table' : 'compressed weights'} \`${t.name}\` at 0x${a.toString(16)} is not 128-byte aligned`, t.span, { spec: `${SEQ} §1.1` });
    }
  }
  const uieIdx = orderedTrips.map((t, i) => (t.queue.kind === 'uie' ? i : -1)).filter((i) => i >= 0);
  // RMW / InMemAdd source-destination bank alignment (chip §7.4.1)
  for (const i of uieIdx) {
    const t = orderedTrips[i]!;
    const src = t.tensors.get('rmw_source');
    const dst = t.tensors.get('write');
    if (!src) continue;
    if (!dst) {
      err('LD0810', `trip \`${t.name}\`: \`rmw_source\` needs a \`write\` tensor`, src.span, { spec: `${CHIP} §7.4` });
      continue;
    }
    const s = src.t;
    const d = dst.t;
    if (s.placed.address === d.placed.address && s.placed.region === d.placed.region) continue; // same address: rules moot
    const problems: string[] = [];
    if (s.placed.address % HASH_BLOCK !== d.placed.address % HASH_BLOCK) problems.push(`start addresses differ modulo 16 KiB (0x${(s.placed.address % HASH_BLOCK).toString(16)} vs 0x${(d.placed.address % HASH_BLOCK).toString(16)})`);
    if (s.layout.rowStride !== d.layout.rowStride || s.layout.chanStride !== d.layout.chanStride) problems.push('row/channel strides differ');
    if (s.elemBytes !== d.elemBytes) problems.push('element widths differ');
    if (JSON.stringify(s.shape) !== JSON.stringify(d.shape)) problems.push('shapes differ');
    if (!s.placed.region.unhashed || !d.placed.region.unhashed) problems.push('bank hashing must be disabled (unhashed view) for RMW with different addresses');
    if (problems.length)
      err('LD0811', `trip \`${t.name}\`: InMemAdd source \`${s.name}\` and destination \`${d.name}\` are not bank-aligned: ${problems.join('; ')}`, src.span, { spec: `${CHIP} §7.4.1, §7.5` });
  }
  // Unordered overlapping accesses between different engines (chip §11.7, §7.4.2):
  // write/write of different tensors sharing a 16-byte partition is an error (the
  // partial-write RMW hazard); read/write of overlapping data is a warning (a race
  // the barrier graph does not order).
  interface Access { i: number; t: TensorDef; write: boolean; mem: string; iv: Array<[number, number]> }
  const accesses: Access[] = [];
  const ivCache = new Map<TensorDef, Array<[number, number]>>();
  const ivOf = (t: TensorDef) => {
    let v = ivCache.get(t);
    if (!v) {
      const base = t.placed.address;
      ivCache.set(t, (v = rowIntervals(t.layout).map(([a, b]) => [base + a, base + b] as [number, number])));
    }
    return v;
  };
  orderedTrips.forEach((t, i) => {
    const add = (key: string, write: boolean) => {
      const x = t.tensors.get(key);
      if (!x) return;
      const r = x.t.placed.region;
      accesses.push({ i, t: x.t, write, mem: r.space === 'amem' ? `amem${r.cluster}` : 'hbm', iv: ivOf(x.t) });
    };
    if (t.queue.kind === 'uie') {
      add('write', true);
      add('read', false);
      add('weights', false);
      add('rmw_source', false);
    } else {
      add('dst', true);
      add('src', false);
    }
  });
  const engineName = (t: TripDef) => `${t.queue.name}${t.cluster ? ` of cluster ${t.cluster}` : ''}`;
  let races = 0;
  // Sweep over bounding ranges per memory: only accesses whose extents overlap are compared.
  accesses.sort((p, q) => (p.mem < q.mem ? -1 : p.mem > q.mem ? 1 : (p.iv[0]?.[0] ?? 0) - (q.iv[0]?.[0] ?? 0)));
  const hi = (x: Access) => x.iv[x.iv.length - 1]?.[1] ?? 0;
  for (let x = 0; x < accesses.length; x++)
    for (let y = x + 1; y < accesses.length; y++) {
      const A = accesses[x]!;
      const B = accesses[y]!;
      if (A.mem !== B.mem || (B.iv[0]?.[0] ?? 0) >= hi(A)) break;
      if (!A.write && !B.write) continue;
      if (A.i === B.i) continue;
      const ta = orderedTrips[A.i]!;
      const tb = orderedTrips[B.i]!;
      if (ta.cluster === tb.cluster && ta.queue.id === tb.queue.id) continue; // one engine: ordered by its queue
      if (ordered(A.i, B.i) || !intervalsIntersect(A.iv, B.iv)) continue;
      if (A.write && B.write) {
        if (A.t === B.t) continue; // the microcode may write disjoint parts of one tensor
        err('LD0812', `trips \`${ta.name}\` (${engineName(ta)}) and \`${tb.name}\` (${engineName(tb)}) write tensors \`${A.t.name}\` and \`${B.t.name}\` that share 16-byte partitions, with no barrier between them`, ta.span, {
          secondary: [{ span: tb.span, label: 'other writer' }],
          notes: ['help: add `' + tb.name + ' after ' + ta.name + ';` (or the reverse), or move the tensors apart'],
          spec: `${CHIP} §11.7, §7.4.2`,
        });
      } else if (races++ < 20) {
        const [w, r] = A.write ? [A, B] : [B, A];
        bag.add(warning('LD0813', `trip \`${orderedTrips[r.i]!.name}\` reads \`${r.t.name}\` while trip \`${orderedTrips[w.i]!.name}\` may be writing \`${w.t.name}\` (overlapping, no dependency between them)`, {
          span: orderedTrips[r.i]!.span,
          secondary: [{ span: orderedTrips[w.i]!.span, label: 'writer' }],
          notes: [`help: add \`${orderedTrips[r.i]!.name} after ${orderedTrips[w.i]!.name};\` (or the reverse) if one needs the other's data`],
          spec: `${CHIP} §11.7`,
        }));
      }
    }
  bag.throwIfErrors();

  // ---------- encode descriptors ----------
  const sections: Section[] = [];
  const symbols: SymbolEntry[] = [];
  const addSection = (s: Section): number => sections.push(s) - 1;
  const engineAddr = (p: Placed): number => {
    if (p.region.space === 'amem') return amemEngineAddress(p.address, p.region.unhashed);
    const a = hbmEngineAddress(p.address + Math.max(0, p.size - 1));
    if (a === undefined) {
      err('LD0507', `${p.what} \`${p.name}\` at HBM 0x${p.address.toString(16)} is beyond the 2 GiB the DPE/MPE windows reach`, p.span, { spec: `${CHIP} §12.7` });
      return 0;
    }
    return hbmEngineAddress(p.address)!;
  };
  let tripId = 0;
  const tripIds = new Array<number>(plan.trips.length);
  plan.trips.forEach((_, i) => (tripIds[i] = ++tripId));
  const barrierTripIds = plan.barriers.map(() => ++tripId);
  if (tripId >= 1 << 20) err('LD0505', `${tripId} trips exceed the 20-bit Trip_id`, undefined, { spec: `${CHIP} §11.4.1` });
  const header = (i: number): FieldValues => {
    const pt = plan.trips[i]!;
    const nl = [...pt.notify];
    while (nl.length < 8) nl.push(0);
    return { wait_barrier_id: pt.wait, notify_list: nl, trip_id: tripIds[i]! };
  };
  const amem26 = (p: Placed) => (p.address >>> 4) & 0x3fffff;
  const amemWord = (p: Placed) => ((p.address + (p.region.unhashed ? 1 << 26 : 0)) >>> 7) & 0xfffff;
  const seqIds = new Map<string, number>(uieTrips.size ? memoryMap().sequencers.map((s) => [s.name, s.id] as [string, number]) : []);
  const encodeTrip = (i: number, out: Uint8Array, off: number) => {
    const pt = plan.trips[i]!;
    const q = queueByName(queueName(pt.queue))!;
    const t = pt.origin >= 0 ? orderedTrips[pt.origin]! : undefined;
    const h = header(i);
    const enc = (tab: CompiledTable, v: FieldValues) => {
      try {
        encode(tab, v, out, off);
      } catch (e) {
        err('LD0506', `trip \`${pt.name}\`: cannot encode its ${tab.name} descriptor: ${(e as Error).message}`, t?.span);
      }
    };
    if (q.kind === 'uie') {
      const v: FieldValues = { ...h };
      if (t) {
        let mask = 0;
        const pcs = new Array<number>(13).fill(0);
        const sp = startPc.get(t);
        for (const [seq] of t.programs) {
          const id = seqIds.get(seq)!;
          mask |= 1 << id;
          pcs[id] = sp?.get(seq) ?? 0;
        }
        v['trip_valid_mask'] = mask;
        v['start_pc'] = pcs;
        for (const [port, field] of [['read', 'amem_read'], ['write', 'amem_write'], ['weights', 'amem_weights']] as const) {
          const x = t.tensors.get(port);
          if (!x) continue;
          v[`${field}_base_address`] = amem26(x.t.placed);
          v[`${field}_bank_hash_dsbl`] = x.t.placed.region.unhashed ? 1 : 0;
        }
        const ri = t.nums.get('read_indirect');
        if (ri) {
          v['amem_read_indirect_vld'] = 1;
          v['amem_read_indirect_cmd_index'] = ri.v;
        }
        const wi = t.nums.get('write_indirect');
        if (wi) {
          v['amem_write_indirect_vld'] = 1;
          v['amem_write_indirect_cmd_index'] = wi.v;
        }
        v['trip_power'] = t.nums.get('trip_power')?.v ?? 0;
      }
      enc(descTables.uie, v);
    } else if (q.kind === 'h2a' || q.kind === 'a2h') {
      const src = t!.tensors.get('src')!.t.placed;
      const dst = t!.tensors.get('dst')!.t.placed;
      const [am, hb] = q.kind === 'h2a' ? [dst, src] : [src, dst];
      enc(q.kind === 'h2a' ? descTables.h2a : descTables.a2h, { ...h, amem_start_address: amemWord(am), hbm_base_address: Math.floor(hb.address / 1024), length: t!.nums.get('length')!.v / 1024, trip_power: t!.nums.get('trip_power')?.v ?? 0 });
    } else if (q.kind === 'icdma') {
      const src = t!.tensors.get('src')!.t.placed;
      const dst = t!.tensors.get('dst')!.t.placed;
      enc(descTables.icdma, { ...h, amem_source_start_address: amemWord(src), amem_dest_start_address: amemWord(dst), length: t!.nums.get('length')!.v / 128, core_switch_plane_mask: t!.nums.get('plane_mask')?.v ?? 15, trip_power: t!.nums.get('trip_power')?.v ?? 0 });
    } else if (q.kind === 'rdma_tx' || q.kind === 'rdma_rx') {
      const x = t!.tensors.get(q.kind === 'rdma_tx' ? 'src' : 'dst')!.t.placed;
      const v: FieldValues = { ...h, tjid: t!.nums.get('tjid')?.v ?? 0, rjid: t!.nums.get('rjid')?.v ?? 0, amem_address: amemWord(x), num_words: x.size / 128 };
      if (q.kind === 'rdma_tx') {
        v['dest_voq'] = t!.nums.get('dest_voq')?.v ?? 0;
        v['page_size_words'] = t!.nums.get('page_size_words')?.v ?? 125;
        enc(descTables.rdma_tx, v);
      } else {
        v['msg_voq'] = t!.nums.get('msg_voq')?.v ?? 0;
        enc(descTables.rdma_rx, v);
      }
    } else if (q.kind === 'mpe') {
      if (t!.blob) {
        const b = t!.blob;
        enc(descTables.mpe_patch, { ...h, blob_address: engineAddr(b.placed), blob_length: Math.ceil(b.bytes.length / 8), num_patches: b.patches });
      } else {
        const src = t!.tensors.get('src')!.t.placed;
        const dst = t!.tensors.get('dst')!.t.placed;
        enc(descTables.mpe_dma, { ...h, source_address: engineAddr(src), target_address: engineAddr(dst), length: t!.nums.get('length')!.v / 8 });
      }
    }
  };
  const enqueue: number[][] = [];
  const listMeta: Array<Record<string, unknown>> = [];
  for (const l of lists) {
    const bytes = new Uint8Array(l.placed.size);
    const db = descBytes(l.queue.kind);
    l.trips.forEach((idx, k) => {
      if (l.queue.kind === 'barrier') {
        const b = plan.barriers[idx]!;
        encode(descTables.barrier, { wait_barrier_id: b.config_wait, notify_list: [0, 0, 0, 0, 0, 0, 0, 0], trip_id: barrierTripIds[idx]!, barrier_id: b.id, notify_count: b.notify_count, wait_count: b.wait_count }, bytes, k * db);
      } else encodeTrip(idx, bytes, k * db);
    });
    const si = addSection({
      name: l.placed.name, kind: 'descriptors', space: l.placed.region.space, address: l.placed.address, size: bytes.length, align: 8,
      flags: l.placed.region.unhashed ? SectionFlags.unhashed : 0, data: bytes, cluster: l.placed.region.space === 'amem' ? l.placed.region.cluster : -1,
    });
    symbols.push({ name: l.placed.name, kind: 'queue', section: si, offset: 0, size: bytes.length, global: true });
    const ea = engineAddr(l.placed);
    enqueue.push([l.cluster, l.queue.id, ea, bytes.length / 8]);
    listMeta.push({ cluster: l.cluster, queue_id: l.queue.id, engine: l.queue.name, section: l.placed.name, space: l.placed.region.space, address: l.placed.address, engine_address: ea, descriptors: l.trips.length, bytes: bytes.length });
  }
  // datagram rings (chip §11.5.2): no enqueue record; software owns the head/tail pointers
  for (const r of dgramRings) {
    if (!r.placed) continue;
    const bytes = new Uint8Array(r.placed.size);
    r.entries.forEach((e, k) => {
      const x = e.t.placed;
      const spec = `${CHIP} §11.4.${r.tx ? 8 : 9}`;
      if (x.region.space !== 'amem' || x.region.cluster !== r.cluster) {
        err('LD0501', `datagram \`${e.name}\`: tensor \`${e.t.name}\` must be in the AMEM of cluster ${r.cluster}`, e.tSpan, { spec });
        return;
      }
      if (x.address % 128) {
        err('LD0502', `datagram \`${e.name}\`: tensor \`${e.t.name}\` at 0x${x.address.toString(16)} is not 128-byte aligned (AMEM address [26:7])`, e.tSpan, { spec });
        return;
      }
      const n = e.bytes ?? x.size;
      if (n > 16256 || n > x.size) {
        err('LD0509', `datagram \`${e.name}\`: ${n} bytes ${n > x.size ? `exceed tensor \`${e.t.name}\` (${x.size} bytes)` : 'exceed the 16256-byte maximum'}`, e.bytesSpan ?? e.tSpan, { spec });
        return;
      }
      if (r.tx) encode(descTables.dgram_tx, { dest_voq: e.voq, amem_address: amemWord(x), num_bytes: n, rxq_index: e.rxq }, bytes, k * 8);
      else encode(descTables.dgram_rx, { amem_address: amemWord(x), buffer_size_bytes: n }, bytes, k * 8);
    });
    const p = r.placed;
    const si = addSection({ name: p.name, kind: 'descriptors', space: p.region.space, address: p.address, size: bytes.length, align: 8, flags: p.region.unhashed ? SectionFlags.unhashed : 0, data: bytes, cluster: p.region.space === 'amem' ? r.cluster : -1 });
    symbols.push({ name: p.name, kind: 'queue', section: si, offset: 0, size: bytes.length, global: true });
    listMeta.push({ cluster: r.cluster, queue_id: r.id, engine: r.name, section: p.name, space: p.region.space, address: p.address, engine_address: engineAddr(p), descriptors: r.entries.length, bytes: bytes.length });
  }
  bag.throwIfErrors();
  const enq = new Uint8Array(enqueue.length * 8);
  enqueue.forEach(([cluster, qid, addr, units], i) => encode(descTables.enqueue, { cluster: cluster!, queue_id: qid!, descriptor_list_address: addr!, descriptor_list_length: units! }, enq, i * 8));

  // ---------- data sections ----------
  for (const t of tensors.values()) {
    const p = t.placed;
    const si = addSection({
      name: `.tensor.${t.name}`, kind: t.bytes ? 'data' : 'zero', space: p.region.space, address: p.address, size: p.size, align: p.align,
      flags: p.region.unhashed ? SectionFlags.unhashed : 0, data: t.bytes ? padTo(t.bytes, p.size) : new Uint8Array(0), cluster: p.region.space === 'amem' ? p.region.cluster : -1,
    });
    symbols.push({ name: t.name, kind: 'tensor', section: si, offset: 0, size: p.size, global: true, tensor: { shape: [...t.shape], format: t.format, eb: t.eb, strides: byteStrides(t.shape, t.layout) } });
  }
  for (const b of blobs.values()) {
    const p = b.placed;
    const si = addSection({
      name: b.name.startsWith('__overlay') ? `.patch.${b.name.slice(10)}` : `.patch.${b.name}`, kind: 'patch', space: p.region.space, address: p.address, size: b.bytes.length, align: 8,
      flags: p.region.unhashed ? SectionFlags.unhashed : 0, data: b.bytes, cluster: p.region.space === 'amem' ? p.region.cluster : -1,
    });
    symbols.push({ name: b.name, kind: 'blob', section: si, offset: 0, size: b.bytes.length, global: true });
  }
  for (const c of cfgPreloads) addSection({ name: c.name, kind: 'table', space: 'cfg', address: c.address, size: c.data.length, align: 8, flags: 0, data: c.data, cluster: c.cluster });
  for (const wdb of weightDbs) {
    const p = wdb.placed;
    if (p.address % 128) err('LD0804', `weight database \`${wdb.name}\` at 0x${p.address.toString(16)} is not 128-byte aligned`, p.span, { spec: `${SEQ} §1.1; ${CHIP} §14.2` });
    const si = addSection({
      name: `.wdb.${wdb.name}`, kind: 'data', space: p.region.space, address: p.address, size: wdb.bytes.length, align: 128,
      flags: p.region.unhashed ? SectionFlags.unhashed : 0, data: wdb.bytes, cluster: p.region.space === 'amem' ? p.region.cluster : -1,
    });
    symbols.push({ name: wdb.name, kind: 'data', section: si, offset: 0, size: wdb.bytes.length, global: true });
    for (const part of wdb.parts) symbols.push({ name: `${wdb.name}.${part.name}`, kind: 'data', section: si, offset: part.offset, size: part.size, global: true });
  }
  bag.throwIfErrors();
  const programMeta: Array<Record<string, unknown>> = [];
  for (const img of [...cfgImages.values()].sort((a, b) => a.cluster - b.cluster || a.uie - b.uie || seqIds.get(a.seq)! - seqIds.get(b.seq)!)) {
    const sm = memoryMap().byName.get(img.seq)!;
    const base = memoryMap().uieStride * img.uie;
    const ci = addSection({ name: `.ucode.c${img.cluster}.uie${img.uie}.${img.seq}.ctrl`, kind: 'code', space: 'cfg', address: sm.ctrl.address + base, size: img.ctrl.length, align: 8, flags: 0, data: new Uint8Array(img.ctrl), cluster: img.cluster });
    addSection({ name: `.ucode.c${img.cluster}.uie${img.uie}.${img.seq}.op`, kind: 'code', space: 'cfg', address: sm.op.address + base, size: img.op.length, align: 8, flags: 0, data: new Uint8Array(img.op), cluster: img.cluster });
    for (const pl of placement.filter((p) => p.cluster === img.cluster && p.uie === img.uie && p.seq === img.seq && p.phase === 0)) {
      const many = placement.filter((p) => p.program === pl.program).length > 1;
      symbols.push({ name: many ? `c${pl.cluster}.uie${pl.uie}.${pl.seq}.${pl.program}` : pl.program, kind: 'program', section: ci, offset: pl.pc * sm.ctrl.stride, size: pl.words * sm.ctrl.stride, global: true });
    }
  }
  // VPU instruction memories (seq §12): one section per placed VPU program
  for (const v of vpuImages.sort((a, b) => a.cluster - b.cluster || a.uie - b.uie || a.addr - b.addr)) {
    const address = imem!.address + memoryMap().uieStride * v.uie + v.addr * imem!.stride;
    const si = addSection({ name: `.ucode.c${v.cluster}.uie${v.uie}.vpu.${v.prog.name.replace(/^vpu\./, '')}`, kind: 'code', space: 'cfg', address, size: v.prog.data.length, align: 8, flags: 0, data: new Uint8Array(v.prog.data), cluster: v.cluster });
    const many = vpuImages.filter((x) => x.prog === v.prog).length > 1;
    symbols.push({ name: many ? `c${v.cluster}.uie${v.uie}.${v.prog.name}` : v.prog.name, kind: 'label', section: si, offset: 0, size: v.prog.data.length, global: true });
  }
  for (const pl of placement) programMeta.push({ ...pl, name: pl.program });
  addSection({ name: '.enqueue', kind: 'meta', space: 'none', address: 0, size: enq.length, align: 8, flags: 0, data: enq, cluster: -1 });

  // ---------- metadata ----------
  const clustersUsed = Math.max(0, ...orderedTrips.map((t) => t.cluster + 1), ...[...tensors.values()].map((t) => t.placed.region.cluster + 1));
  const uiesUsed = Math.max(0, ...orderedTrips.filter((t) => t.queue.kind === 'uie').map((t) => t.queue.index + 1));
  const hex = (n: number) => '0x' + n.toString(16);
  const clusterIds = [...new Set([0, ...orderedTrips.map((t) => t.cluster)])].sort();
  const remap = clusterIds.map((c) => {
    const w = remapWindows(c).map((x) => ({ base: hex(x.base), mask: hex(x.mask) }));
    return { cluster: c, dpe: w, mpe: w };
  });
  const tripMeta = plan.trips.map((pt, i) => ({ cluster: pt.cluster, queue_id: pt.queue, name: pt.name, trip_id: tripIds[i], kind: queueByName(queueName(pt.queue))!.kind, noop: pt.origin < 0 && !(orderedTrips[pt.origin]?.generated), wait: pt.wait, notify: pt.notify }));
  const barrierMeta = plan.barriers.map((b) => ({ cluster: b.cluster, id: b.id, notify_count: b.notify_count, wait_count: b.wait_count, config_wait: b.config_wait, producers: b.producers.map((i) => plan.trips[i]!.name), consumers: b.consumers.map((i) => plan.trips[i]!.name) }));
  const queueMeta = lists.reduce<Array<Record<string, unknown>>>((acc, l, i) => {
    let q = acc.find((x) => x['cluster'] === l.cluster && x['queue_id'] === l.queue.id);
    if (!q) acc.push((q = { cluster: l.cluster, queue_id: l.queue.id, engine: l.queue.name, lists: [] }));
    (q['lists'] as unknown[]).push(listMeta[i]);
    return acc;
  }, []);
  const image: Container = {
    kind: 'pimg',
    version: FORMAT_VERSION,
    target: 'pyxis',
    sections,
    symbols,
    relocations: [],
    metadata: {
      producer: 'pyxis-ld',
      script: scriptFile,
      pyxis: {
        clusters: clustersUsed,
        uies: uiesUsed,
        noc: { hbm: hex(NOC.hbm), amem: hex(NOC.amem), amemStride: hex(NOC.amemStride), cfg: hex(NOC.cfg), cfgStride: hex(NOC.cfgStride) },
        remap,
        queues: queueMeta,
        trips: tripMeta,
        barriers: barrierMeta,
        programs: programMeta,
        relocations: appliedRelocs,
        weights: weightDbs.map((w) => ({ name: w.name, kind: w.kind, address: w.placed.address, bytes: w.bytes.length, ...w.report })),
      },
    },
  };
  const map: LinkMap = {
    script: scriptFile,
    regions: [...regions.values()].map((r) => ({ name: r.name, space: r.space, cluster: r.cluster, view: r.unhashed ? 'unhashed' : 'hashed', origin: r.origin, length: r.length, used: r.items.reduce((s, x) => s + (x.end - x.start), 0) })),
    sections: sections.map((s) => ({ name: s.name, kind: s.kind, space: s.space, cluster: s.cluster ?? -1, address: s.address, size: s.size, unhashed: !!(s.flags & SectionFlags.unhashed) })),
    symbols: symbols.map((s) => ({ name: s.name, kind: s.kind, address: (sections[s.section]?.address ?? 0) + s.offset, size: s.size, space: sections[s.section]?.space ?? 'none', cluster: sections[s.section]?.cluster ?? -1, ...(s.tensor ? { tensor: s.tensor } : {}) })),
    barriers: barrierMeta,
    microcode: placement,
    relocations: appliedRelocs,
    lists: listMeta as LinkMap['lists'],
    trips: tripMeta as LinkMap['trips'],
    weights: weightDbs.map((w) => ({ name: w.name, kind: w.kind, address: w.placed.address, bytes: w.bytes.length, report: w.report })),
  };
  warnings.push(...bag.items.filter((d) => d.severity !== 'error'));
  return { image, map, diagnostics: warnings };
}

// ---------------------------------------------------------------------------

/** `full` relative to the working directory when it lies below it, else absolute. */
function displayPath(full: string): string {
  const rel = relative(process.cwd(), full);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : full;
}

function readObjectDefault(path: string, readFile: (p: string) => Uint8Array): Container {
  return readContainer(readFile(path), path);
}

/** Float values of a float tensor; float16 / bfloat16 arrive as raw bits (Uint16Array). */
export function toFloats(t: Tensor): Float32Array | Float64Array {
  if (t.data instanceof Float32Array || t.data instanceof Float64Array) return t.data;
  const bits = t.data as Uint16Array;
  const out = new Float32Array(bits.length);
  if (t.dtype === 'bfloat16') {
    const u = new Uint32Array(out.buffer);
    for (let i = 0; i < bits.length; i++) u[i] = bits[i]! << 16;
    return out;
  }
  for (let i = 0; i < bits.length; i++) {
    const h = bits[i]!;
    const sign = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    out[i] = e === 0 ? sign * m * 2 ** -24 : e === 31 ? (m ? NaN : sign * Infinity) : sign * (1 + m / 1024) * 2 ** (e - 15);
  }
  return out;
}

function padTo(b: Uint8Array, size: number): Uint8Array {
  if (b.length === size) return b;
  const out = new Uint8Array(size);
  out.set(b.subarray(0, size));
  return out;
}
