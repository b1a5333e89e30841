import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readContainerFile, writeContainerFile, writeNpy } from '@pyxis/container';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';

const isa = loadPyxisIsa();
import { runLd } from '@pyxis/targets';

const samples = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));

function setup(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-ld-'));
  copyFileSync(samples + 'copy.ld', join(dir, 'copy.ld'));
  copyFileSync(samples + 'copy_src.npy', join(dir, 'copy_src.npy'));
  const obj = assemble([{ file: 'copy.pasm', text: readFileSync(samples + 'copy.pasm', 'utf8') }], { isa, listing: false }).object;
  writeContainerFile(join(dir, 'copy.pobj'), obj);
  return dir;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runLd(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

describe('pyxis-ld CLI', () => {
  it('links the copy sample into an image, a text map and a JSON map', async () => {
    const d = setup();
    const r = await run([join(d, 'copy.ld'), join(d, 'copy.pobj'), '-o', join(d, 'copy.pimg'), '--map', join(d, 'copy.map'), '--map-json', join(d, 'copy.map.json')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const img = readContainerFile(join(d, 'copy.pimg'));
    expect(img.kind).toBe('pimg');
    expect(img.sections.some((s) => s.name === '.enqueue')).toBe(true);
    expect(readFileSync(join(d, 'copy.map'), 'utf8')).toMatch(/Barrier allocation/);
    expect(JSON.parse(readFileSync(join(d, 'copy.map.json'), 'utf8')).barriers).toHaveLength(2);
  });
  it('bad input: diagnostic at file:line:col with a caret, exit 1, no output files', async () => {
    const d = setup();
    const script = readFileSync(join(d, 'copy.ld'), 'utf8').replace('data = "copy_src.npy"', 'data = "nope.npy"');
    writeFileSync(join(d, 'bad.ld'), script);
    const r = await run([join(d, 'bad.ld'), join(d, 'copy.pobj'), '-o', join(d, 'bad.pimg'), '--map', join(d, 'bad.map'), '--no-color']);
    expect(r.code).toBe(1);
    const line = script.split('\n').findIndex((l) => l.includes('nope.npy')) + 1;
    expect(r.err).toContain(`bad.ld:${line}:`);
    expect(r.err).toMatch(/no such file: nope\.npy/);
    expect(r.err).toMatch(/\^/);
    expect(existsSync(join(d, 'bad.pimg'))).toBe(false);
    expect(existsSync(join(d, 'bad.map'))).toBe(false);
  });
  it('malformed inputs: each gives its diagnostic at file:line:col (spec section for hardware rules), exit 1, no files', async () => {
    const d = setup();
    writeFileSync(join(d, 'i32.npy'), writeNpy({ dtype: 'int32', shape: [8, 128], data: new Int32Array(8 * 128) }));
    writeFileSync(join(d, 'f.npy'), writeNpy({ dtype: 'float32', shape: [4, 128], data: new Float32Array(4 * 128) }));
    writeFileSync(join(d, 'w.npy'), writeNpy({ dtype: 'float32', shape: [16, 64], data: new Float32Array(16 * 64).fill(0.5) }));
    const cases: Array<[string, string, RegExp, string | undefined]> = [
      ['dtype', 'tensor t { format = RFP8; shape = [8, 128]; data = "i32.npy"; }', /LD0208.*dtype int32/, undefined],
      ['shape', 'tensor t { format = RFP8; shape = [8, 128]; data = "f.npy"; }', /LD0206.*shape \[4,128\]/, undefined],
      ['overflow', 'memory m { origin = 0; length = 1K; }\ntensor t { format = RFP8; shape = [16, 128]; region = m; }', /LD0306.*overflows/, 'pyxis-chip-fspec.md §7, §7.1'],
      ['block size', 'weights w { kind = compressed; data = "w.npy"; block_size = 12; }', /LD0702/, 'pyxis-chip-fspec.md'],
      ['16-bit partition', 'tensor t { format = RFP16; shape = [1, 64]; address = 0x10; }', /LD0801/, 'pyxis-chip-fspec.md §7.3'],
      ['syntax', 'tensor t { format = RFP8 shape = [1, 64]; }', /LD000[12]/, undefined],
    ];
    for (const [what, text, msg, spec] of cases) {
      const f = join(d, `bad-${what.replace(/ /g, '_')}.ld`);
      writeFileSync(f, text + '\n');
      const out = join(d, 'out.pimg'), map = join(d, 'out.map'), mj = join(d, 'out.json');
      const r = await run([f, '-o', out, '--map', map, '--map-json', mj, '--no-color']);
      expect(r.code, what).toBe(1);
      expect(r.err, what).toMatch(msg);
      expect(r.err, what).toMatch(new RegExp(`bad-${what.replace(/ /g, '_')}\\.ld:\\d+:\\d+: error`));
      expect(r.err, what).toMatch(/\n\s*\|\s*\^/);
      if (spec) expect(r.err, what).toContain(`spec: ${spec}`);
      for (const x of [out, map, mj]) expect(existsSync(x), `${what}: ${x}`).toBe(false);
    }
  });
  it('the weights sample: the map shows the fitted EB and the error of each database', async () => {
    const d = setup();
    for (const f of ['weights_1x1.ld', 'fc_w.npy', 'fc_b.npy']) copyFileSync(samples + f, join(d, f));
    const obj = assemble(['wdp_1x1_weights.pasm', 'weights_1x1_rd.pasm'].map((f) => ({ file: f, text: readFileSync(samples + f, 'utf8') })), { isa, listing: false }).object;
    writeContainerFile(join(d, 'w.pobj'), obj);
    const r = await run([join(d, 'weights_1x1.ld'), join(d, 'w.pobj'), '-o', join(d, 'w.pimg'), '--map', '-']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/fc8 +linear8 .* eb=-18 max_rel_err=\S+ rms_rel_err=\S+ snr=\S+ dB beta_max_rel_err=/);
    expect(r.out).toMatch(/fc4 +compressed .* eb=-18 .* snr=2\d\.\d\d dB/);
  });
  it('usage errors exit 2', async () => {
    expect((await run([])).code).toBe(2);
  });
});
