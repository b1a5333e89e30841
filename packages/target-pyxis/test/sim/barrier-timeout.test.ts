/**
 * Barrier timeouts and interrupts (chip §11.6.5-§11.6.7). The expected cycles are derived here from the spec's
 * two-pass marking walk ("walk through the entire Barrier Table once per N cycles, mark all valid barriers; the mark
 * is cleared when the barrier completes; a mark still set on the next pass is a timeout: an interrupt is set and the
 * barrier_id is saved for the first timeout") and the documented parameters; a reference walk written in this file
 * (cycle by cycle, eager) checks the simulator's lazily evaluated walk on random activations.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encode, loadGrammarJson, loadTable } from '@pyxis/codec';
import { BarrierTable, CSR_BT_MEM_DECREMENT, simulateImage, StringSink, TIMEOUT_STATUS_CSR, type SimConfig } from '@pyxis/target-pyxis/sim';
import { ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const CFG = 0x4000_0000;
const hex64 = (b: Uint8Array) => '0x' + Array.from(b).reverse().map((x) => x.toString(16).padStart(2, '0')).join('');
const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * Reference (eager) walk: at the end of every cycle k*N (k >= 1) visit barriers 1..1023 in order; a barrier active
 * then (first used at or before the cycle, not freed at or before it) that is already marked times out (once per
 * activation), otherwise it is marked. Returns [id, walk cycle] of the timeouts in detection order.
 */
function referenceWalk(n: number, acts: Array<{ id: number; t0: number; tf: number }>, end: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const marked = new Set<number>();
  const reported = new Set<number>();
  for (let w = n; w <= end; w += n)
    for (const a of [...acts].sort((x, y) => x.id - y.id)) {
      if (!(a.t0 <= w && a.tf > w)) continue;
      if (marked.has(a.id)) {
        if (!reported.has(a.id)) {
          reported.add(a.id);
          out.push([a.id, w]);
        }
      } else marked.add(a.id);
    }
  return out;
}

