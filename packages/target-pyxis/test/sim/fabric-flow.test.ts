/**
 * Tx flow control and resources (chip §10.7.3, §10.7.3.1, §10.7.6, §10.8.8): the occupancy limiter's XOFF / XON
 * hysteresis per VOQ checked against an independent replay of the fabric's enqueue / dequeue log, the cluster cap
 * and a tiny QPage table bounding the outstanding pages, PGen channels serialising jobs, and the Rx DMA's
 * write-completion tracking ids bounding the Rx pipeline (completion cycle derived from the parameters).
 */
import { describe, expect, it } from 'vitest';
import { loadGrammarJson } from '@pyxis/codec';
import { loadSimConfig, type FabricAdapterOverrides } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { DST, firstDiff, rdmaImages, watchTrips, type Rdma } from './fabric-rdma-lib.js';

const P = loadGrammarJson<any>('pyxis', 'fabric_adapter');
const COMMIT = loadSimConfig().amem.write_commit_latency_cycles;

function one(r: Rdma, adapter: FabricAdapterOverrides, G = 200, L = 800) {
  const data = bytesOf(r.words * 128, (i) => (i * 5 + 3) & 0xff);
  const { tx, rx } = rdmaImages(r, data);
  const sys = buildSystem([tx.build(), rx.build()], { grantDelay: G, latency: L, adapter });
  const txT = watchTrips(sys.chips[0]!);
  const rxT = watchTrips(sys.chips[1]!);
  const res = sys.run();
  return { sys, res, exact: firstDiff(sys.chips[1]!.amem[0]!.readBytes(DST, data.length), data) === -1, txTrip: txT[0]!, rxTrip: rxT[0]! };
}

const profiles = (xoff: number, xon: number) => {
  const p = structuredClone(P.occupancy.profiles);
  p[0] = { xoff, xon };
  return p;
};

describe('Tx occupancy limiter and resources', () => {
  it('XOFF at the profile threshold, XON only at or below the lower one (hysteresis), replayed from the fabric log', () => {
    const xoff = 6;
    const xon = 2;
    const { res, exact, sys } = one({ tjid: 1, rjid: 1, words: 40 * 32, page: 32 }, { occupancy: { profiles: profiles(xoff, xon) } });
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    // reference: replay the enqueue (+1) / dequeue (-1) log of the data VOQ with the hysteresis state machine
    let n = 0;
    let off = false;
    let max = 0;
    let bursts = 0;
    for (const e of sys.log[0]!.filter((x) => x.type === 'rdma_data')) {
      if (e.d === 1) {
        expect(off).toBe(false); // never a page while XOFF
        n++;
        max = Math.max(max, n);
        if (n >= xoff) {
          off = true;
          bursts++;
        }
      } else {
        n--;
        if (off && n <= xon) off = false;
      }
    }
    expect(max).toBe(xoff);
    const st = sys.chips[0]!.fabricAdapter!.report().clusters[0]!;
    expect(st.qpages_max).toBe(xoff);
    expect(st.xoff_events).toBe(bursts);
    expect(bursts).toBeGreaterThan(3);
    expect(st.xoff_cycles).toBeGreaterThan(0);
  });

  it('the cluster cap and a 3-entry QPage table bound the outstanding pages', () => {
    for (const o of [{ qpages: { cluster_limit: 3 } }, { qpages: { table_entries: 3, cluster_limit: 3 } }] as FabricAdapterOverrides[]) {
      const { res, exact, sys } = one({ tjid: 2, rjid: 3, words: 20 * 32, page: 32 }, o);
      expect(res.reason).toBe('done');
      expect(exact).toBe(true);
      expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.qpages_max).toBe(3);
    }
  });

  it('with one PGen channel for jobs, a second job starts generating only after the first has generated its last page', () => {
    // chip 0 sends job A to chip 1 and job B to chip 2 (different VOQs: no VOQ-Active lock between them)
    const d = (n: number) => bytesOf(n * 128, (i) => (i + n) & 0xff);
    const tx = new ImageBuilder();
    tx.data('amem', 0x10000, d(256));
    tx.data('amem', 0x30000, d(200));
    const desc = ImageBuilder.desc;
    tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 1, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: 256, page_size_words: 32 })]);
    tx.list(0x0d, 0x1100, [desc('desc_rdma_tx', { trip_id: 2, tjid: 2, rjid: 1, dest_voq: voqOf(2, 0), amem_address: 0x30000 >> 7, num_words: 200, page_size_words: 32 })]);
    const rx = (w: number) => {
      const b = new ImageBuilder();
      b.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 3, tjid: w === 256 ? 1 : 2, rjid: 1, msg_voq: voqOf(0, 0), amem_address: DST >> 7, num_words: w })]);
      return b.build();
    };
    for (const channels of [2, 3]) {
      const sys = buildSystem([tx.build(), rx(256), rx(200)], { grantDelay: 100, latency: 500, adapter: { page_generator: { channels, message_channels_reserved: 1 } } });
      expect(sys.run().reason).toBe('done');
      expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(DST, 256 * 128), d(256))).toBe(-1);
      expect(firstDiff(sys.chips[2]!.amem[0]!.readBytes(DST, 200 * 128), d(200))).toBe(-1);
      const enq = sys.log[0]!.filter((e) => e.d === 1);
      const lastA = Math.max(...enq.filter((e) => e.voq === voqOf(1, 0)).map((e) => e.t));
      const firstB = Math.min(...enq.filter((e) => e.voq === voqOf(2, 0)).map((e) => e.t));
      const firstA = Math.min(...enq.filter((e) => e.voq === voqOf(1, 0)).map((e) => e.t));
      if (channels === 2) expect(firstB > lastA || Math.max(...enq.filter((e) => e.voq === voqOf(2, 0)).map((e) => e.t)) < firstA).toBe(true);
      else expect(firstB).toBeLessThan(lastA); // two job channels: the pages interleave
    }
  });

  it('one write-completion tracking id: each page waits for the previous commit (completion from the parameters)', () => {
    const G = 200;
    const L = 800;
    const r: Rdma = { tjid: 4, rjid: 4, words: 3 * 64, page: 64 };
    const { res, exact, rxTrip, sys } = one(r, { rxdma: { tracking_ids: 1 } }, G, L);
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    // the data pages arrive L after their transmission (the stub dequeues them one cycle after it); the Rx DMA
    // starts page i at max(arrival_i, commit_{i-1}): the only tracking id is held until the previous page commits
    expect(sys.sent[0]!.length).toBe(3);
    const tx = sys.log[0]!.filter((e) => e.d === -1).map((e) => e.t - 1 + L);
    let commit = 0;
    for (const a of tx) {
      const s = Math.max(a, commit);
      commit = s + P.rxdma.decap_latency_cycles + 64 + COMMIT;
    }
    expect(rxTrip.doneAt).toBe(commit);
    expect(sys.chips[1]!.fabricAdapter!.report().clusters[0]!.rx_tracking_stall_cycles).toBeGreaterThan(0);
  });
});
