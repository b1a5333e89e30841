/**
 * Barrier semantics against chip §11.6.2. The reference below transcribes the
 * spec's pseudocode (Python) literally; the table under test must agree with
 * it for every interleaving of set_ref_counts / notify / wait, and every
 * interleaving must release every consumer exactly once, at the first point
 * where set-up and all notifications have happened, and end freed.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import { BarrierTable, type BarrierConsumer } from '@pyxis/target-pyxis/sim';

class RefBarrier {
  notify_count = 0;
  wait_count = 0;
  ref_counts_valid = false;
  waiting: string[] = [];
  released: string[] = [];
  freed = 0;
  set_ref_counts(n: number, w: number) {
    this.ref_counts_valid = true;
    this.notify_count += n;
    this.wait_count += w;
    if (this.notify_count === 0) this.release_waiting_consumers();
    if (this.notify_count === 0 && this.wait_count === 0) this.free();
  }
  notify() {
    this.notify_count -= 1;
    if (this.notify_count === 0 && this.ref_counts_valid) {
      this.release_waiting_consumers();
      if (this.wait_count === 0) this.free();
    }
  }
  wait(c: string) {
    this.wait_count -= 1;
    if (this.notify_count === 0 && this.ref_counts_valid) {
      this.released.push(c);
      if (this.wait_count === 0) this.free();
    } else this.waiting.push(c);
  }
  release_waiting_consumers() {
    this.released.push(...this.waiting);
    this.waiting = [];
  }
  free() {
    this.ref_counts_valid = false;
    this.freed++;
  }
}

type Op = { k: 'set' } | { k: 'notify' } | { k: 'wait'; c: string };

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  const out: T[][] = [];
  xs.forEach((x, i) => {
    for (const p of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...p]);
  });
  return out;
}

function consumer(name: string, log: string[]): BarrierConsumer {
  return { label: name, go: () => void log.push(name) };
}

function runBoth(ops: Op[], n: number, w: number) {
  const ref = new RefBarrier();
  const bt = new BarrierTable(0);
  const log: string[] = [];
  const releasedAt: Record<string, number> = {};
  ops.forEach((op, t) => {
    const before = log.length;
    if (op.k === 'set') {
      ref.set_ref_counts(n, w);
      bt.setRefCounts(7, n, w, t);
    } else if (op.k === 'notify') {
      ref.notify();
      bt.notify(7, t);
    } else {
      ref.wait(op.c);
      bt.wait(7, consumer(op.c, log), t);
    }
    for (const c of log.slice(before)) releasedAt[c] = t;
    expect(bt.notifyCount[7]).toBe(ref.notify_count);
    expect(bt.waitCount[7]).toBe(ref.wait_count);
    expect(bt.refCountsValid[7] === 1).toBe(ref.ref_counts_valid);
  });
  expect(log).toEqual(ref.released);
  return { bt, ref, log, releasedAt };
}

describe('barrier table (chip §11.6.2)', () => {
  it('every order of set_ref_counts(2,2), 2 notifies and 2 waits releases both consumers once and frees the barrier', () => {
    const ops: Op[] = [{ k: 'set' }, { k: 'notify' }, { k: 'notify' }, { k: 'wait', c: 'A' }, { k: 'wait', c: 'B' }];
    const perms = permutations(ops);
    expect(perms.length).toBe(120);
    for (const p of perms) {
      const { bt, ref, log, releasedAt } = runBoth(p, 2, 2);
      expect([...log].sort()).toEqual(['A', 'B']);
      // Released at the later of its own wait and the moment set-up + both notifies have happened.
      const ready = Math.max(p.findIndex((o) => o.k === 'set'), p.map((o, i) => (o.k === 'notify' ? i : -1)).reduce((a, b) => Math.max(a, b)));
      for (const c of ['A', 'B']) expect(releasedAt[c]).toBe(Math.max(ready, p.findIndex((o) => o.k === 'wait' && o.c === c)));
      expect(ref.freed).toBe(1);
      expect(bt.frees).toBe(1);
      expect(bt.refCountsValid[7]).toBe(0);
      expect(bt.notifyCount[7]).toBe(0);
      expect(bt.waitCount[7]).toBe(0);
    }
  });

  it('negative counts record notifies/waits processed before set-up', () => {
    const bt = new BarrierTable(1);
    const log: string[] = [];
    bt.notify(3, 0);
    bt.wait(3, consumer('X', log), 1);
    expect(bt.notifyCount[3]).toBe(-1);
    expect(bt.waitCount[3]).toBe(-1);
    expect(bt.refCountsValid[3]).toBe(0);
    expect(log).toEqual([]);
    bt.setRefCounts(3, 1, 1, 2);
    expect(log).toEqual(['X']);
    expect(bt.refCountsValid[3]).toBe(0); // freed
  });

  it('barrier 0 is the no-op: wait(0) goes at once and notify(0) does nothing', () => {
    const bt = new BarrierTable(0);
    const log: string[] = [];
    expect(bt.wait(0, consumer('Z', log), 0)).toBe(true);
    bt.notify(0, 0);
    expect(log).toEqual(['Z']);
    expect(bt.notifies).toBe(0);
  });

  it('random interleavings agree with the pseudocode (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 1e9 }), (n, w, seed) => {
        const ops: Op[] = [{ k: 'set' }, ...Array.from({ length: n }, () => ({ k: 'notify' as const })), ...Array.from({ length: w }, (_, i) => ({ k: 'wait' as const, c: `c${i}` }))];
        let s = seed;
        for (let i = ops.length - 1; i > 0; i--) {
          s = (s * 1103515245 + 12345) % 2 ** 31;
          const j = s % (i + 1);
          [ops[i], ops[j]] = [ops[j]!, ops[i]!];
        }
        const { log, bt } = runBoth(ops, n, w);
        expect(log.length).toBe(w);
        expect(bt.refCountsValid[7]).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('counts outside the 6-bit signed range and re-use before free are errors (§11.6.1, §11.6.2)', () => {
    const bt = new BarrierTable(0);
    const log: string[] = [];
    for (let i = 0; i < 32; i++) bt.notify(4, i);
    expect(bt.notifyCount[4]).toBe(-32);
    expect(() => bt.notify(4, 40)).toThrow(DiagnosticError);
    const bt2 = new BarrierTable(0);
    bt2.setRefCounts(5, 1, 1, 0);
    try {
      bt2.setRefCounts(5, 1, 1, 1);
      expect.unreachable();
    } catch (e) {
      expect((e as DiagnosticError).diagnostics[0]!.code).toBe('SIM0008');
      expect((e as DiagnosticError).diagnostics[0]!.spec).toMatch(/§11\.6\.2/);
    }
    expect(() => bt.wait(1024, consumer('q', log), 0)).toThrow(/out of range/);
  });

  it('bt_mem_decrement: notif_decr acts as notify, wait_decr frees after the CPU consumer, both at once is illegal (§11.6.6)', () => {
    const bt = new BarrierTable(0);
    const log: string[] = [];
    bt.configureInterrupt(2, true, 6);
    bt.setRefCounts(6, 1, 2, 0); // one hardware consumer + the CPU
    bt.wait(6, consumer('uie', log), 1);
    bt.softwareDecrement(6, 0, 1, 99, 2);
    expect(log).toEqual(['uie']);
    expect(bt.interruptCount[2]).toBe(1);
    expect(bt.refCountsValid[6]).toBe(1); // CPU reference still held
    bt.softwareDecrement(6, 1, 0, 99, 3);
    expect(bt.refCountsValid[6]).toBe(0);
    expect(() => bt.softwareDecrement(6, 1, 1, 0, 4)).toThrow(/both/);
  });
});
