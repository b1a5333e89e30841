/**
 * Datagram Rx rules (chip §10.8.1.3, §10.8.8, §11.4.9): the per-RxQ accepted / dropped counts the hardware keeps
 * (stats and cluster.dgram_rxq_counts), the page-length check between the page reader and the header (16-byte chunk
 * granularity), and the BufferSizeBytes limit of an Rx descriptor (SIM0870).
 */
import { describe, expect, it } from 'vitest';
import { decode, encode, loadGrammarJson, loadTable } from '@pyxis/codec';
import { CFG_ENGINE_BASE, clusterCsrRegion, decodeHeader, encodeHeader, type FabricPage } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiagnostic, firstDiff } from './fabric-rdma-lib.js';

const TX = loadTable('pyxis', 'desc_dgram_tx');
const RX = loadTable('pyxis', 'desc_dgram_rx');
const COUNTS = clusterCsrRegion('cluster.dgram_rxq_counts').offset;
const TAIL = clusterCsrRegion('cluster.dgram_tail').offset + 16; // word 2: dgram_rx0
const NOC = loadGrammarJson<{ noc: { latency_cycles: number; bytes_per_cycle: number } }>('pyxis', 'sim_config').noc;

/** A ring section as pyxis-ld writes it: the descriptors, then one zero spare slot. */
function ring(table: typeof TX, descs: Array<Record<string, number>>): Uint8Array {
  const out = new Uint8Array((descs.length + 1) * 8);
  descs.forEach((d, i) => encode(table, d, out, i * 8));
  return out;
}

/** Chip 0 sends `sizes` (to RxQ `rxq[k]`) to chip 1, whose RxQs have the given buffers. */
function system(sizes: number[], rxq: number[], buffers: [number[], number[]], deliver?: (p: FabricPage) => FabricPage) {
  const pkts = sizes.map((n, k) => bytesOf(n, (i) => (i * (k + 5) + 1) & 0xff));
  const tx = new ImageBuilder();
  const rx = new ImageBuilder();
  pkts.forEach((p, k) => tx.data('amem', 0x10000 + k * 0x4000, p));
  tx.data('amem', 0x3000, ring(TX, pkts.map((p, k) => ({ dest_voq: voqOf(1, 0, 2), amem_address: (0x10000 + k * 0x4000) >> 7, num_bytes: p.length, rxq_index: rxq[k]! }))), 0, '.dgram.c0.dgram_tx0');
  buffers.forEach((b, q) => b.length && rx.data('amem', 0x3000 + q * 0x100, ring(RX, b.map((size, i) => ({ amem_address: (0x40000 + q * 0x10000 + i * 0x4000) >> 7, buffer_size_bytes: size }))), 0, `.dgram.c0.dgram_rx${q}`));
  const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 400, ...(deliver ? { deliver: (p: FabricPage) => [{ page: deliver(p), delay: 0 }] } : {}) });
  return { sys, pkts };
}

