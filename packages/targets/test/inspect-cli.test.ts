import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeContainer, writeNpy, writeSafetensors } from '@pyxis/container';
import { runTool } from '@pyxis/cli';
import { registerInspect } from '@pyxis/cli';
import '@pyxis/targets';
import { sampleContainer } from '../../container/test/fixtures.js';

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runTool('pyxis-ld', 'test', (p, ctx) => void registerInspect(p, ctx), argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

describe('inspect sub-command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-inspect-'));
  const obj = join(dir, 'a.pobj');
  writeFileSync(obj, writeContainer(sampleContainer()));

  it('prints text', async () => {
    const r = await run(['inspect', obj]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('pobj version 1, target pyxis');
    expect(r.out).toContain('Sections:');
  });
  it('prints JSON (with --data hex)', async () => {
    const r = await run(['inspect', '--json', '--data', obj]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { sections: Array<{ data: string }>; target: string };
    expect(j.target).toBe('pyxis');
    expect(j.sections[0]!.data).toBe('deadbeef');
  });
  it('a corrupt file gives exit 1 and a one-line reason with the offset', async () => {
    const bad = join(dir, 'bad.pobj');
    const b = writeContainer(sampleContainer());
    writeFileSync(bad, b.subarray(0, 200));
    const r = await run(['inspect', '--no-color', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.pobj: offset 0x00000c8 \(200\): error\[CT0003\]: truncated/);
    expect(r.err).not.toMatch(/at .*\.ts/);
  });
  it('inspects tensor files by magic', async () => {
    const npy = join(dir, 't.npy');
    writeFileSync(npy, writeNpy({ dtype: 'int8', shape: [2, 2], data: new Int8Array(4) }));
    expect((await run(['inspect', npy])).out).toContain('npy int8 [2, 2]');
    const st = join(dir, 't.safetensors');
    writeFileSync(st, writeSafetensors(new Map([['w', { dtype: 'float32' as const, shape: [3], data: new Float32Array(3) }]])));
    expect(JSON.parse((await run(['inspect', '--json', st])).out).tensors.w).toEqual({ dtype: 'float32', shape: [3], elements: 3, bytes: 12 });
  });
  it('a missing file is exit 1', async () => {
    expect((await run(['inspect', join(dir, 'nope.pobj')])).code).toBe(1);
  });
});
