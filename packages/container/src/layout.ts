/**
 * Byte layout constants of the `.pobj` / `.pimg` container (docs/container-format.md).
 * Everything is little-endian; every region and every section's data starts
 * on an 8-byte boundary.
 */
import type { ContainerKind, SectionKind, SymbolKind } from './model.js';

export const MAGIC: Record<ContainerKind, string> = {
  pobj: 'PYXOBJ\0\0',
  pimg: 'PYXIMG\0\0',
};
export const MAGIC_LEN = 8;

/** Header: 48 fixed bytes + 6 region descriptors of 16 bytes. */
export const HEADER_SIZE = 144;
export const SECTION_ENTRY_SIZE = 64;
export const SYMBOL_ENTRY_SIZE = 48;
export const RELOC_ENTRY_SIZE = 48;
/** Fixed part of a tensor record; followed by rank u64 dims and (optionally) rank i64 strides. */
export const TENSOR_RECORD_FIXED = 24;
export const DATA_ALIGN = 8;

/** Region descriptors in header order. */
export const REGIONS = ['sections', 'symbols', 'relocations', 'tensors', 'strings', 'metadata'] as const;
export type RegionName = (typeof REGIONS)[number];
export const REGION_TABLE_OFFSET = 48;

/** On-disk codes (index in these lists); append only, never reorder. */
export const SECTION_KINDS: readonly SectionKind[] = ['code', 'data', 'zero', 'descriptors', 'patch', 'table', 'meta'];
export const SYMBOL_KINDS: readonly SymbolKind[] = ['program', 'tensor', 'label', 'data', 'blob', 'queue'];

/** Section entry flags (u16 at +10). */
export const SECTION_HAS_CLUSTER = 1;
/** Symbol entry flags (u16 at +10). */
export const SYMBOL_HAS_TENSOR = 1;
/** Relocation entry flags (u16 at +4). */
export const RELOC_HAS_INFO = 1;
/** Tensor record flags (u32 at +16). */
export const TENSOR_HAS_STRIDES = 1;

export function alignUp(n: number, a: number = DATA_ALIGN): number {
  return Math.ceil(n / a) * a;
}
