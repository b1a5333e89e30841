/**
 * Inputs a new user gives the tools by mistake (the session-8 audit): each gets a clear error and the documented exit
 * code (1 input error, 2 usage), never a script lexer fed with binary bytes or a usage error for a corrupted file.
 * - pyxis-ld given a linked image / a system / an object without `.pobj` where the link script goes: usage (2).
 * - a container whose target field names no known target (corrupted): exit 1 at the header's target field (byte 24),
 *   for pyxis-sim and pyxis-ld alike (it was a usage error "unknown target", exit 2, with no offset).
 * - a system whose chip image is a `.psys` (it linked as a chip with no descriptors) or a `.pobj`: LD0900 at `$.image`.
 * - LD0960: an RDMA Tx job whose Rx partner no chip enqueues, and an Rx job without its Tx job: a warning each (it
 *   linked silently and failed after the 1 ms CTS-wait timeout).
 * - a .psys whose embedded image is corrupted: the note gives the image's byte offset in the .psys (the message's
 *   offsets are inside the image); a manifest whose fabric RTT is 1e308 ns: exit 1 (it was an internal error, exit 3).
 * - a hand-edited .psys manifest (LD0907): chip facts changed (a 1e9-entry VOQ map hung allocating; 100 clusters per
 *   chip ran), one VPFE for two clusters (ran with unroutable pages), `fabric: null` (a JavaScript message), the
 *   manifest removed (ran as an empty single chip, exit 0).
 * - pyxis-sim given a system description (.json) instead of the linked .psys: usage, naming pyxis-ld.
 * - pyxis-sim --compare on a system: refused before the run (it ran the whole system, then said "target pyxis cannot
 *   give tensors"); a --dump chip that is not 0..N-1 written any way (chip-1, chip0001, chipx): usage (2), not SIM0013.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGION_TABLE_OFFSET, REGIONS, readContainerFile, writeContainerFile, writeNpyFile } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { copyImage } from './sweep-fixtures.js';
import { call } from './cli-call.js';

const ld = (a: string[]) => call(runLd, a);
const sim = (a: string[]) => call(runSim, a);


/** The file offset of the container's target string (header byte 24 = its offset in the strings table). */
function targetStringOffset(bytes: Uint8Array): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const strings = Number(dv.getBigUint64(REGION_TABLE_OFFSET + 16 * REGIONS.indexOf('strings'), true));
  return strings + dv.getUint32(24, true);
}

