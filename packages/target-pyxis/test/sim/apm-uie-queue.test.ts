/**
 * APM and trips queued on one UIE (chip §13; docs/spec-notes.md "APM: a UIE reports one trip power"): a UIE
 * reports one trip power, the largest among its started, unretired trips, so trips waiting behind the running one
 * request nothing more. The expected bubbles follow from the documented rule alone: AllowedUtilization =
 * Granted / Requested, and the fractional accumulator admits exactly that fraction of cycles.
 */
import { describe, expect, it } from 'vitest';
import { Apm, UieSlot, type UieModel } from '@pyxis/target-pyxis/sim';

/** GrantedPower never moves during the test (the first update is 10^9 cycles away). */
const cfg = { enabled: true, power_update_period: 1e9, max_delta_power: 16, min_granted_power: 50, max_granted_power: 4096 };
const W = 40; // cycles of work per trip

/** A UIE model that holds up to three trips and works on the oldest, W admitted cycles each. */
function fakeModel(slot: () => UieSlot): UieModel {
  const q: { id: number; left: number }[] = [];
  return {
    name: 'fake',
    get busy() {
      return q.length > 0;
    },
    canStartTrip: () => q.length < 3,
    startTrip(p: { trip_id: number }) {
      q.push({ id: p.trip_id, left: W });
    },
    tick(now: number) {
      const h = q[0];
      if (!h) return false;
      if (--h.left === 0) {
        q.shift();
        slot().retire(h.id, now);
      }
      return true;
    },
    nextWake: (now: number) => (q.length ? now : Infinity),
    blockedReason: () => undefined,
  } as unknown as UieModel;
}

function trip(id: number, power: number) {
  return { tripId: id, trip_power: power, startAt: 0, fields: { trip_valid_mask: 1, start_pc: [0, 0, 0, 0] } } as never;
}

function run(powers: number[]) {
  const apm = new Apm(cfg, 1);
  const done: [number, number][] = [];
  const slot: UieSlot = new UieSlot(0, 0, (t: { tripId: number }, now: number) => done.push([t.tripId, now]), apm, 0);
  slot.model = fakeModel(() => slot);
  const requested: number[] = [];
  powers.forEach((p, i) => {
    slot.start(trip(i + 1, p), 0);
    requested.push(apm.requested);
  });
  let now = 0;
  while (slot.busy && now < 10_000) slot.tick(now++);
  return { apm, done, requested, cycles: now, slot };
}

describe('APM: trips queued on one UIE (chip §13)', () => {
  it('three queued trips of power 100 request 100, not 300', () => {
    const r = run([100, 100, 100]);
    expect(r.requested).toEqual([100, 100, 100]);
    // Granted 50 < Requested 100 for the whole run: utilisation 1/2, the accumulator admits every second cycle
    // (0.5 -> bubble, 1.0 -> admit), so each of the 3W work cycles costs one bubble.
    expect(r.apm.bubbles).toBe(3 * W);
    // the trips retire one after another, each after 2W cycles of admitted + bubble cycles
    expect(r.done).toEqual([
      [1, 2 * W - 1],
      [2, 4 * W - 1],
      [3, 6 * W - 1],
    ]);
    expect(r.apm.requested).toBe(0);
    // the Trip Power report integrates the one reported value: 100 for the 6W - 1 cycles the trips were held
    expect(r.slot.powerCycles).toBe(100 * (6 * W - 1));
  });

  it('a UIE reports the largest power among its held trips, lower once that trip retires', () => {
    const r = run([200, 100]);
    expect(r.requested).toEqual([200, 200]);
    // trip 1 at utilisation 50/200 = 1/4: W admitted cycles take 4W (bubbles on 3 of every 4); then trip 2 alone at
    // 50/100 = 1/2. The accumulator carries over: at trip 1's retirement it holds 0 (4W cycles x 1/4 = W admits).
    expect(r.done[0]).toEqual([1, 4 * W - 1]);
    expect(r.done[1]).toEqual([2, 4 * W - 1 + 2 * W]);
    expect(r.apm.bubbles).toBe(3 * W + W);
  });
});
