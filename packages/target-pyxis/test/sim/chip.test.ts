import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { loadSimConfig, simulateImage, stopDiagnostic, StringSink, type SimConfig } from '@pyxis/target-pyxis/sim';
import { ImageBuilder, bytesOf, gid } from './pyxisImage.js';

const Q_H2A = 0x10;
const Q_A2H = 0x11;
const Q_BCFG = 0x22;
const desc = ImageBuilder.desc;

describe('pyxis chip: H2A -> barrier -> A2H', () => {
  it('moves 2 KiB HBM -> AMEM -> HBM with a barrier between the trips', () => {
    const b = new ImageBuilder();
    const src = bytesOf(2048, (i) => i * 7 + 3);
    b.data('hbm', 0x4000, src);
    // barrier 5: one producer (H2A), one consumer (A2H)
    b.list(Q_BCFG, 0x1000, [desc('desc_barrier_config', { barrier_id: 5, notify_count: 1, wait_count: 1, trip_id: 1 })]);
    // H2A: HBM 0x4000 (units of 1 KiB: 16) -> AMEM 0x20000 (units of 128 B: 0x400), 2 KiB, notify barrier 0:5
    b.list(Q_H2A, 0x1100, [desc('desc_h2a', { amem_start_address: 0x20000 >> 7, hbm_base_address: 0x4000 >> 10, length: 2, notify_list: [gid(0, 5)], trip_id: 2, trip_power: 10 })]);
    // A2H waits on barrier 5: AMEM 0x20000 -> HBM 0x10000
    b.list(Q_A2H, 0x1200, [desc('desc_a2h', { amem_start_address: 0x20000 >> 7, hbm_base_address: 0x10000 >> 10, length: 2, wait_barrier_id: 5, trip_id: 3, trip_power: 10 })]);
    const trace = new StringSink();
    const { chip, report } = simulateImage(b.build(), 'test.pimg', { trace });
    expect(report.stop).toBe('done');
    expect(chip.hbm.readBytes(0x10000, 2048)).toEqual(src);
    expect(chip.amem[0]!.readBytes(0x20000, 2048)).toEqual(src);
    expect(report.trips_by_kind).toEqual({ barrier_config: 1, h2a: 1, a2h: 1 });
    // The A2H trip cannot start before H2A committed: its start is after the H2A write-commit latency.
    const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
    const slices = t.traceEvents.filter((e) => e['ph'] === 'X' && e['cat'] === 'trip');
    const h2a = slices.find((e) => (e['args'] as Record<string, number>)['trip_id'] === 2)!;
    const a2h = slices.find((e) => (e['args'] as Record<string, number>)['trip_id'] === 3)!;
    const ha = h2a['args'] as Record<string, number>;
    const aa = a2h['args'] as Record<string, number>;
    expect(aa['start_cycle']!).toBeGreaterThanOrEqual(ha['end_cycle']!);
    // H2A: HBM read latency 200 + AMEM commit 100 at least.
    expect(ha['end_cycle']! - ha['start_cycle']!).toBeGreaterThanOrEqual(300);
    expect(report.cycles).toBeGreaterThan(aa['end_cycle']!);
    expect(report.barriers[0]!.frees).toBe(1);
  });

  it('reports a deadlock with the wait graph when a producer never notifies', () => {
    const b = new ImageBuilder();
    b.list(Q_BCFG, 0x1000, [desc('desc_barrier_config', { barrier_id: 9, notify_count: 2, wait_count: 1 })]);
    b.list(Q_H2A, 0x1100, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 1, notify_list: [gid(0, 9)], trip_id: 7 })]);
    b.list(Q_A2H, 0x1200, [desc('desc_a2h', { amem_start_address: 0, hbm_base_address: 4, length: 1, wait_barrier_id: 9, trip_id: 8 })]);
    const { report } = simulateImage(b.build(), 'dl.pimg');
    expect(report.stop).toBe('deadlock');
    const text = report.wait_graph.join('\n');
    expect(text).toMatch(/a2h trip 8 waits on barrier 0:9 \(notify_count=1, wait_count=0/);
    expect(text).toMatch(/barrier 0:9: notify_count=1 .*1 notification\(s\) missing.*blocked: c0\.a2h/);
    const d = stopDiagnostic(report)!;
    expect(d).toBeInstanceOf(DiagnosticError);
    expect(d.diagnostics[0]!.code).toBe('SIM0010');
  });

  it('stops at --max-cycles with the same explanation', () => {
    const b = new ImageBuilder();
    b.list(Q_H2A, 0x1100, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 64 })]);
    const { report } = simulateImage(b.build(), 'mc.pimg', { maxCycles: 50 });
    expect(report.stop).toBe('max-cycles');
    expect(report.cycles).toBe(50);
    expect(report.wait_graph.some((l) => l.startsWith('c0.h2a:'))).toBe(true);
  });
});

describe('cross-cluster link latencies (docs/spec-notes.md "cross-cluster effects travel over timed links")', () => {
  it('a link latency below one cycle in sim_config is a configuration diagnostic, not a crash', () => {
    const b = new ImageBuilder();
    b.list(Q_BCFG, 0x1000, [desc('desc_barrier_config', { barrier_id: 5, notify_count: 1, wait_count: 1, trip_id: 1 })]);
    for (const [key, set] of [
      ['trip_manager.notify_latency_cycles', (c: SimConfig) => void (c.trip_manager.notify_latency_cycles = 0)],
      ['icdma.latency_cycles', (c: SimConfig) => void (c.icdma.latency_cycles = 0)],
      ['noc.latency_cycles', (c: SimConfig) => void (c.noc.latency_cycles = 0)],
    ] as const) {
      const config = loadSimConfig();
      set(config);
      let err: unknown;
      try {
        simulateImage(b.build(), 'l.pimg', { config });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DiagnosticError);
      expect((err as DiagnosticError).diagnostics[0]!.message).toContain(key);
    }
  });
});
