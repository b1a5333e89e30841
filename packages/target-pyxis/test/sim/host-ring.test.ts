/**
 * The host agent feeds queues with more than 4 lists (chip §11.5.1): records
 * keep their order per queue, a full ring only holds back its own queue.
 */
import { describe, expect, it } from 'vitest';
import { simulateImage } from '@pyxis/target-pyxis/sim';
import { gid, ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const Q_UIE0 = 0x00;
const Q_BCFG = 0x22;

describe('host agent: lists beyond the 4-entry ring', () => {
  it('16 single-trip lists on UIE 0 wait for barrier 3, notified by a UIE 1 trip enqueued after them', () => {
    const b = new ImageBuilder();
    b.list(Q_BCFG, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: 1, wait_count: 1, trip_id: 100 })]);
    // UIE 0: 16 lists of one no-op trip each (more than the ring plus the prefetch queue hold); the first waits for barrier 3
    for (let k = 0; k < 16; k++) b.list(Q_UIE0, 0x2000 + k * 0x100, [desc('desc_uie', { trip_id: 1 + k, ...(k === 0 ? { wait_barrier_id: 3 } : {}) })]);
    // UIE 1's record comes after all of them; an in-order host would never reach it
    b.list(0x01, 0x3000, [desc('desc_uie', { trip_id: 50, notify_list: [gid(0, 3)] })]);
    const { chip, report } = simulateImage(b.build(), 'ring.pimg');
    expect(report.stop).toBe('done');
    expect(chip.host.enqueued).toBe(18);
    expect(report.trips_by_kind).toEqual({ barrier_config: 1, uie: 17 });
    expect(report.dpe[0]!.dequeue_events).toBe(18);
  });

  it('an unsatisfiable wait still ends in a deadlock; the host reports the full ring', () => {
    const b = new ImageBuilder();
    for (let k = 0; k < 12; k++) b.list(Q_UIE0, 0x2000 + k * 0x100, [desc('desc_uie', { trip_id: 1 + k, ...(k === 0 ? { wait_barrier_id: 7 } : {}) })]);
    const { chip, report } = simulateImage(b.build(), 'dl.pimg');
    expect(report.stop).toBe('deadlock');
    expect(report.wait_graph.join('\n')).toMatch(/uie0 trip 1 waits on barrier 0:7/);
    expect(chip.host.enqueued).toBeLessThan(12);
    expect(chip.host.blockedReason()).toMatch(/ring of queue 0x0 in cluster 0 is full/);
  });
});
