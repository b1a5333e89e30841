/**
 * The Pyxis ISA as the assembler sees it: one sequencing-control table and
 * one operations table per UIE sequencer (seq-fspec §2.1, §2.2, §5-14), all
 * loaded from `grammars/pyxis/` (manifest `isa.json`). Nothing here knows a
 * field width: the tables drive parsing, defaults, range checks, encoding,
 * disassembly and IR. Fields with a special meaning to the assembler carry
 * a `role` in their table (docs/field-tables.md): `opcode`, `iter_mask`,
 * `iter_id`, `per_iter`, `vpu_addr`, `vpu_count`. Tests inject their own `Isa` (see `makeIsa`).
 */
import { loadGrammarJson, loadTable, type CompiledField, type CompiledTable } from '@pyxis/codec';
import { opSpace } from '@pyxis/asm';

/** The sequencer spec ("seq §x" in messages). */
export const SEQ_SPEC = 'pyxis-uie-sequencers-fspec.md';

export interface SequencerManifestEntry {
  id: number;
  name: string;
  title?: string;
  spec?: string;
  control: string;
  op: string;
  post_final?: boolean;
}

export interface IsaManifest {
  iterators: number;
  program_words: number;
  vpu_imem_words?: number;
  sequencers: SequencerManifestEntry[];
}

/** Where one microcode memory sits in the 32-bit MPE/DPE view (chip §12.7). */
export interface MemoryRegion {
  /** Byte address of word 0. */
  address: number;
  /** Bytes between consecutive words (default: table bytes rounded up to 8). */
  stride?: number;
  /** Number of words. */
  words?: number;
}

export interface SequencerInfo {
  id: number;
  name: string;
  title: string;
  spec: string;
  control: CompiledTable;
  op: CompiledTable;
  /** Control words carry `post_final_enbl` (AMEM Read/Write/Weights Read, seq §2.1.2). */
  postFinal: boolean;
  /** The opcode field (`meta.opcode_field` or `opcd`) whose enum names are the mnemonics. */
  opcode?: CompiledField;
  /** mnemonic -> opcode value */
  mnemonics: Map<string, number>;
  ctrlMem?: MemoryRegion;
  opMem?: MemoryRegion;
}

/** The VPU instruction memory (this project's VPU model, grammars/pyxis/vpu_instr.json). */
export interface VpuInfo {
  title: string;
  op: CompiledTable;
  opcode?: CompiledField;
  mnemonics: Map<string, number>;
  words: number;
  mem?: MemoryRegion;
}

export interface Isa {
  vpu?: VpuInfo;
  iterators: number;
  programWords: number;
  sequencers: Map<string, SequencerInfo>;
  /** micro_patch_t header table (chip §12.6.1.2). */
  patchHeader: CompiledTable;
}

/** Bytes per stored word in sections and patch data: table bytes rounded up to 8 (chip §12.6.1.2). */
export function wordStride(t: CompiledTable): number {
  return Math.ceil(t.bytes / 8) * 8;
}

export interface MakeIsaInput {
  manifest: IsaManifest;
  tables: (name: string) => CompiledTable;
  memoryMap?: unknown;
  /** The micro_patch_t header (chip §12.6.1.2); default: the table `patch_micro_patch_t`. */
  patchHeader?: CompiledTable;
  /** Table name of the VPU instruction word (default `vpu_instr`). */
  vpuTable?: string;
}

function findNamedRegion(mm: unknown, name: string): MemoryRegion | undefined {
  if (!mm || typeof mm !== 'object') return undefined;
  const o = mm as Record<string, unknown>;
  const regions = o['regions'] ?? o['memories'];
  if (!Array.isArray(regions)) return undefined;
  for (const e of regions) if (e && typeof e === 'object' && (e as Record<string, unknown>)['name'] === name) return region(e);
  return undefined;
}

