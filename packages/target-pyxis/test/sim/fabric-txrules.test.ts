/**
 * Smaller Tx-side rules (chip §10.7.1.1, §10.7.1.4, §10.7.7-10.7.8), with expected cycles from fabric_adapter.json:
 * the job manager takes jobs from its queues round-robin; a datagram TxQ whose reorder ids are all outstanding accepts
 * no further descriptor; a full TxBuf stalls the next page's TxDMA until the previous page has left.
 */
import { describe, expect, it } from 'vitest';
import { encode, loadGrammarJson, loadTable } from '@pyxis/codec';
import type { FabricAdapterOverrides } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiagnostic, firstDiff } from './fabric-rdma-lib.js';

const desc = ImageBuilder.desc;
const P = loadGrammarJson<{ txdma: { latency_cycles: number; encap_latency_cycles: number; words_per_cycle_per_pipe: number } }>('pyxis', 'fabric_adapter');
const P2 = loadGrammarJson<{ descriptor_fifos: { dgram_tx_depth: number } }>('pyxis', 'fabric_adapter');
const NOC = loadGrammarJson<{ noc: { latency_cycles: number; bytes_per_cycle: number } }>('pyxis', 'sim_config').noc;
const DTX = loadTable('pyxis', 'desc_dgram_tx');
const DRX = loadTable('pyxis', 'desc_dgram_rx');

function ring(table: typeof DTX, descs: Array<Record<string, number>>): Uint8Array {
  const out = new Uint8Array((descs.length + 1) * 8);
  descs.forEach((d, i) => encode(table, d, out, i * 8));
  return out;
}

