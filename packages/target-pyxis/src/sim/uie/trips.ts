/**
 * The trips of one UIE (chip §11.4.2, §11.7.1): its tracking IDs (trip slots), accepted in order and retired in
 * order once every valid sequencer is done (`pending`) and the trip's writes have committed (`writes`, commits.ts).
 */
import type { TripSlot, UieTripParams } from './records.js';
import { TRIP_SLOTS } from './records.js';
import { dbl } from '@pyxis/sim';

export class TripTable {
  /** The tracking IDs; a slot's `params` are the trip's descriptor fields while it is active. */
  readonly slots: TripSlot[] = [];
  /** The slot the next accepted trip takes. */
  private next = 0;
  /** The oldest active trip's slot (retirement is in order). */
  oldest = 0;
  /** Trips accepted and not retired. */
  active = 0;

  constructor() {
    for (let i = 0; i < TRIP_SLOTS; i++) this.slots.push({ active: false, tripId: 0, params: undefined, pending: 0, writes: dbl(0) });
    // Host speed only: `oldest` is first changed by the first retirement, long after V8 optimised its readers
    // assuming a constant field (load elimination); that change throws their code away. Two stores here make the
    // field a variable one from the start (docs/dev/performance.md "Warming the kernel loop; lazy deopts").
    this.oldest = 1;
    this.oldest = 0;
  }

  /** A tracking ID is free for the next trip. */
  get free(): boolean {
    return !this.slots[this.next]!.active;
  }

  /** Takes the next tracking ID for `trip`, valid sequencers `mask`; returns the slot (the caller checked `free`). */
  accept(trip: UieTripParams, mask: number): number {
    const slotId = this.next;
    const slot = this.slots[slotId]!;
    slot.active = true;
    slot.tripId = trip.trip_id;
    slot.params = trip;
    slot.writes = 0;
    slot.pending = mask;
    this.next = (slotId + 1) % TRIP_SLOTS;
    this.active++;
    return slotId;
  }

  /** The oldest trip, if it can retire now (its sequencers done, its writes committed). */
  retirable(): TripSlot | undefined {
    if (this.active === 0) return undefined;
    const sl = this.slots[this.oldest]!;
    return sl.active && sl.pending === 0 && sl.writes === 0 ? sl : undefined;
  }

  /** Retires the oldest trip (after `retirable`). */
  retireOldest(): void {
    const sl = this.slots[this.oldest]!;
    sl.active = false;
    sl.params = undefined;
    this.active--;
    this.oldest = (this.oldest + 1) % TRIP_SLOTS;
  }

  /** Sequencer `id` finished its program of the trip in `slot`. */
  seqDone(id: number, slot: number): void {
    this.slots[slot]!.pending &= ~(1 << id);
  }
}
