/**
 * Job Failed recovery (chip §11.8 with §10.7.1.2, §10.8.1.2): an RDMA job that fails after its one retry is sticky in
 * the failed-job vector and raises the interrupt; software sets Trip Flush mode on each chip, clears the failed
 * state, waits for the trip manager to be quiescent and for the RDMA Job Tables to be idle
 * (cluster.fabric_job_status), then leaves flush mode. The trips that depended on the failed job (waiting on the
 * barrier its notify_list would have relaxed) are discarded. The global inhibit CSR (cluster.fabric_failed_inhibit)
 * sends further failing jobs directly to Idle without the sticky state or the interrupt.
 */
import { describe, expect, it } from 'vitest';
import { CFG_ENGINE_BASE, clusterCsrRegion, FABRIC_JOB_FAILED_INTERRUPT, FLUSH_CSR, FLUSH_STATUS_CSR, type FabricAdapterOverrides, type FabricPage } from '@pyxis/target-pyxis/sim';
import { chipFabricOutcome } from '../../src/sim/fabric/systemFailures.js';
import { bytesOf, gid, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';

const desc = ImageBuilder.desc;
const SHORT: FabricAdapterOverrides = {
  timers: { tx_cts_wait_timeout_cycles: 40000, tx_active_timeout_cycles: 40000, tx_ack_wait_timeout_cycles: 6000, rx_data_wait_timeout_cycles: 8000, rx_job_completion_timeout_cycles: 20000 },
};
const A = (name: string) => CFG_ENGINE_BASE + clusterCsrRegion(name).offset;
const TX_FAILED = A('cluster.fabric_tx_failed');
const RX_FAILED = A('cluster.fabric_rx_failed');
const INHIBIT = A('cluster.fabric_failed_inhibit');
const JOB_STATUS = A('cluster.fabric_job_status');
const FLUSH = CFG_ENGINE_BASE + FLUSH_CSR.offset;
const FLUSH_STATUS = CFG_ENGINE_BASE + FLUSH_STATUS_CSR.offset;
const SCRATCH = CFG_ENGINE_BASE + 0x100;
/** trip_flush_status bit 17: flush done (memory_map.json). */
const FLUSH_DONE = 1n << 17n;

const TJID = 3;
const RJID = 7;
const WORDS = 400;

/**
 * Chip 0 sends one RDMA job (4 pages of 100 words) to chip 1; on each chip an H2A trip waits on barrier 9, which the
 * RDMA trip's notify_list relaxes (the Tx side: the buffer may be reused; the Rx side: the data are in AMEM).
 */
function images(): { tx: ImageBuilder; rx: ImageBuilder } {
  const data = bytesOf(WORDS * 128, (i) => (i * 7) & 0xff);
  const tx = new ImageBuilder();
  const rx = new ImageBuilder();
  for (const b of [tx, rx]) {
    b.list(0x22, 0x800, [desc('desc_barrier_config', { barrier_id: 9, notify_count: 1, wait_count: 1 })]);
    b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x80000 >> 7, hbm_base_address: 0, length: 1, wait_barrier_id: 9, trip_id: 5 })]);
  }
  tx.data('amem', 0x10000, data);
  tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: TJID, rjid: RJID, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: WORDS, page_size_words: 100, notify_list: [gid(0, 9)] })]);
  rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 2, tjid: TJID, rjid: RJID, msg_voq: voqOf(0, 0), amem_address: 0x40000 >> 7, num_words: WORDS, notify_list: [gid(0, 9)] })]);
  return { tx, rx };
}

/** Loses data pages 1 and 5 of chip 0 (one in each attempt): the job fails on both chips (§10.3.1). */
const loseTwice = (p: FabricPage, n: number, src: number) => (src === 0 && p.type === 'rdma_data' && (n === 1 || n === 5) ? [] : [{ page: p, delay: 0 }]);

