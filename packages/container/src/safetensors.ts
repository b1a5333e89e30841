/**
 * `.safetensors` files: u64 LE header length N, N bytes of UTF-8 JSON
 * `{"__metadata__": {..}, "<name>": {"dtype": "F32", "shape": [..],
 * "data_offsets": [begin, end]}, ...}` (offsets relative to the byte buffer
 * after the header), then the byte buffer, which the tensors must cover
 * exactly without holes or overlaps. See docs/tensor-files.md.
 */
import { DiagnosticError, error, failAt } from '@pyxis/diagnostics';
import { TensorCodes as T } from './codes.js';
import { readInputFile, writeFileAtomic } from './fileio.js';
import { oneLine } from './reader.js';
import { DTYPES, checkTensor, tensorBytes, typedFromBytes, type Tensor, type TensorDType } from './tensor.js';

const BY_NAME: Record<string, TensorDType> = Object.fromEntries(Object.entries(DTYPES).map(([k, v]) => [v.safetensors, k as TensorDType]));
/** Headers larger than this are rejected (the reference implementation uses 100 MB). */
export const SAFETENSORS_MAX_HEADER = 100_000_000;

export interface SafetensorsFile {
  tensors: Map<string, Tensor>;
  metadata: Record<string, string>;
}

/** Parses a `.safetensors` file; tensors are returned in data-offset order. */
export function readSafetensorsWithMetadata(bytes: Uint8Array, file: string): SafetensorsFile {
  const fail = (off: number, code: string, msg: string): never => failAt(file, off, code, msg);
  if (bytes.length < 8) fail(0, T.truncated, `truncated: ${bytes.length} bytes is too short for a .safetensors file (8-byte header length)`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n64 = dv.getBigUint64(0, true);
  if (n64 > BigInt(bytes.length - 8)) fail(0, T.truncated, `truncated: header length ${n64} runs past the end of the file (${bytes.length} bytes)`);
  const n = Number(n64);
  if (n > SAFETENSORS_MAX_HEADER) fail(0, T.badHeader, `header length ${n} exceeds the ${SAFETENSORS_MAX_HEADER}-byte limit`);
  if (n < 2 || bytes[8] !== 0x7b) fail(8, T.badHeader, 'header must be a JSON object starting with "{"');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + n)));
  } catch (e) {
    fail(8, T.badHeader, `header is not valid UTF-8 JSON: ${oneLine((e as Error).message)}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return fail(8, T.badHeader, 'header must be a JSON object');
  const base = 8 + n;
  const bufLen = bytes.length - base;
  const metadata: Record<string, string> = {};
  const entries: Array<{ name: string; dtype: TensorDType; shape: number[]; begin: number; end: number }> = [];
  for (const [name, v] of Object.entries(json as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(8, T.badHeader, '__metadata__ must be an object of strings');
      for (const [k, s] of Object.entries(v as Record<string, unknown>)) {
        if (typeof s !== 'string') fail(8, T.badHeader, `__metadata__.${oneLine(k, 40)} must be a string`);
        metadata[k] = s as string;
      }
      continue;
    }
    const w = `tensor \`${oneLine(name, 40)}\``;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail(8, T.badHeader, `${w}: entry must be an object`);
    const e = v as Record<string, unknown>;
    const extra = Object.keys(e).filter((k) => k !== 'dtype' && k !== 'shape' && k !== 'data_offsets');
    if (extra.length) fail(8, T.badHeader, `${w}: unknown key ${oneLine(extra[0]!, 40)}`);
    const dtype = typeof e['dtype'] === 'string' ? BY_NAME[e['dtype']] : undefined;
    if (!dtype) return fail(8, T.unsupportedDtype, `${w}: unsupported dtype ${oneLine(JSON.stringify(e['dtype']) ?? '', 40)} (supported: ${Object.keys(BY_NAME).join(', ')})`);
    const shape = e['shape'];
    if (!Array.isArray(shape) || shape.some((d) => !Number.isSafeInteger(d) || (d as number) < 0)) return fail(8, T.badShape, `${w}: shape must be a list of non-negative integers`);
    const offs = e['data_offsets'];
    if (!Array.isArray(offs) || offs.length !== 2 || offs.some((d) => !Number.isSafeInteger(d) || (d as number) < 0))
      return fail(8, T.badOffsets, `${w}: data_offsets must be [begin, end] with non-negative integers`);
    const [begin, end] = offs as [number, number];
    if (begin > end || end > bufLen) fail(base + Math.min(begin, bufLen), T.badOffsets, `${w}: data_offsets [${begin}, ${end}] are outside the ${bufLen}-byte data buffer`);
    const size = DTYPES[dtype].size;
    let count = 1;
    for (const d of shape as number[]) count *= d;
    if (count * size !== end - begin) fail(base + begin, T.sizeMismatch, `${w}: shape [${shape.join(', ')}] of ${e['dtype']} needs ${count * size} bytes, data_offsets give ${end - begin}`);
    entries.push({ name, dtype, shape: shape as number[], begin, end });
  }
  entries.sort((a, b) => a.begin - b.begin || a.end - b.end);
  // The buffer must be covered exactly: no holes, no overlaps.
  let cursor = 0;
  for (const e of entries) {
    if (e.begin < cursor) fail(base + e.begin, T.badOffsets, `tensor \`${oneLine(e.name, 40)}\` (bytes ${e.begin}..${e.end}) overlaps the previous tensor (ending at ${cursor})`);
    if (e.begin > cursor) fail(base + cursor, T.badOffsets, `data buffer has a hole at bytes ${cursor}..${e.begin} not covered by any tensor`);
    cursor = e.end;
  }
  if (cursor !== bufLen) fail(base + cursor, T.trailing, `${bufLen - cursor} bytes at the end of the data buffer belong to no tensor`);
  const tensors = new Map<string, Tensor>();
  for (const e of entries) tensors.set(e.name, { dtype: e.dtype, shape: e.shape, data: typedFromBytes(e.dtype, bytes, base + e.begin, (e.end - e.begin) / DTYPES[e.dtype].size) });
  return { tensors, metadata };
}

