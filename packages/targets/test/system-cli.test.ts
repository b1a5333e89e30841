/**
 * Systems end to end (docs/system.md): pyxis-ld SYSTEM.json -> .psys, pyxis-sim run .psys (per-chip stats and dumps,
 * fault SPEC usage errors), and the golden diagnostics of bad systems (samples/pyxis/systems/errors/*.json beside
 * their *.err; PYXIS_UPDATE_GOLDEN=1 rewrites them).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainerFile, readNpy } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { ImageBuilder, bytesOf, gid } from '../../target-pyxis/test/sim/pyxisImage.js';
import { call } from './cli-call.js';

const desc = ImageBuilder.desc;

/** HBM x -> AMEM -> HBM, with a tensor y in AMEM (as sim-cli.test.ts). */
function copyImage() {
  const b = new ImageBuilder();
  b.tensor('x', 'hbm', 0x8000, bytesOf(1024, (i) => i), [8, 128], 'RFP8', 0);
  b.data('amem', 0x40000, new Uint8Array(1024), 0, '.tensor.y');
  b.symbols.push({ name: 'y', kind: 'tensor', section: b.sections.length - 1, offset: 0, size: 1024, global: true, tensor: { shape: [8, 128], format: 'RFP8', eb: 0 } });
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: 1, wait_count: 1 })]);
  b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x8000 >> 10, length: 1, notify_list: [gid(0, 3)], trip_id: 1 })]);
  b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x10000 >> 10, length: 1, wait_barrier_id: 3, trip_id: 2 })]);
  b.metadata = { barriers: [{ cluster: 0, id: 3 }] };
  return b.build();
}

const ld = (a: string[]) => call(runLd, a);
const sim = (a: string[]) => call(runSim, a);

