/**
 * What the per-cluster Tx and Rx job managers share inside one chip's fabric adapter (adapter.ts): the QPage
 * table (§10.7.6, one per chip), the event queue, the chip's fabric egress, the AMEMs and the report hooks.
 */
import type { AmemAccess } from '../amemAccess.js';
import type { Trip } from '../trip.js';
import type { FabricAdapterParams } from './params.js';
import type { FabricDestination, FabricEgress, FabricPageType } from './port.js';
import type { FabricClusterStats, FabricJobFailure } from './stats.js';

/** A hardware message from a cluster's Rx job manager to the Tx side (§10.7.1.5): CTS, ACK or NACK. */
export interface OutMessage {
  type: 'cts' | 'ack' | 'nack';
  tjid: number;
  rjid: number;
  epoch: number;
  retry: number;
  voq: number;
  dest: FabricDestination;
}

/** A QPage (§10.7.6): one page enqueued to a VOQ, from generation to dequeue. */
export interface QPage {
  id: number;
  inUse: boolean;
  cluster: number;
  type: FabricPageType;
  /** RDMA: the job (its epoch / retry as of this page's generation are in the fields below). */
  job: unknown;
  /** Datagram: TxQ (0/1) and ring slot (the TxQ reorder id, §10.7.1.4). */
  txq: number;
  slot: number;
  /** AMEM source view address (RDMA, datagram), payload bytes. */
  addr: number;
  payloadBytes: number;
  tjid: number;
  rjid: number;
  epoch: number;
  retry: number;
  last: number;
  seq: number;
  rxq: number;
  voq: number;
  dest: FabricDestination;
  high: boolean;
  /** Profile of the VOQ (occupancy release). */
  profile: number;
}

export interface AdapterCore {
  readonly chip: number;
  readonly params: FabricAdapterParams;
  readonly egress: FabricEgress;
  readonly timingOnly: boolean;
  /** Cycles from a DPE descriptor read to the descriptor in the adapter's FIFO (datagram rings, §12.5). */
  readonly descriptorFetchCycles: number;
  amem(cluster: number): AmemAccess;
  /** Reserves `bytes` of the cluster's core-switch ingress from `now`; the cycle the last byte has passed. */
  ingress(cluster: number, now: number, bytes: number): number;
  /** Destination of a Pyxis VOQ (§10.2); throws SIM0751 when unmapped. */
  dest(voq: number, what: string, now: number): FabricDestination;
  /** A free QPage, or undefined when the table is full. */
  allocQPage(): QPage | undefined;
  /** Runs `fn` at cycle `at` (>= now), in (at, order of scheduling). */
  schedule(at: number, fn: (now: number) => void): void;
  /** A trip (RDMA Tx / Rx job) completed: its notify_list goes to the barrier tables (§10.7.1.1, §10.8.1.1). */
  tripDone(trip: Trip, now: number): void;
  /** A job entered the Job Failed state (§10.7.1.2, §10.8.1.2): recorded, interrupt raised. */
  failed(f: FabricJobFailure): void;
  /** cluster.fabric_failed_inhibit of `cluster` is set (§11.8): a failing job goes directly to Idle. */
  inhibitFailed(cluster: number): boolean;
  /** A datagram ring's head pointer passed one more descriptor: its interrupt (ring 0..3 = dgram_tx0, tx1, rx0, rx1; §11.5.2). */
  dgramInterrupt(cluster: number, ring: number): void;
  stats(cluster: number): FabricClusterStats;
  /** A message from cluster `cluster`'s Rx side to its Tx side (the Rx -> Tx message FIFO, §10.8.1.1). */
  sendMessage(cluster: number, m: OutMessage): void;
  /** A Tx or Rx job's lifetime for the trace (Perfetto track per cluster and side). */
  slice(cluster: number, side: 'tx' | 'rx', start: number, end: number, name: string, args: Record<string, string | number>): void;
}