export function readSafetensors(bytes: Uint8Array, file: string): Map<string, Tensor> {
  return readSafetensorsWithMetadata(bytes, file).tensors;
}

/** Encodes tensors (data laid out in map order) with optional string metadata. */
export function writeSafetensors(tensors: ReadonlyMap<string, Tensor>, metadata?: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = {};
  if (metadata && Object.keys(metadata).length) {
    for (const [k, v] of Object.entries(metadata))
      if (typeof v !== 'string') throw new DiagnosticError(error(T.badTensor, `cannot write .safetensors: metadata ${k} must be a string`));
    header['__metadata__'] = metadata;
  }
  let off = 0;
  for (const [name, t] of tensors) {
    if (name === '__metadata__') throw new DiagnosticError(error(T.badTensor, 'cannot write .safetensors: `__metadata__` is not a legal tensor name'));
    checkTensor(t, `.safetensors tensor \`${name}\``);
    header[name] = { dtype: DTYPES[t.dtype].safetensors, shape: t.shape, data_offsets: [off, off + t.data.byteLength] };
    off += t.data.byteLength;
  }
  let text = JSON.stringify(header);
  const enc = new TextEncoder();
  let hb = enc.encode(text);
  // Pad with spaces so the data buffer starts 8-byte aligned.
  const pad = (8 - (hb.length % 8)) % 8;
  if (pad) {
    text += ' '.repeat(pad);
    hb = enc.encode(text);
  }
  const out = new Uint8Array(8 + hb.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(hb.length), true);
  out.set(hb, 8);
  let at = 8 + hb.length;
  for (const t of tensors.values()) {
    out.set(tensorBytes(t), at);
    at += t.data.byteLength;
  }
  return out;
}

export function readSafetensorsFile(path: string): SafetensorsFile {
  return readSafetensorsWithMetadata(readInputFile(path), path);
}

export function writeSafetensorsFile(path: string, tensors: ReadonlyMap<string, Tensor>, metadata?: Record<string, string>): void {
  writeFileAtomic(path, writeSafetensors(tensors, metadata));
}
