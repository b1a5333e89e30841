/** `inspect` on MPE patch blobs (chip §12.6.1) and pyxis-as on binary input. */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAs, runLd } from '@pyxis/targets';
import { readPatchBlob, patchRegion } from '@pyxis/target-pyxis';
import { encodePatchBlob, loadPyxisIsa } from '@pyxis/target-pyxis/asm';

async function capture(run: typeof runAs, argv: string[]) {
  let out = '';
  let err = '';
  const code = await run(['--no-color', ...argv], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
const isa = loadPyxisIsa();

/** Independent reference: a blob written by hand, header = u32 address, u16 size-1, u16 repeat-1 (chip §12.6.1.2). */
function handBlob(patches: Array<[number, number, number, number[]]>): Uint8Array {
  const parts: number[] = [];
  for (const [addr, size, repeat, data] of patches) {
    const h = new DataView(new ArrayBuffer(8));
    h.setUint32(0, addr, true);
    h.setUint16(4, size - 1, true);
    h.setUint16(6, repeat - 1, true);
    parts.push(...new Uint8Array(h.buffer));
    const padded = Math.ceil(data.length / 8) * 8;
    for (let i = 0; i < padded; i++) parts.push(data[i] ?? 0);
  }
  return Uint8Array.from(parts);
}

describe('inspect patch blobs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-inspect-'));

  it('reads the hand-made blob header by header', () => {
    const blob = handBlob([
      [0x40000000, 26, 1, Array.from({ length: 26 }, (_, i) => i)],
      [0x12345678 & ~7, 3, 2, [1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6]],
    ]);
    const ps = readPatchBlob(blob, 'h.bin', isa);
    expect(ps.map((p) => [p.target_address, p.reg_size, p.reg_repeat, p.data.length])).toEqual([
      [0x40000000, 26, 1, 32],
      [0x12345678 & ~7, 3, 2, 16],
    ]);
    expect(patchRegion(isa, ps[0]!)).toBe('amem_read.control pc 0');
    expect(patchRegion(isa, ps[1]!)).toBeUndefined();
    expect(encodePatchBlob(ps.map((p) => ({ ...p })))).toEqual(blob);
    // not a blob: empty, not 8-byte aligned, unaligned target, truncated
    expect(() => readPatchBlob(new Uint8Array(0), 'e', isa)).toThrow(/empty/);
    expect(() => readPatchBlob(blob.subarray(0, 12), 'e', isa)).toThrow(/multiple of 8/);
    expect(() => readPatchBlob(handBlob([[0x40000004, 8, 1, [1]]]), 'e', isa)).toThrow(/not 8-byte aligned/);
    expect(() => readPatchBlob(blob.subarray(0, 16), 'e', isa)).toThrow(/past the end/);
  });

  it('`pyxis-as --emit patch-blob` output: text, JSON and --data, from every tool', async () => {
    const blob = join(dir, 'c.blob');
    expect((await capture(runAs, [join(samples, 'conv3x3_read.pasm'), '--emit', 'patch-blob', '-o', blob])).code).toBe(0);
    const t = await capture(runAs, ['inspect', blob]);
    expect(t.code, t.err).toBe(0);
    expect(t.out).toContain(`${blob}: MPE patch blob (pyxis-chip-fspec.md §12.6.1), 4 patches, 160 bytes`);
    expect(t.out).toMatch(/^\s+0\s+00000000\s+00000008\s+0x40000000\s+26\s+1\s+32\s+amem_read\.control pc 0$/m);
    expect(t.out).toMatch(/^\s+3\s+00000078\s+00000080\s+0x40000420\s+25\s+1\s+32\s+amem_read\.op pc 1$/m);
    const j = await capture(runLd, ['inspect', blob, '--json', '--data']);
    const doc = JSON.parse(j.out);
    expect(doc.format).toBe('patch-blob');
    expect(doc.patches).toHaveLength(4);
    expect(doc.patches[1]).toMatchObject({ target_address: 0x40000400, reg_size: 25, reg_repeat: 1, data_bytes: 32, region: 'amem_read.op pc 0' });
    const raw = readFileSync(blob);
    expect(doc.patches[0].data).toBe(raw.subarray(8, 40).toString('hex'));
    // .bin works the same; another extension needs --patch-blob (a patch blob has no magic)
    const bin = join(dir, 'c.bin');
    copyFileSync(blob, bin);
    expect((await capture(runAs, ['inspect', bin])).out).toContain('MPE patch blob');
    const dat = join(dir, 'c.dat');
    copyFileSync(blob, dat);
    const plain = await capture(runAs, ['inspect', dat]);
    expect(plain.code).toBe(1);
    expect(plain.err).toContain('error[CT0001]');
    expect(plain.err).toContain('use `inspect --patch-blob');
    const forced = await capture(runAs, ['inspect', '--patch-blob', dat]);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.out).toBe(t.out.replace(blob, dat));
  });

  it('a .bin that is not a clean blob still gets the container error; --patch-blob gets the blob error', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    const r = await capture(runAs, ['inspect', junk]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error[CT0001]');
    expect(r.err).not.toContain('--patch-blob');
    const f = await capture(runAs, ['inspect', '--patch-blob', junk]);
    expect(f.code).toBe(1);
    expect(f.err).toContain('error[AS0613]');
  });
});

describe('pyxis-as on a binary file', () => {
  it('one clear error, exit 1, no raw bytes printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-bin-'));
    const obj = join(dir, 'o.pobj');
    expect((await capture(runAs, [join(samples, 'copy.pasm'), '-o', obj])).code).toBe(0);
    const src = join(dir, 'x.pasm');
    copyFileSync(obj, src);
    const r = await capture(runAs, [src, '-o', join(dir, 'x.pobj')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`error[AS0106]: \`${src}\` looks like a binary file (NUL byte at offset 6); expected assembly source`);
    expect(r.err).not.toContain('PYXOBJ');
    expect(r.err.split('\n').filter((l) => l.includes('error[')).length).toBe(1);
  });
});
