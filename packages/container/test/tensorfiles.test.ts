import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiagnosticError, isByteSpan } from '@pyxis/diagnostics';
import {
  DTYPES,
  readNpy,
  readNpyFile,
  readTensorFile,
  readSafetensors,
  readSafetensorsFile,
  readSafetensorsWithMetadata,
  writeNpy,
  writeNpyFile,
  writeSafetensors,
  writeSafetensorsFile,
  type Tensor,
  type TensorDType,
} from '@pyxis/container';
import { catchDiagnosticError } from './fixtures.js';

const diagOf = (f: () => unknown) => catchDiagnosticError(f).diagnostics[0]!;
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const bytesOf = (t: Tensor) => [...new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)];

/**
 * Hand-built from the NumPy format description: magic "\x93NUMPY", version
 * 1.0, u16 LE header length, dict literal padded with spaces + '\n' so that
 * 10 + HEADER_LEN is a multiple of 64, then the raw little-endian data.
 */
function npyV1(dict: string, data: number[]): Uint8Array {
  const hlen = Math.ceil((10 + dict.length + 1) / 64) * 64 - 10;
  return new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, hlen & 0xff, hlen >> 8, ...ascii(dict.padEnd(hlen - 1, ' ') + '\n'), ...data]);
}

describe('.npy golden bytes', () => {
  it('int16 vector (2,) = [1, -2]: header length 0x76, data 01 00 fe ff', () => {
    const bytes = npyV1("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }", [0x01, 0x00, 0xfe, 0xff]);
    expect(bytes.length).toBe(128 + 4);
    expect([...bytes.subarray(0, 10)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x76, 0x00]);
    expect(bytes[127]).toBe(0x0a);
    const t = readNpy(bytes, 'a.npy');
    expect(t.dtype).toBe('int16');
    expect(t.shape).toEqual([2]);
    expect(t.data).toBeInstanceOf(Int16Array);
    expect([...t.data]).toEqual([1, -2]);
    expect([...writeNpy(t)]).toEqual([...bytes]);
  });

  it('float32 matrix (2, 3): 1.0 = 00 00 80 3f', () => {
    const one = [0x00, 0x00, 0x80, 0x3f];
    const half = [0x00, 0x00, 0x00, 0x3f]; // 0.5
    const bytes = npyV1("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", [...one, ...half, ...one, ...half, ...one, ...half]);
    const t = readNpy(bytes, 'm.npy');
    expect(t.shape).toEqual([2, 3]);
    expect([...t.data]).toEqual([1, 0.5, 1, 0.5, 1, 0.5]);
    expect([...writeNpy(t)]).toEqual([...bytes]);
  });

  it('uint8 scalar shape () and |u1', () => {
    const bytes = npyV1("{'descr': '|u1', 'fortran_order': False, 'shape': (), }", [0xab]);
    const t = readNpy(bytes, 's.npy');
    expect(t.shape).toEqual([]);
    expect([...t.data]).toEqual([0xab]);
    expect([...writeNpy(t)]).toEqual([...bytes]);
  });

  it('float16 kept as raw bits: 1.0 = 0x3c00', () => {
    const t = readNpy(npyV1("{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }", [0x00, 0x3c]), 'h.npy');
    expect(t.dtype).toBe('float16');
    expect(t.data).toBeInstanceOf(Uint16Array);
    expect([...t.data]).toEqual([0x3c00]);
  });

  it('accepts version 2.0 and 3.0 headers (u32 length) and other key orders / spacing', () => {
    const dict = "{'shape': (3,), 'fortran_order': False, 'descr': '<i4'}";
    for (const major of [2, 3]) {
      const hlen = Math.ceil((12 + dict.length + 1) / 64) * 64 - 12;
      const bytes = new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0, hlen & 0xff, hlen >> 8, 0, 0, ...ascii(dict.padEnd(hlen - 1, ' ') + '\n'), 7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x80]);
      const t = readNpy(bytes, 'v.npy');
      expect([t.dtype, t.shape, [...t.data]]).toEqual(['int32', [3], [7, -1, -(2 ** 31)]]);
    }
  });
});