describe('audit: inputs given by mistake', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-audit-'));
  const img = join(dir, 'chip.pimg');
  writeContainerFile(img, copyImage());

  it('pyxis-ld with an image, a system or an unnamed object as its link script: usage error naming the mistake', async () => {
    const a = await ld([img, '-o', join(dir, 'never.pimg')]);
    expect(a.code).toBe(2);
    expect(a.err).toContain('chip.pimg is a linked image (.pimg / .psys), not a link script');
    expect(a.err).not.toContain('LD0002'); // no lexing of binary bytes
    // without -o (the default output chip.pimg is the input): the same usage error, not IO0003 "output is the input"
    const a2 = await ld([img]);
    expect(a2.code).toBe(2);
    expect(a2.err).toContain('chip.pimg is a linked image (.pimg / .psys), not a link script');
    writeFileSync(join(dir, 'sys.json'), JSON.stringify({ chips: 2, image: 'chip.pimg' }));
    // without -o a system description links to SYSTEM.psys (it wrote SYSTEM.pimg)
    expect((await ld([join(dir, 'sys.json')])).code).toBe(0);
    expect(existsSync(join(dir, 'sys.psys'))).toBe(true);
    expect(existsSync(join(dir, 'sys.pimg'))).toBe(false);
    const b = await ld([join(dir, 'sys.psys')]);
    expect(b.code).toBe(2);
    expect(b.err).toContain('sys.psys is a linked image');
    expect(existsSync(join(dir, 'never.pimg'))).toBe(false);
  });

  it('a container naming an unknown target (corrupted): exit 1 at byte 24, for pyxis-sim and pyxis-ld', async () => {
    const bytes = new Uint8Array(readFileSync(img));
    bytes[targetStringOffset(bytes)] = 0x41; // "pyxis" -> "Ayxis"
    const bad = join(dir, 'bad.pimg');
    writeFileSync(bad, bytes);
    const r = await sim(['run', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.pimg: offset 0x0000018 \(24\): error\[CLI0002\]: .*names target `Ayxis`, which is not a known target/);
    copyFileSync(bad, join(dir, 'bad.pobj'));
    writeFileSync(join(dir, 'k.ld'), 'memory a { space = amem; cluster = 0; origin = 0; length = 1M; }\n');
    const l = await ld([join(dir, 'k.ld'), join(dir, 'bad.pobj'), '-o', join(dir, 'k.pimg')]);
    expect(l.code).toBe(1);
    expect(l.err).toContain('CLI0002');
    // --target given: the existing mismatch error (exit 1) is unchanged
    const t = await sim(['run', '--target', 'pyxis', bad]);
    expect(t.code).toBe(1);
    expect(t.err).toContain('is an image for target `Ayxis`, not `pyxis`');
  });

  it('a system whose chip image is a .psys or a .pobj: LD0900 at the JSON path of the image', async () => {
    writeFileSync(join(dir, 'sys2.json'), JSON.stringify({ chips: 2, image: 'chip.pimg' }));
    expect((await ld([join(dir, 'sys2.json'), '-o', join(dir, 'inner.psys')])).code).toBe(0);
    writeFileSync(join(dir, 'nested.json'), '{ "chips": 2,\n  "images": ["chip.pimg", "inner.psys"] }');
    const r = await ld(['--diagnostics-format', 'human', join(dir, 'nested.json'), '-o', join(dir, 'nested.psys')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/nested\.json:2:27: error\[LD0900\]: \$\.images\[1\]: .*inner\.psys is a system container \(\.psys\), not a chip image/);
    expect(existsSync(join(dir, 'nested.psys'))).toBe(false);
  });

  it('pyxis-sim: a system description, --compare on a system, a bad chip in --dump: usage errors before any run', async () => {
    writeFileSync(join(dir, 'sys3.json'), JSON.stringify({ chips: 2, image: 'chip.pimg' }));
    expect((await ld([join(dir, 'sys3.json'), '-o', join(dir, 'sys3.psys')])).code).toBe(0);
    const j = await sim(['run', join(dir, 'sys3.json')]);
    expect(j.code).toBe(2);
    expect(j.err).toContain('if it is a system description, link it first: `pyxis-ld');
    writeNpyFile(join(dir, 'ref.npy'), { dtype: 'float32', shape: [8, 128], data: new Float32Array(1024) });
    const c = await sim(['run', join(dir, 'sys3.psys'), '--compare', `y=${join(dir, 'ref.npy')}`, '--stats', join(dir, 'c.json')]);
    expect(c.code).toBe(2);
    expect(c.out).toBe(''); // no run: no summary
    expect(c.err).toContain('--compare is a single-chip option');
    for (const bad of ['chip-1', 'chip0001', 'chipx', 'chip2']) {
      const d = await sim(['run', join(dir, 'sys3.psys'), '--dump', `${bad}:y=${join(dir, 'y.npy')}`]);
      expect(d.code, bad).toBe(2);
      expect(d.err, bad).toContain('the system has chips 0..1');
    }
    expect(existsSync(join(dir, 'c.json'))).toBe(false);
  });

  it('LD0960: RDMA jobs without a partner are named (Tx TJID 0 to chip 1 finds an Rx job with TJID 5 there)', async () => {
    writeFileSync(join(dir, 'e.pasm'), '# no programs: the chips only move data by RDMA\n');
    expect((await call(runAs, [join(dir, 'e.pasm'), '-o', join(dir, 'e.pobj')])).code).toBe(0);
    const head = 'memory amem0 { space = amem; cluster = 0; view = hashed; origin = 0; length = 64M; }\n';
    writeFileSync(join(dir, 'tx.ld'), head + 'tensor x { format = RFP16; eb = -15; shape = [2, 128]; region = amem0; align = 128; zero = true; }\nqueue rdma_tx0 { cluster = 0; trip t0 { src = x; tjid = 0; rjid = 0; dest_voq = 4; } }\n');
    writeFileSync(join(dir, 'rx.ld'), head + 'tensor y { format = RFP16; eb = -15; shape = [2, 128]; region = amem0; align = 128; zero = true; }\nqueue rdma_rx0 { cluster = 0; trip r0 { dst = y; tjid = TJ; rjid = TJ; msg_voq = 4; } }\n');
    const link = async (tj: number) => {
      writeFileSync(join(dir, `rx${tj}.ld`), readFileSync(join(dir, 'rx.ld'), 'utf8').replaceAll('TJ', String(tj)));
      expect((await ld([join(dir, 'tx.ld'), join(dir, 'e.pobj'), '-o', join(dir, 'tx.pimg')])).code).toBe(0);
      expect((await ld([join(dir, `rx${tj}.ld`), join(dir, 'e.pobj'), '-o', join(dir, `rx${tj}.pimg`)])).code).toBe(0);
      writeFileSync(join(dir, `pair${tj}.json`), JSON.stringify({ chips: 2, images: ['tx.pimg', `rx${tj}.pimg`], voq_map: [{ group: 1, chip: '+1' }] }));
      return ld([join(dir, `pair${tj}.json`), '-o', join(dir, `pair${tj}.psys`)]);
    };
    const good = await link(0);
    expect(good.code).toBe(0);
    expect(good.err).toBe('');
    const bad = await link(5);
    expect(bad.code).toBe(0); // warnings: the system links
    expect(bad.err).toMatch(/warning\[LD0960\]: chip 0: .*tx\.pimg: cluster 0 queue 0xc .*RDMA Tx job TJID 0 RJID 0 has no Rx job on chip 1 cluster 0/);
    expect(bad.err).toMatch(/warning\[LD0960\]: chip 1: .*rx5\.pimg: cluster 0 queue 0xe .*RDMA Rx job TJID 5 RJID 5 \(chip 1 cluster 0\) has no Tx job on chip 0 cluster 0/);
    expect(bad.err).toContain('0 errors, 2 warnings');
  });

  it('a corrupted .psys: the offset of the embedded image in a note; an absurd manifest RTT is an input error', async () => {
    writeFileSync(join(dir, 'sys5.json'), JSON.stringify({ chips: 2, image: 'chip.pimg' }));
    expect((await ld([join(dir, 'sys5.json'), '-o', join(dir, 'sys5.psys')])).code).toBe(0);
    const c = readContainerFile(join(dir, 'sys5.psys'));
    const sec = c.sections.find((x) => x.name === 'system.image.0')!;
    const bytes = new Uint8Array(readFileSync(join(dir, 'sys5.psys')));
    bytes[sec.fileOffset! + 72] = 0xff; // the embedded image's symbol count (header byte 72: 255 entries)
    writeFileSync(join(dir, 'bad5.psys'), bytes);
    const r = await sim(['run', join(dir, 'bad5.psys')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`the image is section system.image.0 of ${join(dir, 'bad5.psys')}, at byte offset 0x${sec.fileOffset!.toString(16)} (${sec.fileOffset})`);
    const m = c.metadata['pyxis_system'] as { fabric: { rtt_ns: number } };
    m.fabric.rtt_ns = 1e308;
    writeContainerFile(join(dir, 'rtt.psys'), c);
    const q = await sim(['run', join(dir, 'rtt.psys')]);
    expect(q.code).toBe(1);
    expect(q.err).toMatch(/error\[LD0907\]: .*system manifest: fabric\.json: `rtt_ns` must be at most 1000000/);
  });

  it('a hand-edited .psys manifest: LD0907 naming what is wrong, exit 1, before any run', async () => {
    writeFileSync(join(dir, 'sys6.json'), JSON.stringify({ chips: 2, image: 'chip.pimg' }));
    expect((await ld([join(dir, 'sys6.json'), '-o', join(dir, 'sys6.psys')])).code).toBe(0);
    const base = readContainerFile(join(dir, 'sys6.psys'));
    type M = { fabric: { system: { voq_map_entries: number; clusters_per_chip: number } } | null; cluster_vpfe: number[][] };
    const cases: Array<[string, (m: M, c: typeof base) => void, RegExp]> = [
      ['entries', (m) => (m.fabric!.system.voq_map_entries = 1e9), /fabric\.system is not grammars\/pyxis\/fabric\.json's/],
      ['cpc', (m) => (m.fabric!.system.clusters_per_chip = 100), /fabric\.system is not/],
      ['vpfe', (m) => (m.cluster_vpfe[1] = m.cluster_vpfe[0]!), /gives one VPFE to two clusters/],
      ['null', (m) => (m.fabric = null), /`fabric` must be the object of fabric\.json parameters/],
      ['gone', (_m, c) => delete c.metadata['pyxis_system'], /no `pyxis_system` object in the metadata/],
    ];
    for (const [name, edit, msg] of cases) {
      const c = structuredClone(base);
      edit(c.metadata['pyxis_system'] as M, c);
      writeContainerFile(join(dir, `m_${name}.psys`), c);
      const r = await sim(['run', join(dir, `m_${name}.psys`)]);
      expect(r.code, name).toBe(1);
      expect(r.out, name).toBe('');
      expect(r.err, name).toMatch(/error\[LD0907\]: .*system manifest: /);
      expect(r.err, name).toMatch(msg);
    }
  });
});
