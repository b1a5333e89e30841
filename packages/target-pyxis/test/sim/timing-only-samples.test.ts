/**
 * `--timing-only` (docs/timing-model.md "Pyxis grid"): the grid's operand data (GV Lin2Log, GH Hbuf reads, WDP
 * Lin2Log and Hbuf bytes) and the LLC arithmetic are skipped, nothing else. On every compute sample the run must give
 * the same cycle count, the same statistics of every engine (compute counters, stalls, per-trip records, AMEM and
 * VPU figures) and the same diagnostics as the full run; only the `timing_only` flag differs.
 */
import { describe, expect, it } from 'vitest';
import { ensureInputs, runSample } from '../samples-compute.harness.js';

const SAMPLES: Array<[string, string]> = [
  ['matmul_fp8.pasm', 'matmul_fp8.ld'],
  ['matmul_fp16.pasm', 'matmul_fp16.ld'],
  ['matmul_transposed_fp8.pasm', 'matmul_transposed_fp8.ld'],
  ['conv1x1_compressed.pasm', 'conv1x1_compressed.ld'],
  ['conv1x1_residual.pasm', 'conv1x1_residual.ld'],
  ['conv3x3_pad.pasm', 'conv3x3_pad.ld'],
  ['transpose_identity.pasm', 'transpose_identity.ld'],
  ['matmul_bias_relu.pasm', 'matmul_bias_relu.ld'],
  ['pipeline_2uie.pasm', 'pipeline_2uie.ld'],
];

/** The report without the timing-only flag (the one figure that must differ). */
function figures(r: ReturnType<typeof runSample>): unknown {
  return JSON.parse(JSON.stringify(r.report), (k, v) => (k === 'timing_only' ? undefined : v));
}

describe('--timing-only gives the cycles and statistics of the full run', () => {
  ensureInputs(['mm_fp8_a.npy']);
  for (const [pasm, ld] of SAMPLES) {
    it(pasm, () => {
      const full = runSample(pasm, ld);
      const fast = runSample(pasm, ld, { timingOnly: true });
      expect(full.report.stop).toBe('done');
      expect(fast.compute().timing_only).toBe(true);
      expect(fast.report.cycles).toBe(full.report.cycles);
      expect(figures(fast)).toEqual(figures(full));
    });
  }
});