describe('Tx-side rules', () => {
  it('the Tx job manager takes jobs from its RDMA queues round-robin (§10.7.1.1)', () => {
    // no Rx side: every job fails its CTS wait exactly tx_cts_wait_timeout_cycles after its acceptance, so the failure
    // order and cycles are the acceptance order and cycles; a slow job manager lets all four trips reach the FIFOs
    const J = 300;
    const CTS = 5000;
    const adapter: FabricAdapterOverrides = { page_generator: { job_manager_cycles_per_job: J }, timers: { tx_cts_wait_timeout_cycles: CTS } };
    const tx = new ImageBuilder();
    const job = (tjid: number, oq: number) => desc('desc_rdma_tx', { trip_id: tjid, tjid, rjid: tjid, dest_voq: voqOf(1, 0, oq), amem_address: 0x10000 >> 7, num_words: 32, page_size_words: 32 });
    tx.list(0x0c, 0x1000, [job(1, 0), job(2, 1)]);
    tx.list(0x0d, 0x1100, [job(3, 2), job(4, 3)]);
    const sys = buildSystem([tx.build(), new ImageBuilder().build()], { grantDelay: 100, latency: 500, adapter });
    sys.run();
    const f = sys.chips[0]!.fabricAdapter!.failures;
    expect(f.map((x) => x.tjid)).toEqual([1, 3, 2, 4]);
    const c = f.map((x) => x.cycle);
    expect(c.slice(1).map((x, i) => x - c[i]!)).toEqual([J, J, J]);
  });

  it('a datagram TxQ with every reorder id outstanding accepts no further descriptor (§10.7.1.4)', () => {
    const G = 100;
    const pkts = [0, 1, 2, 3].map((k) => bytesOf(256, (i) => (i + k) & 0xff));
    const build = () => {
      const tx = new ImageBuilder();
      pkts.forEach((p, k) => tx.data('amem', 0x10000 + k * 0x1000, p));
      // to four different chips: no VOQ-Active lock between them
      tx.data('amem', 0x3000, ring(DTX, pkts.map((p, k) => ({ dest_voq: voqOf(k + 1, 0, 2), amem_address: (0x10000 + k * 0x1000) >> 7, num_bytes: p.length, rxq_index: 0 }))), 0, '.dgram.c0.dgram_tx0');
      const rx = () => {
        const b = new ImageBuilder();
        b.data('amem', 0x3000, ring(DRX, [{ amem_address: 0x40000 >> 7, buffer_size_bytes: 1024 }]), 0, '.dgram.c0.dgram_rx0');
        return b.build();
      };
      return [tx.build(), rx(), rx(), rx(), rx()];
    };
    const gaps = (adapter?: FabricAdapterOverrides) => {
      const sys = buildSystem(build(), { grantDelay: G, latency: 500, ...(adapter ? { adapter } : {}) });
      expect(sys.run().reason).toBe('done');
      pkts.forEach((p, k) => expect(firstDiff(sys.chips[k + 1]!.amem[0]!.readBytes(0x40000, p.length), p)).toBe(-1));
      const t = sys.log[0]!.filter((e) => e.d === 1 && e.type === 'datagram').map((e) => e.t);
      return t.slice(1).map((x, i) => x - t[i]!);
    };
    // 64 ids: one datagram accepted per cycle from the TxQ FIFO (dgram_tx_depth = 2 descriptors); the DPE reads the
    // third when the first leaves the FIFO and it lands F = NoC latency + one 8-byte transfer later (§12.5), so the
    // gaps are 1, F, 1. 1 id: the next waits for the previous one's data to reach the TxBuf: its grant G after its
    // enqueue, then 2 words at one word per cycle and the TxDMA latency; the id comes back, the next descriptor
    // (prefetched long before) is accepted and its page enqueued in that cycle
    expect(P2.descriptor_fifos.dgram_tx_depth).toBe(2);
    expect(gaps()).toEqual([1, NOC.latency_cycles + Math.ceil(8 / NOC.bytes_per_cycle), 1]);
    const one = gaps({ datagrams: { tx_reorder_ids: 1 } });
    expect(one).toEqual([0, 0, 0].map(() => G + 256 / 128 / P.txdma.words_per_cycle_per_pipe + P.txdma.latency_cycles));
  });

  it('a full TxBuf stalls the next page until the previous one has been handed to the fabric (§10.7.7-10.7.8)', () => {
    // one FO pipe; pages of 125 words; a TxBuf of one page (127 words) against the default two
    const words = 4 * 125;
    const data = bytesOf(words * 128, (i) => (i * 3) & 0xff);
    const run = (pages: number) => {
      const tx = new ImageBuilder();
      const rx = new ImageBuilder();
      tx.data('amem', 0x10000, data);
      tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 1, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: words, page_size_words: 125 })]);
      rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 2, tjid: 1, rjid: 1, msg_voq: voqOf(0, 0), amem_address: 0x40000 >> 7, num_words: words })]);
      const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: { txdma: { pipes: 1, txbuf_pages_per_pipe: pages } } });
      expect(sys.run().reason).toBe('done');
      expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, data.length), data)).toBe(-1);
      // transmit cycles of the data pages (the stub dequeues one cycle after the transmit)
      const t = sys.log[0]!.filter((e) => e.d === -1 && e.type === 'rdma_data').map((e) => e.t - 1);
      return t.slice(1).map((x, i) => x - t[i]!);
    };
    // two pages of room: the pipe reads one word per cycle back to back (125 cycles per page)
    expect(run(2)).toEqual([125, 125, 125]);
    // one page of room: the next read starts when the previous page leaves (+ TxDMA latency + encapsulation)
    expect(run(1)).toEqual([0, 0, 0].map(() => 125 + P.txdma.latency_cycles + P.txdma.encap_latency_cycles));
  });

  it('SIM0752: a datagram Tx descriptor with NumBytes outside [1, 16256] when the job manager takes it (§11.4.8)', () => {
    for (const bytes of [0, 16257]) {
      const tx = new ImageBuilder();
      tx.data('amem', 0x3000, ring(DTX, [{ dest_voq: voqOf(1, 0, 2), amem_address: 0x10000 >> 7, num_bytes: bytes, rxq_index: 0 }]), 0, '.dgram.c0.dgram_tx0');
      const sys = buildSystem([tx.build(), new ImageBuilder().build()], { grantDelay: 100, latency: 500 });
      const d = firstDiagnostic(() => sys.run());
      expect([d.code, d.spec]).toEqual(['SIM0752', expect.stringMatching(/§11\.4\.8/)]);
      expect(d.message).toMatch(new RegExp(`c0\\.dgram_tx0 descriptor 0: NumBytes ${bytes} is outside \\[1, 16256\\]`));
    }
  });

  it('the low occupancy group limit bounds the QPages of all low-priority VOQs of a cluster (§10.7.3.1)', () => {
    const words = 8 * 32;
    const data = bytesOf(words * 128, (i) => (i * 11) & 0xff);
    const tx = new ImageBuilder();
    const rx = new ImageBuilder();
    tx.data('amem', 0x10000, data);
    tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 1, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: words, page_size_words: 32 })]);
    rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 2, tjid: 1, rjid: 1, msg_voq: voqOf(0, 0), amem_address: 0x40000 >> 7, num_words: words })]);
    for (const limit of [3, 5]) {
      const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: { occupancy: { low_group_limit: limit } } });
      expect(sys.run().reason).toBe('done');
      expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, data.length), data)).toBe(-1);
      // the most data QPages outstanding at once, from the stub fabric's log (the CTS / ACK are high-group messages)
      let n = 0;
      let max = 0;
      for (const e of sys.log[0]!) if (e.type === 'rdma_data') max = Math.max(max, (n += e.d));
      expect(max).toBe(limit);
    }
  });
});
