/**
 * Serialises the in-memory Container model to the `.pobj` / `.pimg` byte
 * layout (docs/container-format.md). The writer checks the model first, so a
 * container it writes is always one the reader accepts.
 */
import { DiagnosticError, error } from '@pyxis/diagnostics';
import { ContainerCodes } from './codes.js';
import {
  DATA_ALIGN,
  HEADER_SIZE,
  MAGIC,
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
  alignUp,
} from './layout.js';
import { FORMAT_VERSION, type Container, type TensorInfo } from './model.js';

const U32_MAX = 0xffff_ffff;

function bad(message: string): never {
  throw new DiagnosticError(error(ContainerCodes.badModel, `cannot write container: ${message}`));
}

function checkUint(v: unknown, what: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) bad(`${what} must be an integer in 0..${max}, got ${String(v)}`);
  return v;
}
function checkInt(v: unknown, what: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) bad(`${what} must be an integer in ${min}..${max}, got ${String(v)}`);
  return v;
}

/**
 * Deduplicating string table: strings are referenced as (offset, byte length). Only the byte offsets are kept
 * per distinct string (the strings themselves live in the model); they are encoded straight into the output
 * (a large object has hundreds of thousands of names: no array or tuple per name).
 */
class StringTable {
  private readonly index = new Map<string, number>();
  private readonly list: string[] = [];
  private readonly offs: number[] = [];
  size = 0;
  add(s: unknown, what: string): void {
    if (typeof s !== 'string') bad(`${what} must be a string, got ${typeof s}`);
    if (this.index.has(s)) return;
    this.index.set(s, this.list.length);
    this.list.push(s);
    this.offs.push(this.size);
    this.size += Buffer.byteLength(s, 'utf8');
    if (this.size > U32_MAX) bad('string table exceeds 4 GiB');
  }
  /** Writes the (offset, length) reference of an added string at `o`. */
  ref(dv: DataView, o: number, s: string): void {
    const k = this.index.get(s)!;
    const off = this.offs[k]!;
    const end = k + 1 < this.offs.length ? this.offs[k + 1]! : this.size;
    dv.setUint32(o, off, true);
    dv.setUint32(o + 4, end - off, true);
  }
  /** Encodes the table at `at` in `out`. */
  write(out: Uint8Array, at: number): void {
    const enc = new TextEncoder();
    this.list.forEach((s, k) => enc.encodeInto(s, out.subarray(at + this.offs[k]!)));
  }
}

function tensorRecordSize(t: TensorInfo): number {
  return TENSOR_RECORD_FIXED + 8 * t.shape.length * (t.strides ? 2 : 1);
}

