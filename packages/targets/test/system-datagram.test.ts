/**
 * Datagrams through the tools (chip §10.5, §11.4.8-11.4.9, §11.5.2): link scripts with datagram rings only (no trip
 * at all), linked into a system by pyxis-ld and run by pyxis-sim: the packet lands in the receive buffer named by the
 * RxQ descriptor (dumped from chip 1), the Rx descriptor gets PacketSizeBytes, the stats count it per RxQ.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNpy, writeNpy } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';

const MEM = `memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }
`;

describe('datagram-only systems through pyxis-ld / pyxis-sim', () => {
  it('chip 0 sends one datagram from dgram_tx0 to chip 1 dgram_rx0: delivered, counted, completed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-sysdg-'));
    // 4 x 128 bytes of RFP8 codes (512 B, integer data are taken as codes): one datagram (NumBytes = the tensor, §11.4.8)
    const data = new Uint8Array(4 * 128).map((_, i) => (i * 7 + 3) % 251);
    writeFileSync(join(dir, 'm.npy'), writeNpy({ dtype: 'uint8', shape: [4, 128], data }));
    writeFileSync(join(dir, 'c0.ld'), MEM + `tensor m { format = RFP8; shape = [4, 128]; region = amem0; data = "m.npy"; }
queue dgram_tx0 { datagram hello { src = m; dest_voq = 6; rxq_index = 0; } }
`);
    // chip 1: a 1 KiB receive buffer; dest_voq 6 = VOQ group 1 (the next chip), OQ 2 (datagrams by convention)
    writeFileSync(join(dir, 'c1.ld'), MEM + `tensor buf { format = RFP8; shape = [8, 128]; region = amem0; zero = true; }
queue dgram_rx0 { datagram slot { dst = buf; } }
`);
    for (const k of [0, 1]) {
      const l = await call(runLd, [join(dir, `c${k}.ld`), '-o', join(dir, `c${k}.pimg`)]);
      expect(l.err).toBe('');
      expect(l.code).toBe(0);
    }
    writeFileSync(join(dir, 'sys.json'), JSON.stringify({ chips: 2, images: ['c0.pimg', 'c1.pimg'], voq_map: [{ group: 1, chip: '+1' }] }));
    const l = await call(runLd, [join(dir, 'sys.json'), '-o', join(dir, 'sys.psys')]);
    expect(l.err).toBe('');
    const r = await call(runSim, ['run', join(dir, 'sys.psys'), '--stats', join(dir, 's.json'), '--dump', `chip1:buf=${join(dir, 'buf.npy')}`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/system of 2 chip\(s\) completed/);
    const got = readNpy(readFileSync(join(dir, 'buf.npy')), 'buf.npy');
    const bytes = Array.from(got.data as ArrayLike<number>);
    expect(bytes.length).toBe(1024);
    expect(bytes.slice(0, 512)).toEqual(Array.from(data));
    expect(bytes.slice(512).every((x) => x === 0)).toBe(true);
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    const rx = s.chips[1].fabric_adapter.clusters[0];
    expect([rx.rx_datagrams, rx.rxq_accepted, rx.rxq_dropped]).toEqual([1, [1, 0], [0, 0]]);
    expect(s.chips[0].fabric_adapter.clusters[0].tx_datagrams).toBe(1);
    expect(s.links.find((x: { src: number; dst: number }) => x.src === 0 && x.dst === 1).byType).toEqual({ datagram: 1 });
  }, 60_000);
});
