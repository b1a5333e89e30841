/**
 * The write-commit ring's batch (uie/commits.ts `CommitRing.batch`, used by steady-state batches) against a
 * reference written here: a plain list of posted writes, per cycle t the writes due at t commit, then one write of
 * the batch's trip slot is posted with commit cycle t + latency (chip §11.7.1, seq §6.8). Writes posted before the
 * window (several per cycle, some delayed as a late bank access does) must be committed at their own cycles.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CommitRing } from '../../src/sim/uie/commits.js';
import type { TripSlot } from '../../src/sim/uie/records.js';

const slotsOf = (n: number): TripSlot[] => Array.from({ length: n }, () => ({ active: true, tripId: 0, params: undefined, pending: 0, writes: 0 }));

/** The reference: posted writes in issue order (commit cycle, slot); `delay` pushes the newest ones later. */
class RefRing {
  list: { at: number; slot: number }[] = [];
  constructor(
    readonly latency: number,
    readonly slots: TripSlot[],
  ) {}
  commitDue(now: number): void {
    while (this.list.length > 0 && this.list[0]!.at <= now) this.slots[this.list.shift()!.slot]!.writes--;
  }
  post(slot: number, now: number, n: number): void {
    for (let i = 0; i < n; i++) {
      this.list.push({ at: now + this.latency, slot });
      this.slots[slot]!.writes++;
    }
  }
  delay(n: number, late: number): void {
    for (let i = 0; i < n && i < this.list.length; i++) this.list[this.list.length - 1 - i]!.at += late;
  }
}

const op = fc.record({ posts: fc.integer({ min: 0, max: 2 }), slot: fc.integer({ min: 0, max: 2 }), delay: fc.integer({ min: 0, max: 2 }), late: fc.integer({ min: 1, max: 9 }) });

/** Short latencies, long delays and short windows: the window's own writes commit in the cycle the last write posted before it does, or the window ends first. */
const lateOp = fc.record({ posts: fc.integer({ min: 0, max: 2 }), slot: fc.integer({ min: 0, max: 2 }), delay: fc.integer({ min: 0, max: 3 }), late: fc.integer({ min: 1, max: 30 }) });

describe('CommitRing.batch', () => {
  const cases: [string, fc.Arbitrary<number>, fc.Arbitrary<(typeof op extends fc.Arbitrary<infer T> ? T : never)[]>, fc.Arbitrary<number>][] = [
    ['any', fc.integer({ min: 0, max: 40 }), fc.array(op, { maxLength: 20 }), fc.integer({ min: 0, max: 300 })],
    ['late', fc.integer({ min: 0, max: 4 }), fc.array(lateOp, { maxLength: 12 }), fc.integer({ min: 0, max: 40 })],
  ];
  it.each(cases)('equals per-cycle commits and posts, with writes posted before the window still in flight (%s)', (_name, latA, histA, kA) => {
    fc.assert(
      fc.property(latA, histA, fc.integer({ min: 0, max: 2 }), kA, (lat, history, trip, k) => {
        const slots = slotsOf(3);
        const ref = slotsOf(3);
        const ring = new CommitRing(lat, slots);
        const model = new RefRing(lat, ref);
        let t = 0;
        for (const h of history) {
          ring.commitDue(t);
          model.commitDue(t);
          ring.post(h.slot, t, h.posts);
          model.post(h.slot, t, h.posts);
          ring.delayNewest(h.delay, h.late);
          model.delay(h.delay, h.late);
          t++;
        }
        ring.batch(t, k, trip);
        for (let j = 0; j < k; j++) {
          model.commitDue(t + j);
          model.post(trip, t + j, 1);
        }
        const state = () => slots.map((s) => s.writes);
        expect(state()).toEqual(ref.map((s) => s.writes));
        expect(ring.count).toBe(model.list.length);
        expect(ring.nextAt).toBe(model.list.length > 0 ? model.list[0]!.at : Infinity);
        // the writes still posted commit at the same cycles
        for (let u = t + k; ring.count > 0 || model.list.length > 0; u++) {
          ring.commitDue(u);
          model.commitDue(u);
          expect([u, ...state()]).toEqual([u, ...ref.map((s) => s.writes)]);
          expect(ring.count).toBe(model.list.length);
        }
      }),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 300) },
    );
  });
});