describe('§11.6.7 marking walk', () => {
  it('a barrier first used at t0 times out at the walk after the one that marked it, unless freed by then', () => {
    const N = 100;
    // t0 = 250: the walk of cycle 300 marks it, the walk of 400 finds the mark. Freed at 400 (before that walk): no timeout.
    for (const [tf, expectAt] of [[400, -1], [401, 400], [399, -1], [1000, 400]] as const) {
      const bt = new BarrierTable(0, undefined, N);
      bt.setRefCounts(5, 1, 0, 250);
      bt.notify(5, tf);
      const t = bt.timeoutsUpTo(2000);
      if (expectAt < 0) expect(t).toEqual([]);
      else expect(t).toEqual([{ id: 5, since: 250, at: expectAt, freedAt: tf }]);
    }
    // a barrier first used exactly on a walk cycle is marked by that walk (it runs at the end of the cycle)
    const bt = new BarrierTable(0, undefined, N);
    bt.setRefCounts(6, 1, 0, 300);
    expect(bt.timeoutsUpTo(399)).toEqual([]);
    expect(bt.timeoutsUpTo(400).map((x) => x.at)).toEqual([400]);
  });

  it('agrees with an eager cycle-by-cycle walk on random activations; the saved id is the first timeout', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.record({ id: fc.integer({ min: 1, max: 12 }), t0: fc.integer({ min: 0, max: 400 }), len: fc.integer({ min: 0, max: 300 }) }), { maxLength: 12 }),
        (n, raw) => {
          // one activation per id (set_ref_counts at t0, the notify that frees it at t0 + len; len 0 = never freed)
          const seen = new Set<number>();
          const acts = raw.filter((a) => !seen.has(a.id) && seen.add(a.id)).map((a) => ({ id: a.id, t0: a.t0, tf: a.len === 0 ? Infinity : a.t0 + a.len }));
          const bt = new BarrierTable(0, undefined, n);
          const evs = acts.flatMap((a) => [{ t: a.t0, f: () => bt.setRefCounts(a.id, 1, 0, a.t0) }, ...(a.tf < Infinity ? [{ t: a.tf, f: () => bt.notify(a.id, a.tf) }] : [])]);
          for (const e of evs.sort((x, y) => x.t - y.t)) e.f();
          const end = 1000;
          const ref = referenceWalk(n, acts, end);
          const got = bt.timeoutsUpTo(end).map((t): [number, number] => [t.id, t.at]);
          expect(got).toEqual(ref);
          const st = bt.timeoutStatus(end + 1);
          expect(st.valid).toBe(ref.length > 0);
          if (ref.length) expect(st.barrierId).toBe(ref[0]![0]);
          expect(bt.timeoutInterruptsBefore(end + 1)).toBe(ref.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('software clears the saved register; the next timeout detected is saved', () => {
    const bt = new BarrierTable(0, undefined, 10);
    bt.setRefCounts(3, 1, 0, 1); // marked at 10, times out at 20
    bt.setRefCounts(4, 1, 0, 25); // marked at 30, times out at 40
    expect(bt.timeoutStatus(21)).toEqual({ valid: true, barrierId: 3 });
    expect(bt.timeoutStatus(45)).toEqual({ valid: true, barrierId: 3 });
    bt.clearTimeoutStatus(45);
    expect(bt.timeoutStatus(46)).toEqual({ valid: false, barrierId: 0 });
    bt.setRefCounts(7, 1, 0, 46); // marked at 50, times out at 60
    expect(bt.timeoutStatus(61)).toEqual({ valid: true, barrierId: 7 });
    expect(bt.timeoutInterruptsBefore(61)).toBe(3);
  });
});

/** The documented parameters with a walk period N. */
function config(n: number): SimConfig {
  const c = structuredClone(loadGrammarJson<SimConfig>('pyxis', 'sim_config'));
  c.apm.enabled = false;
  c.barrier_timeout_cycles = n;
  return c;
}

describe('a timeout raises the interrupt a host action waits on (chip §11.6.7, §11.6.6)', () => {
  it('the CPU answers the timeout interrupt by notifying the barrier in software: the waiting H2A then runs', () => {
    const N = 1000;
    const c = config(N);
    const b = new ImageBuilder();
    // barrier 9: one producer that never comes (a failed RDMA, say), one consumer (the H2A)
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 9, notify_count: 1, wait_count: 1 })]);
    b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x100, hbm_base_address: 0, length: 1, wait_barrier_id: 9, trip_id: 4 })]);
    const decr = encode(loadTable('pyxis', 'barrier_decr_cnt'), { notif_decr: 1, trip_id: 77 });
    b.metadata = {
      host_actions: [
        { cluster: 0, address: hex(CFG + CSR_BT_MEM_DECREMENT + 9 * 8), value: hex64(decr), after_interrupt: { entry: 'timeout' } },
        // software reads the saved barrier id: bit 0 timeout_valid, bits 10:1 barrier_id = 9
        { cluster: 0, address: hex(CFG + TIMEOUT_STATUS_CSR.offset), value: '0x1', poll: { address: hex(CFG + TIMEOUT_STATUS_CSR.offset), value: hex(1 | (9 << 1)) } },
      ],
    };
    const trace = new StringSink();
    const { report, chip } = simulateImage(b.build(), 'tmo.pimg', { config: c, trace });
    expect(report.stop).toBe('done');
    // barrier 9 is first used within the first N cycles (DPE fetch), so the walk of cycle N marks it and the walk
    // of 2N finds the mark: the interrupt is raised at the end of cycle 2N, the host sees it at 2N + 1.
    const D = 2 * N;
    expect(report.barriers[0]!.interrupt_log).toEqual([{ cycle: D, source: 'barrier_timeout', entry: -1, barrier_id: 9 }]);
    expect(report.barriers[0]!.timeout_interrupts).toBe(1);
    // the host cleared the register after reading it
    expect(report.barriers[0]!.timeout_barrier_id).toBe(-1);
    // released by the software notify at 2N + 1, started launch_latency later, then the documented H2A formula
    const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
    const slice = t.traceEvents.find((e) => e['ph'] === 'X' && e['cat'] === 'trip' && (e['args'] as Record<string, number>)['trip_id'] === 4)!;
    const a = slice['args'] as Record<string, number>;
    const start = D + 1 + c.trip_manager.launch_latency_cycles;
    const h2a = Math.ceil(1024 / (c.hbm.bytes_per_second_per_stack / c.clock_hz) - 1e-9) + c.hbm.read_latency_cycles + Math.ceil(1024 / c.h2a.bytes_per_cycle) + c.amem.write_commit_latency_cycles;
    expect(a['start_cycle']).toBe(start);
    expect(a['end_cycle']).toBe(start + h2a);
    const w = report.warnings.filter((d) => d.code === 'SIM0009');
    expect(w.map((d) => d.message)).toEqual([expect.stringMatching(new RegExp(`^barrier 0:9 timed out at cycle ${D} .*completed at cycle ${D + 1}$`))]);
    expect(chip.barriers[0]!.refCountsValid[9]).toBe(0);
  });

  it('without a timeout handler the run still deadlocks at once (the walk does not keep the run alive)', () => {
    const b = new ImageBuilder();
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 9, notify_count: 1, wait_count: 1 })]);
    b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x100, hbm_base_address: 0, length: 1, wait_barrier_id: 9, trip_id: 4 })]);
    const { report } = simulateImage(b.build(), 'dl.pimg', { config: config(1_000_000) });
    expect(report.stop).toBe('deadlock');
    expect(report.cycles).toBeLessThan(1000);
    // the walks to come are certain after a deadlock: reported as such
    expect(report.warnings.find((d) => d.code === 'SIM0009')?.message).toMatch(/^barrier 0:9 times out after the deadlock, at cycle 2000000 /);
  });
});
