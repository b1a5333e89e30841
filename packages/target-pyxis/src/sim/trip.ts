/** A trip as it flows DPE -> trip manager -> engine -> trip manager (chip §11.3). */
import type { DecodedValues } from '@pyxis/codec';
import type { SimEngine } from '@pyxis/sim';
import type { MemLocation } from './diagnostics.js';
import type { QueueKind } from './queues.js';

export interface Trip {
  cluster: number;
  qid: number;
  kind: QueueKind;
  /** Decoded descriptor (engine table incl. the common header). */
  fields: DecodedValues;
  /** Descriptor table used (`desc_uie`, `desc_mpe_dma`, ...). */
  table: string;
  tripId: number;
  waitBarrierId: number;
  /** Global barrier ids {cluster[1:0], id[9:0]} (§11.4.1, §11.6.4); zeros removed. */
  notifyList: number[];
  /** Engine address of the descriptor (for messages). */
  address: number;
  /** Where the DPE read the descriptor (memory location) and its size, for diagnostics pointing into the image. */
  source?: MemLocation;
  sourceBytes?: number;
  trip_power: number;
  fetchedAt: number;
  waitAt: number;
  goAt: number;
  startAt: number;
  doneAt: number;
}

/** An engine that executes trips handed over by the trip manager. */
export interface TripEngine extends SimEngine {
  readonly kind: QueueKind;
  readonly cluster: number;
  /** True when a new trip may be started now. */
  canAccept(): boolean;
  /** Starts `trip`; the engine later calls the completion callback it was built with. */
  start(trip: Trip, now: number): void;
  /** Trips completed (stats). */
  tripsDone: number;
  /** Bytes moved (stats), if a data mover. */
  bytesMoved?: number;
}

export type TripDone = (trip: Trip, now: number) => void;
