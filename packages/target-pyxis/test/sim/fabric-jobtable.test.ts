/**
 * The Tx and Rx Job Tables as software reads them (chip §10.7.2 Table 10-1, §10.8.2 Table 10-2) through the CSR
 * windows cluster.fabric_tx_job_table / fabric_rx_job_table: one 32-byte entry per TJID / RJID, decoded here with the
 * grammar tables (the layout is data). Expected values come from the descriptors, the stub fabric's own log and the
 * documented parameters (fabric_adapter.json), never from the adapter's state.
 */
import { describe, expect, it } from 'vitest';
import { decode, loadGrammarJson, loadTable } from '@pyxis/codec';
import { clusterCsrRegion, type FabricAdapterOverrides, type FabricPage } from '@pyxis/target-pyxis/sim';
import { bytesOf, gid, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { rdmaImages, SRC, DST, watchTrips } from './fabric-rdma-lib.js';

const TXE = loadTable('pyxis', 'fabric_tx_job_entry');
const RXE = loadTable('pyxis', 'fabric_rx_job_entry');
const P = loadGrammarJson<{ job_tables: { timestamp_tick_cycles: number } }>('pyxis', 'fabric_adapter');
const TICK = P.job_tables.timestamp_tick_cycles;
const TX_T = clusterCsrRegion('cluster.fabric_tx_job_table').offset;
const RX_T = clusterCsrRegion('cluster.fabric_rx_job_table').offset;
const SHORT: FabricAdapterOverrides = {
  timers: { tx_cts_wait_timeout_cycles: 40000, tx_active_timeout_cycles: 40000, tx_ack_wait_timeout_cycles: 6000, rx_data_wait_timeout_cycles: 8000, rx_job_completion_timeout_cycles: 20000 },
};
const T = SHORT.timers!;
/** State codepoints of the grammar's enums (Table 10-1 / 10-2 state names). */
const txState = (n: string) => (TXE.byName.get('state')!.enum as Record<string, number>)[n];
const rxState = (n: string) => (RXE.byName.get('state')!.enum as Record<string, number>)[n];
const stamp = (deadline: number) => Math.floor(deadline / TICK) % 1024;

type Chip = ReturnType<typeof buildSystem>['chips'][number];
function entry(chip: Chip, base: number, id: number, table: typeof TXE): Record<string, unknown> {
  const b = new Uint8Array(32);
  chip.cfg[0]!.read(base + 32 * id, b, 0, 32);
  return decode(table, b) as Record<string, unknown>;
}

const JOB = { tjid: 3, rjid: 7, words: 400, page: 100 };
const data = bytesOf(JOB.words * 128, (i) => (i * 5) & 0xff);

/** The two chips' images for JOB (chip 0 sends to chip 1), with optional overrides (e.g. a late Tx enqueue). */
function images(extra: Partial<typeof JOB & { txAt: number }> = {}) {
  const r = { ...JOB, ...extra };
  const { tx, rx, late } = rdmaImages(r, data);
  return { tx, rx, late };
}

describe('Job Table windows (Tables 10-1, 10-2)', () => {
  it('Tx entry in ACK wait while its ACK flies; the retired Rx entry is Idle with the next epoch', () => {
    const { tx, rx } = images();
    const probe = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: SHORT });
    probe.run();
    // the cycle the last data page was dequeued (the stub's own log) and the ACK's arrival bound the ACK-wait phase
    const lastDeq = Math.max(...probe.log[0]!.filter((e) => e.d === -1 && e.type === 'rdma_data').map((e) => e.t));
    // the ACK left chip 1 one cycle before the stub dequeued it and reaches chip 0 500 cycles later
    const ackDeq = probe.log[1]!.find((e) => e.d === -1 && e.type === 'ack')!.t;
    expect(ackDeq).toBeGreaterThan(lastDeq);
    const again = images();
    const sys = buildSystem([again.tx.build(), again.rx.build()], { grantDelay: 100, latency: 500, adapter: SHORT, maxCycles: ackDeq });
    sys.run();
    const t = entry(sys.chips[0]!, TX_T, JOB.tjid, TXE);
    expect(t).toMatchObject({
      rjid: JOB.rjid, dest_voq: voqOf(1, 0), amem_base_addr: SRC >> 7, total_words: JOB.words, page_size_words: JOB.page,
      epoch: 0, cts_received: 1, retry: 0, state: txState('ack_wait'),
      timer_timestamp: stamp(lastDeq + T.tx_ack_wait_timeout_cycles!),
    });
    // the Rx job retired when its last page committed (before the ACK left): Idle, epoch advanced (§10.4)
    expect(entry(sys.chips[1]!, RX_T, JOB.rjid, RXE)).toMatchObject({ state: rxState('idle'), epoch: 1, tjid: 0, total_words: 0 });
    // an unused TJID reads as an Idle entry of epoch 0
    expect(entry(sys.chips[0]!, TX_T, 200, TXE)).toMatchObject({ state: txState('idle'), epoch: 0, cts_received: 0 });
  });

  it('a CTS before its Tx job: the Idle Tx entry shows CTS received; the Rx entry waits for data with its timer', () => {
    const { tx, rx, late } = images({ txAt: 5000 });
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: SHORT, maxCycles: 4000 });
    for (const l of late) (l.chip === 'tx' ? sys.chips[0]! : sys.chips[1]!).host.actions.push({ cluster: 0, address: 0x4000_0000 + clusterCsrRegion('cluster.enqueue').offset, value: l.value, atCycle: l.at });
    const rxTrips = watchTrips(sys.chips[1]!);
    sys.run();
    expect(entry(sys.chips[0]!, TX_T, JOB.tjid, TXE)).toMatchObject({ state: txState('idle'), epoch: 0, cts_received: 1 });
    const R = rxTrips[0]!.startAt;
    expect(entry(sys.chips[1]!, RX_T, JOB.rjid, RXE)).toMatchObject({
      tjid: JOB.tjid, amem_base_addr: DST >> 7, total_words: JOB.words, msg_voq: voqOf(0, 0), epoch: 0, retry: 0,
      state: rxState('rx_data_wait'), words_received: 0, page_seq_num: 0, timer_timestamp: stamp(R + T.rx_data_wait_timeout_cycles!),
    });
  });

  it('a job that failed on its retry: both entries in job_failed with the retry bit; the Rx counters of the attempt', () => {
    // data pages 1 and 5 of chip 0 lost: attempt 2 receives seq 0, loses seq 1, gets seq 2 and 3 (after the gap)
    const lose = (p: FabricPage, n: number, src: number) => (src === 0 && p.type === 'rdma_data' && (n === 1 || n === 5) ? [] : [{ page: p, delay: 0 }]);
    const tx = new ImageBuilder();
    const rx = new ImageBuilder();
    tx.data('amem', SRC, data);
    tx.list(0x0c, 0x1000, [ImageBuilder.desc('desc_rdma_tx', { trip_id: 1, tjid: JOB.tjid, rjid: JOB.rjid, dest_voq: voqOf(1, 0), amem_address: SRC >> 7, num_words: JOB.words, page_size_words: JOB.page, notify_list: [gid(0, 9), gid(1, 4)] })]);
    rx.list(0x0e, 0x1000, [ImageBuilder.desc('desc_rdma_rx', { trip_id: 2, tjid: JOB.tjid, rjid: JOB.rjid, msg_voq: voqOf(0, 0), amem_address: DST >> 7, num_words: JOB.words, notify_list: [gid(0, 5)] })]);
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, adapter: SHORT, deliver: lose });
    sys.run();
    expect(entry(sys.chips[0]!, TX_T, JOB.tjid, TXE)).toMatchObject({
      rjid: JOB.rjid, state: txState('job_failed'), retry: 1, epoch: 0, timer_timestamp: 0, notify_list: [gid(0, 9), gid(1, 4), 0, 0, 0, 0, 0, 0],
    });
    expect(entry(sys.chips[1]!, RX_T, JOB.rjid, RXE)).toMatchObject({
      tjid: JOB.tjid, state: rxState('job_failed'), retry: 1, words_received: 3 * JOB.page, page_seq_num: 4, timer_timestamp: 0,
      notify_list: [gid(0, 5), 0, 0, 0, 0, 0, 0, 0],
    });
  });
});
