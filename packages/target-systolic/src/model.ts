/**
 * `.tmodel` manifests (Tensil's JSON: program file, consts with base and
 * size, inputs and outputs by name with base and size, the arch) and the
 * `.pimg` image they become: a `program` section (the `.tprog` bytes
 * unchanged), one `consts` section per consts entry in DRAM1 (or local memory
 * when `load_consts_to_local`), the manifest in the metadata. Addresses and
 * sizes are in vectors (spec §4 "Address unit for all memories is one array
 * vector"). Every problem names its JSON path or byte offset.
 */
import { existsSync } from 'node:fs';
import { readInputFile } from '@pyxis/container';
import { dirname, resolve } from 'node:path';
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { FORMAT_VERSION, type Container, type Section } from '@pyxis/container';
import { parseArch, shown, type Arch } from './arch.js';
import { packFile, type Packed } from './pack.js';

export interface TensorRef {
  name: string;
  base: number;
  size: number;
}

export interface TModel {
  name: string;
  /** Absent only when the linker is given the program as a `.pobj`. */
  prog?: { file_name: string; size: number };
  consts: Array<{ file_name: string; base: number; size: number }>;
  inputs: TensorRef[];
  outputs: TensorRef[];
  arch: Arch;
  load_consts_to_local: boolean;
}

function fail(file: string, path: string, message: string): never {
  throw new DiagnosticError({ severity: 'error', code: 'SYS0201', message: `${path}: ${message}`, span: { file, offset: 0 } });
}

function int(file: string, path: string, v: unknown, min = 0): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) fail(file, path, `expected an integer >= ${min}, got ${shown(v)}`);
  return v;
}

function str(file: string, path: string, v: unknown): string {
  if (typeof v !== 'string' || v === '') fail(file, path, `expected a non-empty string, got ${shown(v)}`);
  return v;
}

function list(file: string, path: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) fail(file, path, `expected an array, got ${shown(v)}`);
  return v;
}

function obj(file: string, path: string, v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(file, path, `expected an object, got ${shown(v)}`);
  return v as Record<string, unknown>;
}

export function parseTModel(text: string, file: string, archOverride?: Arch, programGiven = false): TModel {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new DiagnosticError({ severity: 'error', code: 'SYS0200', message: `${file} is not valid JSON: ${(e as Error).message}`, span: { file, offset: 0 } });
  }
  const o = obj(file, '$', v);
  const prog = programGiven && o['prog'] === undefined ? undefined : obj(file, '$.prog', o['prog']);
  const arch = archOverride ?? parseArch(o['arch'], file, '$.arch');
  const tensors = (key: 'inputs' | 'outputs') => tensorRefs(file, `$.${key}`, o[key] ?? [], arch);
  const m: TModel = {
    name: typeof o['name'] === 'string' ? o['name'] : 'model',
    ...(prog ? { prog: { file_name: str(file, '$.prog.file_name', prog['file_name']), size: int(file, '$.prog.size', prog['size']) } } : {}),
    consts: list(file, '$.consts', o['consts'] ?? []).map((x, i) => {
      const e = obj(file, `$.consts[${i}]`, x);
      return { file_name: str(file, `$.consts[${i}].file_name`, e['file_name']), base: int(file, `$.consts[${i}].base`, e['base']), size: int(file, `$.consts[${i}].size`, e['size']) };
    }),
    inputs: tensors('inputs'),
    outputs: tensors('outputs'),
    arch,
    load_consts_to_local: o['load_consts_to_local'] === true,
  };
  return m;
}

/** A manifest's (or an image's metadata) list of input or output tensors: names, DRAM0 vector ranges inside the arch's DRAM0. */
function tensorRefs(file: string, path: string, v: unknown, arch: Arch): TensorRef[] {
  return list(file, path, v).map((x, i) => {
    const e = obj(file, `${path}[${i}]`, x);
    const t = { name: str(file, `${path}[${i}].name`, e['name']), base: int(file, `${path}[${i}].base`, e['base']), size: int(file, `${path}[${i}].size`, e['size'], 1) };
    if (t.base + t.size > arch.dram0_depth) fail(file, `${path}[${i}]`, `vectors ${t.base}..${t.base + t.size - 1} outside DRAM0 (${arch.dram0_depth} vectors)`);
    return t;
  });
}

/** Reads a file the manifest names (relative to the manifest); a missing file is a diagnostic at the JSON path. */
function readSibling(manifest: string, name: string, path: string): Uint8Array {
  const p = resolve(dirname(manifest), name);
  if (!existsSync(p)) fail(manifest, path, `no such file ${p}`);
  return readInputFile(p); // regular files only, size-capped (a device or FIFO is an IO0001 diagnostic)
}

/** Two items of one memory sharing a vector: SYS0205 naming both (sorted by base: O(n log n)). */
export function overlaps(items: ReadonlyArray<{ name: string; space: string; base: number; vectors: number }>, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const sorted = [...items].sort((a, b) => (a.space < b.space ? -1 : a.space > b.space ? 1 : a.base - b.base));
  let reach: (typeof sorted)[number] | undefined; // the item reaching furthest so far in this space
  for (const q of sorted) {
    if (reach && reach.space === q.space && q.base < reach.base + reach.vectors)
      out.push({ severity: 'error', code: 'SYS0205', message: `${q.name} (${q.space} vectors ${q.base}..${q.base + q.vectors - 1}) overlaps ${reach.name} (vectors ${reach.base}..${reach.base + reach.vectors - 1})`, span: { file, offset: 0 } });
    if (!reach || reach.space !== q.space || q.base + q.vectors > reach.base + reach.vectors) reach = q;
  }
  return out;
}