/** Builds an Isa from a manifest and a table resolver (tests pass fixture tables). */
export function makeIsa(input: MakeIsaInput): Isa {
  const { manifest } = input;
  const seqs = new Map<string, SequencerInfo>();
  for (const s of manifest.sequencers) {
    const op = input.tables(s.op);
    const control = input.tables(s.control);
    checkRoles(op, manifest.iterators);
    const { opcode, mnemonics } = opSpace(op);
    const info: SequencerInfo = {
      id: s.id,
      name: s.name,
      title: s.title ?? s.name,
      spec: s.spec ?? 'pyxis-uie-sequencers-fspec.md',
      control,
      op,
      postFinal: !!s.post_final && control.byName.has('iter1_post_final_enbl'),
      mnemonics,
      ...(opcode ? { opcode } : {}),
    };
    const mm = findRegions(input.memoryMap, s.name);
    if (mm.ctrl) info.ctrlMem = mm.ctrl;
    if (mm.op) info.opMem = mm.op;
    seqs.set(s.name, info);
  }
  let vpu: VpuInfo | undefined;
  if (manifest.vpu_imem_words) {
    // The manifest promises a VPU instruction memory: a missing or broken table is an error, never a silently absent VPU.
    const t: CompiledTable | undefined = input.tables(input.vpuTable ?? 'vpu_instr');
    if (t) {
      checkRoles(t, manifest.iterators);
      const { opcode, mnemonics } = opSpace(t);
      vpu = { title: 'VPU', op: t, mnemonics, words: manifest.vpu_imem_words, ...(opcode ? { opcode } : {}) };
      const r = findNamedRegion(input.memoryMap, 'vpu.imem');
      if (r) vpu.mem = r;
    }
  }
  return {
    ...(vpu ? { vpu } : {}),
    iterators: manifest.iterators,
    programWords: manifest.program_words,
    sequencers: seqs,
    patchHeader: input.patchHeader ?? input.tables('patch_micro_patch_t'),
  };
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v)) return Number(v);
  return undefined;
}

function region(v: unknown): MemoryRegion | undefined {
  if (v === null || typeof v !== 'object') return num(v) !== undefined ? { address: num(v)! } : undefined;
  const o = v as Record<string, unknown>;
  const address = num(o['address'] ?? o['base'] ?? o['addr']);
  if (address === undefined) return undefined;
  const r: MemoryRegion = { address };
  const stride = num(o['stride'] ?? o['word_stride'] ?? o['stride_bytes']);
  if (stride !== undefined) r.stride = stride;
  const words = num(o['words'] ?? o['depth'] ?? o['entries']);
  if (words !== undefined) r.words = words;
  return r;
}

/**
 * Finds a sequencer's control/op memories in memory_map.json. Accepts the
 * shapes `{sequencers: {<name>: {ctrl|control: R, op: R}}}`,
 * `{sequencers: [{name, ctrl|control, op}]}` and flat `regions` lists whose
 * names are `<seq>.ctrl` / `<seq>.op` (R = `{address, stride?, words?}` or a number).
 */
function findRegions(mm: unknown, seq: string): { ctrl?: MemoryRegion; op?: MemoryRegion } {
  if (!mm || typeof mm !== 'object') return {};
  const o = mm as Record<string, unknown>;
  const out: { ctrl?: MemoryRegion; op?: MemoryRegion } = {};
  const fromEntry = (e: Record<string, unknown>) => {
    const c = region(e['ctrl'] ?? e['control'] ?? e['ctrl_mem'] ?? e['control_memory']);
    const p = region(e['op'] ?? e['op_mem'] ?? e['ops'] ?? e['op_memory']);
    if (c) out.ctrl = c;
    if (p) out.op = p;
  };
  const seqs = o['sequencers'];
  if (Array.isArray(seqs)) {
    for (const e of seqs) if (e && typeof e === 'object' && (e as Record<string, unknown>)['name'] === seq) fromEntry(e as Record<string, unknown>);
  } else if (seqs && typeof seqs === 'object') {
    const e = (seqs as Record<string, unknown>)[seq];
    if (e && typeof e === 'object') fromEntry(e as Record<string, unknown>);
  }
  const regions = o['regions'] ?? o['memories'];
  if (Array.isArray(regions)) {
    for (const e of regions) {
      if (!e || typeof e !== 'object') continue;
      const r = e as Record<string, unknown>;
      const name = String(r['name'] ?? '');
      if (!out.ctrl && (name === `${seq}.ctrl` || name === `${seq}_ctrl` || name === `uie.${seq}.ctrl`)) out.ctrl = region(r);
      if (!out.op && (name === `${seq}.op` || name === `${seq}_op` || name === `uie.${seq}.op`)) out.op = region(r);
    }
  }
  return out;
}

