/**
 * The boundary between a chip's fabric adapter (chip §10.7 Tx, §10.8 Rx: job managers, job tables, page
 * generator, QPages, TxDMA / RxDMA, header encapsulation) and the system's cell fabric (chip §10.1: VOQs,
 * request / grant, FO / FI pipes, cells, flight latency). The adapter lives inside one chip; the fabric belongs to
 * the system. Everything that crosses between chips crosses here, as whole pages (chip §10.1: one packet per page),
 * and between chips only through TimedLinks (their minimum latency is the one-way fabric latency: the lookahead of
 * a parallel run, docs/architecture.md).
 *
 * Life of a page (chip §10.7 steps [3]-[9]):
 *   adapter: QPage allocated -> `FabricEgress.enqueue(now, req)` (VOQ enqueue, §10.7 [4])
 *   fabric : request / grant with the destination (>= one RTT for a new communication, §10.1)
 *   fabric : `FabricAdapterTx.granted(now, qpage, pipe)` -> the adapter reads the page from AMEM (TxDMA, §10.7 [6])
 *   adapter: `FabricEgress.transmit(now, page)` with the 16-byte §10.6 header and the payload bytes
 *   fabric : cellification (§10.1 table), FO pipe serialisation, flight, FI at the destination
 *   fabric : `FabricAdapterTx.dequeued(now, qpage)` at the source (the QPage and its VOQ count are freed)
 *   fabric : `FabricAdapterRx.receive(now, page)` on the destination chip (the page is whole in the Rx CBUF, §10.8.3)
 */

import type { FabricAdapterOverrides } from './params.js';

/** §10.6 page types. */
export type FabricPageType = 'rdma_data' | 'datagram' | 'cts' | 'ack' | 'nack';

/** Where a Pyxis VOQ points after the chip's Pyxis_VOQ_to_VPFE_map (§10.2). */
export interface FabricDestination {
  /** Juniper VPFE[10:0] (VPFE[1:0] != 3). */
  vpfe: number;
  /** VPFE_OQ[1:0] = Pyxis_VOQ[1:0]: the output queue of the target cluster (4 per cluster, §10.8.5). */
  oq: number;
}

/** A VOQ enqueue (§10.7 [4]): the fabric learns the page's size and destination, not yet its bytes. */
export interface FabricEnqueue {
  /** Source chip index in the system (0-based). */
  srcChip: number;
  /** Source cluster (the Tx job manager / page generator that made the page). */
  srcCluster: number;
  /** Pyxis VOQ (13 bits) as the descriptor named it. */
  voq: number;
  dest: FabricDestination;
  /** QPage id (the Juniper packet handle, §10.7 [4]); unique per source chip while outstanding. */
  qpage: number;
  /** Bytes on the wire: 16-byte header + payload (messages: header + padding to the minimum packet size). */
  wireBytes: number;
  /** Messages (CTS / ACK / NACK) may be given preferential service (§10.3.1.1). */
  type: FabricPageType;
}

/** A page on the wire (§10.6 header + payload). */
export interface FabricPage extends FabricEnqueue {
  /** The 16-byte §10.6 header as encoded (grammars/pyxis). */
  header: Uint8Array;
  /** Payload bytes (RDMA data, datagram data); empty for messages; null under --timing-only. */
  payload: Uint8Array | null;
  /** Payload length in bytes (the header's page size). */
  payloadBytes: number;
  /** Set by the fault injector: the page arrives with a bad header CRC (§10.8.7) and must be dropped. */
  corrupt?: boolean;
  /**
   * Addition (fsys): the header's TJID / RJID / page sequence number as plain numbers, when the adapter sets them, so
   * that the fault injector can target a named job or page (`--fabric-faults drop:data:tjid=5:seq=3`) and traces can
   * name them without decoding the header. Optional: the wire never needs them.
   */
  tjid?: number;
  rjid?: number;
  seq?: number;
}

/** The system's fabric, as seen from one chip. */
export interface FabricEgress {
  /** §10.7 [4]: enqueue a page to its VOQ; the fabric answers later with `granted`. */
  enqueue(now: number, req: FabricEnqueue): void;
  /** §10.7 [9]: the granted page's bytes, ready in the Tx buffer; the fabric moves it to the destination chip. */
  transmit(now: number, page: FabricPage): void;
  /**
   * §10.8 [8]: this chip's Rx page reader has read a received page out of the Rx CBUF; its cells are free again and
   * the grant scheduler may grant more (§10.8.3). Optional: a fabric without a CBUF model ignores it.
   */
  rxCellsFreed?(now: number, page: FabricPage): void;
  /**
   * §10.7.1.1 ("the VOQ may need to be flushed"), §11.8 ("Tx will no longer be sending data for that job ID"): a
   * granted page of a failed Tx job is flushed instead of sent; the fabric dequeues it (no cell leaves) and releases
   * what its grant reserved at the destination. Optional: without it the adapter sends the page (the Rx side drops it).
   */
  discard?(now: number, req: FabricEnqueue): void;
}

/** What the fabric tells a chip's Tx side. */
export interface FabricAdapterTx {
  /** The page `qpage` of `srcCluster` was granted on FO pipe `pipe` (0..3): the adapter may read it from AMEM. */
  granted(now: number, srcCluster: number, qpage: number, pipe: number): void;
  /** The page left the chip (its last cell was sent): its QPage and VOQ occupancy are freed (§10.7.3.1). */
  dequeued(now: number, srcCluster: number, qpage: number): void;
}

/** What the fabric delivers to a chip's Rx side. */
export interface FabricAdapterRx {
  /** A whole page arrived for `dstCluster` (decoded from the VPFE by the system) in output queue `page.dest.oq`. */
  receive(now: number, dstCluster: number, page: FabricPage): void;
}

/**
 * What a chip of a system is given (ChipOptions.fabric): its index, the system's fabric as seen from it, and its
 * Pyxis_VOQ_to_VPFE_map (§10.2: 2K x 11 bits, indexed by Pyxis_VOQ[12:2]; 0xFFFF = entry not configured).
 */
export interface ChipFabricOptions {
  chip: number;
  egress: FabricEgress;
  voqToVpfe: Uint16Array;
  /**
   * Added by the adapter (fadapter): overrides of grammars/pyxis/fabric_adapter.json (timers, QPages, occupancy
   * profiles, ...), e.g. short timers in tests. Optional: the defaults are the grammar's.
   */
  adapter?: FabricAdapterOverrides;
  /** Added by the adapter: `--timing-only`, pages carry no payload (`payload: null`), the cycles are the same. */
  timingOnly?: boolean;
}

/** What a chip of a system offers the fabric (PyxisChip.fabric, null for a chip outside a system). */
export interface ChipFabricSide {
  tx: FabricAdapterTx;
  rx: FabricAdapterRx;
}
