/**
 * A run stopped (--max-cycles) while work is in flight: its figures count the instructions issued before the stop,
 * so their averages run to the end of the last of them, not to the stop (a 10-tick stop once printed 146,800 GB/s
 * of DMA for a 256 KiB load, 180x the guide's 820 GB/s HBM).
 */
import { describe, expect, it } from 'vitest';
import { run } from './harness.js';

describe('figures of a stopped run', () => {
  const src = '.tensor X hbm fp32 [128, 512]\n.tensor x sbuf fp32 [128, 512]\ndma.copy x, X';

  it('a DMA issued before the stop is averaged over its whole duration: the same GB/s as the finished run', () => {
    const full = run(src, {}, { timingOnly: true }).run.report;
    const stopped = run(src, {}, { timingOnly: true, maxTicks: 10 }).run.report;
    expect(full.stop).toBe('done');
    expect(stopped.stop).toBe('max-cycles');
    expect(stopped.ticks).toBeLessThan(full.ticks);
    expect(stopped.dma.bytes).toBe(128 * 512 * 4);
    expect(stopped.dma.bytes).toBe(full.dma.bytes);
    // full run: bytes over the elapsed time of the run, which ends when the DMAs complete
    expect(full.dma.bandwidth_gbps).toBeCloseTo(full.dma.bytes / full.elapsed_ns, 9);
    // the stopped run's span ends where the last DMA's data is visible; the finished run's kernel stops at most one
    // tick later (the step that finds nothing left), so the two agree to one tick of the full run
    const oneTick = full.dma.bandwidth_gbps / (full.ticks - 1);
    expect(Math.abs(stopped.dma.bandwidth_gbps - full.dma.bandwidth_gbps)).toBeLessThanOrEqual(oneTick * (1 + 1e-9));
    expect(stopped.dma.bandwidth_gbps).toBeLessThanOrEqual(820);
  });

  it('an engine utilisation of a stopped run never passes 100%', () => {
    const v = '.tensor a sbuf fp32 [128, 2048]\n.tensor b sbuf fp32 [128, 2048]\nvector.tensor_copy b, a';
    const stopped = run(v, {}, { timingOnly: true, maxTicks: 20 }).run.report;
    expect(stopped.stop).toBe('max-cycles');
    expect(stopped.engines['vector']!.instructions).toBe(1);
    expect(stopped.engines['vector']!.utilization).toBeLessThanOrEqual(1);
  });
});
