/**
 * RDMA over the fabric between chips (chip §10.3, §10.7-10.8): byte-exact delivery through the adapters of two chips
 * joined by a stub fabric (fabric-stub.ts), pages of PageSizeWords with a shorter last page (§10.7.3), CTS before
 * and after the Tx job (§10.3), and the completion cycles derived from the parameters.
 */
import { describe, expect, it } from 'vitest';
import { CFG_ENGINE_BASE, CSR_ENQUEUE, decodeHeader } from '@pyxis/target-pyxis/sim';
import { bytesOf } from './pyxisImage.js';
import { buildSystem } from './fabric-stub.js';
import { DST, expectedTimes, firstDiff, rdmaImages, watchTrips, type Rdma } from './fabric-rdma-lib.js';


function run(r: Rdma, G = 300, L = 1000) {
  const data = bytesOf(r.words * 128, (i) => (i * 7 + (i >> 9)) & 0xff);
  const { tx, rx, late } = rdmaImages(r, data);
  const sys = buildSystem([tx.build(), rx.build()], { grantDelay: G, latency: L });
  for (const l of late) sys.chips[l.chip === 'tx' ? 0 : 1]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + CSR_ENQUEUE, value: l.value, atCycle: l.at });
  const txTrips = watchTrips(sys.chips[0]!);
  const rxTrips = watchTrips(sys.chips[1]!);
  const res = sys.run();
  return { sys, data, res, txTrip: txTrips[0]!, rxTrip: rxTrips[0]! };
}

describe('RDMA between two chips (chip §10.3, §10.7, §10.8)', () => {
  it('delivers a 300-word job byte-exact in pages of PageSizeWords with a shorter last page', () => {
    const r: Rdma = { tjid: 5, rjid: 9, words: 300, page: 125 };
    const { sys, data, res } = run(r);
    expect(res.reason).toBe('done');
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(DST, data.length), data)).toBe(-1);
    const dataPages = sys.sent[0]!.filter((p) => p.type === 'rdma_data');
    expect(dataPages.map((p) => p.payloadBytes)).toEqual([125 * 128, 125 * 128, 50 * 128]);
    const hdrs = dataPages.map((p) => decodeHeader(p.header)!);
    expect(hdrs.map((h) => [h.page_seq_num, h.last_page, h.tjid, h.rjid, h.epoch, h.retry])).toEqual([[0, 0, 5, 9, 0, 0], [1, 0, 5, 9, 0, 0], [2, 1, 5, 9, 0, 0]]);
    expect(dataPages.every((p) => p.wireBytes === p.payloadBytes + 16)).toBe(true);
    // chip 1 sent CTS then ACK (messages: header padded to 64 bytes, §10.7.9)
    expect(sys.sent[1]!.map((p) => [p.type, p.wireBytes, p.payloadBytes])).toEqual([['cts', 64, 0], ['ack', 64, 0]]);
    const s0 = sys.chips[0]!.fabricAdapter!.report().clusters[0]!;
    const s1 = sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
    expect([s0.tx_jobs_completed, s0.tx_pages, s0.tx_data_bytes, s0.tx_retries, s0.rx_messages.cts, s0.rx_messages.ack]).toEqual([1, 3, 300 * 128, 0, 1, 1]);
    expect([s1.rx_jobs_completed, s1.rx_pages, s1.rx_data_bytes, s1.tx_messages.cts, s1.tx_messages.ack]).toEqual([1, 3, 300 * 128, 1, 1]);
    expect(sys.chips[0]!.tripsByKind['rdma_tx']).toBe(1);
    expect(sys.chips[1]!.tripsByKind['rdma_rx']).toBe(1);
    expect(sys.chips[0]!.fabricAdapter!.report().qpages_in_use).toBe(0);
  });

  it('a job of 2^16 words in 32-word pages: 2048 pages, sequence numbers 0..2047 (11 bits), byte-exact', () => {
    const r: Rdma = { tjid: 0, rjid: 255, words: 65536, page: 32, src: 0x100000, dst: 0x100000 };
    const { sys, data, res } = run(r, 50, 200);
    expect(res.reason).toBe('done');
    const pages = sys.sent[0]!.filter((p) => p.type === 'rdma_data');
    expect(pages.length).toBe(2048);
    expect(decodeHeader(pages[2047]!.header)).toMatchObject({ page_seq_num: 2047, last_page: 1 });
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x100000, data.length), data)).toBe(-1);
    expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.tx_retries).toBe(0);
  });

  for (const c of [
    { name: 'CTS before the Tx job (Rx job first)', txAt: 20000, rxAt: 0 },
    { name: 'CTS after the Tx job (Tx job first)', txAt: 0, rxAt: 20000 },
  ])
    it(`completion cycles from the parameters: ${c.name}`, () => {
      const G = 300;
      const L = 1000;
      const r: Rdma = { tjid: 1, rjid: 2, words: 290, page: 120, txAt: c.txAt, rxAt: c.rxAt };
      const { sys, data, res, txTrip, rxTrip } = run(r, G, L);
      expect(res.reason).toBe('done');
      expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(DST, data.length), data)).toBe(-1);
      const e = expectedTimes(r, rxTrip.startAt, txTrip.startAt, G, L);
      expect(e.pages).toEqual([120, 120, 50]);
      expect(rxTrip.doneAt).toBe(e.rxDone);
      expect(txTrip.doneAt).toBe(e.txDone);
      if (c.txAt) expect(txTrip.startAt).toBeGreaterThan(rxTrip.startAt + G + L);
      else expect(rxTrip.startAt).toBeGreaterThan(txTrip.startAt + 10000);
    });

  it('a single-chip run with an RDMA queue names the system flow (SIM0756)', async () => {
    const { simulateImage } = await import('@pyxis/target-pyxis/sim');
    const { tx } = rdmaImages({ tjid: 1, rjid: 1, words: 4, page: 32 }, new Uint8Array(512));
    try {
      simulateImage(tx.build(), 'x.pimg');
      expect.unreachable();
    } catch (e) {
      const d = (e as { diagnostics: Array<{ code: string; message: string; spec: string }> }).diagnostics[0]!;
      expect(d.code).toBe('SIM0756');
      expect(d.message).toMatch(/rdma_tx0 is an RDMA queue: it needs the fabric adapter of a chip in a multi-chip system \(pyxis-sim run SYSTEM/);
      expect(d.spec).toMatch(/§10.7.1/);
    }
  });
});
