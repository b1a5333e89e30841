/**
 * Rx OQ Manager (chip §10.8.5): four OQs per cluster and a simple priority + round-robin scheduler in front of the
 * page reader / Rx DMA. Two chips send 8 full pages each into one cluster, one to a high-priority OQ (0), one to a
 * low-priority OQ (1); pages arrive faster (two sources x four FO pipes) than the Rx DMA writes them (one 128-byte
 * word per cycle, fabric_adapter.json rxdma), so a backlog forms: the high OQ's job is written first and completes
 * about 8 page-writes before the other. With both OQs at the same priority (round-robin) they finish together.
 */
import { describe, expect, it } from 'vitest';
import { loadGrammarJson } from '@pyxis/codec';
import type { FabricAdapterOverrides } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiff, watchTrips } from './fabric-rdma-lib.js';

const desc = ImageBuilder.desc;
const PAGE = 125;
const PAGES = 8;
const WORDS = PAGE * PAGES;
const RX = loadGrammarJson<{ rxdma: { words_per_cycle: number }; rx_oqm: { oq_priority: string[] } }>('pyxis', 'fabric_adapter');
/** Cycles the Rx DMA needs for one page. */
const WRITE = PAGE / RX.rxdma.words_per_cycle;

function run(adapter?: FabricAdapterOverrides) {
  const src = (k: number) => bytesOf(WORDS * 128, (i) => (i * (k + 3) + k) & 0xff);
  const tx = (k: number) => {
    const b = new ImageBuilder();
    b.data('amem', 0x10000, src(k));
    // chip k sends to chip 2, OQ 1 - k: chip 0 -> the low OQ 1, chip 1 -> the high OQ 0
    b.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 1 + k, dest_voq: voqOf(2, 0, 1 - k), amem_address: 0x10000 >> 7, num_words: WORDS, page_size_words: PAGE })]);
    return b.build();
  };
  const rx = new ImageBuilder();
  rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 2, tjid: 1, rjid: 1, msg_voq: voqOf(0, 0), amem_address: 0x100000 >> 7, num_words: WORDS })]);
  rx.list(0x0f, 0x1100, [desc('desc_rdma_rx', { trip_id: 3, tjid: 1, rjid: 2, msg_voq: voqOf(1, 0), amem_address: 0x200000 >> 7, num_words: WORDS })]);
  const sys = buildSystem([tx(0), tx(1), rx.build()], { grantDelay: 100, latency: 500, ...(adapter ? { adapter } : {}) });
  const trips = watchTrips(sys.chips[2]!);
  expect(sys.run().reason).toBe('done');
  for (const k of [0, 1]) expect(firstDiff(sys.chips[2]!.amem[0]!.readBytes(k ? 0x200000 : 0x100000, WORDS * 128), src(k))).toBe(-1);
  const done = (tripId: number) => trips.find((t) => t.tripId === tripId)!.doneAt;
  return { low: done(2), high: done(3) };
}

describe('Rx OQM priority (chip §10.8.5)', () => {
  it('the default makes OQ 0 high and OQ 1 low priority', () => {
    expect(RX.rx_oqm.oq_priority.slice(0, 2)).toEqual(['high', 'low']);
  });

  it('the high-priority OQ is drained first: its job completes at least 6 page-writes before the low one', () => {
    const { low, high } = run();
    expect(high).toBeLessThan(low - 6 * WRITE);
  });

  it('with equal priorities (round-robin) the two jobs complete within two page-writes of each other', () => {
    const { low, high } = run({ rx_oqm: { oq_priority: ['high', 'high', 'high', 'high'] } });
    expect(Math.abs(high - low)).toBeLessThan(2 * WRITE);
  });
});
