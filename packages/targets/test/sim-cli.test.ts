import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainerFile, readNpy, writeNpy } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';
import { ImageBuilder, bytesOf, gid } from '../../target-pyxis/test/sim/pyxisImage.js';

const desc = ImageBuilder.desc;

function copyImage(notify = true) {
  const b = new ImageBuilder();
  const src = bytesOf(1024, (i) => i);
  b.tensor('x', 'hbm', 0x8000, src, [8, 128], 'RFP8', 0);
  b.data('amem', 0x40000, new Uint8Array(1024), 0, '.tensor.y');
  b.symbols.push({ name: 'y', kind: 'tensor', section: b.sections.length - 1, offset: 0, size: 1024, global: true, tensor: { shape: [8, 128], format: 'RFP8', eb: 0 } });
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: notify ? 1 : 2, wait_count: 1 })]);
  b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x8000 >> 10, length: 1, notify_list: [gid(0, 3)], trip_id: 1 })]);
  b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x10000 >> 10, length: 1, wait_barrier_id: 3, trip_id: 2 })]);
  b.metadata = { barriers: [{ cluster: 0, id: 3 }] };
  return b.build();
}

function io() {
  let out = '';
  let err = '';
  return { io: { stdout: (s: string) => void (out += s), stderr: (s: string) => void (err += s) }, get out() { return out; }, get err() { return err; } };
}

