/**
 * NumPy `.npy` files (format versions 1.0, 2.0 and 3.0), little-endian,
 * C order, dtypes u1/i1/u2/i2/i4/u4/f2/f4/f8. See docs/tensor-files.md.
 *
 * Layout: "\x93NUMPY", major u8, minor u8, HEADER_LEN (u16 LE for v1, u32 LE
 * for v2/v3), then HEADER_LEN bytes of a Python dict literal
 * `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }` padded with
 * spaces and ended by '\n' so the data starts on a 64-byte boundary.
 */
import { failAt, DiagnosticError, error } from '@pyxis/diagnostics';
import { TensorCodes as T } from './codes.js';
import { DTYPES, checkTensor, tensorBytes, typedFromBytes, type Tensor, type TensorDType } from './tensor.js';
import { readInputFile, writeFileAtomic } from './fileio.js';
import { oneLine } from './reader.js';

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const ALIGN = 64;

const DESCR: Record<string, TensorDType> = {};
for (const [name, info] of Object.entries(DTYPES)) {
  if (!info.npy) continue;
  DESCR[info.npy] = name as TensorDType;
  if (info.size === 1) DESCR['<' + info.npy.slice(1)] = name as TensorDType; // '<u1' is legal too
}

type PyValue = string | boolean | number | PyValue[] | { [k: string]: PyValue };

/** A parser for the small Python-literal subset NumPy writes in headers. */
function parsePyLiteral(text: string, fail: (pos: number, msg: string) => never): PyValue {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const value = (depth: number): PyValue => {
    if (depth > 8) fail(i, 'header nests too deeply');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: { [k: string]: PyValue } = Object.create(null) as { [k: string]: PyValue };
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          return obj;
        }
        const k = value(depth + 1);
        if (typeof k !== 'string') fail(i, 'dictionary keys must be strings');
        ws();
        if (text[i] !== ':') fail(i, "expected ':'");
        i++;
        obj[k] = value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') fail(i, "expected ',' or '}'");
      }
    }
    if (c === '(' || c === '[') {
      const close = c === '(' ? ')' : ']';
      i++;
      const arr: PyValue[] = [];
      for (;;) {
        ws();
        if (text[i] === close) {
          i++;
          return arr;
        }
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== close) fail(i, `expected ',' or '${close}'`);
      }
    }
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) fail(i, 'unterminated string');
      const s = text.slice(i + 1, end);
      if (s.includes('\\')) fail(i, 'escapes in header strings are not supported');
      i = end + 1;
      return s;
    }
    const m = /^(True|False|-?\d+L?)/.exec(text.slice(i, i + 32));
    if (!m) fail(i, `unexpected ${c === undefined ? 'end of header' : JSON.stringify(c)}`);
    i += m[0].length;
    if (m[0] === 'True') return true;
    if (m[0] === 'False') return false;
    const n = Number(m[0].replace(/L$/, ''));
    if (!Number.isSafeInteger(n)) fail(i, `number ${m[0]} is too large`);
    return n;
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail(i, 'unexpected text after the header dictionary');
  return v;
}