let cached: Isa | undefined;

/** Loads the Pyxis ISA from grammars/pyxis (isa.json, the tables it names, memory_map.json). Cached. */
export function loadPyxisIsa(opts: { fresh?: boolean } = {}): Isa {
  if (cached && !opts.fresh) return cached;
  const manifest = loadGrammarJson<IsaManifest>('pyxis', 'isa');
  // A missing or broken memory map is the one clear grammar error (GR0001), not a silently unplaceable program.
  const memoryMap: unknown = loadGrammarJson('pyxis', 'memory_map');
  cached = makeIsa({ manifest, tables: (n) => loadTable('pyxis', n), memoryMap });
  return cached;
}

/** Control-table field name for iterator `i` (Table 2-1 names prefixed `iter<i>_`). */
const iterNames = new Map<string, string[]>();
export function iterField(i: number, name: string): string {
  let a = iterNames.get(name);
  if (!a) iterNames.set(name, (a = []));
  return (a[i] ??= `iter${i}_${name}`);
}

/**
 * Iterator-mask op fields (role `iter_mask`: one bit per iterator, "Bit i =
 * iterator i", e.g. `zero_accum_iter_mask`, seq §10.3) are written as iterator lists.
 */
export function isIterMaskField(f: CompiledField): boolean {
  return f.role === 'iter_mask';
}

/** Array op fields with one element per iterator (role `per_iter`, e.g. `iter_stride`, seq §5.2): element i is written `f[i<i>]`. */
export function isPerIterField(f: CompiledField): boolean {
  return f.role === 'per_iter';
}

/** Iterator-select op fields (role `iter_id`, e.g. `hbuf_stride_iter_id_dim1`) are written as `i<n>`. */
export function isIterIdField(f: CompiledField): boolean {
  return f.role === 'iter_id';
}

/**
 * The op field that counts the instructions of the VPU program whose address
 * `refField` holds: in a table whose `vpu_addr` field is `refField`, its
 * `vpu_count` field (`vpv_pgm_start_addr` -> `vpv_pgm_instr_count`, seq
 * §12.1). When the source names a VPU program and omits the count, the
 * assembler fills in the program's length.
 */
export function vpuCountField(t: CompiledTable, refField: string): CompiledField | undefined {
  if (t.byName.get(refField)?.role !== 'vpu_addr') return undefined;
  return t.fields.find((f) => f.role === 'vpu_count');
}

/**
 * Roles the assembler relies on must fit the ISA: an `iter_mask` has one bit
 * per iterator, an `iter_id` can name every iterator, neither is an array or
 * an enum. A table that breaks this is a grammar bug (thrown, exit 3).
 */
function checkRoles(t: CompiledTable, iterators: number): void {
  for (const f of t.fields) {
    const bad =
      f.role === 'iter_mask'
        ? f.width !== iterators || f.count !== 1 || !!f.enum
        : f.role === 'iter_id'
          ? 2 ** f.width < iterators || f.count !== 1 || !!f.enum
          : f.role === 'per_iter'
            ? f.count !== iterators
            : false;
    if (bad) throw new Error(`field table \`${t.name}\`: field \`${f.name}\` cannot have role \`${f.role}\` (${f.width} bits${f.count > 1 ? ` x ${f.count}` : ''}${f.enum ? ', enum' : ''}; the ISA has ${iterators} iterators)`);
  }
}