describe('pyxis-sim run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-sim-'));
  it('runs an image and writes stats, trace, vcd and dumps', async () => {
    const img = join(dir, 'copy.pimg');
    writeContainerFile(img, copyImage());
    const cap = io();
    const code = await runSim(
      ['run', img, '--stats', join(dir, 's.json'), '--trace', join(dir, 't.json'), '--vcd', join(dir, 'w.vcd'), '--dump', `y=${join(dir, 'y.npy')}`, '--dump', `y:f32=${join(dir, 'yf.npy')}`, '--dump-region', `hbm:0x10000:1024=${join(dir, 'r.bin')}`],
      cap.io,
    );
    expect(cap.err).toBe('');
    expect(code).toBe(0);
    expect(cap.out).toMatch(/completed after \d+ cycles/);
    expect(cap.out).toMatch(/trips: 3/);
    const stats = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(stats.stop).toBe('done');
    expect(stats.trips_by_kind.a2h).toBe(1);
    // one chip is one partition: the single-thread path, said so
    expect(stats.parallel).toEqual({ threads_asked: null, threads_used: 1, partitions: 1, note: 'one partition (a single-chip image of one cluster): the single-thread path' });
    JSON.parse(readFileSync(join(dir, 't.json'), 'utf8'));
    expect(readFileSync(join(dir, 'w.vcd'), 'utf8')).toMatch(/\$enddefinitions \$end/);
    const y = readNpy(readFileSync(join(dir, 'y.npy')), 'y.npy');
    expect(y.dtype).toBe('uint8');
    expect(Array.from(y.data.slice(0, 4))).toEqual([0, 1, 2, 3]);
    const yf = readNpy(readFileSync(join(dir, 'yf.npy')), 'yf.npy');
    expect(yf.dtype).toBe('float32');
    expect(new Uint8Array(readFileSync(join(dir, 'r.bin')))).toEqual(bytesOf(1024, (i) => i));
  });
  it('rejects bad option values with exit 2', async () => {
    const cap = io();
    expect(await runSim(['run', 'x.pimg', '--max-cycles', 'ten'], cap.io)).toBe(2);
    expect(cap.err).toMatch(/--max-cycles expects an integer/);
    for (const v of ['0', '-2', '100000', 'many']) {
      const c = io();
      expect(await runSim(['run', 'x.pimg', '--threads', v], c.io)).toBe(2);
      expect(c.err).toContain('--threads expects an integer 1..256 threads');
    }
    const r = io();
    expect(await runSim(['run', 'x.pimg', '--dump-region', 'sram:0:4=f.bin'], r.io)).toBe(2); // an unknown space: the spec does not parse
    expect(r.err).toMatch(/--dump-region expects SPACE:ADDR:LEN=FILE\.bin/);
  });
  it('exits 1 with the wait graph on a deadlock, stats to stdout', async () => {
    const img = join(dir, 'dl.pimg');
    writeContainerFile(img, copyImage(false));
    const cap = io();
    const code = await runSim(['run', img, '--stats', '-', '--dump-region', `hbm:0:8=${join(dir, 'never.bin')}`], cap.io);
    expect(code).toBe(1);
    expect(cap.err).toMatch(/SIM0010/);
    expect(cap.err).toMatch(/barrier 0:3/);
    expect(JSON.parse(cap.out).stop).toBe('deadlock');
    expect(existsSync(join(dir, 'never.bin'))).toBe(false);
  });
  it('--warn-uninit names the addresses of uninitialised reads; a bad descriptor is reported at its file offset', async () => {
    const b = new ImageBuilder();
    b.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x30_0000 >> 10, length: 1, trip_id: 4 })]);
    const img = join(dir, 'uninit.pimg');
    writeContainerFile(img, b.build());
    const plain = io();
    expect(await runSim(['run', img], plain.io)).toBe(0);
    expect(plain.err).toMatch(/1024 byte\(s\) read from HBM locations never written/);
    const cap = io();
    expect(await runSim(['run', img, '--warn-uninit'], cap.io)).toBe(0);
    expect(cap.err).toMatch(/warning\[SIM0014\].*read of uninitialised hbm at 0x300000/);
    expect(cap.out).toMatch(/warnings: 1\n {2}SIM0014: /);
    // the same list with Descriptor Format 1: exit 1, diagnostic at file:offset of the descriptor
    const bad = new ImageBuilder();
    const d = desc('desc_h2a', { amem_start_address: 0x40000 >> 7, length: 1, descriptor_format: 1 });
    bad.list(0x10, 0x1000, [d]);
    const badImg = join(dir, 'badfmt.pimg');
    writeContainerFile(badImg, bad.build());
    const file = new Uint8Array(readFileSync(badImg));
    const at = file.findIndex((_, i) => d.every((x, j) => file[i + j] === x));
    const e = io();
    expect(await runSim(['run', badImg], e.io)).toBe(1);
    expect(e.err).toContain(`badfmt.pimg: offset 0x${at.toString(16).padStart(7, '0')} (${at})`);
    expect(e.err).toMatch(/SIM0003/);
  });
  it('checks dump specs and output directories before running (nothing simulated, nothing written)', async () => {
    const img = join(dir, 'pre.pimg');
    writeContainerFile(img, copyImage());
    const cases: Array<[string[], RegExp, number?]> = [
      // a name the image does not have: a usage error with did-you-mean, as in every target (unknownName)
      [['--dump', `yy=${join(dir, 'n.npy')}`], /--dump: no tensor `yy` in the image\n.*did you mean `y`\?\n.*tensors in the image: x, y/, 2],
      [['--dump-region', `amem:0x3ffff00:0x200=${join(dir, 'n.bin')}`], /SIM0013.*outside AMEM/],
      [['--dump-region', `cfg2:0x40000000:8=${join(dir, 'n.bin')}`], /SIM0013.*cluster 2 is not simulated/],
      [['--trace', join(dir, 'missing', 't.json')], /IO0002.*no such directory .*missing/],
      [['--dump', `y=${join(dir, 'missing', 'y.npy')}`], /IO0002/],
      [['--vcd', dir], /IO0002.*it is a directory/],
      [['--stats', join(dir, 'pre-stats.json'), '--trace', dir], /IO0002.*it is a directory/],
    ];
    for (const [args, msg, code] of cases) {
      const cap = io();
      expect(await runSim(['run', img, ...args], cap.io)).toBe(code ?? 1);
      expect(cap.err).toMatch(msg);
      expect(cap.out).toBe(''); // no summary: the run never started
    }
    expect(existsSync(join(dir, 'n.npy')) || existsSync(join(dir, 'n.bin')) || existsSync(join(dir, 'pre-stats.json')) || existsSync(`${dir}.partial`)).toBe(false);
  });
  it('a dump spec that does not parse is a usage error (exit 2, as --set and the other targets\' --dump), before the image is read', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--dump', 'src_hbm'], /--dump expects SYMBOL=FILE\.npy/],
      [['--dump', 'src_hbm:f64=x.npy'], /--dump expects SYMBOL=FILE\.npy/],
      [['--dump-region', 'hbm:0x:16=x.bin'], /--dump-region expects SPACE:ADDR:LEN=FILE\.bin/],
      [['--dump-region', 'hbm1:0:16=x.bin'], /HBM is one address space/],
      [['--dump-region', 'hbm:0:0=x.bin'], /bad address or length/],
    ];
    for (const [args, msg] of cases) {
      const cap = io();
      expect(await runSim(['run', join(dir, 'no-such-image.pimg'), ...args], cap.io)).toBe(2);
      expect(cap.err).toMatch(msg);
      expect(cap.err).not.toMatch(/no such file/);
    }
  });
  it('rejects a malformed image with a diagnostic', async () => {
    const img = join(dir, 'bad.pimg');
    const c = copyImage();
    c.kind = 'pobj';
    writeContainerFile(img, c);
    const cap = io();
    const tr = join(dir, 'bad-trace.json');
    expect(await runSim(['run', img, '--trace', tr, '--vcd', join(dir, 'bad.vcd')], cap.io)).toBe(1);
    expect(cap.err).toMatch(/SIM0001/);
    // no output and no leftover temporary file
    expect(existsSync(tr)).toBe(false);
    expect(existsSync(`${tr}.partial`)).toBe(false);
    expect(existsSync(join(dir, 'bad.vcd.partial'))).toBe(false);
  });
});

