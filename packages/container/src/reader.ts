/**
 * Reads and validates a `.pobj` / `.pimg` container (docs/container-format.md).
 *
 * The input is untrusted: every offset, length, count and alignment is checked
 * against the file before it is used, counts are checked against the byte size
 * of their table before anything is allocated, and every loop is bounded by a
 * count that has already been validated. Any problem throws a DiagnosticError
 * whose ByteSpan names the offending byte offset.
 */
import { failAt } from '@pyxis/diagnostics';
import { ContainerCodes as C } from './codes.js';
import {
  DATA_ALIGN,
  HEADER_SIZE,
  MAGIC,
  MAGIC_LEN,
  REGIONS,
  REGION_TABLE_OFFSET,
  RELOC_ENTRY_SIZE,
  RELOC_HAS_INFO,
  SECTION_ENTRY_SIZE,
  SECTION_HAS_CLUSTER,
  SECTION_KINDS,
  SYMBOL_ENTRY_SIZE,
  SYMBOL_HAS_TENSOR,
  SYMBOL_KINDS,
  TENSOR_HAS_STRIDES,
  TENSOR_RECORD_FIXED,
  type RegionName,
} from './layout.js';
import {
  FORMAT_VERSION,
  type Container,
  type ContainerKind,
  type FileBlock,
  type FileLayout,
  type Relocation,
  type Section,
  type SymbolEntry,
  type TensorInfo,
} from './model.js';

