/**
 * The two job timers fabric-faults.test.ts does not reach (chip §10.7.1.1, §10.7.1.2, §10.8.1.1): the Tx-active timer
 * (no page of the job dequeued for `tx_active_timeout_cycles`: Job Failed, §10.7.1.2 "Tx-wait timeout") and the Rx
 * job-completion timer (no page for `rx_job_completion_timeout_cycles` after data started: NACK, then the whole job is
 * retried). Expected cycles: the CTS arrival of docs/timing-model.md "Fabric adapter" (C0 = R + G + encap + L on the
 * stub fabric), one page generated per cycle (page_generator.cycles_per_page = 1), and the stub fabric's own log.
 */
import { describe, expect, it } from 'vitest';
import { loadGrammarJson } from '@pyxis/codec';
import type { FabricAdapterOverrides, FabricPage } from '@pyxis/target-pyxis/sim';
import { bytesOf } from './pyxisImage.js';
import { buildSystem } from './fabric-stub.js';
import { DST, firstDiff, rdmaImages, watchTrips, type Rdma } from './fabric-rdma-lib.js';

const P = loadGrammarJson<{ txdma: { encap_latency_cycles: number }; page_generator: { cycles_per_page: number } }>('pyxis', 'fabric_adapter');
const G = 100;
const L = 500;
const JOB: Rdma = { tjid: 3, rjid: 7, words: 400, page: 100 };

describe('fabric job timers', () => {
  it('Tx-active timeout: no page dequeued within the timer after the last one generated -> Job Failed at the derived cycle', () => {
    // the fabric grants after G = 100 cycles; a Tx-active timer of 50 expires first
    const TACT = 50;
    const adapter: FabricAdapterOverrides = { timers: { tx_active_timeout_cycles: TACT } };
    const data = bytesOf(JOB.words * 128, (i) => i & 0xff);
    const { tx, rx } = rdmaImages(JOB, data);
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: G, latency: L, adapter });
    const txT = watchTrips(sys.chips[0]!);
    const rxT = watchTrips(sys.chips[1]!);
    sys.run();
    const C0 = Math.max(rxT[0]!.startAt + G + P.txdma.encap_latency_cycles + L, txT[0]!.startAt);
    const pages = Math.ceil(JOB.words / JOB.page);
    const last = C0 + (pages - 1) * P.page_generator.cycles_per_page;
    const f = sys.chips[0]!.fabricAdapter!.failures;
    expect(f.map((x) => [x.side, x.tjid, x.cycle])).toEqual([['tx', JOB.tjid, last + TACT]]);
    expect(f[0]!.reason).toMatch(/Tx-active timeout \(the VOQ made no progress for timers.tx_active_timeout_cycles = 50\)/);
    // no retry for this failure (§10.7.1.2 lists it among the unrecoverable ones)
    expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.tx_retries).toBe(0);
    // every page was granted after the failure: flushed from the VOQ, none sent (§11.8 "Tx will no longer be sending
    // data for that job ID"); the Rx job never sees data and fails after its CTS retry
    expect(sys.sent[0]!.filter((p) => p.type === 'rdma_data')).toEqual([]);
    expect(sys.flushed[0]!.map((p) => p.qpage).length).toBe(pages);
    expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.tx_pages_flushed).toBe(pages);
    expect(sys.chips[0]!.fabricAdapter!.report().qpages_in_use).toBe(0);
    expect(sys.chips[1]!.fabricAdapter!.failures.map((x) => [x.side, x.rjid])).toEqual([['rx', JOB.rjid]]);
  });

  it('Rx job-completion timeout: NACK one timer after the last page received, then the retried job completes', () => {
    const TRC = 3000;
    // the Rx timer fires before the Tx ACK-wait timer, so the NACK starts the retry (§10.8.1.1)
    const adapter: FabricAdapterOverrides = { timers: { rx_job_completion_timeout_cycles: TRC, tx_ack_wait_timeout_cycles: 50000 } };
    const data = bytesOf(JOB.words * 128, (i) => (i * 7) & 0xff);
    const { tx, rx } = rdmaImages(JOB, data);
    // the first attempt loses its pages 1..3 (chip 0's data pages 1, 2, 3): only page 0 arrives
    const deliver = (p: FabricPage, n: number, src: number) => (src === 0 && p.type === 'rdma_data' && n >= 1 && n <= 3 ? [] : [{ page: p, delay: 0 }]);
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: G, latency: L, adapter, deliver });
    expect(sys.run().reason).toBe('done');
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(DST, data.length), data)).toBe(-1);
    // page 0 left chip 0 one cycle before the stub dequeued it and arrived L later; the NACK is enqueued TRC after
    const deq0 = sys.log[0]!.find((e) => e.d === -1 && e.type === 'rdma_data')!.t;
    const nack = sys.log[1]!.find((e) => e.d === 1 && e.type === 'nack')!.t;
    expect(nack).toBe(deq0 - 1 + L + TRC);
    const rxs = sys.chips[1]!.fabricAdapter!.report().clusters[0]!;
    const txs = sys.chips[0]!.fabricAdapter!.report().clusters[0]!;
    expect([rxs.rx_nacks_sent, txs.tx_retries, txs.tx_pages, rxs.rx_jobs_completed]).toEqual([1, 1, 8, 1]);
  });
});
