/**
 * Software view of the Tx and Rx Job Tables (chip §10.7.2 Table 10-1, §10.8.2 Table 10-2): one 32-byte entry per
 * TJID / RJID, laid out by grammars/pyxis/fabric_tx_job_entry.json / fabric_rx_job_entry.json, read through the
 * CSR windows cluster.fabric_tx_job_table / fabric_rx_job_table (csr.ts). Debug observability (§18; §10.9 is TBD):
 * the model's job state mapped to the table's fields (state names are the tables' enum names), never a second copy.
 */
import { encode, loadTable, type CompiledTable, type FieldValues } from '@pyxis/codec';
import type { RxCluster, RxJob } from './rx.js';
import type { TxCluster, TxJob } from './tx.js';

export const TX_JOB_ENTRY: CompiledTable = loadTable('pyxis', 'fabric_tx_job_entry');
export const RX_JOB_ENTRY: CompiledTable = loadTable('pyxis', 'fabric_rx_job_entry');

/** The ~10-bit timestamp of a phase timer: its expiry in ticks of `tick` cycles, modulo 1024; 0 when none runs. */
function stamp(deadline: number, tick: number): number {
  return Number.isFinite(deadline) ? Math.floor(deadline / tick) % 1024 : 0;
}

function common(j: TxJob | RxJob): FieldValues {
  return { amem_base_addr: Number(j.trip.fields['amem_address']), total_words: j.totalWords, notify_list: j.trip.fields['notify_list'] as FieldValues[string], epoch: j.epoch, retry: j.retry };
}

/** Tx Job Table entry `tjid` of `tx` (Table 10-1). */
export function txJobEntry(tx: TxCluster, tjid: number, tick: number): Uint8Array {
  const j = tx.jobs[tjid];
  if (!j) return encode(TX_JOB_ENTRY, { epoch: tx.epoch[tjid]!, cts_received: tx.ctsBeforeJob(tjid) ? 1 : 0, state: 'idle' });
  // TxState: CtsWait, PgenWait, Active, Drain, AckWait, Failed (tx.ts); PgenWait of a retried job is the Retry state
  const state = ['cts_wait', j.retry ? 'retry' : 'pgen_wait', 'tx_active', 'tx_active', 'ack_wait', 'job_failed'][j.state]!;
  return encode(TX_JOB_ENTRY, {
    ...common(j), rjid: j.rjid, dest_voq: j.voq, page_size_words: j.pageWords, cts_received: j.ctsReceived ? 1 : 0,
    state, timer_timestamp: state === 'job_failed' ? 0 : stamp(j.deadline, tick),
  });
}

/** Rx Job Table entry `rjid` of `rx` (Table 10-2). */
export function rxJobEntry(rx: RxCluster, rjid: number, tick: number): Uint8Array {
  const j = rx.jobs[rjid];
  if (!j) return encode(RX_JOB_ENTRY, { epoch: rx.epoch[rjid]!, state: 'idle' });
  // RxState: DataWait, Active, Commit (last page written, commits pending, then the ACK), Failed (rx.ts)
  const state = ['rx_data_wait', 'rx_data_active', 'ack_out', 'job_failed'][j.state]!;
  return encode(RX_JOB_ENTRY, {
    ...common(j), tjid: j.tjid, msg_voq: j.msgVoq, words_received: j.wordsReceived, page_seq_num: j.nextSeq & 0x7ff,
    state, timer_timestamp: state === 'job_failed' ? 0 : stamp(j.deadline, tick),
  });
}
