/**
 * A 2-chip RDMA end to end through the real fabric adapter and the wire: scripts/gen-collective.mjs writes a ring
 * all-gather (.pasm, per-chip .ld, system.json); the tools assemble, link the chips and the system, and run it; each
 * chip's received chunk must equal the other chip's input chunk exactly.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNpy } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';
import { generate } from '../../../scripts/gen-collective.mjs';

const f32 = (file: string) => [...(readNpy(readFileSync(file), file).data as Float32Array)];

describe('systems: 2-chip RDMA (ring all-gather) through adapter and wire', () => {
  it('delivers every byte exactly; fabric traffic in the stats', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-rdma-'));
    generate({ chips: 2, algorithm: 'ring-allgather', rows: 8, pageSizeWords: 125, data: 'exact', seed: 1, out: dir });
    expect((await call(runAs, [join(dir, 'collective.pasm'), '-o', join(dir, 'collective.pobj')])).code).toBe(0);
    for (const c of [0, 1]) expect((await call(runLd, [join(dir, `chip${c}.ld`), join(dir, 'collective.pobj'), '-o', join(dir, `chip${c}.pimg`)])).code).toBe(0);
    const l = await call(runLd, [join(dir, 'system.json'), '-o', join(dir, 'system.psys')]);
    expect(l.err).toBe('');
    // raw RFP16 codes: the receiving chip's chunk = the sending chip's own copy of it (the link-time conversion of
    // the input .npy), byte for byte
    const d = (chip: number, t: string) => join(dir, `chip${chip}.${t}.npy`);
    const dumps = [d(0, 'x_c1'), d(1, 'x_c1'), d(0, 'x_c0'), d(1, 'x_c0')];
    const r = await call(runSim, ['run', join(dir, 'system.psys'), '--stats', join(dir, 's.json'), ...dumps.flatMap((f) => ['--dump', `chip${f.includes('chip0') ? 0 : 1}:${f.includes('x_c1') ? 'x_c1' : 'x_c0'}=${f}`])]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const raw = (f: string) => [...(readNpy(readFileSync(f), f).data as Uint16Array)];
    expect(raw(d(0, 'x_c1'))).toEqual(raw(d(1, 'x_c1')));
    expect(raw(d(1, 'x_c0'))).toEqual(raw(d(0, 'x_c0')));
    expect(raw(d(0, 'x_c1')).filter((v) => v !== 0).length).toBeGreaterThan(200);
    // the chips started with different chunk 1 data: what chip 0 holds now came over the fabric
    expect(f32(join(dir, 'chip1_x_c1.npy'))).not.toEqual(f32(join(dir, 'chip0_x_c1.npy')));
    // one lost data page: the adapter's one retry of the whole job (§10.3.1) still delivers the bytes exactly
    const lost = join(dir, 'lost.npy');
    const f = await call(runSim, ['run', join(dir, 'system.psys'), '--fabric-faults', 'drop:data:chip=0:nth=0', '--stats', join(dir, 'fs.json'), '--dump', `chip1:x_c0=${lost}`]);
    expect(f.code).toBe(0);
    expect(raw(lost)).toEqual(raw(d(0, 'x_c0')));
    const fs = JSON.parse(readFileSync(join(dir, 'fs.json'), 'utf8'));
    expect(fs.fabric.faults_dropped).toBe(1);
    expect(fs.links[0].byType.rdma_data).toBe(2);
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    // one 8-row (1024-B) data page each way, plus a CTS and an ACK each way
    expect(s.links.map((x: { src: number; dst: number; byType: Record<string, number> }) => [x.src, x.dst, x.byType])).toEqual([
      [0, 1, { cts: 1, rdma_data: 1, ack: 1 }],
      [1, 0, { cts: 1, rdma_data: 1, ack: 1 }],
    ].map(([a, b, t]) => [a, b, expect.objectContaining(t)]));
  });
});
