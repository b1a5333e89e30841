/**
 * The compute half skips its grid side while that side is idle and none of its sequencers is active (compute/index.ts
 * `Compute.tick`, `gridQuiet`; issue 23): samples whose grid work starts, stops and restarts around VPU and AMEM work
 * (causal attention: GEMM -> softmax on the VPU -> GEMM; the fused linear layer with the VPU on the writeback stream;
 * compressed weights through the decompressor; two UIEs handing tiles over by barriers) give the same cycles,
 * statistics, per-trip records and results with the skip and without it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Compute } from '../../src/sim/uie/compute/index.js';
import { SEQ_GH } from '../../src/sim/uie/compute/seqIds.js';
import { SAMPLES, ensureInputs, runSample } from '../samples-compute.harness.js';
import { Rig, loops } from './uie-fixture.js';

/** The report without host figures (seconds, rates), the stop reason and cycles included. */
function stripHost(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(stripHost);
  if (x && typeof x === 'object')
    return Object.fromEntries(
      Object.entries(x as Record<string, unknown>)
        .filter(([k]) => !/host|seconds|per_s|wall|cpu|_ms$|rss|heap/i.test(k))
        .map(([k, v]) => [k, stripHost(v)]),
    );
  return x;
}

function both(pasm: string, ld: string, outs: string[]): { on: unknown; off: unknown } {
  const saved = Compute.skipIdleGrid;
  const res: unknown[] = [];
  try {
    for (const skip of [true, false]) {
      Compute.skipIdleGrid = skip;
      const r = runSample(pasm, ld);
      res.push({ report: stripHost(r.report), outs: outs.map((o) => Array.from(r.tensor(o))) });
    }
  } finally {
    Compute.skipIdleGrid = saved;
  }
  return { on: res[0], off: res[1] };
}

/** Trips of `n[k]` GH Nop records each (the grid side's work arrives only by decodes, the last one in the cycle its
 * sequencer finishes): the cycle each trip retires, with or without the skip. */
function ghTrips(n: readonly number[], skip: boolean): unknown {
  const saved = Compute.skipIdleGrid;
  Compute.skipIdleGrid = skip;
  try {
    const r = new Rig();
    const out: unknown[] = [];
    n.forEach((k, i) => {
      r.prog('gh', 0, loops([{ n: k }]), { opcd: 'Nop' });
      r.trip({ trip_id: 1 + i, trip_valid_mask: 1 << SEQ_GH });
      out.push(r.run(1000));
    });
    return { out, done: r.done, stats: { ...r.uie.cmp.stats }, busy: [...r.uie.stats.busyCycles] };
  } finally {
    Compute.skipIdleGrid = saved;
  }
}

describe('Compute.tick skips an idle grid side exactly (compute/index.ts gridQuiet)', () => {
  it('one-record GH trips: the record decoded in the cycle its sequencer finishes still executes', () => {
    const n = [1, 1, 2, 1, 3, 1];
    expect(ghTrips(n, true)).toEqual(ghTrips(n, false));
  });

  it('attn_causal (GEMM, VPU softmax, GEMM on one UIE): identical with and without the skip', () => {
    if (!['attn_qt.npy', 'attn_kt.npy', 'attn_v.npy'].every((f) => existsSync(SAMPLES + f))) execFileSync(process.execPath, [SAMPLES + 'attn_make_inputs.mjs', SAMPLES]);
    const { on, off } = both('attn_causal.pasm', 'attn_causal.ld', ['pt', 'ot']);
    expect(on).toEqual(off);
  });
  it('matmul_bias_relu, conv1x1_compressed, pipeline_2uie: identical with and without the skip', () => {
    if (!['mbr_a.npy', 'mbr_b.npy', 'mbr_bias.npy'].every((f) => existsSync(SAMPLES + f))) execFileSync(process.execPath, [SAMPLES + 'make-fused-inputs.mjs', SAMPLES]);
    ensureInputs(['c1_x.npy', 'c1_w.npy', 'pl_a0.npy', 'pl_a1.npy', 'pl_b.npy', 'pl_b2.npy']);
    for (const [p, outs] of [['matmul_bias_relu', ['c']], ['conv1x1_compressed', ['y']], ['pipeline_2uie', ['d0', 'd1']]] as const) {
      const { on, off } = both(`${p}.pasm`, `${p}.ld`, [...outs]);
      expect(on, p).toEqual(off);
    }
  });
});
