/**
 * Tx Job Manager rules (chip §10.7.1.1, §10.7.1.5, §10.7.9): the VOQ-Active lock keeps sequential RDMA jobs to one
 * destination VOQ in order (the second job generates no page before the first has enqueued its last one), jobs to
 * different VOQs interleave their pages unless the PGen's RDMA channel limit (§10.7.3) allows one job at a time; hardware messages (CTS / ACK) are a header padded to the minimum packet size.
 */
import { describe, expect, it } from 'vitest';
import { loadGrammarJson } from '@pyxis/codec';
import { decodeHeader, type FabricAdapterOverrides } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiff } from './fabric-rdma-lib.js';

const desc = ImageBuilder.desc;
const MSG_BYTES = loadGrammarJson<{ messages: { page_bytes: number } }>('pyxis', 'fabric_adapter').messages.page_bytes;
const WORDS = 128;
const PAGE = 32;

/** Chip 0: job A (TJID 1, rdma_tx0) and job B (TJID 2, rdma_tx1) to chip 1; B's Dest VOQ is `voqB`. */
function run(voqB: number, adapter?: FabricAdapterOverrides) {
  const a = bytesOf(WORDS * 128, (i) => (i * 3) & 0xff);
  const b = bytesOf(WORDS * 128, (i) => (i * 11 + 7) & 0xff);
  const tx = new ImageBuilder();
  const rx = new ImageBuilder();
  tx.data('amem', 0x10000, a);
  tx.data('amem', 0x20000, b);
  tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 1, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: WORDS, page_size_words: PAGE })]);
  tx.list(0x0d, 0x1100, [desc('desc_rdma_tx', { trip_id: 2, tjid: 2, rjid: 2, dest_voq: voqB, amem_address: 0x20000 >> 7, num_words: WORDS, page_size_words: PAGE })]);
  rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 3, tjid: 1, rjid: 1, msg_voq: voqOf(0, 0), amem_address: 0x40000 >> 7, num_words: WORDS })]);
  rx.list(0x0f, 0x1100, [desc('desc_rdma_rx', { trip_id: 4, tjid: 2, rjid: 2, msg_voq: voqOf(0, 0), amem_address: 0x60000 >> 7, num_words: WORDS })]);
  const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, ...(adapter ? { adapter } : {}) });
  expect(sys.run().reason).toBe('done');
  expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, a.length), a)).toBe(-1);
  expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x60000, b.length), b)).toBe(-1);
  return sys;
}

describe('Tx Job Manager (chip §10.7.1)', () => {
  it('VOQ-Active lock: two jobs to the same VOQ send their pages job after job, in acceptance order', () => {
    const sys = run(voqOf(1, 0));
    // the page enqueue order as the fabric saw it (§10.7.3): every page of job A before any page of job B
    const data = sys.sent[0]!.filter((p) => p.type === 'rdma_data').map((p) => p.tjid);
    expect(data).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
  });

  it('jobs to different VOQs do not wait for each other: their pages interleave', () => {
    const sys = run(voqOf(1, 0, 1));
    const data = sys.sent[0]!.filter((p) => p.type === 'rdma_data').map((p) => p.tjid);
    expect(data.filter((t) => t === 1).length).toBe(4);
    expect(data.indexOf(2)).toBeLessThan(data.lastIndexOf(1));
  });

  it('PGen work-type limit (§10.7.3): with rdma_channel_limit 1, jobs to different VOQs no longer interleave', () => {
    const sys = run(voqOf(1, 0, 1), { page_generator: { rdma_channel_limit: 1 } });
    expect(sys.sent[0]!.filter((p) => p.type === 'rdma_data').map((p) => p.tjid)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    // the CTS / ACK messages of the Rx side still find a channel (the reserved one)
    expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.tx_jobs_completed).toBe(2);
  });

  it('CTS and ACK are a 16-byte header padded to the minimum packet size, page size 0 (§10.7.9, §10.6)', () => {
    const sys = run(voqOf(1, 0, 1));
    const msgs = sys.sent[1]!.filter((p) => p.type === 'cts' || p.type === 'ack');
    expect(msgs.map((p) => p.type)).toEqual(['cts', 'cts', 'ack', 'ack']);
    for (const m of msgs) {
      expect(m.wireBytes).toBe(MSG_BYTES);
      expect(MSG_BYTES).toBe(64);
      const h = decodeHeader(m.header)!;
      expect([h.page_type, h.page_size_bytes, h.retry]).toEqual([m.type, 0, 0]);
    }
    expect(msgs.map((m) => decodeHeader(m.header)!.tjid).sort()).toEqual([1, 1, 2, 2]);
  });
});