describe('systems: pyxis-ld and pyxis-sim run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-sys-'));
  writeContainerFile(join(dir, 'chip.pimg'), copyImage());

  it('links an SPMD system once and runs every chip; dumps per chip; stats per chip and per link', async () => {
    writeFileSync(join(dir, 'ring.json'), JSON.stringify({ chips: 3, image: 'chip.pimg', voq_map: [{ group: 0, chip: '+1' }, { group: 1, chip: '-1' }] }));
    const l = await ld([join(dir, 'ring.json'), '-o', join(dir, 'ring.psys'), '--map', join(dir, 'ring.map')]);
    expect(l.err).toBe('');
    expect(l.code).toBe(0);
    const map = readFileSync(join(dir, 'ring.map'), 'utf8');
    // ring: chip 0's group 0 -> chip 1 cluster 0 = the 4th legal VPFE (4); group 1 -> chip 2 cluster 0 = VPFE 9.
    expect(map).toMatch(/^ {3}0 .* \[0, 1, 2, 4\]  0->5 1->10$/m);
    const r = await sim(['run', join(dir, 'ring.psys'), '--stats', join(dir, 's.json'), '--dump', `chip2:y=${join(dir, 'y2.npy')}`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/system of 3 chip\(s\) completed after \d+ cycles/);
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(s.chips).toHaveLength(3);
    expect(s.chips.map((c: { trips_total: number }) => c.trips_total)).toEqual([3, 3, 3]);
    expect(s.links).toEqual([]);
    expect(s.fabric.one_way_cycles).toBe(1330);
    // machine parameters reach every chip and the wire: at 1 GHz the 1-us one-way latency is 1000 cycles
    const g = await sim(['run', join(dir, 'ring.psys'), '--clock-hz', '1e9', '--stats', join(dir, 's1.json')]);
    expect(g.code).toBe(0);
    const s1 = JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8'));
    expect(s1.fabric.one_way_cycles).toBe(1000);
    expect(s1.chips.map((c: { clock_hz: number }) => c.clock_hz)).toEqual([1e9, 1e9, 1e9]);
    const y = readNpy(readFileSync(join(dir, 'y2.npy')), 'y2.npy');
    expect([...(y.data as Uint8Array)]).toEqual([...bytesOf(1024, (i) => i)]);
  });

  it('a system description with objects is a usage error', async () => {
    const copy = new URL('../../../samples/pyxis/copy.pasm', import.meta.url).pathname;
    expect((await call(runAs, [copy, '-o', join(dir, 'x.pobj')])).code).toBe(0);
    const r = await ld([join(dir, 'ring.json'), join(dir, 'x.pobj'), '-o', join(dir, 'never.psys')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/takes no objects/);
  });

  it('embeds an image used by several chips once', async () => {
    writeFileSync(join(dir, 'two.json'), JSON.stringify({ chips: 2, images: ['chip.pimg', 'chip.pimg'] }));
    expect((await ld([join(dir, 'two.json'), '-o', join(dir, 'two.psys')])).code).toBe(0);
    const inspect = await call(runLd, ['inspect', join(dir, 'two.psys')]);
    expect(inspect.out.match(/system\.image\./g)).toHaveLength(1);
  });

  it('a bad --fabric-faults SPEC or chip dump is a usage error (exit 2)', async () => {
    writeFileSync(join(dir, 'one.json'), JSON.stringify({ chips: 1, image: 'chip.pimg' }));
    expect((await ld([join(dir, 'one.json'), '-o', join(dir, 'one.psys')])).code).toBe(0);
    const f = await sim(['run', join(dir, 'one.psys'), '--fabric-faults', 'drop:data:rate=3']);
    expect(f.code).toBe(2);
    expect(f.err).toMatch(/position 16/);
    // rules that could never hit: a chip the system does not have, a job id beyond 8 bits, a key given twice
    for (const [spec, msg] of [
      ['drop:data:chip=1', /chip=1: the system has chips 0\.\.0/],
      ['drop:data:tjid=256', /tjid must be a job id 0\.\.255 .* at position 16/],
      ['corrupt:ack:nth=0:nth=1', /nth is given twice in one rule at position 19/],
    ] as const) {
      const x = await sim(['run', join(dir, 'one.psys'), '--fabric-faults', spec]);
      expect(x.code, spec).toBe(2);
      expect(x.err, spec).toMatch(msg);
    }
    const single = await sim(['run', join(dir, 'chip.pimg'), '--fabric-faults', 'drop:data']);
    expect(single.code).toBe(2);
    expect(single.err).toMatch(/applies to systems/);
    const cl = await sim(['run', join(dir, 'one.psys'), '--clusters', '2']);
    expect(cl.code).toBe(2);
    expect(cl.err).toMatch(/--clusters is a single-chip option/);
    const v = await sim(['run', join(dir, 'one.psys'), '--vcd', join(dir, 'w.vcd'), '--trace', join(dir, 't.json')]);
    expect(v.code).toBe(2);
    expect(existsSync(join(dir, 'w.vcd')) || existsSync(join(dir, 't.json'))).toBe(false);
    const d = await sim(['run', join(dir, 'one.psys'), '--dump', `chip5:y=${join(dir, 'n.npy')}`]);
    expect(d.code).toBe(2);
    expect(existsSync(join(dir, 'n.npy'))).toBe(false);
  });
});

describe('bad systems: golden diagnostics', () => {
  const errDir = new URL('../../../samples/pyxis/systems/errors/', import.meta.url).pathname;
  for (const f of readdirSync(errDir).filter((x) => x.endsWith('.json'))) {
    it(f, async () => {
      const r = await ld(['--diagnostics-format', 'human', join(errDir, f), '-o', join(tmpdir(), `never-${f}.psys`)]);
      expect(r.code).toBe(1);
      const text = r.err.split(errDir).join('');
      const golden = join(errDir, f.replace(/\.json$/, '.err'));
      if (process.env.PYXIS_UPDATE_GOLDEN === '1') writeFileSync(golden, text);
      expect(text).toBe(readFileSync(golden, 'utf8'));
    });
  }
});
