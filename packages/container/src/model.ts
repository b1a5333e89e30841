/**
 * In-memory model of the two container formats: `.pobj` (assembler output)
 * and `.pimg` (linker output). The binary layout is documented in
 * docs/container-format.md; reader.ts / writer.ts convert between the two.
 */
export type ContainerKind = 'pobj' | 'pimg';

/** What a section holds. */
export type SectionKind =
  | 'code' // microcode words (sequencer control/op memories, VPU imem)
  | 'data' // initialised memory contents (AMEM/HBM tensors, config tables)
  | 'zero' // zero-filled memory (size only, no bytes stored)
  | 'descriptors' // descriptor lists
  | 'patch' // MPE patch blobs
  | 'table' // configuration tables (RPSW/RCSW/..., barrier configs)
  | 'meta'; // tool-specific bytes (e.g. enqueue records)

export interface Section {
  name: string;
  kind: SectionKind;
  /**
   * Address space the load address refers to, e.g. `amem`, `hbm`, `dpe32`
   * (the 32-bit MPE/DPE view), `uie.<seq>.ctrl`, or `none` for unplaced sections.
   */
  space: string;
  /** Load address in `space` (bytes, or words for code spaces as the space defines). */
  address: number;
  /** Size in bytes (for `zero` sections, the bytes to fill; otherwise data.length). */
  size: number;
  /** Required alignment of `address` in bytes (power of two). */
  align: number;
  /** Bit flags (SectionFlags). */
  flags: number;
  /** Contents; empty for `zero` sections. */
  data: Uint8Array;
  /** Cluster index for per-cluster spaces (AMEM), -1 when not applicable. */
  cluster?: number;
  /**
   * Byte offset of `data` in the file this section was read from (set by `readContainer`; absent for
   * sections built in memory). Lets tools report problems in a section's contents as a byte offset into
   * the container (`file:offset`). Not part of the binary format: `writeContainer` ignores it.
   */
  fileOffset?: number;
}

/**
 * Section flag bits. `relocatable` and `readonly` mean the same for every
 * target; `target0`..`target3` are the target's own, each target defines
 * what they mean (the Pyxis chip: target0 = the unhashed AMEM view) and names
 * them for `inspect` (InspectHooks.sectionFlags in @pyxis/target). The bit
 * positions are the container's bytes: target0 is bit 1 (where files written
 * before the bits were target-neutral have their only target flag), the
 * others take the free bits 3..5. Other bits are reserved (0).
 */
export const SectionFlags = {
  /** Address not final: the linker places it. */
  relocatable: 1 << 0,
  target0: 1 << 1,
  readonly: 1 << 2,
  target1: 1 << 3,
  target2: 1 << 4,
  target3: 1 << 5,
} as const;

/** The flag names every target shares, in bit order (what `inspect` prints when a target names none of its own). */
export const SECTION_FLAG_NAMES: ReadonlyArray<readonly [name: string, bit: number]> = [
  ['relocatable', SectionFlags.relocatable],
  ['target0', SectionFlags.target0],
  ['readonly', SectionFlags.readonly],
  ['target1', SectionFlags.target1],
  ['target2', SectionFlags.target2],
  ['target3', SectionFlags.target3],
];

/** A target's names for its flag bits: `{ target0: 'unhashed' }`. */
export type TargetFlagNames = Partial<Record<'target0' | 'target1' | 'target2' | 'target3', string>>;

export type SymbolKind = 'program' | 'tensor' | 'label' | 'data' | 'blob' | 'queue';

/** Typed metadata for tensor symbols so tools can dump/convert them by name. */
export interface TensorInfo {
  shape: number[];
  /** Element format name as the formats package spells it (e.g. `RFP8`, `RFP16`, `LnsI4F3`, `Int16`). */
  format: string;
  /** Exponent bias. */
  eb: number;
  /** Optional strides in bytes per dimension (outermost first). */
  strides?: number[];
}

export interface SymbolEntry {
  name: string;
  kind: SymbolKind;
  /** Section index, or -1 for an absolute symbol (offset = absolute address). */
  section: number;
  offset: number;
  size: number;
  /** Exported (visible to the linker) vs local. */
  global: boolean;
  tensor?: TensorInfo;
}

/** A field in a section that the linker must patch once `symbol` is placed. */
export interface Relocation {
  /** Section containing the field. */
  section: number;
  /** Byte offset of the word containing the field inside that section. */
  offset: number;
  /** Relocation kind, e.g. `pyxis.sol_pc` (names the field table + field it patches). */
  kind: string;
  symbol: string;
  addend: number;
  /** Extra target data (e.g. which iterator spec the field belongs to). */
  info?: number;
}

export interface Container {
  kind: ContainerKind;
  /** Format version (FORMAT_VERSION for files this toolchain writes). */
  version: number;
  /** Target name: `pyxis`, `neuroncore`, `systolic`, `xnu`. */
  target: string;
  sections: Section[];
  symbols: SymbolEntry[];
  relocations: Relocation[];
  /** Free-form JSON metadata (producer, source files, link options ...). */
  metadata: Record<string, unknown>;
  /**
   * Byte offset of the metadata JSON in the file this container was read from (set by `readContainer`;
   * absent for containers built in memory): metadata diagnostics point there. Not written by `writeContainer`.
   */
  metadataOffset?: number;
  /**
   * Where each table entry and record lies in the file this container was read from (set by `readContainer`,
   * absent for containers built in memory); `inspect` prints it. Not written by `writeContainer`.
   */
  fileLayout?: FileLayout;
}

/** A block of the file: byte offset and length. */
export interface FileBlock {
  offset: number;
  size: number;
}

/** File offsets of a container's parts, as read (docs/container-format.md, "In-memory extras"). */
export interface FileLayout {
  /** The header's region descriptors: table offsets and sizes. */
  regions: Record<'sections' | 'symbols' | 'relocations' | 'tensors' | 'strings' | 'metadata', FileBlock>;
  /** Byte offset of each section's 64-byte entry (section data: `Section.fileOffset`). */
  sectionEntries: number[];
  /** Byte offset of each symbol's 48-byte entry. */
  symbolEntries: number[];
  /** Byte offset and length of each symbol's tensor record (undefined: the symbol has none). */
  tensorRecords: Array<FileBlock | undefined>;
  /** Byte offset of each relocation's 48-byte entry. */
  relocationEntries: number[];
}

export const FORMAT_VERSION = 1;
