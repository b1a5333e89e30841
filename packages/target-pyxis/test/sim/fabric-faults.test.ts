/**
 * Reliable RDMA transport (chip §10.3.1, §10.7.1.1-10.7.1.2, §10.8.1.1-10.8.1.2): one loss per job (a data page, the
 * last page, a corrupted header, the CTS, the ACK) still delivers every byte (the retry is visible in the stats); a
 * second loss ends the job in the sticky Job Failed state on both chips with the interrupt and a report naming chip,
 * cluster, TJID and RJID; a stale-epoch page is dropped and counted (§10.4).
 */
import { describe, expect, it } from 'vitest';
import { encode, loadTable } from '@pyxis/codec';
import { CFG_ENGINE_BASE, clusterCsrRegion, CSR_ENQUEUE, decodeHeader, FABRIC_JOB_FAILED_INTERRUPT, PyxisObserver, TraceWriter, type FabricAdapterOverrides, type FabricPage } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { DST, expectedTimes, firstDiff, rdmaImages, watchTrips, type Rdma } from './fabric-rdma-lib.js';

/** Short timers so that timeouts happen within a few thousand cycles (the defaults are tens of microseconds). */
const SHORT: FabricAdapterOverrides = {
  timers: { tx_cts_wait_timeout_cycles: 40000, tx_active_timeout_cycles: 40000, tx_ack_wait_timeout_cycles: 6000, rx_data_wait_timeout_cycles: 8000, rx_job_completion_timeout_cycles: 20000 },
};
const G = 100;
const L = 500;

type Deliver = (page: FabricPage, n: number, src: number, now: number) => Array<{ page: FabricPage; delay: number }>;
const pass = (p: FabricPage) => [{ page: p, delay: 0 }];

/** An in-memory Perfetto trace per chip. */
function traces(n: number): { observers: PyxisObserver[]; events: () => Array<Array<Record<string, unknown>>> } {
  const bufs = Array.from({ length: n }, () => ({ s: '' }));
  const writers = bufs.map((b) => new TraceWriter({ write: (x) => void (b.s += x), close: () => {}, abort: () => {} }, 1.33e9));
  return {
    observers: writers.map((w) => new PyxisObserver(w)),
    events: () => {
      writers.forEach((w) => w.close({}));
      return bufs.map((b) => (JSON.parse(b.s) as { traceEvents: Array<Record<string, unknown>> }).traceEvents);
    },
  };
}

function runJob(r: Rdma, deliver: Deliver, trace?: ReturnType<typeof traces>) {
  const data = bytesOf(r.words * 128, (i) => (i * 13 + (i >> 8)) & 0xff);
  const { tx, rx } = rdmaImages(r, data);
  const sys = buildSystem([tx.build(), rx.build()], { grantDelay: G, latency: L, adapter: SHORT, deliver, ...(trace ? { observers: trace.observers } : {}) });
  const txTrip = watchTrips(sys.chips[0]!);
  const rxTrip = watchTrips(sys.chips[1]!);
  const res = sys.run();
  const got = sys.chips[1]!.amem[0]!.readBytes(DST, data.length);
  return { txTrip: txTrip[0]!, rxTrip: rxTrip[0]!, sys, res, exact: firstDiff(got, data) === -1, tx: sys.chips[0]!.fabricAdapter!.report(), rx: sys.chips[1]!.fabricAdapter!.report() };
}

const JOB: Rdma = { tjid: 3, rjid: 7, words: 400, page: 100 };
/** Data pages of chip 0 in transmit order: attempt 1 = n 0..3, attempt 2 = n 4..7. */
const dataDrop = (drop: number[]): Deliver => (p, n, src) => (src === 0 && drop.includes(n) ? [] : pass(p));