interface Region {
  off: number;
  size: number;
  what: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Diagnostics are one line: collapse whitespace/control characters and cap the length. */
export function oneLine(text: string, max = 160): string {
  // eslint-disable-next-line no-control-regex
  const s = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

class Reader {
  private readonly dv: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly file: string,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  fail(offset: number, code: string, message: string): never {
    return failAt(this.file, offset, code, message);
  }
  /** Checks that [off, off+len) lies inside the file. */
  need(off: number, len: number, what: string): void {
    if (off + len > this.bytes.length)
      this.fail(Math.min(off, this.bytes.length), C.truncated, `truncated: ${what} needs bytes ${off}..${off + len - 1} but the file has ${this.bytes.length} bytes`);
  }
  u8(o: number): number {
    return this.dv.getUint8(o);
  }
  u16(o: number): number {
    return this.dv.getUint16(o, true);
  }
  u32(o: number): number {
    return this.dv.getUint32(o, true);
  }
  i32(o: number): number {
    return this.dv.getInt32(o, true);
  }
  u64(o: number, what: string): number {
    const lo = this.dv.getUint32(o, true);
    const hi = this.dv.getUint32(o + 4, true);
    if (hi > 0x1f_ffff) this.fail(o, C.badNumber, `${what} = ${this.dv.getBigUint64(o, true)} is larger than 2^53-1`);
    return hi * 2 ** 32 + lo;
  }
  i64(o: number, what: string): number {
    const lo = this.dv.getUint32(o, true);
    const hi = this.dv.getInt32(o + 4, true);
    const v = hi * 2 ** 32 + lo;
    if (!Number.isSafeInteger(v)) this.fail(o, C.badNumber, `${what} = ${this.dv.getBigInt64(o, true)} is outside ±(2^53-1)`);
    return v;
  }
  zero(o: number, len: number, what: string): void {
    for (let k = 0; k < len; k++) if (this.bytes[o + k] !== 0) this.fail(o + k, C.reservedSet, `${what} is reserved and must be 0`);
  }
}

/**
 * Parses and validates a container. `file` names the input in diagnostics.
 * Throws DiagnosticError (codes CT0001..CT0014) on any malformed content.
 */
export function readContainer(bytes: Uint8Array, file: string): Container {
  const r: Reader = new Reader(bytes, file);

  // --- header ---
  r.need(0, MAGIC_LEN, 'the magic number');
  let kind: ContainerKind | undefined;
  for (const k of Object.keys(MAGIC) as ContainerKind[]) {
    let ok = true;
    for (let i = 0; i < MAGIC_LEN; i++) if (bytes[i] !== MAGIC[k].charCodeAt(i)) ok = false;
    if (ok) kind = k;
  }
  if (!kind) r.fail(0, C.badMagic, 'not a toolchain container (.pobj/.pimg): bad magic (expected "PYXOBJ\\0\\0" or "PYXIMG\\0\\0")');
  r.need(0, HEADER_SIZE, 'the header');
  const version = r.u16(8);
  if (version !== FORMAT_VERSION) r.fail(8, C.badVersion, `unsupported container version ${version} (this reader supports ${FORMAT_VERSION})`);
  if (r.u16(10) !== 0) r.fail(10, C.reservedSet, `unknown header flags 0x${r.u16(10).toString(16)}`);
  if (r.u32(12) !== HEADER_SIZE) r.fail(12, C.outOfRange, `header size ${r.u32(12)} (expected ${HEADER_SIZE})`);
  const fileSize = r.u64(16, 'file size');
  if (fileSize > bytes.length) r.fail(bytes.length, C.truncated, `truncated: header says the file has ${fileSize} bytes, got ${bytes.length}`);
  if (fileSize < bytes.length) r.fail(fileSize, C.trailing, `${bytes.length - fileSize} unexpected bytes after the end of the container (file size ${fileSize})`);
  const counts = { sections: r.u32(32), symbols: r.u32(36), relocations: r.u32(40) };
  r.zero(44, 4, 'header bytes 44..47');

  const regions = {} as Record<RegionName, Region>;
  const all: Region[] = [{ off: 0, size: HEADER_SIZE, what: 'header' }];
  REGIONS.forEach((name, k) => {
    const at = REGION_TABLE_OFFSET + 16 * k;
    const off = r.u64(at, `${name} offset`);
    const size = r.u64(at + 8, `${name} size`);
    if (off % DATA_ALIGN !== 0) r.fail(at, C.misaligned, `${name} table offset ${off} is not a multiple of ${DATA_ALIGN}`);
    if (off > fileSize || size > fileSize - off) r.fail(at, C.outOfRange, `${name} table (offset ${off}, ${size} bytes) extends past the end of the file (${fileSize} bytes)`);
    regions[name] = { off, size, what: `${name} table` };
    all.push(regions[name]);
  });
  const entrySize = { sections: SECTION_ENTRY_SIZE, symbols: SYMBOL_ENTRY_SIZE, relocations: RELOC_ENTRY_SIZE };
  for (const name of ['sections', 'symbols', 'relocations'] as const) {
    if (counts[name] * entrySize[name] !== regions[name].size)
      r.fail(REGION_TABLE_OFFSET + 16 * REGIONS.indexOf(name) + 8, C.badCount, `${name} table is ${regions[name].size} bytes but ${counts[name]} entries need ${counts[name] * entrySize[name]}`);
  }

  const str = regions.strings;
  const readString = (at: number, what: string): string => {
    const off = r.u32(at);
    const len = r.u32(at + 4);
    if (off > str.size || len > str.size - off) r.fail(at, C.outOfRange, `${what}: string (offset ${off}, ${len} bytes) is outside the string table (${str.size} bytes)`);
    try {
      return utf8.decode(bytes.subarray(str.off + off, str.off + off + len));
    } catch {
      return r.fail(str.off + off, C.badString, `${what}: string is not valid UTF-8`);
    }
  };
  const target = readString(24, 'target');

  const layout: FileLayout = {
    regions: Object.fromEntries(REGIONS.map((n) => [n, { offset: regions[n].off, size: regions[n].size }])) as FileLayout['regions'],
    sectionEntries: [],
    symbolEntries: [],
    tensorRecords: [],
    relocationEntries: [],
  };

  // --- sections ---
  const sections: Section[] = [];
  for (let i = 0; i < counts.sections; i++) {
    const o = regions.sections.off + i * SECTION_ENTRY_SIZE;
    layout.sectionEntries.push(o);
    const w = `section ${i}`;
    const name = readString(o, `${w} name`);
    const kindCode = r.u8(o + 8);
    const skind = SECTION_KINDS[kindCode];
    if (!skind) r.fail(o + 8, C.badEnum, `${w} (${oneLine(name, 40)}): unknown section kind ${kindCode}`);
    r.zero(o + 9, 1, `${w} byte 9`);
    const eflags = r.u16(o + 10);
    if (eflags & ~SECTION_HAS_CLUSTER) r.fail(o + 10, C.reservedSet, `${w} (${oneLine(name, 40)}): unknown entry flags 0x${eflags.toString(16)}`);
    const flags = r.u32(o + 12);
    const space = readString(o + 16, `${w} space`);
    const address = r.u64(o + 24, `${w} address`);
    const size = r.u64(o + 32, `${w} size`);
    const align = r.u32(o + 40);
    if (align === 0 || (align & (align - 1)) !== 0 || align > 2 ** 31) r.fail(o + 40, C.misaligned, `${w} (${oneLine(name, 40)}): alignment ${align} is not a power of two`);
    const cluster = r.i32(o + 44);
    if (!(eflags & SECTION_HAS_CLUSTER) && cluster !== 0) r.fail(o + 44, C.reservedSet, `${w} (${oneLine(name, 40)}): cluster field set but the entry says it has none`);
    const dataOff = r.u64(o + 48, `${w} data offset`);
    const dataLen = r.u64(o + 56, `${w} data length`);
    if (skind === 'zero' ? dataLen !== 0 : dataLen !== size)
      r.fail(o + 56, C.badCount, skind === 'zero' ? `${w} (${oneLine(name, 40)}): zero section stores ${dataLen} bytes (must be 0)` : `${w} (${oneLine(name, 40)}): data length ${dataLen} != section size ${size}`);
    if (dataOff % DATA_ALIGN !== 0) r.fail(o + 48, C.misaligned, `${w} (${oneLine(name, 40)}): data offset ${dataOff} is not a multiple of ${DATA_ALIGN}`);
    if (dataOff > fileSize || dataLen > fileSize - dataOff) r.fail(o + 48, C.outOfRange, `${w} (${oneLine(name, 40)}): data (offset ${dataOff}, ${dataLen} bytes) extends past the end of the file (${fileSize} bytes)`);
    all.push({ off: dataOff, size: dataLen, what: `${w} (${oneLine(name, 40)}) data` });
    const s: Section = { name, kind: skind, space, address, size, align, flags, data: new Uint8Array(bytes.subarray(dataOff, dataOff + dataLen)) };
    if (eflags & SECTION_HAS_CLUSTER) s.cluster = cluster;
    if (skind !== 'zero') s.fileOffset = dataOff;
    sections.push(s);
  }

  // No two regions may share bytes (empty regions occupy nothing).
  const occupied = all.filter((x) => x.size > 0).sort((a, b) => a.off - b.off);
  for (let k = 1; k < occupied.length; k++) {
    const a = occupied[k - 1]!;
    const b = occupied[k]!;
    if (a.off + a.size > b.off) r.fail(b.off, C.overlap, `${b.what} (offset ${b.off}) overlaps ${a.what} (bytes ${a.off}..${a.off + a.size - 1})`);
  }

  // --- symbols ---
  const ten = regions.tensors;
  const symbols: SymbolEntry[] = [];
  for (let i = 0; i < counts.symbols; i++) {
    const o = regions.symbols.off + i * SYMBOL_ENTRY_SIZE;
    layout.symbolEntries.push(o);
    let record: FileBlock | undefined;
    const w = `symbol ${i}`;
    const name = readString(o, `${w} name`);
    const kindCode = r.u8(o + 8);
    const ykind = SYMBOL_KINDS[kindCode];
    if (!ykind) r.fail(o + 8, C.badEnum, `${w} (${oneLine(name, 40)}): unknown symbol kind ${kindCode}`);
    const g = r.u8(o + 9);
    if (g > 1) r.fail(o + 9, C.badEnum, `${w} (${oneLine(name, 40)}): global flag must be 0 or 1, got ${g}`);
    const eflags = r.u16(o + 10);
    if (eflags & ~SYMBOL_HAS_TENSOR) r.fail(o + 10, C.reservedSet, `${w} (${oneLine(name, 40)}): unknown entry flags 0x${eflags.toString(16)}`);
    const section = r.i32(o + 12);
    if (section < -1 || section >= sections.length) r.fail(o + 12, C.badIndex, `${w} (${oneLine(name, 40)}): section index ${section} out of range (${sections.length} sections)`);
    const offset = r.u64(o + 16, `${w} offset`);
    const size = r.u64(o + 24, `${w} size`);
    if (section >= 0 && offset + size > sections[section]!.size)
      r.fail(o + 16, C.outOfRange, `${w} (${oneLine(name, 40)}): offset ${offset} + size ${size} exceeds section ${section} size ${sections[section]!.size}`);
    const y: SymbolEntry = { name, kind: ykind, section, offset, size, global: g === 1 };
    if (eflags & SYMBOL_HAS_TENSOR) {
      const toff = r.u64(o + 32, `${w} tensor record offset`);
      const tlen = r.u64(o + 40, `${w} tensor record length`);
      if (toff % DATA_ALIGN !== 0) r.fail(o + 32, C.misaligned, `${w} (${oneLine(name, 40)}): tensor record offset ${toff} is not a multiple of ${DATA_ALIGN}`);
      if (toff > ten.size || tlen > ten.size - toff || tlen < TENSOR_RECORD_FIXED)
        r.fail(o + 32, C.outOfRange, `${w} (${oneLine(name, 40)}): tensor record (offset ${toff}, ${tlen} bytes) is outside the tensor table (${ten.size} bytes)`);
      y.tensor = readTensor(r, ten.off + toff, tlen, `${w} (${oneLine(name, 40)})`, readString);
      record = { offset: ten.off + toff, size: tlen };
    } else r.zero(o + 32, 16, `${w} (${oneLine(name, 40)}): tensor record fields`);
    layout.tensorRecords.push(record);
    symbols.push(y);
  }

  // --- relocations ---
  const relocations: Relocation[] = [];
  for (let i = 0; i < counts.relocations; i++) {
    const o = regions.relocations.off + i * RELOC_ENTRY_SIZE;
    layout.relocationEntries.push(o);
    const w = `relocation ${i}`;
    const section = r.u32(o);
    if (section >= sections.length) r.fail(o, C.badIndex, `${w}: section index ${section} out of range (${sections.length} sections)`);
    const eflags = r.u16(o + 4);
    if (eflags & ~RELOC_HAS_INFO) r.fail(o + 4, C.reservedSet, `${w}: unknown entry flags 0x${eflags.toString(16)}`);
    r.zero(o + 6, 2, `${w} bytes 6..7`);
    const offset = r.u64(o + 8, `${w} offset`);
    if (offset >= sections[section]!.size) r.fail(o + 8, C.outOfRange, `${w}: offset ${offset} is outside section ${section} (size ${sections[section]!.size})`);
    const kind = readString(o + 16, `${w} kind`);
    const symbol = readString(o + 24, `${w} symbol`);
    const addend = r.i64(o + 32, `${w} addend`);
    const rel: Relocation = { section, offset, kind, symbol, addend };
    if (eflags & RELOC_HAS_INFO) rel.info = r.i64(o + 40, `${w} info`);
    else r.zero(o + 40, 8, `${w} info`);
    relocations.push(rel);
  }

  // --- metadata ---
  const meta = regions.metadata;
  let metadata: Record<string, unknown> = {};
  if (meta.size > 0) {
    let parsed: unknown;
    let text = '';
    try {
      text = utf8.decode(bytes.subarray(meta.off, meta.off + meta.size));
      parsed = JSON.parse(text);
    } catch (e) {
      r.fail(meta.off, C.badMetadata, `metadata is not valid UTF-8 JSON: ${oneLine((e as Error).message)}`);
    }
    // Printing or copying a value nested thousands deep exhausts the stack (JSON.stringify, structuredClone).
    const deep = nestingBeyond(text, MAX_METADATA_DEPTH);
    if (deep >= 0) r.fail(meta.off + deep, C.badMetadata, `metadata nests deeper than ${MAX_METADATA_DEPTH} levels`);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) r.fail(meta.off, C.badMetadata, 'metadata must be a JSON object');
    metadata = parsed as Record<string, unknown>;
  }

  return { kind, version, target, sections, symbols, relocations, metadata, ...(meta.size > 0 ? { metadataOffset: meta.off } : {}), fileLayout: layout };
}

/** Deepest nesting of objects and arrays accepted in container metadata. */
export const MAX_METADATA_DEPTH = 64;

/** Index (UTF-16 units, close to the byte offset for ASCII) where JSON `text` nests deeper than `max`, or -1. */
function nestingBeyond(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return i;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return -1;
}

function readTensor(r: Reader, o: number, len: number, w: string, readString: (at: number, what: string) => string): TensorInfo {
  const format = readString(o, `${w} tensor format`);
  const eb = r.i32(o + 8);
  const rank = r.u32(o + 12);
  const tflags = r.u32(o + 16);
  if (tflags & ~TENSOR_HAS_STRIDES) r.fail(o + 16, C.reservedSet, `${w}: unknown tensor flags 0x${tflags.toString(16)}`);
  r.zero(o + 20, 4, `${w}: tensor record bytes 20..23`);
  const hasStrides = (tflags & TENSOR_HAS_STRIDES) !== 0;
  // Check the record length before allocating anything from `rank`.
  const expect = TENSOR_RECORD_FIXED + 8 * rank * (hasStrides ? 2 : 1);
  if (expect !== len) r.fail(o + 12, C.badCount, `${w}: tensor rank ${rank} needs a ${expect}-byte record, the symbol gives ${len}`);
  const shape: number[] = [];
  for (let k = 0; k < rank; k++) shape.push(r.u64(o + TENSOR_RECORD_FIXED + 8 * k, `${w} shape[${k}]`));
  const t: TensorInfo = { shape, format, eb };
  if (hasStrides) {
    const strides: number[] = [];
    for (let k = 0; k < rank; k++) strides.push(r.i64(o + TENSOR_RECORD_FIXED + 8 * (rank + k), `${w} strides[${k}]`));
    t.strides = strides;
  }
  return t;
}

/** True when the bytes start with a `.pobj` / `.pimg` magic. */
export function startsWithContainerMagic(bytes: Uint8Array): boolean {
  return (Object.keys(MAGIC) as ContainerKind[]).some((k) => {
    for (let i = 0; i < MAGIC_LEN; i++) if (bytes[i] !== MAGIC[k].charCodeAt(i)) return false;
    return true;
  });
}

/**
 * The `target` field of a container, read from the header and string table
 * only (the tools pick a target from their input before the full, validating
 * read). Undefined when the bytes are not a well-formed container header.
 */
export function peekContainerTarget(bytes: Uint8Array): string | undefined {
  if (bytes.length < HEADER_SIZE) return undefined;
  if (!startsWithContainerMagic(bytes)) return undefined;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = REGION_TABLE_OFFSET + 16 * REGIONS.indexOf('strings');
  const strOff = Number(dv.getBigUint64(at, true));
  const strSize = Number(dv.getBigUint64(at + 8, true));
  const off = dv.getUint32(24, true);
  const len = dv.getUint32(28, true);
  if (off > strSize || len > strSize - off || strOff + off + len > bytes.length) return undefined;
  try {
    return utf8.decode(bytes.subarray(strOff + off, strOff + off + len));
  } catch {
    return undefined;
  }
}