describe('Job Failed recovery with the trip flush (chip §11.8)', () => {
  it('interrupt -> flush mode -> clear the failed job -> flush done and Job Tables idle -> leave flush mode', () => {
    const { tx, rx } = images();
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: SHORT, deliver: loseTwice });
    const clearBits = [1n << BigInt(TJID), 1n << BigInt(RJID)];
    sys.chips.forEach((chip, k) => {
      const failedVec = k === 0 ? TX_FAILED : RX_FAILED;
      chip.host.actions.push(
        // §11.8: "software then sets a global Trip Flush mode register ... The key ordering step here is for software
        // to set the Trip Flush mode before releasing the failed RDMA job(s)"
        { cluster: 0, address: FLUSH, value: 1n, atCycle: 0, afterInterrupt: { entry: FABRIC_JOB_FAILED_INTERRUPT, count: 1 } },
        { cluster: 0, address: failedVec, value: clearBits[k]!, atCycle: 0 },
        { cluster: 0, address: SCRATCH, value: 1n, atCycle: 0, poll: { address: FLUSH_STATUS, mask: FLUSH_DONE, value: FLUSH_DONE } },
        // "The fabric-adapter's RDMA Job Tables must also have zero active RDMA jobs": bits 31:0 of the status
        { cluster: 0, address: FLUSH, value: 0n, atCycle: 0, poll: { address: JOB_STATUS, mask: 0xffff_ffffn, value: 0n } },
      );
    });
    // before the run, the job status reads idle
    expect(sys.chips[0]!.cfg[0]!.read64(JOB_STATUS - CFG_ENGINE_BASE)).toBe(0n);
    const res = sys.run();
    expect(res.reason).toBe('done');
    for (const [k, chip] of sys.chips.entries()) {
      const fa = chip.fabricAdapter!;
      expect(fa.failures.map((f) => [f.side, f.tjid, f.rjid, !!f.inhibited])).toEqual([[k === 0 ? 'tx' : 'rx', TJID, RJID, false]]);
      expect(fa.failedInterrupts[0]).toBe(1);
      expect(chip.host.actionsDone).toBe(4);
      // the H2A trip that depended on the failed job was discarded by the flush; the RDMA trip never notified
      expect(chip.tm[0]!.tripsFlushed).toBe(1);
      expect(chip.tm[0]!.flushDoneAt.length).toBe(1);
      expect(chip.tm[0]!.flushMode).toBe(false);
      expect(chip.tripsByKind['h2a']).toBeUndefined();
      // the failed entry is Idle again with its epoch advanced (§10.4: the next job of the pair uses epoch 1 on both sides)
      expect(k === 0 ? fa.txc[0]!.jobs[TJID] : fa.rxc[0]!.jobs[RJID]).toBeNull();
      expect(k === 0 ? fa.txc[0]!.epoch[TJID] : fa.rxc[0]!.epoch[RJID]).toBe(1);
      expect(chip.cfg[0]!.read64(JOB_STATUS - CFG_ENGINE_BASE)).toBe(0n);
      expect(chip.cfg[0]!.read64((k === 0 ? TX_FAILED : RX_FAILED) - CFG_ENGINE_BASE)).toBe(0n);
      // the host waited on the interrupt: the failure is the host's (recovered), the run is not a failed run
      expect(chipFabricOutcome(chip).failures.map((f) => f.recovered)).toEqual([true]);
    }
    // the Rx side cleared its failed state only after flush mode was set (the ordering of §11.8)
    expect(sys.chips[1]!.tm[0]!.flushDoneAt[0]!).toBeGreaterThan(sys.chips[1]!.fabricAdapter!.failures[0]!.cycle);
  });

  it('fabric_job_status counts Job Table entries not Idle and those in Job Failed, per side (16-bit fields)', () => {
    const { tx, rx } = images();
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: SHORT, deliver: loseTwice });
    // without a flush the H2A trips wait forever on barrier 9 (§11.8: "multiple Pyxis chips may stall waiting on
    // barriers which will never be relaxed")
    expect(sys.run().reason).toBe('deadlock');
    // nobody clears the sticky state: chip 0 has one Tx entry busy and failed, chip 1 one Rx entry
    expect(sys.chips[0]!.cfg[0]!.read64(JOB_STATUS - CFG_ENGINE_BASE)).toBe(1n | (1n << 32n));
    expect(sys.chips[1]!.cfg[0]!.read64(JOB_STATUS - CFG_ENGINE_BASE)).toBe((1n << 16n) | (1n << 48n));
    // not recovered: no host waited on the interrupt
    expect(chipFabricOutcome(sys.chips[0]!).failures.map((f) => f.recovered)).toEqual([false]);
  });

  it('with cluster.fabric_failed_inhibit set, a failing job goes directly to Idle: no sticky bit, no interrupt', () => {
    const { tx, rx } = images();
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: SHORT, deliver: loseTwice });
    for (const chip of sys.chips) chip.host.actions.push({ cluster: 0, address: INHIBIT, value: 1n, atCycle: 0 });
    expect(sys.run().reason).toBe('deadlock'); // the dependent H2A trips (no flush here)
    for (const [k, chip] of sys.chips.entries()) {
      const fa = chip.fabricAdapter!;
      expect(chip.cfg[0]!.read64(INHIBIT - CFG_ENGINE_BASE)).toBe(1n);
      expect(fa.failures.map((f) => [f.side, !!f.inhibited])).toEqual([[k === 0 ? 'tx' : 'rx', true]]);
      expect(fa.failedInterrupts[0]).toBe(0);
      expect(chip.cfg[0]!.read64((k === 0 ? TX_FAILED : RX_FAILED) - CFG_ENGINE_BASE)).toBe(0n);
      expect(chip.cfg[0]!.read64(JOB_STATUS - CFG_ENGINE_BASE)).toBe(0n);
      expect(k === 0 ? fa.txc[0]!.epoch[TJID] : fa.rxc[0]!.epoch[RJID]).toBe(1);
      expect(fa.report().clusters[0]![k === 0 ? 'tx_jobs_failed' : 'rx_jobs_failed']).toBe(1);
      expect(chipFabricOutcome(chip).failures.map((f) => f.recovered)).toEqual([true]);
      expect(fa.explain()[0]).toMatch(/SIM0754: .* failed at cycle \d+: .*sticky Job Failed state inhibited by cluster\.fabric_failed_inhibit/);
      expect(chip.tripsByKind['h2a']).toBeUndefined();
    }
  });
});
