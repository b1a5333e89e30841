/** Bandwidth/latency model against hand-computed figures from sim_config.json (APM off so nothing is throttled). */
import { describe, expect, it } from 'vitest';
import { loadSimConfig, simulateImage, StringSink } from '@pyxis/target-pyxis/sim';
import { ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;

function tripSlice(trace: StringSink, tripId: number) {
  const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
  const e = t.traceEvents.find((x) => x['ph'] === 'X' && (x['args'] as Record<string, number>)['trip_id'] === tripId)!;
  const a = e['args'] as Record<string, number>;
  return a['end_cycle']! - a['start_cycle']!;
}

describe('DMA timing', () => {
  const cfg = loadSimConfig();
  cfg.apm.enabled = false;

  it('H2A of 256 KiB is limited by the HBM stack (1229 GB/s at 1.33 GHz = 924 B/cycle) plus read latency and commit', () => {
    const b = new ImageBuilder();
    b.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 256, trip_id: 1 })]);
    const trace = new StringSink();
    simulateImage(b.build(), 't.pimg', { config: cfg, trace });
    const hbmBpc = 1229e9 / 1.33e9; // 924.06
    // last unit leaves HBM at ceil(256*1024/hbmBpc), then read latency, 1 KiB into AMEM at 1024 B/cycle, commit latency
    const expected = Math.ceil((256 * 1024) / hbmBpc) + cfg.hbm.read_latency_cycles + 1 + cfg.amem.write_commit_latency_cycles;
    const d = tripSlice(trace, 1);
    expect(d).toBeGreaterThanOrEqual(expected - 2);
    expect(d).toBeLessThanOrEqual(expected + 2);
  });

  it('ICDMA of 64 KiB runs at 128 B/cycle per engine', () => {
    const b = new ImageBuilder();
    b.list(0x12, 0x1000, [desc('desc_icdma', { amem_source_start_address: 0, amem_dest_start_address: 0, length: 512, core_switch_plane_mask: 0xf, trip_id: 1 })]);
    b.data('amem', 0, new Uint8Array(8), 1); // make cluster 1 exist
    const trace = new StringSink();
    simulateImage(b.build(), 't.pimg', { config: cfg, trace });
    const expected = (64 * 1024) / 128 + cfg.icdma.latency_cycles + cfg.amem.write_commit_latency_cycles;
    const d = tripSlice(trace, 1);
    expect(d).toBeGreaterThanOrEqual(expected - 2);
    expect(d).toBeLessThanOrEqual(expected + 10);
  });

  it('H2A and A2H running together share the HBM port', () => {
    const one = new ImageBuilder();
    one.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 128, trip_id: 1 })]);
    const both = new ImageBuilder();
    both.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 128, trip_id: 1 })]);
    both.list(0x11, 0x1100, [desc('desc_a2h', { amem_start_address: 0x100000 >> 7, hbm_base_address: 1024, length: 128, trip_id: 2 })]);
    const r1 = simulateImage(one.build(), 'a.pimg', { config: cfg }).report;
    const r2 = simulateImage(both.build(), 'b.pimg', { config: cfg }).report;
    const hbm = r2.ports.find((p) => p.name === 'c0.hbm')!;
    expect(hbm.bytes).toBe(2 * 128 * 1024);
    // twice the bytes through one 924 B/cycle port: the pair takes ~2x the HBM time of one transfer
    expect(r2.cycles - r1.cycles).toBeGreaterThan(0.8 * ((128 * 1024) / 924));
  });
});