describe('datagram RxQ counters and checks', () => {
  it('counts accepted and dropped datagrams per RxQ (§10.8.1.3), in the stats and in cluster.dgram_rxq_counts', () => {
    // RxQ 0: two 2 KiB buffers; RxQ 1: one 512-byte buffer. Packets: 300 (rx0 ok), 1000 (rx0 ok), 5000 (rx0: no free
    // descriptor), 600 (rx1: larger than its buffer), 200 (rx1 ok: the too-small drop did not consume the descriptor)
    const { sys, pkts } = system([300, 1000, 5000, 600, 200], [0, 0, 0, 1, 1], [[2048, 2048], [512]]);
    expect(sys.run().reason).toBe('done');
    const st = sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
    expect(st.rxq_accepted).toEqual([2, 1]);
    expect(st.rxq_dropped).toEqual([1, 1]);
    expect([st.rx_drops.rxq_empty, st.rx_drops.rxq_too_small]).toEqual([1, 1]);
    const cfg = sys.chips[1]!.cfg[0]!;
    expect([0, 1, 2, 3].map((w) => cfg.read64(COUNTS + 8 * w))).toEqual([2n, 1n, 1n, 1n]);
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x50000, 200), pkts[4]!)).toBe(-1);
    expect(decode(RX, sys.chips[1]!.amem[0]!.readBytes(0x3100, 8))).toMatchObject({ buffer_size_bytes: 200 });
  });

  it('a write to a read-only fabric CSR is ignored with SIM0030, once per register (dgram_rxq_counts, job status, Job Tables)', () => {
    const { sys } = system([300], [0], [[2048], []]);
    expect(sys.run().reason).toBe('done');
    const chip = sys.chips[1]!;
    const cfg = chip.cfg[0]!;
    const w = (addr: number) => cfg.write(addr, new Uint8Array([0xff, 0, 0, 0, 0, 0, 0, 0]), 0, 8);
    const names = ['cluster.dgram_rxq_counts', 'cluster.dgram_head', 'cluster.fabric_job_status', 'cluster.fabric_tx_job_table', 'cluster.fabric_rx_job_table'];
    for (const n of names) w(clusterCsrRegion(n).offset);
    w(COUNTS); // a second write to the same register: no second warning
    w(clusterCsrRegion('cluster.fabric_failed_inhibit').offset); // rw: no warning, and it acts
    const ro = chip.warnings.filter((d) => d.code === 'SIM0030');
    expect(ro.map((d) => d.message.match(/cluster\.\w+/)![0]).sort()).toEqual([...names].sort());
    expect(ro.every((d) => /§/.test(d.spec ?? ''))).toBe(true);
    expect([0, 1, 2, 3].map((k) => cfg.read64(COUNTS + 8 * k))).toEqual([1n, 0n, 0n, 0n]); // the live counts, not 0xff
    expect(sys.chips[1]!.fabricAdapter!.failedInhibit[0]).toBe(true);
  });

  it('a header whose page size disagrees with the received length in 16-byte chunks is dropped (§10.8.8)', () => {
    // the fabric delivers the pages whole; a header rewritten with a valid CRC but another size models the mismatch
    const resize = (delta: number) => (p: FabricPage): FabricPage => {
      const h = decodeHeader(p.header)!;
      return { ...p, header: encodeHeader({ ...h, page_size_bytes: h.page_size_bytes + delta }) };
    };
    // 300 B = 19 chunks (the last one partial); 301..304 B are still 19 chunks, 305 B is 20
    const same = system([300], [0], [[2048], []], resize(4));
    expect(same.sys.run().reason).toBe('done');
    const a = same.sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
    expect([a.rxq_accepted[0], a.rx_drops.length_mismatch]).toEqual([1, 0]);
    const other = system([300], [0], [[2048], []], resize(5));
    expect(other.sys.run().reason).toBe('done');
    const b = other.sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
    expect([b.rxq_accepted[0], b.rxq_dropped[0], b.rx_drops.length_mismatch]).toEqual([0, 1, 1]);
    // the buffer was not consumed: the RxQ head did not move
    expect(other.sys.chips[1]!.fabricAdapter!.rxc[0]!.rxq[0]!.head).toBe(0);
  });

  it('SIM0870: an Rx descriptor with BufferSizeBytes above 16256 (§11.4.9)', () => {
    const { sys } = system([100], [0], [[16257], []]);
    const d = firstDiagnostic(() => sys.run());
    expect(d.code).toBe('SIM0870');
    expect(d.message).toMatch(/c0\.dgram_rx0 descriptor 0: BufferSizeBytes 16257 exceeds the maximum legal value 16256/);
    expect(d.spec).toMatch(/§11\.4\.9/);
    // 16256 itself is legal
    expect(system([100], [0], [[16256], []]).sys.run().reason).toBe('done');
  });

  it('the DPE prefetch of an RxQ descriptor takes the NoC latency: a datagram arriving earlier is dropped (§12.5)', () => {
    const F = NOC.latency_cycles + Math.ceil(8 / NOC.bytes_per_cycle);
    // the RxQ starts empty (tail 0); software makes its one descriptor valid at cycle `tailAt`
    const run = (tailAt: number) => {
      const { sys } = system([100], [0], [[2048], []]);
      sys.chips[1]!.fabricAdapter!.rxc[0]!.rxq[0]!.setTail(0);
      sys.chips[1]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + TAIL, value: 1n, atCycle: tailAt });
      expect(sys.run().reason).toBe('done');
      const st = sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
      // the datagram left chip 0 one cycle before the stub dequeued it and arrived 400 cycles later
      const arrival = sys.log[0]!.find((e) => e.d === -1 && e.type === 'datagram')!.t - 1 + 400;
      return { accepted: st.rxq_accepted[0], arrival };
    };
    const { arrival } = run(0);
    // the tail written at cycle T is read by the DPE in cycle T and the descriptor lands at T + F: the datagram
    // processed at its arrival A finds it iff T + F <= A
    expect(run(arrival - F).accepted).toBe(1);
    expect(run(arrival - F + 1).accepted).toBe(0);
    expect(run(arrival - 1).accepted).toBe(0);
  });
});
