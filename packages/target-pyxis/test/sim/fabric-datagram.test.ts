/**
 * Datagrams over the fabric (chip §10.5, §10.7.1.3-4, §10.8.1.3, §11.4.8-11.4.9, §11.5.2): TxQ / RxQ rings as the
 * linker lays them out (every descriptor valid plus one spare slot), single-page packets, PacketSizeBytes written
 * back, head pointers advanced in order, drops counted when the RxQ has no free descriptor or the buffer is too small.
 */
import { describe, expect, it } from 'vitest';
import { decode, encode, loadTable } from '@pyxis/codec';
import { CFG_ENGINE_BASE, clusterCsrRegion, decodeHeader } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiff } from './fabric-rdma-lib.js';

const TX = loadTable('pyxis', 'desc_dgram_tx');
const RX = loadTable('pyxis', 'desc_dgram_rx');

/** A ring section as pyxis-ld writes it (docs/image-layout.md): the descriptors, then one zero spare slot. */
function ring(table: typeof TX, descs: Array<Record<string, number>>): Uint8Array {
  const out = new Uint8Array((descs.length + 1) * 8);
  descs.forEach((d, i) => encode(table, d, out, i * 8));
  return out;
}

describe('datagrams', () => {
  it('delivers into the RxQ ring, writes PacketSizeBytes, counts the drops, advances both head pointers', () => {
    const pkts = [300, 1000, 5000, 600].map((n, k) => bytesOf(n, (i) => (i * (k + 3)) & 0xff));
    const tx = new ImageBuilder();
    const rx = new ImageBuilder();
    pkts.forEach((p, k) => tx.data('amem', 0x10000 + k * 0x2000, p));
    // three datagrams to RxQ 0 (datagram class OQ 2), the fourth to RxQ 1
    const txDescs = pkts.map((p, k) => ({ dest_voq: voqOf(1, 0, 2), amem_address: (0x10000 + k * 0x2000) >> 7, num_bytes: p.length, rxq_index: k === 3 ? 1 : 0 }));
    tx.data('amem', 0x3000, ring(TX, txDescs), 0, '.dgram.c0.dgram_tx0');
    // RxQ 0: one free descriptor (2 KiB buffer); RxQ 1: one 512-byte buffer
    rx.data('amem', 0x3000, ring(RX, [{ amem_address: 0x40000 >> 7, buffer_size_bytes: 2048 }]), 0, '.dgram.c0.dgram_rx0');
    rx.data('amem', 0x3100, ring(RX, [{ amem_address: 0x50000 >> 7, buffer_size_bytes: 512 }]), 0, '.dgram.c0.dgram_rx1');
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 400 });
    const res = sys.run();
    expect(res.reason).toBe('done');
    const a1 = sys.chips[1]!.fabricAdapter!;
    const st = a1.report().clusters[0]!;
    expect(st.rx_datagrams).toBe(1);
    expect(st.rx_drops.rxq_empty).toBe(2);
    expect(st.rx_drops.rxq_too_small).toBe(1);
    expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.tx_datagrams).toBe(4);
    // the received packet and its written-back length (§11.4.9)
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, 300), pkts[0]!)).toBe(-1);
    expect(decode(RX, sys.chips[1]!.amem[0]!.readBytes(0x3000, 8))).toMatchObject({ amem_address: 0x40000 >> 7, buffer_size_bytes: 300 });
    expect(a1.rxc[0]!.rxq[0]!.head).toBe(1);
    expect(a1.rxc[0]!.rxq[1]!.head).toBe(0);
    // TxQ head advanced past all four descriptors, in order (§10.7.1.4)
    expect(sys.chips[0]!.fabricAdapter!.txc[0]!.txq[0]!.head).toBe(4);
    // single-page packets with the byte size and the RxQ index in the header (§10.6); in TxQ order
    const h = sys.sent[0]!.map((p) => decodeHeader(p.header)!);
    expect(h.map((x) => [x.page_type, x.page_size_bytes, x.rxq_index])).toEqual([['datagram', 300, 0], ['datagram', 1000, 0], ['datagram', 5000, 0], ['datagram', 600, 1]]);
    expect(sys.sent[0]!.map((p) => p.wireBytes)).toEqual([316, 1016, 5016, 616]);
  });

  it('software advancing the RxQ tail supplies a free descriptor: the next datagram is accepted', () => {
    const pkt = bytesOf(100, (i) => i + 1);
    const tx = new ImageBuilder();
    const rx = new ImageBuilder();
    tx.data('amem', 0x10000, pkt);
    tx.data('amem', 0x3000, ring(TX, [{ dest_voq: voqOf(1, 0, 2), amem_address: 0x10000 >> 7, num_bytes: 100, rxq_index: 0 }]), 0, '.dgram.c0.dgram_tx0');
    // two slots, both zero (no valid descriptor yet); software writes one and advances the tail
    rx.data('amem', 0x3000, new Uint8Array(16), 0, '.dgram.c0.dgram_rx0');
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 400 });
    const r = sys.chips[1]!.fabricAdapter!.rxc[0]!.rxq[0]!;
    r.setTail(0);
    sys.chips[1]!.amem[0]!.writeBytes(0x3000, encode(RX, { amem_address: 0x40000 >> 7, buffer_size_bytes: 128 }));
    // software advances the tail through cluster.dgram_tail word 2 (dgram_rx0) at cycle 5
    const TAIL = clusterCsrRegion('cluster.dgram_tail').offset;
    const HEAD = clusterCsrRegion('cluster.dgram_head').offset;
    sys.chips[1]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + TAIL + 16, value: 1n, atCycle: 5 });
    expect(sys.run().reason).toBe('done');
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, 100), pkt)).toBe(-1);
    expect(r.head).toBe(1);
    expect(sys.chips[1]!.cfg[0]!.read64(HEAD + 16)).toBe(1n);
    expect(sys.chips[1]!.cfg[0]!.read64(TAIL + 16)).toBe(1n);
    expect(sys.chips[0]!.cfg[0]!.read64(HEAD)).toBe(1n); // dgram_tx0 head past its one descriptor
  });

  it('TxQ head advances in ring order when a later datagram is read first (§10.7.1.4 reorder)', () => {
    const big = bytesOf(16000, (i) => i & 0xff);
    const small = bytesOf(100, (i) => 255 - i);
    const tx = new ImageBuilder();
    tx.data('amem', 0x10000, big);
    tx.data('amem', 0x20000, small);
    tx.data('amem', 0x3000, ring(TX, [
      { dest_voq: voqOf(1, 0, 2), amem_address: 0x10000 >> 7, num_bytes: big.length, rxq_index: 0 },
      { dest_voq: voqOf(2, 0, 2), amem_address: 0x20000 >> 7, num_bytes: small.length, rxq_index: 0 },
    ]), 0, '.dgram.c0.dgram_tx0');
    const rx = () => {
      const b = new ImageBuilder();
      b.data('amem', 0x3000, ring(RX, [{ amem_address: 0x40000 >> 7, buffer_size_bytes: 16256 }]), 0, '.dgram.c0.dgram_rx0');
      return b.build();
    };
    const sys = buildSystem([tx.build(), rx(), rx()], { grantDelay: 100, latency: 400 });
    const t = sys.chips[0]!.fabricAdapter!.txc[0]!;
    const seen: number[][] = [];
    const orig = t.datagramRead.bind(t);
    t.datagramRead = (q: number, slot: number) => {
      orig(q, slot);
      seen.push([slot, t.txq[0]!.head]);
    };
    expect(sys.run().reason).toBe('done');
    // the small datagram (slot 1) is read first: the head stays at 0 until slot 0 is read, then moves past both
    expect(seen).toEqual([[1, 0], [0, 2]]);
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, big.length), big)).toBe(-1);
    expect(firstDiff(sys.chips[2]!.amem[0]!.readBytes(0x40000, small.length), small)).toBe(-1);
  });
});
