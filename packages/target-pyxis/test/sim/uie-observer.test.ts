/**
 * The UIE's observer (uie/observer.ts): called at trip acceptance, around every simulated cycle and at retirement, in
 * lockstep and in run-ahead windows alike; observing never changes a result.
 */
import { describe, expect, it } from 'vitest';
import type { Uie, UieObserver } from '../../src/sim/uie/index.js';
import { Rig, bytes, loops, observe, runWindows, strides } from './uie-fixture.js';

const rd = { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(8) };
const wr = { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: strides(8) };

/** Records every call, in order, into a log shared with the rig's onTripDone. */
class Recorder implements UieObserver {
  attached: Uie | undefined;
  readonly accepted: Array<[number, number]> = [];
  readonly retired: Array<[number, number]> = [];
  readonly cycles: number[] = [];
  private open = -1;
  errors: string[] = [];
  constructor(readonly log: string[]) {}
  attach(u: Uie): void {
    this.attached = u;
  }
  tripAccepted(tripId: number, slot: number): void {
    this.accepted.push([tripId, slot]);
  }
  beforeCycle(now: number): void {
    if (this.open >= 0) this.errors.push(`beforeCycle(${now}) inside cycle ${this.open}`);
    if (this.cycles.length && now <= this.cycles[this.cycles.length - 1]!) this.errors.push(`cycle ${now} not after ${this.cycles[this.cycles.length - 1]}`);
    this.open = now;
  }
  afterCycle(now: number): void {
    if (this.open !== now) this.errors.push(`afterCycle(${now}) without beforeCycle`);
    this.open = -1;
    this.cycles.push(now);
  }
  tripRetired(tripId: number, cycle: number): void {
    this.retired.push([tripId, cycle]);
    this.log.push(`observer ${tripId}@${cycle}`);
  }
}

/** Three overlapping copy trips of 5, 7 and 300 rows (programs at pc 0, 1, 2; the last long enough for steady-state batches). */
function rig(observer?: UieObserver, log: string[] = []): Rig {
  const r = new Rig({ ...(observer ? { observer } : {}), onTripDone: (t, c) => {
    r.done.push({ trip: t, cycle: c });
    log.push(`done ${t}@${c}`);
  } });
  r.amem.writeBytes(0, bytes(0x8000, 3));
  r.prog('amem_read', 0, loops([{ n: 5 }]), rd);
  r.prog('amem_write', 0, loops([{ n: 5 }]), wr);
  r.prog('amem_read', 1, loops([{ n: 7 }], 1, 1), rd);
  r.prog('amem_write', 1, loops([{ n: 7 }], 1, 1), wr);
  r.prog('amem_read', 2, loops([{ n: 300 }], 1, 2), rd);
  r.prog('amem_write', 2, loops([{ n: 300 }], 1, 2), wr);
  const pc = (p: number) => [p, p, ...new Array(11).fill(0)];
  expect(r.trip({ trip_id: 11, start_pc: pc(0), amem_write_base_address: 0x1000 })).toBe(true);
  expect(r.trip({ trip_id: 12, start_pc: pc(1), amem_read_base_address: 0x100, amem_write_base_address: 0x1100 })).toBe(true);
  r.uie.tick(r.now++);
  expect(r.trip({ trip_id: 13, start_pc: pc(2), amem_read_base_address: 0x200, amem_write_base_address: 0x1200 })).toBe(true);
  return r;
}

describe('UIE observer (uie/observer.ts)', () => {
  it('a UIE without an observer has none; an observer is attached once, to its UIE', () => {
    expect(new Rig().uie.observer).toBeUndefined();
    const o = new Recorder([]);
    const r = new Rig({ observer: o });
    expect(r.uie.observer).toBe(o);
    expect(o.attached).toBe(r.uie);
  });

  for (const quantum of [0, 64]) {
    it(`sees every accepted trip, every simulated cycle and every retirement before onTripDone (${quantum ? `run-ahead windows of ${quantum}` : 'lockstep'})`, () => {
      const log: string[] = [];
      const o = new Recorder(log);
      const r = rig(o, log);
      if (quantum) runWindows(r, quantum);
      else r.run();
      expect(o.errors).toEqual([]);
      expect(o.accepted).toEqual([
        [11, 0],
        [12, 1],
        [13, 2],
      ]);
      expect(r.done.map((d) => d.trip)).toEqual([11, 12, 13]);
      expect(o.retired).toEqual(r.done.map((d) => [d.trip, d.cycle]));
      // each retirement reaches the observer just before the model's onTripDone
      expect(log).toEqual(r.done.flatMap((d) => [`observer ${d.trip}@${d.cycle}`, `done ${d.trip}@${d.cycle}`]));
      // the cycles simulated one by one (tick), not the batched ones; lockstep ticks the cycles the rig wakes it for
      expect(o.cycles[0]).toBe(0);
      expect(o.cycles.length + r.uie.batchedCycles).toBeLessThanOrEqual(r.now);
      if (!quantum) expect(r.uie.batchedCycles).toBe(0);
      else expect(r.uie.batchedCycles).toBeGreaterThan(0);
    });
  }

  it('observing changes nothing: cycles, completions, statistics and AMEM bytes as without an observer', () => {
    for (const quantum of [0, 64]) {
      const plain = observe(rig(), quantum);
      const watched = observe(rig(new Recorder([])), quantum);
      expect(watched).toEqual(plain);
    }
  });
});
