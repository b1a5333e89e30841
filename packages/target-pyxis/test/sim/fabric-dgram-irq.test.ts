/**
 * Datagram ring interrupts (chip §11.5.2.1-2): the TxQ interrupt when hardware frees a transmit buffer, the RxQ
 * interrupt when it fills a receive buffer; software (a host action) waits on them with
 * `after_interrupt: { entry: "dgram_rx0" }` and answers, here by resupplying a free Rx descriptor (tail pointer), so
 * that a later datagram is accepted instead of dropped (§10.8.1.3).
 */
import { describe, expect, it } from 'vitest';
import { encode, loadTable } from '@pyxis/codec';
import { CFG_ENGINE_BASE, clusterCsrRegion, DGRAM_INTERRUPT_BASE, DGRAM_INTERRUPT_NAMES } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiff } from './fabric-rdma-lib.js';
import { parseHostActions } from '../../src/sim/imageMetadata.js';

const TX = loadTable('pyxis', 'desc_dgram_tx');
const RX = loadTable('pyxis', 'desc_dgram_rx');
const TAIL = CFG_ENGINE_BASE + clusterCsrRegion('cluster.dgram_tail').offset;
const dgramEntry = (name: (typeof DGRAM_INTERRUPT_NAMES)[number]) => DGRAM_INTERRUPT_BASE - DGRAM_INTERRUPT_NAMES.indexOf(name);

function ring(table: typeof TX, descs: Array<Record<string, number>>, spare = 1): Uint8Array {
  const out = new Uint8Array((descs.length + spare) * 8);
  descs.forEach((d, i) => encode(table, d, out, i * 8));
  return out;
}

/**
 * Chip 0 sends datagram 1 from dgram_tx0 at once and datagram 2 from dgram_tx1 when its software advances that
 * ring's tail at cycle 20000. Chip 1's dgram_rx0 holds two descriptors, only the first valid (tail 1).
 */
function system(replenish: boolean) {
  const p1 = bytesOf(300, (i) => i & 0xff);
  const p2 = bytesOf(500, (i) => (i * 7) & 0xff);
  const tx = new ImageBuilder();
  const rx = new ImageBuilder();
  tx.data('amem', 0x10000, p1);
  tx.data('amem', 0x20000, p2);
  tx.data('amem', 0x3000, ring(TX, [{ dest_voq: voqOf(1, 0, 2), amem_address: 0x10000 >> 7, num_bytes: p1.length, rxq_index: 0 }]), 0, '.dgram.c0.dgram_tx0');
  tx.data('amem', 0x3100, ring(TX, [{ dest_voq: voqOf(1, 0, 2), amem_address: 0x20000 >> 7, num_bytes: p2.length, rxq_index: 0 }]), 0, '.dgram.c0.dgram_tx1');
  rx.data('amem', 0x3000, ring(RX, [{ amem_address: 0x40000 >> 7, buffer_size_bytes: 1024 }, { amem_address: 0x50000 >> 7, buffer_size_bytes: 1024 }]), 0, '.dgram.c0.dgram_rx0');
  const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500 });
  // software state at start: dgram_tx1 empty (tail 0) until cycle 20000; dgram_rx0 with one free descriptor (tail 1)
  sys.chips[0]!.fabricAdapter!.txc[0]!.txq[1]!.setTail(0);
  sys.chips[1]!.fabricAdapter!.rxc[0]!.rxq[0]!.setTail(1);
  sys.chips[0]!.host.actions.push({ cluster: 0, address: TAIL + 8, value: 1n, atCycle: 20000 });
  if (replenish) sys.chips[1]!.host.actions.push({ cluster: 0, address: TAIL + 16, value: 2n, atCycle: 0, afterInterrupt: { entry: dgramEntry('dgram_rx0'), count: 1 } });
  expect(sys.run().reason).toBe('done');
  return { sys, p1, p2 };
}

describe('datagram ring interrupts (chip §11.5.2)', () => {
  it('software answers the RxQ interrupt by resupplying a descriptor: the second datagram is accepted', () => {
    const { sys, p1, p2 } = system(true);
    const a1 = sys.chips[1]!.fabricAdapter!;
    expect(a1.dgramInterrupts[0]).toEqual([0, 0, 2, 0]);
    expect(sys.chips[0]!.fabricAdapter!.dgramInterrupts[0]).toEqual([1, 1, 0, 0]);
    expect(sys.chips[1]!.host.actionsDone).toBe(1);
    expect(a1.report().clusters[0]!.rxq_accepted).toEqual([2, 0]);
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, p1.length), p1)).toBe(-1);
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x50000, p2.length), p2)).toBe(-1);
  });

  it('without the answer the second datagram finds no free descriptor and is dropped', () => {
    const { sys } = system(false);
    const st = sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
    expect([st.rxq_accepted[0], st.rxq_dropped[0], st.rx_drops.rxq_empty]).toEqual([1, 1, 1]);
    expect(sys.chips[1]!.fabricAdapter!.dgramInterrupts[0]).toEqual([0, 0, 1, 0]);
  });

  it('image metadata names the ring interrupts ("dgram_tx0" ... "dgram_rx1"); another name is an error listing them', () => {
    const acts = parseHostActions('x.pimg', DGRAM_INTERRUPT_NAMES.map((entry) => ({ address: '0x40f05050', value: 2, after_interrupt: { entry, count: 3 } })), 4);
    expect(acts.map((a) => a.afterInterrupt)).toEqual([-3, -4, -5, -6].map((entry) => ({ entry, count: 3 })));
    expect(() => parseHostActions('x.pimg', [{ address: '0x40f05050', value: 2, after_interrupt: { entry: 'dgram_rx2' } }], 4)).toThrow(/"dgram_tx0" \/ "dgram_tx1" \/ "dgram_rx0" \/ "dgram_rx1" \(chip §11\.5\.2\)/);
  });
  it('the format note names every interrupt entry; count is a whole occurrence number', () => {
    let e: unknown;
    try {
      parseHostActions('x.pimg', [{ address: '0x40f05050', value: 2, after_interrupt: { entry: 0, count: 1.5 } }], 4);
    } catch (x) {
      e = x;
    }
    const d = (e as { diagnostics: Array<{ code: string; message: string; notes?: string[] }> }).diagnostics[0]!;
    expect(d.message).toBe('metadata.pyxis.host_actions[0]: after_interrupt.count must be an integer >= 1 (the n-th interrupt; got 1.5)');
    for (const n of ['"timeout"', '"fabric_job_failed"', ...DGRAM_INTERRUPT_NAMES.map((x) => `"${x}"`)]) expect(d.notes!.join()).toContain(n);
    expect(parseHostActions('x.pimg', [{ address: '0x40f05050', value: 2, after_interrupt: { entry: 0, count: 2 } }], 4)[0]!.afterInterrupt).toEqual({ entry: 0, count: 2 });
  });
});
