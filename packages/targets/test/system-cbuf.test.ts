/**
 * The Rx CBUF as the grant limit in a full system run (chip §10.8.3, §10.8 [8]): the system description shrinks the
 * CBUF to 100 cells (`fabric.rx_cbuf_cells`), chip 0 sends 16 pages of 24 cells (32-word pages of 16 + 4096 B = 257
 * chunks, §10.1) to chip 1; only four fit at once, so chip 1's grant scheduler must see the cells its adapter frees.
 * The transfer completes byte-exact, the CBUF never held more than 100 cells, and grants waited for room.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNpy, writeNpy } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';

const ROWS = 512;
const MEM = `memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }
`;

describe('the Rx CBUF in a system run', () => {
  it('a 100-cell CBUF: 16 pages of 24 cells go through, never more than 100 cells granted at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-syscbuf-'));
    const data = new Uint8Array(ROWS * 128).map((_, i) => (i * 13 + (i >> 7)) % 251);
    writeFileSync(join(dir, 'x.npy'), writeNpy({ dtype: 'uint8', shape: [ROWS, 128], data }));
    writeFileSync(join(dir, 'c0.ld'), MEM + `tensor x { format = RFP8; shape = [${ROWS}, 128]; region = amem0; data = "x.npy"; }
queue rdma_tx0 { trip send { src = x; tjid = 1; rjid = 2; dest_voq = 4; page_size_words = 32; } }
`);
    writeFileSync(join(dir, 'c1.ld'), MEM + `tensor y { format = RFP8; shape = [${ROWS}, 128]; region = amem0; zero = true; }
queue rdma_rx0 { trip recv { dst = y; tjid = 1; rjid = 2; msg_voq = 4; } }
`);
    for (const k of [0, 1]) expect((await call(runLd, [join(dir, `c${k}.ld`), '-o', join(dir, `c${k}.pimg`)])).code).toBe(0);
    writeFileSync(join(dir, 'sys.json'), JSON.stringify({ chips: 2, images: ['c0.pimg', 'c1.pimg'], voq_map: [{ group: 1, chip: '+1' }], fabric: { rx_cbuf_cells: 100 } }));
    const l = await call(runLd, [join(dir, 'sys.json'), '-o', join(dir, 'sys.psys')]);
    expect(l.code).toBe(0); // LD0908 warns: 32 x 128 + 16 is no multiple of 176 (§10.7.2 note)
    const r = await call(runSim, ['run', join(dir, 'sys.psys'), '--stats', join(dir, 's.json'), '--dump', `chip1:y=${join(dir, 'y.npy')}`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/system of 2 chip\(s\) completed/);
    expect(Array.from(readNpy(readFileSync(join(dir, 'y.npy')), 'y.npy').data as ArrayLike<number>)).toEqual(Array.from(data));
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    const w = s.chips[1].fabric;
    // 4 data pages of 24 cells = 96 (a CTS / ACK is one cell; none is granted here: chip 1 sends, chip 0 receives them)
    expect(w.rxCbufMaxCells).toBe(96);
    expect(w.rxCbufFullCycles).toBeGreaterThan(0);
    expect(s.links.find((x: { src: number }) => x.src === 0).byType.rdma_data).toBe(16);
  }, 60_000);
});
