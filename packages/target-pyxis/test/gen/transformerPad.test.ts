/**
 * pyxis-gen transformer with a sequence that is not a multiple of 128 (seq 200 -> two token blocks, 56 pad tokens
 * after the real ones; d-model 128, one head, FFN 128, bit-exact). The pad tokens are zero inputs; the causal mask keeps
 * them out of every real token's attention, and what the norms and the MLP make of them is not compared. Expected
 * values: a float64 layer of the 200 real tokens written here from the model (`k.weights`), bounds of
 * docs/generators.md "Transformer layer" (RMS relative <= 0.08, max <= 0.5 RMS(ref)); the FLOPs of the real tokens only.
 */
import { describe, expect, it } from 'vitest';
import { transformer } from '../../src/gen/index.js';
import { runKernel } from './gen.harness.js';
import { decoderLayer, rel, tokens } from './transformer.ref.js';

const S = 200;
const D = 128;
const F = 128;

describe('pyxis-gen transformer: seq 200, padded to two token blocks', () => {
  it('the 200 real tokens against float64; FLOPs of the real tokens only', () => {
    const k = transformer({ seq: S, dModel: D, heads: 1, ffn: F, clusters: [0, 1], uies: 2 });
    // x.npy holds [2, D, 128] with tokens 200..255 zero
    const xIn = k.inputs.find((f) => f.file === 'x.npy')!;
    expect(xIn.shape).toEqual([2, D, 128]);
    for (let d = 0; d < D; d++) for (let t = 72; t < 128; t++) expect(xIn.data[(D + d) * 128 + t]).toBe(0);
    // FLOPs: the four GEMMs over 200 columns; attention per query block b: (b + 1) key blocks of 2 x 128 x 128 x (128 + 128), for its real rows
    const gemmFlops = 2 * S * (3 * D * (D + 128) + D * D + F * (D + 128) + D * F);
    const attnFlops = 2 * 128 * 128 * 256 * (1 * 128 + 2 * 72) / 128;
    expect(k.meta.flops).toBe(gemmFlops + attnFlops);
    const r = runKernel(k);
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    const m = k.weights;
    const x = Float64Array.from(m.x);
    expect(x.length).toBe(S * D);
    const ref = decoderLayer(x, m, { seq: S, dModel: D, ffn: F, dk: D, scale: 1 / Math.sqrt(D) });
    const e = rel(tokens(r.tensor('out_hbm'), S, D), ref); // out [2, D, 128]: the 200 real tokens
    expect(e.rms).toBeLessThanOrEqual(0.08);
    expect(e.maxOverRms).toBeLessThanOrEqual(0.5);
    expect(e.rms).toBeGreaterThan(0);
  }, 60_000);
});