describe('.npy uint32 (<u4, index tables)', () => {
  it('reads <u4 little-endian words into a Uint32Array, values above 2^31 intact', () => {
    const dict = "{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }";
    const hlen = Math.ceil((10 + dict.length + 1) / 64) * 64 - 10;
    const bytes = new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, hlen & 0xff, hlen >> 8, ...ascii(dict.padEnd(hlen - 1, ' ') + '\n'), 5, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff]);
    const t = readNpy(bytes, 'u.npy');
    expect(t.dtype).toBe('uint32');
    expect(t.data).toBeInstanceOf(Uint32Array);
    expect([...t.data]).toEqual([5, 0xfffffffe]);
    expect(new TextDecoder().decode(writeNpy(t).subarray(10, 30))).toContain("'descr': '<u4'");
  });
});

describe('.npy rejects', () => {
  const dict = (descr: string, fortran = 'False', shape = '(2,)') => `{'descr': '${descr}', 'fortran_order': ${fortran}, 'shape': ${shape}, }`;
  it('big-endian', () => {
    const d = diagOf(() => readNpy(npyV1(dict('>i2'), [0, 1, 0, 2]), 'b.npy'));
    expect(d.code).toBe('TF0007');
    expect(d.message).toMatch(/big-endian/);
    expect((d.span as { offset: number }).offset).toBe(10);
  });
  it('fortran order', () => expect(diagOf(() => readNpy(npyV1(dict('<i2', 'True'), [0, 1, 0, 2]), 'f.npy')).code).toBe('TF0006'));
  it('unsupported dtype', () => expect(diagOf(() => readNpy(npyV1(dict('<c8'), []), 'c.npy')).message).toMatch(/unsupported dtype '<c8'/));
  it('bad magic / version', () => {
    expect(diagOf(() => readNpy(new Uint8Array(16), 'z.npy')).code).toBe('TF0001');
    const b = npyV1(dict('<i2'), [0, 0, 0, 0]);
    b[6] = 4;
    expect(diagOf(() => readNpy(b, 'z.npy')).code).toBe('TF0002');
  });
  it('truncated data and trailing bytes', () => {
    expect(diagOf(() => readNpy(npyV1(dict('<i2'), [1, 0]), 't.npy')).code).toBe('TF0009');
    expect(diagOf(() => readNpy(npyV1(dict('<i2'), [1, 0, 2, 0, 3]), 't.npy')).code).toBe('TF0011');
  });
  it('huge shapes without allocating', () => {
    expect(diagOf(() => readNpy(npyV1(dict('<f8', 'False', '(9007199254740991, 9007199254740991)'), []), 'h.npy')).code).toBe('TF0009');
  });
  it('malformed header', () => {
    const d = diagOf(() => readNpy(npyV1("{'descr': '<i2', 'fortran_order': False, 'shape': (2,", []), 'm.npy'));
    expect(d.code).toBe('TF0004');
    expect((d.span as { offset: number }).offset).toBeGreaterThan(10);
  });
  it('writing bfloat16 is refused', () => {
    expect(diagOf(() => writeNpy({ dtype: 'bfloat16', shape: [1], data: new Uint16Array(1) })).code).toBe('TF0005');
  });
  it('random corruption: DiagnosticError or a tensor, never another exception', () => {
    const good = writeNpy({ dtype: 'float32', shape: [2, 2], data: new Float32Array([1, 2, 3, 4]) });
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 3 }), (cut, flips) => {
        const b = good.slice(0, good.length - (cut % 8));
        for (const [at, x] of flips) b[at % b.length]! ^= x;
        try {
          readNpy(b, 'fuzz.npy');
        } catch (e) {
          expect(e).toBeInstanceOf(DiagnosticError);
          expect(isByteSpan((e as DiagnosticError).diagnostics[0]!.span!)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

const NPY_TYPES: TensorDType[] = ['uint8', 'int8', 'uint16', 'int16', 'int32', 'uint32', 'float16', 'float32', 'float64'];
const ALL_TYPES: TensorDType[] = [...NPY_TYPES, 'bfloat16'];
const arbTensor = (types: TensorDType[]) =>
  fc.record({ dtype: fc.constantFrom(...types), shape: fc.array(fc.nat(4), { maxLength: 3 }), seed: fc.uint8Array({ minLength: 8 * 64, maxLength: 8 * 64 }) }).map(({ dtype, shape, seed }): Tensor => {
    const n = shape.reduce((a, b) => a * b, 1);
    const info = DTYPES[dtype];
    const buf = new ArrayBuffer(n * info.size);
    new Uint8Array(buf).set(seed.subarray(0, n * info.size));
    return { dtype, shape, data: info.make(buf, n) };
  });

describe('tensor round trips', () => {
  it('.npy: read(write(t)) has the same dtype, shape and bytes', () => {
    fc.assert(
      fc.property(arbTensor(NPY_TYPES), (t) => {
        const bytes = writeNpy(t);
        expect((10 + new DataView(bytes.buffer).getUint16(8, true)) % 64).toBe(0);
        const r = readNpy(bytes, 'r.npy');
        expect([r.dtype, r.shape, bytesOf(r)]).toEqual([t.dtype, t.shape, bytesOf(t)]);
        expect(r.data.constructor).toBe(t.data.constructor);
      }),
      { numRuns: 200 },
    );
  });

  it('.safetensors: tensors and metadata round-trip in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s !== '__metadata__'), arbTensor(ALL_TYPES)), { maxLength: 5, selector: ([n]) => n }), fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })), (list, meta) => {
        const bytes = writeSafetensors(new Map(list), meta);
        expect((8 + Number(new DataView(bytes.buffer).getBigUint64(0, true))) % 8).toBe(0);
        const r = readSafetensorsWithMetadata(bytes, 'r.safetensors');
        // Data-offset order; empty tensors share an offset, so only non-empty ones have a defined order.
        const nonEmpty = (names: string[], get: (n: string) => Tensor) => names.filter((n) => get(n).data.byteLength > 0);
        const m = new Map(list);
        expect(nonEmpty([...r.tensors.keys()], (n) => r.tensors.get(n)!)).toEqual(nonEmpty(list.map(([n]) => n), (n) => m.get(n)!));
        expect([...r.tensors.keys()].sort()).toEqual(list.map(([n]) => n).sort());
        for (const [n, t] of list) {
          const g = r.tensors.get(n)!;
          expect([g.dtype, g.shape, bytesOf(g)]).toEqual([t.dtype, t.shape, bytesOf(t)]);
        }
        expect(r.metadata).toEqual(Object.keys(meta).length ? meta : {});
      }),
      { numRuns: 200 },
    );
  });
});

describe('.safetensors', () => {
  const st = (header: object, data: number[]) => {
    const h = new TextEncoder().encode(JSON.stringify(header));
    const out = new Uint8Array(8 + h.length + data.length);
    new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
    out.set(h, 8);
    out.set(data, 8 + h.length);
    return out;
  };

  it('reads a hand-built file (BF16 1.0 = 0x3f80, I32)', () => {
    const f = st({ __metadata__: { format: 'pt' }, b: { dtype: 'I32', shape: [1], data_offsets: [4, 8] }, a: { dtype: 'BF16', shape: [2], data_offsets: [0, 4] } }, [0x80, 0x3f, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff]);
    const r = readSafetensorsWithMetadata(f, 'w.safetensors');
    expect(r.metadata).toEqual({ format: 'pt' });
    expect([...r.tensors.keys()]).toEqual(['a', 'b']);
    expect([...r.tensors.get('a')!.data]).toEqual([0x3f80, 0]);
    expect(r.tensors.get('a')!.dtype).toBe('bfloat16');
    expect([...readSafetensors(f, 'w').get('b')!.data]).toEqual([-1]);
  });

  const rejects = (header: object, data: number[], code: string, msg?: RegExp) => {
    const d = diagOf(() => readSafetensors(st(header, data), 'bad.safetensors'));
    expect(d.code).toBe(code);
    if (msg) expect(d.message).toMatch(msg);
    expect(isByteSpan(d.span!)).toBe(true);
  };
  it('rejects holes, overlaps, size mismatches, bad dtypes and trailing bytes', () => {
    rejects({ a: { dtype: 'U8', shape: [2], data_offsets: [0, 2] }, b: { dtype: 'U8', shape: [2], data_offsets: [1, 3] } }, [1, 2, 3], 'TF0010', /overlaps/);
    rejects({ a: { dtype: 'U8', shape: [1], data_offsets: [1, 2] } }, [1, 2], 'TF0010', /hole/);
    rejects({ a: { dtype: 'U8', shape: [1], data_offsets: [0, 1] } }, [1, 2], 'TF0011');
    rejects({ a: { dtype: 'F32', shape: [2], data_offsets: [0, 4] } }, [1, 2, 3, 4], 'TF0009');
    rejects({ a: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } }, [0, 0, 0, 0, 0, 0, 0, 0], 'TF0005', /I64/);
    rejects({ a: { dtype: 'U8', shape: [1], data_offsets: [0, 9] } }, [1], 'TF0010', /outside/);
    rejects({ a: { dtype: 'U8', shape: [-1], data_offsets: [0, 1] } }, [1], 'TF0008');
    expect(diagOf(() => readSafetensors(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7b]), 'x')).code).toBe('TF0003');
    expect(diagOf(() => readSafetensors(new Uint8Array([2, 0, 0, 0, 0, 0, 0, 0, 0x5b, 0x5d]), 'x')).code).toBe('TF0004');
  });
  it('random corruption: DiagnosticError or tensors, never another exception', () => {
    const good = writeSafetensors(new Map<string, Tensor>([['w', { dtype: 'float32', shape: [2], data: new Float32Array([1, 2]) }], ['b', { dtype: 'int8', shape: [3], data: new Int8Array([1, 2, 3]) }]]), { k: 'v' });
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 3 }), (cut, flips) => {
        const b = good.slice(0, good.length - (cut % 4));
        for (const [at, x] of flips) b[at % b.length]! ^= x;
        try {
          readSafetensors(b, 'fuzz.safetensors');
        } catch (e) {
          expect(e).toBeInstanceOf(DiagnosticError);
        }
      }),
      { numRuns: 500 },
    );
  });
  it('files are written atomically', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-tf-'));
    const t: Tensor = { dtype: 'uint16', shape: [2], data: new Uint16Array([1, 0xffff]) };
    writeNpyFile(join(dir, 'a.npy'), t);
    writeSafetensorsFile(join(dir, 'a.safetensors'), new Map([['t', t]]), { m: '1' });
    expect([...readNpyFile(join(dir, 'a.npy')).data]).toEqual([1, 0xffff]);
    expect(readSafetensorsFile(join(dir, 'a.safetensors')).metadata).toEqual({ m: '1' });
    expect(() => writeNpyFile(join(dir, 'bad.npy'), { dtype: 'int16', shape: [3], data: new Int16Array(2) })).toThrow(DiagnosticError);
    expect(readdirSync(dir).sort()).toEqual(['a.npy', 'a.safetensors']);
  });
  it('a missing tensor file is an IO0001 diagnostic naming the path (readInputFile), not a raw exception', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-tf-'));
    for (const read of [readNpyFile, readSafetensorsFile, readTensorFile]) {
      const d = diagOf(() => read(join(dir, 'nope.npy')));
      expect(d.code).toBe('IO0001');
      expect(d.message).toContain('nope.npy');
    }
  });
});

describe('readTensorBytes', () => {
  it('dispatches on magic, not extension', async () => {
    const { readTensorBytes } = await import('@pyxis/container');
    const t: Tensor = { dtype: 'int8', shape: [1], data: new Int8Array([5]) };
    const a = readTensorBytes(writeNpy(t), 'dir/weights.bin');
    expect(a.format).toBe('npy');
    expect([...a.tensors.keys()]).toEqual(['weights']);
    const b = readTensorBytes(writeSafetensors(new Map([['x', t]]), { a: 'b' }), 'w.npy');
    expect([b.format, [...b.tensors.keys()], b.metadata]).toEqual(['safetensors', ['x'], { a: 'b' }]);
    expect(diagOf(() => readTensorBytes(new Uint8Array(20), 'z')).code).toBe('TF0001');
  });
});
