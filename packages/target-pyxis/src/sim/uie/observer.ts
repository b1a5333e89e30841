/**
 * What a UIE tells an observer (statistics, traces) about its trips and cycles. The UIE calls its observer at four
 * points (five with the optional `vpuCycle`) and nowhere else; the observer reads the UIE's public state (statistics, decoder FIFOs, trip slots) and
 * must not change it. Statistics off: the UIE has no observer and pays one flag check per cycle.
 */
import type { Uie } from './uie.js';

export interface UieObserver {
  /** Once, at the end of the UIE's constructor (its units exist). */
  attach(u: Uie): void;
  /** Trip `tripId` was accepted into trip slot `slot` (`Uie.startTrip`, chip §11.4.2). */
  tripAccepted(tripId: number, slot: number): void;
  /** Before the UIE simulates cycle `now` (every `tick`, including those of a run-ahead window). */
  beforeCycle(now: number): void;
  /** After it simulated cycle `now`, before that cycle's retirements reach `tripRetired` (lockstep and run-ahead alike). */
  afterCycle(now: number): void;
  /**
   * Optional, instead of `beforeCycle` / `afterCycle` for a replayed VPU-only cycle (vpuBatch.ts): VI executed one
   * instruction of the record at the head of its decoder FIFO (`laneOps` lane-operations) and nothing else moved but
   * stall counters; the unit heads are those of the cycle before.
   */
  vpuCycle?(now: number, laneOps: number): void;
  /**
   * Optional, instead of `vpuCycle` for each of `n` replayed VPU-only cycles from `from` (a deferred run, vpuBatch.ts
   * `settle`): the same record at VI's head in all of them, `laneOps` lane-operations in all.
   */
  vpuCycles?(from: number, n: number, laneOps: number): void;
  /**
   * Trip `tripId` retired at `cycle` (chip §11.7.1), reported when the UIE reports it (`onTripDone`): at once, or for a
   * run-ahead window when the global clock reaches the cycle (`flushDeferred`).
   */
  tripRetired(tripId: number, cycle: number): void;
}
