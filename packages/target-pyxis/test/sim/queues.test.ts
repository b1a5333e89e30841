import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DescriptorQueue, icdmaDestination, queueKind } from '@pyxis/target-pyxis/sim';

describe('descriptor queue ring of lists (chip §11.5.1)', () => {
  it('is empty when head == tail and full when head ^ tail == 0x4', () => {
    const q = new DescriptorQueue(0, 0);
    expect(q.empty).toBe(true);
    for (let i = 0; i < 4; i++) expect(q.enqueue(0x100 * i, 2)).toBe(true);
    expect(q.full).toBe(true);
    expect(q.head ^ q.tail).toBe(0x4);
    expect(q.tail).toBe(0b100); // wrap bit set, q_idx 0
    expect(q.enqueue(0x999, 1)).toBe(false);
    expect(q.headAddress()).toBe(0);
    q.advanceHead();
    expect(q.count).toBe(3);
    expect(q.enqueue(0x400, 3)).toBe(true); // goes into ring entry 0 again
    expect(q.tail).toBe(0b101);
    expect(q.full).toBe(true);
    for (const a of [0x100, 0x200, 0x300, 0x400]) {
      expect(q.headAddress()).toBe(a);
      q.advanceHead();
    }
    expect(q.empty).toBe(true);
    expect(q.head).toBe(0b101);
  });

  it('matches a counting model over random enqueue/dequeue sequences (wrap included)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 200 }), (ops) => {
        const q = new DescriptorQueue(0, 1);
        const model: number[] = [];
        let next = 8;
        for (const enq of ops) {
          if (enq) {
            const ok = q.enqueue(next, 1);
            expect(ok).toBe(model.length < 4);
            if (ok) model.push(next);
            next += 8;
          } else if (model.length) {
            expect(q.headAddress()).toBe(model.shift());
            q.advanceHead();
          }
          expect(q.count).toBe(model.length);
          expect(q.empty).toBe(model.length === 0);
          expect(q.full).toBe(model.length === 4);
        }
      }),
    );
  });

  it('maps queue ids per Table 11-1 and ICDMA destinations per Table 12-1', () => {
    expect(queueKind(0x0b)).toEqual({ kind: 'uie', index: 11 });
    expect(queueKind(0x10)?.kind).toBe('h2a');
    expect(queueKind(0x11)?.kind).toBe('a2h');
    expect(queueKind(0x14)).toEqual({ kind: 'icdma', index: 2 });
    expect(queueKind(0x21)).toEqual({ kind: 'mpe', index: 12 });
    expect(queueKind(0x22)?.kind).toBe('barrier_config');
    expect(queueKind(0x23)).toBeUndefined();
    const table = [
      [1, 2, 3],
      [0, 2, 3],
      [0, 1, 3],
      [0, 1, 2],
    ];
    for (let c = 0; c < 4; c++) for (let i = 0; i < 3; i++) expect(icdmaDestination(c, i)).toBe(table[c]![i]);
  });
});