/** Encodes a container. Throws DiagnosticError (code CT0100) if the model is not representable. */
export function writeContainer(c: Container): Uint8Array {
  const magic = MAGIC[c.kind];
  if (!magic) bad(`kind must be 'pobj' or 'pimg', got ${String(c.kind)}`);
  if (c.version !== FORMAT_VERSION) bad(`version must be ${FORMAT_VERSION}, got ${String(c.version)}`);
  const strings = new StringTable();
  strings.add(c.target, 'target');
  const nSec = c.sections.length;

  // --- validate and size everything before allocating ---
  for (const [i, s] of c.sections.entries()) {
    const w = `section ${i} (${String(s.name)})`;
    if (!SECTION_KINDS.includes(s.kind)) bad(`${w}: unknown kind ${String(s.kind)}`);
    checkUint(s.address, `${w} address`);
    checkUint(s.size, `${w} size`);
    checkUint(s.align, `${w} align`, 2 ** 31);
    if (s.align === 0 || (s.align & (s.align - 1)) !== 0) bad(`${w}: align ${s.align} is not a power of two`);
    checkUint(s.flags, `${w} flags`, U32_MAX);
    if (s.cluster !== undefined) checkInt(s.cluster, `${w} cluster`, -(2 ** 31), 2 ** 31 - 1);
    if (!(s.data instanceof Uint8Array)) bad(`${w}: data must be a Uint8Array`);
    if (s.kind === 'zero' ? s.data.length !== 0 : s.data.length !== s.size)
      bad(s.kind === 'zero' ? `${w}: a zero section stores no bytes (data has ${s.data.length})` : `${w}: size ${s.size} != data length ${s.data.length}`);
  }
  let tensorBytes = 0;
  for (const [i, y] of c.symbols.entries()) {
    const w = `symbol ${i} (${String(y.name)})`;
    if (!SYMBOL_KINDS.includes(y.kind)) bad(`${w}: unknown kind ${String(y.kind)}`);
    checkInt(y.section, `${w} section`, -1, nSec - 1);
    checkUint(y.offset, `${w} offset`);
    checkUint(y.size, `${w} size`);
    if (typeof y.global !== 'boolean') bad(`${w}: global must be a boolean`);
    if (y.section >= 0 && y.offset + y.size > c.sections[y.section]!.size)
      bad(`${w}: offset ${y.offset} + size ${y.size} exceeds section ${y.section} size ${c.sections[y.section]!.size}`);
    if (y.tensor) {
      const t = y.tensor;
      if (!Array.isArray(t.shape) || t.shape.length > 64) bad(`${w}: tensor shape must be an array of at most 64 dims`);
      t.shape.forEach((d, k) => checkUint(d, `${w} shape[${k}]`));
      checkInt(t.eb, `${w} eb`, -(2 ** 31), 2 ** 31 - 1);
      if (t.strides) {
        if (!Array.isArray(t.strides) || t.strides.length !== t.shape.length) bad(`${w}: strides must have one entry per dimension`);
        t.strides.forEach((d, k) => checkInt(d, `${w} strides[${k}]`));
      }
      tensorBytes += tensorRecordSize(t);
    }
  }
  for (const [i, r] of c.relocations.entries()) {
    const w = `relocation ${i}`;
    checkInt(r.section, `${w} section`, 0, nSec - 1);
    checkUint(r.offset, `${w} offset`);
    if (r.offset >= c.sections[r.section]!.size) bad(`${w}: offset ${r.offset} is outside section ${r.section} (size ${c.sections[r.section]!.size})`);
    checkInt(r.addend, `${w} addend`);
    if (r.info !== undefined) checkInt(r.info, `${w} info`);
  }
  if (c.metadata === null || typeof c.metadata !== 'object' || Array.isArray(c.metadata)) bad('metadata must be a JSON object');
  let metaText: string;
  try {
    metaText = JSON.stringify(c.metadata);
  } catch (e) {
    return bad(`metadata is not JSON-serialisable: ${(e as Error).message}`);
  }
  const metaBytes = new TextEncoder().encode(metaText);

  // String refs (collected in table order so the string table is deterministic).
  c.sections.forEach((s, i) => {
    strings.add(s.name, `section ${i} name`);
    strings.add(s.space, `section ${i} space`);
  });
  c.symbols.forEach((y, i) => strings.add(y.name, `symbol ${i} name`));
  c.symbols.forEach((y, i) => y.tensor && strings.add(y.tensor.format, `symbol ${i} tensor format`));
  c.relocations.forEach((r, i) => {
    strings.add(r.kind, `relocation ${i} kind`);
    strings.add(r.symbol, `relocation ${i} symbol`);
  });
  if (nSec > U32_MAX || c.symbols.length > U32_MAX || c.relocations.length > U32_MAX) bad('too many entries');

  // --- layout ---
  const regions: Array<[number, number]> = [];
  let cursor = HEADER_SIZE;
  const place = (size: number): number => {
    const off = cursor;
    regions.push([off, size]);
    cursor = alignUp(off + size, DATA_ALIGN);
    return off;
  };
  const secOff = place(nSec * SECTION_ENTRY_SIZE);
  const symOff = place(c.symbols.length * SYMBOL_ENTRY_SIZE);
  const relOff = place(c.relocations.length * RELOC_ENTRY_SIZE);
  const tenOff = place(tensorBytes);
  const strOff = place(strings.size);
  const metaOff = place(metaBytes.length);
  const dataOffs = c.sections.map((s) => {
    const off = cursor;
    cursor = alignUp(off + s.data.length, DATA_ALIGN);
    return off;
  });
  const fileSize = cursor;

  const out = new Uint8Array(fileSize);
  const dv = new DataView(out.buffer);
  // 64-bit fields as two u32 halves (values are validated safe integers; no bigint per field).
  const u64 = (o: number, v: number) => {
    dv.setUint32(o, v >>> 0, true);
    dv.setUint32(o + 4, Math.floor(v / 2 ** 32), true);
  };
  const i64 = (o: number, v: number) => {
    const hi = Math.floor(v / 2 ** 32);
    dv.setUint32(o, (v - hi * 2 ** 32) >>> 0, true);
    dv.setInt32(o + 4, hi, true);
  };
  const ref = (o: number, s: string) => strings.ref(dv, o, s);

  // Header
  for (let k = 0; k < 8; k++) out[k] = magic.charCodeAt(k);
  dv.setUint16(8, c.version, true);
  dv.setUint16(10, 0, true);
  dv.setUint32(12, HEADER_SIZE, true);
  u64(16, fileSize);
  ref(24, c.target);
  dv.setUint32(32, nSec, true);
  dv.setUint32(36, c.symbols.length, true);
  dv.setUint32(40, c.relocations.length, true);
  regions.forEach(([off, size], k) => {
    u64(REGION_TABLE_OFFSET + 16 * k, off);
    u64(REGION_TABLE_OFFSET + 16 * k + 8, size);
  });

  c.sections.forEach((s, i) => {
    const o = secOff + i * SECTION_ENTRY_SIZE;
    ref(o, s.name);
    out[o + 8] = SECTION_KINDS.indexOf(s.kind);
    dv.setUint16(o + 10, s.cluster !== undefined ? SECTION_HAS_CLUSTER : 0, true);
    dv.setUint32(o + 12, s.flags, true);
    ref(o + 16, s.space);
    u64(o + 24, s.address);
    u64(o + 32, s.size);
    dv.setUint32(o + 40, s.align, true);
    dv.setInt32(o + 44, s.cluster ?? 0, true);
    u64(o + 48, dataOffs[i]!);
    u64(o + 56, s.data.length);
    out.set(s.data, dataOffs[i]!);
  });

  let tCursor = 0;
  c.symbols.forEach((y, i) => {
    const o = symOff + i * SYMBOL_ENTRY_SIZE;
    ref(o, y.name);
    out[o + 8] = SYMBOL_KINDS.indexOf(y.kind);
    out[o + 9] = y.global ? 1 : 0;
    dv.setUint16(o + 10, y.tensor ? SYMBOL_HAS_TENSOR : 0, true);
    dv.setInt32(o + 12, y.section, true);
    u64(o + 16, y.offset);
    u64(o + 24, y.size);
    if (y.tensor) {
      const t = y.tensor;
      const len = tensorRecordSize(t);
      u64(o + 32, tCursor);
      u64(o + 40, len);
      const r = tenOff + tCursor;
      ref(r, t.format);
      dv.setInt32(r + 8, t.eb, true);
      dv.setUint32(r + 12, t.shape.length, true);
      dv.setUint32(r + 16, t.strides ? TENSOR_HAS_STRIDES : 0, true);
      t.shape.forEach((d, k) => u64(r + TENSOR_RECORD_FIXED + 8 * k, d));
      t.strides?.forEach((d, k) => i64(r + TENSOR_RECORD_FIXED + 8 * (t.shape.length + k), d));
      tCursor += len;
    }
  });

  c.relocations.forEach((r, i) => {
    const o = relOff + i * RELOC_ENTRY_SIZE;
    dv.setUint32(o, r.section, true);
    dv.setUint16(o + 4, r.info !== undefined ? RELOC_HAS_INFO : 0, true);
    u64(o + 8, r.offset);
    ref(o + 16, r.kind);
    ref(o + 24, r.symbol);
    i64(o + 32, r.addend);
    i64(o + 40, r.info ?? 0);
  });

  strings.write(out, strOff);
  out.set(metaBytes, metaOff);
  return out;
}