describe('pyxis-sim --dump of 32-bit integer tensors (index tables)', () => {
  it('int32 dumps as int32, uint32 as uint32 (values >= 2^31 intact), :f32 decodes the integers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-int32-'));
    writeFileSync(join(dir, 'u.npy'), writeNpy({ dtype: 'uint32', shape: [1, 3], data: Uint32Array.from([1, 0xffffffff, 0x80000000]) }));
    writeFileSync(join(dir, 'i.npy'), writeNpy({ dtype: 'int32', shape: [1, 3], data: Int32Array.from([1, -1, -7]) }));
    writeFileSync(join(dir, 'd.ld'), 'memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }\ntensor u { format = uint32; shape = [1, 3]; data = "u.npy"; }\ntensor i { format = int32; shape = [1, 3]; data = "i.npy"; }\n');
    const cap = io();
    expect(await runLd([join(dir, 'd.ld'), '-o', join(dir, 'd.pimg')], cap.io)).toBe(0);
    const out = (n: string) => join(dir, `o_${n}.npy`);
    expect(await runSim(['run', join(dir, 'd.pimg'), '--dump', `u=${out('u')}`, '--dump', `i=${out('i')}`, '--dump', `i:f32=${out('if')}`, '--dump', `u:f32=${out('uf')}`], cap.io)).toBe(0);
    const get = (n: string) => readNpy(readFileSync(out(n)), n);
    expect([get('u').dtype, [...get('u').data]]).toEqual(['uint32', [1, 0xffffffff, 0x80000000]]);
    expect([get('i').dtype, [...get('i').data]]).toEqual(['int32', [1, -1, -7]]);
    expect([...get('if').data]).toEqual([1, -1, -7]);
    expect([...get('uf').data]).toEqual([1, 2 ** 32, 2 ** 31]); // float32 of 2^32 - 1 rounds to 2^32
  });
});