describe('reliable RDMA transport', () => {
  it('one lost data page: sequence gap, NACK at the last page, the whole job retried, byte-exact', () => {
    const tr = traces(2);
    const { res, exact, tx, rx, sys } = runJob(JOB, dataDrop([1]), tr);
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    expect(tx.clusters[0]!.tx_retries).toBe(1);
    expect(tx.clusters[0]!.tx_pages).toBe(8);
    expect(tx.clusters[0]!.rx_messages.nack).toBe(1);
    expect(rx.clusters[0]!.rx_sequence_gaps).toBe(1);
    expect(rx.clusters[0]!.rx_nacks_sent).toBe(1);
    expect(rx.clusters[0]!.rx_drops.after_error).toBe(2); // pages 2 and 3 of the first attempt
    expect(tx.failures).toEqual([]);
    // the retried pages carry the retry bit and restart at sequence number 0
    const h = sys.sent[0]!.map((p) => decodeHeader(p.header)!);
    expect(h.map((x) => [x.page_seq_num, x.retry])).toEqual([[0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1], [2, 1], [3, 1]]);
    expect(sys.chips[0]!.tripsByKind['rdma_tx']).toBe(1);
    // Perfetto: one slice per job on the cluster's Tx / Rx job-manager tracks, the retry in its args
    const ev = tr.events();
    const trackName = (evs: Array<Record<string, unknown>>, tid: unknown) => evs.find((e) => e['ph'] === 'M' && e['name'] === 'thread_name' && e['tid'] === tid && (e['args'] as { name: string }).name.includes('fabric'));
    const txSlice = ev[0]!.find((e) => e['ph'] === 'X' && e['name'] === 'TJID 3 -> RJID 7')!;
    expect(txSlice['args']).toMatchObject({ tjid: 3, rjid: 7, retry: 1, words: 400 });
    expect((trackName(ev[0]!, txSlice['tid'])!['args'] as { name: string }).name).toBe('c0.fabric_tx_jobs');
    const rxSlice = ev[1]!.find((e) => e['ph'] === 'X' && e['name'] === 'RJID 7 <- TJID 3')!;
    expect(rxSlice['args']).toMatchObject({ retry: 1 });
    expect((trackName(ev[1]!, rxSlice['tid'])!['args'] as { name: string }).name).toBe('c0.fabric_rx_jobs');
  });

  it('a corrupted header (CRC) is dropped and counted, then recovered like a loss', () => {
    const { res, exact, tx, rx } = runJob(JOB, (p, n, src) => (src === 0 && n === 2 ? [{ page: { ...p, corrupt: true }, delay: 0 }] : pass(p)));
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    expect(rx.clusters[0]!.rx_drops.crc).toBe(1);
    expect(tx.clusters[0]!.tx_retries).toBe(1);
  });

  it('a flipped header bit fails the CRC-32 (§10.8.7)', () => {
    const { res, exact, rx } = runJob(JOB, (p, n, src) => {
      if (!(src === 0 && n === 0)) return pass(p);
      const header = p.header.slice();
      header[1] ^= 0x10;
      return [{ page: { ...p, header }, delay: 0 }];
    });
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    expect(rx.clusters[0]!.rx_drops.crc).toBe(1);
  });

  it('a lost last page: the Tx ACK-wait timeout retries first, the Rx job restarts with the retried pages', () => {
    const { res, exact, tx, rx } = runJob(JOB, dataDrop([3]));
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    expect(tx.clusters[0]!.tx_retries).toBe(1);
    expect(rx.clusters[0]!.rx_nacks_sent).toBe(0);
    expect(rx.clusters[0]!.rx_jobs_completed).toBe(1);
  });

  it('a lost CTS: the Rx data-wait timeout re-sends the CTS with the retry bit (completion from the parameters)', () => {
    const { res, exact, rx, sys, txTrip, rxTrip } = runJob(JOB, (p, n, src) => (src === 1 && n === 0 ? [] : pass(p)));
    // the retried CTS leaves when the data-wait timer expires: the job then runs as if set up that much later
    const e = expectedTimes(JOB, rxTrip.startAt + SHORT.timers!.rx_data_wait_timeout_cycles!, txTrip.startAt, G, L);
    expect(rxTrip.doneAt).toBe(e.rxDone);
    expect(txTrip.doneAt).toBe(e.txDone);
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    expect(rx.clusters[0]!.rx_cts_retries).toBe(1);
    const cts = sys.sent[1]!.filter((p) => p.type === 'cts').map((p) => decodeHeader(p.header)!.retry);
    expect(cts).toEqual([0, 1]);
  });

  it('a lost ACK: the Tx side retries, the Rx side (job already complete) ACKs the retried job again', () => {
    const { res, exact, tx, rx } = runJob(JOB, (p, n, src) => (src === 1 && p.type === 'ack' && n === 1 ? [] : pass(p)));
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    expect(tx.clusters[0]!.tx_retries).toBe(1);
    expect(tx.clusters[0]!.tx_jobs_completed).toBe(1);
    expect(rx.clusters[0]!.rx_drops.stale).toBe(4);
    expect(tx.failures).toEqual([]);
  });

  it('a second loss: Job Failed on both chips, the interrupt, the failed-job vector and a clear report', () => {
    const data = bytesOf(JOB.words * 128, (i) => i & 0xff);
    const { tx, rx } = rdmaImages(JOB, data);
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: G, latency: L, adapter: SHORT, deliver: dataDrop([1, 5]) });
    // software on chip 0 waits for the Job Failed interrupt, then writes a (scratch) CSR word
    sys.chips[0]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + 0x100, value: 0x55n, atCycle: 0, afterInterrupt: { entry: FABRIC_JOB_FAILED_INTERRUPT, count: 1 } });
    // chip 1's software polls its Rx failed-job vector for RJID 7 (word 0, bit 7), then clears it (write 1)
    const RXF = CFG_ENGINE_BASE + clusterCsrRegion('cluster.fabric_rx_failed').offset;
    sys.chips[1]!.host.actions.push({ cluster: 0, address: RXF, value: 0x80n, atCycle: 0, poll: { address: RXF, mask: 0x80n, value: 0x80n } });
    const res = sys.run();
    expect(res.reason).toBe('done');
    const a0 = sys.chips[0]!.fabricAdapter!;
    const a1 = sys.chips[1]!.fabricAdapter!;
    expect(a0.failures.map((f) => [f.chip, f.cluster, f.side, f.tjid, f.rjid])).toEqual([[0, 0, 'tx', 3, 7]]);
    expect(a1.failures.map((f) => [f.chip, f.cluster, f.side, f.tjid, f.rjid])).toEqual([[1, 0, 'rx', 3, 7]]);
    expect(a0.failures[0]!.reason).toMatch(/NACK received on the retried job/);
    expect(a1.failures[0]!.reason).toMatch(/lost or out-of-sequence page \(sequence number 2, expected 1\) on the retried job/);
    expect(a0.failedInterrupts[0]).toBe(1);
    expect(a1.failedInterrupts[0]).toBe(1);
    expect(a0.txc[0]!.failedVector[3]).toBe(1);
    // cleared by chip 1's software through cluster.fabric_rx_failed (write 1 to clear): the entry is idle again
    expect(a1.rxc[0]!.failedVector[7]).toBe(0);
    expect(a1.rxc[0]!.jobs[7]).toBeNull();
    expect(sys.chips[1]!.host.actionsDone).toBe(1);
    const TXF = clusterCsrRegion('cluster.fabric_tx_failed').offset;
    expect(sys.chips[0]!.cfg[0]!.read64(TXF)).toBe(1n << 3n);
    expect(sys.chips[0]!.cfg[0]!.read64(TXF + 8)).toBe(0n);
    expect(sys.chips[0]!.host.actionsDone).toBe(1);
    expect(sys.chips[0]!.cfg[0]!.readWord(0x100)[0]).toBe(0x55);
    expect(a0.explain()[0]).toMatch(/SIM0754: chip 0 cluster 0 Tx job TJID=3 RJID=7 \(epoch 0, trip 1\) failed at cycle \d+: NACK received on the retried job/);
    // no notifications: the trips never completed
    expect(sys.chips[0]!.tripsByKind['rdma_tx']).toBeUndefined();
    expect(sys.chips[1]!.tripsByKind['rdma_rx']).toBeUndefined();
    // software clears the sticky state (§10.7.1.2) by writing 1 to its bit: the entry is idle again
    const one = new Uint8Array(8);
    one[0] = 1 << 3;
    sys.chips[0]!.cfg[0]!.write(TXF, one, 0, 8);
    expect(a0.txc[0]!.failedVector[3]).toBe(0);
    expect(a0.txc[0]!.jobs[3]).toBeNull();
    expect(sys.chips[0]!.cfg[0]!.read64(TXF)).toBe(0n);
  });

  it('a partner that never comes: Tx CTS-wait timeout and Rx data-wait timeouts (one CTS retry) fail at the derived cycles', () => {
    // chip 0 runs only its Tx job, chip 1 only its Rx job, with different ids: neither ever hears from the other
    const data = bytesOf(JOB.words * 128, (i) => i & 0xff);
    const a = rdmaImages(JOB, data);
    const b = rdmaImages({ ...JOB, tjid: 4, rjid: 8 }, data);
    const sys = buildSystem([a.tx.build(), b.rx.build()], { grantDelay: G, latency: L, adapter: SHORT });
    const txT = watchTrips(sys.chips[0]!);
    const rxT = watchTrips(sys.chips[1]!);
    expect(sys.run().reason).toBe('done');
    const tf = sys.chips[0]!.fabricAdapter!.failures;
    const rf = sys.chips[1]!.fabricAdapter!.failures;
    const T = SHORT.timers!;
    expect(tf.map((f) => [f.side, f.tjid, f.cycle])).toEqual([['tx', 3, txT[0]!.startAt + T.tx_cts_wait_timeout_cycles!]]);
    expect(tf[0]!.reason).toMatch(/CTS-wait timeout \(no CTS from the Rx chip within timers.tx_cts_wait_timeout_cycles = 40000\)/);
    expect(rf.map((f) => [f.side, f.rjid, f.cycle])).toEqual([['rx', 8, rxT[0]!.startAt + 2 * T.rx_data_wait_timeout_cycles!]]);
    expect(rf[0]!.reason).toMatch(/second Rx data-wait timeout after the retried CTS/);
    // chip 0 saw two CTS for TJID 4, kept as a CTS before its job (§10.3), the second with the retry bit
    expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.rx_messages).toMatchObject({ cts: 2, stale: 0 });
    expect(sys.sent[1]!.map((p) => decodeHeader(p.header)!.retry)).toEqual([0, 1]);
  });

  it('a TJID re-used for another Rx chip desynchronises the epochs (§10.4): the failure report says so', () => {
    const desc = ImageBuilder.desc;
    const words = 64;
    const tx = new ImageBuilder();
    tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 3, rjid: 1, dest_voq: voqOf(2, 0), amem_address: 0x10000 >> 7, num_words: words, page_size_words: 32 })]);
    tx.data('amem', 0x2000, desc('desc_rdma_tx', { trip_id: 2, tjid: 3, rjid: 1, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: words, page_size_words: 32 }));
    const rx = (src: number) => {
      const b = new ImageBuilder();
      b.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 3, tjid: 3, rjid: 1, msg_voq: voqOf(src, 0), amem_address: 0x40000 >> 7, num_words: words })]);
      return b.build();
    };
    const sys = buildSystem([tx.build(), rx(0), rx(0)], { grantDelay: G, latency: L, adapter: SHORT });
    const w = encode(loadTable('pyxis', 'desc_enqueue_record'), { queue_id: 0x0c, descriptor_list_address: 0x2000, descriptor_list_length: 4, cluster: 0 });
    sys.chips[0]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + CSR_ENQUEUE, value: new DataView(w.buffer).getBigUint64(0, true), atCycle: 10000 });
    expect(sys.run().reason).toBe('done');
    const f = sys.chips[0]!.fabricAdapter!.failures;
    expect(f.map((x) => [x.side, x.tjid, x.epoch])).toEqual([['tx', 3, 1]]);
    expect(f[0]!.reason).toMatch(/an unexpected CTS for TJID 3 \(epoch 0\) arrived at cycle \d+ and this job has epoch 1: did Tx and Rx use the TJID \/ RJID pair a different number of times/);
    expect(sys.chips[1]!.fabricAdapter!.failures[0]!.reason).toMatch(/second Rx data-wait timeout/);
  });

  it('a page of the previous job (old epoch) arriving during the next job on the same TJID/RJID is dropped as stale', () => {
    const words = 200;
    const a = bytesOf(words * 128, (i) => i & 0xff);
    const b = bytesOf(words * 128, (i) => (i * 3 + 1) & 0xff);
    const tx = new ImageBuilder();
    const rx = new ImageBuilder();
    tx.data('amem', 0x10000, a);
    tx.data('amem', 0x20000, b);
    const desc = ImageBuilder.desc;
    const td = (trip: number, src: number) => desc('desc_rdma_tx', { trip_id: trip, tjid: 9, rjid: 4, dest_voq: voqOf(1, 0), amem_address: src >> 7, num_words: words, page_size_words: 100 });
    const rd = (trip: number, dst: number) => desc('desc_rdma_rx', { trip_id: trip, tjid: 9, rjid: 4, msg_voq: voqOf(0, 0), amem_address: dst >> 7, num_words: words });
    tx.list(0x0c, 0x1000, [td(1, 0x10000)]);
    rx.list(0x0e, 0x1000, [rd(2, 0x40000)]);
    tx.data('amem', 0x2000, td(3, 0x20000));
    rx.data('amem', 0x2000, rd(4, 0x60000));
    const enq = (qid: number) => {
      const w = encode(loadTable('pyxis', 'desc_enqueue_record'), { queue_id: qid, descriptor_list_address: 0x2000, descriptor_list_length: 4, cluster: 0 });
      return new DataView(w.buffer).getBigUint64(0, true);
    };
    // the first page of job 1 is duplicated, the copy delayed until job 2 runs
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: G, latency: L, adapter: SHORT, deliver: (p, n, src, now) => (src === 0 && n === 0 ? [{ page: p, delay: 0 }, { page: p, delay: 20200 - now - L }] : pass(p)) });
    sys.chips[0]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + CSR_ENQUEUE, value: enq(0x0c), atCycle: 20000 });
    sys.chips[1]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + CSR_ENQUEUE, value: enq(0x0e), atCycle: 20000 });
    const res = sys.run();
    expect(res.reason).toBe('done');
    const st = sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
    expect(st.rx_jobs_completed).toBe(2);
    expect(st.rx_drops.stale).toBe(1);
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, a.length), a)).toBe(-1);
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x60000, b.length), b)).toBe(-1);
    // the second job used epoch 1 (§10.4: toggled per job invocation)
    expect(sys.sent[0]!.slice(-2).map((p) => decodeHeader(p.header)!.epoch)).toEqual([1, 1]);
  });
});
