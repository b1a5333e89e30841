/**
 * Power management throttles a DMA once (chip §13; audit D2): at AllowedUtilization u the engine's port
 * reservations take 1/u as long, and nothing else. The expected cycle counts are derived here from the parameters of
 * grammars/pyxis/sim_config.json and the documented H2A formula of docs/timing-model.md with every port rate scaled
 * by u (not from running the model).
 */
import { describe, expect, it } from 'vitest';
import { loadGrammarJson } from '@pyxis/codec';
import { simulateImage, StringSink, type SimConfig } from '@pyxis/target-pyxis/sim';
import { ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;

/** The documented parameters; GrantedPower pinned to G (min = max = G), so AllowedUtilization = G / trip_power. */
function config(apm: boolean, granted: number): SimConfig {
  const c = structuredClone(loadGrammarJson<SimConfig>('pyxis', 'sim_config'));
  c.apm.enabled = apm;
  c.apm.min_granted_power = granted;
  c.apm.max_granted_power = granted;
  return c;
}

/** Cycles for `bytes` through a port of `bpc` bytes per cycle (ends on a whole cycle). */
const portCycles = (bytes: number, bpc: number) => Math.ceil(bytes / bpc - 1e-9);

/**
 * H2A of N KiB at utilisation u (chip §8.1.2, §12.1, §13): N KiB leave the HBM stack at u x stack rate, then the read
 * latency, the last unit's 8 AMEM words through the engine port at u x its rate, then the write-commit latency.
 */
function h2aCycles(c: SimConfig, kib: number, u: number): number {
  const stack = (c.hbm.bytes_per_second_per_stack / c.clock_hz) * u;
  return portCycles(kib * 1024, stack) + c.hbm.read_latency_cycles + portCycles(1024, c.h2a.bytes_per_cycle * u) + c.amem.write_commit_latency_cycles;
}

function h2aTrip(kib: number, power: number, cfg: SimConfig): { start: number; end: number } {
  const b = new ImageBuilder();
  b.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0x10_0000 >> 7, hbm_base_address: 0, length: kib, trip_id: 1, trip_power: power })]);
  const trace = new StringSink();
  const { report } = simulateImage(b.build(), 'apm.pimg', { config: cfg, trace });
  expect(report.stop).toBe('done');
  const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
  for (const e of t.traceEvents) {
    const a = e['args'] as Record<string, number> | undefined;
    if (e['ph'] === 'X' && e['cat'] === 'trip' && a?.['trip_id'] === 1) return { start: a['start_cycle']!, end: a['end_cycle']! };
  }
  throw new Error('no trip slice');
}

describe('APM throttles a DMA once (chip §13)', () => {
  for (const kib of [1, 64, 512])
    it(`H2A of ${kib} KiB at AllowedUtilization 0.5 takes the formula with half the port rates`, () => {
      // trip_power 64 against a GrantedPower pinned at 32: RequestedPower / GrantedPower = 2, u = 0.5 from the trip
      // start (RequestedPower is updated in the trip-manager phase, before the engine issues its first unit).
      const on = h2aTrip(kib, 64, config(true, 32));
      const off = h2aTrip(kib, 64, config(false, 32));
      const c = config(true, 32);
      expect(off.end - off.start).toBe(h2aCycles(c, kib, 1));
      expect(on.end - on.start).toBe(h2aCycles(c, kib, 0.5));
      // The transfer phase (everything but the fixed latencies) is 2x, not 2.7x: the old per-unit bubble gate is gone.
      const fixed = c.hbm.read_latency_cycles + c.amem.write_commit_latency_cycles;
      const ratio = (on.end - on.start - fixed) / (off.end - off.start - fixed);
      if (kib >= 64) expect(ratio).toBeCloseTo(2, 1);
    });

  it('a trip whose power fits in GrantedPower is not throttled', () => {
    const c = config(true, 64);
    const t = h2aTrip(64, 64, c);
    expect(t.end - t.start).toBe(h2aCycles(c, 64, 1));
  });
});