/** One constant or input placed in a memory, with how it was packed. */
export interface PackedRef {
  name: string;
  file: string;
  space: 'dram0' | 'dram1' | 'local';
  base: number;
  packed: Packed;
}

export interface LoadedTModel {
  model: TModel;
  image: Container;
  consts: PackedRef[];
}

/**
 * The `.pimg` of a `.tmodel`: program and constants loaded, checked against the sizes the manifest states.
 * A const file ending in `.npy` is quantised to the data type (pack.ts); `program` replaces the manifest's
 * `.tprog` (the linker given a `.pobj`).
 */
export function loadTModel(text: string, file: string, archOverride?: Arch, program?: { bytes: Uint8Array; file: string }): LoadedTModel {
  const m = parseTModel(text, file, archOverride, program !== undefined);
  let prog: Uint8Array;
  if (program) prog = program.bytes;
  else {
    prog = readSibling(file, m.prog!.file_name, '$.prog.file_name');
    if (prog.length !== m.prog!.size)
      throw new DiagnosticError({ severity: 'error', code: 'SYS0202', message: `$.prog.size: ${m.prog!.file_name} holds ${prog.length} bytes, the manifest says ${m.prog!.size}`, span: { file, offset: 0 } });
  }
  const diags: Diagnostic[] = [];
  const sections: Section[] = [{ name: 'program', kind: 'code', space: 'program', address: 0, size: prog.length, align: 1, flags: 0, data: prog }];
  const consts: PackedRef[] = [];
  const space = m.load_consts_to_local ? 'local' : 'dram1';
  // Overlapping consts are refused from the manifest's sizes, before any file is read (pyxis-ld and pyxis-sim alike).
  const clash = overlaps(m.consts.map((c, i) => ({ name: `consts${i}`, space, base: c.base, vectors: c.size })), file);
  if (clash.length) throw new DiagnosticError(clash);
  // A file named by several entries is read and packed once per size.
  const packedOf = new Map<string, Packed>();
  m.consts.forEach((c, i) => {
    const depth = m.load_consts_to_local ? m.arch.local_depth : m.arch.dram1_depth;
    if (c.base + c.size > depth) diags.push({ severity: 'error', code: 'SYS0202', message: `$.consts[${i}]: vectors ${c.base}..${c.base + c.size - 1} outside ${space} (${depth} vectors)`, span: { file, offset: 0 } });
    const path = resolve(dirname(file), c.file_name);
    let packed: Packed;
    try {
      const key = `${c.size}:${path}`;
      packed = packedOf.get(key) ?? packFile(readSibling(file, c.file_name, `$.consts[${i}].file_name`), c.size, m.arch, path, `$.consts[${i}]`);
      packedOf.set(key, packed);
    } catch (e) {
      if (!(e instanceof DiagnosticError)) throw e;
      diags.push(...e.diagnostics);
      return;
    }
    consts.push({ name: `consts${i}`, file: path, space, base: c.base, packed });
    sections.push({ name: `consts${i}`, kind: 'data', space, address: c.base, size: packed.bytes.length, align: 1, flags: 0, data: packed.bytes });
  });
  if (diags.length) throw new DiagnosticError(diags);
  const image: Container = {
    kind: 'pimg',
    version: FORMAT_VERSION,
    target: 'systolic',
    sections,
    symbols: [],
    relocations: [],
    metadata: { producer: 'pyxis systolic target', model: m.name, program_file: program ? program.file : resolve(dirname(file), m.prog!.file_name), prog_size: prog.length, arch: m.arch, inputs: m.inputs, outputs: m.outputs, load_consts_to_local: m.load_consts_to_local },
  };
  return { model: m, image, consts };
}

export function imageFromTModel(text: string, file: string, archOverride?: Arch): Container {
  return loadTModel(text, file, archOverride).image;
}

/** What the simulator needs from an image (its own or one linked from a .tmodel). */
export interface ImageParts {
  arch: Arch;
  program: Uint8Array;
  programOffset: number;
  /** The file holding the program bytes when it is not the image itself (a .tmodel's .tprog): diagnostics point into it. */
  programFile?: string;
  data: Array<{ space: string; address: number; data: Uint8Array; name: string }>;
  inputs: TensorRef[];
  outputs: TensorRef[];
  model: string;
}

export function imageParts(c: Container, file: string): ImageParts {
  const meta = c.metadata as Record<string, unknown>;
  const arch = parseArch(meta['arch'], file, '$.metadata.arch');
  const prog = c.sections.find((s) => s.name === 'program');
  if (!prog) throw new DiagnosticError({ severity: 'error', code: 'SYS0203', message: `${file} has no program section`, span: { file, offset: 0 } });
  const programFile = typeof meta['program_file'] === 'string' ? meta['program_file'] : undefined;
  // the image's manifest is checked as the .tmodel's is (a malformed one is SYS0201 with its JSON path, never a crash)
  const refs = (k: 'inputs' | 'outputs') => tensorRefs(file, `$.metadata.${k}`, meta[k] === undefined ? [] : meta[k], arch);
  return {
    arch,
    program: prog.data,
    programOffset: prog.fileOffset ?? 0,
    ...(programFile && prog.fileOffset === undefined ? { programFile } : {}),
    data: c.sections.filter((s) => s.kind === 'data').map((s) => ({ space: s.space, address: s.address, data: s.data, name: s.name })),
    inputs: refs('inputs'),
    outputs: refs('outputs'),
    model: typeof meta['model'] === 'string' ? meta['model'] : 'model',
  };
}
