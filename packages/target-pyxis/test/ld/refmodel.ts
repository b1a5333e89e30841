/**
 * Test helper (not a test): an independent reference model of the barrier
 * semantics of chip §11.6.2 and of the trip managers, shared by the
 * allocator property tests and the end-to-end image tests.
 */
import type { AllocatedBarrier, BarrierPlan } from '../../src/ld/barriers.js';

/**
 * Reference model of chip §11.6.2 written independently of the allocator:
 * Barrier objects with set_ref_counts / notify / wait exactly as the spec's
 * pseudocode, per-queue in-order launch (trip manager, §11.3), the barrier
 * config queue as its own engine, and completion in queue order per queue
 * (what makes no-op trips extend the notify_list, §11.4.2).
 */
export class RefBarrier {
  notify_count = 0;
  wait_count = 0;
  ref_counts_valid = false;
  waiting: Array<() => void> = [];
  frees = 0;
  set_ref_counts(n: number, w: number) {
    this.ref_counts_valid = true;
    this.notify_count += n;
    this.wait_count += w;
    if (this.notify_count === 0) this.release();
    if (this.notify_count === 0 && this.wait_count === 0) this.free();
  }
  notify() {
    this.notify_count -= 1;
    if (this.notify_count === 0 && this.ref_counts_valid) {
      this.release();
      if (this.wait_count === 0) this.free();
    }
  }
  wait(go: () => void) {
    this.wait_count -= 1;
    if (this.notify_count === 0 && this.ref_counts_valid) {
      go();
      if (this.wait_count === 0) this.free();
    } else this.waiting.push(go);
  }
  release() {
    const w = this.waiting;
    this.waiting = [];
    for (const g of w) g();
  }
  free() {
    this.ref_counts_valid = false;
    this.frees++;
  }
}

export interface SimResult {
  launchOrder: number[]; // planned indices
  completeTime: Map<number, number>;
  launchTime: Map<number, number>;
  launches: Map<number, number>;
  tables: Map<string, RefBarrier>;
}

/** Runs the plan with random interleavings chosen by `rnd`. */
export function simulate(plan: BarrierPlan, rnd: () => number): SimResult {
  const tables = new Map<string, RefBarrier>();
  const bar = (cluster: number, id: number) => {
    const k = `${cluster}:${id}`;
    let b = tables.get(k);
    if (!b) tables.set(k, (b = new RefBarrier()));
    return b;
  };
  // Queues: planned trips per (cluster, queue) in order; barrier configs as a separate queue per cluster.
  const queues = new Map<string, number[]>();
  plan.trips.forEach((t, i) => {
    const k = `${t.cluster}:${t.queue}`;
    if (!queues.has(k)) queues.set(k, []);
    queues.get(k)!.push(i);
  });
  // Barrier-config engine: one in-order queue per cluster; a descriptor with
  // config_wait waits on that barrier before its set_ref_counts (chip §11.4.11).
  const cfgQ = new Map<number, AllocatedBarrier[]>();
  for (const b of plan.barriers) {
    if (!cfgQ.has(b.cluster)) cfgQ.set(b.cluster, []);
    cfgQ.get(b.cluster)!.push(b);
  }
  const cfgBlocked = new Set<number>();
  const head = new Map<string, number>();
  const blocked = new Set<string>(); // queue waiting on a barrier
  const inflight = new Map<string, number[]>(); // launched, not complete (in order)
  const launches = new Map<number, number>();
  const launchTime = new Map<number, number>();
  const completeTime = new Map<number, number>();
  const launchOrder: number[] = [];
  let time = 0;
  for (let step = 0; step < 100000; step++) {
    const actions: Array<() => void> = [];
    for (const [c, q] of cfgQ)
      if (q.length && !cfgBlocked.has(c)) actions.push(() => {
        const b = q[0]!;
        const go = () => {
          q.shift();
          cfgBlocked.delete(c);
          bar(b.cluster, b.id).set_ref_counts(b.notify_count, b.wait_count);
        };
        cfgBlocked.add(c);
        if (b.config_wait) bar(c, b.config_wait).wait(go);
        else go();
      });
    for (const [k, list] of queues) {
      const h = head.get(k) ?? 0;
      if (h < list.length && !blocked.has(k)) actions.push(() => {
        const i = list[h]!;
        const t = plan.trips[i]!;
        const go = () => {
          blocked.delete(k);
          head.set(k, h + 1);
          launches.set(i, (launches.get(i) ?? 0) + 1);
          launchTime.set(i, ++time);
          launchOrder.push(i);
          if (!inflight.has(k)) inflight.set(k, []);
          inflight.get(k)!.push(i);
        };
        blocked.add(k);
        if (t.wait === 0) go();
        else bar(t.cluster, t.wait).wait(go);
      });
      const fl = inflight.get(k);
      if (fl && fl.length) actions.push(() => {
        const i = fl.shift()!; // completion in queue order
        completeTime.set(i, ++time);
        for (const g of plan.trips[i]!.notify) bar(g >> 10, g & 0x3ff).notify();
      });
    }
    if (!actions.length) break;
    actions[Math.floor(rnd() * actions.length)]!();
  }
  return { launchOrder, completeTime, launchTime, launches, tables };
}

export function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