/** Parses a `.npy` file. Throws DiagnosticError (TF00xx) naming the byte offset. */
export function readNpy(bytes: Uint8Array, file: string): Tensor {
  const fail = (off: number, code: string, msg: string): never => failAt(file, off, code, msg);
  if (bytes.length < 8) fail(0, T.truncated, `truncated: ${bytes.length} bytes is too short for an .npy file`);
  for (let k = 0; k < 6; k++) if (bytes[k] !== MAGIC[k]) fail(0, T.badMagic, 'not an .npy file: bad magic (expected "\\x93NUMPY")');
  const major = bytes[6]!;
  const minor = bytes[7]!;
  if (major < 1 || major > 3 || minor !== 0) fail(6, T.badVersion, `unsupported .npy format version ${major}.${minor} (supported: 1.0, 2.0, 3.0)`);
  const lenSize = major === 1 ? 2 : 4;
  const hdrStart = 8 + lenSize;
  if (bytes.length < hdrStart) fail(8, T.truncated, 'truncated: the header length field is cut off');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hlen = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  if (hlen > bytes.length - hdrStart) fail(8, T.truncated, `truncated: header length ${hlen} runs past the end of the file (${bytes.length} bytes)`);
  const raw = bytes.subarray(hdrStart, hdrStart + hlen);
  if (raw.length > 1 << 20) fail(hdrStart, T.badHeader, `header of ${hlen} bytes is unreasonably large (limit 1 MiB)`);
  let text: string;
  if (major === 3) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      return fail(hdrStart, T.badHeader, 'header is not valid UTF-8');
    }
  } else {
    // latin-1 per the format; the dict NumPy writes is plain ASCII.
    text = '';
    for (let k = 0; k < raw.length; k += 4096) text += String.fromCharCode(...raw.subarray(k, k + 4096));
  }
  if (!text.endsWith('\n')) fail(hdrStart + hlen - 1, T.badHeader, 'header does not end with a newline');
  const dict = parsePyLiteral(text, (pos, msg) => fail(hdrStart + pos, T.badHeader, `malformed header: ${msg}`));
  if (typeof dict !== 'object' || Array.isArray(dict)) return fail(hdrStart, T.badHeader, 'header is not a dictionary');
  const keys = Object.keys(dict).sort().join(',');
  if (keys !== 'descr,fortran_order,shape') fail(hdrStart, T.badHeader, `header must have exactly the keys descr, fortran_order, shape (got ${oneLine(keys, 60) || 'none'})`);
  const descr = dict['descr'];
  if (typeof descr !== 'string') return fail(hdrStart, T.unsupportedDtype, 'structured dtypes are not supported (descr must be a simple type string)');
  if (descr.startsWith('>')) fail(hdrStart, T.bigEndian, `big-endian dtype ${oneLine(descr, 20)} is not supported; save little-endian data (e.g. arr.astype('<${oneLine(descr.slice(1), 20)}'))`);
  const dtype = DESCR[descr];
  if (!dtype) fail(hdrStart, T.unsupportedDtype, `unsupported dtype '${oneLine(descr, 20)}' (supported: ${Object.keys(DESCR).join(', ')})`);
  if (dict['fortran_order'] !== false)
    fail(hdrStart, T.fortranOrder, 'Fortran-order arrays are not supported; save a C-order array (np.ascontiguousarray)');
  const shapeV = dict['shape'];
  if (!Array.isArray(shapeV) || shapeV.some((d) => typeof d !== 'number' || d < 0)) return fail(hdrStart, T.badShape, 'shape must be a tuple of non-negative integers');
  const shape = shapeV as number[];
  const dataStart = hdrStart + hlen;
  const size = DTYPES[dtype!].size;
  const avail = bytes.length - dataStart;
  // Bound the element count by the bytes present before computing the product in full.
  let count = 1;
  if (shape.includes(0)) count = 0;
  else
    for (const d of shape) {
      count *= d;
      if (count * size > avail) fail(dataStart, T.sizeMismatch, `truncated: shape (${shape.join(', ')}) of ${dtype} needs more than the ${avail} data bytes present`);
    }
  if (count * size !== avail) fail(dataStart + count * size, T.trailing, `shape (${shape.join(', ')}) of ${dtype} needs ${count * size} data bytes, the file has ${avail}`);
  return { dtype: dtype!, shape, data: typedFromBytes(dtype!, bytes, dataStart, count) };
}

function pyShape(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/** Encodes a tensor as `.npy` (version 1.0, or 2.0 if the header needs more than 65535 bytes). */
export function writeNpy(t: Tensor): Uint8Array {
  checkTensor(t, '.npy');
  const descr = DTYPES[t.dtype].npy;
  if (!descr) throw new DiagnosticError(error(T.unsupportedDtype, `cannot write .npy: NumPy has no ${t.dtype} dtype (use .safetensors)`));
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${pyShape(t.shape)}, }`;
  let major = 1;
  let pre = 10;
  if (dict.length + 1 + pre > 65535) {
    major = 2;
    pre = 12;
  }
  const total = Math.ceil((pre + dict.length + 1) / ALIGN) * ALIGN;
  const hlen = total - pre;
  const data = tensorBytes(t);
  const out = new Uint8Array(total + data.length);
  out.set(MAGIC, 0);
  out[6] = major;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (major === 1) dv.setUint16(8, hlen, true);
  else dv.setUint32(8, hlen, true);
  const header = dict.padEnd(hlen - 1, ' ') + '\n';
  for (let k = 0; k < header.length; k++) out[pre + k] = header.charCodeAt(k);
  out.set(data, total);
  return out;
}

export function readNpyFile(path: string): Tensor {
  return readNpy(readInputFile(path), path);
}

export function writeNpyFile(path: string, t: Tensor): void {
  writeFileAtomic(path, writeNpy(t));
}

