/**
 * Statistics and debug counters of the fabric adapter (chip §10.9 is TBD: the set below is the project's choice,
 * docs/spec-notes.md, fadapter). Per cluster, Tx and Rx; every dropped page is counted under its reason, every
 * failed RDMA job is recorded with its chip, cluster and job ids (nothing is lost silently, issue 21 "Faults").
 */

/** Why the Rx side dropped a page (§10.8.8). */
export const DROP_REASONS = ['crc', 'stale', 'overrun', 'after_error', 'no_rx_job', 'rxq_empty', 'rxq_too_small', 'length_mismatch'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export interface FabricClusterStats {
  tx_jobs_started: number;
  tx_jobs_completed: number;
  tx_jobs_failed: number;
  tx_retries: number;
  tx_pages: number;
  tx_data_bytes: number;
  tx_messages: { cts: number; ack: number; nack: number };
  tx_datagrams: number;
  /** Granted pages of failed jobs flushed from their VOQ instead of sent (§10.7.1.1, §11.8). */
  tx_pages_flushed: number;
  rx_messages: { cts: number; ack: number; nack: number; stale: number };
  rx_jobs_started: number;
  rx_jobs_completed: number;
  rx_jobs_failed: number;
  rx_pages: number;
  rx_data_bytes: number;
  rx_sequence_gaps: number;
  rx_nacks_sent: number;
  rx_cts_retries: number;
  rx_datagrams: number;
  /** Per RxQ (dgram_rx0, dgram_rx1): datagrams accepted and dropped (§10.8.1.3; CSR cluster.dgram_rxq_counts). */
  rxq_accepted: [number, number];
  rxq_dropped: [number, number];
  rx_drops: Record<DropReason, number>;
  /** Highest number of QPages this cluster held at once, and its XOFF time (cycles any of its VOQs was XOFF). */
  qpages_max: number;
  xoff_events: number;
  xoff_cycles: number;
  txdma_words: number;
  rxdma_words: number;
  /** Cycles the Rx DMA waited for a write-completion tracking id (§10.8.8). */
  rx_tracking_stall_cycles: number;
}

export function emptyClusterStats(): FabricClusterStats {
  return {
    tx_jobs_started: 0,
    tx_jobs_completed: 0,
    tx_jobs_failed: 0,
    tx_retries: 0,
    tx_pages: 0,
    tx_data_bytes: 0,
    tx_messages: { cts: 0, ack: 0, nack: 0 },
    tx_datagrams: 0,
    tx_pages_flushed: 0,
    rx_messages: { cts: 0, ack: 0, nack: 0, stale: 0 },
    rx_jobs_started: 0,
    rx_jobs_completed: 0,
    rx_jobs_failed: 0,
    rx_pages: 0,
    rx_data_bytes: 0,
    rx_sequence_gaps: 0,
    rx_nacks_sent: 0,
    rx_cts_retries: 0,
    rx_datagrams: 0,
    rxq_accepted: [0, 0],
    rxq_dropped: [0, 0],
    rx_drops: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>,
    qpages_max: 0,
    xoff_events: 0,
    xoff_cycles: 0,
    txdma_words: 0,
    rxdma_words: 0,
    rx_tracking_stall_cycles: 0,
  };
}

/** One RDMA job that ended in the Job Failed state (§10.7.1.2, §10.8.1.2). */
export interface FabricJobFailure {
  chip: number;
  cluster: number;
  side: 'tx' | 'rx';
  tjid: number;
  rjid: number;
  epoch: number;
  tripId: number;
  cycle: number;
  reason: string;
  /**
   * The cluster's cluster.fabric_failed_inhibit was set (§11.8): the job went directly to Idle, without the sticky
   * state or the interrupt.
   */
  inhibited?: boolean;
}

export function describeFailure(f: FabricJobFailure): string {
  return `chip ${f.chip} cluster ${f.cluster} ${f.side === 'tx' ? 'Tx' : 'Rx'} job TJID=${f.tjid} RJID=${f.rjid} (epoch ${f.epoch}, trip ${f.tripId}) failed at cycle ${f.cycle}: ${f.reason}${f.inhibited ? ' (sticky Job Failed state inhibited by cluster.fabric_failed_inhibit: the entry went directly to Idle, §11.8)' : ''}`;
}
