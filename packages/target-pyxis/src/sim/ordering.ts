/**
 * Happens-before tracking for the AMEM ordering rule of chip §11.7: "If two
 * partial-writes overlap on any 16-byte boundary, they must be separated by a
 * barrier". Every trip carries a vector clock (one entry per trip engine):
 * when a trip is released from its wait barrier it learns the barrier's clock
 * (the join of the clocks of the trips that notified it, each including its
 * own engine/sequence number) plus what earlier trips of its engine knew.
 * A partial write by trip T to a 16-byte partition last partially written
 * by trip P of another UIE is a violation unless T's clock has seen P. InMemAdd (RMW_Add) writes of whole
 * partitions count as well: chip §7.4.2 "RMW operations are NOT guaranteed to be atomic across different UIE"
 * (two RMWs "intertwined", or a write between the read and write halves).
 */
import { runtimeError, SimCodes } from './diagnostics.js';
import { amemPhysical } from './amem/index.js';
import type { Trip } from './trip.js';

export interface OrderedTrip extends Trip {
  engineIndex?: number;
  seq?: number;
  vc?: Float64Array;
}

export class OrderingTracker {
  private readonly knowledge: Float64Array[];
  private readonly count: Float64Array;
  private readonly barrierClock = new Map<number, Float64Array>();
  /** Last partial writer per partition key: engine index, trip sequence number, trip id. */
  private readonly lastWriter = new Map<number, { engine: number; seq: number; tripId: number; rmw: boolean }>();
  partialWrites = 0;

  constructor(
    private readonly n: number,
    private readonly engineName: (i: number) => string,
  ) {
    this.knowledge = Array.from({ length: n }, () => new Float64Array(n));
    this.count = new Float64Array(n);
  }

  /** A trip of engine `e` has been released from barrier `cluster:id` (id 0 = no wait). */
  released(trip: OrderedTrip, e: number, cluster: number, id: number): void {
    const k = this.knowledge[e]!;
    if (id !== 0) {
      const b = this.barrierClock.get(cluster * 1024 + id);
      if (b) for (let i = 0; i < this.n; i++) if (b[i]! > k[i]!) k[i] = b[i]!;
    }
    trip.engineIndex = e;
    trip.seq = ++this.count[e]!;
    trip.vc = Float64Array.from(k);
  }

  /** Trip `trip` notifies global barrier `cluster:id`. */
  notified(trip: OrderedTrip, cluster: number, id: number): void {
    if (!trip.vc || trip.engineIndex === undefined) return;
    const key = cluster * 1024 + id;
    let b = this.barrierClock.get(key);
    if (!b) this.barrierClock.set(key, (b = new Float64Array(this.n)));
    const v = trip.vc;
    for (let i = 0; i < this.n; i++) if (v[i]! > b[i]!) b[i] = v[i]!;
    if (trip.seq! > b[trip.engineIndex]!) b[trip.engineIndex] = trip.seq!;
  }

  /** The barrier was freed: its next use starts a new generation. */
  freed(cluster: number, id: number): void {
    this.barrierClock.delete(cluster * 1024 + id);
  }

  /** Writes checked for races: partial writes and InMemAdd (stats). */
  rmwWrites = 0;

  /**
   * A read-modify-write by `trip` at view address `byteAddr` of `cluster`'s AMEM: a partial write (fewer than 16 bytes
   * of a partition) or, with `rmw`, an InMemAdd write of any width (chip §7.4.2).
   */
  partialWrite(trip: OrderedTrip, cluster: number, byteAddr: number, now: number, rmw = false): void {
    if (trip.engineIndex === undefined || !trip.vc) return;
    if (rmw) this.rmwWrites++;
    else this.partialWrites++;
    const key = cluster * (1 << 22) + (amemPhysical(byteAddr) >>> 4);
    const prev = this.lastWriter.get(key);
    const e = trip.engineIndex;
    if (prev && prev.engine !== e && trip.vc[prev.engine]! < prev.seq)
      throw runtimeError(
        SimCodes.overlapWrite,
        `${prev.rmw || rmw ? 'read-modify-writes (partial writes or InMemAdd)' : 'partial writes'} to AMEM partition 0x${(byteAddr & ~15).toString(16)} of cluster ${cluster} by ${this.engineName(prev.engine)} trip ${prev.tripId}${prev.rmw ? ' (InMemAdd)' : ''} and ${this.engineName(e)} trip ${trip.tripId}${rmw ? ' (InMemAdd)' : ''} are not separated by a barrier`,
        '§11.7, §7.4.2',
        now,
        ['partial writes and InMemAdd are read-modify-writes and not atomic across UIEs: overlapping ones from different clients need a barrier between their trips'],
      );
    if (prev) {
      prev.engine = e;
      prev.seq = trip.seq!;
      prev.tripId = trip.tripId;
      prev.rmw = rmw;
    } else this.lastWriter.set(key, { engine: e, seq: trip.seq!, tripId: trip.tripId, rmw });
  }
}
