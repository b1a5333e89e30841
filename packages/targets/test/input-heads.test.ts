/**
 * Issue 15, unbounded reads: a binary input under the 4 GiB cap is identified by its first bytes before the
 * rest is read. A 3 GiB file (sparse: it costs no disk) that is not a container, or a container header whose
 * file_size is not the file's, is refused from its header by pyxis-sim, pyxis-ld and inspect; reading it all
 * first took a minute and 3 GB of memory. The diagnostics name what the header says, at its byte offset.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { peekContainerTargetFile, readContainerInput, writeContainer, FORMAT_VERSION } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call, type Run } from './cli-call.js';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
const GiB3 = 3 * 1024 ** 3;


let dir: string;
let obj: string;
let img: string;
const big: string[] = [];
/** A sparse file of `size` bytes starting with `head`. */
function sparse(name: string, head: Uint8Array, size: number): string {
  const p = join(dir, name);
  writeFileSync(p, head);
  truncateSync(p, size);
  big.push(p);
  return p;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pyxis-heads-'));
  obj = join(dir, 'copy.pobj');
  img = join(dir, 'copy.pimg');
  copyFileSync(samples + 'copy.pasm', join(dir, 'copy.pasm'));
  copyFileSync(samples + 'copy.ld', join(dir, 'copy.ld'));
  copyFileSync(samples + 'copy_src.npy', join(dir, 'copy_src.npy'));
  expect((await call(runAs, [join(dir, 'copy.pasm'), '-o', obj])).code).toBe(0);
  expect((await call(runLd, [join(dir, 'copy.ld'), obj, '-o', img])).code).toBe(0);
});
afterAll(() => {
  for (const p of big) if (existsSync(p)) unlinkSync(p);
});

describe('binary inputs are identified by their first bytes (no gigabyte read first)', () => {
  test('3 GiB of zeros as an image, an object and a tensor file: bad magic at offset 0', async () => {
    const zeros = new Uint8Array(16);
    const r = await call(runSim as Run, ['run', sparse('z.pimg', zeros, GiB3), '--stats', join(dir, 's.json')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/z\.pimg: offset 0x0000000 \(0\): error\[CT0001\]: .*bad magic/);
    expect(existsSync(join(dir, 's.json'))).toBe(false);
    const l = await call(runLd, [join(dir, 'copy.ld'), sparse('z.pobj', zeros, GiB3), '-o', join(dir, 'z-out.pimg')]);
    expect(l.code).toBe(1);
    expect(l.err).toMatch(/z\.pobj: offset 0x0000000 \(0\): error\[CT0001\]/);
    const n = await call(runAs, ['inspect', sparse('z.npy', zeros, GiB3)]);
    expect(n.code).toBe(1);
    expect(n.err).toMatch(/error\[TF0001\]: not an \.npy file: bad magic/);
    // beyond the largest text input no reader applies: a .bin of zeros is not read as a 3 GiB patch blob
    const b = await call(runAs, ['inspect', sparse('z.bin', zeros, GiB3)]);
    expect(b.code).toBe(1);
    expect(b.err).toMatch(/CT0001/);
    expect(b.out).toBe('');
  });

  test('a real header followed by gigabytes: file_size (header offset 16) is checked before the read', async () => {
    const bytes = readFileSync(img);
    const fileSize = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(16, true));
    expect(fileSize).toBe(bytes.length);
    const p = sparse('h.pimg', bytes, GiB3);
    for (const r of [await call(runSim as Run, ['run', p]), await call(runSim as Run, ['inspect', p])]) {
      expect(r.code).toBe(1);
      expect(r.err).toContain(`error[CT0013]: ${GiB3 - fileSize} unexpected bytes after the end of the container (file size ${fileSize})`);
    }
    // a header claiming more bytes than the file has
    const short = new Uint8Array(bytes);
    new DataView(short.buffer).setBigUint64(16, BigInt(GiB3) + 8n, true);
    const q = sparse('s.pimg', short, GiB3);
    expect(() => readContainerInput(q)).toThrow(/CT0003|truncated: header says the file has 3221225480 bytes, got 3221225472/);
  });

  test('the target in a container header is read without reading the file, wherever its string lies', () => {
    // a string table beyond the first 4 KiB: 100 sections before it
    const c = {
      kind: 'pimg' as const,
      version: FORMAT_VERSION,
      target: 'xnu',
      sections: Array.from({ length: 100 }, (_, i) => ({ name: `s${i}`, kind: 'data' as const, space: 'none', address: 0, size: 1, align: 1, flags: 0, data: new Uint8Array([i]) })),
      symbols: [],
      relocations: [],
      metadata: {},
    };
    const p = join(dir, 'far.pimg');
    writeFileSync(p, writeContainer(c));
    const b = readFileSync(p);
    expect(Number(new DataView(b.buffer, b.byteOffset).getBigUint64(48 + 16 * 4, true))).toBeGreaterThan(4096);
    expect(peekContainerTargetFile(p)).toBe('xnu');
    expect(peekContainerTargetFile(join(dir, 'copy.pasm'))).toBeUndefined();
    expect(peekContainerTargetFile(join(dir, 'missing.pimg'))).toBeUndefined();
  });
});
