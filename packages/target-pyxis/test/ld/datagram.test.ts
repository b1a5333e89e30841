/**
 * Datagram descriptor rings (chip §11.5.2, descriptors §11.4.8-11.4.9): declared
 * as queues dgram_tx0/1, dgram_rx0/1 (ids 0x23-0x26, Table 11-1); 8-byte
 * descriptors without the common header, one spare slot (a ring of N holds
 * N-1 entries), no enqueue record, no barriers.
 */
import { describe, expect, it } from 'vitest';
import { decode, loadTable } from '@pyxis/codec';
import { link } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';

const TX = loadTable('pyxis', 'desc_dgram_tx');
const RX = loadTable('pyxis', 'desc_dgram_rx');
const MEM = `memory amem0 { origin = 0; length = 16M; }
memory amem0u { view = unhashed; origin = 32M; length = 16M; }
memory hbm { space = hbm; origin = 0; length = 1M; }
`;

describe('datagram rings', () => {
  it('Tx and Rx rings: fields by hand (address [26:7] with the unhashed bit 26), spare slot, map entry, no enqueue', () => {
    const { image, map } = link({ scriptFile: 't.ld', script: MEM + `
tensor pad  { format = RFP8; shape = [1, 16]; region = amem0; }
tensor pkt  { format = RFP8; shape = [4, 128]; region = amem0; }
tensor pkt2 { format = RFP8; shape = [1, 128]; region = amem0u; }
tensor rxb  { format = RFP8; shape = [8, 128]; region = amem0; }
queue dgram_tx0 { datagram d0 { src = pkt; dest_voq = 5; rxq_index = 1; } datagram d1 { src = pkt2; bytes = 100; } }
queue dgram_rx1 { datagram r0 { dst = rxb; } }
` });
    const sec = (n: string) => image.sections.find((s) => s.name === n)!;
    const tx = sec('.dgram.c0.dgram_tx0');
    expect(tx.size).toBe(3 * 8);
    // pad takes [0, 16); pkt is raised to 128-byte alignment -> 0x80; pkt2 at 32 MiB (unhashed: bit 26 set)
    expect(decode(TX, tx.data, 0)).toMatchObject({ dest_voq: 5, amem_address: 0x80 >> 7, num_bytes: 512, rxq_index: 1 });
    expect(decode(TX, tx.data, 8)).toMatchObject({ dest_voq: 0, amem_address: ((32 << 20) + (1 << 26)) >>> 7, num_bytes: 100, rxq_index: 0 });
    expect(Array.from(tx.data.subarray(16))).toEqual(new Array(8).fill(0));
    const rx = sec('.dgram.c0.dgram_rx1');
    expect(decode(RX, rx.data, 0)).toMatchObject({ amem_address: 0x280 >> 7, buffer_size_bytes: 1024 });
    expect(map.lists.map((l) => [l.engine, l.queue_id, l.descriptors])).toEqual([['dgram_tx0', 0x23, 2], ['dgram_rx1', 0x26, 1]]);
    expect(sec('.enqueue').size).toBe(0);
    expect(map.barriers).toEqual([]);
  });

  it('diagnostics: HBM buffer, too many bytes, fixed misaligned buffer, trip instead of datagram, ring in another cluster', () => {
    const d = linkErr({ scriptFile: 't.ld', script: MEM + `tensor h { format = RFP8; shape = [1, 128]; region = hbm; }
tensor a { format = RFP8; shape = [1, 128]; region = amem0; address = 0x40; }
tensor b { format = RFP8; shape = [1, 128]; region = amem0; }
queue dgram_tx1 { datagram x { src = h; } datagram y { src = a; } datagram z { src = b; bytes = 200; } }
` });
    expect(d.map((x) => [x.code, (x.span as { line: number }).line])).toEqual([['LD0501', 7], ['LD0502', 7], ['LD0509', 7]]);
    expect(d[0]!.spec).toBe('pyxis-chip-fspec.md §11.4.8');
    const t = linkErr({ scriptFile: 't.ld', script: MEM + 'tensor b { format = RFP8; shape = [1, 128]; region = amem0; }\nqueue dgram_rx0 { trip t { dst = b; } }\n' });
    expect(t.map((x) => [x.code, (x.span as { line: number }).line, x.spec])).toEqual([['LD0123', 5, 'pyxis-chip-fspec.md §11.5.2']]);
    const r = linkErr({ scriptFile: 't.ld', script: MEM + 'memory amem1 { cluster = 1; origin = 0; length = 1M; }\ntensor b { format = RFP8; shape = [1, 128]; region = amem0; }\nqueue dgram_rx0 { region = amem1; datagram r { dst = b; } }\n' });
    expect(r.map((x) => x.code)).toEqual(['LD0504']);
    // like descriptor lists (§11.5.1.1: "may be stored in HBM or AMEM"), a ring may live in HBM
    const { image } = link({ scriptFile: 't.ld', script: MEM + 'tensor b { format = RFP8; shape = [1, 128]; region = amem0; }\nqueue dgram_rx0 { region = hbm; datagram r { dst = b; } }\n' });
    expect(image.sections.find((x) => x.name === '.dgram.c0.dgram_rx0')).toMatchObject({ space: 'hbm', size: 16 });
  });
});
