/**
 * Trip flush (chip §11.8): software sets Trip Flush mode in the Trip Manager through a CSR; every trip that has not
 * passed its barrier wait is discarded (waiting trips, prefetched trips, and what the DPE keeps fetching until the
 * descriptor queues are empty), trips already past the wait complete normally; once nothing is outstanding the barrier
 * table is re-initialised and the status CSR says so. Expected cycles are derived here from the spec and the
 * documented parameters (DPE: one descriptor read on the NoC port, noc.bytes_per_cycle, + noc.latency_cycles, chip
 * §12.5; H2A formula of docs/timing-model.md; notify_latency_cycles).
 */
import { describe, expect, it } from 'vitest';
import { encode, loadGrammarJson, loadTable } from '@pyxis/codec';
import { CSR_ENQUEUE, descriptorBytes, FLUSH_CSR, FLUSH_STATUS_CSR, simulateImage, StringSink, type SimConfig } from '@pyxis/target-pyxis/sim';
import { bytesOf, gid, ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const CFG = 0x4000_0000;
const hex = (n: number) => `0x${n.toString(16)}`;
const hex64 = (b: Uint8Array) => '0x' + Array.from(b).reverse().map((x) => x.toString(16).padStart(2, '0')).join('');
const FLUSH = hex(CFG + FLUSH_CSR.offset);
const STATUS = hex(CFG + FLUSH_STATUS_CSR.offset);
/** trip_flush_status: bits 15:0 outstanding trips, bit 16 queues empty, bit 17 flush done (memory_map.json). */
const DONE = 1 << 17;
const QUIESCENT = { address: STATUS, mask: hex(0x3ffff), value: hex(DONE | (1 << 16)) };

function config(n = 1000): SimConfig {
  const c = structuredClone(loadGrammarJson<SimConfig>('pyxis', 'sim_config'));
  c.apm.enabled = false;
  c.barrier_timeout_cycles = n;
  return c;
}

function slices(trace: StringSink): Map<number, { start: number; end: number }> {
  const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
  const out = new Map<number, { start: number; end: number }>();
  for (const e of t.traceEvents) {
    const a = e['args'] as Record<string, number> | undefined;
    if (e['ph'] === 'X' && e['cat'] === 'trip' && a) out.set(a['trip_id']!, { start: a['start_cycle']!, end: a['end_cycle']! });
  }
  return out;
}

describe('trip flush (chip §11.8)', () => {
  it('a barrier that never completes: the timeout interrupt leads software to flush; the queues drain and the run ends', () => {
    const N = 1000;
    const c = config(N);
    const b = new ImageBuilder();
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 9, notify_count: 1, wait_count: 1 })]);
    // four H2A trips; the first waits on barrier 9, whose producer never comes (a failed RDMA job)
    b.list(0x10, 0x1100, [1, 2, 3, 4].map((i) => desc('desc_h2a', { amem_start_address: 0x100, hbm_base_address: 0, length: 1, wait_barrier_id: i === 1 ? 9 : 0, trip_id: i })));
    b.metadata = {
      host_actions: [
        { cluster: 0, address: FLUSH, value: '0x1', after_interrupt: { entry: 'timeout' } },
        { cluster: 0, address: FLUSH, value: '0x0', poll: QUIESCENT },
      ],
    };
    const { report, chip } = simulateImage(b.build(), 'flush.pimg', { config: c });
    expect(report.stop).toBe('done');
    // Timeout interrupt at the end of cycle 2N (barrier 9 first used before cycle N); software sets flush mode at
    // F = 2N + 1. At F the waiting trip 1 and the two prefetched trips 2, 3 (dpe.prefetch_depth) are discarded; the
    // DPE then fetches trip 4 (issued at F + 1: one descriptor on the idle NoC port, then the NoC latency) and the
    // trip manager discards it on arrival: nothing is outstanding, the flush is done.
    const F = 2 * N + 1;
    const S = descriptorBytes('h2a');
    expect(c.dpe.prefetch_depth).toBe(2);
    const done = F + 1 + Math.ceil(S / c.noc.bytes_per_cycle) + c.noc.latency_cycles;
    expect(report.trip_flush).toEqual([{ cluster: 0, trips_discarded: 4, done_at: [done], flush_mode: false }]);
    expect(report.trips_by_kind['h2a']).toBeUndefined();
    // the barrier table was re-initialised by the flush
    const bt = chip.barriers[0]!;
    expect([bt.notifyCount[9], bt.waitCount[9], bt.refCountsValid[9]]).toEqual([0, 0, 0]);
    expect(bt.pending(report.cycles)).toEqual([]);
    // the host read the status at done + 1 and left flush mode; nothing else happened after it
    expect(report.cycles).toBe(done + 2);
    expect(chip.tm[0]!.flushMode).toBe(false);
  });

  it('a trip already running completes normally; the trip waiting on its barrier is discarded', () => {
    const c = config(10_000_000);
    const kib = 64;
    const mk = (flushAt?: number) => {
      const b = new ImageBuilder();
      b.data('hbm', 0, bytesOf(kib * 1024, (i) => i * 7 + 3));
      b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 9, notify_count: 1, wait_count: 1 })]);
      b.list(0x10, 0x1100, [
        desc('desc_h2a', { amem_start_address: 0x10_0000 >> 7, hbm_base_address: 0, length: kib, notify_list: [gid(0, 9)], trip_id: 1 }),
        desc('desc_h2a', { amem_start_address: 0x20_0000 >> 7, hbm_base_address: 0, length: kib, wait_barrier_id: 9, trip_id: 2 }),
      ]);
      if (flushAt !== undefined)
        b.metadata = {
          host_actions: [
            { cluster: 0, address: FLUSH, value: '0x1', at_cycle: flushAt },
            { cluster: 0, address: FLUSH, value: '0x0', poll: QUIESCENT },
          ],
        };
      return b.build();
    };
    // where trip 1 starts (the input of the derivation), from a run without flush
    const t0 = new StringSink();
    simulateImage(mk(), 'ref.pimg', { config: c, trace: t0 });
    const s = slices(t0).get(1)!.start;
    const trace = new StringSink();
    const F = s + 100; // inside trip 1's transfer, while trip 2 waits on barrier 9
    const { report, chip } = simulateImage(mk(F), 'flush2.pimg', { config: c, trace });
    expect(report.stop).toBe('done');
    const h2a = Math.ceil((kib * 1024) / (c.hbm.bytes_per_second_per_stack / c.clock_hz) - 1e-9) + c.hbm.read_latency_cycles + Math.ceil(1024 / c.h2a.bytes_per_cycle) + c.amem.write_commit_latency_cycles;
    const t = slices(trace);
    expect(t.get(1)).toEqual({ start: s, end: s + h2a });
    expect(t.has(2)).toBe(false);
    // the trace shows the discarded trip and the flush events (instants at their cycles)
    const ev = (JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> }).traceEvents.filter((e) => e['ph'] === 'i' || e['ph'] === 'I');
    const at = (name: string) => ev.filter((e) => e['name'] === name).map((e) => (e['args'] as Record<string, number>)['cycle'] ?? e['ts']);
    expect(at('flushed h2a trip 2')).toHaveLength(1);
    expect(at('trip flush start')).toHaveLength(1);
    expect(at('trip flush done')).toHaveLength(1);
    // done once trip 1's notification has reached the barrier table (notify_latency_cycles after completion)
    expect(report.trip_flush).toEqual([{ cluster: 0, trips_discarded: 1, done_at: [s + h2a + c.trip_manager.notify_latency_cycles], flush_mode: false }]);
    // trip 1's data arrived, trip 2 never ran
    expect(chip.amem[0]!.readBytes(0x10_0000, 16)).toEqual(bytesOf(16, (i) => i * 7 + 3));
    expect(chip.amem[0]!.readBytes(0x20_0000, 16)).toEqual(new Uint8Array(16));
    expect(report.trips_by_kind['h2a']).toBe(1);
  });

  it('flushing an idle cluster completes in the cycle the mode is set; a later poll waits for its cycle', () => {
    const b = new ImageBuilder();
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: 2, wait_count: 1 })]);
    b.metadata = {
      host_actions: [
        { cluster: 0, address: FLUSH, value: '0x1', at_cycle: 500 },
        { cluster: 0, address: FLUSH, value: '0x0', at_cycle: 800, poll: QUIESCENT },
      ],
    };
    const { report, chip } = simulateImage(b.build(), 'idle.pimg', { config: config() });
    expect(report.stop).toBe('done');
    // nothing outstanding at 500: done in the trip-manager phase of 500; barrier 3 (set up, never notified) reset
    expect(report.trip_flush).toEqual([{ cluster: 0, trips_discarded: 0, done_at: [500], flush_mode: false }]);
    expect(chip.barriers[0]!.refCountsValid[3]).toBe(0);
    // the poll is true from 501 but the action waits for its at_cycle: mode cleared at 800, run over at 801
    expect(report.cycles).toBe(801);
  });

  it('lists enqueued while flush mode is set are discarded too; after flush mode is cleared trips run again', () => {
    const c = config();
    const b = new ImageBuilder();
    b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x100, hbm_base_address: 0, length: 1, wait_barrier_id: 5, trip_id: 1 })]);
    // a second list in the ring behind it
    b.list(0x10, 0x1200, [desc('desc_h2a', { amem_start_address: 0x100, hbm_base_address: 0, length: 1, trip_id: 2 })]);
    // a list placed in AMEM but not enqueued: software enqueues it after leaving flush mode (enqueue CSR, §11.5.1.1)
    b.data('amem', 0x1300, desc('desc_h2a', { amem_start_address: 0x200, hbm_base_address: 0, length: 1, trip_id: 3 }));
    const rec = encode(loadTable('pyxis', 'desc_enqueue_record'), { queue_id: 0x10, descriptor_list_address: 0x1300, descriptor_list_length: 4, cluster: 0 });
    b.metadata = {
      host_actions: [
        { cluster: 0, address: FLUSH, value: '0x1', at_cycle: 500 },
        { cluster: 0, address: FLUSH, value: '0x0', poll: QUIESCENT },
        { cluster: 0, address: hex(CFG + CSR_ENQUEUE), value: hex64(rec) },
      ],
    };
    const { report, chip } = simulateImage(b.build(), 'flush3.pimg', { config: c });
    expect(report.stop).toBe('done');
    expect(report.trip_flush[0]!.trips_discarded).toBe(2);
    expect(report.trips_by_kind['h2a']).toBe(1);
    expect(chip.dpe[0]!.queues[0x10]!.empty).toBe(true);
    // barrier 5 had a wait() (count -1) before the flush: re-initialised
    expect(chip.barriers[0]!.waitCount[5]).toBe(0);
  });
});
